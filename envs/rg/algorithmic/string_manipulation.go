package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// StringManipulationOptions are reasoning-gym's StringManipulationConfig.
// Quarry caps the string at 100 characters (reasoning-gym: open); the rule
// count is reasoning-gym's 3 to 20.
type StringManipulationOptions struct {
	MinStringLength int `json:"min_string_length" range:"5,100"`
	MaxStringLength int `json:"max_string_length" range:"5,100"`
	MinNumRules     int `json:"min_num_rules" range:"3,20"`
	MaxNumRules     int `json:"max_num_rules" range:"3,20"`
}

// Validate is reasoning-gym's: min ≤ max for the length and the rules.
func (o StringManipulationOptions) Validate() error {
	if err := minMaxError("max_string_length", o.MaxStringLength, "min_string_length", o.MinStringLength); err != nil {
		return err
	}
	return minMaxError("max_num_rules", o.MaxNumRules, "min_num_rules", o.MinNumRules)
}

type manipulationRule struct {
	text  string
	apply func(s string) (string, bool)
}

// manipulationRules are reasoning-gym's twenty rules, with Python's slice
// semantics.
var manipulationRules = [...]manipulationRule{
	{"If the string prefix is 'ab', replace it with 'ca'.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "ab"), func() string { return "ca" + s[2:] }, s)
	}},
	{"If the string suffix is 'ac', replace it with 'cb'.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "ac"), func() string { return s[:len(s)-2] + "cb" }, s)
	}},
	{"If the string prefix is 'bc', delete the first two characters and append 'aa' to the end.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "bc"), func() string { return s[2:] + "aa" }, s)
	}},
	{"If the string suffix is 'bb', delete the last two characters.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "bb"), func() string { return s[:len(s)-2] }, s)
	}},
	{"If the string prefix is 'cb', replace it with 'aa' and delete the last character.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "cb"), func() string {
			if len(s) <= 3 {
				return "aa" // s[2:-1] is empty
			}
			return "aa" + s[2:len(s)-1]
		}, s)
	}},
	{"If the string prefix is 'ca', replace it with 'bb' and append 'c' to the end.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "ca"), func() string { return "bb" + s[2:] + "c" }, s)
	}},
	{"If the string suffix is 'cc', replace it with 'b' and prepend 'a' to the start.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "cc"), func() string { return "a" + s[:len(s)-2] + "b" }, s)
	}},
	{"If the string prefix is 'aa', remove the first character.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "aa"), func() string { return s[1:] }, s)
	}},
	{"If the string contains 'abc', replace the first occurrence with 'cab'.", func(s string) (string, bool) {
		return ifThen(strings.Contains(s, "abc"), func() string { return strings.Replace(s, "abc", "cab", 1) }, s)
	}},
	{"If the string contains 'bca', delete the first occurrence entirely.", func(s string) (string, bool) {
		return ifThen(strings.Contains(s, "bca"), func() string { return strings.Replace(s, "bca", "", 1) }, s)
	}},
	{"If the string ends with 'ba', replace it with 'ab'.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "ba"), func() string { return s[:len(s)-2] + "ab" }, s)
	}},
	{"If the string starts with 'cc', remove the first two characters.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "cc"), func() string { return s[2:] }, s)
	}},
	{"If the string contains 'acb', replace the first occurrence with its reverse ('bca').", func(s string) (string, bool) {
		return ifThen(strings.Contains(s, "acb"), func() string { return strings.Replace(s, "acb", "bca", 1) }, s)
	}},
	{"If the string ends with 'ca', remove the last character.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "ca"), func() string { return s[:len(s)-1] }, s)
	}},
	{"If the string starts with 'bb', remove the second character.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "bb"), func() string { return s[:1] + s[2:] }, s)
	}},
	{"If the string ends with 'aa', replace it with 'cc'.", func(s string) (string, bool) {
		return ifThen(strings.HasSuffix(s, "aa"), func() string { return s[:len(s)-2] + "cc" }, s)
	}},
	{"If the string contains 'ca' (not at the start), remove the first occurrence found after the first character.", func(s string) (string, bool) {
		i := -1
		if len(s) > 1 {
			if j := strings.Index(s[1:], "ca"); j >= 0 {
				i = j + 1
			}
		}
		return ifThen(i >= 0, func() string { return s[:i] + s[i+2:] }, s)
	}},
	{"If the string contains an even number of 'b's (and at least one 'b'), append 'ab' at the end.", func(s string) (string, bool) {
		n := strings.Count(s, "b")
		return ifThen(n > 0 && n%2 == 0, func() string { return s + "ab" }, s)
	}},
	{"If the string length is greater than 15, remove the middle character.", func(s string) (string, bool) {
		return ifThen(len(s) > 15, func() string { return s[:len(s)/2] + s[len(s)/2+1:] }, s)
	}},
	{"If the string starts with 'ac', replace the first two characters with 'zz'.", func(s string) (string, bool) {
		return ifThen(strings.HasPrefix(s, "ac"), func() string { return "zz" + s[2:] }, s)
	}},
}

func ifThen(cond bool, then func() string, s string) (string, bool) {
	if cond {
		return then(), true
	}
	return s, false
}

// manipulationStatesCap bounds a transformation's states. reasoning-gym has
// no bound; its rules rarely run long (see TestStringManipulationStates),
// and an item that would exceed it is drawn again, as is one whose final
// string is empty.
const manipulationStatesCap = 10000

// manipulate applies the first applicable rule until none applies or a
// state repeats; ok is false past manipulationStatesCap states.
func manipulate(s string, rules []manipulationRule) (final string, states int, ok bool) {
	seen := map[string]bool{s: true}
	for len(seen) <= manipulationStatesCap {
		next, applied := s, false
		for _, r := range rules {
			if next, applied = r.apply(s); applied {
				break
			}
		}
		if !applied || seen[next] {
			return s, len(seen), true
		}
		seen[next], s = true, next
	}
	return s, len(seen), false
}

var stringManipulationTask = rg.Task[StringManipulationOptions]{
	Name:        "string_manipulation",
	Description: "reasoning-gym string_manipulation: apply ordered rewrite rules to a string until none applies or a state repeats.",
	Revision:    1,
	Defaults:    StringManipulationOptions{MinStringLength: 5, MaxStringLength: 20, MinNumRules: 3, MaxNumRules: 8},
	Generate: func(rng *rand.Rand, o StringManipulationOptions) (rg.Item, error) {
		for range 100 {
			b := make([]byte, drawBetween(rng, o.MinStringLength, o.MaxStringLength))
			for i := range b {
				b[i] = "abc"[rng.IntN(3)]
			}
			s := string(b)
			n := drawBetween(rng, o.MinNumRules, o.MaxNumRules)
			rules := make([]manipulationRule, n)
			lines := make([]string, n)
			for i, j := range drawDistinct(rng, len(manipulationRules), n) {
				rules[i] = manipulationRules[j]
				lines[i] = fmt.Sprintf("%d. %s", i+1, rules[i].text)
			}
			final, states, ok := manipulate(s, rules)
			if !ok || final == "" {
				continue // an empty answer cannot be boxed apart from no answer
			}
			return rg.Item{
				Question: "Your job is to repeatedly transform a string according to a set of rules until no further transformations can be performed, or a state is repeated.\n\n" +
					"Evaluate the following rules in order, and apply the first applicable rule to the string:\n" + strings.Join(lines, "\n") + "\n\n" +
					"Once you have applied a rule, repeat the process with the new string until no further transformations can be performed (i.e. the string doesn't change), or a state is repeated.\n" +
					"If a state is repeated, the process is terminated, and the repeated state is discarded (i.e. is not considered as the final answer) and the state before the repeated state is considered as the final answer.\n\n" +
					"Your output should be the final transformed string after applying all the rules.\n\n" +
					"Transform the following string according to the above list of rules:\n" + s + "\n",
				Answer: final,
				Data:   s,
				Meta:   map[string]any{"string": s, "states": states, "num_rules": n, "string_length": len(s)},
			}, nil
		}
		return rg.Item{}, fmt.Errorf("100 draws each ran past %d states or ended empty", manipulationStatesCap)
	},
	Score: scoreStringManipulation,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		b := make([]byte, max(1, len(it.Answer)))
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	},
	Retry: true,
}

// scoreStringManipulation: 1 for the final string whatever the case and
// white space around it; else reasoning-gym's default (the final string can
// be empty, which only an empty answer matches).
func scoreStringManipulation(answer string, it *rg.Item) float64 {
	if strings.ToLower(strings.TrimSpace(answer)) == it.Answer {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
