package rggames

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// FutoshikiOptions are reasoning-gym's FutoshikiConfig (its bounds: boards
// 4 to 9, difficulty 0 to 3).
type FutoshikiOptions struct {
	MinBoardSize  int `json:"min_board_size" range:"4,9"`
	MaxBoardSize  int `json:"max_board_size" range:"4,9"`
	MinDifficulty int `json:"min_difficulty" range:"0,3"`
	MaxDifficulty int `json:"max_difficulty" range:"0,3"`
}

func (o FutoshikiOptions) Validate() error {
	if o.MinBoardSize > o.MaxBoardSize {
		return optErr("max_board_size", "%d is below min_board_size %d", o.MaxBoardSize, o.MinBoardSize)
	}
	if o.MinDifficulty > o.MaxDifficulty {
		return optErr("max_difficulty", "%d is below min_difficulty %d", o.MaxDifficulty, o.MinDifficulty)
	}
	return nil
}

// Node budgets of the uniqueness checks while clues are removed: one
// check that runs out keeps its clue; once the item's budget is spent the
// remaining clues stay. Either way the puzzle stays unique and generation
// bounded (reasoning-gym's checks are unbounded).
const (
	futoshikiCheckNodes = 3000
	futoshikiItemNodes  = 100000
)

// futRel is one inequality: cell a < cell b when less, else a > b; a comes
// before b in row-major order and is its left or upper neighbour.
type futRel struct {
	a, b int
	less bool
}

// futoshiki is an n × n grid, cells row-major, 0 empty, with the values
// each row and column holds (bit v for value v).
type futoshiki struct {
	n          int
	cells      []int
	rows, cols []uint
	rels       []futRel
	near       [][]int // per cell, indexes into rels
}

func newFutoshiki(n int, rels []futRel) *futoshiki {
	f := &futoshiki{n: n, cells: make([]int, n*n), rows: make([]uint, n), cols: make([]uint, n), rels: rels, near: make([][]int, n*n)}
	for k, r := range rels {
		f.near[r.a] = append(f.near[r.a], k)
		f.near[r.b] = append(f.near[r.b], k)
	}
	return f
}

// set puts v (0: nothing) in cell i.
func (f *futoshiki) set(i, v int) {
	r, c := i/f.n, i%f.n
	if old := f.cells[i]; old != 0 {
		f.rows[r] &^= 1 << old
		f.cols[c] &^= 1 << old
	}
	f.cells[i] = v
	if v != 0 {
		f.rows[r] |= 1 << v
		f.cols[c] |= 1 << v
	}
}

// free returns the values cell i may take (bit v for value v).
func (f *futoshiki) free(i int) uint {
	m := (uint(1)<<(f.n+1) - 2) &^ (f.rows[i/f.n] | f.cols[i%f.n])
	for _, k := range f.near[i] {
		rel := f.rels[k]
		other, below := rel.b, rel.less // below: cell i must be below other
		if rel.b == i {
			other, below = rel.a, !rel.less
		}
		v := f.cells[other]
		switch {
		case v == 0 && below:
			m &^= 1 << f.n
		case v == 0:
			m &^= 1 << 1
		case below:
			m &= 1<<v - 1
		default:
			m &^= 1<<(v+1) - 1
		}
	}
	return m
}

// count counts solutions up to limit, branching on the most constrained
// cell; -1 when the node budget runs out.
func (f *futoshiki) count(limit int, nodes *int) int {
	best, bestFree, bestN := -1, uint(0), 99
	for i, v := range f.cells {
		if v != 0 {
			continue
		}
		m := f.free(i)
		if k := bits.OnesCount(m); k < bestN {
			best, bestFree, bestN = i, m, k
			if k <= 1 {
				break
			}
		}
	}
	if best < 0 {
		return 1
	}
	if bestN == 0 {
		return 0
	}
	total := 0
	for m := bestFree; m != 0; m &= m - 1 {
		if *nodes--; *nodes < 0 {
			f.set(best, 0)
			return -1
		}
		f.set(best, bits.TrailingZeros(m))
		k := f.count(limit-total, nodes)
		if k < 0 {
			f.set(best, 0)
			return -1
		}
		if total += k; total >= limit {
			break
		}
	}
	f.set(best, 0)
	return total
}

// latinSquare draws an n × n Latin square by filling cells in order with
// values in random order, backtracking; reasoning-gym fills rows with
// shuffled permutations. A cyclic square with rows, columns and symbols
// shuffled is the fallback should the search run long.
func latinSquare(rng *rand.Rand, n int) []int {
	cells := make([]int, n*n)
	rows, cols := make([]uint, n), make([]uint, n)
	nodes := 200000
	var fill func(i int) bool
	fill = func(i int) bool {
		if i == n*n {
			return true
		}
		r, c := i/n, i%n
		for _, v := range rng.Perm(n) {
			v++
			if (rows[r]|cols[c])>>v&1 == 1 {
				continue
			}
			if nodes--; nodes < 0 {
				return false
			}
			cells[i] = v
			rows[r] |= 1 << v
			cols[c] |= 1 << v
			if fill(i + 1) {
				return true
			}
			rows[r] &^= 1 << v
			cols[c] &^= 1 << v
		}
		cells[i] = 0
		return false
	}
	if fill(0) {
		return cells
	}
	pr, pc, ps := rng.Perm(n), rng.Perm(n), rng.Perm(n)
	for r := range n {
		for c := range n {
			cells[r*n+c] = ps[(pr[r]+pc[c])%n] + 1
		}
	}
	return cells
}

type futoshikiItem struct {
	n        int
	solution []int
	answer   string
}

func registerFutoshiki(r *envs.Registry) error {
	return rg.Register(r, rg.Task[FutoshikiOptions]{
		Name:        "futoshiki",
		Description: "reasoning-gym futoshiki: fill a Latin square obeying inequality signs between neighbours; the solution is unique; partial credit per correct cell.",
		Revision:    1,
		Defaults:    FutoshikiOptions{MinBoardSize: 4, MaxBoardSize: 9, MinDifficulty: 0, MaxDifficulty: 3},
		Generate:    generateFutoshiki,
		Score:       scoreFutoshiki,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			n := it.Data.(*futoshikiItem).n
			grid := make([][]int, n)
			for r := range grid {
				grid[r] = rng.Perm(n)
				for c := range grid[r] {
					grid[r][c]++
				}
			}
			return formatInts(grid)
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, score float64) string {
			if score == 0 {
				return "Your answer is not a filled grid that matches the solution in any cell."
			}
			return fmt.Sprintf("Your grid is not the solution (score %.3g: the share of cells right, less a format penalty).", score)
		},
	})
}

func generateFutoshiki(rng *rand.Rand, o FutoshikiOptions) (rg.Item, error) {
	n := rg.Between(rng, o.MinBoardSize, o.MaxBoardSize)
	difficulty := rg.Between(rng, o.MinDifficulty, o.MaxDifficulty)
	solution := latinSquare(rng, n)
	// reasoning-gym: each neighbour pair gets a sign with probability
	// 0.03 + 0.07 × difficulty, the right neighbour drawn before the lower.
	p := 0.03 + 0.07*float64(difficulty)
	var rels []futRel
	for r := range n {
		for c := range n {
			i := r*n + c
			if c < n-1 && rng.Float64() < p {
				rels = append(rels, futRel{a: i, b: i + 1, less: solution[i] < solution[i+1]})
			}
			if r < n-1 && rng.Float64() < p {
				rels = append(rels, futRel{a: i, b: i + n, less: solution[i] < solution[i+n]})
			}
		}
	}
	puzzle := newFutoshiki(n, rels)
	for i, v := range solution {
		puzzle.set(i, v)
	}
	removeFutoshikiClues(rng, puzzle)
	answer := futoshikiString(n, solution, rels)
	var constraints [][5]any
	for _, rel := range rels {
		sign := ">"
		if rel.less {
			sign = "<"
		}
		constraints = append(constraints, [5]any{rel.a / n, rel.a % n, rel.b / n, rel.b % n, sign})
	}
	puzzleStr := futoshikiString(n, puzzle.cells, rels)
	return rg.Item{
		Question: fmt.Sprintf("Solve the following %dx%d Futoshiki puzzle:\n\n%s\n\n", n, n, puzzleStr) +
			"Ensure your answer follows the same format as the puzzle above, just replace blanks (_) with the correct value for the cell.\n" +
			"Use < and > for horizontal constraints. Use \u2227 and \u2228 for vertical constraints.\n" +
			fmt.Sprintf("Remember, in Futoshiki each row and column must contain each number from 1 to %d exactly once.", n),
		Answer: answer,
		Data:   &futoshikiItem{n: n, solution: solution, answer: answer},
		Meta: map[string]any{
			"puzzle": puzzleStr, "constraints": constraints, "board_size": n, "difficulty_rating": difficulty,
		},
	}, nil
}

// removeFutoshikiClues is reasoning-gym's _remove_clues: empty cells in
// random order while the solution stays unique, down to a tenth of the
// cells filled, with a second pass in a new order when more than twice
// that remain.
func removeFutoshikiClues(rng *rand.Rand, f *futoshiki) {
	target := f.n * f.n / 10
	budget := futoshikiItemNodes
	filled := f.n * f.n
	pass := func() {
		for _, i := range rng.Perm(f.n * f.n) {
			if filled <= target || budget <= 0 {
				return
			}
			saved := f.cells[i]
			if saved == 0 {
				continue
			}
			f.set(i, 0)
			nodes := min(futoshikiCheckNodes, budget)
			k := f.count(2, &nodes)
			budget -= min(futoshikiCheckNodes, budget) - max(nodes, 0)
			if k != 1 {
				f.set(i, saved)
				continue
			}
			filled--
		}
	}
	pass()
	if filled > 2*target {
		pass()
	}
}

// futoshikiString writes the grid as reasoning-gym does: cells separated
// by a sign or a space, and between rows a line with ∧ (upper smaller) or
// ∨ under the cells.
func futoshikiString(n int, cells []int, rels []futRel) string {
	sign := map[[2]int]string{}
	for _, r := range rels {
		switch {
		case r.b == r.a+1 && r.less:
			sign[[2]int{r.a, r.b}] = "<"
		case r.b == r.a+1:
			sign[[2]int{r.a, r.b}] = ">"
		case r.less:
			sign[[2]int{r.a, r.b}] = "\u2227"
		default:
			sign[[2]int{r.a, r.b}] = "\u2228"
		}
	}
	get := func(a, b int) string {
		if s, ok := sign[[2]int{a, b}]; ok {
			return s
		}
		return " "
	}
	var lines []string
	for r := range n {
		var row []string
		for c := range n {
			i := r*n + c
			if cells[i] == 0 {
				row = append(row, "_")
			} else {
				row = append(row, strconv.Itoa(cells[i]))
			}
			if c < n-1 {
				row = append(row, get(i, i+1))
			}
		}
		lines = append(lines, strings.Join(row, " "))
		if r < n-1 {
			var vert []string
			for c := range n {
				vert = append(vert, get(r*n+c, r*n+c+n))
				if c < n-1 {
					vert = append(vert, " ")
				}
			}
			lines = append(lines, strings.Join(vert, " "))
		}
	}
	return strings.Join(lines, "\n")
}

// scoreFutoshiki is reasoning-gym's score_answer, more lenient as
// scoreSudoku is: the answer's lines holding exactly n digits are the
// rows (sign lines hold none); the solution in any layout scores 1
// (reasoning-gym: 1 only for its exact layout less trailing spaces, 0.9
// otherwise, and a length penalty even then); otherwise 0.9 × the share of
// cells right, times len(reference)/len(answer) when the answer is longer.
// The solution is unique, so comparing with it is checking the rules.
func scoreFutoshiki(answer string, it *rg.Item) float64 {
	d := it.Data.(*futoshikiItem)
	return scoreDigitGrid(answer, d.n, d.solution, d.answer)
}
