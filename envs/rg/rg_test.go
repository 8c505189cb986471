package rg_test

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// sumOptions are a toy task's: add two numbers of up to max_value.
type sumOptions struct {
	MinValue int `json:"min_value" range:"0,1000000"`
	MaxValue int `json:"max_value" range:"0,1000000"`
}

func (o sumOptions) Validate() error {
	if o.MinValue > o.MaxValue {
		return &envs.OptionError{Option: "max_value", Reason: "below min_value"}
	}
	return nil
}

var sumTask = rg.Task[sumOptions]{
	Name:        "toy_sum",
	Description: "add two numbers",
	Revision:    1,
	Defaults:    sumOptions{MinValue: 0, MaxValue: 1000},
	Generate: func(rng *rand.Rand, o sumOptions) (rg.Item, error) {
		a := o.MinValue + rng.IntN(o.MaxValue-o.MinValue+1)
		b := o.MinValue + rng.IntN(o.MaxValue-o.MinValue+1)
		return rg.Item{
			Question: "What is " + strconv.Itoa(a) + " + " + strconv.Itoa(b) + "?",
			Answer:   strconv.Itoa(a + b),
			Meta:     map[string]any{"a": a, "b": b},
		}, nil
	},
	// Number formats are equivalent: "1,000" and "1000.0" are 1000.
	Score: func(answer string, it *rg.Item) float64 {
		f, err := strconv.ParseFloat(strings.ReplaceAll(answer, ",", ""), 64)
		if err != nil {
			return 0
		}
		if strconv.FormatFloat(f, 'f', -1, 64) == it.Answer {
			return 1
		}
		return 0
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		got, _ := strconv.Atoi(answer)
		want, _ := strconv.Atoi(it.Answer)
		if got < want {
			return "Too low."
		}
		return "Too high."
	},
}

func registry(t testing.TB) *envs.Registry {
	return envtest.Registry(t, func(r *envs.Registry) error { return rg.Register(r, sumTask) })
}

func TestSuite(t *testing.T) { rgtest.Run(t, registry(t), rgtest.Config{}) }

func TestSingleTurn(t *testing.T) {
	r := registry(t)
	e, it := rgtest.Reset(t, r, "rg:toy_sum", nil, 5)
	obs := it.Item().Question
	if !strings.HasPrefix(obs, "What is ") {
		t.Fatalf("question %q", obs)
	}
	res, err := e.Step(`The sum is \boxed{ ` + it.Item().Answer + `.0 }`)
	if err != nil || res.Reward != 1 || !res.Info.Success || !res.Terminated || res.Truncated {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Info.Extra["answer"] != it.Item().Answer {
		t.Fatalf("info %v", res.Info.Extra)
	}
	e, _ = rgtest.Reset(t, r, "rg:toy_sum", nil, 5)
	res, _ = e.Step("no box")
	if !res.Info.FormatError || res.Reward != 0 || !res.Done() {
		t.Fatalf("%+v", res)
	}
}

func TestRetryFeedback(t *testing.T) {
	r := registry(t)
	e, it := rgtest.Reset(t, r, "rg:toy_sum-retry", map[string]any{"answer_attempts": 4, "max_value": 50}, 9)
	want, _ := strconv.Atoi(it.Item().Answer)
	res, _ := e.Step(`\boxed{-1}`)
	if res.Done() || !strings.Contains(res.Observation, "Too low.") || !strings.Contains(res.Observation, "3 of 4 attempts left") {
		t.Fatalf("%+v", res)
	}
	res, _ = e.Step(`\boxed{` + strconv.Itoa(want+1) + `}`)
	if res.Done() || !strings.Contains(res.Observation, "Too high.") {
		t.Fatalf("%+v", res)
	}
	res, _ = e.Step(`\boxed{` + strconv.Itoa(want) + `}`)
	if !res.Done() || res.Reward != 1 || res.Info.Extra["attempts"] != 3 {
		t.Fatalf("%+v", res)
	}
}

func TestRetryOptions(t *testing.T) {
	r := registry(t)
	spec, _ := r.Lookup("rg:toy_sum-retry")
	if d := spec.Defaults(); d["answer_attempts"] != float64(rg.DefaultAttempts) || d["max_value"] != float64(1000) {
		t.Fatalf("defaults %v", d)
	}
	if len(spec.Bounds()) != 3 {
		t.Fatalf("bounds %v", spec.Bounds())
	}
	envtest.OptionErrors(t, r, "rg:toy_sum-retry", []envtest.OptionCase{
		{Options: map[string]any{"answer_attempts": 0}, Option: "answer_attempts"},
		{Options: map[string]any{"answer_attempts": 11}, Option: "answer_attempts"},
		{Options: map[string]any{"min_value": 10, "max_value": 5}, Option: "max_value"},
		{Options: map[string]any{"colour": 1}, Option: "colour"},
	})
	_, err := r.Make("rg:toy_sum-retry", map[string]any{"colour": 1})
	var oe *envs.OptionError
	if !errors.As(err, &oe) || !strings.Contains(oe.Reason, "answer_attempts, max_value, min_value") {
		t.Fatalf("unknown option error %v does not list both structs' options", err)
	}
	envtest.OptionErrors(t, r, "rg:toy_sum", []envtest.OptionCase{
		{Options: map[string]any{"answer_attempts": 2}, Option: "answer_attempts"},
	})
}

func TestDefaultScore(t *testing.T) {
	for _, c := range []struct {
		answer, truth string
		want          float64
	}{
		{"42", "42", 1},
		{"x = 42", "42", 2.0 / 6},
		{"43", "42", 0},
		{"", "42", 0},
		{"é42", "42", 2.0 / 3}, // characters, not bytes
	} {
		if got := rg.DefaultScore(c.answer, c.truth); got != c.want {
			t.Errorf("DefaultScore(%q, %q) = %v, want %v", c.answer, c.truth, got, c.want)
		}
	}
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }
