package algorithmic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// ManipulateMatrixOptions are reasoning-gym's ManipulateMatrixConfig.
// Quarry caps the sides at 100 and the transforms at 100; the weights
// (softmax logits, as in reasoning-gym) lie in −10..10.
type ManipulateMatrixOptions struct {
	MinRows            int     `json:"min_rows" range:"2,100"`
	MinCols            int     `json:"min_cols" range:"2,100"`
	MaxRows            int     `json:"max_rows" range:"2,100"`
	MaxCols            int     `json:"max_cols" range:"2,100"`
	MinTransforms      int     `json:"min_transforms" range:"1,100"`
	MaxTransforms      int     `json:"max_transforms" range:"1,100"`
	WRotate            float64 `json:"w_rotate" range:"-10,10"`
	WHMirror           float64 `json:"w_hmirror" range:"-10,10"`
	WVMirror           float64 `json:"w_vmirror" range:"-10,10"`
	WDMirror           float64 `json:"w_dmirror" range:"-10,10"`
	WCMirror           float64 `json:"w_cmirror" range:"-10,10"`
	WMap               float64 `json:"w_map" range:"-10,10"`
	WCrop              float64 `json:"w_crop" range:"-10,10"`
	WRemoveEveryNthRow float64 `json:"w_remove_every_nth_row" range:"-10,10"`
	WRemoveEveryNthCol float64 `json:"w_remove_every_nth_col" range:"-10,10"`
	WZeroDivisible     float64 `json:"w_zero_divisible" range:"-10,10"`
}

// Validate is reasoning-gym's: min ≤ max for rows, columns and transforms.
func (o ManipulateMatrixOptions) Validate() error {
	switch {
	case o.MaxRows < o.MinRows:
		return numBelow("max_rows", o.MaxRows, "min_rows", o.MinRows)
	case o.MaxCols < o.MinCols:
		return numBelow("max_cols", o.MaxCols, "min_cols", o.MinCols)
	case o.MaxTransforms < o.MinTransforms:
		return numBelow("max_transforms", o.MaxTransforms, "min_transforms", o.MinTransforms)
	}
	return nil
}

// The transforms in reasoning-gym's order (its weights list orders crop
// before zero_divisible; its transform list after: Quarry pairs each
// transform with its own weight).
const (
	mtRotate = iota
	mtHMirror
	mtVMirror
	mtDMirror
	mtCMirror
	mtMap
	mtZeroDivisible
	mtCrop
	mtRemoveRow
	mtRemoveCol
	mtCount
)

func (o ManipulateMatrixOptions) weights() [mtCount]float64 {
	var w [mtCount]float64
	for t, x := range map[int]float64{
		mtRotate: o.WRotate, mtHMirror: o.WHMirror, mtVMirror: o.WVMirror, mtDMirror: o.WDMirror, mtCMirror: o.WCMirror,
		mtMap: o.WMap, mtZeroDivisible: o.WZeroDivisible, mtCrop: o.WCrop, mtRemoveRow: o.WRemoveEveryNthRow, mtRemoveCol: o.WRemoveEveryNthCol,
	} {
		w[t] = math.Exp(x)
	}
	return w
}

var manipulateMatrixTask = rg.Task[ManipulateMatrixOptions]{
	Name:        "manipulate_matrix",
	Description: "reasoning-gym manipulate_matrix: apply a series of rotations, mirrors, maps, crops and removals to a matrix.",
	Revision:    1,
	Defaults: ManipulateMatrixOptions{MinRows: 2, MinCols: 2, MaxRows: 10, MaxCols: 10, MinTransforms: 1, MaxTransforms: 10,
		WRotate: 1, WHMirror: 1, WVMirror: 1, WDMirror: 1, WCMirror: 1, WMap: 1, WCrop: 1, WRemoveEveryNthRow: 1, WRemoveEveryNthCol: 1, WZeroDivisible: 1},
	Generate: func(rng *rand.Rand, o ManipulateMatrixOptions) (rg.Item, error) {
		rows := numRandInt(rng, o.MinRows, o.MaxRows)
		cols := numRandInt(rng, o.MinCols, o.MaxCols)
		m := gridDigits(rng, rows, cols)
		k := numRandInt(rng, o.MinTransforms, o.MaxTransforms)
		w := o.weights()
		g := m
		ops := []string{"- Identity transformation, i.e. no change"}
		for range k {
			// reasoning-gym redraws while the drawn removal has one row or
			// column to work on; drawing among the applicable transforms
			// is the same distribution, in bounded time.
			ww := w
			if len(g) < 2 {
				ww[mtRemoveRow] = 0
			}
			if len(g[0]) < 2 {
				ww[mtRemoveCol] = 0
			}
			var op string
			g, op = manipulateOnce(rng, g, numWeighted(rng, ww[:]))
			ops = append(ops, op)
		}
		return rg.Item{
			Question: "For the following matrix:\n" + gridString(m) + "\n\nPerform the following series of operations in order:\n" + strings.Join(ops, "\n") + "\n",
			Answer:   gridString(g),
			Meta:     map[string]any{"matrix": m, "solution": g, "operations": ops[1:], "rows": rows, "cols": cols, "num_transforms": k},
		}, nil
	},
	Score:    scoreGridDefault,
	Guess:    gridGuess,
	Retry:    true,
	Feedback: gridFeedback,
}

// numWeighted draws an index with probability proportional to w.
func numWeighted(rng *rand.Rand, w []float64) int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	r := rng.Float64() * sum
	for i, x := range w {
		if r < x {
			return i
		}
		r -= x
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return i
		}
	}
	return 0
}

// manipulateOnce applies transform t (its parameters drawn from rng) and
// returns the result and reasoning-gym's instruction.
func manipulateOnce(rng *rand.Rand, g [][]int, t int) ([][]int, string) {
	rows, cols := len(g), len(g[0])
	build := func(r, c int, at func(i, j int) int) [][]int {
		out := make([][]int, r)
		for i := range out {
			out[i] = make([]int, c)
			for j := range out[i] {
				out[i][j] = at(i, j)
			}
		}
		return out
	}
	switch t {
	case mtRotate:
		deg := []int{90, 180, 270, 360}[rng.IntN(4)]
		out := g
		for range deg / 90 % 4 {
			out = gridRot90(out)
		}
		return out, fmt.Sprintf("- Rotate the matrix %d degrees", deg)
	case mtHMirror:
		return build(rows, cols, func(i, j int) int { return g[rows-1-i][j] }), "- Horizontally mirror the matrix"
	case mtVMirror:
		return build(rows, cols, func(i, j int) int { return g[i][cols-1-j] }), "- Vertically mirror the matrix"
	case mtDMirror:
		return build(cols, rows, func(i, j int) int { return g[j][i] }), "- Mirror the matrix along the diagonal"
	case mtCMirror:
		return build(cols, rows, func(i, j int) int { return g[rows-1-j][cols-1-i] }), "- Mirror the matrix along the counterdiagonal"
	case mtMap:
		a := rng.IntN(10)
		b := rng.IntN(9)
		if b >= a {
			b++
		}
		return build(rows, cols, func(i, j int) int {
			if g[i][j] == a {
				return b
			}
			return g[i][j]
		}), fmt.Sprintf("- Map each occurrence of %d to %d", a, b)
	case mtZeroDivisible:
		k := 1 + rng.IntN(9)
		return build(rows, cols, func(i, j int) int {
			if g[i][j]%k == 0 {
				return 0
			}
			return g[i][j]
		}), fmt.Sprintf("- Set all elements divisible by %d to zero", k)
	case mtCrop:
		r0 := numRandInt(rng, 1, rows)
		r1 := numRandInt(rng, r0, rows)
		c0 := numRandInt(rng, 1, cols)
		c1 := numRandInt(rng, c0, cols)
		return build(r1-r0+1, c1-c0+1, func(i, j int) int { return g[r0-1+i][c0-1+j] }),
			fmt.Sprintf("- Crop the matrix to rows %d-%d and columns %d-%d (1-indexed)", r0, r1, c0, c1)
	case mtRemoveRow:
		n := numRandInt(rng, 2, rows)
		var out [][]int
		for i, row := range g {
			if (i+1)%n != 0 {
				out = append(out, row)
			}
		}
		return out, fmt.Sprintf("- Remove every %d-%s row (1-indexed)", n, manipulateOrdinal(n))
	default: // tRemoveCol
		n := numRandInt(rng, 2, cols)
		out := make([][]int, rows)
		for i, row := range g {
			for j, x := range row {
				if (j+1)%n != 0 {
					out[i] = append(out[i], x)
				}
			}
		}
		return out, fmt.Sprintf("- Remove every %d-%s column (1-indexed)", n, manipulateOrdinal(n))
	}
}

// manipulateOrdinal is reasoning-gym's: "nd" for 2, else "th" (n ≥ 2).
func manipulateOrdinal(n int) string {
	if n == 2 {
		return "nd"
	}
	return "th"
}
