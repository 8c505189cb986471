// Package logic holds reasoning-gym's logic datasets as rg: envs: syllogism,
// propositional_logic, aiw, circuit_logic, knights_knaves, self_reference
// and zebra_puzzles. Each is a Task built from reasoning-gym 0.1.23's rules
// (config fields and defaults, question wording, answer form, score_answer)
// with Quarry's own generator; the differences are listed in
// docs/envs.md ("The reasoning-gym catalogue").
package logic

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds every task of the package (and the retry variants of those
// where a second attempt makes sense).
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, Syllogism) },
		func(r *envs.Registry) error { return rg.Register(r, PropositionalLogic) },
		func(r *envs.Registry) error { return rg.Register(r, AIW) },
		func(r *envs.Registry) error { return rg.Register(r, CircuitLogic) },
		func(r *envs.Registry) error { return rg.Register(r, KnightsKnaves) },
		func(r *envs.Registry) error { return rg.Register(r, SelfReference) },
		func(r *envs.Registry) error { return rg.Register(r, Zebra) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("logic: %w", err)
		}
	}
	return nil
}

// pick is Python's random.choice.
func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// normWord lowers a one-word answer and drops the punctuation a model may
// put around it ("Yes.", "**No**", "'Alice'").
func normWord(s string) string {
	return strings.ToLower(strings.Trim(strings.TrimSpace(s), ".!*\"'`() "))
}
