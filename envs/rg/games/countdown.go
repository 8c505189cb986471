package rggames

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// CountdownOptions are reasoning-gym's CountdownConfig. reasoning-gym
// leaves the counts and values open; Quarry caps them at 15 numbers (its
// curriculum's top level) of up to 1000 and targets up to 10^6.
type CountdownOptions struct {
	MinNumbers int      `json:"min_numbers" range:"2,15"`
	MaxNumbers int      `json:"max_numbers" range:"2,15"`
	MinValue   int      `json:"min_value" range:"1,1000"`
	MaxValue   int      `json:"max_value" range:"1,1000"`
	MinTarget  int      `json:"min_target" range:"1,1000000"`
	MaxTarget  int      `json:"max_target" range:"1,1000000"`
	Operators  []string `json:"operators" len:"1,4"`
	Shuffle    bool     `json:"shuffle"`
}

// Validate checks reasoning-gym's assertions.
func (o CountdownOptions) Validate() error {
	switch {
	case o.MaxNumbers < o.MinNumbers:
		return optErr("max_numbers", "%d is below min_numbers %d", o.MaxNumbers, o.MinNumbers)
	case o.MaxValue < o.MinValue:
		return optErr("max_value", "%d is below min_value %d", o.MaxValue, o.MinValue)
	case o.MaxTarget < o.MinTarget:
		return optErr("max_target", "%d is below min_target %d", o.MaxTarget, o.MinTarget)
	}
	return validOps("operators", o.Operators)
}

const countdownFormat = `%s

Final answer format instructions:
1. Provide your solution as a arithmetic expression (no '=' sign).
2. Do not include the target number in the expression.
3. Use '*' for multiplication.
4. Use '/' for division.
5. Do not include any other text or formatting.
`

var countdownPrompts = []string{
	"Using all the numbers %[1]s, create an expression that equals %[2]s.\nYou can only use each number once.",
	"Find a way to make %[2]s using all of these numbers: %[1]s.\nEach number can only be used once.",
	"Calculate %[2]s using all of these numbers: %[1]s.\nEach number may be used at most once.",
}

// countdownDraws is reasoning-gym's max_attempts for an expression whose
// value lies in the target range.
const countdownDraws = 100

// countdownPuzzle is what the scorer checks against.
type countdownPuzzle struct {
	nums   []int
	target *big.Rat
}

func registerCountdown(r *envs.Registry) error {
	return rg.Register(r, rg.Task[CountdownOptions]{
		Name:        "countdown",
		Description: "reasoning-gym countdown: reach a target with an arithmetic expression using each given number once; any such expression scores 1.",
		Revision:    1,
		Defaults: CountdownOptions{
			MinNumbers: 4, MaxNumbers: 6, MinValue: 1, MaxValue: 100, MinTarget: 100, MaxTarget: 999,
			Operators: []string{"+", "-", "*", "/"}, Shuffle: true,
		},
		Generate: generateCountdown,
		Score:    scoreCountdown,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			return guessChain(rng, it.Data.(*countdownPuzzle).nums, []string{"+", "-", "*", "/"})
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			p := it.Data.(*countdownPuzzle)
			e, err := readExpr(answer)
			switch {
			case err != nil:
				return "Your answer is not an arithmetic expression (" + err.Error() + ")."
			case !sameNumbers(e.nums, p.nums):
				return "Your expression must use each of the given numbers exactly once, and no others."
			}
			return "Your expression equals " + e.value.RatString() + ", not " + p.target.RatString() + "."
		},
	})
}

// generateCountdown is reasoning-gym's: a count of numbers, then up to 100
// chains until one's value lies in the target range. Where reasoning-gym
// then fails, Quarry serves the chain whose value came closest to the
// range (its target outside the range).
func generateCountdown(rng *rand.Rand, o CountdownOptions) (rg.Item, error) {
	terms := rg.Between(rng, o.MinNumbers, o.MaxNumbers)
	lo, hi := big.NewInt(int64(o.MinTarget)), big.NewInt(int64(o.MaxTarget))
	var best chain
	var bestV, bestGap *big.Int
	for range countdownDraws {
		c, v := drawChain(rng, terms, o.MinValue, o.MaxValue, o.Operators)
		gap := new(big.Int)
		switch {
		case v.Cmp(lo) < 0:
			gap.Sub(lo, v)
		case v.Cmp(hi) > 0:
			gap.Sub(v, hi)
		}
		if bestGap == nil || gap.Cmp(bestGap) < 0 {
			best, bestV, bestGap = c, v, gap
		}
		if gap.Sign() == 0 {
			break
		}
	}
	var target any = bestV.String() // beyond an int64 only far outside the range
	if bestV.IsInt64() {
		target = bestV.Int64()
	}
	expression := best.String()
	nums := append([]int(nil), best.nums...)
	if o.Shuffle {
		rng.Shuffle(len(nums), func(i, j int) { nums[i], nums[j] = nums[j], nums[i] })
	}
	question := fmt.Sprintf(countdownPrompts[rng.IntN(len(countdownPrompts))], joinInts(nums), bestV.String())
	return rg.Item{
		Question: fmt.Sprintf(countdownFormat, question),
		Answer:   expression,
		Data:     &countdownPuzzle{nums: nums, target: new(big.Rat).SetInt(bestV)},
		Meta:     map[string]any{"numbers": nums, "target": target, "expression": expression},
	}, nil
}

// scoreCountdown is reasoning-gym's: 1 for an expression using exactly the
// given numbers whose value is the target, 0.05 for one that does not,
// 0.01 for an answer that is not an expression. Quarry computes the value
// exactly (reasoning-gym: within 10^-6 as a float) and reads ×, ÷, LaTeX's
// \times and \div, brackets and a trailing "= target".
func scoreCountdown(answer string, it *rg.Item) float64 {
	p := it.Data.(*countdownPuzzle)
	e, err := readExpr(answer)
	switch {
	case err != nil:
		return 0.01
	case !sameNumbers(e.nums, p.nums):
		return 0.05
	case e.value.Cmp(p.target) != 0:
		return 0.05
	}
	return 1
}
