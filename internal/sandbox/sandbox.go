// Package sandbox runs untrusted commands (an agent's Python, a code env's
// tests) under bubblewrap on the worker's host.
//
// A run sees a read-only copy of the host's root with /root, /home, /run,
// /var/tmp and the work dirs of other workspaces hidden, a private /tmp
// tmpfs, fresh /dev and /proc, and its workspace's directory writable at
// /work (its cwd and HOME). It has no network (every namespace is unshared,
// the network one included), its own PID namespace, a new session, a clean
// environment, and runs as an unprivileged host uid that belongs to its
// concurrency slot, with rlimits on CPU, address space, file size and
// processes. A wall-clock timeout kills the whole process tree: the process
// group of bwrap on the host, and with bwrap the PID namespace, whose
// processes the kernel kills when its init (bwrap) dies.
//
// A Workspace is a work dir that outlives runs (an episode's files); work
// dirs left behind by a dead process are swept when a Sandbox is created.
//
// The sandbox needs root on the host (to switch to the slot uids) and the
// binaries bwrap and prlimit; scripts/deps/bubblewrap.sh installs them.
package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// WorkPath is where a workspace's directory appears inside the sandbox.
const WorkPath = "/work"

// ErrUnavailable is wrapped by the errors of New and Check when the sandbox
// cannot run on this host (a missing binary, user namespaces disabled, not
// root).
var ErrUnavailable = errors.New("sandbox unavailable")

const installHint = "run scripts/deps/bubblewrap.sh (or apt-get install bubblewrap util-linux)"

// Sandbox runs commands in workspaces, at most Options.Slots at a time.
// It is safe for concurrent use.
type Sandbox struct {
	opts    Options
	bwrap   string
	prlimit string
	rootFS  []string // bwrap arguments that build the read-only root
	slots   *slotPool
	self    owner
}

// New checks that bwrap and prlimit are installed and that it runs as root,
// creates BaseDir, and removes work dirs whose owning process is gone. It
// does not start a sandbox; call Check for that.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	opts = opts.withDefaults()
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		return nil, fmt.Errorf("sandbox: bubblewrap (bwrap) not found in PATH: %s: %w", installHint, ErrUnavailable)
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		return nil, fmt.Errorf("sandbox: prlimit not found in PATH: %s: %w", installHint, ErrUnavailable)
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("sandbox: running as uid %d: switching to the slot uids %d… needs root: %w",
			os.Geteuid(), opts.UIDBase, ErrUnavailable)
	}
	if err := os.MkdirAll(opts.BaseDir, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox: create base dir: %w", err)
	}
	self, err := currentOwner()
	if err != nil {
		return nil, fmt.Errorf("sandbox: identify this process: %w", err)
	}
	rootFS, err := rootArgs(opts.Hide)
	if err != nil {
		return nil, fmt.Errorf("sandbox: list the host root: %w", err)
	}
	s := &Sandbox{
		opts:    opts,
		bwrap:   bwrap,
		prlimit: prlimit,
		rootFS:  rootFS,
		slots:   newSlotPool(opts.Slots),
		self:    self,
	}
	if err := s.sweep(ctx); err != nil {
		return nil, err
	}
	// Two sandboxes sharing uids would share their RLIMIT_NPROC budgets.
	if n, err := s.ProcessCount(); err != nil || n > 0 {
		return nil, fmt.Errorf("sandbox: %d processes already run as the slot uids %d…%d (another worker's sandbox? choose another UIDBase), err %v: %w",
			n, opts.UIDBase, opts.UIDBase+opts.Slots-1, err, ErrUnavailable)
	}
	if err := closeInheritedOnExec(); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return s, nil
}

// closeInheritedOnExec marks every open descriptor above stderr
// close-on-exec. Go opens all its descriptors that way, so any other was
// inherited from whoever started this process (a job-server pipe, a
// socket); without this it would reach every sandboxed command, since exec
// and bwrap pass on all descriptors not so marked.
func closeInheritedOnExec() error {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("list open descriptors: %w", err)
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
	return nil
}

// Options returns the options in force, defaults applied.
func (s *Sandbox) Options() Options { return s.opts }

// UIDs returns the host uids the slots run as.
func (s *Sandbox) UIDs() []int {
	uids := make([]int, s.opts.Slots)
	for i := range uids {
		uids[i] = s.opts.UIDBase + i
	}
	return uids
}

// Check starts a trivial sandbox and checks its output, so a worker can fail
// at start-up rather than on its first tool call.
func (s *Sandbox) Check(ctx context.Context) error {
	ws, err := s.NewWorkspace(ctx)
	if err != nil {
		return fmt.Errorf("sandbox check: %w", err)
	}
	defer ws.Close()
	res, err := ws.Run(ctx, Cmd{Args: []string{"/bin/sh", "-c", "echo ok > ok && cat ok"}})
	if err != nil {
		return fmt.Errorf("sandbox check: %w: %w", err, ErrUnavailable)
	}
	if res.ExitCode != 0 || string(res.Stdout) != "ok\n" {
		return fmt.Errorf("sandbox check: /bin/sh exited %d with stdout %q, stderr %q: %w",
			res.ExitCode, res.Stdout, res.Stderr, ErrUnavailable)
	}
	return nil
}

// rootArgs builds the read-only root: every top-level entry of the host's
// / is bound read-only (symlinks recreated), except /proc, /dev and /tmp,
// which the sandbox gets fresh, and the hidden directories, which become
// empty tmpfs. Building the root from entries rather than binding / itself
// lets the sandbox mount /work even on a host without that directory.
func rootArgs(hide []string) ([]string, error) {
	entries, err := os.ReadDir("/")
	if err != nil {
		return nil, err
	}
	hidden := map[string]bool{}
	for _, h := range hide {
		hidden[filepath.Clean(h)] = true
	}
	var args []string
	for _, e := range entries {
		p := "/" + e.Name()
		switch {
		case p == "/proc" || p == "/dev" || p == "/tmp" || p == WorkPath:
			continue
		case hidden[p]:
			args = append(args, "--tmpfs", p)
		case e.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return nil, err
			}
			args = append(args, "--symlink", target, p)
		default:
			args = append(args, "--ro-bind", p, p)
		}
	}
	// Nested hidden directories go over the binds; a missing one needs no hiding.
	var nested []string
	for h := range hidden {
		if filepath.Dir(h) == "/" || h == "/tmp" || strings.HasPrefix(h, "/tmp/") {
			continue // top-level ones are done; /tmp is always a fresh tmpfs
		}
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			nested = append(nested, h)
		}
	}
	sort.Strings(nested) // parents before children
	for _, h := range nested {
		args = append(args, "--tmpfs", h)
	}
	return args, nil
}

// owner identifies a process across pid reuse: its pid and its start time
// in clock ticks since boot (field 22 of /proc/PID/stat).
type owner struct {
	pid   int
	start uint64
}

func (o owner) String() string { return fmt.Sprintf("%d.%d", o.pid, o.start) }

func currentOwner() (owner, error) {
	pid := os.Getpid()
	start, err := processStart(pid)
	if err != nil {
		return owner{}, err
	}
	return owner{pid: pid, start: start}, nil
}

func processStart(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces and parentheses; fields
	// after the last ')' are plain.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	const startField = 22 - 3 // fields 3… follow the ')'
	if len(f) <= startField {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	return strconv.ParseUint(f[startField], 10, 64)
}

// alive reports whether the process that owned a work dir still runs.
func (o owner) alive() bool {
	start, err := processStart(o.pid)
	return err == nil && start == o.start
}

// parseOwner reads the owner from a work dir name "ws-PID.START-RANDOM".
func parseOwner(name string) (owner, bool) {
	rest, ok := strings.CutPrefix(name, "ws-")
	if !ok {
		return owner{}, false
	}
	id, _, ok := strings.Cut(rest, "-")
	if !ok {
		return owner{}, false
	}
	p, s, ok := strings.Cut(id, ".")
	if !ok {
		return owner{}, false
	}
	pid, err1 := strconv.Atoi(p)
	start, err2 := strconv.ParseUint(s, 10, 64)
	if err1 != nil || err2 != nil {
		return owner{}, false
	}
	return owner{pid: pid, start: start}, true
}

// sweep removes work dirs whose owning process has exited.
func (s *Sandbox) sweep(ctx context.Context) error {
	entries, err := os.ReadDir(s.opts.BaseDir)
	if err != nil {
		return fmt.Errorf("sandbox: sweep %s: %w", s.opts.BaseDir, err)
	}
	for _, e := range entries {
		o, ok := parseOwner(e.Name())
		if !ok || o.alive() {
			continue
		}
		dir := filepath.Join(s.opts.BaseDir, e.Name())
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("sandbox: remove stale work dir: %w", err)
		}
		s.opts.Logger.InfoContext(ctx, "removed stale sandbox work dir", "dir", dir, "owner_pid", o.pid)
	}
	return nil
}

// slotPool hands out slot numbers, preferring the one a workspace used last
// so its files need no change of owner.
type slotPool struct {
	sem  chan struct{}
	mu   sync.Mutex
	busy []bool
}

func newSlotPool(n int) *slotPool {
	return &slotPool{sem: make(chan struct{}, n), busy: make([]bool, n)}
}

func (p *slotPool) acquire(ctx context.Context, preferred int) (int, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if preferred >= 0 && preferred < len(p.busy) && !p.busy[preferred] {
		p.busy[preferred] = true
		return preferred, nil
	}
	for i, b := range p.busy {
		if !b {
			p.busy[i] = true
			return i, nil
		}
	}
	panic("sandbox: slot semaphore and busy list disagree")
}

func (p *slotPool) release(slot int) {
	p.mu.Lock()
	p.busy[slot] = false
	p.mu.Unlock()
	<-p.sem
}

// ProcessCount counts the host's processes running as the slot uids. With
// no run in flight it is 0: a run leaves nothing behind.
func (s *Sandbox) ProcessCount() (int, error) {
	return countProcesses(s.opts.UIDBase, s.opts.UIDBase+s.opts.Slots)
}

// countProcesses counts the host's live processes whose real uid is in
// [lo, hi). Zombies are left out: a sandbox orphaned by a killed worker is
// reparented to the host's init, which may take its time to reap it, and a
// zombie holds no memory, files or mounts. It runs after every run, so it
// reads /proc with one reused buffer.
func countProcesses(lo, hi int) (int, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return 0, fmt.Errorf("sandbox: list processes: %w", err)
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return 0, fmt.Errorf("sandbox: list processes: %w", err)
	}
	buf := make([]byte, 4096)
	path := make([]byte, 0, 32)
	n := 0
	for _, name := range names {
		if name[0] < '0' || name[0] > '9' {
			continue
		}
		path = append(append(append(path[:0], "/proc/"...), name...), "/status"...)
		uid, ok := statusUID(string(path), buf)
		if ok && uid >= lo && uid < hi && !zombie(buf) {
			n++
		}
	}
	return n, nil
}

// zombie reports whether the status file read into buf (by statusUID) is a
// zombie's or a dead process's.
func zombie(buf []byte) bool {
	i := bytes.Index(buf, []byte("\nState:"))
	if i < 0 {
		return false
	}
	s := bytes.TrimLeft(buf[i+len("\nState:"):], " \t")
	return len(s) > 0 && (s[0] == 'Z' || s[0] == 'X')
}

// statusUID reads the real uid from a /proc/PID/status file into buf; ok is
// false when the process has exited meanwhile.
func statusUID(path string, buf []byte) (uid int, ok bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(fd)
	m, err := syscall.Read(fd, buf)
	if err != nil || m <= 0 {
		return 0, false
	}
	b := buf[:m]
	i := bytes.Index(b, []byte("\nUid:"))
	if i < 0 {
		return 0, false
	}
	b = bytes.TrimLeft(b[i+len("\nUid:"):], " \t")
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		uid = uid*10 + int(c-'0')
	}
	return uid, true
}

// Lazy returns a function that makes one Sandbox with opts on its first
// call and returns it (or the error) on every call: one sandbox per process,
// shared by everything that runs code (tool calls, code verification), made
// only if something does.
func Lazy(opts Options) func(context.Context) (*Sandbox, error) {
	var (
		once sync.Once
		sb   *Sandbox
		err  error
	)
	return func(ctx context.Context) (*Sandbox, error) {
		once.Do(func() { sb, err = New(ctx, opts) })
		return sb, err
	}
}
