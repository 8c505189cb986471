package arithmetic

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// GCDOptions are reasoning-gym's GCDConfig. reasoning-gym leaves the counts
// and values open; Quarry caps them at 20 numbers of up to 10^9.
type GCDOptions struct {
	MinNumbers int   `json:"min_numbers" range:"2,20"`
	MaxNumbers int   `json:"max_numbers" range:"2,20"`
	MinValue   int64 `json:"min_value" range:"1,1000000000"`
	MaxValue   int64 `json:"max_value" range:"1,1000000000"`
}

// Validate is reasoning-gym's: max_numbers ≥ min_numbers, max_value > min_value.
func (o GCDOptions) Validate() error {
	return validateNumbers(o.MinNumbers, o.MaxNumbers, o.MinValue, o.MaxValue)
}

// LCMOptions are reasoning-gym's LCMConfig (smaller values: an LCM grows
// fast). Quarry caps them at 20 numbers of up to 10^6; the LCM is exact.
type LCMOptions struct {
	MinNumbers int   `json:"min_numbers" range:"2,20"`
	MaxNumbers int   `json:"max_numbers" range:"2,20"`
	MinValue   int64 `json:"min_value" range:"1,1000000"`
	MaxValue   int64 `json:"max_value" range:"1,1000000"`
}

// Validate is reasoning-gym's: max_numbers ≥ min_numbers, max_value > min_value.
func (o LCMOptions) Validate() error {
	return validateNumbers(o.MinNumbers, o.MaxNumbers, o.MinValue, o.MaxValue)
}

func validateNumbers(minN, maxN int, minV, maxV int64) error {
	if maxN < minN {
		return below("max_numbers", maxN, "min_numbers", minN)
	}
	if maxV <= minV {
		return &envs.OptionError{Option: "max_value", Reason: fmt.Sprintf("%d must exceed min_value %d", maxV, minV)}
	}
	return nil
}

// drawNumbers draws reasoning-gym's list: a count, then that many values.
func drawNumbers(rng *rand.Rand, minN, maxN int, minV, maxV int64) []int64 {
	nums := make([]int64, rg.Between(rng, minN, maxN))
	for i := range nums {
		nums[i] = randInt64(rng, minV, maxV)
	}
	return nums
}

func joinInts(nums []int64) string {
	s := make([]string, len(nums))
	for i, n := range nums {
		s[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(s, ", ")
}

var gcdTask = rg.Task[GCDOptions]{
	Name:        "gcd",
	Description: "reasoning-gym gcd: the greatest common divisor of a few integers.",
	Revision:    1,
	Defaults:    GCDOptions{MinNumbers: 2, MaxNumbers: 2, MinValue: 1, MaxValue: 1000},
	Generate: func(rng *rand.Rand, o GCDOptions) (rg.Item, error) {
		// reasoning-gym draws up to 3 lists, keeping the first whose GCD
		// exceeds 1 (else the last).
		var nums []int64
		var g int64
		for range 3 {
			nums = drawNumbers(rng, o.MinNumbers, o.MaxNumbers, o.MinValue, o.MaxValue)
			g = nums[0]
			for _, n := range nums[1:] {
				g = gcd64(g, n)
			}
			if g > 1 {
				break
			}
		}
		return rg.Item{
			Question: "Find the Greatest Common Divisor (GCD) of these numbers: " + joinInts(nums) + ". Give only the GCD as your final answer.",
			Answer:   strconv.FormatInt(g, 10),
			Meta:     map[string]any{"numbers": nums, "result": g, "num_terms": len(nums)},
		}, nil
	},
	Score:    scoreInteger,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return guessNear(rng, it.Answer) },
	Retry:    true,
	Feedback: numericFeedback,
}

var lcmTask = rg.Task[LCMOptions]{
	Name:        "lcm",
	Description: "reasoning-gym lcm: the least common multiple of a few integers.",
	Revision:    1,
	Defaults:    LCMOptions{MinNumbers: 2, MaxNumbers: 2, MinValue: 1, MaxValue: 100},
	Generate: func(rng *rand.Rand, o LCMOptions) (rg.Item, error) {
		// reasoning-gym draws up to 3 lists, keeping the first whose LCM is
		// below their product (else the last).
		var nums []int64
		var l *big.Int
		for range 3 {
			nums = drawNumbers(rng, o.MinNumbers, o.MaxNumbers, o.MinValue, o.MaxValue)
			l = lcmOf(nums)
			prod := big.NewInt(1)
			for _, n := range nums {
				prod.Mul(prod, big.NewInt(n))
			}
			if l.Cmp(prod) < 0 {
				break
			}
		}
		return rg.Item{
			Question: "Find the Least Common Multiple (LCM) of these numbers: " + joinInts(nums),
			Answer:   l.String(),
			Meta:     map[string]any{"numbers": nums, "result": l.String()},
		}, nil
	},
	Score:    scoreInteger,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return guessNear(rng, it.Answer) },
	Retry:    true,
	Feedback: numericFeedback,
}

func lcmOf(nums []int64) *big.Int {
	l := big.NewInt(1)
	for _, n := range nums {
		b := big.NewInt(n)
		g := new(big.Int).GCD(nil, nil, l, b)
		l.Mul(l, b.Quo(b, g))
	}
	return l
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// CountBitsOptions are reasoning-gym's CountBitsConfig. Quarry allows n up to
// 10^15 (reasoning-gym: open; default 2^31-1): a spec's numbers travel as
// JSON doubles, exact only below 2^53.
type CountBitsOptions struct {
	MinN int64 `json:"min_n" range:"1,1000000000000000"`
	MaxN int64 `json:"max_n" range:"1,1000000000000000"`
}

// Validate is reasoning-gym's: 1 ≤ min_n ≤ max_n.
func (o CountBitsOptions) Validate() error {
	if o.MaxN < o.MinN {
		return &envs.OptionError{Option: "max_n", Reason: fmt.Sprintf("%d is below min_n %d", o.MaxN, o.MinN)}
	}
	return nil
}

var countBitsTask = rg.Task[CountBitsOptions]{
	Name:        "count_bits",
	Description: "reasoning-gym count_bits: how many 1 bits are in a number's binary representation.",
	Revision:    1,
	Defaults:    CountBitsOptions{MinN: 1, MaxN: 1<<31 - 1},
	Generate: func(rng *rand.Rand, o CountBitsOptions) (rg.Item, error) {
		n := randInt64(rng, o.MinN, o.MaxN)
		c := bits.OnesCount64(uint64(n))
		return rg.Item{
			Question: fmt.Sprintf("How many 1 bits are there in the binary representation of the number %d?", n),
			Answer:   strconv.Itoa(c),
			Meta:     map[string]any{"number": n, "solution": c, "binary": strconv.FormatInt(n, 2)},
		}, nil
	},
	Score:    scoreInteger,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return strconv.Itoa(rng.IntN(64)) },
	Retry:    true,
	Feedback: numericFeedback,
}

// PrimeFactorizationOptions are reasoning-gym's PrimeFactorizationConfig.
// Quarry caps the value at 10^12, so trial division takes at most 10^6 steps.
type PrimeFactorizationOptions struct {
	MinValue int64 `json:"min_value" range:"2,1000000000000"`
	MaxValue int64 `json:"max_value" range:"2,1000000000000"`
}

// Validate is reasoning-gym's: 2 ≤ min_value ≤ max_value.
func (o PrimeFactorizationOptions) Validate() error {
	if o.MaxValue < o.MinValue {
		return &envs.OptionError{Option: "max_value", Reason: fmt.Sprintf("%d is below min_value %d", o.MaxValue, o.MinValue)}
	}
	return nil
}

var primeFactorizationTask = rg.Task[PrimeFactorizationOptions]{
	Name:        "prime_factorization",
	Description: "reasoning-gym prime_factorization: a number's prime factors, written p × q × ….",
	Revision:    1,
	Defaults:    PrimeFactorizationOptions{MinValue: 2, MaxValue: 1000},
	Generate: func(rng *rand.Rand, o PrimeFactorizationOptions) (rg.Item, error) {
		n := randInt64(rng, o.MinValue, o.MaxValue)
		fs := primeFactors(n)
		return rg.Item{
			Question: fmt.Sprintf("Find the prime factorization of %d. Write the factors separated by × (Example: for 12 the answer would be: 2 × 2 × 3)", n),
			Answer:   formatFactors(fs),
			Data:     fs,
			Meta:     map[string]any{"number": n, "factors": fs},
		}, nil
	},
	Score: scorePrimeFactors,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return formatFactors(primeFactors(2 + rng.Int64N(1000)))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		if score == 0.5 {
			return "Your factors multiply to the number, but they are not all prime."
		}
		return "Your factors do not multiply to the number."
	},
}

func primeFactors(n int64) []int64 {
	var fs []int64
	for d := int64(2); d*d <= n; d++ {
		for n%d == 0 {
			fs = append(fs, d)
			n /= d
		}
	}
	if n > 1 {
		fs = append(fs, n)
	}
	return fs
}

func formatFactors(fs []int64) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = strconv.FormatInt(f, 10)
	}
	return strings.Join(s, " × ")
}

// factorSeparators are the multiplication signs Quarry reads between
// factors; reasoning-gym reads only "×".
var factorSeparators = strings.NewReplacer("*", "×", "·", "×", "⋅", "×", "x", "×", "X", "×", `\times`, "×", `\cdot`, "×")

// parseFactors reads "2 × 2 × 3", also "2^2 × 3" (a power is its factor
// repeated, at most 64 times) and the separators above.
func parseFactors(answer string) ([]*big.Int, bool) {
	if len(answer) > maxAnswerLen {
		return nil, false
	}
	var out []*big.Int
	for _, part := range strings.Split(factorSeparators.Replace(answer), "×") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		base, exp, hasExp := strings.Cut(part, "^")
		k := 1
		if hasExp {
			var err error
			k, err = strconv.Atoi(strings.Trim(strings.TrimSpace(exp), "{}"))
			if err != nil || k < 1 || k > 64 {
				return nil, false
			}
		}
		v, ok := new(big.Int).SetString(strings.TrimSpace(base), 10)
		if !ok {
			return nil, false
		}
		for range k {
			out = append(out, v)
		}
	}
	return out, true
}

// scorePrimeFactors is reasoning-gym's: 1 for the factors in any order, 0.5
// when they multiply to the number but differ (not all prime), else 0.01.
// An answer that does not parse scores 0 (reasoning-gym raises).
func scorePrimeFactors(answer string, it *rg.Item) float64 {
	got, ok := parseFactors(answer)
	if !ok {
		return 0
	}
	want := it.Data.([]int64)
	slices.SortFunc(got, func(a, b *big.Int) int { return a.Cmp(b) })
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		same = got[i].IsInt64() && got[i].Int64() == want[i]
	}
	if same {
		return 1
	}
	p, q := big.NewInt(1), big.NewInt(1)
	for _, g := range got {
		p.Mul(p, g)
		if p.BitLen() > 128 {
			return 0.01
		}
	}
	for _, w := range want {
		q.Mul(q, big.NewInt(w))
	}
	if p.Cmp(q) == 0 {
		return 0.5
	}
	return 0.01
}
