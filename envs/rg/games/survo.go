package rggames

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SurvoOptions are reasoning-gym's SurvoConfig. reasoning-gym leaves the
// board and the numbers open; Quarry caps boards at 10 (its curriculum
// stops at 7) and numbers at 1000.
type SurvoOptions struct {
	MinBoardSize int `json:"min_board_size" range:"4,10"`
	MaxBoardSize int `json:"max_board_size" range:"4,10"`
	MinEmpty     int `json:"min_empty" range:"1,81"`
	MaxEmpty     int `json:"max_empty" range:"1,81"`
	MinNum       int `json:"min_num" range:"1,1000"`
	MaxNum       int `json:"max_num" range:"1,1000"`
}

// Validate checks reasoning-gym's assertions: max_empty fits the smallest
// board's (n-1)² inner cells, min_num < max_num.
func (o SurvoOptions) Validate() error {
	switch inner := (o.MinBoardSize - 1) * (o.MinBoardSize - 1); {
	case o.MaxBoardSize < o.MinBoardSize:
		return optErr("max_board_size", "%d is below min_board_size %d", o.MaxBoardSize, o.MinBoardSize)
	case o.MaxEmpty < o.MinEmpty:
		return optErr("max_empty", "%d is below min_empty %d", o.MaxEmpty, o.MinEmpty)
	case o.MaxEmpty > inner:
		return optErr("max_empty", "%d exceeds the %d inner cells of a min_board_size %d board", o.MaxEmpty, inner, o.MinBoardSize)
	case o.MaxNum <= o.MinNum:
		return optErr("max_num", "%d must exceed min_num %d", o.MaxNum, o.MinNum)
	}
	return nil
}

// survoPrompts are reasoning-gym's templates: size, matrix, numbers.
var survoPrompts = []string{
	"Given a %[1]d*%[1]d matrix where the last element of each row and column equals the sum of the other elements in that row or column. The matrix is:\n%[2]s\nwhere some elements are replaced with 0. You have a set of numbers %[3]s that can be filled into the 0 positions to satisfy the rules. Please fill in the matrix. Each number can only be used once.",
	"You have a %[1]d*%[1]d matrix with some positions already filled with numbers and others marked with 0. The matrix is:\n%[2]s\nThe last number in each row and column represents the sum of all other numbers in that row or column. You need to fill in the 0 positions using the numbers %[3]s to satisfy these conditions. Each number can only be used once.",
	"Complete the following Survo puzzle. In this %[1]d*%[1]d matrix:\n%[2]s\nthe cells marked with 0 need to be filled with numbers. The last number in each row and column equals the sum of all other numbers in that row or column. You can use the following numbers: %[3]s. Each number can only be used once.",
	"In this %[1]d*%[1]d Survo matrix puzzle:\n%[2]s\nthe 0 cells need to be filled with numbers from the set %[3]s. The last element in each row and column is the sum of all other elements in that row or column. Each number can only be used once. Provide the completed matrix.",
	"Solve this %[1]d*%[1]d matrix puzzle:\n%[2]s\nwhere 0 represents empty cells that need to be filled. The last number in each row and column equals the sum of all other numbers in that row or column. You have the numbers %[3]s to place in the empty cells. Each number can only be used once.",
}

// survoPuzzle is what the scorer checks against.
type survoPuzzle struct {
	n       int
	puzzle  [][]int // 0 where a number goes
	numbers []int
}

func registerSurvo(r *envs.Registry) error {
	return rg.Register(r, rg.Task[SurvoOptions]{
		Name:        "survo",
		Description: "reasoning-gym survo: fill a matrix's blanks with given numbers so that each row's and column's last element is the sum of the others; any such filling scores 1.",
		Revision:    1,
		Defaults:    SurvoOptions{MinBoardSize: 4, MaxBoardSize: 5, MinEmpty: 3, MaxEmpty: 5, MinNum: 1, MaxNum: 9},
		Generate:    generateSurvo,
		Score: func(answer string, it *rg.Item) float64 {
			if survoFault(answer, it.Data.(*survoPuzzle)) != "" {
				return 0
			}
			return 1
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			p := it.Data.(*survoPuzzle)
			grid := copyGrid(p.puzzle)
			perm := rng.Perm(len(p.numbers))
			k := 0
			for i := range grid {
				for j := range grid[i] {
					if grid[i][j] == 0 && k < len(perm) {
						grid[i][j] = p.numbers[perm[k]]
						k++
					}
				}
			}
			return formatInts(grid)
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			return "Your matrix does not solve the puzzle: " + survoFault(answer, it.Data.(*survoPuzzle)) + "."
		},
	})
}

func generateSurvo(rng *rand.Rand, o SurvoOptions) (rg.Item, error) {
	n := rg.Between(rng, o.MinBoardSize, o.MaxBoardSize)
	empty := rg.Between(rng, o.MinEmpty, o.MaxEmpty)
	solution := make([][]int, n)
	for i := range solution {
		solution[i] = make([]int, n)
	}
	for i := range n - 1 {
		for j := range n - 1 {
			solution[i][j] = rg.Between(rng, o.MinNum, o.MaxNum)
			solution[i][n-1] += solution[i][j]
			solution[n-1][j] += solution[i][j]
		}
	}
	for i := range n - 1 {
		solution[n-1][n-1] += solution[i][n-1]
	}
	puzzle := copyGrid(solution)
	numbers := make([]int, empty)
	for k, pos := range rng.Perm((n - 1) * (n - 1))[:empty] {
		i, j := pos/(n-1), pos%(n-1)
		numbers[k] = puzzle[i][j]
		puzzle[i][j] = 0
	}
	return rg.Item{
		Question: fmt.Sprintf(survoPrompts[rng.IntN(len(survoPrompts))], n, formatInts(puzzle), pyList(numbers)),
		Answer:   formatInts(solution),
		Data:     &survoPuzzle{n: n, puzzle: puzzle, numbers: numbers},
		Meta:     map[string]any{"puzzle": puzzle, "candidate_numbers": numbers, "board_size": n, "num_empty": empty},
	}, nil
}

// readSurvo reads an answer's matrix: per line, the integers among its
// tokens (reasoning-gym skips the other tokens too); Quarry also splits
// tokens at commas, brackets and bars.
func readSurvo(answer string) [][]int {
	var grid [][]int
	for _, l := range lines(answer) {
		var row []int
		for _, f := range strings.FieldsFunc(l, func(r rune) bool {
			return r == ' ' || r == '\t' || r == ',' || r == '[' || r == ']' || r == '|'
		}) {
			if v, err := strconv.Atoi(f); err == nil {
				row = append(row, v)
			}
		}
		if len(row) > 0 {
			grid = append(grid, row)
		}
	}
	return grid
}

// survoFault says why answer does not solve p, or "". reasoning-gym wants
// the reference matrix; Quarry accepts any filling of the blanks with the
// given numbers that keeps the given cells and the sums (when numbers
// repeat or blanks share a row and column pattern there can be several).
func survoFault(answer string, p *survoPuzzle) string {
	grid := readSurvo(answer)
	if len(grid) != p.n {
		return fmt.Sprintf("it has %d rows, not %d", len(grid), p.n)
	}
	var used []int
	for i, row := range grid {
		if len(row) != p.n {
			return fmt.Sprintf("row %d has %d numbers, not %d", i+1, len(row), p.n)
		}
		for j, v := range row {
			switch {
			case p.puzzle[i][j] == 0:
				used = append(used, v)
			case v != p.puzzle[i][j]:
				return fmt.Sprintf("it changes the given number in row %d, column %d", i+1, j+1)
			}
		}
	}
	if !sameNumbers(used, p.numbers) {
		return "the blanks must hold exactly the given numbers, each once"
	}
	for i := range p.n - 1 {
		rs, cs := 0, 0
		for j := range p.n - 1 {
			rs += grid[i][j]
			cs += grid[j][i]
		}
		if rs != grid[i][p.n-1] {
			return fmt.Sprintf("row %d does not sum to its last element", i+1)
		}
		if cs != grid[p.n-1][i] {
			return fmt.Sprintf("column %d does not sum to its last element", i+1)
		}
	}
	return ""
}
