package mathcheck

import (
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Checker decides whether two final answers are equivalent. Its zero value is
// ready to use and is what Equivalent and Score use; a Checker is immutable
// once in use and safe for concurrent use.
type Checker struct {
	// MaxLen is the longest answer, in bytes after trimming, that is
	// examined at all; longer answers are never equivalent. Default 2048.
	MaxLen int
	// MaxDepth bounds bracket and operator nesting. Default 64.
	MaxDepth int
	// MaxSteps bounds the work of one comparison (parse, evaluation and
	// matching steps; exact arithmetic costs by size). When it runs out the
	// answer is judged not equivalent. Default 200000: ~25µs for ordinary
	// answers, under ~10ms for the worst inputs we have built.
	MaxSteps int
	// RelTol is the relative tolerance for comparisons involving floating
	// point (anything irrational: \pi, \sqrt2, \sin 1). Comparisons between
	// exact rationals are exact. Default 1e-6.
	RelTol float64
	// Points is the number of random points at which expressions with
	// variables are compared. Default 6.
	Points int
	// Seed seeds those points. Default 0 (which is a fixed seed, like any).
	Seed uint64
}

func (c Checker) withDefaults() Checker {
	if c.MaxLen <= 0 {
		c.MaxLen = 2048
	}
	if c.MaxDepth <= 0 {
		c.MaxDepth = 64
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 200000
	}
	if c.RelTol <= 0 {
		c.RelTol = 1e-6
	}
	if c.Points <= 0 {
		c.Points = 6
	}
	return c
}

// run is the state of one comparison.
type run struct {
	cfg   Checker
	steps int
}

// Equivalent reports whether pred (a model's final answer, without \boxed)
// equals gold, using the zero Checker.
func Equivalent(pred, gold string) bool {
	return Checker{}.Equivalent(pred, gold)
}

// Equivalent reports whether pred equals gold. It never panics and its work
// is bounded by MaxLen, MaxDepth and MaxSteps; anything it cannot parse is
// compared as normalised text only.
func (c Checker) Equivalent(pred, gold string) bool {
	c = c.withDefaults()
	pred, gold = strings.TrimSpace(pred), strings.TrimSpace(gold)
	if pred == "" || gold == "" || len(pred) > c.MaxLen || len(gold) > c.MaxLen {
		return false
	}
	ps, pPct := clean(pred)
	gs, gPct := clean(gold)
	if textKey(Normalize(pred)) == textKey(Normalize(gold)) && Normalize(pred) != "" {
		return true
	}
	// Each side is parsed on its own budget and compared on a third, so the
	// verdict does not depend on which side is the gold.
	pa := (&run{cfg: c, steps: c.MaxSteps}).structure(ps, 0)
	ga := (&run{cfg: c, steps: c.MaxSteps}).structure(gs, 0)
	r := &run{cfg: c, steps: c.MaxSteps}
	if r.equal(pa, ga) {
		return true
	}
	// A percentage may be written as its number (50\% = 50) or as a
	// fraction (50\% = 0.5). The first is covered above; try the second.
	if pPct != gPct && pa.kind == aScalar && ga.kind == aScalar {
		if pPct {
			pa = &answer{kind: aScalar, expr: percentOf(pa.expr)}
		} else {
			ga = &answer{kind: aScalar, expr: percentOf(ga.expr)}
		}
		return r.scalarEqual(pa.expr, ga.expr)
	}
	return false
}

func percentOf(n *node) *node {
	hundred, _ := numberNode("100")
	return &node{kind: nDiv, a: n, b: hundred}
}

// FormatPenalty is the reward GEM's math envs give a response without a
// \boxed{} answer when use_format_error_reward is on (it is off by default,
// and then such a response scores 0).
const FormatPenalty = -0.1

// Score scores a full model response as GEM's MathEnv does: the answer is the
// content of the last \boxed{…} (see envs.LastBoxed: GEM takes the last
// "\boxed", or "\fbox" when there is no "\boxed", and rejects it unless it is
// exactly "\boxed{…}" with balanced braces); the reward is 1 if that answer
// is equivalent to gold, else 0. A gold answer that itself contains \boxed is
// reduced to its last boxed content first, as GEM's grade does.
//
// hasBoxed is false when no answer could be extracted; the reward is then 0
// and a caller emulating use_format_error_reward=True should use
// FormatPenalty instead (GEM then ends the episode with -0.1).
func Score(response, gold string) (reward float64, hasBoxed bool) {
	return Checker{}.Score(response, gold)
}

// Score is the package-level Score with this Checker's limits.
func (c Checker) Score(response, gold string) (reward float64, hasBoxed bool) {
	pred, ok := envs.LastBoxed(response)
	if !ok {
		return 0, false
	}
	if strings.Contains(gold, `\boxed`) {
		if g, ok := envs.LastBoxed(gold); ok {
			gold = g
		}
	}
	if c.Equivalent(pred, gold) {
		return 1, true
	}
	return 0, true
}
