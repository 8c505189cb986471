// Package induction holds reasoning-gym's induction datasets as rg: envs:
// list_functions (find the rule mapping example lists to lists) and acre
// (abstract causal reasoning over Blicket-detector experiments). Each is a
// Task built from reasoning-gym 0.1.23's rules (config fields and
// defaults, question wording, answer form, score_answer) with Quarry's own
// generator; docs/envs.md ("The reasoning-gym catalogue") lists the differences, PROVENANCE.md the
// embedded data.
package induction

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds both tasks (and list_functions' retry variant).
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, ListFunctions) },
		func(r *envs.Registry) error { return rg.Register(r, ACRE) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("induction: %w", err)
		}
	}
	return nil
}
