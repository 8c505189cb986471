package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// Grids are written as reasoning-gym writes them: a row per line, cells
// separated by one space.

// gridString writes rows of cells.
func gridString[T any](g [][]T) string {
	var b strings.Builder
	for i, row := range g {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, x := range row {
			if j > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// gridTokens reads a grid answer leniently: rows are the non-blank lines,
// cells are separated by any white space.
func gridTokens(s string) [][]string {
	if len(s) > maxNumAnswer {
		return nil
	}
	var g [][]string
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			g = append(g, f)
		}
	}
	return g
}

// gridSame reports whether answer is truth's grid up to white space.
func gridSame(answer, truth string) bool {
	a, t := gridTokens(answer), gridTokens(truth)
	if len(a) != len(t) || len(a) == 0 {
		return false
	}
	for i := range a {
		if strings.Join(a[i], " ") != strings.Join(t[i], " ") {
			return false
		}
	}
	return true
}

var gridListPattern = regexp.MustCompile(`^\[(\[[^\[\]]*\](,\[[^\[\]]*\])*)?\]$`)

// gridFromPyList reads a Python list of lists of plain values
// ("[[1, 2], [3, 4]]") as a grid; reasoning-gym evaluates such answers.
func gridFromPyList(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), "")
	if len(s) > maxNumAnswer || !gridListPattern.MatchString(s) {
		return "", false
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if s == "" {
		return "", true
	}
	rows := strings.Split(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"), "],[")
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = strings.Join(strings.Split(r, ","), " ")
	}
	return strings.Join(lines, "\n"), true
}

// gridFeedback says whether the shape is right and how many cells differ.
func gridFeedback(answer string, it *rg.Item, _ float64) string {
	a, t := gridTokens(answer), gridTokens(it.Answer)
	if len(a) != len(t) {
		return fmt.Sprintf("Your matrix has %d rows; the answer has %d.", len(a), len(t))
	}
	wrong, cells := 0, 0
	for i := range a {
		if len(a[i]) != len(t[i]) {
			return fmt.Sprintf("Row %d of your matrix has %d entries; it should have %d.", i+1, len(a[i]), len(t[i]))
		}
		for j := range a[i] {
			cells++
			if a[i][j] != t[i][j] {
				wrong++
			}
		}
	}
	return fmt.Sprintf("Your matrix has the right shape, but %d of its %d entries are wrong.", wrong, cells)
}

// gridGuess is a random grid shaped like the truth, digits 0–9: a
// well-formed answer that is almost never right.
func gridGuess(rng *rand.Rand, it *rg.Item) string {
	t := gridTokens(it.Answer)
	g := make([][]int, len(t))
	for i := range t {
		g[i] = make([]int, len(t[i]))
		for j := range g[i] {
			g[i][j] = rng.IntN(10)
		}
	}
	return gridString(g)
}

// gridDigits draws a rows×cols grid of digits 0–9.
func gridDigits(rng *rand.Rand, rows, cols int) [][]int {
	g := make([][]int, rows)
	for i := range g {
		g[i] = make([]int, cols)
		for j := range g[i] {
			g[i][j] = rng.IntN(10)
		}
	}
	return g
}

// gridRot90 turns g a quarter clockwise.
func gridRot90(g [][]int) [][]int {
	if len(g) == 0 {
		return g
	}
	rows, cols := len(g), len(g[0])
	out := make([][]int, cols)
	for j := range out {
		out[j] = make([]int, rows)
		for i := range rows {
			out[j][i] = g[rows-1-i][j]
		}
	}
	return out
}

// BinaryMatrixOptions are reasoning-gym's BinaryMatrixConfig; Quarry caps
// the side at 100.
type BinaryMatrixOptions struct {
	MinN  int     `json:"min_n" range:"1,100"`
	MaxN  int     `json:"max_n" range:"1,100"`
	PZero float64 `json:"p_zero" range:"0,1"`
}

// Validate is reasoning-gym's: min_n ≤ max_n, 0 < p_zero ≤ 1.
func (o BinaryMatrixOptions) Validate() error {
	if o.MaxN < o.MinN {
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	}
	if o.PZero <= 0 {
		return numBelow("p_zero", o.PZero, "its lower bound (it must exceed 0)", 0)
	}
	return nil
}

var binaryMatrixTask = rg.Task[BinaryMatrixOptions]{
	Name:        "binary_matrix",
	Description: "reasoning-gym binary_matrix: each cell's taxicab distance to the nearest 0 in a square binary matrix.",
	Revision:    1,
	Defaults:    BinaryMatrixOptions{MinN: 3, MaxN: 10, PZero: 0.25},
	Generate: func(rng *rand.Rand, o BinaryMatrixOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinN, o.MaxN)
		cells := make([]int, n*n) // cells[0] stays 0: a 0 exists
		for i := 1; i < len(cells); i++ {
			if rng.Float64() >= o.PZero {
				cells[i] = 1
			}
		}
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		m := make([][]int, n)
		for i := range m {
			m[i] = cells[i*n : (i+1)*n]
		}
		d := gridDistances(m, func(x int) bool { return x == 0 }, func(int) bool { return true })
		return rg.Item{
			Question: "Given a square matrix, your job is to find the taxicab (Manhattan) distance of the nearest 0 for each cell.\n\n" +
				"The output should be a matrix of the same size as the input matrix, where each cell contains the distance to the nearest 0.\n\n" +
				"Find the distance to the nearest 0 for each cell in the matrix below:\n" + gridString(m) + "\n",
			Answer: gridString(d),
			Meta:   map[string]any{"matrix": m, "solution": d, "n": n},
		}, nil
	},
	Score:    scoreGridOrList,
	Guess:    gridGuess,
	Retry:    true,
	Feedback: gridFeedback,
}

// scoreGridOrList is reasoning-gym's binary_matrix score: 1 for the grid,
// 0.1 for it written as a Python list of lists, else 0. Quarry ignores
// white space around and between cells.
func scoreGridOrList(answer string, it *rg.Item) float64 {
	if gridSame(answer, it.Answer) {
		return 1
	}
	if g, ok := gridFromPyList(answer); ok && g == it.Answer {
		return 0.1
	}
	return 0
}

// gridDistances is a breadth-first search from every source cell through
// cells pass allows: each reached cell's step count, -1 where unreached.
func gridDistances(m [][]int, source, pass func(int) bool) [][]int {
	rows, cols := len(m), len(m[0])
	d := make([][]int, rows)
	var queue [][2]int
	for i := range d {
		d[i] = make([]int, cols)
		for j := range d[i] {
			d[i][j] = -1
			if source(m[i][j]) {
				d[i][j] = 0
				queue = append(queue, [2]int{i, j})
			}
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, dir := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			r, k := c[0]+dir[0], c[1]+dir[1]
			if r >= 0 && r < rows && k >= 0 && k < cols && d[r][k] < 0 && pass(m[r][k]) {
				d[r][k] = d[c[0]][c[1]] + 1
				queue = append(queue, [2]int{r, k})
			}
		}
	}
	return d
}

// RotateMatrixOptions are reasoning-gym's RotateMatrixConfig; Quarry caps
// the side at 100 and the rotations at 1000.
type RotateMatrixOptions struct {
	MinN         int `json:"min_n" range:"2,100"`
	MaxN         int `json:"max_n" range:"2,100"`
	MinRotations int `json:"min_rotations" range:"0,1000"`
	MaxRotations int `json:"max_rotations" range:"0,1000"`
}

// Validate is reasoning-gym's: min ≤ max.
func (o RotateMatrixOptions) Validate() error {
	if o.MaxN < o.MinN {
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	}
	if o.MaxRotations < o.MinRotations {
		return numBelow("max_rotations", o.MaxRotations, "min_rotations", o.MinRotations)
	}
	return nil
}

var rotateMatrixTask = rg.Task[RotateMatrixOptions]{
	Name:        "rotate_matrix",
	Description: "reasoning-gym rotate_matrix: rotate a square matrix of digits clockwise by a multiple of 90 degrees.",
	Revision:    1,
	Defaults:    RotateMatrixOptions{MinN: 2, MaxN: 10, MinRotations: 0, MaxRotations: 10},
	Generate: func(rng *rand.Rand, o RotateMatrixOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinN, o.MaxN)
		m := gridDigits(rng, n, n)
		k := numRandInt(rng, o.MinRotations, o.MaxRotations)
		out := m
		for range k % 4 {
			out = gridRot90(out)
		}
		return rg.Item{
			Question: "Given a square matrix, your job is to rotate it clockwise.\n\n" +
				"Your output should be a matrix in the same format as the input.\n\n" +
				"Rotate the matrix below by " + strconv.Itoa(90*k) + " degrees clockwise:\n" + gridString(m) + "\n",
			Answer: gridString(out),
			Meta:   map[string]any{"matrix": m, "num_rotations": k, "solution": out, "n": n},
		}, nil
	},
	Score:    scoreGridDefault,
	Guess:    gridGuess,
	Retry:    true,
	Feedback: gridFeedback,
}

// scoreGridDefault is reasoning-gym's default score (exact, else the
// containment credit), lenient on white space around and between cells.
func scoreGridDefault(answer string, it *rg.Item) float64 {
	if gridSame(answer, it.Answer) {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}

// SpiralMatrixOptions are reasoning-gym's SpiralMatrixConfig; Quarry caps
// the side at 100.
type SpiralMatrixOptions struct {
	MinN int `json:"min_n" range:"2,100"`
	MaxN int `json:"max_n" range:"2,100"`
}

// Validate is reasoning-gym's: min_n ≤ max_n.
func (o SpiralMatrixOptions) Validate() error {
	if o.MaxN < o.MinN {
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	}
	return nil
}

var spiralMatrixTask = rg.Task[SpiralMatrixOptions]{
	Name:        "spiral_matrix",
	Description: "reasoning-gym spiral_matrix: a square matrix's entries in clockwise spiral order.",
	Revision:    1,
	Defaults:    SpiralMatrixOptions{MinN: 2, MaxN: 10},
	Generate: func(rng *rand.Rand, o SpiralMatrixOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinN, o.MaxN)
		m := gridDigits(rng, n, n)
		s := spiralOrder(m)
		parts := make([]string, len(s))
		for i, x := range s {
			parts[i] = strconv.Itoa(x)
		}
		return rg.Item{
			Question: "Given a matrix, your job is to generate a list of elements in spiral order, starting from the top-left element.\n\n" +
				"The spiral order is clockwise, starting from the top-left corner. More precisely:\n" +
				"- Start from the top-left corner and move right.\n" +
				"- Move down towards the bottom-right corner.\n" +
				"- Move left towards the bottom-left corner.\n" +
				"- Move up towards the top-right corner.\n" +
				"- Repeat the steps for the inner elements of the matrix until every entry is visited.\n\n" +
				"Your output should be a space-separated list of integers, e.g. 1 2 3 4 5 6\n\n" +
				"For the matrix below, what is the list of elements in spiral order?\n" + gridString(m) + "\n",
			Answer: strings.Join(parts, " "),
			Meta:   map[string]any{"matrix": m, "solution": s, "n": n},
		}, nil
	},
	Score: scoreSpiral,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		g := strings.Fields(it.Answer)
		for i := range g {
			g[i] = strconv.Itoa(rng.IntN(10))
		}
		return strings.Join(g, " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		a, t := strings.Fields(answer), strings.Fields(it.Answer)
		if len(a) != len(t) {
			return fmt.Sprintf("Your list has %d elements; the matrix has %d.", len(a), len(t))
		}
		for i := range a {
			if a[i] != t[i] {
				return fmt.Sprintf("Your list goes wrong at element %d.", i+1)
			}
		}
		return "Your list is not written as space-separated integers."
	},
}

// scoreSpiral is reasoning-gym's: 1 for the list, 0.1 for it written as a
// Python list ("[1, 2, 3]"), else 0. Quarry ignores the amount of white
// space between the numbers.
func scoreSpiral(answer string, it *rg.Item) float64 {
	if len(answer) > maxNumAnswer {
		return 0
	}
	if strings.Join(strings.Fields(answer), " ") == it.Answer {
		return 1
	}
	if items, ok := numParseList(answer); ok && strings.Join(items, " ") == it.Answer {
		return 0.1
	}
	return 0
}

// spiralOrder lists m's entries clockwise from the top-left corner.
func spiralOrder(m [][]int) []int {
	top, bottom, left, right := 0, len(m), 0, len(m[0])
	var out []int
	for top < bottom && left < right {
		for j := left; j < right; j++ {
			out = append(out, m[top][j])
		}
		top++
		for i := top; i < bottom; i++ {
			out = append(out, m[i][right-1])
		}
		right--
		if top < bottom {
			for j := right - 1; j >= left; j-- {
				out = append(out, m[bottom-1][j])
			}
			bottom--
		}
		if left < right {
			for i := bottom - 1; i >= top; i-- {
				out = append(out, m[i][left])
			}
			left++
		}
	}
	return out
}
