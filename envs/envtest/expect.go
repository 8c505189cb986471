package envtest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// Want is one row of a rule table: an action and what its step must return.
// Expect compares every field but Parsed (see Table), Suffix (when empty)
// and Check.
type Want struct {
	Action        string
	Obs           string
	Reward        float64 // within 1e-12
	Terminated    bool
	Truncated     bool
	FormatError   bool
	InvalidAction bool
	Success       bool
	// Parsed is the expected Info.ParsedAction; only a Table with
	// ComparesParsed compares it (on every row, empty or not).
	Parsed string
	// Suffix, when not empty, must equal Info.Suffix.
	Suffix string
	// Check, when set, runs after the comparison.
	Check Check
}

// Check is an extra assertion on the result of row i of a rule table.
type Check func(t testing.TB, i int, w Want, res envs.StepResult)

// Table says how a package plays its rule tables.
type Table struct {
	// ComparesParsed compares Info.ParsedAction with Want.Parsed on every
	// row. Without it a row that sets Parsed fails: the value would be
	// silently ignored.
	ComparesParsed bool
	// Each, when set, runs after every row's comparison (and its Check).
	Each Check
}

// Expect plays steps with the zero Table: ParsedAction is not compared.
func Expect(t testing.TB, e envs.Env, steps []Want) {
	t.Helper()
	Table{}.Expect(t, e, steps)
}

// Expect steps e with each row's action in turn and fails t at the first
// row whose result differs, listing every field that does.
func (tb Table) Expect(t testing.TB, e envs.Env, steps []Want) {
	t.Helper()
	for i, w := range steps {
		if !tb.ComparesParsed && w.Parsed != "" {
			t.Fatalf("step %d %q: Want.Parsed is set but the Table does not compare ParsedAction", i, w.Action)
		}
		res, err := e.Step(w.Action)
		if err != nil {
			t.Fatalf("step %d %q: %v", i, w.Action, err)
		}
		if d := tb.diff(w, res); d != "" {
			t.Fatalf("step %d %q:\n%s", i, w.Action, d)
		}
		if w.Check != nil {
			w.Check(t, i, w, res)
		}
		if tb.Each != nil {
			tb.Each(t, i, w, res)
		}
	}
}

// diff lists the fields of res that differ from w, one a line.
func (tb Table) diff(w Want, res envs.StepResult) string {
	var b strings.Builder
	str := func(field, got, want string) {
		if got != want {
			fmt.Fprintf(&b, "\t%s:\n\t\t got %q\n\t\twant %q\n", field, got, want)
		}
	}
	flag := func(field string, got, want bool) {
		if got != want {
			fmt.Fprintf(&b, "\t%s: got %v, want %v\n", field, got, want)
		}
	}
	in := res.Info
	str("observation", res.Observation, w.Obs)
	if math.Abs(res.Reward-w.Reward) > 1e-12 {
		fmt.Fprintf(&b, "\treward: got %v, want %v\n", res.Reward, w.Reward)
	}
	flag("terminated", res.Terminated, w.Terminated)
	flag("truncated", res.Truncated, w.Truncated)
	flag("format error", in.FormatError, w.FormatError)
	flag("invalid action", in.InvalidAction, w.InvalidAction)
	flag("success", in.Success, w.Success)
	if tb.ComparesParsed {
		str("parsed action", in.ParsedAction, w.Parsed)
	}
	if w.Suffix != "" {
		str("suffix", in.Suffix, w.Suffix)
	}
	return b.String()
}

// SuffixIs checks that every step's Info.Suffix is exactly s.
func SuffixIs(s string) Check {
	return func(t testing.TB, i int, w Want, res envs.StepResult) {
		t.Helper()
		if res.Info.Suffix != s {
			t.Fatalf("step %d %q: suffix %q, want %q", i, w.Action, res.Info.Suffix, s)
		}
	}
}

// SuffixFramed checks that every step's Info.Suffix starts with prefix and
// ends with suffix.
func SuffixFramed(prefix, suffix string) Check {
	return func(t testing.TB, i int, w Want, res envs.StepResult) {
		t.Helper()
		if !strings.HasPrefix(res.Info.Suffix, prefix) || !strings.HasSuffix(res.Info.Suffix, suffix) {
			t.Fatalf("step %d %q: suffix %q, want %q…%q", i, w.Action, res.Info.Suffix, prefix, suffix)
		}
	}
}
