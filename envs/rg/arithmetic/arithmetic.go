// Package arithmetic is reasoning-gym's arithmetic family as rg: envs:
// rg:basic_arithmetic (this file) and, on the envs/rg core, the family's
// other 17 datasets (tasks.go registers them; docs/envs.md ("The reasoning-gym catalogue") lists
// their rules, options and scoring).
//
// rg:basic_arithmetic is GEM's, reasoning-gym's basic_arithmetic dataset
// served as a single-turn env: evaluate an integer expression with + - *
// and exact division, parentheses and negation, and answer in \boxed{}.
// Its generator is Quarry's own, not a port of reasoning-gym's. Each episode
// is a pure function of its seed, so a group of samples drawn for one task
// (same seed) always sees the same question. The expression is built as a
// flat sequence of units (literals or parenthesised groups) joined by
// operators and evaluated with ordinary precedence while it is written, so
// the text and the stored answer cannot disagree. Scoring is reasoning-gym's
// default score_answer on the last \boxed{}.
package arithmetic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// ID is the env id, as GEM registers it.
const ID = "rg:basic_arithmetic"

// Option limits. reasoning-gym leaves them open; Quarry bounds them so every
// expression is evaluable in int64 (see productLimit) and generation is cheap.
const (
	maxTermsLimit  = 32
	maxDigitsLimit = 9
)

// level is a term-count and digit-count range.
type level struct{ minTerms, maxTerms, minDigits, maxDigits int }

// levels[0] is reasoning-gym's BasicArithmeticDatasetConfig default; 1..4 are
// the levels of its BasicArithmeticCurriculum.
var levels = [...]level{
	{2, 6, 1, 4},
	{2, 2, 1, 2},
	{3, 4, 1, 3},
	{4, 5, 1, 4},
	{5, 6, 1, 4},
}

// Options are reasoning-gym's config fields plus a curriculum level. A nil
// range field takes its value from Difficulty; a set one overrides it, so
// {"difficulty": 3, "max_digits": 2} is level 3 with short numbers.
type Options struct {
	// Difficulty 0 is reasoning-gym's default config; 1..4 its curriculum levels.
	Difficulty       int  `json:"difficulty" range:"0,4"`
	MinTerms         *int `json:"min_terms" range:"1,32"`
	MaxTerms         *int `json:"max_terms" range:"1,32"`
	MinDigits        *int `json:"min_digits" range:"1,9"`
	MaxDigits        *int `json:"max_digits" range:"1,9"`
	AllowParentheses bool `json:"allow_parentheses"`
	AllowNegation    bool `json:"allow_negation"`
}

// DefaultOptions are the registered defaults: reasoning-gym's.
func DefaultOptions() Options {
	return Options{AllowParentheses: true, AllowNegation: true}
}

// resolve applies the set range fields over the difficulty's ranges. Only
// meaningful for a Difficulty in range.
func (o Options) resolve() level {
	l := levels[o.Difficulty]
	for _, f := range []struct {
		set *int
		dst *int
	}{{o.MinTerms, &l.minTerms}, {o.MaxTerms, &l.maxTerms}, {o.MinDigits, &l.minDigits}, {o.MaxDigits, &l.maxDigits}} {
		if f.set != nil {
			*f.dst = *f.set
		}
	}
	return l
}

// Validate checks each option's range and that every min is at most its max.
func (o Options) Validate() error {
	if o.Difficulty < 0 || o.Difficulty >= len(levels) {
		return &envs.OptionError{Option: "difficulty", Reason: fmt.Sprintf(
			"got %d, want 0 (reasoning-gym defaults) or a curriculum level 1..%d", o.Difficulty, len(levels)-1)}
	}
	for _, f := range []struct {
		name  string
		v     *int
		limit int
	}{
		{"min_terms", o.MinTerms, maxTermsLimit},
		{"max_terms", o.MaxTerms, maxTermsLimit},
		{"min_digits", o.MinDigits, maxDigitsLimit},
		{"max_digits", o.MaxDigits, maxDigitsLimit},
	} {
		if f.v != nil && (*f.v < 1 || *f.v > f.limit) {
			return &envs.OptionError{Option: f.name, Reason: fmt.Sprintf("got %d, want 1..%d", *f.v, f.limit)}
		}
	}
	l := o.resolve()
	if l.minTerms > l.maxTerms {
		return rangeError("terms", o.MaxTerms != nil, l.minTerms, l.maxTerms)
	}
	if l.minDigits > l.maxDigits {
		return rangeError("digits", o.MaxDigits != nil, l.minDigits, l.maxDigits)
	}
	return nil
}

// rangeError blames the max option when the user set it, else the min one
// (the other bound then came from the difficulty).
func rangeError(what string, maxSet bool, lo, hi int) error {
	if maxSet {
		return &envs.OptionError{Option: "max_" + what, Reason: fmt.Sprintf("%d is below min_%s %d", hi, what, lo)}
	}
	return &envs.OptionError{Option: "min_" + what, Reason: fmt.Sprintf("%d exceeds max_%s %d", lo, what, hi)}
}

// Register adds rg:basic_arithmetic and the family's other tasks
// (registerTasks, tasks.go).
func Register(r *envs.Registry) error {
	if err := RegisterBasic(r); err != nil {
		return err
	}
	return registerTasks(r)
}

// RegisterBasic adds rg:basic_arithmetic alone: the catalog's registration
// until the family's other tasks pass the catalog's checks.
func RegisterBasic(r *envs.Registry) error {
	return r.Register(envs.Spec{
		ID:          ID,
		Description: "reasoning-gym basic_arithmetic: evaluate an integer expression (+ - * exact /, parentheses, negation); answer in \\boxed{}.",
		MaxTurns:    1,
		RewardMin:   0,
		RewardMax:   1,
		Revision:    1,
		Build:       envs.Options(DefaultOptions(), func(o Options) (envs.Env, error) { return New(o), nil }),
	})
}

// New returns an env for validated options.
func New(o Options) *Env {
	return &Env{opts: o, lvl: o.resolve()}
}

// Instruction follows the question, as it follows every rg: question
// (rg.Instruction).
const Instruction = rg.Instruction

// Env is one basic_arithmetic task per episode.
type Env struct {
	opts Options
	lvl  level

	rng      *rand.Rand
	maxLit   int64 // largest literal magnitude this episode: 10^digits - 1
	answer   string
	terms    int
	digits   int
	buf      []byte  // the expression being written; reused across episodes
	divisors []int64 // scratch for pickDivisor
}

// Reset draws the term and digit counts, then the expression, from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	e.terms = e.lvl.minTerms + e.rng.IntN(e.lvl.maxTerms-e.lvl.minTerms+1)
	e.digits = e.lvl.minDigits + e.rng.IntN(e.lvl.maxDigits-e.lvl.minDigits+1)
	e.maxLit = pow10(e.digits) - 1
	e.buf = append(e.buf[:0], "Calculate "...)
	v := e.sequence(e.terms)
	e.buf = append(e.buf, ".\n"...)
	e.buf = append(e.buf, Instruction...)
	e.answer = strconv.FormatInt(v, 10)
	info := envs.Info{Extra: map[string]any{"num_terms": e.terms, "num_digits": e.digits}}
	return string(e.buf), info, nil
}

// Step scores the response. Every response ends the episode.
func (e *Env) Step(action string) (envs.StepResult, error) {
	if e.answer == "" {
		return envs.StepResult{}, envs.ErrNotReset
	}
	reward, got, ok := score(action, e.answer)
	info := envs.Info{Extra: map[string]any{"answer": e.answer}}
	// GEM returns terminated=truncated=True for its single-turn envs. Quarry
	// sets only Terminated: the task reached its natural end (an answer was
	// given and scored); nothing outside the task cut it short, which is what
	// Truncated means (and what would make a trainer bootstrap a value).
	res := envs.StepResult{Reward: reward, Terminated: true, Info: info}
	switch {
	case !ok:
		res.Info.FormatError = true
		res.Observation = "No answer found: the final answer must be inside \\boxed{}. The correct answer is " + e.answer + "."
		return res, nil
	case reward == 1:
		res.Info.Success = true
		res.Observation = "Correct: the answer is " + e.answer + "."
	case reward > 0:
		res.Observation = fmt.Sprintf("Not exactly: you answered %q, which contains the answer %s but is not it (partial credit %.3g).",
			got, e.answer, reward)
	default:
		res.Observation = fmt.Sprintf("Incorrect: you answered %q; the correct answer is %s.", got, e.answer)
	}
	res.Info.ParsedAction = `\boxed{` + got + `}`
	return res, nil
}

// score is reasoning-gym's default ProceduralDataset.score_answer applied to
// the last \boxed{} of response (GEM's extraction): 1 for an exact match, the
// length ratio when the truth occurs inside the answer, else 0. Lengths count
// characters, as Python's len does. Unlike reasoning-gym, surrounding
// whitespace is trimmed first, so "\boxed{ 42 }" is exact. ok is false when
// there is no \boxed{}.
func score(response, truth string) (reward float64, answer string, ok bool) {
	answer, ok = envs.LastBoxed(response)
	if !ok {
		return 0, "", false
	}
	answer = strings.TrimSpace(answer)
	return rg.DefaultScore(answer, truth), answer, true
}

// SampleRandomAction boxes a random integer of up to the episode's digits
// (of the largest allowed digits before the first Reset).
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	m := e.maxLit
	if m == 0 {
		m = pow10(e.lvl.maxDigits) - 1
	}
	return `\boxed{` + strconv.FormatInt(rng.Int64N(2*m+1)-m, 10) + `}`
}

// OracleAction boxes the ground truth.
func (e *Env) OracleAction() (string, error) {
	if e.answer == "" {
		return "", errors.New("arithmetic: OracleAction before Reset")
	}
	return `\boxed{` + e.answer + `}`, nil
}

// Answer returns the current episode's ground truth ("" before Reset).
func (e *Env) Answer() string { return e.answer }

// Item is the episode's question and answer, as an rg.Task's env offers
// them (rgtest, rg:composite).
func (e *Env) Item() rg.Item { return rg.Item{Question: string(e.buf), Answer: e.answer} }

// Score grades a boxed answer's content as Step does.
func (e *Env) Score(answer string) float64 {
	r, _, _ := score(`\boxed{`+answer+`}`, e.answer)
	return r
}

// productLimit caps the magnitude of any product (and so of any term). With
// at most maxTermsLimit leaves, every value then stays below
// maxTermsLimit*productLimit ≈ 3.2e16, far inside int64: a multiplication
// that would exceed it is written as + or - instead. reasoning-gym, with
// Python's integers, has no cap; answers beyond 16 digits are no loss.
const productLimit = 1_000_000_000_000_000

// divisorScan bounds the trial division in pickDivisor, so a huge dividend
// costs at most this many steps (every divisor ≤ divisorScan, and each
// cofactor ≥ the dividend/divisorScan, is still found).
const divisorScan = 1 << 14

// sequence writes n leaves as units joined by operators and returns the
// value under ordinary precedence. With parentheses allowed it splits the
// leaves into 2..n units (a unit of several leaves is a group), never one:
// a lone unit would be a redundant pair of parentheses.
func (e *Env) sequence(n int) int64 {
	if n == 1 {
		return e.literal()
	}
	units := n
	if e.opts.AllowParentheses {
		units = 2 + e.rng.IntN(n-1)
	}
	// The unit sizes are a uniform random composition of n into `units`
	// parts: choose units-1 of the n-1 cut points by selection sampling,
	// which needs no storage (this function recurses).
	cutsLeft, pointsLeft := units-1, n-1
	used := 0
	var sum, term, sign int64 = 0, 0, 1
	for u := range units {
		size := n - used
		if u < units-1 {
			size = 1
			for e.rng.IntN(pointsLeft) >= cutsLeft {
				pointsLeft--
				size++
			}
			pointsLeft--
			cutsLeft--
		}
		used += size
		if u == 0 {
			term = e.unit(size)
			continue
		}
		opAt := len(e.buf) + 1
		e.buf = append(e.buf, " ? "...)
		op := "+-*/"[e.rng.IntN(4)]
		if op == '/' {
			// Divisors are single literals chosen to divide the running
			// term exactly; otherwise fall back to another operator.
			if size == 1 {
				if d, ok := e.pickDivisor(term); ok {
					e.buf[opAt] = '/'
					term /= d
					continue
				}
			}
			op = "+-*"[e.rng.IntN(3)]
		}
		f := e.unit(size)
		if op == '*' && !productFits(term, f) {
			op = "+-"[e.rng.IntN(2)]
		}
		e.buf[opAt] = op
		switch op {
		case '*':
			term *= f
		case '+', '-':
			sum += sign * term
			sign, term = 1, f
			if op == '-' {
				sign = -1
			}
		}
	}
	return sum + sign*term
}

// unit writes a literal (size 1) or a group of size leaves, negated as
// "-(…)" half the time when negation is allowed.
func (e *Env) unit(size int) int64 {
	if size == 1 {
		return e.literal()
	}
	neg := e.opts.AllowNegation && e.rng.IntN(2) == 0
	if neg {
		e.buf = append(e.buf, '-')
	}
	e.buf = append(e.buf, '(')
	v := e.sequence(size)
	e.buf = append(e.buf, ')')
	if neg {
		return -v
	}
	return v
}

// literal writes a nonzero literal of up to the episode's digits, negative
// half the time when negation is allowed (as reasoning-gym's signed draws).
func (e *Env) literal() int64 {
	v := 1 + e.rng.Int64N(e.maxLit)
	return e.writeLiteral(v)
}

func (e *Env) writeLiteral(v int64) int64 {
	if e.opts.AllowNegation && e.rng.IntN(2) == 0 {
		v = -v
	}
	e.buf = strconv.AppendInt(e.buf, v, 10)
	return v
}

// pickDivisor writes a literal d, 2 ≤ |d| < |dividend| and within the digit
// budget, that divides dividend exactly, and returns it; ok is false when
// there is none. Any literal divides 0.
func (e *Env) pickDivisor(dividend int64) (int64, bool) {
	if dividend == 0 {
		return e.writeLiteral(2 + e.rng.Int64N(e.maxLit-1)), true
	}
	a := dividend
	if a < 0 {
		a = -a
	}
	ds := e.divisors[:0] // proper divisors only: x / x is no exercise
	for i := int64(2); i <= divisorScan && i*i <= a; i++ {
		if a%i != 0 {
			continue
		}
		if i <= e.maxLit {
			ds = append(ds, i)
		}
		if j := a / i; j != i && j <= e.maxLit {
			ds = append(ds, j)
		}
	}
	e.divisors = ds
	if len(ds) == 0 {
		return 0, false
	}
	return e.writeLiteral(ds[e.rng.IntN(len(ds))]), true
}

// productFits reports whether |a*b| ≤ productLimit, without overflowing.
func productFits(a, b int64) bool {
	if a == 0 || b == 0 {
		return true
	}
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	return a <= productLimit/b
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}
