package codecheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/sandbox"
)

// sumTests is a three-test "a+b" problem.
var sumTests = []Test{
	{Input: "1 2\n", Output: "3\n"},
	{Input: "10 -4\n", Output: "6\n"},
	{Input: "100000000000 1\n", Output: "100000000001\n"},
}

const (
	sumByLine = "a, b = map(int, input().split())\nprint(a + b)"
	sumAtOnce = "import sys\nprint(sum(int(x) for x in sys.stdin.read().split()))"
)

func verify(t *testing.T, code string, tests []Test, opts Options) Result {
	t.Helper()
	res, err := Verify(context.Background(), testSandbox(t), code, tests, opts)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if len(res.Outcomes) != len(tests) {
		t.Fatalf("Verify gave %d outcomes for %d tests", len(res.Outcomes), len(tests))
	}
	return res
}

func statuses(r Result) []Status {
	var s []Status
	for _, o := range r.Outcomes {
		s = append(s, o.Status)
	}
	return s
}

func wantStatuses(t *testing.T, r Result, want ...Status) {
	t.Helper()
	got := statuses(r)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("statuses = %v, want %v (outcomes %+v)", got, want, r.Outcomes)
	}
	all := true
	for _, s := range want {
		all = all && s == Passed
	}
	if r.AllPassed != all {
		t.Errorf("AllPassed = %v with statuses %v", r.AllPassed, got)
	}
}

func TestVerifyCorrect(t *testing.T) {
	for name, code := range map[string]string{"line by line": sumByLine, "all at once": sumAtOnce} {
		t.Run(name, func(t *testing.T) {
			res := verify(t, code, sumTests, Options{})
			wantStatuses(t, res, Passed, Passed, Passed)
			if res.Passed != 3 {
				t.Errorf("Passed = %d, want 3", res.Passed)
			}
		})
	}
}

func TestVerifyWrongAnswerRunsAll(t *testing.T) {
	res := verify(t, "a, b = map(int, input().split())\nprint(a + b + (a == 10))", sumTests, Options{})
	wantStatuses(t, res, Passed, WrongAnswer, Passed)
	if d := res.Outcomes[1].Detail; !strings.Contains(d, `expected "6", got "7"`) {
		t.Errorf("wrong answer detail = %q", d)
	}
}

func TestVerifyFailFast(t *testing.T) {
	res := verify(t, "print(0)", sumTests, Options{FailFast: true})
	wantStatuses(t, res, WrongAnswer, Skipped, Skipped)
}

func TestVerifyTimeout(t *testing.T) {
	for name, code := range map[string]string{
		"sleep":         "import time\ntime.sleep(60)",
		"busy loop":     "while True:\n    pass",
		"reads forever": "import sys\nwhile True:\n    sys.stdin.read()",
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			res := verify(t, code, sumTests[:1], Options{Timeout: time.Second})
			wantStatuses(t, res, TimedOut)
			if el := time.Since(start); el > 6*time.Second {
				t.Errorf("a 1 s timeout took %v", el)
			}
		})
	}
}

func TestVerifyRuntimeError(t *testing.T) {
	res := verify(t, "import sys\nprint('noise', file=sys.stderr)\nraise ValueError('boom')", sumTests[:1], Options{})
	wantStatuses(t, res, RuntimeError)
	if o := res.Outcomes[0]; o.Detail != "ValueError: boom" || o.ExitCode != 1 {
		t.Errorf("outcome = %+v, want detail %q and exit code 1", o, "ValueError: boom")
	}
	// GEM requires exit status 0 even when the output is right.
	res = verify(t, "print(3)\nraise SystemExit(2)", sumTests[:1], Options{})
	wantStatuses(t, res, RuntimeError)
	if o := res.Outcomes[0]; o.ExitCode != 2 || o.Detail != "exit status 2" {
		t.Errorf("outcome = %+v, want exit status 2", o)
	}
	// Killed by a signal with nothing on stderr.
	res = verify(t, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", sumTests[:1], Options{})
	wantStatuses(t, res, RuntimeError)
	if o := res.Outcomes[0]; o.ExitCode != -1 || !strings.Contains(o.Detail, "killed") {
		t.Errorf("outcome = %+v, want the signal", o)
	}
}

func TestVerifyWhitespace(t *testing.T) {
	for _, tc := range []struct {
		name, stdout, want string
		trimLines          bool
		pass               bool
	}{
		{"missing final newline", "3", "3\n", false, true},
		{"extra blank lines and spaces", "\n\n  3  \n\n\n", "3", false, true},
		{"line trailing space (GEM strict)", "1 2 \n3\n", "1 2\n3\n", false, false},
		{"line trailing space tolerated", "1 2 \n3\n", "1 2\n3\n", true, true},
		{"CRLF expected (GEM strict)", "1\n2\n", "1\r\n2\r\n", false, false},
		{"CRLF expected tolerated", "1\n2\n", "1\r\n2\r\n", true, true},
		{"inner spacing differs", "1  2\n", "1 2\n", true, false},
		{"different line breaks", "1 2\n", "1\n2\n", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameOutput(tc.stdout, tc.want, tc.trimLines); got != tc.pass {
				t.Errorf("sameOutput(%q, %q, %v) = %v, want %v", tc.stdout, tc.want, tc.trimLines, got, tc.pass)
			}
		})
	}
	// The same rule end to end.
	code := `import sys; sys.stdout.write("\n 1 2 \n3   \n\n")`
	test := []Test{{Output: "1 2\n3"}}
	wantStatuses(t, verify(t, code, test, Options{}), WrongAnswer)
	wantStatuses(t, verify(t, code, test, Options{TrimLineEnds: true}), Passed)
}

func TestVerifyLargeOutput(t *testing.T) {
	n := 50000 // about 290 KB of expected output, past the sandbox's default 64 KiB
	var b strings.Builder
	for i := range n {
		fmt.Fprintln(&b, i)
	}
	res := verify(t, "n = int(input())\nprint('\\n'.join(map(str, range(n))))", []Test{{Input: strconv.Itoa(n), Output: b.String()}}, Options{})
	wantStatuses(t, res, Passed)
	// Endless output is cut and judged wrong, not stored.
	res = verify(t, "while True:\n    print('y' * 1000)", []Test{{Output: "y"}}, Options{Timeout: 2 * time.Second})
	if res.AllPassed {
		t.Fatalf("endless output passed: %+v", res.Outcomes)
	}
}

func TestVerifyImportRetry(t *testing.T) {
	// Counter is not imported: GEM runs the program again with its common imports.
	code := "c = Counter(input().split())\nprint(max(c.values()))"
	res := verify(t, code, []Test{{Input: "a b a\n", Output: "2"}}, Options{})
	wantStatuses(t, res, Passed)
	if !res.Outcomes[0].Retried {
		t.Errorf("outcome %+v not marked Retried", res.Outcomes[0])
	}
	// A name nothing defines still fails, with the retried run's error.
	res = verify(t, "print(undefined_thing)", sumTests[:1], Options{})
	wantStatuses(t, res, RuntimeError)
	if o := res.Outcomes[0]; !o.Retried || !strings.Contains(o.Detail, "name 'undefined_thing' is not defined") {
		t.Errorf("outcome = %+v", o)
	}
}

func TestVerifyGEMRefusals(t *testing.T) {
	// GEM fails "..." without running it (Python itself would accept it).
	wantStatuses(t, verify(t, "...", []Test{{Output: ""}}, Options{}), RuntimeError)
	// GEM's blocklist only when asked.
	code := "import sys\nprint(3)\nsys.exit(0)"
	wantStatuses(t, verify(t, code, sumTests[:1], Options{}), Passed)
	res := verify(t, code, sumTests[:1], Options{Blocklist: true})
	wantStatuses(t, res, RuntimeError)
	if d := res.Outcomes[0].Detail; !strings.HasPrefix(d, "Execution blocked") {
		t.Errorf("detail = %q", d)
	}
}

func TestVerifyFreshWorkDir(t *testing.T) {
	// Every run sees only its program, whatever the previous run did to it.
	code := `import os
seen = sorted(os.listdir("."))
open("junk.txt", "w").write("x")
os.mkdir("junkdir")
open(__file__, "w").write("print('tampered')")
print(seen)`
	res := verify(t, code, []Test{{Output: "['solution.py']"}, {Output: "['solution.py']"}}, Options{})
	wantStatuses(t, res, Passed, Passed)

	// A symlink planted in place of the program must not redirect the host's
	// write of the next run's program.
	target := filepath.Join(t.TempDir(), "host-file")
	if err := os.WriteFile(target, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	code = fmt.Sprintf(`import os
os.remove(__file__)
os.symlink(%q, __file__)
print("ok")`, target)
	res = verify(t, code, []Test{{Output: "ok"}, {Output: "ok"}}, Options{})
	wantStatuses(t, res, Passed, Passed)
	if b, err := os.ReadFile(target); err != nil || string(b) != "original" {
		t.Fatalf("host file after the runs: %q, %v", b, err)
	}
}

func TestVerifyHostile(t *testing.T) {
	sb := testSandbox(t)
	outside := filepath.Join(os.TempDir(), "codecheck-escape-"+strconv.Itoa(os.Getpid()))
	t.Cleanup(func() { os.Remove(outside) })
	for _, tc := range []struct {
		name, code string
		detail     string // expected in the outcome's detail, if set
		mayPass    bool   // harmless inside the sandbox
	}{
		{"fork bomb", "import os\nwhile True:\n    os.fork()", "", false},
		{"write to /etc", "open('/etc/codecheck-escape', 'w').write('x')", "No such file", false}, // the sandbox has no /etc
		{"write to /usr", "open('/usr/codecheck-escape', 'w').write('x')", "Read-only file system", false},
		// The sandbox's /tmp is private: the write succeeds there only.
		{"write to host /tmp", fmt.Sprintf("open(%q, 'w').write('x')\nprint(open(%[1]q).read())", outside), "", true},
		{"write to parent dir", "open('../escape', 'w').write('x')", "Error", false},
		{"network", "import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=2)", "Network is unreachable", false},
		{"read other files", "print(open('/root/.bashrc').read())", "No such file", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := verify(t, tc.code, []Test{{Output: "x"}}, Options{Timeout: 3 * time.Second})
			o := res.Outcomes[0]
			t.Logf("outcome: %+v", o)
			if o.Status == Passed && !tc.mayPass {
				t.Fatalf("hostile program passed: %+v", o)
			}
			if tc.detail != "" && !strings.Contains(o.Detail, tc.detail) {
				t.Errorf("outcome %+v, want detail containing %q", o, tc.detail)
			}
		})
	}
	if _, err := os.Stat(outside); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a program wrote %s on the host (stat: %v)", outside, err)
	}
	if _, err := os.Stat("/etc/codecheck-escape"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a program wrote /etc/codecheck-escape on the host")
	}
	// Nothing survives, and the worker still verifies normally.
	waitNoProcesses(t)
	wantStatuses(t, verify(t, sumByLine, sumTests, Options{}), Passed, Passed, Passed)
	if _, err := os.Stat(sb.Options().BaseDir); err != nil {
		t.Errorf("base dir: %v", err)
	}
}

// waitNoProcesses fails when a slot uid still has a process: the kernel
// reaps a killed PID namespace asynchronously, so it polls briefly.
func waitNoProcesses(t *testing.T) {
	t.Helper()
	sb := testSandbox(t)
	var n int
	var err error
	for range 100 {
		if n, err = sb.ProcessCount(); err == nil && n == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d processes of the slot uids left (err %v)", n, err)
}

func TestVerifyConcurrent(t *testing.T) {
	sb := testSandbox(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		wg.Go(func() {
			// Each program adds its own offset, so a mix-up between the
			// concurrent workspaces would fail.
			code := fmt.Sprintf("a, b = map(int, input().split())\nprint(a + b + %d)", i)
			tests := make([]Test, len(sumTests))
			for j, tc := range sumTests {
				f := strings.Fields(tc.Input)
				a, _ := strconv.Atoi(f[0])
				b, _ := strconv.Atoi(f[1])
				tests[j] = Test{Input: tc.Input, Output: strconv.Itoa(a + b + i)}
			}
			res, err := Verify(context.Background(), sb, code, tests, Options{})
			switch {
			case err != nil:
				errs[i] = err
			case !res.AllPassed:
				errs[i] = fmt.Errorf("program %d: %+v", i, res.Outcomes)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	waitNoProcesses(t)
}

func TestVerifyErrors(t *testing.T) {
	sb := testSandbox(t)
	if _, err := Verify(context.Background(), sb, "print(1)", nil, Options{}); !errors.Is(err, ErrNoTests) {
		t.Errorf("no tests: err = %v, want ErrNoTests", err)
	}
	if _, err := Verify(context.Background(), nil, "print(1)", sumTests, Options{}); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Errorf("nil sandbox: err = %v, want sandbox.ErrUnavailable", err)
	}
	// A cancelled context is an infrastructure error, not a failed test.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, sb, "print(1)", sumTests, Options{}); err == nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ctx: err = %v, want context.Canceled", err)
	}
	// Cancelled while a program runs.
	ctx, cancel = context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := Verify(ctx, sb, "import time\ntime.sleep(30)", sumTests, Options{}); err == nil {
		t.Error("ctx ended during a run: no error")
	}
	waitNoProcesses(t)
}

func TestScore(t *testing.T) {
	sb := testSandbox(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		response string
		reward   float64
	}{
		{"correct", "Read a and b.\n```python\n" + sumByLine + "\n```\n", RewardCorrect},
		{"wrong", "```python\nprint(3)\n```", RewardIncorrect},
		{"no code block", "The answer is print(a+b).", RewardNoCode},
		{"unterminated block", "```python\nprint(3)\n", RewardNoCode},
		{"last block is used", "Wrong first:\n```python\nprint(3)\n```\nFixed:\n```py\n" + sumAtOnce + "\n```", RewardCorrect},
		{"last block wrong", "```python\n" + sumByLine + "\n```\nor\n```\nprint(0)\n```", RewardIncorrect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Score(ctx, sb, tc.response, sumTests, Options{})
			if err != nil {
				t.Fatalf("Score: %v", err)
			}
			if s.Reward != tc.reward {
				t.Errorf("reward = %v, want %v (%+v)", s.Reward, tc.reward, s.Result)
			}
			if s.HasCode != (tc.reward != RewardNoCode) {
				t.Errorf("HasCode = %v", s.HasCode)
			}
		})
	}
	// No block never touches the sandbox.
	if s, err := Score(ctx, nil, "no code", nil, Options{}); err != nil || s.Reward != RewardNoCode {
		t.Errorf("Score without a block and sandbox = %+v, %v", s, err)
	}
}

func TestScoreRunsLongestTwelve(t *testing.T) {
	// 20 tests with inputs of distinct lengths in shuffled order. The program
	// prints the length of what it read; the 8 shortest expect a wrong
	// answer, so the reward is 1 only if exactly the 12 longest ran.
	lengths := []int{7, 19, 3, 12, 1, 20, 8, 15, 2, 11, 17, 5, 14, 9, 4, 18, 6, 13, 16, 10}
	var tests []Test
	for _, n := range lengths {
		out := strconv.Itoa(n)
		if n <= 8 {
			out = "never run"
		}
		tests = append(tests, Test{Input: strings.Repeat("x", n), Output: out})
	}
	s, err := Score(context.Background(), testSandbox(t), "```python\nimport sys\nprint(len(sys.stdin.read()))\n```", tests, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Reward != RewardCorrect || len(s.Result.Outcomes) != 12 {
		t.Fatalf("reward %v with %d outcomes %+v, want 1 with 12", s.Reward, len(s.Result.Outcomes), s.Result.Outcomes)
	}
	for i, tc := range s.Tests {
		if want := 20 - i; len(tc.Input) != want {
			t.Errorf("test %d run has input length %d, want %d (longest first)", i, len(tc.Input), want)
		}
	}
}

// BenchmarkVerify measures programs verified per second on a three-test
// problem, one Verify at a time and four at once (the sandbox has 4 slots).
func BenchmarkVerify(b *testing.B) {
	sb := testSandbox(b)
	ctx := context.Background()
	// once reports with Errorf: RunParallel's goroutines may not FailNow.
	once := func(b *testing.B) {
		res, err := Verify(ctx, sb, sumByLine, sumTests, Options{})
		if err != nil || !res.AllPassed {
			b.Errorf("Verify: %+v, %v", res, err)
		}
	}
	report := func(b *testing.B, start time.Time) {
		sec := time.Since(start).Seconds()
		b.ReportMetric(float64(b.N)/sec, "programs/s")
		b.ReportMetric(float64(b.N*len(sumTests))/sec, "runs/s")
	}
	b.Run("sequential", func(b *testing.B) {
		b.ReportAllocs()
		start := time.Now()
		for b.Loop() {
			once(b)
		}
		report(b, start)
	})
	b.Run("concurrent4", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(max(1, shared.Slots/runtime.GOMAXPROCS(0)))
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				once(b)
			}
		})
		report(b, start)
	})
}
