package sudoku

import (
	"errors"
	"math/rand/v2"
)

// generator makes puzzles as GEM does — a random full grid by randomized
// backtracking, then cells removed in random order, each removal kept only
// if the solution stays unique — but stops at exactly the requested number
// of givens, starting over with a new order (and, after a few, a new grid)
// in the rare case the greedy pass gets stuck above it.
type generator struct {
	scale, box int
	grid       []int8
	rows, cols []uint16 // digits used, as bits 1..scale
	boxes      []uint16
}

const (
	ordersPerGrid = 4
	maxAttempts   = 256
)

var errNoPuzzle = errors.New("no puzzle with a unique solution found")

// puzzle returns a full grid and a puzzle keeping clues of its cells with
// that grid as its only solution.
func (g *generator) puzzle(rng *rand.Rand, scale, clues int) (solution, board []int8, err error) {
	g.init(scale)
	n := scale * scale
	solution = make([]int8, n)
	board = make([]int8, n)
	for attempt := range maxAttempts {
		if attempt%ordersPerGrid == 0 {
			g.reset()
			g.fill(rng, 0)
			copy(solution, g.grid)
		}
		if g.carve(rng, solution, board, n-clues) {
			return solution, board, nil
		}
	}
	return nil, nil, errNoPuzzle
}

func (g *generator) init(scale int) {
	g.scale = scale
	g.box = 2
	if scale == 9 {
		g.box = 3
	}
	n := scale * scale
	if cap(g.grid) < n {
		g.grid = make([]int8, n)
		g.rows = make([]uint16, scale)
		g.cols = make([]uint16, scale)
		g.boxes = make([]uint16, scale)
	}
	g.grid, g.rows, g.cols, g.boxes = g.grid[:n], g.rows[:scale], g.cols[:scale], g.boxes[:scale]
}

func (g *generator) reset() {
	clear(g.grid)
	clear(g.rows)
	clear(g.cols)
	clear(g.boxes)
}

func (g *generator) boxOf(i int) int {
	r, c := i/g.scale, i%g.scale
	return (r/g.box)*(g.scale/g.box) + c/g.box
}

func (g *generator) set(i int, v int8) {
	bit := uint16(1) << v
	g.grid[i] = v
	g.rows[i/g.scale] |= bit
	g.cols[i%g.scale] |= bit
	g.boxes[g.boxOf(i)] |= bit
}

func (g *generator) unset(i int) {
	bit := uint16(1) << g.grid[i]
	g.grid[i] = 0
	g.rows[i/g.scale] &^= bit
	g.cols[i%g.scale] &^= bit
	g.boxes[g.boxOf(i)] &^= bit
}

func (g *generator) used(i int) uint16 {
	return g.rows[i/g.scale] | g.cols[i%g.scale] | g.boxes[g.boxOf(i)]
}

// fill completes the grid from cell i in reading order, trying each cell's
// digits in a random order, as GEM's _fill_grid does.
func (g *generator) fill(rng *rand.Rand, i int) bool {
	if i == len(g.grid) {
		return true
	}
	var digits [9]int8
	for d := range g.scale {
		digits[d] = int8(d + 1)
	}
	ds := digits[:g.scale]
	rng.Shuffle(len(ds), func(a, b int) { ds[a], ds[b] = ds[b], ds[a] })
	used := g.used(i)
	for _, d := range ds {
		if used&(1<<d) != 0 {
			continue
		}
		g.set(i, d)
		if g.fill(rng, i+1) {
			return true
		}
		g.unset(i)
	}
	return false
}

// carve empties cells of solution in a random order, keeping each removal
// that leaves the solution unique, until target cells are empty. It reports
// whether it got there.
func (g *generator) carve(rng *rand.Rand, solution, board []int8, target int) bool {
	copy(board, solution)
	order := rng.Perm(len(board))
	empty := 0
	for _, c := range order {
		if empty == target {
			break
		}
		board[c] = 0
		if g.solutions(board, 2) == 1 {
			empty++
		} else {
			board[c] = solution[c]
		}
	}
	return empty == target
}

// solutions counts the solutions of board, stopping at limit.
func (g *generator) solutions(board []int8, limit int) int {
	g.reset()
	for i, v := range board {
		if v != 0 {
			g.set(i, v)
		}
	}
	return g.count(limit)
}

// count is a depth-first search that always branches on the empty cell with
// the fewest candidates.
func (g *generator) count(limit int) int {
	best, bestFree := -1, uint16(0)
	fewest := g.scale + 1
	for i, v := range g.grid {
		if v != 0 {
			continue
		}
		free := ^g.used(i) & (1<<(g.scale+1) - 2)
		n := popcount(free)
		if n == 0 {
			return 0
		}
		if n < fewest {
			best, bestFree, fewest = i, free, n
			if n == 1 {
				break
			}
		}
	}
	if best < 0 {
		return 1
	}
	found := 0
	for d := int8(1); d <= int8(g.scale); d++ {
		if bestFree&(1<<d) == 0 {
			continue
		}
		g.set(best, d)
		found += g.count(limit - found)
		g.unset(best)
		if found >= limit {
			break
		}
	}
	return found
}
