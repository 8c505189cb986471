package cognition

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// GridOptions are reasoning-gym's ModuloGridConfig fields. It bounds none
// from above; its curriculum reaches an 80×80 grid, 15 holes, divisor 49 and
// target 21, so 100 (grid sides), 1000 holes and 100 for divisor and target
// leave room past it while a question stays under 10k cells.
type GridOptions struct {
	SizeX      int `json:"size_x" range:"6,100"`
	SizeY      int `json:"size_y" range:"6,100"`
	MaxDivisor int `json:"max_divisor" range:"2,100"`
	MaxTarget  int `json:"max_target" range:"1,100"`
	MaxHoles   int `json:"max_holes" range:"1,1000"`
}

const (
	cellOn   = "✅"
	cellOff  = "❌"
	cellHole = "❔"
)

var gridOps = []string{"sum", "diff", "prod", "pow"}

// ModuloGrid is rg:modulo_grid: a grid of ✅/❌ marks where (x op y) mod
// divisor == target, with holes (❔) to fill; the answer is the whole grid.
var ModuloGrid = rg.Task[GridOptions]{
	Name:        "modulo_grid",
	Description: "reasoning-gym modulo_grid: find the modular pattern of a ✅/❌ grid and fill in its ❔ holes; answer the whole grid.",
	Revision:    1,
	Defaults:    GridOptions{SizeX: 20, SizeY: 20, MaxDivisor: 20, MaxTarget: 20, MaxHoles: 1},
	Generate:    generateGrid,
	Score:       scoreGrid,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		rows := strings.Split(it.Answer, "\n")
		var b strings.Builder
		for i, row := range rows {
			if i > 0 {
				b.WriteByte('\n')
			}
			for range strings.Count(row, cellOn) + strings.Count(row, cellOff) {
				if rng.IntN(2) == 0 {
					b.WriteString(cellOn)
				} else {
					b.WriteString(cellOff)
				}
			}
		}
		return b.String()
	},
	Retry:    true,
	Feedback: gridFeedback,
}

// gridValue is op(x, y) mod d, with Python's x**y (0**0 is 1).
func gridValue(op string, x, y, d int) int {
	switch op {
	case "sum":
		return (x + y) % d
	case "diff":
		if x < y {
			x, y = y, x
		}
		return (x - y) % d
	case "prod":
		return x * y % d
	}
	r, b := 1%d, x%d
	for e := y; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % d
		}
		b = b * b % d
	}
	return r
}

// hits reports whether some cell of the grid is marked.
func hits(o GridOptions, op string, d, t int) bool {
	if t >= d {
		return false // a remainder is below its divisor
	}
	for y := range o.SizeY {
		for x := range o.SizeX {
			if gridValue(op, x, y, d) == t {
				return true
			}
		}
	}
	return false
}

func generateGrid(rng *rand.Rand, o GridOptions) (rg.Item, error) {
	// reasoning-gym redraws (divisor, target, operation) until the grid has
	// a ✅; a target at or above the divisor never has one, so with
	// max_target far above max_divisor that loop can run long (forever
	// when max_divisor is 1, which Quarry's range refuses). Quarry draws
	// the same way for a bounded number of tries, then takes the first
	// marking triple after a random start in the same draw order: the
	// distribution is reasoning-gym's up to that rare cut-off.
	var d, t int
	var op string
	found := false
	for range 1000 {
		d, t, op = rg.Between(rng, 1, o.MaxDivisor), rg.Between(rng, 1, o.MaxTarget), gridOps[rng.IntN(4)]
		if hits(o, op, d, t) {
			found = true
			break
		}
	}
	if !found {
		n := o.MaxDivisor * o.MaxTarget * 4
		start := rng.IntN(n)
		for i := range n {
			k := (start + i) % n
			d, t, op = 1+k/(o.MaxTarget*4), 1+k/4%o.MaxTarget, gridOps[k%4]
			if hits(o, op, d, t) {
				found = true
				break
			}
		}
	}
	if !found {
		// divisor 2, target 1, x+y marks (1, 0): unreachable with max_divisor ≥ 2.
		return rg.Item{}, fmt.Errorf("modulo_grid: no marking pattern for %+v", o)
	}
	grid := make([][]string, o.SizeY)
	for y := range grid {
		grid[y] = make([]string, o.SizeX)
		for x := range grid[y] {
			grid[y][x] = cellOff
			if gridValue(op, x, y, d) == t {
				grid[y][x] = cellOn
			}
		}
	}
	answer := flattenGrid(grid)
	for range o.MaxHoles {
		grid[rng.IntN(o.SizeY)][rng.IntN(o.SizeX)] = cellHole
	}
	return rg.Item{
		Question: "Identify the mathematical pattern which defines this grid, then use that pattern to fill in the question marks. Return the entire completed grid as your answer.\n\n" + flattenGrid(grid),
		Answer:   answer,
		Meta:     map[string]any{"divisor": d, "target": t, "operation": op},
	}, nil
}

func flattenGrid(grid [][]string) string {
	rows := make([]string, len(grid))
	for i, r := range grid {
		rows[i] = strings.Join(r, "")
	}
	return strings.Join(rows, "\n")
}

// gridRows splits a grid answer into rows with all white space removed and
// blank lines dropped: the layout a reader types, not the content.
func gridRows(s string) []string {
	var rows []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), "")
		if line != "" {
			rows = append(rows, line)
		}
	}
	return rows
}

// scoreGrid is reasoning-gym's default score_answer (exact, or the length
// ratio when the grid occurs inside the answer), after white space is
// normalised on both sides: spaces between cells, indentation, trailing
// spaces, blank lines and \r do not change a grid.
func scoreGrid(answer string, it *rg.Item) float64 {
	got, want := strings.Join(gridRows(answer), "\n"), strings.Join(gridRows(it.Answer), "\n")
	return rg.DefaultScore(got, want)
}

func gridFeedback(answer string, it *rg.Item, _ float64) string {
	got, want := gridRows(answer), gridRows(it.Answer)
	if len(got) != len(want) {
		return fmt.Sprintf("Your grid has %d rows; the grid has %d.", len(got), len(want))
	}
	wrong := 0
	for i := range want {
		g, w := []rune(got[i]), []rune(want[i])
		if len(g) != len(w) {
			return fmt.Sprintf("Row %d of your grid has %d cells; it should have %d.", i+1, len(g), len(w))
		}
		for j := range w {
			if g[j] != w[j] {
				wrong++
			}
		}
	}
	return fmt.Sprintf("%d cells of your grid are wrong.", wrong)
}
