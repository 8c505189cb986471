package rggames

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// KakurasuOptions are reasoning-gym's KakurasuConfig (its bounds: 3 to 9
// rows and columns, p_ones 0 to 1). max_retries is capped at its default,
// 1000.
type KakurasuOptions struct {
	MinRows    int     `json:"min_rows" range:"3,9"`
	MaxRows    int     `json:"max_rows" range:"3,9"`
	MinCols    int     `json:"min_cols" range:"3,9"`
	MaxCols    int     `json:"max_cols" range:"3,9"`
	POnes      float64 `json:"p_ones" range:"0,1"`
	MaxRetries int     `json:"max_retries" range:"1,1000"`
}

func (o KakurasuOptions) Validate() error {
	if o.MinRows > o.MaxRows {
		return optErr("max_rows", "%d is below min_rows %d", o.MaxRows, o.MinRows)
	}
	if o.MinCols > o.MaxCols {
		return optErr("max_cols", "%d is below min_cols %d", o.MaxCols, o.MinCols)
	}
	return nil
}

// Node budgets of kakurasu's uniqueness checks: a check that runs out
// counts as not unique (the next grid is drawn); once the item's budget is
// spent, the grid drawn is served, as reasoning-gym serves its last retry's.
const (
	kakurasuCheckNodes = 20000
	kakurasuItemNodes  = 400000
)

// kakurasuPrompts are reasoning-gym's templates: rows, columns, row sums,
// column sums, the empty grid.
var kakurasuPrompts = []string{
	"You are given a %[1]d x %[2]d grid representing a Kukurasu puzzle. In this puzzle, you need to place 1s in the grid so that the weighted sum of each row and column matches the given constraints. The row sums are %[3]s and the column sums are %[4]s.\n1. Rules:\n  1. Each cell can contain either a 1 or an 0.\n  2. The weight of a 1 in a row is its column position (1 to %[2]d).\n  3. The weight of a 1 in a column is its row position (1 to %[1]d).\n  4. The weighted sum of each row must match the corresponding row constraint.\n  5. The weighted sum of each column must match the corresponding column constraint.\n2. Input:\n%[5]s",
	"This is a %[1]d x %[2]d Kukurasu puzzle grid. Your task is to fill in the grid with 1s and 0s such that the weighted sums match the given constraints. The row sums are %[3]s and the column sums are %[4]s.\n1. Rules:\n  1. Each cell must contain either a 1 or an 0.\n  2. In each row, a 1 in position j contributes j points to that row's sum (positions are 1-indexed).\n  3. In each column, a 1 in position i contributes i points to that column's sum (positions are 1-indexed).\n  4. The weighted sum of each row must equal its constraint value.\n  5. The weighted sum of each column must equal its constraint value.\n2. Input:\n%[5]s",
	"You're presented with a %[1]d x %[2]d Kukurasu puzzle grid. The goal is to place 1s in the grid so that the weighted sums of rows and columns match the given constraints: row sums %[3]s and column sums %[4]s.\n1. Rules:\n  1. Each cell must be filled with either a 1 or an 0.\n  2. A 1 in column j of any row contributes j points to that row's sum (j ranges from 1 to %[2]d).\n  3. A 1 in row i of any column contributes i points to that column's sum (i ranges from 1 to %[1]d).\n  4. Each row's weighted sum must match its constraint value.\n  5. Each column's weighted sum must match its constraint value.\n2. Input:\n%[5]s",
	"Below is a %[1]d x %[2]d Kukurasu puzzle grid. Your objective is to place 1s in the grid such that the weighted sums of rows and columns match the given constraints. Row sums: %[3]s. Column sums: %[4]s.\n1. Rules:\n  1. Each cell must contain either a 1 or an 0.\n  2. The weight of a 1 in a row equals its column number (1 to %[2]d).\n  3. The weight of a 1 in a column equals its row number (1 to %[1]d).\n  4. The sum of weighted 1s in each row must equal the row constraint.\n  5. The sum of weighted 1s in each column must equal the column constraint.\n2. Input:\n%[5]s",
	"Here's a %[1]d x %[2]d Kukurasu logic puzzle. You need to place 1s in the grid so that the weighted sums match the constraints. Row sums: %[3]s. Column sums: %[4]s.\n1. Rules:\n  1. Each cell can be filled with either a 1 or an 0.\n  2. A 1 in the jth position of a row contributes j points to that row's sum.\n  3. A 1 in the ith position of a column contributes i points to that column's sum.\n  4. The weighted sum of each row must equal its constraint value.\n  5. The weighted sum of each column must equal its constraint value.\n2. Input:\n%[5]s",
	"I'm presenting you with a %[1]d x %[2]d Kukurasu puzzle. Your task is to place 1s in the grid so that the weighted sums match the given constraints: row sums %[3]s and column sums %[4]s.\n1. Rules:\n  1. Each cell must be filled with either a 1 or an 0.\n  2. In each row, a 1 in position j has a weight of j (where j ranges from 1 to %[2]d).\n  3. In each column, a 1 in position i has a weight of i (where i ranges from 1 to %[1]d).\n  4. The weighted sum of each row must match its constraint.\n  5. The weighted sum of each column must match its constraint.\n2. Input:\n%[5]s",
	"Consider this %[1]d x %[2]d Kukurasu puzzle grid. You need to place 1s in the grid such that the weighted sums match the constraints. Row sums: %[3]s. Column sums: %[4]s.\n1. Rules:\n  1. Each cell must contain either a 1 or an 0.\n  2. A 1 in column position j contributes j points to its row's sum.\n  3. A 1 in row position i contributes i points to its column's sum.\n  4. Each row's weighted sum must equal its constraint value.\n  5. Each column's weighted sum must equal its constraint value.\n2. Input:\n%[5]s",
	"You have a %[1]d x %[2]d Kukurasu puzzle grid. Your goal is to place 1s in the grid so that the weighted sums match the given constraints: row sums %[3]s and column sums %[4]s.\n1. Rules:\n  1. Each cell must be filled with either a 1 or an 0.\n  2. The weight of a 1 in a row is its column position (1 to %[2]d).\n  3. The weight of a 1 in a column is its row position (1 to %[1]d).\n  4. The weighted sum of each row must match its constraint.\n  5. The weighted sum of each column must match its constraint.\n2. Input:\n%[5]s",
	"This %[1]d x %[2]d grid represents a Kukurasu puzzle. Your task is to place 1s in the grid so that the weighted sums match the constraints. Row sums: %[3]s. Column sums: %[4]s.\n1. Rules:\n  1. Each cell must contain either a 1 or an 0.\n  2. A 1 in the jth position of a row contributes j points to that row's sum.\n  3. A 1 in the ith position of a column contributes i points to that column's sum.\n  4. The weighted sum of each row must equal its constraint value.\n  5. The weighted sum of each column must equal its constraint value.\n2. Input:\n%[5]s",
	"Examine this %[1]d x %[2]d Kukurasu puzzle grid. Your objective is to place 1s in the grid such that the weighted sums match the given constraints: row sums %[3]s and column sums %[4]s.\n1. Rules:\n  1. Each cell must be filled with either a 1 or an 0.\n  2. The weight of a 1 in a row equals its column number (1 to %[2]d).\n  3. The weight of a 1 in a column equals its row number (1 to %[1]d).\n  4. The weighted sum of each row must match its constraint.\n  5. The weighted sum of each column must match its constraint.\n2. Input:\n%[5]s",
}

// kakurasuPuzzle is what the scorer checks against.
type kakurasuPuzzle struct {
	rows, cols       int
	rowSums, colSums []int
}

func registerKakurasu(r *envs.Registry) error {
	return rg.Register(r, rg.Task[KakurasuOptions]{
		Name:        "kakurasu",
		Description: "reasoning-gym kakurasu: place 1s in a grid so that each row's and column's weighted sums match; any grid that matches scores 1.",
		Revision:    1,
		Defaults:    KakurasuOptions{MinRows: 4, MaxRows: 5, MinCols: 4, MaxCols: 5, POnes: 0.3, MaxRetries: 1000},
		Generate:    generateKakurasu,
		Score: func(answer string, it *rg.Item) float64 {
			if kakurasuFault(answer, it.Data.(*kakurasuPuzzle)) != "" {
				return 0
			}
			return 1
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			p := it.Data.(*kakurasuPuzzle)
			grid := make([][]int, p.rows)
			for i := range grid {
				grid[i] = make([]int, p.cols)
				for j := range grid[i] {
					grid[i][j] = rng.IntN(2)
				}
			}
			return formatInts(grid)
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			return "Your grid does not solve the puzzle: " + kakurasuFault(answer, it.Data.(*kakurasuPuzzle)) + "."
		},
	})
}

// weightedSums are a grid's row sums (a 1 weighs its column, from 1) and
// column sums (a 1 weighs its row).
func weightedSums(grid [][]int, rows, cols int) (rowSums, colSums []int) {
	rowSums, colSums = make([]int, rows), make([]int, cols)
	for i := range rows {
		for j := range cols {
			if grid[i][j] == 1 {
				rowSums[i] += j + 1
				colSums[j] += i + 1
			}
		}
	}
	return rowSums, colSums
}

func generateKakurasu(rng *rand.Rand, o KakurasuOptions) (rg.Item, error) {
	rows, cols := rg.Between(rng, o.MinRows, o.MaxRows), rg.Between(rng, o.MinCols, o.MaxCols)
	budget := kakurasuItemNodes
	var grid [][]int
	var rowSums, colSums []int
	for retry := range o.MaxRetries {
		grid = make([][]int, rows)
		for i := range grid {
			grid[i] = make([]int, cols)
			for j := range grid[i] {
				if rng.Float64() < o.POnes {
					grid[i][j] = 1
				}
			}
		}
		// reasoning-gym's repair: every row, then every column, gets a 1.
		for i := range grid {
			if !slices.Contains(grid[i], 1) {
				grid[i][rng.IntN(cols)] = 1
			}
		}
		for j := range cols {
			empty := true
			for i := range rows {
				empty = empty && grid[i][j] == 0
			}
			if empty {
				grid[rng.IntN(rows)][j] = 1
			}
		}
		rowSums, colSums = weightedSums(grid, rows, cols)
		if retry == o.MaxRetries-1 || budget <= 0 {
			break
		}
		if sumInts(rowSums) != sumInts(colSums) {
			continue
		}
		nodes := min(kakurasuCheckNodes, budget)
		k := countKakurasu(cols, rowSums, colSums, 2, &nodes)
		budget -= min(kakurasuCheckNodes, budget) - max(nodes, 0)
		if k == 1 {
			break
		}
	}
	empty := make([][]int, rows)
	for i := range empty {
		empty[i] = make([]int, cols)
	}
	return rg.Item{
		Question: fmt.Sprintf(kakurasuPrompts[rng.IntN(len(kakurasuPrompts))], rows, cols, pyList(rowSums), pyList(colSums), formatInts(empty)),
		Answer:   formatInts(grid),
		Data:     &kakurasuPuzzle{rows: rows, cols: cols, rowSums: rowSums, colSums: colSums},
		Meta:     map[string]any{"n_rows": rows, "n_cols": cols, "p_ones": o.POnes, "row_sums": rowSums, "col_sums": colSums},
	}, nil
}

// countKakurasu counts grids with these sums up to limit, row by row over
// the patterns of each row's sum; -1 when the node budget runs out.
func countKakurasu(cols int, rowSums, colSums []int, limit int, nodes *int) int {
	patterns := make([][]uint, len(rowSums))
	for i, target := range rowSums {
		for m := uint(0); m < 1<<cols; m++ {
			s := 0
			for j := range cols {
				if m>>j&1 == 1 {
					s += j + 1
				}
			}
			if s == target {
				patterns[i] = append(patterns[i], m)
			}
		}
		if len(patterns[i]) == 0 {
			return 0
		}
	}
	remaining := append([]int(nil), colSums...)
	count := 0
	var dfs func(r int) bool // false: out of budget
	dfs = func(r int) bool {
		if r == len(rowSums) {
			for _, c := range remaining {
				if c != 0 {
					return true
				}
			}
			count++
			return true
		}
		for _, m := range patterns[r] {
			if *nodes--; *nodes < 0 {
				return false
			}
			ok := true
			for j := range cols {
				if m>>j&1 == 1 {
					remaining[j] -= r + 1
					ok = ok && remaining[j] >= 0
				}
			}
			more := !ok || dfs(r+1)
			for j := range cols {
				if m>>j&1 == 1 {
					remaining[j] += r + 1
				}
			}
			if !more {
				return false
			}
			if count >= limit {
				return true
			}
		}
		return true
	}
	if !dfs(0) {
		return -1
	}
	return count
}

// kakurasuFault says why answer does not solve p, or "". As reasoning-gym,
// a row is a line's 0 and 1 characters; Quarry also skips blank lines.
func kakurasuFault(answer string, p *kakurasuPuzzle) string {
	var grid [][]int
	for _, l := range lines(answer) {
		var row []int
		for _, c := range l {
			if c == '0' || c == '1' {
				row = append(row, int(c-'0'))
			}
		}
		grid = append(grid, row)
	}
	if len(grid) != p.rows {
		return fmt.Sprintf("it has %d rows, not %d", len(grid), p.rows)
	}
	for i, row := range grid {
		if len(row) != p.cols {
			return fmt.Sprintf("row %d has %d cells of 0 or 1, not %d", i+1, len(row), p.cols)
		}
	}
	rowSums, colSums := weightedSums(grid, p.rows, p.cols)
	for i := range rowSums {
		if rowSums[i] != p.rowSums[i] {
			return fmt.Sprintf("row %d sums to %d, not %d", i+1, rowSums[i], p.rowSums[i])
		}
	}
	for j := range colSums {
		if colSums[j] != p.colSums[j] {
			return fmt.Sprintf("column %d sums to %d, not %d", j+1, colSums[j], p.colSums[j])
		}
	}
	return ""
}

func sumInts(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
