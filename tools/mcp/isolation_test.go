package mcp

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// wantUser is who stdio servers must run as: nobody when the tests run as
// root (as in CI), else the test's own user.
func wantUser() User {
	if os.Geteuid() == 0 {
		return DefaultUser
	}
	return User{UID: os.Geteuid(), GID: os.Getegid()}
}

// procStatus reads the named fields of /proc/<pid>/status.
func procStatus(t *testing.T, pid int) map[string]string {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			out[k] = strings.Join(strings.Fields(v), " ")
		}
	}
	return out
}

func serverPid(t *testing.T, tool *Tool, s interface{ Close() error }) int {
	t.Helper()
	sess := s.(*session)
	pid, err := strconv.Atoi(run(t, tool, sess, gemCall("pid", `{}`)).Observation)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestStdioServerUnprivileged: a stdio server runs as the unprivileged user
// with no supplementary groups, no capabilities and no_new_privs, dies with
// the worker, in its own directory (cwd, HOME), with only its declared env.
func TestStdioServerUnprivileged(t *testing.T) {
	srv := goStdioServer(t, map[string]string{"DATA": "${QUARRY_MCP_HOME}/data"})
	tool := newTool(t, Config{Servers: map[string]Server{"go": srv}})
	s := openT(t, tool)
	home := s.(*session).homes["go"]
	pid := serverPid(t, tool, s)
	u := wantUser()
	st := procStatus(t, pid)
	for field, want := range map[string]string{
		"Uid":        fmt.Sprintf("%d %d %d %d", u.UID, u.UID, u.UID, u.UID),
		"Gid":        fmt.Sprintf("%d %d %d %d", u.GID, u.GID, u.GID, u.GID),
		"Groups":     "",
		"CapInh":     "0000000000000000",
		"CapPrm":     "0000000000000000",
		"CapEff":     "0000000000000000",
		"CapAmb":     "0000000000000000",
		"NoNewPrivs": "1",
	} {
		if os.Geteuid() != 0 && (field == "Groups" || strings.HasPrefix(field, "Cap")) {
			continue // a non-root worker's own groups and (empty) capabilities pass
		}
		if st[field] != want {
			t.Errorf("server %s: %q, want %q", field, st[field], want)
		}
	}
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid)); err != nil || cwd != home {
		t.Errorf("server cwd %q (%v), want its home %q", cwd, err, home)
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, kv := range bytes.Split(bytes.TrimRight(environ, "\x00"), []byte{0}) {
		k, _, _ := strings.Cut(string(kv), "=")
		names = append(names, k)
	}
	slices.Sort(names)
	if want := []string{"DATA", "HOME", "PATH", serverModeEnv, "TMPDIR"}; !slices.Equal(names, want) {
		t.Errorf("server environment %v, want %v", names, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

// TestHomePerSession: each session's server gets a directory of its own,
// owned by the server's user and closed to others, removed on Close.
func TestHomePerSession(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, nil)}})
	a, b := openT(t, tool), openT(t, tool)
	ha, hb := a.(*session).homes["go"], b.(*session).homes["go"]
	if ha == hb || ha == "" {
		t.Fatalf("homes %q and %q", ha, hb)
	}
	fi, err := os.Stat(ha)
	if err != nil {
		t.Fatal(err)
	}
	u := wantUser()
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != u.UID || int(st.Gid) != u.GID || fi.Mode().Perm() != 0o700 {
		t.Errorf("home %s: owner %d:%d mode %v, want %d:%d 0700", ha, st.Uid, st.Gid, fi.Mode().Perm(), u.UID, u.GID)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ha); !os.IsNotExist(err) {
		t.Errorf("home %s after Close: %v", ha, err)
	}
	if _, err := os.Stat(hb); err != nil {
		t.Errorf("closing one session removed another's home: %v", err)
	}
}

// TestRunAsRoot: stdio servers never run as root.
func TestRunAsRoot(t *testing.T) {
	_, err := New(Config{Servers: map[string]Server{"go": {Command: "x"}}}, WithUser(User{UID: 0, GID: 0}))
	want := "never run as root"
	if os.Geteuid() != 0 {
		want = "the worker is not root"
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("New with user root: %v, want …%s…", err, want)
	}
}

// memoryServer is @modelcontextprotocol/server-memory run by node, with env.
func memoryServer(t *testing.T, env map[string]string) (Server, string) {
	t.Helper()
	node, _ := everything(t)
	entry := npm.Entry(t, "@modelcontextprotocol/server-memory")
	return Server{Command: node, Args: []string{entry}, Env: env}, entry
}

const createAlpha = `{"entities": [{"name": "alpha", "entityType": "secret", "observations": ["the answer is 42"]}]}`

// TestMemoryServerPerEpisode: with its file in ${QUARRY_MCP_HOME}, the
// memory server of one episode never shows another episode's entities, nor
// those of an earlier session; its state survives a restart of the server
// within the episode, and the observation after the restart says so.
func TestMemoryServerPerEpisode(t *testing.T) {
	srv, _ := memoryServer(t, map[string]string{"MEMORY_FILE_PATH": "${QUARRY_MCP_HOME}/memory.jsonl"})
	tool := newTool(t, Config{Servers: map[string]Server{"memory": srv}})
	a, b := openT(t, tool), openT(t, tool)
	if res := run(t, tool, a, gemCall("create_entities", createAlpha)); res.Error {
		t.Fatalf("create_entities: %+v", res)
	}
	if obs := run(t, tool, a, gemCall("read_graph", `{}`)).Observation; !strings.Contains(obs, "the answer is 42") {
		t.Fatalf("episode a does not read its own entity: %s", obs)
	}
	if obs := run(t, tool, b, gemCall("read_graph", `{}`)).Observation; strings.Contains(obs, "alpha") {
		t.Fatalf("episode b reads episode a's entity: %s", obs)
	}
	home := a.(*session).homes["memory"]
	if _, err := os.Stat(filepath.Join(home, "memory.jsonl")); err != nil {
		t.Fatalf("memory file not in the episode's home: %v", err)
	}

	// The server dies between two calls of episode a: it is restarted, the
	// observation says so, and the file kept in its home still holds alpha.
	pid := a.(*session).conns["memory"].cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDown(t, a, "memory")
	obs := run(t, tool, a, gemCall("read_graph", `{}`)).Observation
	if !strings.HasPrefix(obs, "[MCP server memory was restarted before this call") || !strings.Contains(obs, "the answer is 42") {
		t.Fatalf("read after a restart: %s", obs)
	}

	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Fatalf("home %s after Close: %v", home, err)
	}
	later := openT(t, tool) // a later episode (or job) starts empty
	if obs := run(t, tool, later, gemCall("read_graph", `{}`)).Observation; strings.Contains(obs, "alpha") {
		t.Fatalf("a later session reads a closed one's entity: %s", obs)
	}
}

// TestMemoryServerDefaultFile: a spec that does not point the memory server
// at its home cannot share state through the file beside the server's code:
// the server's user may not write there.
func TestMemoryServerDefaultFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("needs root, to run the server as an unprivileged user")
	}
	srv, entry := memoryServer(t, nil)
	shared := filepath.Join(filepath.Dir(entry), "memory.jsonl")
	os.Remove(shared)
	tool := newTool(t, Config{Servers: map[string]Server{"memory": srv}})
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("create_entities", createAlpha)); !res.Error || !strings.Contains(res.Observation, "EACCES") {
		t.Errorf("create_entities beside the server's code: %+v, want a permission error", res)
	}
	if _, err := os.Stat(shared); !os.IsNotExist(err) {
		os.Remove(shared)
		t.Fatalf("the server wrote %s: %v", shared, err)
	}
}

// TestRedactEnvTool: secrets a server prints through server-everything's
// get-env tool (JSON.stringify of its environment) are redacted whatever
// they hold: quotes and backslashes, a multi-line PEM key.
func TestRedactEnvTool(t *testing.T) {
	pem := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMZR4bmE0ZTl5Wk9KQ2VsUmQ0c2JxZk1MRXNjb2RlUmVkYWN0aW9uVGVzdEtleQ==\n-----END PRIVATE KEY-----\n"
	quoted := `s3cr"et\with\"quotes` + "\t" + `and tab`
	env := map[string]string{"QUARRY_PEM": pem, "QUARRY_QUOTED": quoted}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv := everythingStdio(t, map[string]string{"TLS_KEY": "${QUARRY_PEM}", "PASSWORD": "${QUARRY_QUOTED}"})
	tool := newTool(t, Config{Servers: map[string]Server{"everything": srv}}, WithLookupEnv(lookup))
	s := openT(t, tool)
	obs := run(t, tool, s, gemCall("get-env", `{}`)).Observation
	for _, want := range []string{`"TLS_KEY": "${QUARRY_PEM}"`, `"PASSWORD": "${QUARRY_QUOTED}"`} {
		if !strings.Contains(obs, want) {
			t.Errorf("get-env lacks %s:\n%s", want, obs)
		}
	}
	for _, leak := range []string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj", "MZR4bmE0ZTl5Wk9K", `s3cr\"et`, "quotes"} {
		if strings.Contains(obs, leak) {
			t.Errorf("get-env shows %q:\n%s", leak, obs)
		}
	}
}

// TestBwrapWrappedServer: the recipe docs/tools.md gives for sandboxing a
// stdio server further runs: server-memory under bubblewrap, as the
// unprivileged user, sees only the read-only system, its own code and its
// home, where its file lives.
func TestBwrapWrappedServer(t *testing.T) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatalf("bwrap not found (%v): run scripts/deps/bubblewrap.sh", err)
	}
	mem, entry := memoryServer(t, map[string]string{"MEMORY_FILE_PATH": "${QUARRY_MCP_HOME}/memory.jsonl"})
	code := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(entry)))) // the node_modules folder
	args := []string{"--unshare-all", "--die-with-parent", "--new-session",
		"--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
		"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--ro-bind", code, code, // after /tmp: the code may live there
		"--bind", "${QUARRY_MCP_HOME}", "${QUARRY_MCP_HOME}", "--chdir", "${QUARRY_MCP_HOME}",
		"--", mem.Command}
	srv := Server{Command: bwrap, Args: append(args, mem.Args...), Env: mem.Env}
	tool := newTool(t, Config{Servers: map[string]Server{"memory": srv}})
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("create_entities", createAlpha)); res.Error {
		t.Fatalf("create_entities under bwrap: %+v", res)
	}
	if obs := run(t, tool, s, gemCall("read_graph", `{}`)).Observation; !strings.Contains(obs, "the answer is 42") {
		t.Fatalf("read_graph under bwrap: %s", obs)
	}
	if _, err := os.Stat(filepath.Join(s.(*session).homes["memory"], "memory.jsonl")); err != nil {
		t.Fatalf("the sandboxed server's file is not in its home: %v", err)
	}
}

// TestSweepStaleHomes: homes left by a worker that died (its pid gone, or
// reused by another process) are removed when a Tool is made; those of live
// workers and other files stay.
func TestSweepStaleHomes(t *testing.T) {
	base := sharedDir(t) // the servers' user must reach the homes in it
	me, ok := self()
	if !ok {
		t.Fatal("cannot read this process's start time from /proc")
	}
	names := map[string]bool{ // name: swept
		fmt.Sprintf("quarry-mcp-%d.%d-go-123", me.pid, me.start):            false, // a live worker's
		fmt.Sprintf("quarry-mcp-%d.%d-go.srv-456", me.pid, me.start+1):      true,  // this pid, another start: reused
		fmt.Sprintf("quarry-mcp-%d.%d-memory-789", exitedPid(t), uint64(1)): true,  // its worker exited
		"quarry-mcp-go-321": false, // no owner
		"unrelated":         false,
	}
	for name := range names {
		if err := os.MkdirAll(filepath.Join(base, name, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, nil)}}, WithHomeBase(base))
	for name, swept := range names {
		if _, err := os.Stat(filepath.Join(base, name)); os.IsNotExist(err) != swept {
			t.Errorf("%s: swept %v, want %v", name, os.IsNotExist(err), swept)
		}
	}
	// The tool's own homes carry its owner, so a later sweep spares them.
	s := openT(t, tool)
	home := s.(*session).homes["go"]
	if o, ok := parseOwner(filepath.Base(home)); !ok || o != me {
		t.Fatalf("home %s names owner %v (%v), want %v", home, o, ok, me)
	}
	if n, err := sweepHomes(base); err != nil || n != 0 {
		t.Fatalf("a sweep while the worker lives removed %d homes (%v)", n, err)
	}
}

// exitedPid is the pid of a process that has exited and been reaped.
func exitedPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}
