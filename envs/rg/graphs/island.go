package graphs

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// IslandOptions are reasoning-gym's LargestIslandConfig. Its curriculum
// reaches 100×100 grids, 20 islands of 30 cells; Quarry allows up to 100
// islands of up to 1000 steps each.
type IslandOptions struct {
	MinRows       int `json:"min_rows" range:"1,100"`
	MaxRows       int `json:"max_rows" range:"1,100"`
	MinCols       int `json:"min_cols" range:"1,100"`
	MaxCols       int `json:"max_cols" range:"1,100"`
	MinNumIslands int `json:"min_num_islands" range:"0,100"`
	MaxNumIslands int `json:"max_num_islands" range:"0,100"`
	MinIslandSize int `json:"min_island_size" range:"0,1000"`
	MaxIslandSize int `json:"max_island_size" range:"0,1000"`
}

// Validate is reasoning-gym's: each min ≤ its max.
func (o IslandOptions) Validate() error {
	for _, p := range []struct {
		lo, hi     string
		minV, maxV int
	}{
		{"min_rows", "max_rows", o.MinRows, o.MaxRows},
		{"min_cols", "max_cols", o.MinCols, o.MaxCols},
		{"min_num_islands", "max_num_islands", o.MinNumIslands, o.MaxNumIslands},
		{"min_island_size", "max_island_size", o.MinIslandSize, o.MaxIslandSize},
	} {
		if err := rg.MinMax(p.lo, p.hi, p.minV, p.maxV); err != nil {
			return err
		}
	}
	return nil
}

const islandTemplate = `You are given the following %d x %d binary matrix grid:
%s

An island is a group of 1's (representing land) connected 4-directionally (horizontal or vertical).
You may assume all four edges of the grid are surrounded by water.

The area of an island is the number of cells with a value 1 in the island.

Return the maximum area of an island in grid. If there is no island, return 0.
`

// dirs4 are up, down, left, right.
var dirs4 = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// LargestIsland is reasoning-gym's largest_island: the area of the largest
// 4-connected island of 1s in a grid.
var LargestIsland = rg.Task[IslandOptions]{
	Name:        "largest_island",
	Description: "reasoning-gym largest_island: the area of the largest 4-connected island of 1s in a binary grid.",
	Revision:    1,
	Defaults: IslandOptions{MinRows: 5, MaxRows: 10, MinCols: 5, MaxCols: 10,
		MinNumIslands: 0, MaxNumIslands: 5, MinIslandSize: 0, MaxIslandSize: 10},
	Generate: func(rng *rand.Rand, o IslandOptions) (rg.Item, error) {
		rows := rg.Between(rng, o.MinRows, o.MaxRows)
		cols := rg.Between(rng, o.MinCols, o.MaxCols)
		islands := rg.Between(rng, o.MinNumIslands, o.MaxNumIslands)
		grid := make([][]int, rows)
		for r := range grid {
			grid[r] = make([]int, cols)
		}
		// reasoning-gym's random walk: mark the cell, then step to the first
		// unmarked neighbour in a shuffled order (or stay).
		dirs := dirs4
		for range islands {
			r, c := rng.IntN(rows), rng.IntN(cols)
			steps := min(rg.Between(rng, o.MinIslandSize, o.MaxIslandSize), rows*cols)
			for range steps {
				grid[r][c] = 1
				rng.Shuffle(len(dirs), func(i, j int) { dirs[i], dirs[j] = dirs[j], dirs[i] })
				for _, d := range dirs {
					nr, nc := r+d[0], c+d[1]
					if nr >= 0 && nr < rows && nc >= 0 && nc < cols && grid[nr][nc] == 0 {
						r, c = nr, nc
						break
					}
				}
			}
		}
		area := largestIsland(grid)
		lines := make([]string, rows)
		for r, row := range grid {
			cells := make([]string, cols)
			for c, v := range row {
				cells[c] = strconv.Itoa(v)
			}
			lines[r] = strings.Join(cells, " ")
		}
		return rg.Item{
			Question: fmt.Sprintf(islandTemplate, rows, cols, strings.Join(lines, "\n")),
			Answer:   strconv.Itoa(area),
			Data:     rows * cols,
			Meta:     map[string]any{"grid": grid, "solution": area},
		}, nil
	},
	Score: scoreInteger,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return strconv.Itoa(rng.IntN(it.Data.(int) + 1))
	},
	Retry:    true,
	Feedback: tooHighOrLow,
}

// largestIsland returns the largest 4-connected area of 1s.
func largestIsland(grid [][]int) int {
	rows, cols := len(grid), len(grid[0])
	seen := make([]bool, rows*cols)
	best := 0
	var stack []int
	for start := range seen {
		if seen[start] || grid[start/cols][start%cols] == 0 {
			continue
		}
		seen[start] = true
		stack = append(stack[:0], start)
		area := 0
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			area++
			for _, d := range dirs4 {
				r, c := p/cols+d[0], p%cols+d[1]
				if r >= 0 && r < rows && c >= 0 && c < cols && !seen[r*cols+c] && grid[r][c] == 1 {
					seen[r*cols+c] = true
					stack = append(stack, r*cols+c)
				}
			}
		}
		best = max(best, area)
	}
	return best
}
