// Package words holds the English words Quarry's word games draw from, with a
// short clue for each common one, embedded from words.tsv.gz. That file is
// built once from Debian's wamerican list and WordNet 3.0 by gen/build.sh;
// PROVENANCE.md says what it keeps and under which licences.
//
// Three nested pools, every word lowercase a–z of MinLength..MaxLength letters:
//
//   - Words: common nouns, verbs and adjectives (frequent in WordNet's
//     sense-tagged corpus), each with a Clue — the secrets of ordinary games;
//   - Extended: every WordNet noun/verb/adjective lemma in wamerican —
//     the secrets of hardcore games;
//   - IsWord: every word of wamerican, inflections included — what counts
//     as a real word when a game checks guesses.
//
// The data is parsed once, on first use, and read-only after that.
package words

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
)

// Lengths of the words held.
const (
	MinLength = 3
	MaxLength = 10
)

//go:embed words.tsv.gz
var raw []byte

// Words returns the common words of the given length, sorted. The slice is
// shared: callers must not modify it. It is empty outside MinLength..MaxLength.
func Words(length int) []string {
	if length < MinLength || length > MaxLength {
		return nil
	}
	return data().common[length]
}

// Extended returns the words of the given length that hardcore games draw
// from — Words plus rarer WordNet lemmas — sorted and shared like Words.
func Extended(length int) []string {
	if length < MinLength || length > MaxLength {
		return nil
	}
	return data().extended[length]
}

// IsWord reports whether w (lowercase) is an English word of the dictionary:
// any pool, inflected forms included.
func IsWord(w string) bool {
	if len(w) < MinLength || len(w) > MaxLength {
		return false
	}
	_, ok := slices.BinarySearch(data().dictionary[len(w)], w)
	return ok
}

// Clue returns a short definition of a word of Words, with the word and its
// inflections masked as Mask; ok is false for any other word.
func Clue(word string) (clue string, ok bool) {
	clue, ok = data().clues[word]
	return clue, ok
}

// Mask stands for the word (or its inflection) inside a clue.
const Mask = "___"

// Digest identifies the embedded data, for envs.Spec.DataDigest.
func Digest() string { return digest() }

var digest = sync.OnceValue(func() string { return envs.Digest(raw) })

type lexicon struct {
	common, extended, dictionary [MaxLength + 1][]string
	clues                        map[string]string
}

var data = sync.OnceValue(func() *lexicon {
	lx, err := parse(raw)
	if err != nil {
		panic(fmt.Sprintf("words: embedded words.tsv.gz: %v", err)) // a broken build, not a runtime condition
	}
	return lx
})

// parse reads the format written by gen/build.go: one sorted word a line,
// optionally followed by a tab and its pool ("x" extended, "c" common), and
// for common words another tab and the clue.
func parse(gz []byte) (*lexicon, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	text := string(b) // every word and clue below shares this one allocation
	lx := &lexicon{clues: map[string]string{}}
	prev := ""
	for n := 1; text != ""; n++ {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		w, rest, _ := strings.Cut(line, "\t")
		pool, clue, _ := strings.Cut(rest, "\t")
		if len(w) < MinLength || len(w) > MaxLength || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			return nil, fmt.Errorf("line %d: bad word %q", n, w)
		}
		if w <= prev {
			return nil, fmt.Errorf("line %d: %q is not after %q", n, w, prev)
		}
		prev = w
		lx.dictionary[len(w)] = append(lx.dictionary[len(w)], w)
		switch pool {
		case "":
		case "x":
			lx.extended[len(w)] = append(lx.extended[len(w)], w)
		case "c":
			if clue == "" {
				return nil, fmt.Errorf("line %d: common word %q has no clue", n, w)
			}
			lx.extended[len(w)] = append(lx.extended[len(w)], w)
			lx.common[len(w)] = append(lx.common[len(w)], w)
			lx.clues[w] = clue
		default:
			return nil, fmt.Errorf("line %d: unknown pool %q", n, pool)
		}
	}
	for n := range lx.dictionary {
		// Clipped, so a caller's append can never write into shared data.
		lx.common[n] = slices.Clip(lx.common[n])
		lx.extended[n] = slices.Clip(lx.extended[n])
		lx.dictionary[n] = slices.Clip(lx.dictionary[n])
	}
	return lx, nil
}
