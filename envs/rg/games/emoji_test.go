package rggames

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// decodeEmoji is the question's hint, in Go.
func decodeEmoji(s string) string {
	_, size := utf8.DecodeRuneInString(s)
	var out []byte
	for _, r := range s[size:] {
		switch {
		case r >= 0xFE00 && r <= 0xFE0F:
			out = append(out, byte(r-0xFE00))
		case r >= 0xE0100 && r <= 0xE01EF:
			out = append(out, byte(r-0xE0100+16))
		}
	}
	return string(out)
}

func TestEmojiMysteryItems(t *testing.T) {
	r := registry(t)
	for seed := range uint64(100) {
		_, e := rgtest.Reset(t, r, "rg:emoji_mystery", nil, seed)
		it := e.Item()
		line := strings.SplitN(strings.SplitN(it.Question, "from the emoji: ", 2)[1], "\n", 2)[0]
		if got := decodeEmoji(line); got != it.Answer {
			t.Fatalf("seed %d: the hint decodes %q, answer %q", seed, got, it.Answer)
		}
		if n := countWords(it.Answer); n < 3 || n > 35 {
			t.Fatalf("seed %d: %d words in %q", seed, n, it.Answer)
		}
		if strings.Count(it.Question, "def decode(encoded_sentence):") != 2 {
			t.Fatalf("the hint is not printed twice: %q", it.Question)
		}
	}
	if n := len(emojiSentences(EmojiMysteryOptions{MinWordsInSentence: 3, MaxWordsInSentence: 35})); n != 481 {
		t.Errorf("%d sentences of 3 to 35 words, reasoning-gym has 481", n)
	}
	if got := countWords("It's 2889, the year_x: café!"); got != 6 {
		t.Errorf("countWords = %d, want 6", got)
	}
	envtest.OptionErrors(t, r, "rg:emoji_mystery", []envtest.OptionCase{
		{Options: map[string]any{"min_words_in_sentence": 0}, Option: "min_words_in_sentence"},
		{Options: map[string]any{"min_words_in_sentence": 40}, Option: "max_words_in_sentence"},
		{Options: map[string]any{"max_words_in_sentence": 151}, Option: "max_words_in_sentence"},
		{Options: map[string]any{"min_words_in_sentence": 140, "max_words_in_sentence": 150}, Option: "min_words_in_sentence"},
	})
}

func TestEmojiMysteryScore(t *testing.T) {
	it := &rg.Item{Answer: "The  year 2889 begins."}
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{"The  year 2889 begins.", 1},
		{"The year 2889 begins.", 1},
		{`"The year 2889  begins."`, 1},
		{"“The year 2889 begins.”", 1},
		{"The year 2889 begins!", 20.0 / 21},
		{"the year 2889 begins.", 20.0 / 21},
		{"The year 2889 began.", 0.01},
		{"", 0.01},
	} {
		if got := scoreEmojiMystery(c.answer, it); got != c.want {
			t.Errorf("%q scores %v, want %v", c.answer, got, c.want)
		}
	}
	if envs.Digest([]byte(year2889)) == "" || len(year2889) != 52851 {
		t.Errorf("embedded text: %d bytes", len(year2889))
	}
}
