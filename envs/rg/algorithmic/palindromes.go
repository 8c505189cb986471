package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// palindromeLetters is reasoning-gym's _generate_palindrome_letters: n
// lower-case letters that read the same both ways.
func palindromeLetters(rng *rand.Rand, n int) []byte {
	half := make([]byte, n/2)
	for i := range half {
		half[i] = byte('a' + rng.IntN(26))
	}
	out := slices.Clone(half)
	if n%2 == 1 {
		out = append(out, byte('a'+rng.IntN(26)))
	}
	slices.Reverse(half)
	return append(out, half...)
}

func isPalindrome(s string) bool {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		if s[i] != s[j] {
			return false
		}
	}
	return true
}

// PalindromeGenerationOptions are reasoning-gym's PalindromeConfig. Quarry
// caps the length at 1000 (reasoning-gym: open).
type PalindromeGenerationOptions struct {
	MinLength int `json:"min_length" range:"1,1000"`
	MaxLength int `json:"max_length" range:"1,1000"`
}

// Validate is reasoning-gym's: 1 ≤ min_length ≤ max_length.
func (o PalindromeGenerationOptions) Validate() error {
	return minMaxError("max_length", o.MaxLength, "min_length", o.MinLength)
}

var palindromeGenerationTask = rg.Task[PalindromeGenerationOptions]{
	Name:        "palindrome_generation",
	Description: "reasoning-gym palindrome_generation: form a palindrome from all the given letters; any valid one scores.",
	Revision:    1,
	Defaults:    PalindromeGenerationOptions{MinLength: 3, MaxLength: 10},
	Generate: func(rng *rand.Rand, o PalindromeGenerationOptions) (rg.Item, error) {
		n := drawBetween(rng, o.MinLength, o.MaxLength)
		letters := palindromeLetters(rng, n)
		scrambled := wordsShuffled(rng, letters)
		shown := make([]string, n)
		for i, c := range scrambled {
			shown[i] = string(c)
		}
		return rg.Item{
			Question: "Your task is, given a list of letters, to form a valid palindrome.\n\n" +
				"A palindrome is a phrase that reads the same forwards and backwards.\n\n" +
				"If there are multiple possible answers, only respond with one of them. You must use all the letters provided.\n\n" +
				"Your output should be a single string, with no spaces or punctuation.\n\n" +
				"Now, form a valid palindrome using the following letters: " + strings.Join(shown, ", ") + "\n",
			Answer: string(letters),
			Data:   string(scrambled),
			Meta:   map[string]any{"letters": shown, "length": n},
		}, nil
	},
	Score: scorePalindromeGeneration,
	Guess: func(rng *rand.Rand, it *rg.Item) string { return string(wordsShuffled(rng, []byte(it.Data.(string)))) },
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		if score == 0.02 {
			return "Your answer is not a palindrome."
		}
		if score == 0.05 {
			return "Your answer is a palindrome but does not use exactly the given letters."
		}
		return "Your answer is empty."
	},
}

// scorePalindromeGeneration is reasoning-gym's: 1 for a palindrome of
// exactly the given letters, 0.05 for another palindrome, 0.02 for any
// other non-empty string. Quarry also ignores case (as reasoning-gym does),
// white space and commas inside the answer.
func scorePalindromeGeneration(answer string, it *rg.Item) float64 {
	a := strings.Map(func(r rune) rune {
		if r == ',' || r == ' ' || r == '\t' || r == '\n' {
			return -1
		}
		return r
	}, strings.ToLower(answer))
	if a == "" {
		return 0
	}
	if !isPalindrome(a) {
		return 0.02
	}
	got, want := []byte(a), []byte(it.Data.(string))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return 0.05
	}
	return 1
}

// PalindromePartitioningOptions are reasoning-gym's
// PalindromePartitioningConfig. Quarry caps the string at 16 letters
// (reasoning-gym: open): a string of n letters has up to 2^(n-1)
// partitions, and the answer lists them all.
type PalindromePartitioningOptions struct {
	MinStringLen              int `json:"min_string_len" range:"1,16"`
	MaxStringLen              int `json:"max_string_len" range:"1,16"`
	MinSubstringPalindromeLen int `json:"min_substring_palindrome_len" range:"1,16"`
	MaxSubstringPalindromeLen int `json:"max_substring_palindrome_len" range:"1,16"`
}

// Validate is reasoning-gym's: min ≤ max for both, and
// max_substring_palindrome_len ≤ max_string_len.
func (o PalindromePartitioningOptions) Validate() error {
	if err := minMaxError("max_string_len", o.MaxStringLen, "min_string_len", o.MinStringLen); err != nil {
		return err
	}
	if err := minMaxError("max_substring_palindrome_len", o.MaxSubstringPalindromeLen, "min_substring_palindrome_len", o.MinSubstringPalindromeLen); err != nil {
		return err
	}
	if o.MaxSubstringPalindromeLen > o.MaxStringLen {
		return &envs.OptionError{Option: "max_substring_palindrome_len", Reason: fmt.Sprintf("%d exceeds max_string_len %d", o.MaxSubstringPalindromeLen, o.MaxStringLen)}
	}
	return nil
}

// palindromePartitions lists every partition of s into palindromes, in
// reasoning-gym's order: depth first, shortest first piece first, then
// stably sorted by first piece.
func palindromePartitions(s string) [][]string {
	var out [][]string
	var cur []string
	var walk func(i int)
	walk = func(i int) {
		if i == len(s) {
			out = append(out, slices.Clone(cur))
			return
		}
		for j := i + 1; j <= len(s); j++ {
			if isPalindrome(s[i:j]) {
				cur = append(cur, s[i:j])
				walk(j)
				cur = cur[:len(cur)-1]
			}
		}
	}
	walk(0)
	slices.SortStableFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return out
}

type partitionData struct {
	s     string
	parts [][]string
}

var palindromePartitioningTask = rg.Task[PalindromePartitioningOptions]{
	Name:        "palindrome_partitioning",
	Description: "reasoning-gym palindrome_partitioning: every partition of a string into palindromes; a JSON list of lists.",
	Revision:    1,
	Defaults:    PalindromePartitioningOptions{MinStringLen: 5, MaxStringLen: 15, MinSubstringPalindromeLen: 1, MaxSubstringPalindromeLen: 5},
	Generate: func(rng *rand.Rand, o PalindromePartitioningOptions) (rg.Item, error) {
		n := drawBetween(rng, o.MinStringLen, o.MaxStringLen)
		var b []byte
		for len(b) < n {
			k := min(n-len(b), drawBetween(rng, o.MinSubstringPalindromeLen, o.MaxSubstringPalindromeLen))
			b = append(b, palindromeLetters(rng, k)...)
		}
		s := string(b)
		parts := palindromePartitions(s)
		return rg.Item{
			Question: "Given a string, partition it such that every substring is a palindrome.\n\n" +
				"A palindrome is a word that reads the same backward as forward.\n\n" +
				"You may return all possible palindrome partitioning in any order.\n\n" +
				`Your output should be a list of lists, where each list represents a palindrome partition, e.g. [["a","a","b"],["aa","b"]].` + "\n\n" +
				"Partition the following string into palindromes: " + s + "\n",
			Answer: pyJSONLists(parts),
			Data:   partitionData{s: s, parts: parts},
			Meta:   map[string]any{"string": s, "string_len": n, "partitions": len(parts)},
		}, nil
	},
	Score: scorePalindromePartitioning,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		s := it.Data.(partitionData).s
		var guess [][]string
		for range 1 + rng.IntN(3) {
			var p []string
			for i := 0; i < len(s); {
				j := i + 1 + rng.IntN(min(3, len(s)-i))
				p, i = append(p, s[i:j]), j
			}
			guess = append(guess, p)
		}
		return pyJSONLists(guess)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		got, ok := parseJSONLists(answer)
		if !ok {
			return `Your answer is not a list of lists of strings, e.g. [["a","a","b"],["aa","b"]].`
		}
		d := it.Data.(partitionData)
		valid := 0
		for _, p := range got {
			if strings.Join(p, "") == d.s && !slices.ContainsFunc(p, func(x string) bool { return x == "" || !isPalindrome(x) }) {
				valid++
			}
		}
		return fmt.Sprintf("Your answer is incorrect: %d of your %d lists are palindrome partitions of the string, and the set is not complete or has repeats or invalid lists.", valid, len(got))
	},
}

// scorePalindromePartitioning is reasoning-gym's: 1 when the answer's set
// of partitions is the set of all of them (order and repeats ignored), else
// 0. Quarry also accepts Python's single quotes.
func scorePalindromePartitioning(answer string, it *rg.Item) float64 {
	got, ok := parseJSONLists(answer)
	if !ok {
		return 0
	}
	set := func(ps [][]string) map[string]bool {
		m := map[string]bool{}
		for _, p := range ps {
			m[strings.Join(p, "\x00")] = true
		}
		return m
	}
	a, b := set(got), set(it.Data.(partitionData).parts)
	if len(a) != len(b) {
		return 0
	}
	for k := range a {
		if !b[k] {
			return 0
		}
	}
	return 1
}
