package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestSandbox builds a Sandbox on a fresh base dir; a missing dependency
// fails the test with the install script's name (via New's error).
func newTestSandbox(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	if opts.BaseDir == "" {
		opts.BaseDir = filepath.Join(searchableTempDir(t), "base")
	}
	if opts.UIDBase == 0 {
		opts.UIDBase = testUIDBase // not the default: other packages' tests may use that meanwhile
	}
	s, err := New(context.Background(), opts)
	if err != nil {
		t.Fatalf("sandbox.New: %v (install with scripts/deps/bubblewrap.sh)", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testUIDBase is this package's default uid range; tests that need one of
// their own use 61100…61399.
const testUIDBase = 61400

// waitForRun waits until a run of s is under way (its slot uid runs a
// process).
func waitForRun(t *testing.T, s *Sandbox) {
	t.Helper()
	waitUntil(t, 10*time.Second, "a run is under way", func() bool { n, _ := s.ProcessCount(); return n > 0 })
}

// searchableTempDir is a t.TempDir the slot uids can traverse (t.TempDir's
// parents are 0700).
func searchableTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func newTestWorkspace(t *testing.T, s *Sandbox) *Workspace {
	t.Helper()
	ws, err := s.NewWorkspace(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func sh(script string) Cmd { return Cmd{Args: []string{"/bin/sh", "-c", script}} }

func mustRun(t *testing.T, ws *Workspace, cmd Cmd) Result {
	t.Helper()
	res, err := ws.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Run(%q): %v", cmd.Args, err)
	}
	return res
}

// assertNoLeftovers fails when any process of the slot uids is still alive.
func assertNoLeftovers(t *testing.T, s *Sandbox) {
	t.Helper()
	var n int
	var err error
	for range 50 { // the kernel reaps a dead PID namespace asynchronously
		if n, err = s.ProcessCount(); err == nil && n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ps, _ := exec.Command("ps", "-eo", "pid,ppid,uid,stat,pidns,args").Output()
	var lines []string
	for _, l := range strings.Split(string(ps), "\n") {
		if f := strings.Fields(l); len(f) > 2 {
			if uid, err := strconv.Atoi(f[2]); err == nil && uid >= s.opts.UIDBase && uid < s.opts.UIDBase+s.opts.Slots {
				lines = append(lines, l)
			}
		}
	}
	t.Fatalf("%d processes of the slot uids survive the run (err %v):\n%s", n, err, strings.Join(lines, "\n"))
}

func TestCheck(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestRunIdentityEnvironmentAndCwd(t *testing.T) {
	t.Setenv("QUARRY_TEST_SECRET", "hunter2")
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61100})
	ws := newTestWorkspace(t, s)
	res := mustRun(t, ws, Cmd{
		Args: []string{"/bin/sh", "-c", `id -u; id -g; id -G; pwd; env | sort; ls /proc/self/fd`},
		Env:  []string{"EXTRA=1"},
	})
	if res.ExitCode != 0 || res.UID != 61100 {
		t.Fatalf("exit %d uid %d, stderr %s", res.ExitCode, res.UID, res.Stderr)
	}
	out := string(res.Stdout)
	lines := strings.Split(out, "\n")
	if lines[0] != "61100" || lines[1] != "61100" || lines[2] != "61100" || lines[3] != "/work" {
		t.Errorf("uid/gid/groups/cwd = %q, want 61100 61100 61100 /work", lines[:4])
	}
	if strings.Contains(out, "hunter2") || strings.Contains(out, "QUARRY_TEST_SECRET") {
		t.Errorf("the host environment leaked into the sandbox:\n%s", out)
	}
	for _, want := range []string{"HOME=/work", "EXTRA=1", "LANG=C.UTF-8", "TMPDIR=/tmp"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("environment lacks %s:\n%s", want, out)
		}
	}
	// Only stdin/out/err and ls's own directory handle: no inherited descriptor.
	if fds := strings.Fields(strings.Join(lines[len(lines)-5:], " ")); len(fds) != 4 {
		t.Errorf("open descriptors inside = %v, want 0 1 2 and ls's own", fds)
	}
}

func TestWorkspaceKeepsFilesAcrossRunsAndCloseRemovesThem(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	mustRun(t, ws, sh(`mkdir -p sub && echo 42 > sub/answer`))
	res := mustRun(t, ws, sh(`cat sub/answer`))
	if string(res.Stdout) != "42\n" {
		t.Fatalf("second run read %q, want 42", res.Stdout)
	}
	if _, err := os.Stat(filepath.Join(ws.Dir(), "sub", "answer")); err != nil {
		t.Fatalf("file not in the host work dir: %v", err)
	}
	// Another workspace does not see it, neither at /work nor via the host path.
	other := newTestWorkspace(t, s)
	res = mustRun(t, other, sh(`ls -A /work; cat `+ws.Dir()+`/sub/answer`))
	if len(res.Stdout) != 0 || res.ExitCode == 0 {
		t.Fatalf("another workspace saw the files: exit %d stdout %q", res.ExitCode, res.Stdout)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ws.Dir()); !os.IsNotExist(err) {
		t.Fatalf("work dir still there after Close: %v", err)
	}
	if err := ws.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestWorkspaceFilesFollowTheSlotUID(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 2})
	ws := newTestWorkspace(t, s)
	mustRun(t, ws, sh(`mkdir d && echo a > d/f && chmod 600 d/f && chmod 700 d`))
	// Pretend the files were left by the other slot's uid: the next run
	// (which gets the preferred free slot) must still read and write them.
	other := 1 - ws.lastSlot
	if err := chownTree(ws.Dir(), s.opts.UIDBase+other); err != nil {
		t.Fatal(err)
	}
	ws.lastSlot = other
	hold := newTestWorkspace(t, s)
	if err := chownTree(hold.Dir(), s.opts.UIDBase+other); err != nil {
		t.Fatal(err)
	}
	hold.lastSlot = other // a concurrent run takes the files' slot
	held := make(chan struct{})
	go func() { mustRun(t, hold, sh(`sleep 1`)); close(held) }()
	waitForRun(t, s)
	res := mustRun(t, ws, sh(`cat d/f && echo b >> d/f && cat d/f`))
	if res.ExitCode != 0 || string(res.Stdout) != "a\na\nb\n" {
		t.Fatalf("exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if res.UID == s.opts.UIDBase+other {
		t.Fatalf("the run used the held slot's uid %d", res.UID)
	}
	<-held
}

func TestTimeoutKillsTheWholeTree(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, Limits: Limits{Wall: time.Second}})
	ws := newTestWorkspace(t, s)
	// Background children, a new session and a double fork: all must die.
	res := mustRun(t, ws, sh(`sleep 300 & setsid sh -c 'sleep 300 & sleep 300' & (sh -c 'sleep 300 &') ; echo started; sleep 300`))
	if !res.TimedOut {
		t.Fatalf("not reported as timed out: %+v", res)
	}
	if res.Duration > 3*time.Second {
		t.Errorf("took %v for a 1 s timeout", res.Duration)
	}
	if string(res.Stdout) != "started\n" {
		t.Errorf("output before the timeout lost: %q", res.Stdout)
	}
	assertNoLeftovers(t, s)
	if res := mustRun(t, ws, sh(`echo ok`)); string(res.Stdout) != "ok\n" {
		t.Fatalf("workspace unusable after a timeout: %q", res.Stdout)
	}
}

func TestContextCancelKillsTheRun(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ws.Run(ctx, sh(`sleep 300`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the context's", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("cancel took %v", time.Since(start))
	}
	assertNoLeftovers(t, s)
}

func TestLimits(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	py := func(code string, lim Limits) Result {
		return mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", code}, Limits: lim})
	}
	t.Run("cpu", func(t *testing.T) {
		res := py(`while True: pass`, Limits{CPU: time.Second, Wall: 5 * time.Second})
		if !res.CPULimited || res.TimedOut || res.Duration > 4*time.Second {
			t.Fatalf("busy loop not stopped by RLIMIT_CPU: %+v", res)
		}
	})
	t.Run("address space", func(t *testing.T) {
		res := py(`b = bytearray(2 << 30)`, Limits{})
		if res.ExitCode != 1 || !strings.Contains(string(res.Stderr), "MemoryError") {
			t.Fatalf("2 GiB allocation: exit %d stderr %q", res.ExitCode, res.Stderr)
		}
	})
	t.Run("file size", func(t *testing.T) {
		res := mustRun(t, ws, Cmd{Args: []string{"/bin/sh", "-c", `head -c 2000000 /dev/zero > big`},
			Limits: Limits{FileSize: 1 << 20}})
		fi, err := os.Stat(filepath.Join(ws.Dir(), "big"))
		if res.ExitCode == 0 || err != nil || fi.Size() > 1<<20 {
			t.Fatalf("2 MB file under a 1 MiB limit: %+v, size %v, err %v", res, fi.Size(), err)
		}
	})
	t.Run("processes", func(t *testing.T) {
		res := py(`
import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(30); os._exit(0)
        n += 1
except BlockingIOError as e:
    print("stopped after", n, e)
`, Limits{Processes: 20, Wall: 5 * time.Second})
		out := string(res.Stdout)
		if !strings.HasPrefix(out, "stopped after ") {
			t.Fatalf("fork loop not stopped: %+v stdout %q stderr %q", res, out, res.Stderr)
		}
		if n, _ := strconv.Atoi(strings.Fields(out)[2]); n >= 20 {
			t.Errorf("forked %d processes under a limit of 20", n)
		}
		assertNoLeftovers(t, s)
	})
	t.Run("tmp size", func(t *testing.T) {
		res := mustRun(t, ws, Cmd{Args: []string{"/bin/sh", "-c", `head -c 3000000 /dev/zero > /tmp/x`},
			Limits: Limits{TmpBytes: 1 << 20}})
		if res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "No space left") {
			t.Fatalf("3 MB into a 1 MiB /tmp: %+v stderr %q", res, res.Stderr)
		}
	})
}

func TestOutputIsCappedAndDrained(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, Limits: Limits{OutputBytes: 1000}})
	ws := newTestWorkspace(t, s)
	// 300 MB on each stream: the run must finish, keep 1000 bytes of each.
	res := mustRun(t, ws, sh(`head -c 300000000 /dev/zero; head -c 300000000 /dev/zero >&2; echo done > marker`))
	if res.ExitCode != 0 || res.TimedOut {
		t.Fatalf("writer blocked or failed: %+v", res)
	}
	if len(res.Stdout) != 1000 || len(res.Stderr) != 1000 || !res.StdoutTruncated || !res.StderrTruncated || !res.Truncated() {
		t.Fatalf("kept %d/%d bytes, truncated %v/%v", len(res.Stdout), len(res.Stderr), res.StdoutTruncated, res.StderrTruncated)
	}
	small := mustRun(t, ws, sh(`cat marker`))
	if small.Truncated() || string(small.Stdout) != "done\n" {
		t.Fatalf("small output: %+v", small)
	}
}

func TestNoNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	port := ln.Addr().(*net.TCPAddr).Port
	res := mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", fmt.Sprintf(
		`import socket; socket.create_connection(("127.0.0.1", %d), timeout=2); print("connected")`, port)}})
	if res.ExitCode == 0 || strings.Contains(string(res.Stdout), "connected") ||
		!strings.Contains(string(res.Stderr), "ConnectionRefusedError") {
		t.Fatalf("connection from the sandbox: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	select {
	case <-accepted:
		t.Fatal("the host listener accepted a connection from the sandbox")
	default:
	}
}

// Host secrets are not merely protected by their modes: they are absent,
// and what the sandbox sees of the host is read-only.
func TestHostSecretsAreAbsentAndTheRootReadOnly(t *testing.T) {
	secretDir, err := os.MkdirTemp("/var/lib", "quarry-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(secretDir) })
	if err := os.Chmod(secretDir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(secretDir, "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	for _, f := range []string{secret, "/etc/shadow", "/etc/hostname", "/root", "/home"} {
		res := mustRun(t, ws, sh(`cat `+f))
		if res.ExitCode == 0 || len(res.Stdout) != 0 || !strings.Contains(string(res.Stderr), "No such file or directory") {
			t.Fatalf("cat %s: exit %d stdout %q stderr %q", f, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	res := mustRun(t, ws, sh(`for p in /usr/quarry-x /quarry-x /usr/bin/quarry-x; do touch $p 2>&1 | grep -c "Read-only file system"; done; mkdir /etc 2>&1 | grep -c "Read-only"`))
	if got := string(res.Stdout); got != "1\n1\n1\n1\n" {
		t.Fatalf("writes outside the work dir: %q", got)
	}
	for _, p := range []string{"/usr/quarry-x", "/quarry-x", "/usr/bin/quarry-x"} {
		if _, err := os.Stat(p); err == nil {
			os.Remove(p)
			t.Errorf("%s was created on the host", p)
		}
	}
}

func TestConcurrentRunsGetTheirOwnUIDs(t *testing.T) {
	const n = 4
	s := newTestSandbox(t, Options{Slots: n})
	var wg sync.WaitGroup
	uids := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		ws := newTestWorkspace(t, s)
		wg.Go(func() {
			res, err := ws.Run(context.Background(), sh(`sleep 0.5; id -u`))
			if err == nil && res.ExitCode != 0 {
				err = fmt.Errorf("exit %d: %s", res.ExitCode, res.Stderr)
			}
			if err == nil {
				uids[i], err = strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if seen[uids[i]] || uids[i] < s.opts.UIDBase || uids[i] >= s.opts.UIDBase+n {
			t.Fatalf("uids %v: not one distinct slot uid each", uids)
		}
		seen[uids[i]] = true
	}
}

func TestRunWaitsForASlot(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	busy, waiting := newTestWorkspace(t, s), newTestWorkspace(t, s)
	done := make(chan Result)
	go func() {
		res, _ := busy.Run(context.Background(), sh(`sleep 1; echo busy`))
		done <- res
	}()
	waitForRun(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := waiting.Run(ctx, sh(`echo never > ran`))
	if !errors.Is(err, ErrNotStarted) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want not started, deadline exceeded", err)
	}
	if _, err := os.Stat(filepath.Join(waiting.Dir(), "ran")); err == nil {
		t.Fatal("the command ran without a slot")
	}
	if res := <-done; string(res.Stdout) != "busy\n" {
		t.Fatalf("busy run: %+v", res)
	}
	if res := mustRun(t, waiting, sh(`echo now`)); string(res.Stdout) != "now\n" {
		t.Fatalf("after the slot freed: %+v", res)
	}
}

func TestSetupFailureIsNotStarted(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1})
	ws := newTestWorkspace(t, s)
	mustRun(t, ws, sh(`true`))
	// The work dir vanishes behind the workspace's back: bwrap cannot bind it.
	unmountWorkspace(ws.Dir())
	if err := os.RemoveAll(ws.Dir()); err != nil {
		t.Fatal(err)
	}
	_, err := ws.Run(context.Background(), sh(`echo hi`))
	if !errors.Is(err, ErrNotStarted) {
		t.Fatalf("err = %v, want ErrNotStarted", err)
	}
	// A command that merely fails is a Result, not an error.
	ws2 := newTestWorkspace(t, s)
	res, err := ws2.Run(context.Background(), Cmd{Args: []string{"/nonexistent"}})
	if err != nil || res.ExitCode != 127 {
		t.Fatalf("missing command: res %+v err %v, want exit 127", res, err)
	}
}

func TestNewSweepsStaleWorkDirs(t *testing.T) {
	base := filepath.Join(searchableTempDir(t), "base")
	// A process that has exited: its pid and start time.
	dead := exec.Command("/bin/true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(base, fmt.Sprintf("ws-%d.1-deadbeef", dead.Process.Pid))
	if err := os.MkdirAll(filepath.Join(stale, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := newTestSandbox(t, Options{BaseDir: base, Slots: 1})
	live := newTestWorkspace(t, s)
	unrelated := filepath.Join(base, "keep-me")
	if err := os.Mkdir(unrelated, 0o700); err != nil {
		t.Fatal(err)
	}
	newTestSandbox(t, Options{BaseDir: base, Slots: 1})
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale work dir of a dead process survives: %v", err)
	}
	if _, err := os.Stat(live.Dir()); err != nil {
		t.Errorf("a live process's work dir was swept: %v", err)
	}
	if _, err := os.Stat(unrelated); err != nil {
		t.Errorf("a dir not named like a work dir was swept: %v", err)
	}
}

func TestMissingBinaryNamesTheInstallScript(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := New(context.Background(), Options{BaseDir: t.TempDir()})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "bwrap") ||
		!strings.Contains(err.Error(), "scripts/deps/bubblewrap.sh") {
		t.Fatalf("err = %v, want ErrUnavailable naming bwrap and the install script", err)
	}
}

func TestParseOwner(t *testing.T) {
	for name, want := range map[string]bool{
		"ws-12.34-ab": true, "ws-12-ab": false, "ws-x.1-ab": false, "keep": false, "ws-1.2": false,
	} {
		if _, ok := parseOwner(name); ok != want {
			t.Errorf("parseOwner(%q) ok = %v, want %v", name, ok, want)
		}
	}
}

func TestNewRefusesUIDsInUse(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61200})
	ws := newTestWorkspace(t, s)
	done := make(chan struct{})
	go func() {
		ws.Run(context.Background(), sh(`sleep 1`))
		close(done)
	}()
	defer func() { <-done }()
	waitForRun(t, s)
	_, err := New(context.Background(), Options{BaseDir: t.TempDir(), Slots: 1, UIDBase: 61200})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "UIDBase") {
		t.Fatalf("err = %v, want ErrUnavailable about the uids in use", err)
	}
}
