package rggames

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// MazeOptions are reasoning-gym's MazeConfig. It allows grids from 2, which
// hang its generator (a 2 or 3 grid has fewer than two floor cells inside
// the wall); Quarry starts at 4. 100 is its hardest curriculum level, and
// min_dist must be reachable in the largest grid (mazeLongest).
type MazeOptions struct {
	MinDist     int `json:"min_dist" range:"1,5000"`
	MaxDist     int `json:"max_dist" range:"1,5000"`
	MinGridSize int `json:"min_grid_size" range:"4,100"`
	MaxGridSize int `json:"max_grid_size" range:"4,100"`
}

func (o MazeOptions) Validate() error {
	switch {
	case o.MinDist > o.MaxDist:
		return optErr("max_dist", "%d is below min_dist %d", o.MaxDist, o.MinDist)
	case o.MinGridSize > o.MaxGridSize:
		return optErr("max_grid_size", "%d is below min_grid_size %d", o.MaxGridSize, o.MinGridSize)
	case o.MinDist > mazeLongest(o.MaxGridSize):
		return optErr("min_dist", "%d is longer than the longest path a %d grid holds (%d)", o.MinDist, o.MaxGridSize, mazeLongest(o.MaxGridSize))
	}
	return nil
}

// mazeTries is how many random mazes are drawn before the serpentine
// fallback (reasoning-gym tries 1000 and then fails).
const mazeTries = 300

// mazeLongest is the serpentine's length in a size grid: corridors on every
// other inside row, joined at alternate ends.
func mazeLongest(size int) int {
	m := size - 2
	c := (m + 1) / 2
	return c*m + c - 1 - 1
}

type mazeItem struct{ maxDist int }

func registerMaze(r *envs.Registry) error {
	return rg.Register(r, rg.Task[MazeOptions]{
		Name:        "maze",
		Description: "reasoning-gym maze: the fewest steps from start to goal in a walled grid drawn with random characters.",
		Revision:    1,
		Defaults:    MazeOptions{MinDist: 5, MaxDist: 10, MinGridSize: 5, MaxGridSize: 10},
		Generate:    generateMaze,
		Score:       scoreNumber,
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			return strconv.Itoa(1 + rng.IntN(3*it.Data.(*mazeItem).maxDist))
		},
	})
}

// scoreNumber is reasoning-gym's default score_answer for an integer
// answer, lenient about number format: "7", "7.0", "+7" and "7 " are 7.
func scoreNumber(answer string, it *rg.Item) float64 {
	if f, err := strconv.ParseFloat(strings.ReplaceAll(answer, ",", ""), 64); err == nil {
		if want, err := strconv.ParseFloat(it.Answer, 64); err == nil && f == want {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}

// printable is Python's string.printable[:94]: digits, letters, punctuation.
const printable = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func generateMaze(rng *rand.Rand, o MazeOptions) (rg.Item, error) {
	perm := rng.Perm(len(printable))
	wall, path, start, goal := printable[perm[0]], printable[perm[1]], printable[perm[2]], printable[perm[3]]
	var grid [][]byte
	dist := -1
	for range mazeTries {
		size := rg.Between(rng, o.MinGridSize, o.MaxGridSize)
		grid = make([][]byte, size)
		var floor [][2]int
		for r := range grid {
			grid[r] = []byte(strings.Repeat(string(wall), size))
			for c := 1; r > 0 && r < size-1 && c < size-1; c++ {
				if rng.Float64() < 0.7 {
					grid[r][c] = path
					floor = append(floor, [2]int{r, c})
				}
			}
		}
		if len(floor) < 2 {
			continue
		}
		i := rng.IntN(len(floor))
		j := rng.IntN(len(floor) - 1)
		if j >= i {
			j++
		}
		s, g := floor[i], floor[j]
		grid[s[0]][s[1]], grid[g[0]][g[1]] = start, goal
		if d := mazeBFS(grid, s, g, wall); d >= o.MinDist && d <= o.MaxDist {
			dist = d
			break
		}
	}
	if dist < 0 {
		grid, dist = serpentine(rng, o, wall, path, start, goal)
	}
	rows := make([]string, len(grid))
	for i, r := range grid {
		rows[i] = string(r)
	}
	q := fmt.Sprintf("Navigate from '%c' (start) to '%c' (goal):\n\n```\n%s\n```\nLegend: '%c' = Wall, '%c' = Passage\n\n"+
		"What is the minimum number of steps to reach the goal?\nGive only the number of steps as your final answer, no other text or formatting.",
		start, goal, strings.Join(rows, "\n"), wall, path)
	return rg.Item{
		Question: q,
		Answer:   strconv.Itoa(dist),
		Data:     &mazeItem{maxDist: o.MaxDist},
		Meta:     map[string]any{"grid_size": len(grid), "shortest_path_length": dist},
	}, nil
}

// serpentine builds a maze whose one path winds through the largest grid,
// with start and goal a drawn distance apart along it: the fallback when
// random mazes miss the distance range, so generation is bounded.
func serpentine(rng *rand.Rand, o MazeOptions, wall, path, start, goal byte) ([][]byte, int) {
	size := o.MaxGridSize
	grid := make([][]byte, size)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(string(wall), size))
	}
	var cells [][2]int
	m := size - 2
	for k, r := 0, 1; r <= m; k, r = k+1, r+2 {
		for i := range m {
			c := 1 + i
			if k%2 == 1 {
				c = m - i
			}
			cells = append(cells, [2]int{r, c})
		}
		if r+2 <= m {
			c := m
			if k%2 == 1 {
				c = 1
			}
			cells = append(cells, [2]int{r + 1, c})
		}
	}
	for _, p := range cells {
		grid[p[0]][p[1]] = path
	}
	d := rg.Between(rng, o.MinDist, min(o.MaxDist, len(cells)-1))
	from := rng.IntN(len(cells) - d)
	s, g := cells[from], cells[from+d]
	grid[s[0]][s[1]], grid[g[0]][g[1]] = start, goal
	return grid, d
}

func mazeBFS(grid [][]byte, s, g [2]int, wall byte) int {
	n := len(grid)
	dist := make([]int, n*n)
	for i := range dist {
		dist[i] = -1
	}
	dist[s[0]*n+s[1]] = 0
	queue := []int{s[0]*n + s[1]}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		r, c := cur/n, cur%n
		if r == g[0] && c == g[1] {
			return dist[cur]
		}
		for _, d := range [][2]int{{-1, 0}, {0, 1}, {1, 0}, {0, -1}} {
			nr, nc := r+d[0], c+d[1]
			if nr < 0 || nc < 0 || nr >= n || nc >= n || grid[nr][nc] == wall || dist[nr*n+nc] >= 0 {
				continue
			}
			dist[nr*n+nc] = dist[cur] + 1
			queue = append(queue, nr*n+nc)
		}
	}
	return -1
}
