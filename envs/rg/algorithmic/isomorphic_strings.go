package algorithmic

import (
	"math/rand/v2"
	"strconv"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// IsomorphicStringsOptions are reasoning-gym's IsomorphicStringsConfig.
// Quarry caps the strings at 1000 characters (reasoning-gym's curriculum's
// largest level).
type IsomorphicStringsOptions struct {
	MinStringLength int     `json:"min_string_length" range:"2,1000"`
	MaxStringLength int     `json:"max_string_length" range:"2,1000"`
	PSolvable       float64 `json:"p_solvable" range:"0,1"`
}

// Validate is reasoning-gym's: 2 ≤ min_string_length ≤ max_string_length.
func (o IsomorphicStringsOptions) Validate() error {
	return minMaxError("max_string_length", o.MaxStringLength, "min_string_length", o.MinStringLength)
}

var isomorphicStringsTask = rg.Task[IsomorphicStringsOptions]{
	Name:        "isomorphic_strings",
	Description: "reasoning-gym isomorphic_strings: whether two strings are isomorphic; True or False.",
	Revision:    1,
	Defaults:    IsomorphicStringsOptions{MinStringLength: 2, MaxStringLength: 10, PSolvable: 0.5},
	Generate: func(rng *rand.Rand, o IsomorphicStringsOptions) (rg.Item, error) {
		n := drawBetween(rng, o.MinStringLength, o.MaxStringLength)
		solvable := rng.Float64() < o.PSolvable
		s, t := isomorphicPair(rng, n, solvable)
		answer := isIsomorphic(s, t)
		return rg.Item{
			Question: "Two strings are isomorphic if the characters in one string can be replaced to get the second string.\n\n" +
				"All occurrences of a character must be replaced with another character while preserving the order of characters.\n\n" +
				"No two characters may map to the same character, but a character may map to itself.\n\n" +
				"Return True if the following two strings are isomorphic, or False otherwise:\n" + s + " " + t + "\n",
			Answer: pyBool(answer),
			Meta:   map[string]any{"words": []string{s, t}, "solution": answer, "solvable": solvable, "string_length": n},
		}, nil
	},
	Score: wordsBool,
	Guess: wordsGuessBool,
}

func pyBool(b bool) string {
	s := strconv.FormatBool(b)
	return string(s[0]-'a'+'A') + s[1:]
}

// isomorphicPair is reasoning-gym's: n-1 characters through a random
// one-to-one mapping, then, for an unsolvable pair, one more pair at a
// random place that breaks the mapping.
func isomorphicPair(rng *rand.Rand, n int, solvable bool) (string, string) {
	var s, t []byte
	mapping := map[byte]byte{}
	used := map[byte]bool{}
	var keys []byte // mapping's keys in insertion order, for a seeded choice
	for range n - 1 {
		cs := byte('a' + rng.IntN(26))
		ct, ok := mapping[cs]
		if !ok {
			var free []byte
			for c := byte('a'); c <= 'z'; c++ {
				if !used[c] {
					free = append(free, c)
				}
			}
			ct = free[rng.IntN(len(free))]
			mapping[cs], used[ct] = ct, true
			keys = append(keys, cs)
		}
		s, t = append(s, cs), append(t, ct)
	}
	if !solvable {
		letter := keys[rng.IntN(len(keys))]
		conflict := byte('a' + rng.IntN(25))
		if conflict >= mapping[letter] {
			conflict++ // any letter but the mapped one
		}
		i := rng.IntN(len(s) + 1)
		s = append(s[:i], append([]byte{letter}, s[i:]...)...)
		t = append(t[:i], append([]byte{conflict}, t[i:]...)...)
	}
	return string(s), string(t)
}

func isIsomorphic(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	fwd, back := map[byte]byte{}, map[byte]byte{}
	for i := range len(s) {
		if c, ok := fwd[s[i]]; ok && c != t[i] {
			return false
		}
		if c, ok := back[t[i]]; ok && c != s[i] {
			return false
		}
		fwd[s[i]], back[t[i]] = t[i], s[i]
	}
	return true
}

// RansomNoteOptions are reasoning-gym's RansomNoteConfig. Quarry caps the
// note at 1000 letters and the magazine at 2000 (reasoning-gym: open).
type RansomNoteOptions struct {
	MinNoteLength     int     `json:"min_note_length" range:"1,1000"`
	MaxNoteLength     int     `json:"max_note_length" range:"1,1000"`
	MinMagazineLength int     `json:"min_magazine_length" range:"2,2000"`
	MaxMagazineLength int     `json:"max_magazine_length" range:"2,2000"`
	PSolvable         float64 `json:"p_solvable" range:"0,1"`
}

// Validate is reasoning-gym's: min ≤ max for both lengths, and
// max_note_length < max_magazine_length.
func (o RansomNoteOptions) Validate() error {
	if err := minMaxError("max_note_length", o.MaxNoteLength, "min_note_length", o.MinNoteLength); err != nil {
		return err
	}
	if err := minMaxError("max_magazine_length", o.MaxMagazineLength, "min_magazine_length", o.MinMagazineLength); err != nil {
		return err
	}
	if o.MaxNoteLength >= o.MaxMagazineLength {
		return &envs.OptionError{Option: "max_note_length", Reason: strconv.Itoa(o.MaxNoteLength) + " must be below max_magazine_length " + strconv.Itoa(o.MaxMagazineLength)}
	}
	return nil
}

var ransomNoteTask = rg.Task[RansomNoteOptions]{
	Name:        "ransom_note",
	Description: "reasoning-gym ransom_note: whether a note can be built from a magazine's letters; True or False.",
	Revision:    1,
	Defaults:    RansomNoteOptions{MinNoteLength: 1, MaxNoteLength: 10, MinMagazineLength: 2, MaxMagazineLength: 30, PSolvable: 0.5},
	Generate: func(rng *rand.Rand, o RansomNoteOptions) (rg.Item, error) {
		noteLen := drawBetween(rng, o.MinNoteLength, o.MaxNoteLength)
		magLen := drawBetween(rng, max(noteLen, o.MinMagazineLength), o.MaxMagazineLength)
		solvable := rng.Float64() < o.PSolvable
		note := make([]byte, noteLen)
		for i := range note {
			note[i] = byte('a' + rng.IntN(26))
		}
		magazine := append([]byte(nil), note...)
		if solvable {
			for range magLen - noteLen {
				magazine = append(magazine, byte('a'+rng.IntN(26)))
			}
		} else {
			i := rng.IntN(len(magazine))
			removed := magazine[i]
			for j, c := range magazine { // Python's list.remove: the first one
				if c == removed {
					magazine = append(magazine[:j], magazine[j+1:]...)
					break
				}
			}
			for range magLen - noteLen + 1 {
				c := byte('a' + rng.IntN(25))
				if c >= removed {
					c++
				}
				magazine = append(magazine, c)
			}
		}
		note, magazine = wordsShuffled(rng, note), wordsShuffled(rng, magazine)
		answer := canConstruct(string(note), string(magazine))
		return rg.Item{
			Question: "Given two strings representing a ransom note and a magazine, return True if you can construct the ransom note using the letters in the magazine, and False otherwise.\n\n" +
				"Each letter in the magazine string can only be used once in your ransom note.\n\n" +
				"Ransom note: " + string(note) + "\nMagazine: " + string(magazine) + "\n",
			Answer: pyBool(answer),
			Meta:   map[string]any{"ransom_note": string(note), "magazine": string(magazine), "solution": answer, "solvable": solvable},
		}, nil
	},
	Score: wordsBool,
	Guess: wordsGuessBool,
}

func canConstruct(note, magazine string) bool {
	var count [256]int
	for i := range len(magazine) {
		count[magazine[i]]++
	}
	for i := range len(note) {
		if count[note[i]]--; count[note[i]] < 0 {
			return false
		}
	}
	return true
}
