package algorithmic

import (
	"encoding/json"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// StringInsertionOptions are reasoning-gym's StringInsertionConfig. Quarry
// caps the string at 1000 characters (reasoning-gym: open).
type StringInsertionOptions struct {
	MinStringLength int `json:"min_string_length" range:"5,1000"`
	MaxStringLength int `json:"max_string_length" range:"5,1000"`
}

// Validate is reasoning-gym's: 5 ≤ min_string_length ≤ max_string_length.
func (o StringInsertionOptions) Validate() error {
	return minMaxError("max_string_length", o.MaxStringLength, "min_string_length", o.MinStringLength)
}

// insertionRules are reasoning-gym's patterns and the letter each inserts.
var insertionRules = [...]struct{ pattern, insert string }{
	{"ABCD", "A"}, {"BCDE", "B"}, {"CDEA", "C"}, {"DEAB", "D"}, {"EABC", "E"},
}

// insertLetters is reasoning-gym's _get_answer: scanning left to right, a
// pattern is copied with its letter after it and skipped over.
func insertLetters(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		matched := false
		for _, r := range insertionRules {
			if strings.HasPrefix(s[i:], r.pattern) {
				b.WriteString(r.pattern + r.insert)
				i += len(r.pattern)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

var stringInsertionTask = rg.Task[StringInsertionOptions]{
	Name:        "string_insertion",
	Description: "reasoning-gym string_insertion: insert letters after patterns of a string over A–E.",
	Revision:    1,
	Defaults:    StringInsertionOptions{MinStringLength: 5, MaxStringLength: 20},
	Generate: func(rng *rand.Rand, o StringInsertionOptions) (rg.Item, error) {
		b := make([]byte, drawBetween(rng, o.MinStringLength, o.MaxStringLength))
		for i := range b {
			b[i] = "ABCDE"[rng.IntN(5)]
		}
		s := string(b)
		return rg.Item{
			Question: "Given a string consisting of characters A, B, C, D, and E, your job is to insert a character according to the following pattern:\n" +
				"1. If there is a substring ABCD in the string, insert the character A after the substring.\n" +
				"2. If there is a substring BCDE in the string, insert the character B after the substring.\n" +
				"3. If there is a substring CDEA in the string, insert the character C after the substring.\n" +
				"4. If there is a substring DEAB in the string, insert the character D after the substring.\n" +
				"5. If there is a substring EABC in the string, insert the character E after the substring.\n\n" +
				"Once you have inserted a character, you have to skip over the substring and the inserted character and continue the search from the next character.\n\n" +
				"Your output should be a string that has been modified according to the pattern.\n\n" +
				"Given the following string, provide the answer after inserting the characters according to the pattern: " + s + "\n",
			Answer: insertLetters(s),
			Meta:   map[string]any{"string": s, "string_length": len(s)},
		}, nil
	},
	Score: scoreStringInsertion,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		b := make([]byte, len(it.Answer))
		for i := range b {
			b[i] = "ABCDE"[rng.IntN(5)]
		}
		return string(b)
	},
	Retry: true,
}

// scoreStringInsertion is reasoning-gym's: 1 for the string, 0.1 for it as
// a list of characters (['A', 'B', …]). Quarry also gives 1 whatever the
// case and white space inside the string.
func scoreStringInsertion(answer string, it *rg.Item) float64 {
	if answer == it.Answer || strings.Join(strings.Fields(strings.ToUpper(answer)), "") == it.Answer {
		return 1
	}
	if chars, ok := parseCharList(answer); ok && strings.Join(chars, "") == it.Answer {
		return 0.1
	}
	return 0
}

// parseCharList reads a JSON or Python list of strings.
func parseCharList(s string) ([]string, bool) {
	var out []string
	if json.Unmarshal([]byte(s), &out) == nil {
		return out, true
	}
	if !strings.Contains(s, `"`) && json.Unmarshal([]byte(strings.ReplaceAll(s, "'", `"`)), &out) == nil {
		return out, true
	}
	return nil, false
}
