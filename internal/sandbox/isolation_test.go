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
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary a helper process: a worker that makes a
// sandbox and runs `sleep` in it until it is killed.
const helperEnv = "QUARRY_SANDBOX_TEST_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(m.Run())
}

// helper runs as "BASEDIR UIDBASE": a sandbox on those, one run of a long
// sleep; it prints "ready" once New succeeded.
func helper(spec string) int {
	base, uidStr, _ := strings.Cut(spec, " ")
	uid, _ := strconv.Atoi(uidStr)
	ctx := context.Background()
	s, err := New(ctx, Options{BaseDir: base, Slots: 1, UIDBase: uid})
	if err != nil {
		fmt.Println("helper:", err)
		return 1
	}
	fmt.Println("ready")
	ws, err := s.NewWorkspace(ctx)
	if err != nil {
		fmt.Println("helper:", err)
		return 1
	}
	_, err = ws.Run(ctx, Cmd{Args: []string{"/bin/sh", "-c", "sleep 300 & sleep 300"}, Limits: Limits{Wall: time.Hour}})
	fmt.Println("helper: run ended:", err)
	return 1
}

// startHelper starts the helper worker and waits until its command runs:
// bwrap, the sandbox's init, the shell and its two sleeps (5 processes of
// uid). Before that the init still waits for the helper's go-ahead on a
// pipe, and a killed helper would end it by closing the pipe, whatever the
// parent-death signals do. The killed helper's workspace stays mounted
// until the test ends.
func startHelper(t *testing.T, uid int) *helperProc {
	t.Helper()
	base := filepath.Join(searchableTempDir(t), "base")
	t.Cleanup(func() {
		entries, _ := os.ReadDir(base)
		for _, e := range entries {
			unmountWorkspace(filepath.Join(base, e.Name()))
		}
	})
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), helperEnv+"="+base+" "+strconv.Itoa(uid))
	out := &strings.Builder{}
	c.Stdout, c.Stderr = out, out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helperProc{Cmd: c, done: make(chan struct{})}
	go func() { c.Wait(); close(h.done) }()
	t.Cleanup(h.kill)
	waitUntil(t, 10*time.Second, "the helper's command runs", func() bool {
		n, _ := countProcesses(uid, uid+1)
		return n >= 5
	})
	return h
}

type helperProc struct {
	*exec.Cmd
	done chan struct{} // closed once the helper has been reaped
}

// kill SIGKILLs the helper and waits until it is reaped: the kernel has
// then released its uid lock too (it may kill the helper's sandbox first,
// when the thread that started it exits).
func (h *helperProc) kill() {
	h.Process.Signal(syscall.SIGKILL)
	<-h.done
}

// waitUntil polls cond until it holds or d passes.
func waitUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The root is an allow-list: a planted file in a host folder outside /tmp,
// a host Unix socket, other workspaces, /etc, /var, /opt, /home, /root and
// /usr/local do not exist inside; the interpreter and its standard library
// work.
func TestRootIsAnAllowList(t *testing.T) {
	planted, err := os.MkdirTemp("/srv", "quarry-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(planted) })
	os.Chmod(planted, 0o755)
	secret := filepath.Join(planted, "answers.txt")
	if err := os.WriteFile(secret, []byte("42"), 0o644); err != nil { // readable by anyone on the host
		t.Fatal(err)
	}
	sock := filepath.Join(planted, "host.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	os.Chmod(sock, 0o777)

	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61300})
	other := newTestWorkspace(t, s)
	if err := os.WriteFile(filepath.Join(other.Dir(), "theirs"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := newTestWorkspace(t, s)
	res := mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", fmt.Sprintf(`
import os, socket, json, sqlite3, decimal
print(sorted(os.listdir("/")))
for p in [%q, %q, %q, "/etc", "/var", "/opt", "/home", "/root", "/run", "/srv", "/sys"]:
    print(p, os.path.exists(p))
print("usr/local", os.listdir("/usr/local"))
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(%q)
    print("CONNECTED")
except OSError as e:
    print("connect", type(e).__name__)
`, secret, s.opts.BaseDir, other.Dir(), sock)}})
	if res.ExitCode != 0 {
		t.Fatalf("exit %d, stderr %s", res.ExitCode, res.Stderr)
	}
	got := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	var want []string
	for _, e := range []string{"bin", "dev", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "tmp", "usr", "work"} {
		if _, err := os.Lstat("/" + e); err == nil || e == "dev" || e == "proc" || e == "tmp" || e == "usr" || e == "work" {
			want = append(want, "'"+e+"'")
		}
	}
	if got[0] != "["+strings.Join(want, ", ")+"]" {
		t.Errorf("the root holds %s, want [%s]", got[0], strings.Join(want, ", "))
	}
	for _, line := range got[1 : len(got)-2] {
		if !strings.HasSuffix(line, " False") {
			t.Errorf("visible inside: %s", line)
		}
	}
	if got[len(got)-2] != "usr/local []" || got[len(got)-1] != "connect FileNotFoundError" {
		t.Errorf("/usr/local or the host socket reachable: %q", got[len(got)-2:])
	}
}

// 64 processes each allocating 32 MiB under a 256 MiB limit: the tree as a
// whole never holds more than the limit, and the run says the limit acted.
func TestMemoryLimitBoundsTheWholeTree(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61310})
	if !s.Enforced().Memory {
		t.Fatal("no memory cgroup in force on this host: this machine kind offers cgroup v1 memory")
	}
	ws := newTestWorkspace(t, s)
	const limit = 256 << 20
	res := mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", memoryHog(t)}, Limits: Limits{Memory: limit, Processes: 100, Wall: 30 * time.Second}})
	var holding int
	fmt.Sscanf(string(res.Stdout), "holding %d", &holding)
	t.Logf("%d of 64 children hold 32 MiB each at the end; peak %d MiB; exit %d %s", holding, res.MemoryPeak>>20, res.ExitCode, res.Signal)
	if !strings.HasPrefix(string(res.Stdout), "holding ") {
		t.Fatalf("no report: %+v, stderr %s", res, res.Stderr)
	}
	if int64(holding)*(32<<20) > limit || !res.MemoryLimited || res.MemoryPeak > limit || res.MemoryPeak == 0 {
		t.Fatalf("%d × 32 MiB held under a %d MiB limit (peak %d, limited %v)", holding, limit>>20, res.MemoryPeak, res.MemoryLimited)
	}
	assertNoLeftovers(t, s)
}

// Four processes spinning at once get one CPU between them: the tree's CPU
// time never exceeds its wall time (plus one scheduling period), where on
// this 2-CPU host without the cpu cgroup it would be about twice that.
func TestCPUBoundsTheWholeTree(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61315})
	if !s.Enforced().CPU {
		t.Fatal("no cpu cgroup in force on this host: this machine kind offers cgroup v1 cpu")
	}
	ws := newTestWorkspace(t, s)
	res := mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", `
import os, time
start = time.monotonic()
for i in range(4):
    if os.fork() == 0:
        while time.monotonic() - start < 1.5:
            pass
        os._exit(0)
for i in range(4):
    os.wait()
t = os.times()
print("cpu %.3f wall %.3f" % (t.children_user + t.children_system, time.monotonic() - start))
`}, Limits: Limits{Wall: 30 * time.Second}})
	var cpu, wall float64
	if _, err := fmt.Sscanf(string(res.Stdout), "cpu %g wall %g", &cpu, &wall); err != nil {
		t.Fatalf("no report (%v): %+v stderr %q", err, res, res.Stderr)
	}
	t.Logf("4 spinners: %.2f s of CPU in %.2f s", cpu, wall)
	if cpu > wall+0.3 {
		t.Fatalf("the tree used %.2f s of CPU in %.2f s: more than one CPU", cpu, wall)
	}
	if cpu < 0.5 {
		t.Fatalf("the spinners used %.2f s of CPU: they did not run", cpu)
	}
}

// A disk filler stops at the workspace's quota with ENOSPC, and so does a
// file-count filler; the host folder never holds more than the quota.
func TestWorkspaceQuota(t *testing.T) {
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: 61320, WorkspaceBytes: 8 << 20, WorkspaceFiles: 100})
	if !s.Enforced().Workspace {
		t.Fatal("workspaces are not size-limited: this process cannot mount a tmpfs")
	}
	ws := newTestWorkspace(t, s)
	res := mustRun(t, ws, Cmd{Args: []string{"/usr/bin/python3", "-c", `
n = 0
try:
    for i in range(64):
        with open("f%d" % i, "wb") as f:
            f.write(b"x" * (1 << 20))
        n += 1
except OSError as e:
    print("stopped after", n, "MiB:", e.strerror)
`}})
	if !strings.HasPrefix(string(res.Stdout), "stopped after ") || !strings.Contains(string(res.Stdout), "No space left on device") {
		t.Fatalf("the disk filler was not stopped: %+v stdout %q stderr %q", res, res.Stdout, res.Stderr)
	}
	if used := duBytes(t, ws.Dir()); used > 8<<20 {
		t.Fatalf("the workspace holds %d bytes on the host, quota 8 MiB", used)
	}
	res = mustRun(t, ws, Cmd{Args: []string{"/bin/sh", "-c", `rm -f f*; i=0; while touch e$i 2>/dev/null; do i=$((i+1)); [ $i -gt 1000 ] && break; done; echo $i`}})
	if n, _ := strconv.Atoi(strings.TrimSpace(string(res.Stdout))); n >= 100 || n == 0 {
		t.Fatalf("created %s files under a limit of 100 (stderr %q)", res.Stdout, res.Stderr)
	}
	dir := ws.Dir()
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if mounts, _ := os.ReadFile("/proc/self/mountinfo"); strings.Contains(string(mounts), dir) {
		t.Fatal("the workspace's tmpfs is still mounted after Close")
	}
}

func duBytes(t *testing.T, dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Blocks-st.Bfree) * st.Bsize
}

// A worker SIGKILLed mid-run takes its sandbox with it: the launch chain
// and everything in the sandbox die, and a new sandbox on the same uids
// starts at once.
func TestSandboxDiesWithItsWorker(t *testing.T) {
	const uid = 61330
	h := startHelper(t, uid)
	h.kill()
	waitUntil(t, 10*time.Second, "the killed worker's sandbox is gone", func() bool {
		n, _ := countProcesses(uid, uid+1)
		return n == 0
	})
	newTestSandbox(t, Options{Slots: 1, UIDBase: uid})
}

// Processes a dead worker left running as the slot uids (an orphan whose
// parent is the host's init) are killed by the next sandbox on those uids,
// which then starts instead of refusing them.
func TestNewReclaimsLeftovers(t *testing.T) {
	const uid = 61340
	// sh starts sleep in the background and exits: sleep is an orphan.
	c := exec.Command("/bin/sh", "-c", "sleep 300 >/dev/null 2>&1 &")
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}, Setsid: true}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 5*time.Second, "the orphan runs", func() bool { n, _ := countProcesses(uid, uid+1); return n == 1 })
	s := newTestSandbox(t, Options{Slots: 1, UIDBase: uid})
	if n, _ := s.ProcessCount(); n != 0 {
		t.Fatalf("%d leftovers survive New", n)
	}
	if res := mustRun(t, newTestWorkspace(t, s), sh(`echo ok`)); string(res.Stdout) != "ok\n" {
		t.Fatalf("run after reclaiming: %+v", res)
	}
}

// The uids of a live worker's sandbox are refused, naming its process;
// once it died they are taken over.
func TestUIDsOfALiveWorkerAreRefused(t *testing.T) {
	const uid = 61350
	h := startHelper(t, uid)
	_, err := New(context.Background(), Options{BaseDir: searchableTempDir(t), Slots: 1, UIDBase: uid})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "process "+strconv.Itoa(h.Process.Pid)) {
		t.Fatalf("err = %v, want ErrUnavailable naming process %d", err, h.Process.Pid)
	}
	h.kill()
	newTestSandbox(t, Options{Slots: 1, UIDBase: uid})
}

// A sandbox that could not be made once is made on the next call: Lazy
// remembers only success.
func TestLazyRetriesAFailure(t *testing.T) {
	dir := searchableTempDir(t)
	blocker := filepath.Join(dir, "base")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil { // BaseDir cannot be created
		t.Fatal(err)
	}
	get := Lazy(Options{BaseDir: filepath.Join(blocker, "sub"), Slots: 1, UIDBase: 61360})
	if _, err := get(context.Background()); err == nil {
		t.Fatal("New succeeded on an uncreatable base dir")
	}
	os.Remove(blocker)
	s, err := get(context.Background())
	if err != nil {
		t.Fatalf("second call: %v", err)
	}
	if again, _ := get(context.Background()); again != s {
		t.Fatal("a third call made another sandbox")
	}
	if err := s.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// memoryHog is testdata/memory_hog.py: 64 children touching 32 MiB each;
// it prints "holding N", the children still alive at the end.
func memoryHog(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/memory_hog.py")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
