package sudoku

import (
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func inner(e envs.Env) *Env { return e.(envs.Unwrapper).Unwrap().(*Env) }

// game returns a reset -easy env (15 turns) playing this hand-made puzzle
// with three empty cells:
//
//	. 2 | 3 4
//	3 4 | . 2
//	----+----
//	2 1 | 4 3
//	4 3 | 2 .
func game(t *testing.T) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:Sudoku-v0-easy", 1)
	g := inner(e)
	g.solution = []int8{1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1}
	g.board = []int8{0, 2, 3, 4, 3, 4, 0, 2, 2, 1, 4, 3, 4, 3, 2, 0}
	g.empty = 3
	return e, g
}

func TestRules(t *testing.T) {
	t.Run("placements, illegal moves and a win", func(t *testing.T) {
		e, _ := game(t)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{1 1 1}`, Obs: "At turn 1, you placed 1 at R1 C1, which is correct.", Reward: 1.0 / 3},
			{Action: `\boxed{1 1 1}`, Obs: "At turn 2, you tried to place 1 at R1 C1, which is already filled. You cannot overwrite pre-filled cells.", InvalidAction: true},
			{Action: `\boxed{1 2 2}`, Obs: "At turn 3, you tried to place 2 at R1 C2, which is already filled. You cannot overwrite pre-filled cells.", InvalidAction: true},
			// 3 clashes with nothing in row 2, column 3 or its box, but is
			// not the solution's digit: GEM rejects it all the same.
			{Action: `\boxed{2 3 3}`, Obs: "At turn 4, you tried to place 3 at R2 C3, which violates Sudoku rules.", InvalidAction: true},
			{Action: `\boxed{5 1 1}`, Obs: "At turn 5, you tried to place 1 at R5 C1, which is out of bounds.", InvalidAction: true},
			{Action: `\boxed{01 1 0}`, Obs: "At turn 6, you tried to place 0 at R1 C1, which is out of bounds.", InvalidAction: true},
			{Action: `\boxed{99999999999999999999 1 1}`, Obs: "At turn 7, you tried to place 1 at R99999999999999999999 C1, which is out of bounds.", InvalidAction: true},
			{Action: `maybe \boxed{2 3 2}, or rather \boxed{2 3 1}`, Obs: "At turn 8, you placed 1 at R2 C3, which is correct.", Reward: 1.0 / 3},
			{Action: `\boxed{4 4 1}`, Obs: "Congratulations! You have completed the Sudoku puzzle!", Reward: 1.0 / 3, Terminated: true, Success: true},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		for _, a := range []string{`\boxed{1 1}`, `\boxed{1 1 -1}`, `\boxed{1,1,1}`, `1 1 1`, `\boxed{a 1 1}`} {
			e, _ := game(t)
			envtest.Expect(t, e, []envtest.Want{{Action: a, Obs: "You did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true}})
		}
	})
	t.Run("max turns", func(t *testing.T) {
		e, g := game(t)
		g.turn = 13
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{1 1 4}`, Obs: "At turn 14, you tried to place 4 at R1 C1, which violates Sudoku rules.", InvalidAction: true},
			// A correct placement on the last turn keeps its reward.
			{Action: `\boxed{1 1 1}`, Obs: "You have reached the maximum number of turns.", Reward: 1.0 / 3, Terminated: true, Truncated: true},
		})
		e, g = game(t)
		g.turn = 14
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{1 1 2}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true}})
		e, g = game(t)
		g.turn = 14
		envtest.Expect(t, e, []envtest.Want{{Action: "pass", Obs: "You did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
		// Completing the grid on the last turn is a win, not a truncation.
		e, g = game(t)
		g.board[0], g.board[6], g.filled = 1, 1, 2
		g.turn = 14
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{4 4 1}`, Obs: "Congratulations! You have completed the Sudoku puzzle!", Reward: 1.0 / 3, Terminated: true, Success: true}})
	})
}

// Board renderings, byte for byte as GEM's _render_board prints them.
func TestRender(t *testing.T) {
	e, _ := game(t)
	res, _ := e.Step(`\boxed{4 4 2}`)
	want := "Here is the current board layout:\n   C1 C2   C3 C4  \nR1  .  2 |  3  4\nR2  3  4 |  .  2\n   - - - - - - \nR3  2  1 |  4  3\nR4  4  3 |  2  .\nEnter your move."
	if res.Info.Suffix != want {
		t.Fatalf("4x4 suffix:\n%q\nwant\n%q", res.Info.Suffix, want)
	}
	res, _ = e.Step(`\boxed{4 4 1}`)
	if !strings.Contains(res.Info.Suffix, "\nR4  4  3 |  2  1\n") {
		t.Fatalf("placed digit not shown:\n%s", res.Info.Suffix)
	}

	h := envtest.Make(t, registry(t), "game:Sudoku-v0-hard", nil)
	h.Reset(1)
	g := inner(h)
	for i := range 81 {
		r, c := i/9, i%9
		g.solution[i] = int8((r*3+r/3+c)%9 + 1)
		g.board[i] = g.solution[i]
	}
	for _, rc := range [][2]int{{0, 0}, {1, 4}, {2, 8}, {4, 4}, {8, 0}, {8, 8}, {6, 3}} {
		g.board[rc[0]*9+rc[1]] = 0
	}
	want = "Here is the current board layout:\n   C1 C2 C3   C4 C5 C6   C7 C8 C9  \nR1  .  2  3 |  4  5  6 |  7  8  9\nR2  4  5  6 |  7  .  9 |  1  2  3\nR3  7  8  9 |  1  2  3 |  4  5  .\n   - - - - - - - - - - - - - - - - \nR4  2  3  4 |  5  6  7 |  8  9  1\nR5  5  6  7 |  8  .  1 |  2  3  4\nR6  8  9  1 |  2  3  4 |  5  6  7\n   - - - - - - - - - - - - - - - - \nR7  3  4  5 |  .  7  8 |  9  1  2\nR8  6  7  8 |  9  1  2 |  3  4  5\nR9  .  1  2 |  3  4  5 |  6  7  .\nEnter your move."
	if got := g.info().Suffix; got != want {
		t.Fatalf("9x9 suffix:\n%q\nwant\n%q", got, want)
	}
}

func TestInstructions(t *testing.T) {
	r := registry(t)
	e, _ := r.Make("game:Sudoku-v0-easy", nil)
	obs, _, _ := e.Reset(0)
	want := "You are playing A simple version of Sudoku.\n" +
		"Each row is numbered from 1 to 4, and each column is also numbered from 1 to 4.\n" +
		"Empty cells are represented by '.', and pre-filled cells contain digits from 1 to 4.\n\n" +
		"Your objective is to fill the empty cells in the 4x4 grid with digits from 1 to 4 such that:\n" +
		"1. Each row contains all digits from 1 to 4 without repetition.\n" +
		"2. Each column contains all digits from 1 to 4 without repetition.\n" +
		"3. Each of the four 2x2 subgrids contains all digits from 1 to 4 without repetition.\n\n" +
		"Rules and Instructions:\n" +
		"1. **Do not overwrite** the initial numbers provided in the grid.\n" +
		"2. **Only fill** empty cells represented by '.'.\n" +
		"3. You may respond in any manner you prefer, but ensure that your response includes the format of '\\boxed{row column number}', e.g. \\boxed{1 1 5}.\n" +
		"4. **Ensure** that your move does not violate Sudoku rules. Invalid moves, including overwriting pre-filled cells and placing two numbers in one row/col/sub-grid will result in penalties.\n" +
		"The history of your moves will be appended as you play more rounds. Use the history of your move to improve your decision making by avoiding the moves you have tried. Good luck!\n\n"
	if obs != want {
		t.Fatalf("4x4 instructions:\n%q\nwant\n%q", obs, want)
	}
	e, _ = r.Make("game:Sudoku-v0-hard", nil)
	obs, _, _ = e.Reset(0)
	for _, line := range []string{"You are playing Sudoku.\n", "3. Each of the nine 3x3 subgrids contains all digits from 1 to 9 without repetition.\n"} {
		if !strings.Contains(obs, line) {
			t.Errorf("9x9 instructions lack %q:\n%s", line, obs)
		}
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id                  string
		scale, clues, turns int
	}{
		{"game:Sudoku-v0-easy", 4, 10, 15},
		{"game:Sudoku-v0-hard", 9, 50, 50},
	} {
		e, _ := r.Make(tt.id, nil)
		e.Reset(3)
		g := inner(e)
		if g.scale != tt.scale || g.clues != tt.clues || g.maxTurns != tt.turns {
			t.Errorf("%s: scale %d, %d clues, %d turns; want %d, %d, %d", tt.id, g.scale, g.clues, g.maxTurns, tt.scale, tt.clues, tt.turns)
		}
	}
	e, _ := r.Make("game:Sudoku-v0-random", nil)
	drawn := map[preset]int{}
	for seed := range uint64(100) {
		e.Reset(seed)
		g := inner(e)
		drawn[preset{g.scale, g.clues, g.maxTurns}]++
	}
	if len(drawn) != 2 || drawn[randomPresets[0]] < 30 || drawn[randomPresets[1]] < 30 {
		t.Fatalf("random variant drew %v, want GEM's two presets about evenly", drawn)
	}
}

// TestPuzzles checks generated puzzles independently of the generator: the
// solution is a valid grid, the puzzle keeps exactly `clues` of its digits,
// and a plain backtracking count finds no other solution.
func TestPuzzles(t *testing.T) {
	r := registry(t)
	cases := []struct {
		id    string
		opts  map[string]any
		seeds uint64
	}{
		{"game:Sudoku-v0-easy", nil, 100},
		{"game:Sudoku-v0-hard", nil, 30},
		{"game:Sudoku-v0-random", nil, 30},
		{"game:Sudoku-v0-easy", map[string]any{"clues": 4, "max_turns": 12}, 30},
		{"game:Sudoku-v0-hard", map[string]any{"clues": 25, "max_turns": 56}, 3},
	}
	for _, tt := range cases {
		e := envtest.Make(t, r, tt.id, tt.opts)
		for seed := range tt.seeds {
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatal(err)
			}
			g := inner(e)
			if !validGrid(g.solution, g.scale) {
				t.Fatalf("%s %v seed %d: solution %v is not a valid grid", tt.id, tt.opts, seed, g.solution)
			}
			givens := 0
			for i, v := range g.board {
				if v != 0 {
					givens++
					if v != g.solution[i] {
						t.Fatalf("%s seed %d: given %d at %d, solution has %d", tt.id, seed, v, i, g.solution[i])
					}
				}
			}
			if givens != g.clues || g.empty != g.scale*g.scale-g.clues {
				t.Fatalf("%s %v seed %d: %d givens (empty %d), want %d", tt.id, tt.opts, seed, givens, g.empty, g.clues)
			}
			if n := naiveSolutions(append([]int8(nil), g.board...), g.scale, 0); n != 1 {
				t.Fatalf("%s %v seed %d: %d solutions, want exactly 1", tt.id, tt.opts, seed, n)
			}
		}
	}
}

func validGrid(grid []int8, s int) bool {
	box := 2
	if s == 9 {
		box = 3
	}
	for k := range s {
		var row, col, bx uint16
		for j := range s {
			row |= 1 << grid[k*s+j]
			col |= 1 << grid[j*s+k]
			r, c := (k/box)*box+j/box, (k%box)*box+j%box
			bx |= 1 << grid[r*s+c]
		}
		full := uint16(1<<(s+1) - 2)
		if row != full || col != full || bx != full {
			return false
		}
	}
	return true
}

// naiveSolutions counts solutions (up to 2) by trying digits cell by cell in
// reading order, as GEM's _count_solutions does.
func naiveSolutions(grid []int8, s, from int) int {
	i := from
	for i < len(grid) && grid[i] != 0 {
		i++
	}
	if i == len(grid) {
		return 1
	}
	box := 2
	if s == 9 {
		box = 3
	}
	n := 0
	for d := int8(1); d <= int8(s) && n < 2; d++ {
		ok := true
		r, c := i/s, i%s
		for k := 0; k < s && ok; k++ {
			br, bc := (r/box)*box+k/box, (c/box)*box+k%box
			ok = grid[r*s+k] != d && grid[k*s+c] != d && grid[br*s+bc] != d
		}
		if ok {
			grid[i] = d
			n += naiveSolutions(grid, s, i+1)
			grid[i] = 0
		}
	}
	return n
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

// TestOracleWinsEverySeed: 200/200 wins per variant, one correct placement
// per empty cell, no wasted turn.
func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		spec, _ := r.Lookup(id)
		e, _ := r.Make(id, nil)
		for tr := range envtest.OracleEpisodes(t, e, 200, spec.MaxTurns) {
			g := inner(e)
			if !tr.Success() || len(tr.Steps) != g.empty || math.Abs(tr.Return()-1) > 1e-9 {
				t.Fatalf("%s seed %d: oracle success=%v in %d steps for %d empty cells, return %v:\n%s",
					id, tr.Seed, tr.Success(), len(tr.Steps), g.empty, tr.Return(), tr)
			}
			if g.empty > spec.MaxTurns || 1/float64(g.empty) > spec.RewardMax+1e-12 {
				t.Fatalf("%s seed %d: %d empty cells do not fit the spec's turns or reward bound", id, tr.Seed, g.empty)
			}
		}
	}
}

// The oracle fills a most-constrained cell first, in reading order on ties.
func TestOracleChoosesForcedCell(t *testing.T) {
	_, g := game(t)
	// Empty R1C1, R1C2, R3C1, R4C1. R1C1 could hold 1 or 2; R1C2 only 2
	// (row: 3 4, column: 4 1 3); R3C1 only 2 too, but later.
	g.board = []int8{0, 0, 3, 4, 3, 4, 1, 2, 0, 1, 4, 3, 0, 3, 2, 1}
	g.empty = 4
	if a, err := g.OracleAction(); err != nil || a != `\boxed{1 2 2}` {
		t.Fatalf("oracle move %q, %v; want \\boxed{1 2 2}", a, err)
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "game:Sudoku-v0-easy", map[string]any{"scale": 9, "clues": 30, "max_turns": 60})
	e.Reset(0)
	if g := inner(e); g.scale != 9 || g.clues != 30 || g.maxTurns != 60 || g.empty != 51 {
		t.Fatalf("options not applied: scale %d clues %d turns %d empty %d", g.scale, g.clues, g.maxTurns, g.empty)
	}
	e = envtest.Make(t, r, "game:Sudoku-v0-hard", map[string]any{"scale": nil})
	sizes := map[int]bool{}
	for seed := range uint64(20) {
		e.Reset(seed)
		sizes[inner(e).scale] = true
	}
	if len(sizes) != 2 {
		t.Fatalf("a null scale should draw GEM's random presets; drew scales %v", sizes)
	}
	envtest.OptionErrors(t, r, "game:Sudoku-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"scale": 16}, Option: "scale"},
		{Options: map[string]any{"clues": 3, "max_turns": 20}, Option: "clues"},
		{Options: map[string]any{"clues": 16}, Option: "clues"},
		{Options: map[string]any{"scale": 9, "clues": 24, "max_turns": 60}, Option: "clues"},
		{Options: map[string]any{"max_turns": 5}, Option: "max_turns"}, // 6 empty cells
		{Options: map[string]any{"givens": 10}, Option: "givens"},
		{Options: map[string]any{"scale": "4"}, Option: "scale"},
	})
}

// BenchmarkStep times Step alone on replayed oracle play (see envtest.BenchmarkReplay).
func BenchmarkStep(b *testing.B) { envtest.BenchmarkReplay(b, registry(b)) }

func BenchmarkReset(b *testing.B) {
	r := registry(b)
	for _, id := range []string{"game:Sudoku-v0-easy", "game:Sudoku-v0-hard"} {
		b.Run(id, func(b *testing.B) {
			e, _ := r.Make(id, nil)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				e.Reset(uint64(i))
			}
		})
	}
}
