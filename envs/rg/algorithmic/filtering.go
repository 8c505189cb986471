package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// NumberFilteringOptions are reasoning-gym's NumberFilteringConfig, capped
// as number_sorting's.
type NumberFilteringOptions struct {
	MinNumbers  int     `json:"min_numbers" range:"1,1000"`
	MaxNumbers  int     `json:"max_numbers" range:"1,1000"`
	MinDecimals int     `json:"min_decimals" range:"0,8"`
	MaxDecimals int     `json:"max_decimals" range:"0,8"`
	MinValue    float64 `json:"min_value" range:"-1000000,1000000"`
	MaxValue    float64 `json:"max_value" range:"-1000000,1000000"`
}

// Validate is reasoning-gym's, as number_sorting's.
func (o NumberFilteringOptions) Validate() error {
	return numListValidate(o.MinNumbers, o.MaxNumbers, o.MinDecimals, o.MaxDecimals, o.MinValue, o.MaxValue)
}

var numberFilteringTask = rg.Task[NumberFilteringOptions]{
	Name:        "number_filtering",
	Description: "reasoning-gym number_filtering: keep or remove the numbers of a list larger or smaller than a threshold.",
	Revision:    1,
	Defaults:    NumberFilteringOptions{MinNumbers: 3, MaxNumbers: 10, MinDecimals: 0, MaxDecimals: 4, MinValue: -100, MaxValue: 100},
	Generate: func(rng *rand.Rand, o NumberFilteringOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinNumbers, o.MaxNumbers)
		nums := make([]float64, n)
		strs := make([]string, n)
		for i := range nums {
			v := numUniform(rng, o.MinValue, o.MaxValue)
			strs[i] = strconv.FormatFloat(v, 'f', numRandInt(rng, o.MinDecimals, o.MaxDecimals), 64)
			nums[i], _ = strconv.ParseFloat(strs[i], 64)
		}
		lo, hi := nums[0], nums[0]
		for _, v := range nums {
			lo, hi = min(lo, v), max(hi, v)
		}
		filterStr := strconv.FormatFloat(numUniform(rng, lo, hi), 'f', numRandInt(rng, o.MinDecimals, o.MaxDecimals), 64)
		filter, _ := strconv.ParseFloat(filterStr, 64)
		larger := rng.IntN(2) == 0
		keep := rng.IntN(2) == 0
		word, op := "smaller", "keep"
		if larger {
			word = "larger"
		}
		if !keep {
			op = "remove"
		}
		var result []string
		for _, v := range nums {
			bigger := v > filter
			if !larger {
				bigger = v < filter
			}
			if !keep {
				// remove larger keeps n <= filter; remove smaller keeps n >= filter
				bigger = !bigger
			}
			if bigger {
				// reasoning-gym writes each kept number as the first string
				// with its value (list.index).
				for j, w := range nums {
					if w == v {
						result = append(result, strs[j])
						break
					}
				}
			}
		}
		if result == nil {
			result = []string{}
		}
		return rg.Item{
			Question: fmt.Sprintf("%s all numbers %s than %s in this list: %s\nReturn the new list in the same format.",
				strings.ToUpper(op[:1])+op[1:], word, filterStr, numPyList(strs)),
			Answer: numPyList(result),
			Data:   result,
			Meta:   map[string]any{"original_numbers": strs, "filter_value": filterStr, "operation": op + "_" + word, "result": result, "numbers": n},
		}, nil
	},
	Score: scoreFiltering,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		strs := it.Meta["original_numbers"].([]string)
		var g []string
		for _, s := range strs {
			if rng.IntN(2) == 0 {
				g = append(g, s)
			}
		}
		return numPyList(g)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		items, ok := numParseList(answer)
		if !ok {
			return "Your answer is not a list of numbers."
		}
		if _, ok := numParseFloats(items); !ok {
			return "Your list holds something that is not a number."
		}
		return "Your list is not the filtered list, in the original order."
	},
}

// scoreFiltering is reasoning-gym's default (exact match, else the
// containment credit), lenient on form: the same numbers in the same order
// score 1 however the list and the numbers are written ("[1.50, -2]" for
// ['1.5', '-2']).
func scoreFiltering(answer string, it *rg.Item) float64 {
	want := it.Data.([]string)
	if items, ok := numParseList(answer); ok && len(items) == len(want) {
		got, ok1 := numParseFloats(items)
		exp, ok2 := numParseFloats(want)
		same := ok1 && ok2
		for i := 0; same && i < len(got); i++ {
			same = got[i] == exp[i]
		}
		if same {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}
