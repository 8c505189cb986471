package rggames

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// NQueensOptions are reasoning-gym's NQueensConfig (its bounds: 4 ≤ n ≤ 12,
// 1 ≤ min_remove ≤ max_remove ≤ n).
type NQueensOptions struct {
	N         int `json:"n" range:"4,12"`
	MinRemove int `json:"min_remove" range:"1,12"`
	MaxRemove int `json:"max_remove" range:"1,12"`
}

func (o NQueensOptions) Validate() error {
	if o.MinRemove > o.MaxRemove {
		return optErr("max_remove", "%d is below min_remove %d", o.MaxRemove, o.MinRemove)
	}
	if o.MaxRemove > o.N {
		return optErr("max_remove", "%d exceeds n %d", o.MaxRemove, o.N)
	}
	return nil
}

const nQueensTemplate = `Your job is to complete an n x n chess board with n Queens in total, such that no two attack each other.

No two queens attack each other if they are not in the same row, column, or diagonal.

You can place a queen by replacing an underscore (_) with a Q.

Your output should be also a board in the same format as the input, with queens placed on the board by replacing underscores with the letter Q.

Given the below board of size %d x %d your job is to place %d queen(s) on the board such that no two queens attack each other.
%s
`

// nQueensPuzzle is what the scorer checks against: the queens given.
type nQueensPuzzle struct {
	n     int
	given [][]bool
}

func registerNQueens(r *envs.Registry) error {
	return rg.Register(r, rg.Task[NQueensOptions]{
		Name:        "n_queens",
		Description: "reasoning-gym n_queens: complete an n x n board with n non-attacking queens; any valid completion scores 1.",
		Revision:    1,
		Defaults:    NQueensOptions{N: 8, MinRemove: 1, MaxRemove: 7},
		Generate:    generateNQueens,
		Score:       scoreNQueens,
		Guess:       guessNQueens,
		Retry:       true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			return "Not a valid completion: " + nQueensFault(answer, it.Data.(*nQueensPuzzle)) + "."
		},
	})
}

// queenSolutions lists every solution of the n-queens problem, each as the
// queen's column per row. n ≤ 12 has 14,200.
func queenSolutions(n int) [][]int {
	var out [][]int
	cols := make([]int, n)
	var place func(row int, used, d1, d2 uint32)
	place = func(row int, used, d1, d2 uint32) {
		if row == n {
			out = append(out, append([]int(nil), cols...))
			return
		}
		for c := range n {
			if used>>c&1 == 1 || d1>>(row+c)&1 == 1 || d2>>(row-c+n)&1 == 1 {
				continue
			}
			cols[row] = c
			place(row+1, used|1<<c, d1|1<<(row+c), d2|1<<(row-c+n))
		}
	}
	place(0, 0, 0, 0)
	return out
}

func queenBoard(q [][]bool) string {
	rows := make([]string, len(q))
	for i, row := range q {
		cells := make([]string, len(row))
		for j, v := range row {
			cells[j] = "_"
			if v {
				cells[j] = "Q"
			}
		}
		rows[i] = strings.Join(cells, " ")
	}
	return strings.Join(rows, "\n")
}

func generateNQueens(rng *rand.Rand, o NQueensOptions) (rg.Item, error) {
	sols := queenSolutions(o.N)
	sol := sols[rng.IntN(len(sols))]
	removed := rg.Between(rng, o.MinRemove, o.MaxRemove)
	full := make([][]bool, o.N)
	given := make([][]bool, o.N)
	for r, c := range sol {
		full[r] = make([]bool, o.N)
		given[r] = make([]bool, o.N)
		full[r][c], given[r][c] = true, true
	}
	for _, r := range rng.Perm(o.N)[:removed] {
		given[r][sol[r]] = false
	}
	puzzle := queenBoard(given)
	return rg.Item{
		Question: fmt.Sprintf(nQueensTemplate, o.N, o.N, removed, puzzle),
		Answer:   queenBoard(full),
		Data:     &nQueensPuzzle{n: o.N, given: given},
		Meta:     map[string]any{"puzzle": puzzle, "num_removed": removed, "n": o.N},
	}, nil
}

// readQueens reads a board: rows of Q and _ separated by spaces (or not at
// all), one a line. listForm marks reasoning-gym's second form, a Python
// list of lists ([["_", "Q", ...], ...]), which it credits 0.5.
func readQueens(answer string, n int) (board [][]bool, listForm, ok bool) {
	var rows []string
	if strings.HasPrefix(answer, "[") {
		listForm = true
		rows = strings.Split(strings.Trim(answer, "[] \n"), "]")
	} else {
		rows = lines(answer)
	}
	for _, row := range rows {
		var cells []bool
		for _, c := range row {
			switch c {
			case 'Q', 'q':
				cells = append(cells, true)
			case '_':
				cells = append(cells, false)
			case ' ', '\t', ',', '[', '\'', '"':
			default:
				return nil, listForm, false
			}
		}
		if len(cells) == 0 && listForm {
			continue
		}
		board = append(board, cells)
	}
	if len(board) != n {
		return nil, listForm, false
	}
	for _, row := range board {
		if len(row) != n {
			return nil, listForm, false
		}
	}
	return board, listForm, true
}

// nQueensFault says what is wrong with answer, or "" when it solves p.
func nQueensFault(answer string, p *nQueensPuzzle) string {
	board, _, ok := readQueens(answer, p.n)
	if !ok {
		return fmt.Sprintf("the answer is not a %d x %d board of Q and _", p.n, p.n)
	}
	var qs [][2]int
	for r, row := range board {
		for c, v := range row {
			if p.given[r][c] && !v {
				return fmt.Sprintf("the queen given in row %d was removed", r+1)
			}
			if v {
				qs = append(qs, [2]int{r, c})
			}
		}
	}
	if len(qs) != p.n {
		return fmt.Sprintf("the board has %d queens, not %d", len(qs), p.n)
	}
	for i, a := range qs {
		for _, b := range qs[i+1:] {
			dr, dc := a[0]-b[0], a[1]-b[1]
			if dr == 0 || dc == 0 || dr == dc || dr == -dc {
				return "two queens attack each other"
			}
		}
	}
	return ""
}

// scoreNQueens checks the board: the given queens kept, n queens, none
// attacking another. reasoning-gym compares with the list of valid boards
// as strings; checking the rules gives the same verdict and accepts rows
// without spaces or with a lowercase q. Its Python-list form scores 0.5.
func scoreNQueens(answer string, it *rg.Item) float64 {
	p := it.Data.(*nQueensPuzzle)
	if nQueensFault(answer, p) != "" {
		return 0
	}
	if _, list, _ := readQueens(answer, p.n); list {
		return 0.5
	}
	return 1
}

func guessNQueens(rng *rand.Rand, it *rg.Item) string {
	p := it.Data.(*nQueensPuzzle)
	b := make([][]bool, p.n)
	for r := range b {
		b[r] = append([]bool(nil), p.given[r]...)
		if !strings.Contains(queenBoard(b[r:r+1]), "Q") {
			b[r][rng.IntN(p.n)] = true
		}
	}
	return queenBoard(b)
}
