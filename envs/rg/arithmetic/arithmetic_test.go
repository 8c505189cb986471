package arithmetic

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func mustMake(tb testing.TB, r *envs.Registry, opts map[string]any) envs.Env {
	tb.Helper()
	return envtest.Make(tb, r, ID, opts)
}

func answerOf(tb testing.TB, e envs.Env) string {
	tb.Helper()
	a, err := envtest.OraclePolicy(e)
	if err != nil {
		tb.Fatal(err)
	}
	return strings.TrimSuffix(strings.TrimPrefix(a, `\boxed{`), `}`)
}

func TestScore(t *testing.T) {
	tests := []struct {
		name, response, truth string
		want                  float64
		answer                string
		ok                    bool
	}{
		{"exact", `so \boxed{42}`, "42", 1, "42", true},
		{"exact negative", `\boxed{-42}`, "-42", 1, "-42", true},
		{"spaces trimmed", `\boxed{  42 }`, "42", 1, "42", true},
		{"newline trimmed", "\\boxed{\n-7\t}", "-7", 1, "-7", true},
		{"wrong", `\boxed{41}`, "42", 0, "41", true},
		{"sign missing", `\boxed{42}`, "-42", 0, "42", true},
		{"extra sign: 2 of 3", `\boxed{-42}`, "42", 2.0 / 3, "-42", true},
		{"words: 2 of 6", `\boxed{x = 42}`, "42", 2.0 / 6, "x = 42", true},
		{"trailing dot: 3 of 4", `\boxed{-42.}`, "-42", 3.0 / 4, "-42.", true},
		{"decimal: 1 of 3", `\boxed{6.0}`, "6", 1.0 / 3, "6.0", true},
		{"longer number: 2 of 3", `\boxed{142}`, "42", 2.0 / 3, "142", true},
		{"characters not bytes: 2 of 4", `\boxed{42 ✓}`, "42", 2.0 / 4, "42 ✓", true},
		{"last box wins (wrong)", `\boxed{42} no wait \boxed{7}`, "42", 0, "7", true},
		{"last box wins (right)", `\boxed{7} no wait \boxed{42}`, "42", 1, "42", true},
		{"empty box", `\boxed{}`, "42", 0, "", true},
		{"blank box", `\boxed{   }`, "42", 0, "", true},
		{"no box", "the answer is 42", "42", 0, "", false},
		{"unclosed box", `\boxed{42`, "42", 0, "", false},
		{"fbox rejected", `\fbox{42}`, "42", 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, answer, ok := score(tt.response, tt.truth)
			if got != tt.want || answer != tt.answer || ok != tt.ok {
				t.Fatalf("score(%q, %q) = %v, %q, %v; want %v, %q, %v",
					tt.response, tt.truth, got, answer, ok, tt.want, tt.answer, tt.ok)
			}
		})
	}
}

func TestStep(t *testing.T) {
	r := registry(t)
	e := mustMake(t, r, nil)
	if _, _, err := e.Reset(7); err != nil {
		t.Fatal(err)
	}
	truth := answerOf(t, e)
	wrong := "1" + truth // never equal; contains truth, so partial credit
	tests := []struct {
		name       string
		action     string
		reward     float64
		success    bool
		formatErr  bool
		parsed     string
		obsContain string
	}{
		{"correct", "work... \\boxed{" + truth + "}", 1, true, false, `\boxed{` + truth + `}`, "Correct"},
		{"partial", `\boxed{` + wrong + `}`, float64(len(truth)) / float64(len(wrong)), false, false, `\boxed{` + wrong + `}`, "partial credit"},
		{"wrong", `\boxed{banana}`, 0, false, false, `\boxed{banana}`, "Incorrect"},
		{"no box", truth, 0, false, true, "", "\\boxed{}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := e.Reset(7); err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(tt.action)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reward != tt.reward || res.Info.Success != tt.success || res.Info.FormatError != tt.formatErr {
				t.Fatalf("reward %v success %v format error %v; want %v %v %v",
					res.Reward, res.Info.Success, res.Info.FormatError, tt.reward, tt.success, tt.formatErr)
			}
			if !res.Terminated || res.Truncated {
				t.Fatalf("terminated %v truncated %v; want true false", res.Terminated, res.Truncated)
			}
			if res.Info.Extra["answer"] != truth {
				t.Fatalf("Extra[answer] = %v, want %q", res.Info.Extra["answer"], truth)
			}
			if res.Info.ParsedAction != tt.parsed {
				t.Fatalf("ParsedAction = %q, want %q", res.Info.ParsedAction, tt.parsed)
			}
			if !strings.Contains(res.Observation, tt.obsContain) {
				t.Fatalf("observation %q lacks %q", res.Observation, tt.obsContain)
			}
			if _, err := e.Step(tt.action); !errors.Is(err, envs.ErrEpisodeOver) {
				t.Fatalf("second Step: err = %v, want ErrEpisodeOver", err)
			}
		})
	}
}

// expression is what the independent evaluator learns from a question.
type expression struct {
	value      *big.Int
	literals   int
	maxDigits  int
	negLits    int // literals written with a minus sign
	groups     int // parenthesised groups
	negGroups  int // groups written -( … )
	divisions  int
	binaryOps  int
	maxLiteral int64
}

// evaluator is a recursive-descent parser for the question's expression,
// independent of the generator: ordinary precedence, unary minus, exact
// integer division (anything else is an error), arbitrary precision, and the
// rendering rules — binary operators between single spaces, nothing else
// spaced.
type evaluator struct {
	s   string
	i   int
	ex  expression
	err error
}

func evaluate(s string) (expression, error) {
	p := &evaluator{s: s}
	p.ex.value = p.expr()
	if p.err == nil && p.i != len(p.s) {
		p.fail("unexpected input")
	}
	return p.ex, p.err
}

func (p *evaluator) fail(msg string) {
	if p.err == nil {
		p.err = fmt.Errorf("%s at %d in %q", msg, p.i, p.s)
	}
}

// binary consumes " op " when the next operator is one of ops.
func (p *evaluator) binary(ops string) byte {
	if p.i+3 <= len(p.s) && p.s[p.i] == ' ' && p.s[p.i+2] == ' ' && strings.IndexByte(ops, p.s[p.i+1]) >= 0 {
		op := p.s[p.i+1]
		p.i += 3
		p.ex.binaryOps++
		return op
	}
	return 0
}

func (p *evaluator) expr() *big.Int {
	v := p.term()
	for p.err == nil {
		switch p.binary("+-") {
		case '+':
			v = new(big.Int).Add(v, p.term())
		case '-':
			v = new(big.Int).Sub(v, p.term())
		default:
			return v
		}
	}
	return v
}

func (p *evaluator) term() *big.Int {
	v := p.unary()
	for p.err == nil {
		switch p.binary("*/") {
		case '*':
			v = new(big.Int).Mul(v, p.unary())
		case '/':
			p.ex.divisions++
			d := p.unary()
			if p.err != nil {
				return v
			}
			if d.Sign() == 0 {
				p.fail("division by zero")
				return v
			}
			q, m := new(big.Int).QuoRem(v, d, new(big.Int))
			if m.Sign() != 0 {
				p.fail(fmt.Sprintf("inexact division %v / %v", v, d))
				return v
			}
			v = q
		default:
			return v
		}
	}
	return v
}

func (p *evaluator) unary() *big.Int {
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
		switch {
		case p.i < len(p.s) && p.s[p.i] == '(':
			p.ex.negGroups++
		case p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9':
			p.ex.negLits++
		}
		return new(big.Int).Neg(p.unary())
	}
	return p.primary()
}

func (p *evaluator) primary() *big.Int {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		p.ex.groups++
		v := p.expr()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			p.fail("missing )")
			return v
		}
		p.i++
		return v
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	lit := p.s[start:p.i]
	if lit == "" || (len(lit) > 1 && lit[0] == '0') {
		p.fail("want a number")
		return new(big.Int)
	}
	p.ex.literals++
	p.ex.maxDigits = max(p.ex.maxDigits, len(lit))
	v, _ := new(big.Int).SetString(lit, 10)
	return v
}

func TestEvaluator(t *testing.T) {
	good := map[string]string{
		"12 + (3 * -4) / 2": "6",
		"2 - 3 - 4":         "-5",
		"2 * 3 + 4 * 5":     "26",
		"-(2 + 3) * -4":     "20",
		"100 / 10 / 5":      "2",
		"7 - -(1 - 8)":      "0",
		"-9 / 3 * 2":        "-6",
	}
	for in, want := range good {
		ex, err := evaluate(in)
		if err != nil || ex.value.String() != want {
			t.Errorf("evaluate(%q) = %v, %v; want %s", in, ex.value, err, want)
		}
	}
	for _, bad := range []string{"7 / 2", "1 / 0", "1  + 2", "( 1 + 2)", "1 +2", "01 + 2", "(1 + 2", "1 + 2)", "", "1 + (2+3)", "1 + - 2"} {
		if _, err := evaluate(bad); err == nil {
			t.Errorf("evaluate(%q) accepted", bad)
		}
	}
}

// question splits an observation into its expression, checking the frame.
func question(t *testing.T, obs string) string {
	t.Helper()
	const prefix, suffix = "Calculate ", ".\n" + Instruction
	if !strings.HasPrefix(obs, prefix) || !strings.HasSuffix(obs, suffix) {
		t.Fatalf("observation %q is not %q…%q", obs, prefix, suffix)
	}
	return obs[len(prefix) : len(obs)-len(suffix)]
}

func intExtra(t *testing.T, info envs.Info, key string) int {
	t.Helper()
	v, ok := info.Extra[key].(int)
	if !ok {
		t.Fatalf("reset Info.Extra[%q] = %v, want an int", key, info.Extra[key])
	}
	return v
}

const generatorSeeds = 2000

// TestGenerator checks every generated question against the independent
// evaluator, the declared term and digit counts, and the options' features.
func TestGenerator(t *testing.T) {
	r := registry(t)
	configs := []struct {
		name   string
		opts   map[string]any
		seeds  int
		parens bool
		neg    bool
	}{
		{"default", nil, generatorSeeds, true, true},
		{"level1", map[string]any{"difficulty": 1}, generatorSeeds, true, true},
		{"level2", map[string]any{"difficulty": 2}, generatorSeeds, true, true},
		{"level3", map[string]any{"difficulty": 3}, generatorSeeds, true, true},
		{"level4", map[string]any{"difficulty": 4}, generatorSeeds, true, true},
		{"no_parentheses", map[string]any{"allow_parentheses": false}, generatorSeeds, false, true},
		{"no_negation", map[string]any{"allow_negation": false}, generatorSeeds, true, false},
		{"neither", map[string]any{"allow_parentheses": false, "allow_negation": false}, generatorSeeds, false, false},
		// Far past int64 without the product cap: the big-number evaluator
		// catches any wraparound.
		{"huge", map[string]any{"min_terms": 24, "max_terms": 32, "min_digits": 7, "max_digits": 9}, 500, true, true},
		{"huge_flat", map[string]any{"min_terms": 24, "max_terms": 32, "min_digits": 9, "max_digits": 9, "allow_parentheses": false}, 500, false, true},
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			e := mustMake(t, r, c.opts)
			var total expression
			for seed := range uint64(c.seeds) {
				obs, info, err := e.Reset(seed)
				if err != nil {
					t.Fatal(err)
				}
				expr := question(t, obs)
				ex, err := evaluate(expr)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if truth := answerOf(t, e); ex.value.String() != truth {
					t.Fatalf("seed %d: %q evaluates to %v, env says %s", seed, expr, ex.value, truth)
				}
				terms, digits := intExtra(t, info, "num_terms"), intExtra(t, info, "num_digits")
				if ex.literals != terms {
					t.Fatalf("seed %d: %q has %d numbers, num_terms is %d", seed, expr, ex.literals, terms)
				}
				if ex.maxDigits > digits {
					t.Fatalf("seed %d: %q has a %d-digit number, num_digits is %d", seed, expr, ex.maxDigits, digits)
				}
				if ex.binaryOps != terms-1 {
					t.Fatalf("seed %d: %q has %d operators for %d numbers", seed, expr, ex.binaryOps, terms)
				}
				if !c.parens && ex.groups > 0 {
					t.Fatalf("seed %d: %q has parentheses, which are off", seed, expr)
				}
				if !c.neg && ex.negLits+ex.negGroups > 0 {
					t.Fatalf("seed %d: %q has a negation, which is off", seed, expr)
				}
				total.groups += ex.groups
				total.negGroups += ex.negGroups
				total.negLits += ex.negLits
				total.divisions += ex.divisions
			}
			// Every allowed feature shows up: the options are not ignored.
			if total.divisions == 0 {
				t.Error("no division in any question")
			}
			maxTerms := 6
			if m, ok := c.opts["max_terms"].(int); ok {
				maxTerms = m
			} else if c.opts["difficulty"] == 1 {
				maxTerms = 2 // two numbers never need a group
			}
			if c.parens && maxTerms > 2 && total.groups == 0 {
				t.Error("parentheses allowed but never used")
			}
			if c.neg && (total.negLits == 0 || total.negGroups == 0 && c.parens && maxTerms > 2) {
				t.Errorf("negation allowed but used %d times on numbers, %d on groups", total.negLits, total.negGroups)
			}
		})
	}
}

func TestDifficultyRanges(t *testing.T) {
	r := registry(t)
	tests := []struct {
		opts             map[string]any
		terms0, terms1   int
		digits0, digits1 int
	}{
		{nil, 2, 6, 1, 4},
		{map[string]any{"difficulty": 0}, 2, 6, 1, 4},
		{map[string]any{"difficulty": 1}, 2, 2, 1, 2},
		{map[string]any{"difficulty": 2}, 3, 4, 1, 3},
		{map[string]any{"difficulty": 3}, 4, 5, 1, 4},
		{map[string]any{"difficulty": 4}, 5, 6, 1, 4},
		// Set fields override the level's.
		{map[string]any{"difficulty": 3, "max_digits": 2}, 4, 5, 1, 2},
		{map[string]any{"difficulty": 1, "min_terms": 1, "min_digits": 2}, 1, 2, 2, 2},
		{map[string]any{"min_terms": 3, "max_terms": 3, "min_digits": 5, "max_digits": 6}, 3, 3, 5, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.opts), func(t *testing.T) {
			e := mustMake(t, r, tt.opts)
			seenTerms, seenDigits := map[int]bool{}, map[int]bool{}
			for seed := range uint64(500) {
				_, info, err := e.Reset(seed)
				if err != nil {
					t.Fatal(err)
				}
				terms, digits := intExtra(t, info, "num_terms"), intExtra(t, info, "num_digits")
				if terms < tt.terms0 || terms > tt.terms1 || digits < tt.digits0 || digits > tt.digits1 {
					t.Fatalf("seed %d: %d terms, %d digits; want terms in [%d,%d], digits in [%d,%d]",
						seed, terms, digits, tt.terms0, tt.terms1, tt.digits0, tt.digits1)
				}
				seenTerms[terms], seenDigits[digits] = true, true
			}
			if len(seenTerms) != tt.terms1-tt.terms0+1 || len(seenDigits) != tt.digits1-tt.digits0+1 {
				t.Fatalf("500 seeds drew terms %v and digits %v; want every value of [%d,%d] and [%d,%d]",
					seenTerms, seenDigits, tt.terms0, tt.terms1, tt.digits0, tt.digits1)
			}
		})
	}
}

func TestSeeds(t *testing.T) {
	r := registry(t)
	for _, c := range []struct {
		opts    map[string]any
		percent int // of seeds giving a question no other seed gave
	}{
		{nil, 99},
		{map[string]any{"difficulty": 1}, 85}, // two numbers of 1..2 digits: collisions are expected
	} {
		opts := c.opts
		a, b := mustMake(t, r, opts), mustMake(t, r, opts)
		distinct := map[string]bool{}
		const n = 500
		for seed := range uint64(n) {
			oa, _, _ := a.Reset(seed)
			ob, _, _ := b.Reset(seed)
			if oa != ob || answerOf(t, a) != answerOf(t, b) {
				t.Fatalf("%v seed %d: two instances gave %q and %q", opts, seed, oa, ob)
			}
			distinct[oa] = true
		}
		// A reused instance replays an earlier seed exactly.
		for seed := range uint64(20) {
			first, _, _ := a.Reset(seed)
			_, _, _ = a.Reset(seed + 1000)
			again, _, _ := a.Reset(seed)
			if first != again {
				t.Fatalf("%v seed %d: reset after another episode gave %q, first %q", opts, seed, again, first)
			}
		}
		if len(distinct) < n*c.percent/100 {
			t.Fatalf("%v: %d seeds gave only %d distinct questions", opts, n, len(distinct))
		}
	}
}

func TestConformance(t *testing.T) {
	envtest.Run(t, registry(t), ID)
}

func TestOracle(t *testing.T) {
	r := registry(t)
	for _, opts := range []map[string]any{nil, {"difficulty": 4}} {
		e := mustMake(t, r, opts)
		wins := 0
		for tr := range envtest.OracleEpisodes(t, e, 200, 2) {
			if len(tr.Steps) == 1 && tr.Done && tr.Return() == 1 && tr.Success() {
				wins++
			}
		}
		if wins != 200 {
			t.Fatalf("%v: oracle won %d/200", opts, wins)
		}
	}
	if _, err := New(DefaultOptions()).OracleAction(); err == nil {
		t.Fatal("OracleAction before Reset succeeded")
	}
}

func TestRandomAction(t *testing.T) {
	r := registry(t)
	e := mustMake(t, r, map[string]any{"difficulty": 1})
	rng := envs.NewRand(1)
	distinct := map[string]bool{}
	for seed := range uint64(100) {
		if _, _, err := e.Reset(seed); err != nil {
			t.Fatal(err)
		}
		a := e.SampleRandomAction(rng)
		got, ok := envs.LastBoxed(a)
		if !ok {
			t.Fatalf("random action %q has no \\boxed{}", a)
		}
		if _, ok := new(big.Int).SetString(got, 10); !ok {
			t.Fatalf("random action %q is not a boxed integer", a)
		}
		distinct[got] = true
	}
	if len(distinct) < 20 {
		t.Fatalf("100 random actions gave %d distinct answers", len(distinct))
	}
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, ID, []envtest.OptionCase{
		{Options: map[string]any{"difficulty": 5}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": -1}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": 1.5}, Option: "difficulty"},
		{Options: map[string]any{"min_terms": 0}, Option: "min_terms"},
		{Options: map[string]any{"max_terms": maxTermsLimit + 1}, Option: "max_terms"},
		{Options: map[string]any{"min_digits": 0}, Option: "min_digits"},
		{Options: map[string]any{"max_digits": maxDigitsLimit + 1}, Option: "max_digits"},
		{Options: map[string]any{"min_terms": 5, "max_terms": 3}, Option: "max_terms"},
		{Options: map[string]any{"min_digits": 3, "max_digits": 2}, Option: "max_digits"},
		{Options: map[string]any{"max_terms": 1}, Option: "max_terms"},                  // below the default min_terms 2
		{Options: map[string]any{"difficulty": 1, "min_terms": 3}, Option: "min_terms"}, // above level 1's max_terms 2
		{Options: map[string]any{"difficulty": 1, "min_digits": 3}, Option: "min_digits"},
		{Options: map[string]any{"allow_negation": "yes"}, Option: "allow_negation"},
		{Options: map[string]any{"operators": []any{"+"}}, Option: "operators"},
	})
	envtest.OptionsAccepted(t, r, ID,
		map[string]any{"difficulty": 4, "min_terms": 1},
		map[string]any{"min_terms": 1, "max_terms": 1},
		map[string]any{"max_terms": maxTermsLimit, "max_digits": maxDigitsLimit},
		map[string]any{"min_terms": nil},
	)
}

func TestStepBeforeReset(t *testing.T) {
	if _, err := New(DefaultOptions()).Step(`\boxed{1}`); !errors.Is(err, envs.ErrNotReset) {
		t.Fatalf("Step before Reset on a bare Env: err = %v, want ErrNotReset", err)
	}
}

func BenchmarkStep(b *testing.B) {
	r := registry(b)
	for _, c := range []struct {
		name string
		opts map[string]any
	}{
		{"level1", map[string]any{"difficulty": 1}},
		{"default", nil},
		{"level4", map[string]any{"difficulty": 4}},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := mustMake(b, r, c.opts)
			b.ReportAllocs()
			var seed uint64
			for b.Loop() {
				if _, _, err := e.Reset(seed); err != nil {
					b.Fatal(err)
				}
				if _, err := e.Step(`The answer is \boxed{42}.`); err != nil {
					b.Fatal(err)
				}
				seed++
			}
		})
	}
}
