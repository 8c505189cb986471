package rggames

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SudokuOptions are reasoning-gym's SudokuConfig and MiniSudokuConfig: how
// many cells are emptied (its bounds: at most 64 of 81, 12 of 16).
// min_empty can be missed when emptying one more cell would make the
// solution ambiguous, as in reasoning-gym.
type SudokuOptions struct {
	MinEmpty int `json:"min_empty" range:"0,64"`
	MaxEmpty int `json:"max_empty" range:"0,64"`
}

// MiniSudokuOptions bound mini_sudoku's counts to its 16 cells.
type MiniSudokuOptions struct {
	MinEmpty int `json:"min_empty" range:"0,12"`
	MaxEmpty int `json:"max_empty" range:"0,12"`
}

func (o SudokuOptions) Validate() error     { return emptyRange(o.MinEmpty, o.MaxEmpty) }
func (o MiniSudokuOptions) Validate() error { return emptyRange(o.MinEmpty, o.MaxEmpty) }

func emptyRange(lo, hi int) error {
	if lo > hi {
		return optErr("max_empty", "%d is below min_empty %d", hi, lo)
	}
	return nil
}

// sudokuNodes bounds one uniqueness check's search; a check that runs out
// keeps the clue, so carving stays bounded and the puzzle unique.
const sudokuNodes = 20000

// sudoku is a box×box-boxed grid of side n = box², cells row-major, 0 empty.
type sudoku struct {
	box, n int
	cells  []int
}

func newSudoku(box int) *sudoku {
	return &sudoku{box: box, n: box * box, cells: make([]int, box*box*box*box)}
}

// free returns the values cell i may take (bit v-1 for value v).
func (s *sudoku) free(i int) uint {
	r, c := i/s.n, i%s.n
	var used uint
	br, bc := r/s.box*s.box, c/s.box*s.box
	for k := range s.n {
		used |= 1<<s.cells[r*s.n+k] | 1<<s.cells[k*s.n+c] |
			1<<s.cells[(br+k/s.box)*s.n+bc+k%s.box]
	}
	return (^used >> 1) & (1<<s.n - 1)
}

// fill completes the grid in cell order, smallest value first (the first
// solution reasoning-gym's backtracking finds).
func (s *sudoku) fill(nodes *int) bool {
	i := strings.IndexByte(s.digits(), '0')
	if i < 0 {
		return true
	}
	for f := s.free(i); f != 0; f &= f - 1 {
		if *nodes--; *nodes < 0 {
			return false
		}
		s.cells[i] = bits.TrailingZeros(f) + 1
		if s.fill(nodes) {
			return true
		}
	}
	s.cells[i] = 0
	return false
}

// count counts solutions up to limit, branching on the most constrained
// cell; -1 when the node budget runs out.
func (s *sudoku) count(limit int, nodes *int) int {
	best, bestFree, bestN := -1, uint(0), 99
	for i, v := range s.cells {
		if v != 0 {
			continue
		}
		f := s.free(i)
		if k := bits.OnesCount(f); k < bestN {
			best, bestFree, bestN = i, f, k
			if k == 0 {
				return 0
			}
		}
	}
	if best < 0 {
		return 1
	}
	total := 0
	for f := bestFree; f != 0; f &= f - 1 {
		if *nodes--; *nodes < 0 {
			s.cells[best] = 0
			return -1
		}
		s.cells[best] = bits.TrailingZeros(f) + 1
		k := s.count(limit-total, nodes)
		if k < 0 {
			s.cells[best] = 0
			return -1
		}
		if total += k; total >= limit {
			break
		}
	}
	s.cells[best] = 0
	return total
}

func (s *sudoku) digits() string {
	b := make([]byte, len(s.cells))
	for i, v := range s.cells {
		b[i] = byte('0' + v)
	}
	return string(b)
}

func (s *sudoku) rows(blank string) string {
	var b strings.Builder
	for i, v := range s.cells {
		switch {
		case i == 0:
		case i%s.n == 0:
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
		}
		if v == 0 {
			b.WriteString(blank)
		} else {
			b.WriteString(strconv.Itoa(v))
		}
	}
	return b.String()
}

// generateSudoku fills the diagonal boxes at random, completes the grid, and
// empties cells in random order while the solution stays unique.
func generateSudoku(rng *rand.Rand, box, minEmpty, maxEmpty int) (solution, puzzle *sudoku, err error) {
	for range 100 {
		s := newSudoku(box)
		for b := 0; b < s.n; b += box {
			perm := rng.Perm(s.n)
			for k, v := range perm {
				s.cells[(b+k/box)*s.n+b+k%box] = v + 1
			}
		}
		nodes := 1 << 20
		if s.fill(&nodes) {
			solution = s
			break
		}
	}
	if solution == nil {
		return nil, nil, errors.New("no completion of the diagonal boxes in 100 tries")
	}
	target := rg.Between(rng, minEmpty, maxEmpty)
	puzzle = &sudoku{box: box, n: solution.n, cells: append([]int(nil), solution.cells...)}
	emptied := 0
	for _, i := range rng.Perm(len(puzzle.cells)) {
		if emptied == target {
			break
		}
		saved := puzzle.cells[i]
		puzzle.cells[i] = 0
		nodes := sudokuNodes
		if puzzle.count(2, &nodes) != 1 {
			puzzle.cells[i] = saved
			continue
		}
		emptied++
	}
	return solution, puzzle, nil
}

type sudokuItem struct {
	solution *sudoku
	answer   string
}

func sudokuTask[O any](name string, box int, defaults O, empties func(O) (int, int), question func(puzzle string) string) rg.Task[O] {
	return rg.Task[O]{
		Name:        name,
		Description: fmt.Sprintf("reasoning-gym %s: solve a %dx%d Sudoku with a unique solution; partial credit per correct cell.", name, box*box, box*box),
		Revision:    1,
		Defaults:    defaults,
		Generate: func(rng *rand.Rand, o O) (rg.Item, error) {
			lo, hi := empties(o)
			sol, puz, err := generateSudoku(rng, box, lo, hi)
			if err != nil {
				return rg.Item{}, err
			}
			empty := strings.Count(puz.digits(), "0")
			answer := sol.rows("_")
			return rg.Item{
				Question: question(puz.rows("_")),
				Answer:   answer,
				Data:     &sudokuItem{solution: sol, answer: answer},
				Meta:     map[string]any{"puzzle": puz.rows("_"), "num_empty": empty},
			}, nil
		},
		Score: scoreSudoku,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			s := newSudoku(it.Data.(*sudokuItem).solution.box)
			for i := range s.cells {
				s.cells[i] = 1 + rng.IntN(s.n)
			}
			return s.rows("")
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, score float64) string {
			if score == 0 {
				return "Your answer is not a filled grid that matches the solution in any cell."
			}
			return fmt.Sprintf("Your grid is not the solution (score %.3g: the share of cells right, less a format penalty).", score)
		},
	}
}

func registerSudoku(r *envs.Registry) error {
	return rg.Register(r, sudokuTask("sudoku", 3, SudokuOptions{MinEmpty: 30, MaxEmpty: 50},
		func(o SudokuOptions) (int, int) { return o.MinEmpty, o.MaxEmpty },
		func(p string) string {
			return "Solve this Sudoku puzzle:\n" + p + "\nRespond with only your answer, formatted as the puzzle, a 9x9 grid with numbers separated by spaces, and rows separated by newlines."
		}))
}

func registerMiniSudoku(r *envs.Registry) error {
	return rg.Register(r, sudokuTask("mini_sudoku", 2, MiniSudokuOptions{MinEmpty: 8, MaxEmpty: 12},
		func(o MiniSudokuOptions) (int, int) { return o.MinEmpty, o.MaxEmpty },
		func(p string) string {
			return "In 4x4 Mini Sudoku:\n" +
				"- Each row must contain each number from 1-4 exactly once\n" +
				"- Each column must contain each number 1-4 exactly once\n" +
				"- Each 2x2 subgrid must contain each number 1-4 exactly once\n" +
				"Solve this 4x4 Mini Sudoku puzzle:\n" + p + "\n" +
				"Format your response as the puzzle above, with spaces separating each number within a row, and newlines separating rows.\n"
		}))
}

// scoreSudoku is reasoning-gym's sudoku score_answer, more lenient in two
// places. It reads the answer's lines holding exactly n digits (other
// characters ignored) as the grid's rows. A grid equal to the solution
// scores 1 whatever separates its digits (reasoning-gym gives 1 only to the
// exact layout, and 0.9 to "1,2,3,4" rows); otherwise the share of cells
// right times 0.9, times len(reference)/len(answer) when the answer is
// longer (reasoning-gym applies that length penalty to a correct answer
// too). The solution is unique, so comparing with it is checking the rules.
func scoreSudoku(answer string, it *rg.Item) float64 {
	d := it.Data.(*sudokuItem)
	return scoreDigitGrid(answer, d.solution.n, d.solution.cells, d.answer)
}

// scoreDigitGrid is the grid puzzles' partial credit (sudoku, futoshiki):
// 1 when every cell of the n × n solution is right, else the fraction of
// cells right times 0.9, times len(reference)/len(answer) when the answer
// is longer. An answer row is the digits 1–9 of a line with n of them.
func scoreDigitGrid(answer string, n int, solution []int, reference string) float64 {
	row, right := 0, 0
	for _, ln := range strings.Split(answer, "\n") {
		if row >= n {
			break
		}
		var nums []int
		for _, c := range ln {
			if c >= '1' && c <= '9' {
				nums = append(nums, int(c-'0'))
			}
		}
		if len(nums) != n {
			continue
		}
		for j, v := range nums {
			if solution[row*n+j] == v {
				right++
			}
		}
		row++
	}
	if right == len(solution) {
		return 1
	}
	score := 0.9 * float64(right) / float64(len(solution))
	if a, r := utf8.RuneCountInString(answer), utf8.RuneCountInString(reference); a > r {
		score *= float64(r) / float64(a)
	}
	return score
}
