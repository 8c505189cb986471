package codeenv

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/codecheck"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/internal/sandbox"
)

var allIDs = []string{IDCodeContest, IDTaco8k, IDPrimeIntellect15k, IDEvalCodeContest}

// sampleRegistry registers every id with the shipped sample as its default
// dataset and the shared test sandbox.
func sampleRegistry(tb testing.TB) *envs.Registry {
	tb.Helper()
	testSandbox(tb)
	r := envs.NewRegistry()
	if err := register(r, sandboxFunc(tb), func(string) string { return dataenv.Sample }); err != nil {
		tb.Fatal(err)
	}
	return r
}

// references are the project's solutions to the sample's problem kinds,
// keyed by the statement's first line.
var references = map[string]string{
	"Sum of Numbers":          "input()\nprint(sum(map(int, input().split())))",
	"Reverse a String":        "print(input()[::-1])",
	"Count the Words":         "print(len(input().split()))",
	"Largest Number":          "input()\nprint(max(map(int, input().split())))",
	"Count Vowels":            "print(sum(c in 'aeiou' for c in input()))",
	"FizzBuzz":                "for i in range(1, int(input()) + 1):\n    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else i)",
	"Sort the Numbers":        "input()\nprint(*sorted(map(int, input().split())))",
	"Palindrome Check":        "s = input().strip()\nprint('YES' if s == s[::-1] else 'NO')",
	"Greatest Common Divisor": "import math\na, b = map(int, input().split())\nprint(math.gcd(a, b))",
	"Digit Sum":               "print(sum(int(c) for c in input().strip()))",
	"A Plus B, Many Times":    "import sys\ndata = sys.stdin.read().split()\nt = int(data[0])\nfor i in range(t):\n    print(int(data[1 + 2*i]) + int(data[2 + 2*i]))",
	"Count Distinct Values":   "input()\nprint(len(set(input().split())))",
}

func pyBlock(code string) string { return "Here is my solution.\n\n```python\n" + code + "\n```\n" }

func title(obs string) string { t, _, _ := strings.Cut(obs, "\n"); return t }

// sampleRows reads the shipped sample directly.
func sampleRows(tb testing.TB) []map[string]any {
	tb.Helper()
	f, err := samples.Open(samplePath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row map[string]any
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			tb.Fatal(err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return rows
}

func makeEnv(tb testing.TB, r *envs.Registry, id string, opts map[string]any) envs.Env {
	tb.Helper()
	return envtest.Make(tb, r, id, opts)
}

func resetRow(tb testing.TB, e envs.Env, row int) string {
	tb.Helper()
	obs, _, err := envs.ResetTask(e, row, 0)
	if err != nil {
		tb.Fatal(err)
	}
	return obs
}

// TestConformance runs the suite on every id over the sample, with a real
// sandbox grading the random programs.
func TestConformance(t *testing.T) {
	r := sampleRegistry(t)
	if got := r.IDs(); strings.Join(got, ",") != "code:CodeContest,code:PrimeIntellect15k,code:Taco8k,eval:CodeContest" {
		t.Fatalf("ids %v", got)
	}
	envtest.RunAll(t, r)
}

// TestRegister: the ids carry GEM's registration as their defaults, point at
// the Hub's Parquet conversion of GEM's dataset and split, and making an env
// calls no sandbox.
func TestRegister(t *testing.T) {
	var calls atomic.Int32
	r := envs.NewRegistry()
	err := Register(r, func(context.Context) (*sandbox.Sandbox, error) {
		calls.Add(1)
		return nil, errors.New("unused")
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := samples.ReadFile(samplePath)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		IDCodeContest:       "hf://datasets/axon-rl/CodeContest@refs/convert/parquet/default/train/0000.parquet",
		IDTaco8k:            "hf://datasets/axon-rl/TACO-8k@refs/convert/parquet/default/train/0000.parquet",
		IDPrimeIntellect15k: "hf://datasets/axon-rl/PrimeIntellect-15k@refs/convert/parquet/default/train/0000.parquet",
		IDEvalCodeContest:   "hf://datasets/axon-rl/CodeContest@refs/convert/parquet/default/test/0000.parquet",
	}
	for _, id := range allIDs {
		s, err := r.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		d := s.Defaults()
		wantDefaults := map[string]any{
			"dataset": want[id], "question_key": "problem", "test_key": "tests",
			"timeout": "10s", "max_tests": float64(12), "fail_fast": true,
		}
		if fmt.Sprint(d) != fmt.Sprint(wantDefaults) {
			t.Errorf("%s defaults %v, want %v", id, d, wantDefaults)
		}
		if s.MaxTurns != 1 || s.RewardMin != -0.1 || s.RewardMax != 1 || s.Revision != 1 || s.Description == "" {
			t.Errorf("%s spec %+v", id, s)
		}
		if s.DataDigest != envs.Digest(b) {
			t.Errorf("%s digest %q, want the sample's %q", id, s.DataDigest, envs.Digest(b))
		}
		if _, err := r.Make(id, nil); err != nil {
			t.Errorf("make %s: %v", id, err)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("making envs called the sandbox %d times", calls.Load())
	}
	if err := Register(r, nil); err == nil {
		t.Fatal("registering the ids twice succeeded")
	}
}

// TestObservationIsProblem: the first observation is the problem column,
// byte for byte, on every row.
func TestObservationIsProblem(t *testing.T) {
	r := sampleRegistry(t)
	rows := sampleRows(t)
	e := makeEnv(t, r, IDCodeContest, nil)
	if n, err := envs.Rows(e); err != nil || n != len(rows) || n < 25 {
		t.Fatalf("rows %d %v, sample has %d", n, err, len(rows))
	}
	for i, row := range rows {
		if obs := resetRow(t, e, i); obs != row["problem"] {
			t.Fatalf("row %d: observation %q, problem %q", i, obs, row["problem"])
		}
	}
	if obs := resetRow(t, makeEnv(t, r, IDTaco8k, map[string]any{"question_key": "tests", "test_key": "problem"}), 1); obs != fmt.Sprint(rows[1]["tests"]) {
		t.Fatalf("question_key tests: observation %q", obs)
	}
}

// TestSampleShape: the sample has every kind, 3 to 15 tests a row, rows past
// GEM's 12 and all three test shapes.
func TestSampleShape(t *testing.T) {
	kinds := map[string]bool{}
	shapes := map[string]int{}
	over12 := 0
	for i, row := range sampleRows(t) {
		kinds[title(row["problem"].(string))] = true
		tests, err := codecheck.ParseTests(row["tests"])
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if len(tests) < 3 || len(tests) > 15 {
			t.Fatalf("row %d has %d tests", i, len(tests))
		}
		if len(tests) > 12 {
			over12++
		}
		switch v := row["tests"].(type) {
		case string:
			shapes["json text"]++
		case map[string]any:
			if _, ok := v["inputs"].([]any)[0].([]any); ok {
				shapes["lines"]++
			} else {
				shapes["texts"]++
			}
		}
	}
	if len(kinds) != len(references) {
		t.Fatalf("sample kinds %v, references for %d", kinds, len(references))
	}
	if over12 < 3 || len(shapes) != 3 {
		t.Fatalf("%d rows over 12 tests, shapes %v", over12, shapes)
	}
}

// TestReferenceSolutions: the project's solution to every sample row earns 1
// on every id, and a solution printing one wrong answer earns 0.
func TestReferenceSolutions(t *testing.T) {
	r := sampleRegistry(t)
	rows := sampleRows(t)
	for i := range rows {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			e := makeEnv(t, r, allIDs[i%len(allIDs)], map[string]any{"fail_fast": false})
			obs := resetRow(t, e, i)
			ref, ok := references[title(obs)]
			if !ok {
				t.Fatalf("no reference for %q", title(obs))
			}
			res, err := e.Step(pyBlock(ref))
			if err != nil {
				t.Fatal(err)
			}
			tests, _ := codecheck.ParseTests(rows[i]["tests"])
			total := min(len(tests), 12)
			if res.Reward != 1 || !res.Info.Success || !res.Terminated || res.Info.FormatError ||
				res.Info.Extra["passed"] != total || res.Info.Extra["total"] != total || res.Info.Extra["available"] != len(tests) {
				t.Fatalf("reference solution: %+v", res)
			}
		})
	}
}

// TestResponses grades hand-written responses to row 0 (Sum of Numbers, 14
// tests).
func TestResponses(t *testing.T) {
	r := sampleRegistry(t)
	ref := references["Sum of Numbers"]
	wrong := "input()\nprint(sum(map(int, input().split())) + 1)"
	cases := []struct {
		name     string
		response string
		opts     map[string]any
		reward   float64
		format   bool
		status   string // failed_status, when the program fails
		obs      string
	}{
		{name: "correct", response: pyBlock(ref), reward: 1, obs: "Accepted: the program passed all 12 tests."},
		{name: "bare fence", response: "```\n" + ref + "\n```", reward: 1},
		{name: "any language tag", response: "```py3\n" + ref + "\n```", reward: 1},
		{name: "last block counts", response: pyBlock(wrong) + "Oops, fixed:\n" + pyBlock(ref), reward: 1},
		{name: "last block is wrong", response: pyBlock(ref) + "On second thought:\n" + pyBlock(wrong), reward: 0, status: "wrong_answer"},
		{name: "incorrect", response: pyBlock(wrong), reward: 0, status: "wrong_answer", obs: "Rejected: wrong answer on test 1 of 12."},
		{name: "runtime error", response: pyBlock("raise ValueError('no')"), reward: 0, status: "runtime_error", obs: "Rejected: runtime error on test 1 of 12."},
		{name: "syntax error", response: pyBlock("print(("), reward: 0, status: "runtime_error"},
		{name: "no output", response: pyBlock("pass"), reward: 0, status: "wrong_answer"},
		{name: "hangs", response: pyBlock("while True:\n    pass"), opts: map[string]any{"timeout": "1s"}, reward: 0, status: "timed_out", obs: "Rejected: time limit exceeded on test 1 of 12."},
		{name: "sleeps", response: pyBlock("import time\ntime.sleep(30)"), opts: map[string]any{"timeout": "1s"}, reward: 0, status: "timed_out"},
		{name: "no block", response: "The answer is the sum of the numbers.", reward: -0.1, format: true, obs: obsNoCode},
		{name: "unclosed block", response: "```python\n" + ref, reward: -0.1, format: true},
		{name: "space before tag", response: "``` python\n" + ref + "\n```", reward: -0.1, format: true},
		{name: "inline code only", response: "Use `print(sum(...))`.", reward: -0.1, format: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := makeEnv(t, r, IDCodeContest, c.opts)
			resetRow(t, e, 0)
			start := time.Now()
			res, err := e.Step(c.response)
			if err != nil {
				t.Fatal(err)
			}
			if c.status == "timed_out" && time.Since(start) > 6*time.Second {
				t.Fatalf("a hanging program took %s: fail_fast should stop at the first timeout", time.Since(start))
			}
			if res.Reward != c.reward || res.Info.FormatError != c.format || res.Info.Success != (c.reward == 1) ||
				!res.Terminated || res.Observation == "" {
				t.Fatalf("got %+v", res)
			}
			if c.obs != "" && res.Observation != c.obs {
				t.Fatalf("observation %q, want %q", res.Observation, c.obs)
			}
			if got, _ := res.Info.Extra["failed_status"].(string); got != c.status {
				t.Fatalf("failed_status %q, want %q (extra %v)", got, c.status, res.Info.Extra)
			}
			if !c.format && (res.Info.Extra["total"] != 12 || res.Info.Extra["available"] != 14) {
				t.Fatalf("extra %v, want 12 of 14 tests run", res.Info.Extra)
			}
			if _, err := e.Step(c.response); !errors.Is(err, envs.ErrEpisodeOver) {
				t.Fatalf("second step: %v, want ErrEpisodeOver", err)
			}
		})
	}
}

// writeDataset writes rows as a JSONL file and returns its path.
func writeDataset(tb testing.TB, rows ...any) string {
	tb.Helper()
	var b strings.Builder
	for _, row := range rows {
		j, err := json.Marshal(row)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	path := filepath.Join(tb.TempDir(), "code.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// lengthRow is a problem with 15 tests whose inputs are "a"×k for k = 1…15,
// in shuffled order, each answered by k.
func lengthRow(asText bool) map[string]any {
	var ins, outs []string
	for _, k := range []int{7, 1, 12, 3, 15, 9, 2, 14, 5, 11, 4, 13, 8, 10, 6} {
		ins = append(ins, strings.Repeat("a", k)+"\n")
		outs = append(outs, fmt.Sprintf("%d\n", k))
	}
	var tests any = map[string]any{"inputs": ins, "outputs": outs}
	if asText {
		b, _ := json.Marshal(tests)
		tests = string(b)
	}
	return map[string]any{"statement": "Print the length of the line.", "cases": tests}
}

// TestMoreThan12Tests: of 15 tests only the 12 with the longest inputs run,
// so a program wrong on the three shortest inputs still earns 1, and one wrong
// on the 12th longest does not; max_tests moves the cut.
func TestMoreThan12Tests(t *testing.T) {
	r := sampleRegistry(t)
	path := writeDataset(t, lengthRow(false), lengthRow(true))
	wrongUpTo := func(k int) string {
		return pyBlock(fmt.Sprintf("n = len(input())\nprint(n if n > %d else -1)", k))
	}
	cases := []struct {
		program  string
		maxTests int
		reward   float64
		total    int
	}{
		{wrongUpTo(3), 12, 1, 12},
		{wrongUpTo(4), 12, 0, 12},
		{wrongUpTo(3), 13, 0, 13},
		{wrongUpTo(14), 1, 1, 1},
		{wrongUpTo(0), 15, 1, 15},
		{wrongUpTo(0), 100, 1, 15},
	}
	for _, row := range []int{0, 1} {
		for i, c := range cases {
			e := makeEnv(t, r, IDTaco8k, map[string]any{
				"dataset": path, "question_key": "statement", "test_key": "cases", "max_tests": c.maxTests,
			})
			if obs := resetRow(t, e, row); obs != "Print the length of the line." {
				t.Fatalf("observation %q", obs)
			}
			res, err := e.Step(c.program)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reward != c.reward || res.Info.Extra["total"] != c.total || res.Info.Extra["available"] != 15 {
				t.Fatalf("row %d case %d: %+v", row, i, res)
			}
		}
	}
}

// TestFailFast: with fail_fast off every selected test runs and passed counts
// them all; with it on, grading stops at the first failure.
func TestFailFast(t *testing.T) {
	r := sampleRegistry(t)
	path := writeDataset(t, lengthRow(false))
	// Longest first: 15, 14, …, 4 run; the program fails on 13 and 10 only.
	program := pyBlock("n = len(input())\nprint(-1 if n in (13, 10) else n)")
	for _, c := range []struct {
		failFast       bool
		passed, failed int
	}{{false, 10, 2}, {true, 2, 2}} {
		e := makeEnv(t, r, IDPrimeIntellect15k, map[string]any{
			"dataset": path, "question_key": "statement", "test_key": "cases", "fail_fast": c.failFast,
		})
		resetRow(t, e, 0)
		res, err := e.Step(program)
		if err != nil {
			t.Fatal(err)
		}
		if res.Reward != 0 || res.Info.Extra["passed"] != c.passed || res.Info.Extra["failed_test"] != c.failed ||
			res.Observation != "Rejected: wrong answer on test 3 of 12." {
			t.Fatalf("fail_fast %v: %+v", c.failFast, res)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	r := sampleRegistry(t)
	for _, id := range allIDs {
		envtest.OptionErrors(t, r, id, []envtest.OptionCase{
			{Options: map[string]any{"split": "train"}, Option: "split"},
			{Options: map[string]any{"dataset_name": "axon-rl/CodeContest"}, Option: "dataset_name"},
			{Options: map[string]any{"dataset": ""}, Option: "dataset"},
			{Options: map[string]any{"dataset": 3}, Option: "dataset"},
			{Options: map[string]any{"question_key": ""}, Option: "question_key"},
			{Options: map[string]any{"test_key": ""}, Option: "test_key"},
			{Options: map[string]any{"test_key": "problem"}, Option: "test_key"},
			{Options: map[string]any{"timeout": "ten seconds"}, Option: "timeout"},
			{Options: map[string]any{"timeout": "10"}, Option: "timeout"},
			{Options: map[string]any{"timeout": 10}, Option: "timeout"},
			{Options: map[string]any{"timeout": "0s"}, Option: "timeout"},
			{Options: map[string]any{"timeout": "-1s"}, Option: "timeout"},
			{Options: map[string]any{"timeout": "1h"}, Option: "timeout"},
			{Options: map[string]any{"max_tests": 0}, Option: "max_tests"},
			{Options: map[string]any{"max_tests": -3}, Option: "max_tests"},
			{Options: map[string]any{"max_tests": "12"}, Option: "max_tests"},
			{Options: map[string]any{"max_tests": 1.5}, Option: "max_tests"},
			{Options: map[string]any{"fail_fast": "yes"}, Option: "fail_fast"},
		})
		envtest.OptionsAccepted(t, r, id,
			map[string]any{"timeout": "1500ms", "max_tests": 1},
			map[string]any{"dataset": "/no/such/file.parquet"}, // opened lazily
			map[string]any{"question_key": "statement", "test_key": "cases", "fail_fast": false},
		)
	}
}

// TestDatasetErrors: a missing column or file fails the first Reset, naming
// it; a row whose tests cannot be read fails the Step (a data fault, not the
// agent's).
func TestDatasetErrors(t *testing.T) {
	r := sampleRegistry(t)
	_, _, err := makeEnv(t, r, IDCodeContest, map[string]any{"question_key": "statement"}).Reset(0)
	if err == nil || !strings.Contains(err.Error(), `"statement"`) {
		t.Fatalf("missing column: %v", err)
	}
	if _, _, err := makeEnv(t, r, IDCodeContest, map[string]any{"dataset": "/no/such/file.jsonl"}).Reset(0); err == nil {
		t.Fatal("missing file: no error")
	}
	path := writeDataset(t,
		map[string]any{"problem": "p", "tests": map[string]any{"inputs": []string{"1\n"}, "outputs": []string{}}},
		map[string]any{"problem": "p", "tests": map[string]any{"inputs": []string{}, "outputs": []string{}}},
	)
	for row, want := range []error{codecheck.ErrTestFormat, codecheck.ErrNoTests} {
		e := makeEnv(t, r, IDCodeContest, map[string]any{"dataset": path})
		resetRow(t, e, row)
		if _, err := e.Step(pyBlock("print(1)")); !errors.Is(err, want) {
			t.Fatalf("row %d: %v, want %v", row, err, want)
		}
	}
}

// TestSandboxInjection: the sandbox is asked for once, at the first program
// to run; its failure is the Step's error; without one a program cannot be
// graded but a response without code still can.
func TestSandboxInjection(t *testing.T) {
	sb := testSandbox(t)
	var calls atomic.Int32
	boom := errors.New("boom")
	var fail atomic.Bool
	r := envs.NewRegistry()
	err := register(r, func(context.Context) (*sandbox.Sandbox, error) {
		calls.Add(1)
		if fail.Load() {
			return nil, boom
		}
		return sb, nil
	}, func(string) string { return dataenv.Sample })
	if err != nil {
		t.Fatal(err)
	}
	e := makeEnv(t, r, IDCodeContest, nil)
	resetRow(t, e, 0)
	if res, err := e.Step("no code"); err != nil || res.Reward != -0.1 || calls.Load() != 0 {
		t.Fatalf("no block: %+v %v, %d sandbox calls", res, err, calls.Load())
	}
	for range 3 {
		resetRow(t, e, 0)
		if _, err := e.Step(pyBlock(references["Sum of Numbers"])); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 1 {
		t.Fatalf("three graded steps asked for the sandbox %d times, want once per env", calls.Load())
	}

	fail.Store(true)
	e = makeEnv(t, r, IDCodeContest, nil)
	resetRow(t, e, 0)
	if _, err := e.Step(pyBlock("print(1)")); !errors.Is(err, boom) {
		t.Fatalf("failing sandbox: %v", err)
	}

	r = envs.NewRegistry()
	if err := register(r, nil, func(string) string { return dataenv.Sample }); err != nil {
		t.Fatal(err)
	}
	e = makeEnv(t, r, IDCodeContest, nil)
	resetRow(t, e, 0)
	if _, err := e.Step(pyBlock("print(1)")); !errors.Is(err, ErrNoSandbox) {
		t.Fatalf("no sandbox: %v", err)
	}
	e = makeEnv(t, r, IDCodeContest, nil)
	resetRow(t, e, 0)
	if res, err := e.Step("no code"); err != nil || !res.Info.FormatError {
		t.Fatalf("no sandbox, no block: %+v %v", res, err)
	}
}

// TestRandomAction: a python block printing an integer, drawn from the
// caller's generator.
func TestRandomAction(t *testing.T) {
	r := sampleRegistry(t)
	e := makeEnv(t, r, IDCodeContest, nil)
	resetRow(t, e, 0)
	re := regexp.MustCompile("^```python\nprint\\(\\d+\\)\n```$")
	seen := map[string]bool{}
	for seed := range uint64(20) {
		a := e.SampleRandomAction(envs.NewRand(seed))
		if !re.MatchString(a) || a != e.SampleRandomAction(envs.NewRand(seed)) {
			t.Fatalf("seed %d: %q", seed, a)
		}
		if _, _, ok := codecheck.LastCodeBlock(a); !ok {
			t.Fatalf("%q has no code block", a)
		}
		seen[a] = true
	}
	if len(seen) < 5 {
		t.Fatalf("20 seeds gave %d actions", len(seen))
	}
}

// TestCodeTemplate pins GEM's training prompt (examples/train_oat,
// apply_code_template).
func TestCodeTemplate(t *testing.T) {
	got := CodeTemplate("Add two numbers.")
	want := "You are an expert Python programmer. You will be given a question (problem specification) and will generate a correct Python program that matches the specification and passes all tests.\nQuestion: Add two numbers.\nPlease reason step by step, and write your code in markdown format, e.g., ```python\n# YOUR CODE HERE\n```."
	if got != want {
		t.Fatalf("got %q", got)
	}
}

// A code env declares how long one grading step can take, through the
// registry's wrapper, so the pipeline's Act timeout covers every test
// running for nearly its timeout.
func TestStepBound(t *testing.T) {
	r := envs.NewRegistry()
	if err := register(r, nil, func(string) string { return dataenv.Sample }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts map[string]any
		want time.Duration
	}{
		{nil, time.Duration(DefaultMaxTests)*10*time.Second + stepOverhead},
		{map[string]any{"max_tests": 100, "timeout": "10m"}, 1000*time.Minute + stepOverhead},
	} {
		env, err := r.Make("code:CodeContest", c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := envs.StepBound(env); got != c.want {
			t.Errorf("options %v: step bound %v, want %v", c.opts, got, c.want)
		}
	}
}
