package codecheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/internal/sandbox"
)

// Defaults of Options.
const (
	// DefaultTimeout is GEM's DEFAULT_TIMEOUT (gem/utils/sandbox.py): the
	// wall-clock limit of one run of the program on one test, interpreter
	// start-up included. It also bounds the run's CPU time.
	DefaultTimeout = 10 * time.Second
	// DefaultPython is the interpreter the programs run with.
	DefaultPython = "/usr/bin/python3"
)

// GEM's rewards (gem/envs/code_env.py step).
const (
	RewardCorrect   = 1.0
	RewardIncorrect = 0.0
	RewardNoCode    = -0.1
)

// ErrNoTests is returned by Verify and Score for an empty test list: GEM
// crashes on it (unpacking zero results), and passing vacuously would reward
// anything.
var ErrNoTests = errors.New("codecheck: no tests")

// Options tune Verify and Score. The zero value is GEM's behaviour.
type Options struct {
	// Timeout is the wall-clock limit of each run (default DefaultTimeout).
	// RLIMIT_CPU is set to the same duration rounded up to a second.
	Timeout time.Duration
	// MaxTests is how many tests Score selects (default DefaultMaxTests);
	// Verify runs every test it is given.
	MaxTests int
	// FailFast stops at the first failing test and reports the rest as
	// Skipped. GEM runs every test (five at a time) and the reward is the same
	// either way; FailFast saves up to (tests−1)×Timeout on a hanging program.
	FailFast bool
	// TrimLineEnds also ignores whitespace at the end of every line (so
	// "\r\n" equals "\n" and "1 2 \n" equals "1 2\n") before the whole
	// outputs are compared. GEM does not: off by default.
	TrimLineEnds bool
	// Blocklist applies the string check GEM's default sandbox_type "none"
	// makes before running a program: code mentioning e.g. "import
	// threading", "sys.exit" or "os.system" fails without running. GEM's
	// "bwrap" mode, the closer match to Quarry's sandbox, skips it, and so
	// does Verify by default.
	Blocklist bool
	// Python is the interpreter's path inside the sandbox (default
	// DefaultPython).
	Python string
	// Limits override the sandbox's other limits (address space, processes,
	// file size); Wall and CPU come from Timeout, OutputBytes is sized from
	// each test's expected output.
	Limits sandbox.Limits
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxTests <= 0 {
		o.MaxTests = DefaultMaxTests
	}
	if o.Python == "" {
		o.Python = DefaultPython
	}
	return o
}

// Status is the outcome of one test. The values are persisted names.
type Status string

// Statuses of a test.
const (
	Passed Status = "passed"
	// WrongAnswer: the program exited 0 but its output differs, or exceeded
	// the kept output size.
	WrongAnswer Status = "wrong_answer"
	// TimedOut: the run hit the wall-clock timeout or its CPU limit.
	TimedOut Status = "timed_out"
	// RuntimeError: the program exited non-zero or was killed by a signal, or
	// was refused without running (GEM's "..." special case, the blocklist).
	RuntimeError Status = "runtime_error"
	// Skipped: not run, because Options.FailFast and an earlier test failed.
	Skipped Status = "skipped"
)

// Outcome is what happened on one test.
type Outcome struct {
	Status Status `json:"status"`
	// Detail says why a test failed: the last non-empty line of stderr for a
	// runtime error (or the signal's name when stderr is empty), the expected
	// and actual output heads for a wrong answer.
	Detail string `json:"detail,omitempty"`
	// ExitCode of the (last) run; -1 when a signal ended it or it did not run.
	ExitCode int `json:"exit_code"`
	// Retried: the first run failed with "is not defined" and the program ran
	// again with GEM's common imports prepended; the other fields describe
	// that second run.
	Retried bool `json:"retried,omitempty"`
	// Duration of the run(s) in the sandbox.
	Duration time.Duration `json:"duration"`
}

// Result is the verdict on a program: one Outcome per test, in test order.
type Result struct {
	Outcomes  []Outcome `json:"outcomes"`
	Passed    int       `json:"passed"`
	AllPassed bool      `json:"all_passed"`
}

// programName is the program's file in the work dir.
const programName = "solution.py"

// Verify runs code with Python once per test, in order, in one workspace of
// sb that it opens and closes, feeding the test's input on stdin and
// comparing stdout as GEM does. Every test given is run (see SelectTests and
// Score for GEM's cap of 12), unless opts.FailFast.
//
// Each run starts from a work dir holding only the program (GEM runs each
// test in a fresh temporary dir), with OPENBLAS_NUM_THREADS=1 as GEM sets it.
// A bad program is never a Go error: it is an Outcome. Errors mean the
// sandbox could not run the program (it is unavailable, or ctx ended), and
// wrap the sandbox's error; tests is empty → ErrNoTests.
//
// Deviation: GEM runs the tests in parallel processes on the host; here they
// run one after another in the sandbox (the workspace is not for concurrent
// use), so a program's worst case is len(tests)×Timeout.
func Verify(ctx context.Context, sb *sandbox.Sandbox, code string, tests []Test, opts Options) (Result, error) {
	if len(tests) == 0 {
		return Result{}, ErrNoTests
	}
	opts = opts.withDefaults()
	res := Result{Outcomes: make([]Outcome, len(tests))}

	// GEM refuses these before starting a process.
	refusal := ""
	switch {
	case code == "...":
		refusal = "SyntaxError: invalid syntax"
	case opts.Blocklist && blocked(code):
		refusal = "Execution blocked: Code contains potentially dangerous operations or imports."
	}
	if refusal != "" {
		for i := range res.Outcomes {
			res.Outcomes[i] = Outcome{Status: RuntimeError, Detail: refusal, ExitCode: -1}
		}
		return res, nil
	}

	if sb == nil {
		return Result{}, fmt.Errorf("codecheck: verify: nil sandbox: %w", sandbox.ErrUnavailable)
	}
	ws, err := sb.NewWorkspace(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("codecheck: verify: %w", err)
	}
	v := &verifier{ws: ws, opts: opts}
	failed := false
	for i, t := range tests {
		if failed && opts.FailFast {
			res.Outcomes[i] = Outcome{Status: Skipped, ExitCode: -1}
			continue
		}
		out, err := v.runTest(ctx, code, t)
		if err != nil {
			ws.Close()
			return Result{}, fmt.Errorf("codecheck: verify test %d: %w", i, err)
		}
		res.Outcomes[i] = out
		if out.Status == Passed {
			res.Passed++
		} else {
			failed = true
		}
	}
	res.AllPassed = res.Passed == len(tests)
	if err := ws.Close(); err != nil {
		return res, fmt.Errorf("codecheck: verify: %w", err)
	}
	return res, nil
}

type verifier struct {
	ws   *sandbox.Workspace
	opts Options
	// uid ran the previous run and owns the work dir; 0 before the first.
	uid int
}

// runTest is GEM's run_python for one test: one run, and when it fails with
// "is not defined" on stderr a second one with baseImports prepended.
func (v *verifier) runTest(ctx context.Context, code string, t Test) (Outcome, error) {
	r, err := v.run(ctx, code, t)
	if err != nil {
		return Outcome{}, err
	}
	d := r.Duration
	if r.ExitCode != 0 && !r.TimedOut && !r.CPULimited && strings.Contains(string(r.Stderr), "is not defined") {
		r, err = v.run(ctx, baseImports+"\n"+code, t)
		if err != nil {
			return Outcome{}, err
		}
		out := v.judge(r, t)
		out.Retried = true
		out.Duration += d
		return out, nil
	}
	return v.judge(r, t), nil
}

// run executes program on t's input from an otherwise empty work dir.
func (v *verifier) run(ctx context.Context, program string, t Test) (sandbox.Result, error) {
	if err := v.reset(program); err != nil {
		return sandbox.Result{}, err
	}
	lim := v.opts.Limits
	lim.Wall = v.opts.Timeout
	lim.CPU = v.opts.Timeout.Round(time.Second)
	if lim.CPU < v.opts.Timeout {
		lim.CPU += time.Second
	}
	// Keep enough stdout to compare with room for trailing whitespace.
	lim.OutputBytes = max(sandbox.DefaultOutputBytes, len(t.Output)+sandbox.DefaultOutputBytes)
	r, err := v.ws.Run(ctx, sandbox.Cmd{
		Args:   []string{v.opts.Python, sandbox.WorkPath + "/" + programName},
		Stdin:  []byte(t.Input),
		Env:    []string{"OPENBLAS_NUM_THREADS=1"},
		Limits: lim,
	})
	if err != nil {
		return sandbox.Result{}, fmt.Errorf("run program: %w", err)
	}
	v.uid = r.UID
	return r, nil
}

// reset empties the work dir and writes the program afresh, so nothing an
// earlier run left (or replaced the program with) carries over. No process
// of the sandbox is alive between runs, so nothing races with this; entries
// are removed without following symlinks and the program is created
// exclusively, so a symlink planted by the program cannot redirect the write.
func (v *verifier) reset(program string) error {
	dir := v.ws.Dir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("reset work dir: %w", err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("reset work dir: %w", err)
		}
	}
	f, err := os.OpenFile(filepath.Join(dir, programName), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("write program: %w", err)
	}
	_, werr := f.WriteString(program)
	if err := errors.Join(werr, f.Close()); err != nil {
		return fmt.Errorf("write program: %w", err)
	}
	// The program owns its file, as in GEM and as the workspace arranges
	// when it hands the dir to a new slot; the next run most likely keeps
	// the previous run's slot, whose uid owns the dir.
	if v.uid != 0 {
		if err := os.Lchown(filepath.Join(dir, programName), v.uid, v.uid); err != nil {
			return fmt.Errorf("write program: %w", err)
		}
	}
	return nil
}

// judge classifies a finished run.
func (v *verifier) judge(r sandbox.Result, t Test) Outcome {
	out := Outcome{ExitCode: r.ExitCode, Duration: r.Duration}
	switch {
	case r.TimedOut || r.CPULimited:
		out.Status = TimedOut
		out.Detail = fmt.Sprintf("timed out after %v", v.opts.Timeout)
		if r.CPULimited {
			out.Detail = fmt.Sprintf("CPU time limit of %v exceeded", v.opts.Timeout)
		}
	case r.ExitCode != 0:
		out.Status = RuntimeError
		out.Detail = lastLine(string(r.Stderr))
		if r.Signal != "" {
			out.Detail = strings.TrimSpace(out.Detail + " (killed by signal: " + r.Signal + ")")
		}
		if out.Detail == "" {
			out.Detail = fmt.Sprintf("exit status %d", r.ExitCode)
		}
	case r.StdoutTruncated:
		out.Status = WrongAnswer
		out.Detail = fmt.Sprintf("output longer than %d bytes", len(r.Stdout))
	case sameOutput(string(r.Stdout), t.Output, v.opts.TrimLineEnds):
		out.Status = Passed
	default:
		out.Status = WrongAnswer
		out.Detail = fmt.Sprintf("expected %q, got %q", head(pyStrip(t.Output)), head(pyStrip(string(r.Stdout))))
	}
	return out
}

// sameOutput is GEM's gt.strip() == pred.strip(), optionally after trimming
// every line's trailing whitespace.
func sameOutput(got, want string, trimLineEnds bool) bool {
	if trimLineEnds {
		got, want = trimLines(got), trimLines(want)
	}
	return pyStrip(got) == pyStrip(want)
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, pyIsSpace)
	}
	return strings.Join(lines, "\n")
}

// lastLine is the last non-blank line of s, trimmed and cut to 300 bytes.
func lastLine(s string) string {
	s = strings.TrimRightFunc(s, pyIsSpace)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return cut(strings.TrimSpace(s), 300)
}

func head(s string) string { return cut(s, 80) }

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Back off to a rune boundary.
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
