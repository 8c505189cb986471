// Package games holds what GEM's text games share: the reward constants of
// GEM's LanguageGameReward, the registration of a game's variants, the
// direction moves of its grid games, and small helpers for option structs.
// Each game lives in its own subpackage with a Register function.
package games

import "github.com/quarry-rl/quarry/envs"

// GEM's shared game rewards (gem/utils/constants.py).
const (
	SuccessReward       = 1.0  // the task is solved
	InternalStepReward  = 0.0  // a legal move that does not end the game
	FailReward          = 0.0  // the game is lost (e.g. a mine)
	InvalidActionReward = 0.0  // parseable but illegal
	FormatErrorReward   = -0.1 // unparseable: the episode ends
)

// Int returns a pointer to v, for optional (nullable) options.
func Int(v int) *int { return &v }

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }

// Variant is one of a game's registered ids (GEM's -easy, -hard, -random, …):
// the id's suffix and the options it registers as defaults. A zero MaxTurns,
// RewardMax or Description keeps the base spec's; a variant whose options
// draw the game per episode sets the largest turn limit a draw can have.
type Variant[O any] struct {
	Suffix      string
	Options     O
	MaxTurns    int
	RewardMax   float64
	Description string
}

// RegisterVariants registers base once per variant, as base.ID + "-" +
// Suffix, each building its envs with newEnv from options decoded over the
// variant's (see envs.Options). It stops at the first error.
func RegisterVariants[O any](r *envs.Registry, base envs.Spec, newEnv func(O) (envs.Env, error), variants ...Variant[O]) error {
	for _, v := range variants {
		s := base
		s.ID = base.ID + "-" + v.Suffix
		if v.MaxTurns != 0 {
			s.MaxTurns = v.MaxTurns
		}
		if v.RewardMax != 0 {
			s.RewardMax = v.RewardMax
		}
		if v.Description != "" {
			s.Description = v.Description
		}
		s.Build = envs.Options(v.Options, newEnv)
		if err := r.Register(s); err != nil {
			return err
		}
	}
	return nil
}
