package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// LetterJumbleOptions are reasoning-gym's LetterJumbleConfig. Quarry caps
// the task at 1000 words (reasoning-gym: open).
type LetterJumbleOptions struct {
	MinWordLen         int     `json:"min_word_len" range:"1,64"`
	MaxWordLen         int     `json:"max_word_len" range:"1,64"`
	MinWords           int     `json:"min_words" range:"1,1000"`
	MaxWords           int     `json:"max_words" range:"1,1000"`
	MinCorruptionLevel float64 `json:"min_corruption_level" range:"0,1"`
	MaxCorruptionLevel float64 `json:"max_corruption_level" range:"0,1"`
	ConsecutiveWords   bool    `json:"consecutive_words"`
}

// Validate is reasoning-gym's (max ≥ min for each pair), and refuses a
// word-length range with fewer than max_words words in the text.
func (o LetterJumbleOptions) Validate() error {
	if err := minMaxError("max_word_len", o.MaxWordLen, "min_word_len", o.MinWordLen); err != nil {
		return err
	}
	if err := minMaxError("max_words", o.MaxWords, "min_words", o.MinWords); err != nil {
		return err
	}
	if err := minMaxError("max_corruption_level", o.MaxCorruptionLevel, "min_corruption_level", o.MinCorruptionLevel); err != nil {
		return err
	}
	if n := len(letterJumblePool(o)); n < o.MaxWords {
		return &envs.OptionError{Option: "max_words", Reason: fmt.Sprintf("%d exceeds the %d alphabetic words of %d to %d letters in the text", o.MaxWords, n, o.MinWordLen, o.MaxWordLen)}
	}
	return nil
}

// letterJumblePool is reasoning-gym's: the novel's alphabetic words of the
// allowed lengths, in text order.
func letterJumblePool(o LetterJumbleOptions) []string {
	return letterJumblePools.get([2]int{o.MinWordLen, o.MaxWordLen}, func() []string { return buildLetterJumblePool(o) })
}

var letterJumblePools wordsPoolCache[[2]int]

func buildLetterJumblePool(o LetterJumbleOptions) []string {
	var out []string
	for _, w := range alphaNovelWords() {
		if o.MinWordLen <= w.n && w.n <= o.MaxWordLen {
			out = append(out, w.s)
		}
	}
	return out
}

type sizedWord struct {
	s string
	n int // characters
}

var alphaNovelWords = sync.OnceValue(func() []sizedWord {
	var out []sizedWord
	for _, w := range novelWords() {
		if isAlpha(w) {
			out = append(out, sizedWord{w, runeLen(w)})
		}
	}
	return out
})

// scrambleWord is reasoning-gym's: max(1, ⌊len·level⌋) swaps of two
// distinct random positions.
func scrambleWord(rng *rand.Rand, word string, level float64) string {
	r := []rune(word)
	if len(r) < 2 {
		return word
	}
	for range max(1, int(float64(len(r))*level)) {
		i := rng.IntN(len(r))
		j := rng.IntN(len(r) - 1)
		if j >= i {
			j++
		}
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

var letterJumbleTask = rg.Task[LetterJumbleOptions]{
	Name:        "letter_jumble",
	Description: "reasoning-gym letter_jumble: unscramble the letters of each word of a passage.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults: LetterJumbleOptions{MinWordLen: 1, MaxWordLen: 64, MinWords: 3, MaxWords: 20,
		MinCorruptionLevel: 0.1, MaxCorruptionLevel: 0.9, ConsecutiveWords: true},
	Generate: func(rng *rand.Rand, o LetterJumbleOptions) (rg.Item, error) {
		pool := letterJumblePool(o)
		n := drawBetween(rng, o.MinWords, o.MaxWords)
		level := o.MinCorruptionLevel + rng.Float64()*(o.MaxCorruptionLevel-o.MinCorruptionLevel)
		var words []string
		if o.ConsecutiveWords {
			start := drawBetween(rng, 0, len(pool)-n)
			words = pool[start : start+n]
		} else {
			for _, j := range drawDistinct(rng, len(pool), n) {
				words = append(words, pool[j])
			}
		}
		scrambled := make([]string, n)
		for i, w := range words {
			scrambled[i] = scrambleWord(rng, w, level)
		}
		return rg.Item{
			Question: "Your task is to unsramble words in a sentence.\n\n" +
				"For each word in a sentence, the letter may have been randomly shuffled. Your task is to unscramble the words.\n\n" +
				"The order of the words in the sentence is preserved. Moreover, the style of the sentence is preserved (i.e. punctuation, capitalization, new lines, etc.).\n\n" +
				"Your output should be a sentence with the words unscrambled.\n\n" +
				"Now, unscramble these words: " + strings.Join(scrambled, " ") + "\n",
			Answer: strings.Join(words, " "),
			Data:   scrambled,
			Meta:   map[string]any{"num_words": n, "corruption_level": level, "scrambled_words": scrambled, "original_words": words},
		}, nil
	},
	Score: scoreLetterJumble,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		scrambled := it.Data.([]string)
		out := make([]string, len(scrambled))
		for i, w := range scrambled {
			out[i] = string(wordsShuffled(rng, []rune(w)))
		}
		return strings.Join(out, " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		want := strings.Fields(it.Answer)
		return wordsPositionFeedback(wordsPositions(strings.Fields(answer), want, true), len(want), "words")
	},
}

// scoreLetterJumble is reasoning-gym's: case-insensitive; 1 for the
// passage, else 1/n for each word in its place.
func scoreLetterJumble(answer string, it *rg.Item) float64 {
	want := strings.Fields(it.Answer)
	got := strings.Fields(answer)
	if strings.EqualFold(strings.TrimSpace(answer), it.Answer) {
		return 1
	}
	return float64(wordsPositions(got, want, true)) / float64(len(want))
}
