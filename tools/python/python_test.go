package python

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/tools"
)

// testUIDBase keeps this package's sandbox uids apart from those of
// internal/sandbox's tests, which go test may run at the same time.
const testUIDBase = 62000

// newTestSandbox fails (never skips) when bubblewrap is missing; New's error
// names scripts/deps/bubblewrap.sh.
func newTestSandbox(tb testing.TB, slots int) *sandbox.Sandbox {
	tb.Helper()
	base, err := os.MkdirTemp("", "quarry-python-test-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		tb.Fatal(err)
	}
	sb, err := sandbox.New(context.Background(), sandbox.Options{BaseDir: base, Slots: slots, UIDBase: testUIDBase})
	if err != nil {
		tb.Fatalf("%v (install with scripts/deps/bubblewrap.sh)", err)
	}
	tb.Cleanup(func() { sb.Close() })
	return sb
}

func newTestSession(tb testing.TB, sb *sandbox.Sandbox, opts Options) (*Tool, *Session) {
	tb.Helper()
	tool, err := New(sb, opts)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := tool.Open(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return tool, s.(*Session)
}

func execute(tb testing.TB, tool *Tool, s tools.Session, action string) tools.Result {
	tb.Helper()
	call, ok := tool.Parse(action)
	if !ok {
		tb.Fatalf("no call in %q", action)
	}
	res, err := s.Execute(context.Background(), call)
	if err != nil {
		tb.Fatalf("Execute: %v", err)
	}
	return res
}

func code(src string) string { return "<python>" + src + "</python>" }

func TestObservationsAsGEM(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{})
	_, lastLine := newTestSession(t, sb, Options{KeepErrorLastLine: true})
	_, noRetry := newTestSession(t, sb, Options{NoImportRetry: true})
	tests := []struct {
		name    string
		s       *Session
		action  string
		obs     string
		isError bool
	}{
		{"stdout", s, code(`print("Hello from Python!")`), "Code execution result: Hello from Python!\n\n", false},
		{"fence", s, "```python\nfor i in range(3):\n    print(i)\n```", "Code execution result: 0\n1\n2\n\n", false},
		{"leading blanks trimmed", s, code(`print("\n  x")`), "Code execution result: x\n\n", false},
		{"empty", s, code(``), "Code execution result: \n", false},
		{"stderr after stdout", s, code("print('hi')\n1/0"),
			"Code execution result: hi\n\nTraceback (most recent call last):\n  File \"<string>\", line 2, in <module>\nZeroDivisionError: division by zero\n", true},
		{"warning on stderr is no error", s, code("import sys; sys.stderr.write('careful\\n'); print(1)"), "Code execution result: 1\n\ncareful\n", false},
		{"exit code", s, code("import sys; print('a'); sys.exit(3)"), "Code execution result: a\n\n", true},
		{"keep error last line", lastLine, code("1/0"), "Code execution result: ZeroDivisionError: division by zero\n", true},
		{"ellipsis is GEM's syntax error", s, code("..."), "Code execution result: SyntaxError: invalid syntax\n", true},
		{"missing import retried with GEM's prelude", s, code("print(sqrt(16), Counter('aab')['a'])"), "Code execution result: 4.0 2\n\n", false},
		{"no retry", noRetry, code("print(sqrt(16))"),
			"Code execution result: Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nNameError: name 'sqrt' is not defined\n", true},
		{"invalid utf-8", s, code(`import sys; sys.stdout.buffer.write(b"a\xffb")`), "Code execution result: a\uFFFDb\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := execute(t, tool, tt.s, tt.action)
			if res.Observation != tt.obs || res.Error != tt.isError || res.TimedOut || res.Truncated {
				t.Errorf("got %+v\nwant observation %q error %v", res, tt.obs, tt.isError)
			}
		})
	}
}

func TestSessionKeepsFilesAndCloseRemovesThem(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{})
	execute(t, tool, s, code(`open("notes.txt", "w").write("42")`))
	res := execute(t, tool, s, code(`import os; print(os.getcwd(), open("notes.txt").read())`))
	if res.Observation != "Code execution result: /work 42\n\n" {
		t.Fatalf("second call: %q", res.Observation)
	}
	_, other := newTestSession(t, sb, Options{})
	if res := execute(t, tool, other, code(`import os; print(os.listdir("."))`)); res.Observation != "Code execution result: []\n\n" {
		t.Fatalf("another session sees: %q", res.Observation)
	}
	dir := s.ws.Dir()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("work dir survives Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestLongCodeGoesThroughStdin(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{})
	src := "x = 0\n" + strings.Repeat("x += 1\n", 30000) + "print(x)" // 210 KB > one argument
	if res := execute(t, tool, s, code(src)); res.Observation != "Code execution result: 30000\n\n" || res.Error {
		t.Fatalf("got %+v", res)
	}
}

// TestHostileCode runs each attack in one session, then checks that it was
// contained, that no process of the sandbox's uids survives, and that the
// same session still runs a normal call.
func TestHostileCode(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{Timeout: 2 * time.Second})

	secretDir, err := os.MkdirTemp("/var/lib", "quarry-python-secret-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(secretDir) })
	os.Chmod(secretDir, 0o755)
	secret := filepath.Join(secretDir, "api-key")
	if err := os.WriteFile(secret, []byte("sk-hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("QUARRY_TEST_API_KEY", "sk-envsecret")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted sync.WaitGroup
	acceptedAny := false
	accepted.Go(func() {
		if c, err := ln.Accept(); err == nil {
			acceptedAny = true
			c.Close()
		}
	})
	port := ln.Addr().(*net.TCPAddr).Port
	outside := filepath.Join(secretDir, "pwned")

	attacks := []struct {
		name  string
		code  string
		check func(t *testing.T, res tools.Result, took time.Duration)
		roomy bool // fails fast, but a loaded host may need more than 2 s
	}{
		{"infinite loop", "while True:\n    pass", func(t *testing.T, res tools.Result, took time.Duration) {
			want := "Code execution result: Execution timed out after 2 seconds.\n"
			if res.Observation != want || !res.Error || !res.TimedOut || took > 5*time.Second {
				t.Fatalf("got %+v after %v, want %q", res, took, want)
			}
		}, false},
		{"sleeping children", "import os, time\nfor _ in range(5):\n    if os.fork() == 0:\n        os.setsid(); time.sleep(300)\ntime.sleep(300)", func(t *testing.T, res tools.Result, took time.Duration) {
			if !res.TimedOut || took > 5*time.Second {
				t.Fatalf("got %+v after %v", res, took)
			}
		}, false},
		{"fork bomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except Exception:\n        pass", func(t *testing.T, res tools.Result, took time.Duration) {
			if !res.TimedOut || !res.Error || took > 6*time.Second {
				t.Fatalf("got %+v after %v", res, took)
			}
		}, false},
		{"fork bomb, uncaught", "import os\nwhile True:\n    os.fork()", func(t *testing.T, res tools.Result, took time.Duration) {
			if !res.Error || !strings.Contains(res.Observation, "BlockingIOError") {
				t.Fatalf("got %+v", res)
			}
		}, true},
		{"memory bomb", "a = []\nwhile True:\n    a.append(bytearray(50 << 20))", func(t *testing.T, res tools.Result, took time.Duration) {
			if !res.Error || !strings.Contains(res.Observation, "MemoryError") {
				t.Fatalf("got %+v", res)
			}
		}, true},
		{"write outside the work dir", fmt.Sprintf(`
for p in [%q, "/etc/pwned", "/usr/pwned", "/pwned"]:
    try:
        open(p, "w").write("x")
        print("WROTE", p)
    except OSError as e:
        print(type(e).__name__, e.strerror)`, outside), func(t *testing.T, res tools.Result, took time.Duration) {
			// The host folder and /etc do not exist inside; /usr and / are read-only.
			if strings.Contains(res.Observation, "WROTE") || strings.Count(res.Observation, "FileNotFoundError No such file or directory") != 2 ||
				strings.Count(res.Observation, "OSError Read-only file system") != 2 {
				t.Fatalf("got %q", res.Observation)
			}
			for _, p := range []string{outside, "/etc/pwned", "/usr/pwned", "/pwned"} {
				if _, err := os.Stat(p); err == nil {
					os.Remove(p)
					t.Errorf("%s exists on the host", p)
				}
			}
		}, false},
		{"read host secrets", fmt.Sprintf(`
import os
for p in [%q, "/etc/shadow"]:
    try:
        print("READ", open(p).read())
    except OSError as e:
        print(type(e).__name__)
print(os.path.exists("/root"), os.path.exists("/home"), os.environ.get("QUARRY_TEST_API_KEY"))`, secret), func(t *testing.T, res tools.Result, took time.Duration) {
			want := "Code execution result: FileNotFoundError\nFileNotFoundError\nFalse False None\n\n"
			if res.Observation != want {
				t.Fatalf("got %q, want %q", res.Observation, want)
			}
		}, false},
		{"socket to a host listener", fmt.Sprintf(`
import socket
s = socket.create_connection(("127.0.0.1", %d), timeout=1)
print("CONNECTED")`, port), func(t *testing.T, res tools.Result, took time.Duration) {
			if !res.Error || strings.Contains(res.Observation, "CONNECTED") || !strings.Contains(res.Observation, "ConnectionRefusedError") {
				t.Fatalf("got %q", res.Observation)
			}
		}, false},
		{"print 1 GB", "import sys\nb = 'x' * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(b)\nprint('end', file=sys.stderr)", func(t *testing.T, res tools.Result, took time.Duration) {
			limit := sandbox.DefaultOutputBytes
			t.Logf("1 GB drained in %v", took)
			if res.Error || res.TimedOut || !res.Truncated || len(res.Observation) > limit+200 ||
				!strings.HasSuffix(res.Observation, "[stdout truncated to 65536 bytes]\nend\n") {
				t.Fatalf("got %d bytes, %+v, ending %q", len(res.Observation), res, res.Observation[max(0, len(res.Observation)-80):])
			}
		}, true},
	}
	// Attacks that end by themselves get the default timeout, so a loaded
	// machine does not turn their containment into a timeout.
	_, roomy := newTestSession(t, sb, Options{})
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			s := s
			if a.roomy {
				s = roomy
			}
			start := time.Now()
			res := execute(t, tool, s, code(a.code))
			a.check(t, res, time.Since(start))
			assertNoLeftovers(t, sb)
			if res := execute(t, tool, s, code("print(6*7)")); res.Observation != "Code execution result: 42\n\n" || res.Error {
				t.Fatalf("session unusable afterwards: %+v", res)
			}
		})
	}
	ln.Close()
	accepted.Wait()
	if acceptedAny {
		t.Error("the host listener accepted a connection")
	}
}

// A call's footprint is bounded as a whole and the agent is told so: 64
// processes each allocating 32 MiB under a 256 MiB limit, and a disk
// filler under an 8 MiB workspace.
func TestFootprintLimits(t *testing.T) {
	base, err := os.MkdirTemp("", "quarry-python-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	sb, err := sandbox.New(context.Background(), sandbox.Options{BaseDir: base, Slots: 1, UIDBase: testUIDBase + 10,
		WorkspaceBytes: 8 << 20, Limits: sandbox.Limits{Memory: 256 << 20, Processes: 100}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	if e := sb.Enforced(); !e.Memory || !e.Workspace {
		t.Fatalf("limits in force %+v: this machine kind offers a memory cgroup and tmpfs mounts", e)
	}
	tool, s := newTestSession(t, sb, Options{Timeout: 30 * time.Second})
	t.Run("memory of 64 processes", func(t *testing.T) {
		hog, err := os.ReadFile("../../internal/sandbox/testdata/memory_hog.py") // the sandbox's own test script
		if err != nil {
			t.Fatal(err)
		}
		res := execute(t, tool, s, code(string(hog)))
		t.Logf("%q", res.Observation)
		var alive int
		fmt.Sscanf(strings.TrimPrefix(res.Observation, "Code execution result: "), "holding %d", &alive)
		if !res.Error || alive*32 > 256 ||
			!strings.Contains(res.Observation, "MemoryError: the code reached the sandbox's memory limit (256 MiB) and a process was killed") {
			t.Fatalf("got %+v", res)
		}
		assertNoLeftovers(t, sb)
	})
	t.Run("disk filler", func(t *testing.T) {
		res := execute(t, tool, s, code(`
n = 0
while n < 100:
    with open("f%d" % n, "wb") as f:
        f.write(b"x" * (1 << 20))
    n += 1
print("wrote", n, "MiB")`))
		want := "OSError: [Errno 28] No space left on device"
		if !res.Error || strings.Contains(res.Observation, "wrote") || !strings.Contains(res.Observation, want) {
			t.Fatalf("got %q, want an error with %q", res.Observation, want)
		}
		if res := execute(t, tool, s, code(`import os; [os.remove(f) for f in os.listdir(".")]; print("ok")`)); res.Observation != "Code execution result: ok\n\n" {
			t.Fatalf("cleaning up: %q", res.Observation)
		}
	})
}

func assertNoLeftovers(t *testing.T, sb *sandbox.Sandbox) {
	t.Helper()
	var n int
	var err error
	for range 50 {
		if n, err = sb.ProcessCount(); err == nil && n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d processes of the sandbox uids survive (err %v)", n, err)
}

func TestConcurrentSessionsUseTheirOwnUIDs(t *testing.T) {
	const n = 4
	sb := newTestSandbox(t, n)
	tool, _ := newTestSession(t, sb, Options{})
	var wg sync.WaitGroup
	uids := make([]string, n)
	for i := range n {
		s, err := tool.Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		wg.Go(func() {
			call, _ := tool.Parse(code("import os, time; time.sleep(0.5); print(os.getuid())"))
			res, err := s.Execute(context.Background(), call)
			if err != nil || res.Error {
				uids[i] = fmt.Sprintf("failed: %v %+v", err, res)
				return
			}
			uids[i] = strings.TrimSpace(strings.TrimPrefix(res.Observation, "Code execution result: "))
		})
	}
	wg.Wait()
	sorted := append([]string(nil), uids...)
	sort.Strings(sorted)
	for i, u := range sorted {
		if want := strconv.Itoa(testUIDBase + i); u != want {
			t.Fatalf("uids %v, want one each of %d…%d", uids, testUIDBase, testUIDBase+n-1)
		}
	}
}

func TestCancelledContextIsAnError(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	call, _ := tool.Parse(code("open('ran', 'w')"))
	_, err := s.Execute(ctx, call)
	if !errors.Is(err, context.Canceled) || !tools.IsNotExecuted(err) {
		t.Fatalf("err = %v, want a NotExecuted context error", err)
	}
	if _, err := os.Stat(filepath.Join(s.ws.Dir(), "ran")); err == nil {
		t.Fatal("the code ran")
	}
}

func TestInstructions(t *testing.T) {
	text, err := parseOnly.Instructions(context.Background())
	if err != nil || !strings.Contains(text, "<python>...</python>") || !strings.Contains(text, "```python...```") ||
		!strings.Contains(text, `"Code execution result: "`) {
		t.Fatalf("instructions %q, %v", text, err)
	}
}

// BenchmarkExecute runs print(1+1) in the sandbox, one session, and reports
// executions per second and the p50/p99 latency.
func BenchmarkExecute(b *testing.B) {
	sb := newTestSandbox(b, 1)
	tool, s := newTestSession(b, sb, Options{})
	call, _ := tool.Parse(code("print(1+1)"))
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		res, err := s.Execute(context.Background(), call)
		lat = append(lat, time.Since(start))
		if err != nil || res.Observation != "Code execution result: 2\n\n" {
			b.Fatalf("%+v %v", res, err)
		}
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(float64(len(lat))/b.Elapsed().Seconds(), "exec/s")
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// GEM's python tool with its default sandbox type ("none") refuses code
// holding its blocklist before running it: a failed call whose observation
// is GEM's message. The check is GEM's plain substring test, so a comment
// blocks too; without Blocklist the same code runs.
func TestBlocklistAsGEM(t *testing.T) {
	sb := newTestSandbox(t, 1)
	tool, s := newTestSession(t, sb, Options{Blocklist: true})
	_, lastLine := newTestSession(t, sb, Options{Blocklist: true, KeepErrorLastLine: true})
	_, open := newTestSession(t, sb, Options{})
	const blocked = "Code execution result: Execution blocked: Code contains potentially dangerous operations or imports.\n"
	for _, src := range []string{
		"import subprocess\nprint(1)", "from multiprocessing import Pool", "import threading", "import socket",
		"import psutil", "import resource", "from ctypes import c_int", "import os\nos.system('true')",
		"import os\nos.popen('true')", "import os\nos.spawnl", "import os\nos.fork()", "import os\nos.execv",
		"import sys\nsys.exit(0)", "import os\nos._exit(0)", "import os\nos.kill(1, 0)", "print(1)  # never import socket",
	} {
		for _, sess := range []*Session{s, lastLine} {
			if res := execute(t, tool, sess, code(src)); res.Observation != blocked || !res.Error {
				t.Errorf("%q: %+v, want GEM's blocked error", src, res)
			}
		}
	}
	for _, src := range []string{"import sys\nprint(sys.version_info[0])", "import os\nprint(os.getcwd() != '')", "print('subprocess')"} {
		if res := execute(t, tool, s, code(src)); res.Error || strings.Contains(res.Observation, "blocked") {
			t.Errorf("%q is not on GEM's list: %+v", src, res)
		}
	}
	if res := execute(t, tool, open, code("import threading\nprint('ran')")); res.Error || res.Observation != "Code execution result: ran\n\n" {
		t.Errorf("without the blocklist: %+v", res)
	}
}
