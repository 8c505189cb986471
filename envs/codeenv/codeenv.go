// Package codeenv registers GEM's code envs — code:CodeContest, code:Taco8k,
// code:PrimeIntellect15k and eval:CodeContest — over envs/dataenv, graded by
// envs/codecheck in the project's sandbox.
//
// The rules are GEM's CodeEnv (gem/envs/code_env.py, axon-rl/gem @ 4069f2f):
// one turn; the observation is the row's problem text exactly as the dataset
// holds it (GEM's env adds no instruction; its trainers' optional "code"
// prompt template is CodeTemplate); the LAST fenced code block of the
// response is the program; it runs as Python against the row's stdin/stdout
// tests, at most 12 of them, the longest inputs first; reward 1 when every
// test passes, 0 otherwise, −0.1 when the response has no code block.
//
// The sandbox is injected: Register takes a SandboxFunc, which an env calls at
// its first Step that has a program to run, so making, resetting and listing
// envs needs no bubblewrap.
package codeenv

//go:generate go run ./gen

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/codecheck"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/internal/sandbox"
)

//go:embed samples/code.jsonl
var samples embed.FS

// samplePath is the shipped sample every id's "sample" dataset opens.
const samplePath = "samples/code.jsonl"

// The registered ids.
const (
	IDCodeContest       = "code:CodeContest"
	IDTaco8k            = "code:Taco8k"
	IDPrimeIntellect15k = "code:PrimeIntellect15k"
	IDEvalCodeContest   = "eval:CodeContest"
)

// source is one GEM registration: the Hub dataset and split it loads.
type source struct {
	id, dataset, split, description string
}

// sources are GEM's registrations (gem/envs/__init__.py), all with
// question_key "problem" and test_key "tests".
var sources = []source{
	{IDCodeContest, "axon-rl/CodeContest", "train",
		"CodeContests (train): competitive programming problems; answer with a Python program in a fenced code block, run on up to 12 stdin/stdout tests."},
	{IDTaco8k, "axon-rl/TACO-8k", "train",
		"TACO (8k problems): competitive programming; answer with a Python program in a fenced code block, run on up to 12 stdin/stdout tests."},
	{IDPrimeIntellect15k, "axon-rl/PrimeIntellect-15k", "train",
		"PrimeIntellect (15k problems): competitive programming; answer with a Python program in a fenced code block, run on up to 12 stdin/stdout tests."},
	{IDEvalCodeContest, "axon-rl/CodeContest", "test",
		"CodeContests (test split, merged test cases) for evaluation; answer with a Python program in a fenced code block, run on up to 12 stdin/stdout tests."},
}

// HubURL is where id's dataset is read by default: the Hugging Face Hub's
// auto-converted Parquet of the dataset and split GEM registers. Only the
// first Parquet shard of a split is named; a split the converter cut into
// several files needs its other shards passed as the dataset option.
func HubURL(dataset, split string) string {
	return fmt.Sprintf("hf://datasets/%s@refs/convert/parquet/default/%s/0000.parquet", dataset, split)
}

// SandboxFunc returns the sandbox the programs run in. An env calls it once,
// at its first Step with a program to run, and keeps the result; it is
// usually a closure over one process-wide sandbox.
type SandboxFunc func(ctx context.Context) (*sandbox.Sandbox, error)

// ErrNoSandbox is returned by Step when the envs were registered without a
// SandboxFunc and a response holds a program to run.
var ErrNoSandbox = errors.New("codeenv: no sandbox configured")

// Reward bounds of every id (GEM's CodeEnv rewards).
const (
	RewardMin = codecheck.RewardNoCode
	RewardMax = codecheck.RewardCorrect
)

// Defaults of Options.
const (
	DefaultQuestionKey = "problem"
	DefaultTestKey     = "tests"
	DefaultTimeout     = "10s" // GEM's DEFAULT_TIMEOUT, per test
	DefaultMaxTests    = codecheck.DefaultMaxTests
)

// maxTimeout bounds the per-test timeout option: a program's worst case is
// max_tests times it.
const maxTimeout = 10 * time.Minute

// Options are an id's options; the defaults are GEM's registration.
type Options struct {
	// Dataset is a path or URL (http(s), s3://, hf://datasets/…) of a JSONL
	// or Parquet file, or "sample" for the shipped sample. GEM's
	// dataset_name and split are folded into the default URL (HubURL).
	Dataset string `json:"dataset" len:"1,4096"`
	// QuestionKey is the column holding the problem statement.
	QuestionKey string `json:"question_key" len:"1,256"`
	// TestKey is the column holding the tests: {"inputs": [...],
	// "outputs": [...]}, that object as JSON text, or any other shape
	// codecheck.ParseTests reads.
	TestKey string `json:"test_key" len:"1,256"`
	// Timeout is the wall-clock limit of the program on one test, a Go
	// duration string ("10s", "1500ms"); GEM's is 10 seconds.
	Timeout string `json:"timeout" len:"1,32"`
	// MaxTests is how many tests are run, the longest inputs first (GEM's
	// max_tests).
	MaxTests int `json:"max_tests" range:"1,100"`
	// FailFast stops at the first failing test. The reward is the same
	// either way (1 needs every test); it bounds a hanging program at one
	// Timeout instead of max_tests of them, at the price of a passed count
	// that stops at the first failure. GEM runs every test. Default true.
	FailFast bool `json:"fail_fast"`
}

// DefaultOptions returns GEM's registration for a dataset URL.
func DefaultOptions(dataset string) Options {
	return Options{
		Dataset:     dataset,
		QuestionKey: DefaultQuestionKey,
		TestKey:     DefaultTestKey,
		Timeout:     DefaultTimeout,
		MaxTests:    DefaultMaxTests,
		FailFast:    true,
	}
}

// Validate checks every option, naming the one at fault.
func (o Options) Validate() error {
	switch {
	case o.Dataset == "":
		return &envs.OptionError{Option: "dataset", Reason: `empty; want a path, a URL or "sample"`}
	case o.QuestionKey == "":
		return &envs.OptionError{Option: "question_key", Reason: "empty; want a column name"}
	case o.TestKey == "":
		return &envs.OptionError{Option: "test_key", Reason: "empty; want a column name"}
	case o.QuestionKey == o.TestKey:
		return &envs.OptionError{Option: "test_key", Reason: fmt.Sprintf("%q is also question_key", o.TestKey)}
	case o.MaxTests < 1:
		return &envs.OptionError{Option: "max_tests", Reason: fmt.Sprintf("got %d, want at least 1", o.MaxTests)}
	}
	if _, err := o.timeout(); err != nil {
		return err
	}
	return nil
}

func (o Options) timeout() (time.Duration, error) {
	d, err := time.ParseDuration(o.Timeout)
	if err != nil {
		return 0, &envs.OptionError{Option: "timeout", Reason: fmt.Sprintf("got %q, want a duration such as 10s or 1500ms", o.Timeout)}
	}
	if d <= 0 || d > maxTimeout {
		return 0, &envs.OptionError{Option: "timeout", Reason: fmt.Sprintf("got %s, want more than 0 and at most %s", d, maxTimeout)}
	}
	return d, nil
}

// Register adds the four ids, each reading its GEM dataset from the Hub
// (HubURL) by default. sb provides the sandbox; it may be nil for a registry
// that only lists or resets envs, in which case grading a program fails with
// ErrNoSandbox.
func Register(r *envs.Registry, sb SandboxFunc) error {
	return register(r, sb, func(id string) string {
		for _, s := range sources {
			if s.id == id {
				return HubURL(s.dataset, s.split)
			}
		}
		return ""
	})
}

// RegisterSamples adds the ids reading the shipped sample by default, for
// offline use: the catalog's tests, demos.
func RegisterSamples(r *envs.Registry, sb SandboxFunc) error {
	return register(r, sb, func(string) string { return dataenv.Sample })
}

// register adds the ids with the default dataset sourceFor(id) returns; the
// tests pass one returning dataenv.Sample.
func register(r *envs.Registry, sb SandboxFunc, sourceFor func(id string) string) error {
	b, err := samples.ReadFile(samplePath)
	if err != nil {
		return fmt.Errorf("codeenv: read sample: %w", err)
	}
	digest := envs.Digest(b)
	for _, s := range sources {
		err := r.Register(envs.Spec{
			ID:          s.id,
			Description: s.description,
			MaxTurns:    1,
			RewardMin:   RewardMin,
			RewardMax:   RewardMax,
			Revision:    1,
			DataDigest:  digest,
			Build: envs.Options(DefaultOptions(sourceFor(s.id)), func(o Options) (envs.Env, error) {
				return New(o, sb)
			}),
		})
		if err != nil {
			return fmt.Errorf("codeenv: register %s: %w", s.id, err)
		}
	}
	return nil
}

// New returns an env over o.Dataset (opened at the first Reset) grading with
// the sandbox sb returns (called at the first program to run).
func New(o Options, sb SandboxFunc) (*dataenv.Env, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	timeout, _ := o.timeout()
	g := &grader{
		opts:  o,
		check: codecheck.Options{Timeout: timeout, MaxTests: o.MaxTests, FailFast: o.FailFast},
		sbf:   sb,
	}
	return dataenv.New(&dataenv.Family{
		Columns:      []string{o.QuestionKey, o.TestKey},
		Prompt:       g.prompt,
		Score:        g.score,
		RandomAction: randomAction,
		Samples:      samples,
		SamplePath:   samplePath,
		// Every test may run for nearly its timeout (they pass one by one,
		// fail_fast or not), plus the sandbox's start and the tests' setup.
		StepBound: time.Duration(o.MaxTests)*timeout + stepOverhead,
	}, o.Dataset), nil
}

// stepOverhead is a grading step's time beyond its programs' own: starting
// the sandbox, writing the program and the tests.
const stepOverhead = 30 * time.Second

// grader is one env instance's grading state: its options and, once a
// program has run, its sandbox.
type grader struct {
	opts  Options
	check codecheck.Options
	sbf   SandboxFunc
	sb    *sandbox.Sandbox
}

// prompt is GEM's first observation: the problem text, unchanged.
func (g *grader) prompt(row map[string]any) (string, error) {
	return dataenv.Str(row, g.opts.QuestionKey), nil
}

// Observations of the final step. GEM returns a fixed terminal marker; the
// agent never acts on it, so Quarry says what happened instead.
const (
	obsNoCode = "No code block found: put the program in a fenced code block (```python ... ```)."
)

// score grades action on row as GEM's CodeEnv.step does.
func (g *grader) score(ctx context.Context, action string, row map[string]any) (envs.StepResult, error) {
	if _, _, ok := codecheck.LastCodeBlock(action); !ok {
		return envs.StepResult{
			Observation: obsNoCode,
			Reward:      codecheck.RewardNoCode,
			Info:        envs.Info{FormatError: true},
		}, nil
	}
	tests, err := codecheck.ParseTests(row[g.opts.TestKey])
	if err != nil {
		return envs.StepResult{}, fmt.Errorf("codeenv: column %q: %w", g.opts.TestKey, err)
	}
	if g.sb == nil {
		if g.sbf == nil {
			return envs.StepResult{}, ErrNoSandbox
		}
		sb, err := g.sbf(ctx)
		if err != nil {
			return envs.StepResult{}, fmt.Errorf("codeenv: sandbox: %w", err)
		}
		if sb == nil {
			return envs.StepResult{}, ErrNoSandbox
		}
		g.sb = sb
	}
	s, err := codecheck.Score(ctx, g.sb, action, tests, g.check)
	if err != nil {
		return envs.StepResult{}, fmt.Errorf("codeenv: %w", err)
	}
	total := len(s.Result.Outcomes)
	extra := map[string]any{
		"passed":    s.Result.Passed,
		"total":     total,
		"available": len(tests),
	}
	res := envs.StepResult{Reward: s.Reward, Info: envs.Info{Success: s.Result.AllPassed, Extra: extra}}
	if s.Result.AllPassed {
		res.Observation = fmt.Sprintf("Accepted: the program passed all %d tests.", total)
		return res, nil
	}
	for i, o := range s.Result.Outcomes {
		if o.Status != codecheck.Passed {
			extra["failed_test"] = i
			extra["failed_status"] = string(o.Status)
			res.Observation = fmt.Sprintf("Rejected: %s on test %d of %d.", statusText(o.Status), i+1, total)
			break
		}
	}
	return res, nil
}

func statusText(s codecheck.Status) string {
	switch s {
	case codecheck.WrongAnswer:
		return "wrong answer"
	case codecheck.TimedOut:
		return "time limit exceeded"
	case codecheck.RuntimeError:
		return "runtime error"
	}
	return string(s)
}

// randomAction is a well-formed answer that is almost always wrong: a Python
// block printing a random integer.
func randomAction(rng *rand.Rand, _ map[string]any) string {
	return fmt.Sprintf("```python\nprint(%d)\n```", rng.IntN(100))
}

// CodeTemplate is the instruction GEM's trainers wrap around a code env's
// observation when run with --prompt_template code (examples/train_oat,
// apply_code_template); GEM's env itself shows the bare problem. It is here
// for a job that wants GEM's training prompt exactly.
func CodeTemplate(question string) string {
	return "You are an expert Python programmer. " +
		"You will be given a question (problem specification) and will generate a correct " +
		"Python program that matches the specification and passes all tests." +
		"\nQuestion: " + question +
		"\nPlease reason step by step, and write your code in markdown format, e.g., ```python\n# YOUR CODE HERE\n```."
}
