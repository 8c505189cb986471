package arithmetic

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// fractionStyles are reasoning-gym's fraction formats.
var fractionStyles = []string{"plain", "latex_inline", "latex_frac", "latex_dfrac"}

// FractionSimplificationOptions are reasoning-gym's
// FractionSimplificationConfig. reasoning-gym leaves the ranges open; Quarry
// caps values at 10^6 and factors at 10^4 (its curriculum stops at 10^4 and
// 10^3).
type FractionSimplificationOptions struct {
	MinValue  int      `json:"min_value" range:"1,1000000"`
	MaxValue  int      `json:"max_value" range:"1,1000000"`
	MinFactor int      `json:"min_factor" range:"1,10000"`
	MaxFactor int      `json:"max_factor" range:"1,10000"`
	Styles    []string `json:"styles" len:"1,4"`
}

// Validate is reasoning-gym's: max_value > min_value, max_factor ≥
// min_factor, known styles.
func (o FractionSimplificationOptions) Validate() error {
	switch {
	case o.MaxValue <= o.MinValue:
		return &envs.OptionError{Option: "max_value", Reason: fmt.Sprintf("%d must exceed min_value %d", o.MaxValue, o.MinValue)}
	case o.MaxFactor < o.MinFactor:
		return below("max_factor", o.MaxFactor, "min_factor", o.MinFactor)
	}
	for _, s := range o.Styles {
		if !slices.Contains(fractionStyles, s) {
			return &envs.OptionError{Option: "styles", Reason: fmt.Sprintf("unknown style %q (allowed: %s)", s, strings.Join(fractionStyles, ", "))}
		}
	}
	return nil
}

func formatFraction(num, den int, style string) string {
	switch style {
	case "latex_inline":
		return fmt.Sprintf("$%d/%d$", num, den)
	case "latex_frac":
		return fmt.Sprintf("$\\frac{%d}{%d}$", num, den)
	case "latex_dfrac":
		return fmt.Sprintf("$\\dfrac{%d}{%d}$", num, den)
	}
	return fmt.Sprintf("%d/%d", num, den)
}

// fraction is a generated item's numbers.
type fraction struct{ num, den, simpleNum, simpleDen int }

// drawFraction is reasoning-gym's _generate_fraction: up to 10 draws of a
// coprime pair within the value range, else an unreduced pair; the smaller
// is the numerator; both scaled by a factor.
func drawFraction(rng *rand.Rand, o FractionSimplificationOptions) (fraction, int) {
	for range 10 {
		n, d := rg.Between(rng, o.MinValue, o.MaxValue), rg.Between(rng, o.MinValue, o.MaxValue)
		g := int(gcd64(int64(n), int64(d)))
		n, d = n/g, d/g
		if n >= o.MinValue && d >= o.MinValue {
			return scaleFraction(rng, o, n, d)
		}
	}
	return scaleFraction(rng, o, rg.Between(rng, o.MinValue, o.MaxValue), rg.Between(rng, o.MinValue, o.MaxValue))
}

func scaleFraction(rng *rand.Rand, o FractionSimplificationOptions, n, d int) (fraction, int) {
	if n > d {
		n, d = d, n
	}
	k := rg.Between(rng, o.MinFactor, o.MaxFactor)
	return fraction{n * k, d * k, n, d}, k
}

var fractionSimplificationTask = rg.Task[FractionSimplificationOptions]{
	Name:        "fraction_simplification",
	Description: "reasoning-gym fraction_simplification: reduce a fraction to lowest terms.",
	Revision:    1,
	Defaults:    FractionSimplificationOptions{MinValue: 1, MaxValue: 1000, MinFactor: 1, MaxFactor: 100, Styles: fractionStyles},
	Generate: func(rng *rand.Rand, o FractionSimplificationOptions) (rg.Item, error) {
		f, k := drawFraction(rng, o)
		style := o.Styles[rng.IntN(len(o.Styles))]
		return rg.Item{
			Question: "Simplify the fraction " + formatFraction(f.num, f.den, style) + " to its lowest terms. Give only the simplified fraction as your final answer.",
			Answer:   formatFraction(f.simpleNum, f.simpleDen, style),
			Data:     f,
			Meta: map[string]any{
				"numerator": f.num, "denominator": f.den, "simplified_numerator": f.simpleNum,
				"simplified_denominator": f.simpleDen, "style": style, "factor": k,
			},
		}, nil
	},
	Score: scoreFraction,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		f := it.Data.(fraction)
		return fmt.Sprintf("%d/%d", 1+rng.IntN(f.simpleDen), 1+rng.IntN(f.simpleDen+f.simpleDen))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		n, d, ok := parseFraction(answer)
		if !ok {
			return "Your answer is not a fraction."
		}
		f := it.Data.(fraction)
		if n*int64(f.den) == d*int64(f.num) {
			return "Your fraction has the right value but is not in lowest terms."
		}
		return "Your fraction does not equal the given one."
	},
}

var (
	latexFraction = regexp.MustCompile(`^\\[dt]?frac\s*\{\s*([+-]?\d+)\s*\}\s*\{\s*([+-]?\d+)\s*\}$`)
	latexRatio    = regexp.MustCompile(`^\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}$`)
	plainFraction = regexp.MustCompile(`^\(?\s*([+-]?\d+)\s*\)?\s*/\s*\(?\s*([+-]?\d+)\s*\)?$`)
)

// parseFraction reads a/b, $a/b$, \frac{a}{b}, \dfrac{a}{b} and \tfrac{a}{b}
// (reasoning-gym reads all but \tfrac), with any spacing.
func parseFraction(answer string) (num, den int64, ok bool) {
	s := strings.TrimSpace(strings.Trim(strings.TrimSpace(answer), "$"))
	if len(s) > 200 {
		return 0, 0, false
	}
	m := latexFraction.FindStringSubmatch(s)
	if m == nil {
		m = plainFraction.FindStringSubmatch(s)
	}
	if m == nil {
		return 0, 0, false
	}
	n, err1 := strconv.ParseInt(m[1], 10, 64)
	d, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil || n > 1<<31 || d > 1<<31 || n < -(1<<31) || d < -(1<<31) {
		return 0, 0, false
	}
	return n, d, true
}

// scoreFraction is reasoning-gym's: 1 for the reduced fraction in any of
// the styles, 0.1 when the numerator or the denominator is the question's,
// 0.05 for another fraction, 0.01 for an answer that is not a fraction.
func scoreFraction(answer string, it *rg.Item) float64 {
	f := it.Data.(fraction)
	n, d, ok := parseFraction(answer)
	switch {
	case !ok:
		return 0.01
	case n == int64(f.simpleNum) && d == int64(f.simpleDen):
		return 1
	case n == int64(f.num) || d == int64(f.den):
		return 0.1
	}
	return 0.05
}
