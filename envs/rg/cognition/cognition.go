// Package cognition holds reasoning-gym's cognition datasets as rg: envs:
// color_cube_rotation, figlet_font, modulo_grid, needle_haystack,
// number_sequence, rectangle_count and rubiks_cube. Each is a Task built from
// reasoning-gym 0.1.23's rules (config fields and defaults, question
// wording, answer form, score_answer) with Quarry's own generator; the
// differences are listed in docs/envs.md ("The reasoning-gym catalogue").
package cognition

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds every task of the package (and the retry variants of those
// where a second attempt makes sense).
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, ColorCubeRotation) },
		func(r *envs.Registry) error { return rg.Register(r, FigletFont) },
		func(r *envs.Registry) error { return rg.Register(r, ModuloGrid) },
		func(r *envs.Registry) error { return rg.Register(r, NeedleHaystack) },
		func(r *envs.Registry) error { return rg.Register(r, NumberSequence) },
		func(r *envs.Registry) error { return rg.Register(r, RectangleCount) },
		func(r *envs.Registry) error { return rg.Register(r, RubiksCube) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("cognition: %w", err)
		}
	}
	return nil
}

// between draws uniformly from [lo, hi], as Python's randint does.
func between(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// rangeError names max when a min/max pair is inverted.
func rangeError(minName, maxName string, lo, hi int) error {
	if lo > hi {
		return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%d is below %s %d", hi, minName, lo)}
	}
	return nil
}

// parseInteger reads an integer answer written in any common way: "1000",
// "1,000", "1000.0", "+7". ok is false for anything else, or a non-integer.
func parseInteger(s string) (int64, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	s = strings.TrimSuffix(s, ".")
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) || f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int64(f), true
}

// tooHighOrLow is the retry feedback of a numeric answer.
func tooHighOrLow(answer string, truth int64) string {
	n, ok := parseInteger(answer)
	switch {
	case !ok:
		return "Your answer is not a whole number."
	case n < truth:
		return "Your answer is too low."
	default:
		return "Your answer is too high."
	}
}
