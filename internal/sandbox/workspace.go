package sandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Workspace is a work dir that lives for one episode: every run in it sees
// the files the earlier runs left. It is not safe for concurrent use.
type Workspace struct {
	sb       *Sandbox
	dir      string
	root     *RootFS // the root its runs see instead of the host's /usr; nil for the default
	group    *group  // the cgroups its runs and files are charged to
	lastSlot int     // slot whose uid owns the files; -1 before the first run

	closeOnce sync.Once
	closeErr  error
}

// NewWorkspace creates an empty work dir under BaseDir: where the host
// allows mounts, a tmpfs of Options.WorkspaceBytes and WorkspaceFiles.
func (s *Sandbox) NewWorkspace(ctx context.Context) (*Workspace, error) {
	dir, err := s.newWorkDir()
	if err != nil {
		return nil, fmt.Errorf("sandbox: new workspace: %w", err)
	}
	g, err := s.cg.newGroup(filepath.Base(dir))
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("sandbox: new workspace: %w", err)
	}
	if s.quota {
		if err := s.mountWorkspace(dir); err != nil {
			g.remove()
			os.Remove(dir)
			return nil, fmt.Errorf("sandbox: new workspace: %w", err)
		}
	}
	return &Workspace{sb: s, dir: dir, group: g, lastSlot: -1}, nil
}

func (s *Sandbox) newWorkDir() (string, error) {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	dir := filepath.Join(s.opts.BaseDir, "ws-"+s.self.String()+"-"+hex.EncodeToString(rnd[:]))
	return dir, os.Mkdir(dir, 0o700)
}

// mountWorkspace mounts the workspace's tmpfs on dir. tmpfs pages count as
// memory of whoever wrote them (the run's memory cgroup) and are freed when
// the workspace is closed.
func (s *Sandbox) mountWorkspace(dir string) error {
	data := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0700", s.opts.WorkspaceBytes, s.opts.WorkspaceFiles)
	if err := syscall.Mount("quarry-workspace", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, data); err != nil {
		return fmt.Errorf("mount the workspace tmpfs on %s: %w", dir, err)
	}
	return nil
}

// unmountWorkspace detaches a workspace's tmpfs, if dir is one.
func unmountWorkspace(dir string) {
	_ = syscall.Unmount(dir, syscall.MNT_DETACH)
}

// probeQuota reports whether workspaces can be tmpfs mounts here.
func (s *Sandbox) probeQuota() bool {
	dir, err := s.newWorkDir()
	if err != nil {
		return false
	}
	defer os.Remove(dir)
	if err := s.mountWorkspace(dir); err != nil {
		s.opts.Logger.Warn("sandbox workspaces are not size-limited: this process cannot mount a tmpfs", "err", err)
		return false
	}
	return syscall.Unmount(dir, 0) == nil
}

// Dir is the work dir on the host (WorkPath inside the sandbox).
func (w *Workspace) Dir() string { return w.dir }

// Close removes the workspace's cgroups, unmounts and removes the work dir.
// It is safe to call more than once.
func (w *Workspace) Close() error {
	w.closeOnce.Do(func() {
		var errs []error
		if err := w.group.remove(); err != nil {
			errs = append(errs, err)
		}
		if w.sb.quota {
			unmountWorkspace(w.dir)
		}
		if err := os.RemoveAll(w.dir); err != nil {
			errs = append(errs, err)
		}
		if err := errors.Join(errs...); err != nil {
			w.closeErr = fmt.Errorf("sandbox: remove workspace: %w", err)
		}
	})
	return w.closeErr
}

// Cmd is one command to run in a workspace.
type Cmd struct {
	// Args is the command and its arguments, resolved inside the sandbox
	// (use absolute paths: PATH is the default Debian one).
	Args []string
	// Stdin is the command's standard input; empty means /dev/null.
	Stdin []byte
	// Env adds KEY=VALUE entries to the clean environment (PATH, HOME=/work,
	// LANG=C.UTF-8, TMPDIR=/tmp); nothing is inherited from the host.
	Env []string
	// Limits override the Sandbox's limits field by field.
	Limits Limits
}

// Result is what a run produced.
type Result struct {
	// ExitCode is the command's exit status, or -1 when a signal ended it.
	ExitCode int
	// Signal names the signal that ended the command ("killed", "CPU time
	// limit exceeded", …), empty when it exited.
	Signal string
	// Stdout and Stderr hold at most Limits.OutputBytes each.
	Stdout, Stderr []byte
	// StdoutTruncated and StderrTruncated report output past the cap.
	StdoutTruncated, StderrTruncated bool
	// TimedOut is true when the wall-clock timeout killed the run.
	TimedOut bool
	// CPULimited is true when RLIMIT_CPU killed the command.
	CPULimited bool
	// MemoryLimited is true when the run reached Limits.Memory and the
	// kernel's OOM killer ended a process of it (memory cgroup only).
	MemoryLimited bool
	// MemoryPeak is the most memory the run's process tree used, in bytes
	// (0 without a memory cgroup).
	MemoryPeak int64
	// UID is the host uid the run used.
	UID int
	// Duration is the wall-clock time from start to exit.
	Duration time.Duration
}

// Truncated reports whether either stream was cut.
func (r Result) Truncated() bool { return r.StdoutTruncated || r.StderrTruncated }

// Run runs cmd in the workspace. It waits for a free slot (or ctx). The
// command's own failures (non-zero exit, a signal, the timeout) are in the
// Result; an error means the sandbox could not run it (ctx ended before it
// started, bwrap failed to set up) or ctx was cancelled during the run.
// Errors after which the command provably never started wrap ErrNotStarted.
func (w *Workspace) Run(ctx context.Context, cmd Cmd) (Result, error) {
	if len(cmd.Args) == 0 {
		return Result{}, fmt.Errorf("sandbox run: no command: %w", ErrNotStarted)
	}
	slot, err := w.sb.slots.acquire(ctx, w.lastSlot)
	if err != nil {
		return Result{}, fmt.Errorf("sandbox run: wait for a slot: %w: %w", err, ErrNotStarted)
	}
	uid := w.sb.opts.UIDBase + slot
	defer func() {
		w.sb.awaitIdle(uid)
		w.sb.slots.release(slot)
	}()
	if slot != w.lastSlot {
		if err := chownTree(w.dir, uid); err != nil {
			return Result{}, fmt.Errorf("sandbox run: hand the work dir to uid %d: %w: %w", uid, err, ErrNotStarted)
		}
		w.lastSlot = slot
	}
	return w.sb.run(ctx, w, slot, cmd)
}

// idleTimeout bounds how long a finished run's slot waits for its uid to
// have no process left.
const idleTimeout = 10 * time.Second

// awaitIdle waits until no process runs as uid, so the slot's next run
// starts with its whole RLIMIT_NPROC budget. bwrap normally returns only
// after the kernel has torn the PID namespace down, but when exec's
// WaitDelay killed bwrap itself the teardown of many processes (a fork
// bomb on a loaded host) can still be under way.
func (s *Sandbox) awaitIdle(uid int) {
	deadline := time.Now().Add(idleTimeout)
	for {
		n, err := countProcesses(uid, uid+1)
		if err != nil || n == 0 {
			return
		}
		if time.Now().After(deadline) {
			s.opts.Logger.Warn("sandbox slot still has processes after its run", "uid", uid, "processes", n)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// ErrNotStarted is wrapped by Run's errors when the command did not start,
// so retrying it cannot repeat its side effects.
var ErrNotStarted = errors.New("command not started")

// chownTree gives every file under dir to uid (and the gid of the same
// number), without following symlinks. Runs are sequential in a workspace
// and leave no process behind, so nothing changes the tree meanwhile.
func chownTree(dir string, uid int) error {
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}

func (s *Sandbox) run(ctx context.Context, w *Workspace, slot int, cmd Cmd) (Result, error) {
	lim := cmd.Limits.orElse(s.opts.Limits)
	group := w.group
	if err := group.prepare(lim); err != nil {
		return Result{}, fmt.Errorf("sandbox run: %w: %w", err, ErrNotStarted)
	}
	// The sandbox's first process writes one byte to fd 3 and closes it,
	// then waits for a line on fd 4 before it runs the command: a bwrap
	// set-up failure is told apart from the command's own exit status (the
	// command cannot fake it), and the run's processes join their cgroups
	// before the command can fork.
	startedR, startedW, err := os.Pipe()
	if err != nil {
		return Result{}, fmt.Errorf("sandbox run: start marker pipe: %w: %w", err, ErrNotStarted)
	}
	defer startedR.Close()
	gateR, gateW, err := os.Pipe()
	if err != nil {
		startedW.Close()
		return Result{}, fmt.Errorf("sandbox run: gate pipe: %w: %w", err, ErrNotStarted)
	}
	defer gateW.Close()

	runCtx, cancel := context.WithTimeout(ctx, lim.Wall)
	defer cancel()
	c, stdout, stderr := s.command(runCtx, w, slot, lim, cmd)
	c.ExtraFiles = []*os.File{startedW, gateR} // fds 3 and 4

	start := time.Now()
	err = c.Start()
	startedW.Close()
	gateR.Close()
	if err != nil {
		return Result{}, fmt.Errorf("sandbox run: start bwrap: %w: %w", err, ErrNotStarted)
	}
	started := marked(startedR)
	var admitErr error
	if started {
		if admitErr = s.admit(c.Process.Pid, group); admitErr == nil {
			_, admitErr = gateW.Write([]byte("\n"))
		}
		if admitErr != nil {
			killSandbox(c.Process.Pid)
		}
	}
	gateW.Close()
	waitErr := c.Wait()
	res := Result{
		UID:             s.opts.UIDBase + slot,
		Duration:        time.Since(start),
		Stdout:          stdout.buf,
		Stderr:          stderr.buf,
		StdoutTruncated: stdout.truncated,
		StderrTruncated: stderr.truncated,
		ExitCode:        -1,
	}
	res.MemoryPeak, res.MemoryLimited = group.usage()
	return s.outcome(ctx, runCtx, c, res, started, admitErr, waitErr)
}

// command is the exec.Cmd of a run: prlimit, as the slot uid, running bwrap
// running the command. Every process of the chain is a direct exec of the
// first, which the kernel SIGKILLs when this process dies (Pdeathsig), and
// bwrap passes that on to the sandbox (--die-with-parent).
func (s *Sandbox) command(ctx context.Context, w *Workspace, slot int, lim Limits, cmd Cmd) (*exec.Cmd, *capWriter, *capWriter) {
	uid := s.opts.UIDBase + slot
	home := WorkPath
	var args []string
	if w.root != nil {
		args, home = s.rootCommandLine(w, lim, cmd.Args), w.root.Home
	} else {
		args = s.commandLine(w.dir, lim, cmd.Args)
	}
	c := exec.CommandContext(ctx, args[0], args[1:]...)
	c.Dir = "/"
	c.Env = append([]string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + home,
		"LANG=C.UTF-8",
		"TMPDIR=/tmp",
	}, cmd.Env...)
	if len(cmd.Stdin) > 0 {
		c.Stdin = bytes.NewReader(cmd.Stdin)
	}
	stdout := &capWriter{limit: lim.OutputBytes}
	stderr := &capWriter{limit: lim.OutputBytes}
	c.Stdout, c.Stderr = stdout, stderr
	c.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:    true,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}},
		Pdeathsig:  syscall.SIGKILL,
	}
	c.Cancel = func() error { killSandbox(c.Process.Pid); return nil }
	c.WaitDelay = time.Second // then exec kills bwrap itself
	return c, stdout, stderr
}

// admit puts the sandbox's first process, the only child of bwrap (pid),
// into the run's cgroups; everything the command starts is born there.
// bwrap itself stays outside: it only waits, and moving a process between
// v1 memory groups is the costliest step of a run's set-up.
func (s *Sandbox) admit(pid int, g *group) error {
	if len(s.cg.dirs()) == 0 {
		return nil
	}
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return fmt.Errorf("find the sandbox's first process: %w", err)
	}
	f := strings.Fields(string(children))
	if len(f) != 1 {
		return fmt.Errorf("bwrap %d has %d children, want 1", pid, len(f))
	}
	child, err := strconv.Atoi(f[0])
	if err != nil {
		return fmt.Errorf("find the sandbox's first process: %w", err)
	}
	return g.join(child)
}

// outcome turns a finished run into its Result or error.
func (s *Sandbox) outcome(ctx, runCtx context.Context, c *exec.Cmd, res Result, started bool, admitErr, waitErr error) (Result, error) {
	if ctx.Err() != nil {
		return res, fmt.Errorf("sandbox run: %w", ctx.Err())
	}
	if admitErr != nil {
		return res, fmt.Errorf("sandbox run: %w: %w", admitErr, ErrNotStarted)
	}
	if runCtx.Err() != nil {
		res.TimedOut = true
		res.Signal = syscall.SIGKILL.String()
		return res, nil
	}
	if !started {
		return res, fmt.Errorf("sandbox run: bwrap failed to set up the sandbox (%v): %s: %w",
			waitErr, bytes.TrimSpace(res.Stderr), ErrNotStarted)
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return res, fmt.Errorf("sandbox run: wait: %w", waitErr)
	}
	res.ExitCode, res.Signal, res.CPULimited = exitStatus(c.ProcessState)
	return res, nil
}

// killSandbox kills a run's whole process tree. bwrap (pid, on the host)
// forks startShell as PID 1 of a new PID namespace (--as-pid-1); when it
// dies the kernel kills every process in the namespace. Killing it rather
// than bwrap lets bwrap reap it and exit: killing bwrap first would orphan
// it to the host's init as a zombie, which counts against the slot uid's
// RLIMIT_NPROC until that init reaps it. Before bwrap has forked, its
// process group is killed instead.
func killSandbox(pid int) {
	children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	killed := false
	for _, f := range strings.Fields(string(children)) {
		if child, err := strconv.Atoi(f); err == nil {
			killed = syscall.Kill(child, syscall.SIGKILL) == nil || killed
		}
	}
	if !killed {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// exitStatus decodes the command's status as bwrap reports it: bwrap exits
// with the command's code, or 128+N when signal N ended it.
func exitStatus(ps *os.ProcessState) (code int, signal string, cpuLimited bool) {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if !ok {
		return ps.ExitCode(), "", false
	}
	if ws.Signaled() { // bwrap itself was killed
		return -1, ws.Signal().String(), false
	}
	code = ws.ExitStatus()
	if code > 128 && code < 128+65 {
		sig := syscall.Signal(code - 128)
		return -1, sig.String(), sig == syscall.SIGXCPU
	}
	return code, "", false
}

// marked reports whether the start marker was written.
func marked(r io.Reader) bool {
	var b [1]byte
	n, _ := r.Read(b[:])
	return n == 1
}

// startShell is PID 1 of the sandbox: it marks the start on fd 3, closes
// it, waits for the parent's line on fd 4 (the run's cgroups joined),
// closes that, runs the command as its child and exits with its status (128+N for
// signal N). The command is not PID 1, so signals it gets (SIGXCPU from
// RLIMIT_CPU) have their usual default effect. The trailing exit keeps dash
// from exec'ing the command in its place.
const startShell = `printf . >&3 && exec 3>&- && read -r _ <&4 && exec 4<&- && "$@"; exit $?`

// commandLine is prlimit (as the slot uid, set by the parent's fork) running
// bwrap running the command.
func (s *Sandbox) commandLine(dir string, lim Limits, command []string) []string {
	args := s.launcher(lim)
	args = append(args, s.rootFS...)
	args = append(args,
		"--dev", "/dev",
		"--proc", "/proc",
		"--size", strconv.FormatInt(lim.TmpBytes, 10), "--tmpfs", "/tmp",
		"--bind", dir, WorkPath,
		"--remount-ro", "/",
		"--chdir", WorkPath,
		"--",
		"/bin/sh", "-c", startShell, "sh",
	)
	return append(args, command...)
}

// launcher is the start of every command line: prlimit with the run's
// rlimits, then bwrap with every namespace unshared and the process
// options; the caller adds the mounts.
func (s *Sandbox) launcher(lim Limits) []string {
	// SIGXCPU at the soft limit (reported as CPULimited), SIGKILL a second
	// later for a process that ignores it.
	secs := int64((lim.CPU + time.Second - 1) / time.Second)
	args := []string{
		s.prlimit,
		"--cpu=" + strconv.FormatInt(secs, 10) + ":" + strconv.FormatInt(secs+1, 10),
		"--as=" + strconv.FormatInt(lim.AddressSpace, 10),
		"--fsize=" + strconv.FormatInt(lim.FileSize, 10),
		"--nproc=" + strconv.Itoa(lim.Processes),
		"--core=0",
		"--",
		s.bwrap,
		"--unshare-all", "--unshare-user", "--disable-userns",
		// --as-pid-1: bwrap's own init would exit without being reaped by
		// bwrap and linger as a zombie of the host's init, counted against
		// the slot uid's RLIMIT_NPROC (zombies are common where the host's
		// PID 1 is not a prompt reaper, as in containers).
		"--die-with-parent", "--new-session", "--as-pid-1",
		"--hostname", "sandbox",
	}
	return args
}

// capWriter keeps the first limit bytes written and drops the rest, so a
// child writing without end neither blocks nor fills memory.
type capWriter struct {
	limit     int
	buf       []byte
	truncated bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.limit - len(w.buf); room > 0 {
		if len(p) <= room {
			w.buf = append(w.buf, p...)
			return len(p), nil
		}
		w.buf = append(w.buf, p[:room]...)
	}
	w.truncated = true
	return len(p), nil
}
