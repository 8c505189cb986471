package rggames

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Puzzle24Options are reasoning-gym's Puzzle24Config (its bounds: values
// 1 to 10, at least one operator).
type Puzzle24Options struct {
	Operators []string `json:"operators" len:"1,4"`
	MinValue  int      `json:"min_value" range:"1,10"`
	MaxValue  int      `json:"max_value" range:"1,10"`
}

// Validate checks reasoning-gym's assertions, and refuses a value range
// and operators from which no four numbers make 24 (reasoning-gym would
// draw for ever).
func (o Puzzle24Options) Validate() error {
	if err := validOps("operators", o.Operators); err != nil {
		return err
	}
	if o.MinValue > o.MaxValue {
		return optErr("max_value", "%d is below min_value %d", o.MaxValue, o.MinValue)
	}
	if len(puzzle24Chains(o, 1)) == 0 {
		return optErr("operators", "no four numbers from %d to %d make 24 with %s", o.MinValue, o.MaxValue, strings.Join(o.Operators, " "))
	}
	return nil
}

const puzzle24Template = `Make 24 using %s. You can only use each number once. You can use the operators %s.
Final answer format instructions:
1. Provide your final answer as a arithmetic expression (no '=' sign).
2. Do not include the target number in the expression.
3. Use '*' for multiplication.
4. Use '/' for division.
`

// puzzle24Draws bounds reasoning-gym's draw-until-24 loop; past it an item
// is picked among every chain that makes 24 (about 2% of draws do with the
// defaults, so the bound is not met in practice).
const puzzle24Draws = 2000

func registerPuzzle24(r *envs.Registry) error {
	return rg.Register(r, rg.Task[Puzzle24Options]{
		Name:        "puzzle24",
		Description: "reasoning-gym puzzle24: make 24 from four numbers, each used once, with + - * / and parentheses; any such expression scores 1.",
		Revision:    1,
		Defaults:    Puzzle24Options{Operators: []string{"+", "-", "*", "/"}, MinValue: 1, MaxValue: 10},
		Generate:    generatePuzzle24,
		Score: func(answer string, it *rg.Item) float64 {
			if puzzle24Fault(answer, it.Data.([]int)) != "" {
				return 0.01
			}
			return 1
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			return guessChain(rng, it.Data.([]int), []string{"+", "-", "*", "/"})
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			return "Your expression does not solve the puzzle: " + puzzle24Fault(answer, it.Data.([]int)) + "."
		},
	})
}

func generatePuzzle24(rng *rand.Rand, o Puzzle24Options) (rg.Item, error) {
	var c chain
	found := false
	for range puzzle24Draws {
		var v *big.Int
		if c, v = drawChain(rng, 4, o.MinValue, o.MaxValue, o.Operators); v.IsInt64() && v.Int64() == 24 {
			found = true
			break
		}
	}
	if !found {
		all := puzzle24Chains(o, -1)
		if len(all) == 0 {
			return rg.Item{}, fmt.Errorf("no chain makes 24") // Validate refuses these options
		}
		c = all[rng.IntN(len(all))]
	}
	return rg.Item{
		Question: fmt.Sprintf(puzzle24Template, joinInts(c.nums), strings.Join(o.Operators, ", ")),
		Answer:   c.String(),
		Data:     c.nums,
		Meta:     map[string]any{"numbers": c.nums},
	}, nil
}

// puzzle24Chains lists up to limit (all if negative) left-to-right chains
// of four numbers in [min_value, max_value] that make 24, with the
// operators reasoning-gym's draw can produce from o.Operators: a division
// only when exact, and a subtraction where a division is not.
func puzzle24Chains(o Puzzle24Options, limit int) []chain {
	var ops []byte
	for _, op := range arithOps {
		allowed := false
		for _, a := range o.Operators {
			allowed = allowed || a == string(op) || (op == '-' && a == "/")
		}
		if allowed {
			ops = append(ops, byte(op))
		}
	}
	var out []chain
	nums := make([]int, 4)
	opSeq := make([]byte, 3)
	var walk func(i, v int) bool
	walk = func(i, v int) bool {
		if i == 4 {
			if v == 24 {
				out = append(out, chain{nums: append([]int(nil), nums...), ops: append([]byte(nil), opSeq...)})
			}
			return limit < 0 || len(out) < limit
		}
		for n := o.MinValue; n <= o.MaxValue; n++ {
			nums[i] = n
			if i == 0 {
				if !walk(1, n) {
					return false
				}
				continue
			}
			for _, op := range ops {
				w := v
				switch op {
				case '+':
					w += n
				case '-':
					w -= n
				case '*':
					w *= n
				case '/':
					if v%n != 0 {
						continue
					}
					w /= n
				}
				opSeq[i-1] = op
				if !walk(i+1, w) {
					return false
				}
			}
		}
		return true
	}
	walk(0, 0)
	return out
}

// puzzle24Fault says why answer does not make 24 from nums, or "".
// reasoning-gym truncates the value to an integer and checks only that
// four numbers within the value range appear; Quarry wants exactly 24 from
// exactly the given numbers.
func puzzle24Fault(answer string, nums []int) string {
	e, err := readExpr(answer)
	switch {
	case err != nil:
		return "it is not an arithmetic expression (" + err.Error() + ")"
	case !sameNumbers(e.nums, nums):
		return "it must use each of the four given numbers exactly once"
	case e.value.Cmp(big.NewRat(24, 1)) != 0:
		return "it equals " + e.value.RatString() + ", not 24"
	}
	return ""
}

// joinInts writes ints separated by ", ", as reasoning-gym's questions do.
func joinInts(xs []int) string {
	s := pyList(xs)
	return s[1 : len(s)-1]
}
