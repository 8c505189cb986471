package algorithmic

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// GameOfLifeOptions are reasoning-gym's GameOfLifeConfig. reasoning-gym
// allows sides to 999 and any number of steps; Quarry caps the sides at 100
// and the steps at 1000. filled_cells is the number of random placements
// (a maximum: two may hit one cell); filled_cells_weights is recorded only,
// as in reasoning-gym (its default filled_cells is 0.1·10·10).
type GameOfLifeOptions struct {
	GridSizeX          int     `json:"grid_size_x" range:"3,100"`
	GridSizeY          int     `json:"grid_size_y" range:"3,100"`
	FilledCellsWeights float64 `json:"filled_cells_weights" range:"0,1"`
	FilledCells        int     `json:"filled_cells" range:"0,10000"`
	SimulationSteps    int     `json:"simulation_steps" range:"0,1000"`
}

// Validate is reasoning-gym's: filled_cells ≤ grid_size_x·grid_size_y.
func (o GameOfLifeOptions) Validate() error {
	if o.FilledCells > o.GridSizeX*o.GridSizeY {
		return &envs.OptionError{Option: "filled_cells", Reason: fmt.Sprintf("%d exceeds grid_size_x·grid_size_y = %d", o.FilledCells, o.GridSizeX*o.GridSizeY)}
	}
	return nil
}

// lifeStep is one generation on a torus (Moore neighbourhood, wrapping).
func lifeStep(g [][]int) [][]int {
	rows, cols := len(g), len(g[0])
	out := make([][]int, rows)
	for i := range out {
		out[i] = make([]int, cols)
		for j := range out[i] {
			n := 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					if di != 0 || dj != 0 {
						n += g[(i+di+rows)%rows][(j+dj+cols)%cols]
					}
				}
			}
			if n == 3 || (n == 2 && g[i][j] == 1) {
				out[i][j] = 1
			}
		}
	}
	return out
}

// lifeJSON writes rows as compact JSON arrays joined by sep.
func lifeJSON(g [][]int, sep string) string {
	rows := make([]string, len(g))
	for i, row := range g {
		b, _ := json.Marshal(row)
		rows[i] = string(b)
	}
	return "[" + strings.Join(rows, sep) + "]"
}

var gameOfLifeTask = rg.Task[GameOfLifeOptions]{
	Name:        "game_of_life",
	Description: "reasoning-gym game_of_life: a Game of Life board on a torus after a number of steps, as JSON rows.",
	Revision:    1,
	Defaults:    GameOfLifeOptions{GridSizeX: 10, GridSizeY: 10, FilledCellsWeights: 0.1, FilledCells: 10, SimulationSteps: 1},
	Generate: func(rng *rand.Rand, o GameOfLifeOptions) (rg.Item, error) {
		g := make([][]int, o.GridSizeX)
		for i := range g {
			g[i] = make([]int, o.GridSizeY)
		}
		for range o.FilledCells {
			g[rng.IntN(o.GridSizeX)][rng.IntN(o.GridSizeY)] = 1
		}
		board := lifeJSON(g, ",\n ")
		out := g
		for range o.SimulationSteps {
			out = lifeStep(out)
		}
		return rg.Item{
			Question: fmt.Sprintf("What will this Game of Life board look like after %d steps of simulation? Assume a Moore neighborhood and wrapping topology. "+
				"Reply as array of arrays representing rows in the grid from top to bottom in JSON format. "+
				"(An empty 3x3 grid would look like this: [[0,0,0],[0,0,0],[0,0,0]])\n\n%s.", o.SimulationSteps, board),
			Answer: lifeJSON(out, ","),
			Data:   out,
			Meta:   map[string]any{"grid_size_x": o.GridSizeX, "grid_size_y": o.GridSizeY, "filled_cells": o.FilledCells, "simulation_steps": o.SimulationSteps},
		}, nil
	},
	Score: scoreLife,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		// A well-formed sliver of a grid: reasoning-gym's per-cell credit
		// gives any full-size grid most of the (mostly dead) cells.
		return fmt.Sprintf("[[%d]]", rng.IntN(2))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		want := it.Data.([][]int)
		if _, ok := lifeCells(answer); !ok {
			return "Your answer is not a JSON array of arrays of 0s and 1s."
		}
		n := len(want) * len(want[0])
		return fmt.Sprintf("%d of the %d cells of your grid are wrong or missing.", n-int(score*float64(n)+0.5), n)
	},
}

// lifeCells reads a grid: JSON (reasoning-gym's form), or rows of
// space-separated cells, one per line.
func lifeCells(answer string) ([][]float64, bool) {
	if len(answer) > maxNumAnswer {
		return nil, false
	}
	var raw [][]any
	if err := json.Unmarshal([]byte(answer), &raw); err != nil {
		toks := gridTokens(answer)
		if len(toks) == 0 {
			return nil, false
		}
		raw = make([][]any, len(toks))
		for i, row := range toks {
			for _, s := range row {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return nil, false
				}
				raw[i] = append(raw[i], v)
			}
		}
	}
	out := make([][]float64, len(raw))
	for i, row := range raw {
		out[i] = make([]float64, len(row))
		for j, x := range row {
			switch v := x.(type) {
			case float64:
				out[i][j] = v
			case bool: // Python: True == 1
				if v {
					out[i][j] = 1
				}
			default:
				out[i][j] = -1 // never equal to a cell
			}
		}
	}
	return out, true
}

// scoreLife is reasoning-gym's: the share of the truth's cells the answer
// has right at the same row and column (missing ones are wrong). Quarry
// also reads the grid as rows of space-separated digits.
func scoreLife(answer string, it *rg.Item) float64 {
	want := it.Data.([][]int)
	got, ok := lifeCells(answer)
	if !ok {
		return 0
	}
	right, total := 0, 0
	for i, row := range want {
		for j, v := range row {
			total++
			if i < len(got) && j < len(got[i]) && got[i][j] == float64(v) {
				right++
			}
		}
	}
	return float64(right) / float64(total)
}

// GameOfLifeHaltingOptions are reasoning-gym's GameOfLifeHaltingConfig,
// capped: sides to 100, 50 patterns, 1000 steps. The smallest sides are
// those at which every pattern of the difficulty fits with its border (8,
// 14, 25; reasoning-gym's 7 and 13 crash on a tripole or a pinwheel).
type GameOfLifeHaltingOptions struct {
	GridSizeX          int `json:"grid_size_x" range:"8,100"`
	GridSizeY          int `json:"grid_size_y" range:"8,100"`
	Difficulty         int `json:"difficulty" range:"1,3"`
	NumOscillators     int `json:"num_oscillators" range:"0,50"`
	MaxSimulationSteps int `json:"max_simulation_steps" range:"0,1000"`
}

// Validate refuses sides too small for the difficulty's patterns.
func (o GameOfLifeHaltingOptions) Validate() error {
	least := [4]int{0, 8, 14, 25}[o.Difficulty]
	for _, s := range []struct {
		name string
		v    int
	}{{"grid_size_x", o.GridSizeX}, {"grid_size_y", o.GridSizeY}} {
		if s.v < least {
			return &envs.OptionError{Option: s.name, Reason: fmt.Sprintf("%d is below %d, the least for difficulty %d", s.v, least, o.Difficulty)}
		}
	}
	return nil
}

type lifePattern struct {
	name       string
	difficulty int
	cells      []string // rows, '#' alive
}

// lifeOscillators are reasoning-gym's (from conwaylife.com's wiki), padded
// as reasoning-gym pads them.
var lifeOscillators = []lifePattern{
	{"blinker", 1, []string{"...", "###", "..."}},
	{"toad", 1, []string{".##.", "#...", "...#", ".##."}},
	{"clock", 1, []string{"..#.", "#.#.", ".#.#", ".#.."}},
	{"bipole", 1, []string{"...##", "..#.#", ".....", "#.#..", "##..."}},
	{"tripole", 1, []string{"....##", "...#.#", "......", ".#.#..", "#.....", "##...."}},
	{"caterer", 2, []string{".###..", ".....#", "#....#", "....#.", ".##...", ".#....", ".#....", ".#....", "......"}},
	{"mold", 2, []string{"...##.", "..#..#", "#..#.#", "....#.", "#.##..", ".#...."}},
	{"pinwheel", 2, []string{"......##....", "......##....", "............", "....####....", "##.#....#...", "##.#..#.#...",
		"...#...##.##", "...#.#..#.##", "....####....", "............", "....##......", "....##......"}},
	{"pentadecathlon", 3, []string{"................", "................", "................", ".#..##....##..#.",
		"#...###..###...#", ".#..##....##..#.", "................", "................", "................"}},
}

// lifeDying are reasoning-gym's non-oscillators: diagonals and bent
// diagonals that die within a few steps.
var lifeDying = []lifePattern{
	{"", 0, []string{"#..", ".#.", "..#"}},
	{"", 0, []string{"..#", ".#.", "#.."}},
	{"", 0, []string{"#..", ".#.", "#.."}},
	{"", 0, []string{"..#", ".#.", "..#"}},
	{"", 0, []string{"#...", ".#..", "..#.", "...#"}},
	{"", 0, []string{"#....", ".#...", "..#..", "...#.", "....#"}},
	{"", 0, []string{"#.....", ".#....", "..#...", "...#..", "....#.", ".....#"}},
}

// lifeHalts simulates up to steps generations: whether every cell is dead
// at some generation 0..steps. A repeated state never dies.
func lifeHalts(g [][]int, steps int) bool {
	seen := map[uint64]bool{}
	for s := 0; ; s++ {
		h := fnv.New64a()
		alive := false
		for _, row := range g {
			for _, c := range row {
				h.Write([]byte{byte(c)})
				alive = alive || c == 1
			}
		}
		if !alive {
			return true
		}
		key := h.Sum64()
		if s == steps || seen[key] {
			return false
		}
		seen[key] = true
		g = lifeStep(g)
	}
}

// lifeNumpy writes a board as numpy's str of an int array does for boards
// that fit its line width: [[0 1]\n [1 0]].
func lifeNumpy(g [][]int) string {
	rows := make([]string, len(g))
	for i, row := range g {
		rows[i] = fmt.Sprint(row)
	}
	return "[" + strings.Join(rows, "\n ") + "]"
}

var gameOfLifeHaltingTask = rg.Task[GameOfLifeHaltingOptions]{
	Name:        "game_of_life_halting",
	Description: "reasoning-gym game_of_life_halting: will a board of oscillators or dying patterns be all dead within n steps (True/False).",
	Revision:    1,
	Defaults:    GameOfLifeHaltingOptions{GridSizeX: 12, GridSizeY: 12, Difficulty: 1, NumOscillators: 5, MaxSimulationSteps: 20},
	Generate: func(rng *rand.Rand, o GameOfLifeHaltingOptions) (rg.Item, error) {
		oscillate := rng.IntN(2) == 0
		patterns := lifeDying
		if oscillate {
			patterns = nil
			for _, p := range lifeOscillators {
				if p.difficulty == o.Difficulty {
					patterns = append(patterns, p)
				}
			}
		}
		gx, gy := o.GridSizeX, o.GridSizeY
		g := make([][]int, gx)
		used := make([][]bool, gx)
		for i := range g {
			g[i], used[i] = make([]int, gy), make([]bool, gy)
		}
		var placed []map[string]any
		for range o.NumOscillators {
			p := patterns[rng.IntN(len(patterns))]
			h, w := len(p.cells), len(p.cells[0])
			for range 1000 {
				i, j := numRandInt(rng, 1, gx-h-1), numRandInt(rng, 1, gy-w-1)
				if !lifeFree(used, i-1, j-1, i+h, j+w) {
					continue
				}
				for x := i - 1; x <= i+h; x++ {
					for y := j - 1; y <= j+w; y++ {
						used[x][y] = true
					}
				}
				for dx, row := range p.cells {
					for dy, c := range row {
						if c == '#' {
							g[i+dx][j+dy] = 1
						}
					}
				}
				name := p.name
				if name == "" {
					name = "non-oscillator"
				}
				placed = append(placed, map[string]any{"name": name, "position": []int{i, j}})
				break
			}
		}
		// reasoning-gym answers "not oscillating"; Quarry simulates, so an
		// empty board (no pattern placed) or a diagonal still alive at
		// max_simulation_steps gets the true answer.
		halts := lifeHalts(g, o.MaxSimulationSteps)
		answer := "False"
		if halts {
			answer = "True"
		}
		return rg.Item{
			Question: "This is a 'Game of Life' grid. We consider a game halted if there are no cells alive.\n" +
				fmt.Sprintf("Will this game halt at or before %d steps? Assume a Moore neighborhood and wrapping topology. If it will halt, reply 'True'. If it won't halt, reply 'False'.\n\n", o.MaxSimulationSteps) +
				"Initial board:\n" + lifeNumpy(g),
			Answer: answer,
			Meta:   map[string]any{"grid_size_x": gx, "grid_size_y": gy, "placed_patterns": placed, "simulation_steps": o.MaxSimulationSteps, "should_oscillate": oscillate},
		}, nil
	},
	Score: lifeScoreTrueFalse,
	Guess: func(rng *rand.Rand, it *rg.Item) string { return []string{"True", "False"}[rng.IntN(2)] },
}

func lifeFree(used [][]bool, x0, y0, x1, y1 int) bool {
	for x := x0; x <= x1; x++ {
		for y := y0; y <= y1; y++ {
			if used[x][y] {
				return false
			}
		}
	}
	return true
}

// lifeScoreTrueFalse compares a True/False answer, ignoring case, quotes and a
// final period. reasoning-gym's scorer gives 1 to any non-empty answer
// (bool("False") is true in Python); Quarry checks it.
func lifeScoreTrueFalse(answer string, it *rg.Item) float64 {
	a := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(answer), `'".`)))
	if a == strings.ToLower(it.Answer) {
		return 1
	}
	return 0
}
