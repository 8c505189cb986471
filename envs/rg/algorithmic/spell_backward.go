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

// SpellBackwardOptions are reasoning-gym's SpellBackwardConfig (data_file
// is fixed: words3to10.txt is the one list embedded). Its words have 3 to
// 10 letters.
type SpellBackwardOptions struct {
	MinWordLen int `json:"min_word_len" range:"1,10"`
	MaxWordLen int `json:"max_word_len" range:"1,64"`
}

// Validate is reasoning-gym's (max_word_len ≥ min_word_len), and refuses a
// range holding no word of the list.
func (o SpellBackwardOptions) Validate() error {
	if err := minMaxError("max_word_len", o.MaxWordLen, "min_word_len", o.MinWordLen); err != nil {
		return err
	}
	if o.MaxWordLen < 3 {
		return &envs.OptionError{Option: "max_word_len", Reason: fmt.Sprintf("%d: the word list has no word shorter than 3 letters", o.MaxWordLen)}
	}
	return nil
}

// dictionaryByLen buckets words3to10.txt's alphanumeric words by length
// (index = length), in file order.
var dictionaryByLen = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, w := range dictionary() {
		if !isAlnum(w) {
			continue
		}
		n := runeLen(w)
		for len(out) <= n {
			out = append(out, nil)
		}
		out[n] = append(out[n], w)
	}
	return out
})

// pickByLen draws uniformly among the words of lengths lo..hi.
func pickByLen(rng *rand.Rand, byLen [][]string, lo, hi int) string {
	total := 0
	for n := lo; n <= hi && n < len(byLen); n++ {
		total += len(byLen[n])
	}
	i := rng.IntN(total)
	for n := lo; ; n++ {
		if i < len(byLen[n]) {
			return byLen[n][i]
		}
		i -= len(byLen[n])
	}
}

var spellBackwardTask = rg.Task[SpellBackwardOptions]{
	Name:        "spell_backward",
	Description: "reasoning-gym spell_backward: spell an English word backward.",
	Revision:    1,
	DataDigest:  words3to10Digest,
	Defaults:    SpellBackwardOptions{MinWordLen: 3, MaxWordLen: 10},
	Generate: func(rng *rand.Rand, o SpellBackwardOptions) (rg.Item, error) {
		word := pickByLen(rng, dictionaryByLen(), o.MinWordLen, o.MaxWordLen)
		r := []rune(word)
		slices.Reverse(r)
		return rg.Item{
			Question: "Spell this word backward (example: sun -> nus): " + word,
			Answer:   string(r),
			Meta:     map[string]any{"word": word, "word_len": len(r)},
		}, nil
	},
	Score: scoreSpellBackward,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		b := make([]byte, runeLen(it.Answer))
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		return wordsPositionFeedback(spellBackwardRight(answer, it.Answer), runeLen(it.Answer), "letters")
	},
}

// scoreSpellBackward is reasoning-gym's: case-insensitive; otherwise each
// letter in its right place earns 1/len(word), and an answer that starts
// with the whole reversed word but goes on earns 0.8.
func scoreSpellBackward(answer string, it *rg.Item) float64 {
	want := []rune(strings.ToLower(it.Answer))
	got := []rune(strings.ToLower(answer))
	if slices.Equal(got, want) {
		return 1
	}
	k := spellBackwardRight(answer, it.Answer)
	if k == len(want) {
		return 0.8
	}
	return float64(k) / float64(len(want))
}

func spellBackwardRight(answer, truth string) int {
	got, want := []rune(strings.ToLower(answer)), []rune(strings.ToLower(truth))
	k := 0
	for i := range min(len(got), len(want)) {
		if got[i] == want[i] {
			k++
		}
	}
	return k
}
