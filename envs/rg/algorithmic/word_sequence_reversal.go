package algorithmic

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// WordSequenceReversalOptions are reasoning-gym's
// WordSequenceReversalConfig. Quarry caps the list at 1000 words
// (reasoning-gym: open; its curriculum goes to 100).
type WordSequenceReversalOptions struct {
	MinWords int `json:"min_words" range:"1,1000"`
	MaxWords int `json:"max_words" range:"1,1000"`
}

// Validate is reasoning-gym's: max_words ≥ min_words.
func (o WordSequenceReversalOptions) Validate() error {
	return minMaxError("max_words", o.MaxWords, "min_words", o.MinWords)
}

var wordSequenceReversalTask = rg.Task[WordSequenceReversalOptions]{
	Name:        "word_sequence_reversal",
	Description: "reasoning-gym word_sequence_reversal: reverse a list of words drawn from a novel.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults:    WordSequenceReversalOptions{MinWords: 3, MaxWords: 8},
	Generate: func(rng *rand.Rand, o WordSequenceReversalOptions) (rg.Item, error) {
		pool := alnumNovelWords()
		n := min(drawBetween(rng, o.MinWords, o.MaxWords), len(pool))
		words := make([]string, n)
		for i, j := range drawDistinct(rng, len(pool), n) {
			words[i] = pool[j]
		}
		reversed := slices.Clone(words)
		slices.Reverse(reversed)
		return rg.Item{
			Question: "Solve the following problem.\n\nProvide you answer as a comma-separated list of words with a space after the comma.\n\nReverse this list of words: " +
				strings.Join(words, ", ") + "\n",
			Answer: strings.Join(reversed, ", "),
			Data:   reversed,
			Meta:   map[string]any{"num_words": n, "words": words},
		}, nil
	},
	Score: scoreWordList,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return strings.Join(wordsShuffled(rng, it.Data.([]string)), ", ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		want := it.Data.([]string)
		return wordsPositionFeedback(wordsPositions(wordsList(answer), want, true), len(want), "words")
	},
}

// scoreWordList grades a comma-separated list against the item's Data: 1
// for the same words in the same order, whatever the spacing around the
// commas and the case; else reasoning-gym's default (exact match, or
// containment credit).
func scoreWordList(answer string, it *rg.Item) float64 {
	want := it.Data.([]string)
	got := wordsList(answer)
	if len(got) == len(want) && wordsPositions(got, want, true) == len(want) {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
