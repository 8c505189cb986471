// Package algorithmic serves reasoning-gym's algorithmic datasets
// (reasoning_gym/algorithmic at 0.1.23) as rg: envs. The family is large, so
// its tasks live in two files: numbers.go (numbers, grids, matrices,
// puzzles over them) and words.go (strings and words).
package algorithmic

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
)

// Register adds every task of the family.
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		registerNumbers, // numbers.go
		registerWords,   // words.go
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("algorithmic: %w", err)
		}
	}
	return nil
}
