package rggames

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// The sentences emoji_mystery hides: reasoning-gym's copy of the Project
// Gutenberg text (see PROVENANCE.md).
//
//go:embed data/in_the_year_2889.txt
var year2889 string

// EmojiMysteryOptions are reasoning-gym's EmojiMysteryConfig. Its longest
// sentence has 101 words; 150 bounds the options above that.
type EmojiMysteryOptions struct {
	MinWordsInSentence int `json:"min_words_in_sentence" range:"1,150"`
	MaxWordsInSentence int `json:"max_words_in_sentence" range:"1,150"`
}

// Validate checks reasoning-gym's assertion and that some sentence has a
// word count in the range (reasoning-gym fails on the first item).
func (o EmojiMysteryOptions) Validate() error {
	if o.MaxWordsInSentence < o.MinWordsInSentence {
		return optErr("max_words_in_sentence", "%d is below min_words_in_sentence %d", o.MaxWordsInSentence, o.MinWordsInSentence)
	}
	if len(emojiSentences(o)) == 0 {
		return optErr("min_words_in_sentence", "no sentence of the text has %d to %d words", o.MinWordsInSentence, o.MaxWordsInSentence)
	}
	return nil
}

// secretEmojis are reasoning-gym's _EMOJIS, with ❤️ written without its
// variation selector U+FE0F: reasoning-gym's decoder drops only the first
// code point, so the selector decoded as a byte and that emoji's sentences
// could not be recovered by the hint.
var secretEmojis = []string{
	"😀", "😃", "😄", "😁", "😆", "😅", "🤣", "😂", "🙂", "🙃", "😉", "😊", "😇", "🥰", "😍", "🤩",
	"😘", "😗", "😚", "😙", "🥲", "😋", "😛", "😜", "🤪", "😝", "🤑", "🤗", "🤭", "🤫", "🤔", "🤐",
	"🤨", "😐", "😑", "😶", "😏", "😒", "🙄", "😬", "😮", "😯", "😲", "😳", "🥺", "😦", "😧", "😨",
	"😰", "😥", "😢", "😭", "😱", "😖", "😣", "😞", "😓", "😩", "😫", "🥱", "😤", "😡", "😠", "🤬",
	"😈", "👿", "💀", "☠", "💩", "🤡", "👹", "👺", "👻", "👽", "👾", "🤖", "😺", "😸", "😹", "😻",
	"😼", "😽", "🙀", "😿", "😾", "🙈", "🙉", "🙊", "💋", "💌", "💘", "💝", "💖", "💗", "💓", "💞",
	"💕", "💟", "❣", "💔", "❤", "🧡", "💛", "💚", "💙", "💜", "🤎", "🖤", "🤍",
}

const emojiHint = "Here is a hint:\n```python\n" +
	"def variance_selector_to_byte(variation_selector):\n" +
	"    variation_selector_codepoint = ord(variation_selector)\n" +
	"    if 0xFE00 <= variation_selector_codepoint <= 0xFE0F:\n" +
	"        return variation_selector_codepoint - 0xFE00\n" +
	"    elif 0xE0100 <= variation_selector_codepoint <= 0xE01EF:\n" +
	"        return variation_selector_codepoint - 0xE0100 + 16\n" +
	"    else:\n" +
	"        return None\n" +
	"\n" +
	"def decode(encoded_sentence):\n" +
	"    decoded_bytes = []\n" +
	"    variation_selectors_part = encoded_sentence[1:]\n" +
	"    for char in variation_selectors_part:\n" +
	"        byte_val = variance_selector_to_byte(char)\n" +
	"        if byte_val is not None:\n" +
	"            decoded_bytes.append(byte_val)\n" +
	"    return bytes(decoded_bytes).decode('utf-8')\n" +
	"```\n"

// emojiTemplate is reasoning-gym's question; it prints the hint twice.
const emojiTemplate = `The following emoji is encoded with a sentence.

Decode the following sentence from the emoji: %s

%s
%s

Return the secret sentence as your final answer.
`

var sentencePattern = regexp.MustCompile(`[^.!?]+[.!?]`)

type emojiSentence struct {
	text  string
	words int
}

// allSentences are the text's sentences as reasoning-gym cuts them, with
// their word counts.
var allSentences = sync.OnceValue(func() []emojiSentence {
	var out []emojiSentence
	for _, s := range sentencePattern.FindAllString(year2889, -1) {
		s = strings.TrimSpace(s)
		out = append(out, emojiSentence{text: strings.ReplaceAll(s, "\n", " "), words: countWords(s)})
	}
	return out
})

// countWords counts runs of letters, digits and underscores: the matches
// of Python's \b\w+\b.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// emojiSentences are the sentences with a word count in o's range.
func emojiSentences(o EmojiMysteryOptions) []string {
	var out []string
	for _, s := range allSentences() {
		if o.MinWordsInSentence <= s.words && s.words <= o.MaxWordsInSentence {
			out = append(out, s.text)
		}
	}
	return out
}

// encodeEmoji hides s's UTF-8 bytes behind base as variation selectors:
// bytes below 16 as U+FE00…U+FE0F, the others as U+E0100….
func encodeEmoji(s, base string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, c := range []byte(s) {
		if c < 16 {
			b.WriteRune(0xFE00 + rune(c))
		} else {
			b.WriteRune(0xE0100 + rune(c) - 16)
		}
	}
	return b.String()
}

func registerEmojiMystery(r *envs.Registry) error {
	return rg.Register(r, rg.Task[EmojiMysteryOptions]{
		Name:        "emoji_mystery",
		Description: "reasoning-gym emoji_mystery: decode a sentence hidden in an emoji's variation selectors; partial credit per matching character when the length is right.",
		Revision:    1,
		DataDigest:  envs.Digest([]byte(year2889)),
		Defaults:    EmojiMysteryOptions{MinWordsInSentence: 3, MaxWordsInSentence: 35},
		Generate: func(rng *rand.Rand, o EmojiMysteryOptions) (rg.Item, error) {
			sentences := emojiSentences(o)
			if len(sentences) == 0 {
				return rg.Item{}, fmt.Errorf("emoji_mystery: no sentence of %d to %d words", o.MinWordsInSentence, o.MaxWordsInSentence)
			}
			emoji := secretEmojis[rng.IntN(len(secretEmojis))]
			secret := sentences[rng.IntN(len(sentences))]
			return rg.Item{
				Question: fmt.Sprintf(emojiTemplate, encodeEmoji(secret, emoji), emojiHint, emojiHint),
				Answer:   secret,
				Meta:     map[string]any{"emoji": emoji, "num_words_in_sentence": countWords(secret)},
			}, nil
		},
		Score: scoreEmojiMystery,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			all := allSentences()
			return all[rng.IntN(len(all))].text
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, score float64) string {
			a, ref := []rune(emojiNormal(answer)), []rune(emojiNormal(it.Answer))
			if len(a) != len(ref) {
				return "Your sentence is not the hidden one: its length differs."
			}
			return fmt.Sprintf("Your sentence is not the hidden one: %.0f%% of its characters are right.", 100*score)
		},
	})
}

// emojiNormal trims an answer, drops quotes around it and writes every
// run of white space as one space.
func emojiNormal(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range [][2]string{{`"`, `"`}, {`'`, `'`}, {"“", "”"}} {
		if len(s) >= len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) {
			s = s[len(q[0]) : len(s)-len(q[1])]
			break
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// scoreEmojiMystery is reasoning-gym's: 1 for the sentence, the share of
// positions holding the right character when the length is right, else
// 0.01. More lenient: white space runs count as one space and quotes
// around the answer are dropped (on both sides of the comparison, as the
// reference keeps the text's line-break spacing). Lengths count code
// points, as Python's do.
func scoreEmojiMystery(answer string, it *rg.Item) float64 {
	a, ref := emojiNormal(answer), emojiNormal(it.Answer)
	if a == ref {
		return 1
	}
	ar, rr := []rune(a), []rune(ref)
	if len(ar) != len(rr) || len(rr) == 0 {
		return 0.01
	}
	right := 0
	for i := range ar {
		if ar[i] == rr[i] {
			right++
		}
	}
	return float64(right) / float64(len(rr))
}
