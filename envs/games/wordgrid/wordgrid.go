// Package wordgrid holds what GEM's word-grid games, Crosswords and
// WordSearch, share: the checks of their common options and the steps of
// TextArena's grid layout that both follow. Where a word may go is each
// game's own rule and stays in its package.
package wordgrid

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/quarry-rl/quarry/envs"
)

// ValidateCounts checks num_words (1 to maxWords) and max_turns (positive)
// where they are set; null options make a random game.
func ValidateCounts(numWords, maxTurns *int, maxWords int) error {
	if numWords != nil && (*numWords < 1 || *numWords > maxWords) {
		return &envs.OptionError{Option: "num_words", Reason: fmt.Sprintf("must be from 1 to %d, or null for a random game", maxWords)}
	}
	if maxTurns != nil && *maxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer, or null for a random game"}
	}
	return nil
}

// Pick draws n distinct indices below size, in draw order, into dst[:0]:
// the words of a grid. n must not exceed size.
func Pick(rng *rand.Rand, dst []int, n, size int) []int {
	dst = dst[:0]
	for len(dst) < n {
		if i := rng.IntN(size); !slices.Contains(dst, i) {
			dst = append(dst, i)
		}
	}
	return dst
}

// Size is GEM's grid side for a longest word of longest letters:
// round(longest * 1.5), with Python's round (halves to even).
func Size(longest int) int { return int(math.RoundToEven(1.5 * float64(longest))) }

// Delta is the step from one letter of a word to the next: down a column
// or across a row.
func Delta(down bool) (dr, dc int) {
	if down {
		return 1, 0
	}
	return 0, 1
}
