package algorithmic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/quarry-rl/quarry/envs/rg"
)

// PoolMatrixOptions are reasoning-gym's PoolMatrixConfig; Quarry caps the
// sides at 100 and the kernel at 10.
type PoolMatrixOptions struct {
	MinRows     int `json:"min_rows" range:"2,100"`
	MaxRows     int `json:"max_rows" range:"2,100"`
	MinCols     int `json:"min_cols" range:"2,100"`
	MaxCols     int `json:"max_cols" range:"2,100"`
	MinPoolSize int `json:"min_pool_size" range:"1,10"`
	MaxPoolSize int `json:"max_pool_size" range:"1,10"`
}

// Validate is reasoning-gym's: min ≤ max.
func (o PoolMatrixOptions) Validate() error {
	switch {
	case o.MaxRows < o.MinRows:
		return numBelow("max_rows", o.MaxRows, "min_rows", o.MinRows)
	case o.MaxCols < o.MinCols:
		return numBelow("max_cols", o.MaxCols, "min_cols", o.MinCols)
	case o.MaxPoolSize < o.MinPoolSize:
		return numBelow("max_pool_size", o.MaxPoolSize, "min_pool_size", o.MinPoolSize)
	}
	return nil
}

var poolMatrixTask = rg.Task[PoolMatrixOptions]{
	Name:        "pool_matrix",
	Description: "reasoning-gym pool_matrix: max or average pooling of a digit matrix, stride equal to the kernel.",
	// 2: feedback compares entries as numbers, within 1%.
	Revision: 2,
	Defaults: PoolMatrixOptions{MinRows: 2, MaxRows: 10, MinCols: 2, MaxCols: 10, MinPoolSize: 1, MaxPoolSize: 3},
	Generate: func(rng *rand.Rand, o PoolMatrixOptions) (rg.Item, error) {
		rows := numRandInt(rng, o.MinRows, o.MaxRows)
		cols := numRandInt(rng, o.MinCols, o.MaxCols)
		m := gridDigits(rng, rows, cols)
		k := numRandInt(rng, o.MinPoolSize, o.MaxPoolSize)
		average := rng.IntN(2) == 0
		kind := "max"
		if average {
			kind = "average"
		}
		var out [][]string
		var vals [][]float64
		for i := 0; i < rows; i += k {
			var row []string
			var vrow []float64
			for j := 0; j < cols; j += k {
				sum, n, hi := 0, 0, 0
				for a := i; a < min(i+k, rows); a++ {
					for b := j; b < min(j+k, cols); b++ {
						sum, n, hi = sum+m[a][b], n+1, max(hi, m[a][b])
					}
				}
				if average {
					v := numPyRound(float64(sum)/float64(n), 2)
					row, vrow = append(row, numPyFloat(v)), append(vrow, v)
				} else {
					row, vrow = append(row, strconv.Itoa(hi)), append(vrow, float64(hi))
				}
			}
			out, vals = append(out, row), append(vals, vrow)
		}
		return rg.Item{
			Question: "Your job is to perform max/average pooling on the given matrix.\n" +
				"The stride is equal to the kernel size, meaning there is no overlap between the pooling regions.\n\n" +
				"Your output should be a matrix in the same format as the input matrix.\n" +
				"The output matrix is smaller than the input matrix when the kernel size is greater than 1, and its elements may be floating-point numbers.\n" +
				"Give elements in the output matrix correct to 2 decimal places.\n\n" +
				fmt.Sprintf("Perform %s pooling on the following matrix with a kernel size of %d:\n", kind, k) + gridString(m) + "\n",
			Answer: gridString(out),
			Data:   vals,
			Meta:   map[string]any{"matrix": m, "pool_type": kind, "pool_size": k, "rows": rows, "cols": cols},
		}, nil
	},
	Score: scorePool,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		// A random shape: the right shape alone earns reasoning-gym's 0.1.
		return gridString(gridDigits(rng, 1+rng.IntN(5), 1+rng.IntN(5)))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		if score == 0 {
			return gridFeedback(answer, it, score)
		}
		want := it.Data.([][]float64)
		off, n := 0, 0
		for i, row := range gridTokens(answer) {
			for j, s := range row {
				n++
				if v, _ := strconv.ParseFloat(s, 64); math.Abs(v-want[i][j]) > 1e-8+1e-2*math.Abs(want[i][j]) {
					off++
				}
			}
		}
		return fmt.Sprintf("Your matrix has the right shape, but %d of its %d entries are off by more than 1%%.", off, n)
	},
}

// scorePool is reasoning-gym's: the answer read as a matrix of numbers
// (white space between cells) of the truth's shape scores 1 when every
// entry is within a relative 1% of the truth's, 0.1 when not, and 0 for
// another shape or an unreadable answer.
func scorePool(answer string, it *rg.Item) float64 {
	want := it.Data.([][]float64)
	g := gridTokens(answer)
	if len(g) != len(want) {
		return 0
	}
	close := true
	for i := range g {
		if len(g[i]) != len(want[i]) {
			return 0
		}
		for j, s := range g[i] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) {
				return 0
			}
			// numpy's allclose(truth, answer, rtol=1e-2): |a-t| ≤ 1e-8 + 0.01|t|.
			if math.Abs(float64(float32(v))-want[i][j]) > 1e-8+1e-2*math.Abs(want[i][j]) {
				close = false
			}
		}
	}
	if close {
		return 1
	}
	return 0.1
}
