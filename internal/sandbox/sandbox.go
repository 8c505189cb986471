// Package sandbox runs untrusted commands (an agent's Python, a code env's
// tests) under bubblewrap on the worker's host.
//
// A run sees nothing of the host but an allow-list: /usr read-only (the
// interpreter, its libraries and standard library; /usr/local left out)
// with the /bin, /lib… links into it, a private size-limited /tmp, a
// minimal /dev, a /proc of its own PID namespace, and its workspace
// writable at /work (its cwd and HOME). The host's /etc, /var, /srv, /opt,
// /run, /home, /root, other workspaces, job output, databases and sockets
// do not exist inside. A run has no network (every namespace is unshared,
// the network one included), a new session, a clean environment, and runs
// as an unprivileged host uid that belongs to its concurrency slot.
//
// Limits bound a run as a whole where the host offers cgroups (memory of
// the process tree, processes, one CPU), a workspace's bytes and files (a
// tmpfs per workspace), and each process by rlimits (CPU, address space,
// file size). A wall-clock timeout kills the whole process tree; a run dies
// with the process that started it (a parent-death signal on every process
// of the launch chain, and the PID namespace), and New kills whatever a
// dead process's sandbox left running as the slot uids. docs/security.md
// says what is enforced and what is not.
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
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// WorkPath is where a workspace's directory appears inside the sandbox.
const WorkPath = "/work"

// ErrUnavailable is wrapped by the errors of New and Check when the sandbox
// cannot run on this host (a missing binary, user namespaces disabled, not
// root, the slot uids held by another live sandbox).
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
	cg      cgroups // the controls in force; empty fields are not
	quota   bool    // workspaces are size-limited tmpfs mounts
}

// New checks that bwrap and prlimit are installed and that it runs as root,
// locks the slot uids against other sandboxes of this host, kills what a
// dead sandbox left running as them, finds the cgroups it may use, creates
// BaseDir, and removes work dirs whose owning process is gone. It does not
// start a sandbox; call Check for that. Close releases what it made.
// Every error wraps ErrUnavailable: the sandbox cannot run here, now.
func New(ctx context.Context, opts Options) (*Sandbox, error) {
	s, err := newSandbox(ctx, opts)
	if err != nil && !errors.Is(err, ErrUnavailable) {
		err = fmt.Errorf("%w: %w", err, ErrUnavailable)
	}
	return s, err
}

func newSandbox(ctx context.Context, opts Options) (*Sandbox, error) {
	opts = opts.withDefaults()
	s := &Sandbox{opts: opts, slots: newSlotPool(opts.Slots)}
	if err := s.findBinaries(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.BaseDir, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox: create base dir: %w", err)
	}
	var err error
	if s.self, err = currentOwner(); err != nil {
		return nil, fmt.Errorf("sandbox: identify this process: %w", err)
	}
	if s.rootFS, err = rootArgs(opts.ReadOnly); err != nil {
		return nil, fmt.Errorf("sandbox: build the root: %w", err)
	}
	if err := lockUIDs(opts.LockPath, opts.UIDBase, opts.Slots); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if s.cg, err = findCgroups(s.self); err != nil {
		return nil, fmt.Errorf("sandbox: find cgroups: %w", err)
	}
	if err := s.reclaim(ctx); err != nil {
		s.cg.close()
		return nil, err
	}
	if err := s.sweep(ctx); err != nil {
		s.cg.close()
		return nil, err
	}
	s.quota = s.probeQuota()
	if err := closeInheritedOnExec(); err != nil {
		s.cg.close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	s.logLimits(ctx)
	return s, nil
}

func (s *Sandbox) findBinaries() error {
	var err error
	if s.bwrap, err = exec.LookPath("bwrap"); err != nil {
		return fmt.Errorf("sandbox: bubblewrap (bwrap) not found in PATH: %s: %w", installHint, ErrUnavailable)
	}
	if s.prlimit, err = exec.LookPath("prlimit"); err != nil {
		return fmt.Errorf("sandbox: prlimit not found in PATH: %s: %w", installHint, ErrUnavailable)
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("sandbox: running as uid %d: switching to the slot uids %d… needs root: %w",
			os.Geteuid(), s.opts.UIDBase, ErrUnavailable)
	}
	return nil
}

// logLimits says which bounds are in force on this host.
func (s *Sandbox) logLimits(ctx context.Context) {
	l := s.opts.Limits
	workspace := "none (no mount permission): Limits.FileSize per file only"
	if s.quota {
		workspace = fmt.Sprintf("tmpfs of %d bytes, %d files", s.opts.WorkspaceBytes, s.opts.WorkspaceFiles)
	}
	memory := fmt.Sprintf("RLIMIT_AS %d per process × %d processes (no memory cgroup)", l.AddressSpace, l.Processes)
	if s.cg.memory != "" {
		memory = fmt.Sprintf("%d for the process tree (memory cgroup)", l.Memory)
	}
	s.opts.Logger.InfoContext(ctx, "sandbox ready",
		"uids", fmt.Sprintf("%d…%d", s.opts.UIDBase, s.opts.UIDBase+s.opts.Slots-1),
		"cgroups", s.cg.String(), "memory", memory, "workspace", workspace,
		"processes", l.Processes, "cpu_per_process", l.CPU, "wall", l.Wall)
}

// Close removes the sandbox's cgroup directories. Runs must have ended and
// workspaces been closed. The uid lock stays until the process exits.
func (s *Sandbox) Close() error {
	if err := s.cg.close(); err != nil {
		return fmt.Errorf("sandbox: close: %w", err)
	}
	return nil
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

// Enforced says which whole-run bounds this host allows.
type Enforced struct {
	// Memory: Limits.Memory bounds the process tree (a memory cgroup).
	Memory bool
	// Processes: Limits.Processes bounds the run's tree (a pids cgroup),
	// besides RLIMIT_NPROC of the slot uid, which is always set.
	Processes bool
	// CPU: the run gets at most one CPU (a cpu cgroup).
	CPU bool
	// Workspace: workspaces are tmpfs mounts of WorkspaceBytes and
	// WorkspaceFiles.
	Workspace bool
}

// Enforced reports the bounds in force.
func (s *Sandbox) Enforced() Enforced {
	return Enforced{Memory: s.cg.memory != "", Processes: s.cg.pids != "", CPU: s.cg.cpu != "", Workspace: s.quota}
}

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
	return parseOwnerID(id)
}

// parseOwnerID reads an owner written by owner.String: "PID.START".
func parseOwnerID(id string) (owner, bool) {
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
		unmountWorkspace(dir)
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

// Lazy returns a function that makes one Sandbox with opts on the first
// call that succeeds and returns it on every later call: one sandbox per
// process, shared by everything that runs code (tool calls, code
// verification), made only if something does. A failure is returned to its
// caller and not remembered: the next call tries again, so a sandbox that
// could not start once (its uids still held by a dying worker, say) does
// not disable tools or grading for the rest of the process.
func Lazy(opts Options) func(context.Context) (*Sandbox, error) {
	var (
		mu sync.Mutex
		sb *Sandbox
	)
	return func(ctx context.Context) (*Sandbox, error) {
		mu.Lock()
		defer mu.Unlock()
		if sb != nil {
			return sb, nil
		}
		made, err := New(ctx, opts)
		if err != nil {
			return nil, err
		}
		sb = made
		return sb, nil
	}
}
