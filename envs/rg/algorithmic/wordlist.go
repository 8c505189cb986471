package algorithmic

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
)

// The texts reasoning-gym's string tasks draw from (PROVENANCE.md).
var (
	//go:embed data/in_the_year_2889.txt
	novelText string
	//go:embed data/words3to10.txt.gz
	words3to10Gz []byte
	//go:embed data/words.csv
	wordsCSV string
)

var (
	novelDigest      = envs.Digest([]byte(novelText))
	words3to10Digest = envs.Digest(words3to10Gz)
	wordsCSVDigest   = envs.Digest([]byte(wordsCSV))
)

// novelWords are the matches of Python's `\b\w+\b` over the novel, in order:
// maximal runs of letters, digits and underscores (Python's \w is Unicode).
var novelWords = sync.OnceValue(func() []string { return wordTokens(novelText) })

func wordTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) })
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// isAlnum and isAlpha are Python's str.isalnum and str.isalpha.
func isAlnum(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

func isAlpha(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
}

// runeLen is Python's len of a str.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// alnumNovelWords are the novel's words that are alphanumeric (no
// underscore), the pool of letter_counting and word_sequence_reversal.
var alnumNovelWords = sync.OnceValue(func() []string {
	var out []string
	for _, w := range novelWords() {
		if isAlnum(w) {
			out = append(out, w)
		}
	}
	return out
})

// dictionary is reasoning-gym's words3to10.txt, in file order.
var dictionary = sync.OnceValue(func() []string {
	zr, err := gzip.NewReader(bytes.NewReader(words3to10Gz))
	if err != nil {
		panic("algorithmic: embedded words3to10.txt.gz: " + err.Error())
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		panic("algorithmic: embedded words3to10.txt.gz: " + err.Error())
	}
	var out []string
	for line := range strings.Lines(string(raw)) {
		if w := strings.TrimSpace(line); w != "" {
			out = append(out, w)
		}
	}
	return out
})

// ladderWords are words.csv's columns, upper-cased and sorted: index 0 holds
// the 3-letter words, 1 the 4-letter and 2 the 5-letter ones.
var ladderWords = sync.OnceValue(func() [3][]string {
	var cols [3][]string
	for i, line := range strings.Split(wordsCSV, "\n") {
		if i == 0 {
			continue // the header: 3_letter,4_letter,5_letter
		}
		for j, w := range strings.Split(strings.TrimRight(line, "\r"), ",") {
			if w = strings.ToUpper(strings.TrimSpace(w)); j < 3 && w != "" {
				cols[j] = append(cols[j], w)
			}
		}
	}
	for j := range cols {
		slices.Sort(cols[j])
		cols[j] = slices.Compact(cols[j])
	}
	return cols
})
