package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SentenceReorderingOptions are reasoning-gym's SentenceReorderingConfig.
// Quarry caps a sentence at 500 words (reasoning-gym: open).
type SentenceReorderingOptions struct {
	MinWordsInSentence int `json:"min_words_in_sentence" range:"1,500"`
	MaxWordsInSentence int `json:"max_words_in_sentence" range:"1,500"`
}

// Validate is reasoning-gym's (max ≥ min), and refuses a range no sentence
// of the text falls in.
func (o SentenceReorderingOptions) Validate() error {
	if err := minMaxError("max_words_in_sentence", o.MaxWordsInSentence, "min_words_in_sentence", o.MinWordsInSentence); err != nil {
		return err
	}
	if len(reorderPool(o)) == 0 {
		return &envs.OptionError{Option: "min_words_in_sentence", Reason: fmt.Sprintf("no sentence of the text has %d to %d words", o.MinWordsInSentence, o.MaxWordsInSentence)}
	}
	return nil
}

type novelSentence struct {
	text  string
	words int // matches of \b\w+\b
}

// novelSentences are the matches of reasoning-gym's [^.!?]+[.!?], trimmed.
var novelSentences = sync.OnceValue(func() []novelSentence {
	var out []novelSentence
	rest := novelText
	for {
		i := strings.IndexAny(rest, ".!?")
		if i < 0 {
			break
		}
		if i > 0 {
			s := strings.TrimSpace(rest[:i+1])
			out = append(out, novelSentence{s, len(wordTokens(s))})
		}
		// A run of terminators: the regex needs one non-terminator first.
		rest = rest[i+1:]
	}
	return out
})

func reorderPool(o SentenceReorderingOptions) []string {
	var out []string
	for _, s := range novelSentences() {
		if o.MinWordsInSentence <= s.words && s.words <= o.MaxWordsInSentence {
			out = append(out, s.text)
		}
	}
	return out
}

var sentenceReorderingTask = rg.Task[SentenceReorderingOptions]{
	Name:        "sentence_reordering",
	Description: "reasoning-gym sentence_reordering: restore the order of a novel's sentence's shuffled words.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults:    SentenceReorderingOptions{MinWordsInSentence: 3, MaxWordsInSentence: 20},
	Generate: func(rng *rand.Rand, o SentenceReorderingOptions) (rg.Item, error) {
		pool := reorderPool(o)
		if len(pool) == 0 {
			return rg.Item{}, fmt.Errorf("no sentence of %d to %d words", o.MinWordsInSentence, o.MaxWordsInSentence)
		}
		words := strings.Fields(pool[rng.IntN(len(pool))])
		shuffled := wordsShuffled(rng, words)
		return rg.Item{
			Question: "Restore the correct order of words in the following sentence: " + strings.Join(shuffled, " "),
			Answer:   strings.Join(words, " "),
			Data:     shuffled,
			Meta:     map[string]any{"word_count": len(wordTokens(strings.Join(words, " ")))},
		}, nil
	},
	Score: scoreSentenceReordering,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return strings.Join(wordsShuffled(rng, it.Data.([]string)), " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		want := strings.Fields(it.Answer)
		return wordsPositionFeedback(wordsPositions(strings.Fields(answer), want, true), len(want), "words")
	},
}

// scoreSentenceReordering is reasoning-gym's: 1 for the sentence; for as
// many words as the sentence, 1/n per word in its place (case-insensitive);
// 0.05 for any other number of words.
func scoreSentenceReordering(answer string, it *rg.Item) float64 {
	if answer == it.Answer {
		return 1
	}
	want, got := strings.Fields(it.Answer), strings.Fields(answer)
	if len(got) != len(want) {
		return 0.05
	}
	return float64(wordsPositions(got, want, true)) / float64(len(want))
}
