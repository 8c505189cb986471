package games

import (
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Directions names the moves of GEM's grid games (FifteenPuzzle, Game2048,
// Sokoban) in GEM's order; a move is its index. What a move moves (a tile,
// every tile, the player) is each game's rule.
var Directions = [...]string{"up", "down", "left", "right"}

// BoxedDirection is the action for move d: \boxed{up}, …
func BoxedDirection(d int) string { return `\boxed{` + Directions[d] + `}` }

// LastDirection finds the last match of re in action, whose first group
// must be one of Directions in any case, and returns the move and its
// lowercase name. Each game keeps its own pattern, because GEM's differ in
// case sensitivity. ok is false when nothing matches: a format error.
func LastDirection(re *regexp.Regexp, action string) (move int, name string, ok bool) {
	m := envs.LastMatch(re, action)
	if m == nil {
		return 0, "", false
	}
	name = strings.ToLower(m[1])
	return slices.Index(Directions[:], name), name, true
}
