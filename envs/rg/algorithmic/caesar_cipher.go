package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// CaesarCipherOptions are reasoning-gym's CaesarCipherConfig. Quarry caps a
// sentence at 500 words (reasoning-gym: open).
type CaesarCipherOptions struct {
	Delimiter   string `json:"delimiter" len:"1,16"`
	MinWords    int    `json:"min_words" range:"1,500"`
	MaxWords    int    `json:"max_words" range:"1,500"`
	MinRotation int    `json:"min_rotation" range:"1,25"`
	MaxRotation int    `json:"max_rotation" range:"1,25"`
}

// Validate is reasoning-gym's (max ≥ min; rotations 1 to 25 by their
// ranges) and refuses options under which no sentence of the text
// qualifies.
func (o CaesarCipherOptions) Validate() error {
	if err := minMaxError("max_words", o.MaxWords, "min_words", o.MinWords); err != nil {
		return err
	}
	if err := minMaxError("max_rotation", o.MaxRotation, "min_rotation", o.MinRotation); err != nil {
		return err
	}
	if len(caesarSentences(o)) == 0 {
		return &envs.OptionError{Option: "min_words", Reason: fmt.Sprintf("no sentence of the text split at %q has %d to %d words", o.Delimiter, o.MinWords, o.MaxWords)}
	}
	return nil
}

type caesarSentence struct {
	text  string // upper-case words joined by spaces
	words int
}

// caesarSplit is reasoning-gym's sentence list for a delimiter, before the
// word-count filter: each piece's alphabetic words, upper-cased. Quarry
// keeps only ASCII words (reasoning-gym's isalpha also keeps "aërial",
// whose "Ë" its cipher cannot round-trip).
func caesarSplit(delim string) []caesarSentence {
	var out []caesarSentence
	for _, piece := range strings.Split(novelText, delim) {
		if strings.TrimSpace(piece) == "" {
			continue
		}
		var words []string
		for _, w := range strings.Fields(piece) {
			if isASCIIAlpha(w) {
				words = append(words, strings.ToUpper(w))
			}
		}
		out = append(out, caesarSentence{strings.Join(words, " "), len(words)})
	}
	return out
}

var caesarDefaultSplit = sync.OnceValue(func() []caesarSentence { return caesarSplit(".") })

func caesarSentences(o CaesarCipherOptions) []string {
	all := caesarDefaultSplit()
	if o.Delimiter != "." {
		all = caesarSplit(o.Delimiter)
	}
	var out []string
	for _, s := range all {
		if o.MinWords <= s.words && s.words <= o.MaxWords {
			out = append(out, s.text)
		}
	}
	return out
}

func isASCIIAlpha(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') })
}

func caesarShift(s string, k int) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return 'A' + (r-'A'+rune(k)+26)%26
		}
		return r
	}, s)
}

var caesarCipherTask = rg.Task[CaesarCipherOptions]{
	Name:        "caesar_cipher",
	Description: "reasoning-gym caesar_cipher: decrypt a sentence of a novel encrypted with a Caesar shift.",
	Revision:    1,
	DataDigest:  novelDigest,
	Defaults:    CaesarCipherOptions{Delimiter: ".", MinWords: 3, MaxWords: 20, MinRotation: 1, MaxRotation: 25},
	Generate: func(rng *rand.Rand, o CaesarCipherOptions) (rg.Item, error) {
		pool := caesarSentences(o)
		if len(pool) == 0 {
			return rg.Item{}, fmt.Errorf("no sentence of %d to %d words", o.MinWords, o.MaxWords)
		}
		sentence := pool[rng.IntN(len(pool))]
		rotation := drawBetween(rng, o.MinRotation, o.MaxRotation)
		cipher := caesarShift(sentence, rotation)
		return rg.Item{
			Question: "Decrypt this Caesar cipher text: " + cipher + ". Provide only the decrypted text as your final answer.",
			Answer:   sentence,
			Data:     cipher,
			Meta:     map[string]any{"rotation": rotation, "cipher_text": cipher, "num_words": len(strings.Fields(sentence))},
		}, nil
	},
	Score: scoreCaesar,
	Guess: func(rng *rand.Rand, it *rg.Item) string { return caesarShift(it.Data.(string), 1+rng.IntN(25)) },
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		want := strings.Fields(it.Answer)
		return wordsPositionFeedback(wordsPositions(strings.Fields(caesarNormal(answer)), want, false), len(want), "words")
	},
}

// caesarNormal upper-cases an answer, collapses its spacing and drops a
// final full stop.
func caesarNormal(s string) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(strings.ToUpper(s)), " "), ".")
}

// scoreCaesar: 1 for the clear text whatever the case and spacing (and a
// final full stop); else reasoning-gym's default.
func scoreCaesar(answer string, it *rg.Item) float64 {
	if caesarNormal(answer) == it.Answer {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
