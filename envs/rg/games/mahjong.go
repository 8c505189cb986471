package rggames

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// MahjongOptions are reasoning-gym's MahjongPuzzleConfig. It bounds only
// min_num_rounds ≥ 1; 1000 rounds (twice its hardest curriculum level)
// keeps a question under 60 kB.
type MahjongOptions struct {
	MinNumRounds int `json:"min_num_rounds" range:"1,1000"`
	MaxNumRounds int `json:"max_num_rounds" range:"1,1000"`
}

func (o MahjongOptions) Validate() error {
	if o.MinNumRounds > o.MaxNumRounds {
		return optErr("max_num_rounds", "%d is below min_num_rounds %d", o.MaxNumRounds, o.MinNumRounds)
	}
	return nil
}

const mahjongTemplate = `There are several letter cards, and the game rules are as follows:
1. Initially, there are 13 cards.
2. Each time, a new card is added, and a result is determined. Then, one card is removed.
3. When there are two identical cards in hand, and the newly added card is the same as these two cards, the result is determined as "Peng".
4. If there are two cards in hand such that the new card can form a consecutive letter sequence with these two cards, the result is determined as "Chi". For example: ABC, BCD, CDE, etc.
5. If the new card does not meet the conditions of 3 and 4, the result is determined as "Pass".
6. "Peng" takes precedence over "Chi".
7. The card that is removed does not affect the result determination of the current round.

Your output should be one of the following: "Peng", "Chi", or "Pass" (without quotes).

Now, given the initial cards %s, what is the result at the end of performing the following rounds of operations:
%s
`

var mahjongResults = []string{"Peng", "Chi", "Pass"}

func registerMahjong(r *envs.Registry) error {
	return rg.Register(r, rg.Task[MahjongOptions]{
		Name:        "mahjong_puzzle",
		Description: "reasoning-gym mahjong_puzzle: follow rounds of adding and removing letter cards and say the last round's result (Peng, Chi or Pass).",
		Revision:    1,
		Defaults:    MahjongOptions{MinNumRounds: 10, MaxNumRounds: 50},
		Generate:    generateMahjong,
		// reasoning-gym's default score_answer, with case and quotes
		// ignored: "peng" and "\"Peng\"" are Peng.
		Score: func(answer string, it *rg.Item) float64 {
			a := strings.Trim(strings.TrimSpace(answer), `"'.`)
			for _, r := range mahjongResults {
				if strings.EqualFold(a, r) {
					a = r
				}
			}
			return rg.DefaultScore(a, it.Answer)
		},
		Guess: func(rng *rand.Rand, _ *rg.Item) string { return mahjongResults[rng.IntN(3)] },
	})
}

// mahjongResult is the round's result for hand (before the removal) and
// the new card, by the question's rules.
func mahjongResult(hand []int, card int) string {
	var count [26]int
	for _, c := range hand {
		count[c]++
	}
	if count[card] >= 2 {
		return "Peng"
	}
	has := func(c int) bool { return c >= 0 && c < 26 && count[c] > 0 }
	if (has(card-2) && has(card-1)) || (has(card-1) && has(card+1)) || (has(card+1) && has(card+2)) {
		return "Chi"
	}
	return "Pass"
}

func article(c int) string {
	if strings.ContainsRune("AEIOU", rune('A'+c)) {
		return "an"
	}
	return "a"
}

// generateMahjong draws 13 cards with at most two of a letter, then plays
// the rounds as reasoning-gym does: each round aims at a Peng, a Chi or a
// Pass (a third each) and draws a card that makes it when one exists.
// reasoning-gym labels a round by its aim; here the label is the result by
// the rules, so a "Pass" card that happens to make a Chi is labelled Chi
// (reasoning-gym's own chi test misses hands such as A B B + C).
func generateMahjong(rng *rand.Rand, o MahjongOptions) (rg.Item, error) {
	pool := make([]int, 52)
	for i := range pool {
		pool[i] = i % 26
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	hand := append([]int(nil), pool[:13]...)
	initial := letters(hand)
	rounds := rg.Between(rng, o.MinNumRounds, o.MaxNumRounds)
	var ops strings.Builder
	result := ""
	for i := range rounds {
		aim := mahjongResults[rng.IntN(3)]
		var fits []int
		if aim != "Pass" {
			for c := range 26 {
				if mahjongResult(hand, c) == aim {
					fits = append(fits, c)
				}
			}
		}
		card := rng.IntN(26)
		if len(fits) > 0 {
			card = fits[rng.IntN(len(fits))]
		}
		result = mahjongResult(hand, card)
		k := rng.IntN(len(hand))
		removed := hand[k]
		hand = append(append(hand[:k:k], hand[k+1:]...), card)
		if i > 0 {
			ops.WriteByte('\n')
		}
		fmt.Fprintf(&ops, "Round %d: Add %s %c card and remove %s %c card.", i+1, article(card), 'A'+card, article(removed), 'A'+removed)
	}
	return rg.Item{
		Question: fmt.Sprintf(mahjongTemplate, initial, ops.String()),
		Answer:   result,
		Meta:     map[string]any{"num_rounds": rounds, "initial_cards": initial},
	}, nil
}

func letters(cards []int) string {
	b := make([]byte, len(cards))
	for i, c := range cards {
		b[i] = byte('A' + c)
	}
	return string(b)
}
