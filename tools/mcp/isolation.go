package mcp

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A stdio server is a program the job spec makes the worker run, so it runs
// with as little as the worker can give it: as an unprivileged user (never
// root), without capabilities or supplementary groups, with no_new_privs,
// killed with the worker, in a directory of its own for the session, and
// with only the environment the spec declares.

// HomeVar names a stdio server's own directory for the session (its working
// directory, HOME and TMPDIR). A spec writes ${QUARRY_MCP_HOME} in a
// server's env, args or cwd to put the server's data there, e.g.
// MEMORY_FILE_PATH: ${QUARRY_MCP_HOME}/memory.jsonl. The directory is made
// when the session opens and removed, with everything in it, when it closes.
const HomeVar = "QUARRY_MCP_HOME"

// DefaultUser is the account stdio servers run as when the worker is root:
// Debian's nobody/nogroup, distinct from the sandbox's slot uids (61000+).
var DefaultUser = User{UID: 65534, GID: 65534}

// minimalPath is a stdio server's PATH unless its env sets one; the
// directory of the server's command is put first, so a command such as npx
// finds the node installed beside it.
var minimalPath = []string{"/usr/local/bin", "/usr/bin", "/bin"}

// User is an account stdio servers run as.
type User struct {
	UID, GID int
}

// WithUser sets the account stdio servers run as when the worker is root
// (default DefaultUser). Root (uid or gid 0) is refused. A worker that is
// not root runs its servers as its own user and refuses any other.
func WithUser(u User) Option { return func(o *options) { o.user = &u } }

// WithHomeBase sets where the servers' per-session directories are made
// (default os.TempDir()). The user the servers run as must be able to reach
// it (a sticky world-writable directory such as /tmp, or one it may enter).
func WithHomeBase(dir string) Option { return func(o *options) { o.homeBase = dir } }

// runAs decides the credentials of stdio servers: nil means the worker's own
// user (the worker is not root).
func runAs(o options) (*User, error) {
	if euid := os.Geteuid(); euid != 0 {
		if o.user != nil && o.user.UID != euid {
			return nil, fmt.Errorf("stdio servers cannot run as uid %d: the worker is not root, so they run as its own user (uid %d)", o.user.UID, euid)
		}
		return nil, nil
	}
	u := DefaultUser
	if o.user != nil {
		u = *o.user
	}
	if u.UID <= 0 || u.GID <= 0 {
		return nil, fmt.Errorf("stdio servers never run as root: user %d:%d refused", u.UID, u.GID)
	}
	return &u, nil
}

// makeHome makes a server's directory for one session, owned by the user
// the server runs as and closed to everyone else.
func (t *Tool) makeHome(server string) (string, error) {
	dir, err := os.MkdirTemp(t.opts.homeBase, t.homePattern(server))
	if err != nil {
		return "", fmt.Errorf("home of server %s: %w", server, err)
	}
	if u := t.user; u != nil {
		if err := os.Chown(dir, u.UID, u.GID); err != nil {
			return "", errors.Join(fmt.Errorf("home of server %s: %w", server, err), os.RemoveAll(dir))
		}
	}
	return dir, nil
}

// expandHome replaces ${QUARRY_MCP_HOME} in an argument or cwd. Other ${…}
// stay literal there: the worker's variables are resolved only in env, which
// other users cannot read in /proc, as they can a command line.
func expandHome(s, home string) string {
	return strings.ReplaceAll(s, "${"+HomeVar+"}", home)
}

// argv is how a stdio server is started: its command resolved on the
// worker's PATH, its args with the home expanded, behind setpriv (when
// installed) for no_new_privs and an empty inheritable (so ambient)
// capability set. It also returns the resolved command.
func (t *Tool) argv(name string, srv Server, home string) (argv []string, command string, err error) {
	path, err := exec.LookPath(srv.Command)
	if err == nil {
		path, err = filepath.Abs(path)
	}
	if err != nil {
		return nil, "", fmt.Errorf("mcpServers.%s.command: %w", name, err)
	}
	argv = []string{path}
	for _, a := range srv.Args {
		argv = append(argv, expandHome(a, home))
	}
	if t.setpriv != "" {
		argv = append([]string{t.setpriv, "--no-new-privs", "--inh-caps=-all", "--"}, argv...)
	}
	return argv, path, nil
}

// serverEnv is a stdio server's whole environment: PATH, HOME and TMPDIR
// (the last two its home), then the spec's env with ${NAME} resolved on the
// worker (${QUARRY_MCP_HOME} is the home; resolved values are secrets,
// redacted from what the agent sees). Nothing else of the worker's passes.
func (t *Tool) serverEnv(name string, srv Server, command, home string, sc *secrets) ([]string, error) {
	path := minimalPath
	if dir := filepath.Dir(command); !slices.Contains(path, dir) {
		path = append([]string{dir}, path...)
	}
	env := map[string]string{"PATH": strings.Join(path, ":"), "HOME": home, "TMPDIR": home}
	lookup := func(k string) (string, bool) {
		if k == HomeVar {
			return home, true
		}
		return t.opts.lookupEnv(k)
	}
	for _, k := range sortedKeys(srv.Env) {
		v, err := expand(srv.Env[k], lookup, sc)
		if err != nil {
			return nil, fmt.Errorf("mcpServers.%s.env.%s: %w", name, k, err)
		}
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for _, k := range sortedKeys(env) {
		out = append(out, k+"="+env[k])
	}
	return out, nil
}

// CheckCommands reports whether every stdio server's command resolves to an
// executable on this machine, without starting anything (a dry run's check).
func (c Config) CheckCommands() error {
	for _, name := range sortedKeys(c.Servers) {
		if srv := c.Servers[name]; srv.stdio() {
			if _, err := exec.LookPath(srv.Command); err != nil {
				return fmt.Errorf("mcpServers.%s.command: %w", name, err)
			}
		}
	}
	return nil
}
