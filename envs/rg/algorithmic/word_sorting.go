package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// WordSortingOptions are reasoning-gym's WordSortingConfig. Quarry caps the
// list at 1000 words and the lengths at 64 (reasoning-gym: open).
type WordSortingOptions struct {
	MinWords       int    `json:"min_words" range:"1,1000"`
	MaxWords       int    `json:"max_words" range:"1,1000"`
	MinWordLength  int    `json:"min_word_length" range:"1,64"`
	MaxWordLength  int    `json:"max_word_length" range:"1,64"`
	Transformation string `json:"transformation" len:"1,16"`
}

// wordSortingTransformations are reasoning-gym's TextTransformation values.
var wordSortingTransformations = []string{"lowercase", "uppercase", "original", "randomcase"}

// Validate is reasoning-gym's (max ≥ min, a known transformation) and
// refuses a length range with fewer distinct words than max_words
// (reasoning-gym's random.sample would fail).
func (o WordSortingOptions) Validate() error {
	if err := minMaxError("max_words", o.MaxWords, "min_words", o.MinWords); err != nil {
		return err
	}
	if err := minMaxError("max_word_length", o.MaxWordLength, "min_word_length", o.MinWordLength); err != nil {
		return err
	}
	if !slices.Contains(wordSortingTransformations, o.Transformation) {
		return &envs.OptionError{Option: "transformation", Reason: fmt.Sprintf("%q is not one of %s", o.Transformation, strings.Join(wordSortingTransformations, ", "))}
	}
	if n := len(wordSortingPool(o.MinWordLength, o.MaxWordLength)); n < o.MaxWords {
		return &envs.OptionError{Option: "max_words", Reason: fmt.Sprintf("%d exceeds the %d distinct words of %d to %d letters in the text", o.MaxWords, n, o.MinWordLength, o.MaxWordLength)}
	}
	return nil
}

// novelVocabulary is the novel's distinct words, sorted.
var novelVocabulary = sync.OnceValue(func() []sizedWord {
	w := slices.Clone(novelWords())
	slices.Sort(w)
	w = slices.Compact(w)
	out := make([]sizedWord, len(w))
	for i, s := range w {
		out[i] = sizedWord{s, runeLen(s)}
	}
	return out
})

// wordSortingPool is reasoning-gym's word list: the distinct words of
// lo..hi characters, sorted.
func wordSortingPool(lo, hi int) []string {
	return wordSortingPools.get([2]int{lo, hi}, func() []string { return buildWordSortingPool(lo, hi) })
}

var wordSortingPools wordsPoolCache[[2]int]

func buildWordSortingPool(lo, hi int) []string {
	var out []string
	for _, w := range novelVocabulary() {
		if lo <= w.n && w.n <= hi {
			out = append(out, w.s)
		}
	}
	return out
}

type wordSortingData struct {
	words  []string // as shown, transformed
	sorted []string
}

var wordSortingTask = rg.Task[WordSortingOptions]{
	Name:        "word_sorting",
	Description: "reasoning-gym word_sorting: sort words from a novel in ASCII/Unicode order, ascending or descending.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults:    WordSortingOptions{MinWords: 3, MaxWords: 10, MinWordLength: 3, MaxWordLength: 12, Transformation: "original"},
	Generate: func(rng *rand.Rand, o WordSortingOptions) (rg.Item, error) {
		pool := wordSortingPool(o.MinWordLength, o.MaxWordLength)
		n := drawBetween(rng, o.MinWords, o.MaxWords)
		original := make([]string, n)
		words := make([]string, n)
		for i, j := range drawDistinct(rng, len(pool), n) {
			original[i] = pool[j]
			words[i] = wordSortingTransform(rng, o.Transformation, pool[j])
		}
		sorted := slices.Clone(words)
		slices.Sort(sorted)
		direction := "ascending"
		if rng.IntN(2) == 1 {
			direction = "descending"
			slices.Reverse(sorted)
		}
		return rg.Item{
			Question: "Your task is to sort words in ascending or descending order using ASCII/Unicode ordering.\n\n" +
				"Your output should be a comma-separated list of words, e.g. word_1, word_2, word_3\n\n" +
				"Now, sort these words in " + direction + " order (using ASCII/Unicode ordering) and return them as a comma-separated list: " +
				strings.Join(words, ", ") + "\n",
			Answer: strings.Join(sorted, ", "),
			Data:   wordSortingData{words: words, sorted: sorted},
			Meta:   map[string]any{"original_words": original, "transformed_words": words, "direction": direction, "num_words": n},
		}, nil
	},
	Score: scoreWordSorting,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return strings.Join(wordsShuffled(rng, it.Data.(wordSortingData).words), ", ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		want := it.Data.(wordSortingData).sorted
		return wordsPositionFeedback(wordsPositions(wordsList(answer), want, false), len(want), "words")
	},
}

func wordSortingTransform(rng *rand.Rand, how, w string) string {
	switch how {
	case "lowercase":
		return strings.ToLower(w)
	case "uppercase":
		return strings.ToUpper(w)
	case "randomcase":
		var b strings.Builder
		for _, r := range w {
			if rng.IntN(2) == 0 {
				b.WriteString(strings.ToUpper(string(r)))
			} else {
				b.WriteString(strings.ToLower(string(r)))
			}
		}
		return b.String()
	}
	return w
}

// scoreWordSorting is reasoning-gym's: 1 for the sorted list (spacing
// around commas ignored); else the share of words in their place, at least
// 0.2 when the answer holds exactly the given words.
func scoreWordSorting(answer string, it *rg.Item) float64 {
	if answer == "" {
		return 0
	}
	want := it.Data.(wordSortingData).sorted
	got := wordsList(answer)
	if slices.Equal(got, want) {
		return 1
	}
	score := float64(wordsPositions(got, want, false)) / float64(len(want))
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	if slices.Equal(a, b) {
		score = max(score, 0.2)
	}
	return score
}
