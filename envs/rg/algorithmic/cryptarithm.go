package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// CryptarithmOptions are reasoning-gym's CryptarithmConfig; Quarry caps
// the addends at 10.
type CryptarithmOptions struct {
	MinWords         int  `json:"min_words" range:"2,10"`
	MaxWords         int  `json:"max_words" range:"2,10"`
	AllowLeadingZero bool `json:"allow_leading_zero"`
}

// Validate is reasoning-gym's: min_words ≤ max_words.
func (o CryptarithmOptions) Validate() error {
	if o.MaxWords < o.MinWords {
		return numBelow("max_words", o.MaxWords, "min_words", o.MinWords)
	}
	return nil
}

type cryptPuzzle struct {
	words        []string // addends, then the result last
	leadingZeros bool
	letters      []string // sorted
}

var cryptarithmTask = rg.Task[CryptarithmOptions]{
	Name:        "cryptarithm",
	Description: "reasoning-gym cryptarithm: find the digit of each letter in a letter-coded column addition.",
	Revision:    1,
	Defaults:    CryptarithmOptions{MinWords: 2, MaxWords: 3},
	Generate: func(rng *rand.Rand, o CryptarithmOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinWords, o.MaxWords)
		nums := make([]int64, n)
		var total int64
		for i := range nums {
			length := numRandInt(rng, 3, 5)
			lo, hi := int64(1), int64(1)
			for range length {
				hi *= 10
			}
			if !o.AllowLeadingZero {
				lo = hi / 10
			} else {
				lo = 0
			}
			nums[i] = lo + rng.Int64N(hi-lo)
			total += nums[i]
		}
		// A random bijection from the digits in use to letters. The
		// numbers have no leading zeros (str of an integer), so no
		// leading letter stands for 0 unless a whole addend is 0.
		used := map[byte]bool{}
		for _, x := range append(slices.Clone(nums), total) {
			for _, d := range []byte(strconv.FormatInt(x, 10)) {
				used[d] = true
			}
		}
		var digits []byte
		for d := byte('0'); d <= '9'; d++ {
			if used[d] {
				digits = append(digits, d)
			}
		}
		rng.Shuffle(len(digits), func(i, j int) { digits[i], digits[j] = digits[j], digits[i] })
		pool := []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		letterOf := map[byte]byte{}
		for i, d := range digits {
			letterOf[d] = pool[i]
		}
		code := func(x int64) string {
			b := []byte(strconv.FormatInt(x, 10))
			for i := range b {
				b[i] = letterOf[b[i]]
			}
			return string(b)
		}
		p := cryptPuzzle{leadingZeros: o.AllowLeadingZero}
		width := 0
		for _, x := range append(slices.Clone(nums), total) {
			p.words = append(p.words, code(x))
			width = max(width, len(p.words[len(p.words)-1]))
		}
		var lines []string
		for i, w := range p.words[:n] {
			if i < n-1 {
				lines = append(lines, fmt.Sprintf("%*s", width+2, w))
			} else {
				lines = append(lines, fmt.Sprintf("+ %*s", width, w))
			}
		}
		lines = append(lines, strings.Repeat("-", width+2), fmt.Sprintf("%*s", width+2, p.words[n]))
		var pairs []string
		for _, d := range digits {
			pairs = append(pairs, fmt.Sprintf("%c=%c", letterOf[d], d))
			p.letters = append(p.letters, string(letterOf[d]))
		}
		slices.Sort(pairs)
		slices.Sort(p.letters)
		rule := "No leading letter can be zero.\n"
		if o.AllowLeadingZero {
			rule = "Leading letters may be zero.\n"
		}
		return rg.Item{
			Question: "Solve this cryptarithm:\n\n" + strings.Join(lines, "\n") + "\n\n" +
				"Each letter stands for a unique digit (0-9). " + rule +
				"Provide a comma separated mapping from letters to digits that satisfies the equation in your final answer. Output format: \"A=1,B=2,C=3\" (without quotes)\n",
			Answer: strings.Join(pairs, ","),
			Data:   p,
			Meta:   map[string]any{"letters": p.letters, "word_values": nums, "sum_number": total, "words_letters": p.words[:n], "result_letters": p.words[n]},
		}, nil
	},
	Score: scoreCryptarithm,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		p := it.Data.(cryptPuzzle)
		pairs := make([]string, len(p.letters))
		for i, l := range p.letters {
			pairs[i] = fmt.Sprintf("%s=%d", l, rng.IntN(10))
		}
		return strings.Join(pairs, ",")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		m, ok := cryptParse(answer)
		if !ok {
			return `Your answer is not a mapping written "A=1,B=2,…".`
		}
		return cryptCheck(it.Data.(cryptPuzzle), m)
	},
}

// cryptNormalize drops white space, upper-cases and reads ';' as ','.
func cryptNormalize(answer string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.Join(strings.Fields(answer), ""), ";", ","))
}

// cryptParse reads LETTER=DIGIT pairs separated by commas.
func cryptParse(answer string) (map[string]int, bool) {
	if len(answer) > maxNumAnswer {
		return nil, false
	}
	m := map[string]int{}
	for _, pair := range strings.Split(cryptNormalize(answer), ",") {
		l, d, ok := strings.Cut(pair, "=")
		n, err := strconv.Atoi(d)
		if !ok || err != nil || len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
			return nil, false
		}
		if _, dup := m[l]; dup {
			return nil, false
		}
		m[l] = n
	}
	return m, true
}

// cryptCheck returns "" when m solves the puzzle (every letter a distinct
// digit, no leading zero unless allowed, the sum holds), else what fails.
func cryptCheck(p cryptPuzzle, m map[string]int) string {
	if len(m) != len(p.letters) {
		return fmt.Sprintf("Your mapping has %d letters; the puzzle has %d.", len(m), len(p.letters))
	}
	seen := map[int]bool{}
	for _, l := range p.letters {
		d, ok := m[l]
		if !ok {
			return "Your mapping leaves out letter " + l + "."
		}
		if d < 0 || d > 9 {
			return "Letter " + l + " is not given a single digit."
		}
		if seen[d] {
			return "Two letters share one digit."
		}
		seen[d] = true
	}
	value := func(w string) int64 {
		var v int64
		for _, c := range w {
			v = 10*v + int64(m[string(c)])
		}
		return v
	}
	var sum int64
	for i, w := range p.words {
		if !p.leadingZeros && len(w) > 1 && m[w[:1]] == 0 {
			return "A leading letter stands for 0."
		}
		if i < len(p.words)-1 {
			sum += value(w)
		}
	}
	if sum != value(p.words[len(p.words)-1]) {
		return "With your digits the addition does not hold."
	}
	return ""
}

// scoreCryptarithm gives 1 to any mapping that solves the puzzle
// (reasoning-gym compares with its own mapping only, though a puzzle may
// have several), else reasoning-gym's credit: 0.1 when the number of
// comma-separated pairs differs from the letters', 0.15 when a pair is not
// LETTER=NUMBER, 0.3 when letters repeat, else 0.3 + 0.7 × the share of
// letters with the reference's digit. Quarry ignores white space and case,
// and reads ';' as ','.
func scoreCryptarithm(answer string, it *rg.Item) float64 {
	p := it.Data.(cryptPuzzle)
	if m, ok := cryptParse(answer); ok && cryptCheck(p, m) == "" {
		return 1
	}
	if len(answer) > maxNumAnswer {
		return 0.1
	}
	pairs := strings.Split(cryptNormalize(answer), ",")
	if len(pairs) != len(p.letters) {
		return 0.1
	}
	got := map[string]int{}
	for _, pair := range pairs {
		l, d, ok := strings.Cut(pair, "=")
		n, err := strconv.Atoi(d)
		if !ok || err != nil || strings.Contains(d, "=") {
			return 0.15
		}
		got[l] = n
	}
	if len(got) != len(p.letters) {
		return 0.3
	}
	right := 0
	for _, pair := range strings.Split(it.Answer, ",") {
		l, d, _ := strings.Cut(pair, "=")
		if n, ok := got[l]; ok && strconv.Itoa(n) == d {
			right++
		}
	}
	return 0.3 + 0.7*float64(right)/float64(len(p.letters))
}
