package algorithmic

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// BinaryAlternationOptions are reasoning-gym's BinaryAlternationConfig;
// Quarry caps the string at 10,000 bits.
type BinaryAlternationOptions struct {
	MinN      int     `json:"min_n" range:"1,10000"`
	MaxN      int     `json:"max_n" range:"1,10000"`
	PSolvable float64 `json:"p_solvable" range:"0,1"`
}

// Validate is reasoning-gym's: min_n ≤ max_n.
func (o BinaryAlternationOptions) Validate() error {
	if o.MaxN < o.MinN {
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	}
	return nil
}

var binaryAlternationTask = rg.Task[BinaryAlternationOptions]{
	Name:        "binary_alternation",
	Description: "reasoning-gym binary_alternation: the fewest swaps that make a binary string alternate, or -1.",
	Revision:    1,
	Defaults:    BinaryAlternationOptions{MinN: 10, MaxN: 30, PSolvable: 0.8},
	Generate: func(rng *rand.Rand, o BinaryAlternationOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinN, o.MaxN)
		solvable := rng.Float64() < o.PSolvable
		ones, zeros := n/2, n/2
		if n%2 == 1 {
			if rng.Float64() < 0.5 {
				ones++
			} else {
				zeros++
			}
		}
		if !solvable {
			switch {
			case ones > zeros:
				ones++
			case zeros > ones:
				zeros++
			case rng.Float64() < 0.5:
				ones += 2
			default:
				zeros += 2
			}
		}
		b := []byte(strings.Repeat("1", ones) + strings.Repeat("0", zeros))
		rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		s := string(b)
		answer := alternationSwaps(s)
		return rg.Item{
			Question: "Given a binary string, return the minimum number of character swaps to make it alternating, or -1 if it is impossible.\n\n" +
				"The string is called alternating if no two adjacent characters are equal. For example, the strings \"010\" and \"1010\" are alternating, while the string \"0100\" is not.\n\n" +
				"Any two characters may be swapped, even if they are not adjacent.\n\n" +
				"Now, determine the minimum number of swaps to make the following binary string alternating: " + s + "\n",
			Answer: strconv.Itoa(answer),
			Meta:   map[string]any{"string": s, "solution": answer, "solvable": solvable, "n": n},
		}, nil
	},
	Score: numScoreInt,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		n := len(it.Meta["string"].(string))
		return strconv.Itoa(rng.IntN(n/2+2) - 1)
	},
	Retry:    true,
	Feedback: numIntFeedback,
}

// alternationSwaps is the fewest swaps making s alternate, -1 if none do.
func alternationSwaps(s string) int {
	ones := strings.Count(s, "1")
	zeros := len(s) - ones
	misplaced := func(first byte) int {
		n := 0
		for i := 0; i < len(s); i++ {
			want := first
			if i%2 == 1 {
				want ^= 1 // '0' <-> '1'
			}
			if s[i] != want {
				n++
			}
		}
		return n / 2
	}
	switch {
	case ones-zeros > 1 || zeros-ones > 1:
		return -1
	case ones > zeros:
		return misplaced('1')
	case zeros > ones:
		return misplaced('0')
	}
	return min(misplaced('0'), misplaced('1'))
}
