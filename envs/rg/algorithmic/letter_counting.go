package algorithmic

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// LetterCountingOptions are reasoning-gym's LetterCountingConfig. Quarry
// caps the span at 1000 words (reasoning-gym: open).
type LetterCountingOptions struct {
	MinWords int `json:"min_words" range:"1,1000"`
	MaxWords int `json:"max_words" range:"1,1000"`
}

// Validate is reasoning-gym's: max_words ≥ min_words.
func (o LetterCountingOptions) Validate() error {
	return minMaxError("max_words", o.MaxWords, "min_words", o.MinWords)
}

var letterCountingTask = rg.Task[LetterCountingOptions]{
	Name:        "letter_counting",
	Description: "reasoning-gym letter_counting: how often a letter occurs in a span of a novel.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults:    LetterCountingOptions{MinWords: 5, MaxWords: 15},
	Generate: func(rng *rand.Rand, o LetterCountingOptions) (rg.Item, error) {
		pool := alnumNovelWords()
		n := min(drawBetween(rng, o.MinWords, o.MaxWords), len(pool))
		start := drawBetween(rng, 0, len(pool)-n)
		span := pool[start : start+n]
		lower := strings.ToLower(strings.Join(span, ""))
		var letters []rune
		for _, r := range lower {
			letters = append(letters, r)
		}
		slices.Sort(letters)
		letters = slices.Compact(letters)
		target := letters[rng.IntN(len(letters))]
		count := strings.Count(lower, string(target))
		return rg.Item{
			Question: "How many times does the letter \"" + string(target) + "\" appear in the text: \"" + strings.Join(span, " ") + "\"?",
			Answer:   strconv.Itoa(count),
			Meta:     map[string]any{"span_length": n, "target_letter": string(target), "span": span},
		}, nil
	},
	Score:    wordsInteger,
	Guess:    func(rng *rand.Rand, _ *rg.Item) string { return strconv.Itoa(rng.IntN(30)) },
	Retry:    true,
	Feedback: wordsIntFeedback,
}
