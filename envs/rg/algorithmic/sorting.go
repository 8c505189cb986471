package algorithmic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// NumberSortingOptions are reasoning-gym's NumberSortingConfig. Quarry caps
// the list at 1000 numbers (the curriculum's largest), 8 decimals and
// values of magnitude 10^6.
type NumberSortingOptions struct {
	MinNumbers  int     `json:"min_numbers" range:"1,1000"`
	MaxNumbers  int     `json:"max_numbers" range:"1,1000"`
	MinDecimals int     `json:"min_decimals" range:"0,8"`
	MaxDecimals int     `json:"max_decimals" range:"0,8"`
	MinValue    float64 `json:"min_value" range:"-1000000,1000000"`
	MaxValue    float64 `json:"max_value" range:"-1000000,1000000"`
}

// Validate is reasoning-gym's: min ≤ max for counts and decimals, max_value
// > min_value.
func (o NumberSortingOptions) Validate() error {
	return numListValidate(o.MinNumbers, o.MaxNumbers, o.MinDecimals, o.MaxDecimals, o.MinValue, o.MaxValue)
}

func numListValidate(minN, maxN, minD, maxD int, minV, maxV float64) error {
	switch {
	case maxN < minN:
		return numBelow("max_numbers", maxN, "min_numbers", minN)
	case maxD < minD:
		return numBelow("max_decimals", maxD, "min_decimals", minD)
	case maxV <= minV:
		return numBelow("max_value", maxV, "min_value (it must exceed it)", minV)
	}
	return nil
}

const sortingInstruction = `
Please follow the instruction below:
## 1. Let all your answers be a list of numbers. Instead of reporting your answer as -69, -13, 1, 7, 11, 43, 59, 61, use ['-69', '-13', '1', '7', '11', '43', '59', '61'] instead
## 2. Convert all numbers in the square brackets as strings. For example, ['-69', '-13', '1', '7', '11', '43', '59', '61']
`

type sortingData struct {
	ascending bool
	sorted    []float64
}

var numberSortingTask = rg.Task[NumberSortingOptions]{
	Name:        "number_sorting",
	Description: "reasoning-gym number_sorting: sort a list of decimal numbers ascending or descending.",
	Revision:    1,
	Defaults:    NumberSortingOptions{MinNumbers: 3, MaxNumbers: 10, MinDecimals: 0, MaxDecimals: 2, MinValue: -100, MaxValue: 100},
	Generate: func(rng *rand.Rand, o NumberSortingOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinNumbers, o.MaxNumbers)
		nums := make([]float64, n)
		strs := make([]string, n)
		for i := range nums {
			v := numUniform(rng, o.MinValue, o.MaxValue)
			nums[i] = numPyRound(v, numRandInt(rng, o.MinDecimals, o.MaxDecimals))
			strs[i] = numPyFloat(nums[i])
		}
		asc := rng.IntN(2) == 0
		sorted := slices.Clone(nums)
		slices.Sort(sorted)
		direction := "ascending"
		if !asc {
			slices.Reverse(sorted)
			direction = "descending"
		}
		answer := make([]string, n)
		for i, v := range sorted {
			answer[i] = numPyFloat(v)
		}
		return rg.Item{
			Question: fmt.Sprintf("Sort these numbers in %s order: %s", direction, strings.Join(strs, ", ")) + sortingInstruction,
			Answer:   numPyList(answer),
			Data:     sortingData{ascending: asc, sorted: sorted},
			Meta:     map[string]any{"original_numbers": strs, "direction": direction, "sorted_numbers": answer, "numbers": n},
		}, nil
	},
	Score: scoreSorting,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		d := it.Data.(sortingData)
		g := make([]string, len(d.sorted))
		for i := range g {
			g[i] = fmt.Sprint(rng.IntN(201) - 100)
		}
		return numPyList(g)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		d := it.Data.(sortingData)
		got, ok := numParseList(answer)
		if !ok {
			return "Your answer is not a list of numbers."
		}
		if _, ok := numParseFloats(got); !ok {
			return "Your list holds something that is not a number."
		}
		if len(got) != len(d.sorted) {
			return fmt.Sprintf("Your list has %d numbers; the question has %d.", len(got), len(d.sorted))
		}
		return "Your list is not the question's numbers in the asked order."
	},
}

// scoreSorting is reasoning-gym's: the answer is a list of the same length,
// sorted in the asked direction, each number within 1 of the truth's. Quarry
// also reads the list without brackets or quotes.
func scoreSorting(answer string, it *rg.Item) float64 {
	d := it.Data.(sortingData)
	items, ok := numParseList(answer)
	if !ok || len(items) != len(d.sorted) {
		return 0
	}
	got, ok := numParseFloats(items)
	if !ok {
		return 0
	}
	for i := 1; i < len(got); i++ {
		if (d.ascending && got[i] < got[i-1]) || (!d.ascending && got[i] > got[i-1]) {
			return 0
		}
	}
	for i, v := range got {
		if math.Abs(v-d.sorted[i]) > 1 {
			return 0
		}
	}
	return 1
}
