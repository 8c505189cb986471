// Package cognition holds reasoning-gym's cognition datasets as rg: envs:
// color_cube_rotation, figlet_font, modulo_grid, needle_haystack,
// number_sequence, rectangle_count and rubiks_cube. Each is a Task built from
// reasoning-gym 0.1.23's rules (config fields and defaults, question
// wording, answer form, score_answer) with Quarry's own generator; the
// differences are listed in docs/envs.md ("The reasoning-gym catalogue").
package cognition

import (
	"fmt"

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

// tooHighOrLow is the retry feedback of a numeric answer.
func tooHighOrLow(answer string, truth int64) string {
	n, ok := rg.ParseInteger(answer)
	switch {
	case !ok:
		return "Your answer is not a whole number."
	case n < truth:
		return "Your answer is too low."
	default:
		return "Your answer is too high."
	}
}
