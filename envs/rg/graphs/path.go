package graphs

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// PathOptions are reasoning-gym's ShortestPathConfig. reasoning-gym leaves
// the sizes open (its curriculum reaches 20); Quarry allows up to 100.
type PathOptions struct {
	MinRows  int     `json:"min_rows" range:"1,100"`
	MaxRows  int     `json:"max_rows" range:"1,100"`
	MinCols  int     `json:"min_cols" range:"1,100"`
	MaxCols  int     `json:"max_cols" range:"1,100"`
	PBlocked float64 `json:"p_blocked" range:"0,1"`
}

// Validate is reasoning-gym's (each min ≤ its max), plus: a grid needs two
// cells for the start and the destination (reasoning-gym loops forever on a
// 1×1 grid).
func (o PathOptions) Validate() error {
	if err := rg.MinMax("min_rows", "max_rows", o.MinRows, o.MaxRows); err != nil {
		return err
	}
	if err := rg.MinMax("min_cols", "max_cols", o.MinCols, o.MaxCols); err != nil {
		return err
	}
	if o.MinRows == 1 && o.MinCols == 1 {
		return &envs.OptionError{Option: "min_cols", Reason: "min_rows and min_cols are both 1: a 1 x 1 grid has no room for a start and a destination"}
	}
	return nil
}

const pathTemplate = `Your task is to find the shortest path from the start to the destination point in a grid.

The grid is represented as a matrix with the following types of cells:
- *: your starting point
- #: your destination point
- O: an open cell
- X: a blocked cell

Therefore, you need to find the shortest path from * to #, moving only through open cells.

You may only move in four directions: up, down, left, and right.

If there is no path from * to #, simply write "infeasible" (without quotes).

Your output should be a sequence of directions that leads from * to #, e.g. right right down down up left

Now, find the length of the shortest path from * to # in the following grid:
%s
`

// pathGrid is a shortest_path puzzle.
type pathGrid struct {
	cells      [][]byte
	start, end [2]int
}

// moves are reasoning-gym's BFS order.
var moves = []struct {
	dr, dc int
	name   string
}{{0, 1, "right"}, {1, 0, "down"}, {0, -1, "left"}, {-1, 0, "up"}}

// ShortestPath is reasoning-gym's shortest_path: the directions of a
// shortest path from * to # through open cells, or "infeasible".
var ShortestPath = rg.Task[PathOptions]{
	Name:        "shortest_path",
	Description: "reasoning-gym shortest_path: a shortest sequence of moves from * to # in a grid, or infeasible.",
	Revision:    1,
	Defaults:    PathOptions{MinRows: 5, MaxRows: 8, MinCols: 5, MaxCols: 8, PBlocked: 0.4},
	Generate: func(rng *rand.Rand, o PathOptions) (rg.Item, error) {
		rows := rg.Between(rng, o.MinRows, o.MaxRows)
		cols := rg.Between(rng, o.MinCols, o.MaxCols)
		g := &pathGrid{cells: make([][]byte, rows)}
		for r := range g.cells {
			g.cells[r] = make([]byte, cols)
			for c := range g.cells[r] {
				g.cells[r][c] = 'O'
				if rng.Float64() < o.PBlocked {
					g.cells[r][c] = 'X'
				}
			}
		}
		s := rng.IntN(rows * cols)
		e := rng.IntN(rows*cols - 1) // any other cell
		if e >= s {
			e++
		}
		g.start, g.end = [2]int{s / cols, s % cols}, [2]int{e / cols, e % cols}
		g.cells[g.start[0]][g.start[1]] = '*'
		g.cells[g.end[0]][g.end[1]] = '#'
		path := g.shortest()
		answer := "infeasible"
		if path != nil {
			answer = strings.Join(path, " ")
		}
		lines := make([]string, rows)
		matrix := make([][]string, rows)
		for r, row := range g.cells {
			matrix[r] = strings.Split(string(row), "")
			lines[r] = strings.Join(matrix[r], " ")
		}
		return rg.Item{
			Question: fmt.Sprintf(pathTemplate, strings.Join(lines, "\n")),
			Answer:   answer,
			Data:     g,
			Meta:     map[string]any{"matrix": matrix, "solution": path},
		}, nil
	},
	Score: scorePath,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		g := it.Data.(*pathGrid)
		n := 1 + rng.IntN(len(g.cells)+len(g.cells[0]))
		out := make([]string, n)
		for i := range out {
			out[i] = moves[rng.IntN(4)].name
		}
		return strings.Join(out, " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		g := it.Data.(*pathGrid)
		steps, ok := parseMoves(answer)
		switch {
		case score == 0.5:
			return "Your path reaches # but is not the shortest."
		case strings.EqualFold(answer, "infeasible"):
			return "There is a path from * to #."
		case !ok:
			return `Your answer is not a sequence of the moves up, down, left and right, nor "infeasible".`
		}
		switch g.walk(steps) {
		case walkBlocked:
			return "Your path leaves the grid or enters a blocked cell."
		default:
			return "Your path does not end at #."
		}
	},
}

// shortest is reasoning-gym's BFS: the first shortest path in its move
// order, nil when # cannot be reached.
func (g *pathGrid) shortest() []string {
	rows, cols := len(g.cells), len(g.cells[0])
	prev := make([]int, rows*cols) // index of the cell a visited cell was reached from, plus its move
	move := make([]int, rows*cols)
	for i := range prev {
		prev[i] = -1
	}
	s := g.start[0]*cols + g.start[1]
	prev[s] = s
	queue := []int{s}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for m, d := range moves {
			r, c := p/cols+d.dr, p%cols+d.dc
			if r < 0 || r >= rows || c < 0 || c >= cols || prev[r*cols+c] >= 0 {
				continue
			}
			q := r*cols + c
			switch g.cells[r][c] {
			case '#':
				prev[q], move[q] = p, m
				var path []string
				for x := q; x != s; x = prev[x] {
					path = append(path, moves[move[x]].name)
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			case 'O':
				prev[q], move[q] = p, m
				queue = append(queue, q)
			}
		}
	}
	return nil
}

// walk results.
const (
	walkEnd     = iota // the path ends on #
	walkBlocked        // it leaves the grid or enters an X
	walkElsewhere
)

// walk follows steps (indices into moves) from *, as reasoning-gym's
// _is_valid_path does: passing over * or # on the way is allowed.
func (g *pathGrid) walk(steps []int) int {
	r, c := g.start[0], g.start[1]
	for _, m := range steps {
		r, c = r+moves[m].dr, c+moves[m].dc
		if r < 0 || r >= len(g.cells) || c < 0 || c >= len(g.cells[0]) || g.cells[r][c] == 'X' {
			return walkBlocked
		}
	}
	if [2]int{r, c} == g.end {
		return walkEnd
	}
	return walkElsewhere
}

// maxMoves bounds the moves an answer is read for.
const maxMoves = 10000

// moveSeparators are what Quarry reads between moves besides spaces;
// reasoning-gym reads only white space.
var moveSeparators = strings.NewReplacer(",", " ", "→", " ", "->", " ", ";", " ")

// parseMoves reads a sequence of move names, case-insensitively.
func parseMoves(answer string) ([]int, bool) {
	f := strings.Fields(strings.ToLower(moveSeparators.Replace(answer)))
	if len(f) == 0 || len(f) > maxMoves {
		return nil, false
	}
	out := make([]int, len(f))
	for i, w := range f {
		out[i] = -1
		for m, d := range moves {
			if w == d.name {
				out[i] = m
			}
		}
		if out[i] < 0 {
			return nil, false
		}
	}
	return out, true
}

// scorePath is reasoning-gym's score_answer: 1 for the reference answer or
// any valid path of the same length, 0.5 for a longer valid path, else 0.
// Quarry also reads moves in any case and separated by commas or arrows,
// and "infeasible" in any case.
func scorePath(answer string, it *rg.Item) float64 {
	if answer == it.Answer || (it.Answer == "infeasible" && strings.EqualFold(answer, "infeasible")) {
		return 1
	}
	g := it.Data.(*pathGrid)
	steps, ok := parseMoves(answer)
	if !ok || g.walk(steps) != walkEnd {
		return 0
	}
	if len(steps) == len(strings.Fields(it.Answer)) {
		return 1
	}
	return 0.5
}
