package arithmetic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// NumberFormatOptions are reasoning-gym's NumberFormatConfig. reasoning-gym
// leaves the magnitudes open; Quarry caps the candidates at 500 (its
// curriculum's top level) and the numbers at 10^12, where a float64 still
// holds the three decimals the candidates are rounded to.
type NumberFormatOptions struct {
	MinNumCandidates int     `json:"min_num_candidates" range:"2,500"`
	MaxNumCandidates int     `json:"max_num_candidates" range:"2,500"`
	MinN             float64 `json:"min_n" range:"1,1000000000000"`
	MaxN             float64 `json:"max_n" range:"1,1000000000000"`
	MaxDelta         float64 `json:"max_delta" range:"0,1000000"`
}

// Validate is reasoning-gym's: min ≤ max candidates, min_n < max_n,
// max_delta > 0.
func (o NumberFormatOptions) Validate() error {
	switch {
	case o.MaxNumCandidates < o.MinNumCandidates:
		return below("max_num_candidates", o.MaxNumCandidates, "min_num_candidates", o.MinNumCandidates)
	case o.MaxN <= o.MinN:
		return &envs.OptionError{Option: "max_n", Reason: fmt.Sprintf("%v must exceed min_n %v", o.MaxN, o.MinN)}
	case o.MaxDelta <= 0:
		return &envs.OptionError{Option: "max_delta", Reason: fmt.Sprintf("%v must be above 0", o.MaxDelta)}
	}
	return nil
}

// round3 is Python's round(x, 3): the float nearest the correctly rounded
// decimal.
func round3(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return f
}

// uniform is Python's random.uniform.
func uniform(rng *rand.Rand, a, b float64) float64 { return a + (b-a)*rng.Float64() }

var numberFormatTask = rg.Task[NumberFormatOptions]{
	Name:        "number_format",
	Description: "reasoning-gym number_format: pick the largest or smallest of a few numbers written in plain, comma-grouped and scientific notation.",
	Revision:    1,
	Defaults:    NumberFormatOptions{MinNumCandidates: 2, MaxNumCandidates: 5, MinN: 1000, MaxN: 1e9, MaxDelta: 10},
	Generate: func(rng *rand.Rand, o NumberFormatOptions) (rg.Item, error) {
		n := rg.Between(rng, o.MinNumCandidates, o.MaxNumCandidates)
		base := round3(uniform(rng, o.MinN, o.MaxN))
		cands := []float64{base}
		for range n - 1 {
			cands = append(cands, base+round3(uniform(rng, -o.MaxDelta, o.MaxDelta)))
		}
		formatted := make([]string, n)
		for i, c := range cands {
			switch rng.IntN(3) {
			case 0:
				formatted[i] = strconv.FormatFloat(c, 'f', 6, 64) // Python's "{:f}"
			case 1:
				formatted[i] = groupThousands(pyFloat(c)) // "{:,}"
			default:
				formatted[i] = strconv.FormatFloat(c, 'e', 15, 64) // "{:.15e}"
			}
		}
		size := [...]string{"largest", "smallest"}[rng.IntN(2)]
		ans := cands[0]
		for _, c := range cands[1:] {
			if size == "largest" {
				ans = math.Max(ans, c)
			} else {
				ans = math.Min(ans, c)
			}
		}
		return rg.Item{
			Question: "Your task is to pick the largest/smallest number out of several options.\n\nYour output should be only the number of interest.\n\nNow, pick the " +
				size + " number of the following candidates: " + strings.Join(formatted, " ") + "\n",
			Answer: pyFloat(ans),
			Data:   ans,
			Meta:   map[string]any{"candidates": cands, "formatted_candidates": formatted, "size": size, "solution": ans, "num_candidates": n},
		}, nil
	},
	Score: scoreNumberFormat,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		// A number of the same magnitude, not one of the candidates.
		x := it.Data.(float64)
		return pyFloat(round3(uniform(rng, x/2, x*2)))
	},
}

// scoreNumberFormat is reasoning-gym's: 1 within 0.01 of the solution, else
// 0. Quarry also reads spaces between digits, and the answer written in any
// of the question's notations.
func scoreNumberFormat(answer string, it *rg.Item) float64 {
	x, ok := parseNumber(answer)
	if !ok {
		return 0
	}
	f, _ := x.Float64()
	if math.Abs(f-it.Data.(float64)) < 1e-2 {
		return 1
	}
	return 0
}
