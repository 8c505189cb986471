// Package games holds what GEM's text games share: the reward constants of
// GEM's LanguageGameReward and small helpers for option structs. Each game
// lives in its own subpackage with a Register function.
package games

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
