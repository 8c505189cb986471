package minesweeper

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func inner(e envs.Env) *Env { return e.(envs.Unwrapper).Unwrap().(*Env) }

// The board every rule test plays (-easy, 5x5, mines marked *):
//
//	0 0 1 * *
//	0 0 1 3 *
//	1 1 0 1 1
//	* 2 0 0 0
//	* 2 0 0 0
//
// Revealing (0,0) floods all 20 safe cells unless a flag blocks the flood.
var fixedMines = []int{0*5 + 3, 0*5 + 4, 1*5 + 4, 3*5 + 0, 4*5 + 0}

func game(t *testing.T) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:Minesweeper-v0-easy", 1)
	g := inner(e)
	g.placeMines(fixedMines)
	return e, g
}

// layout is the suffix showing board.
func layout(board string) string {
	return "Here is the current board layout:\n" + board + "\nEnter your guess."
}

func TestRules(t *testing.T) {
	t.Run("reveal, flag, illegal moves and a win on the last flag", func(t *testing.T) {
		e, _ := game(t)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{flag 2 2}`, Obs: "At turn 1, you added a flag on cell (2, 2)."},
			// The flag on (2,2) stops the flood: 8 of 20 safe cells.
			{Action: `\boxed{reveal 0 0}`, Obs: "At turn 2, you successfully revealed cell (0, 0).", Reward: 8.0 / 20,
				Suffix: layout("    0  1  2  3  4\n" +
					" 0  0  0  1  .  . \n" +
					" 1  0  0  1  .  . \n" +
					" 2  1  1  F  .  . \n" +
					" 3  .  .  .  .  . \n" +
					" 4  .  .  .  .  . \n")},
			{Action: `\boxed{reveal 0 0}`, Obs: "At turn 3, you chose to reveal cell (0, 0), which has already been revealed.", InvalidAction: true},
			{Action: `\boxed{reveal 2 2}`, Obs: "At turn 4, you chose to reveal cell (2, 2), which is flagged. Remove the flag first.", InvalidAction: true},
			{Action: `\boxed{flag 0 1}`, Obs: "At turn 5, you chose to flag cell (0, 1), which has already been revealed.", InvalidAction: true},
			{Action: `\boxed{FLAG 2 2}`, Obs: "At turn 6, you removed a flag on cell (2, 2)."},
			{Action: `\boxed{dig 1 1}`, Obs: "At turn 7, you chose an invalid action 'dig'. Valid actions are 'reveal' or 'flag'.", InvalidAction: true},
			{Action: `\boxed{dig 5 0}`, Obs: "At turn 8, you chose cell (5, 0), which is outside the bounds of the grid.", InvalidAction: true},
			{Action: `\boxed{reveal 007 99999999999999999999999}`, Obs: "At turn 9, you chose cell (7, 99999999999999999999999), which is outside the bounds of the grid.", InvalidAction: true},
			// The last well-formed box counts.
			{Action: `\boxed{reveal 4 4}? no: \boxed{reveal 2 2}. \boxed{reveal x}`, Obs: "At turn 10, you successfully revealed cell (2, 2).", Reward: 12.0 / 20},
			// Every safe cell is revealed but GEM's win also needs every mine flagged.
			{Action: `\boxed{flag 0 3}`, Obs: "At turn 11, you added a flag on cell (0, 3)."},
			{Action: `\boxed{flag 0 4}`, Obs: "At turn 12, you added a flag on cell (0, 4)."},
			{Action: `\boxed{flag 1 4}`, Obs: "At turn 13, you added a flag on cell (1, 4)."},
			{Action: `\boxed{flag 3 0}`, Obs: "At turn 14, you added a flag on cell (3, 0)."},
			{Action: `\boxed{flag 4 0}`, Obs: "Congratulations! You have successfully cleared the Minesweeper board.", Terminated: true, Success: true,
				Suffix: layout("    0  1  2  3  4\n" +
					" 0  0  0  1  F  F \n" +
					" 1  0  0  1  3  F \n" +
					" 2  1  1  0  1  1 \n" +
					" 3  F  2  0  0  0 \n" +
					" 4  F  2  0  0  0 \n")},
		})
	})
	t.Run("a win on the last reveal, after flagging", func(t *testing.T) {
		e, _ := game(t)
		steps := []envtest.Want{}
		for i, m := range fixedMines {
			steps = append(steps, envtest.Want{Action: `\boxed{flag ` + itoa(m/5) + " " + itoa(m%5) + `}`,
				Obs: "At turn " + itoa(i+1) + ", you added a flag on cell (" + itoa(m/5) + ", " + itoa(m%5) + ")."})
		}
		steps = append(steps, envtest.Want{Action: `\boxed{reveal 0 0}`, Obs: "Congratulations! You have successfully cleared the Minesweeper board.", Reward: 1, Terminated: true, Success: true})
		envtest.Expect(t, e, steps)
	})
	t.Run("a mine ends the game", func(t *testing.T) {
		e, _ := game(t)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{reveal 0 0}`, Obs: "At turn 1, you successfully revealed cell (0, 0).", Reward: 1},
			{Action: `\boxed{reveal 0 3}`, Obs: "Game over! You hit a mine at (0, 3)", Terminated: true},
		})
	})
	t.Run("a flag protects a mine", func(t *testing.T) {
		e, _ := game(t)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{flag 0 3}`, Obs: "At turn 1, you added a flag on cell (0, 3)."},
			{Action: `\boxed{reveal 0 3}`, Obs: "At turn 2, you chose to reveal cell (0, 3), which is flagged. Remove the flag first.", InvalidAction: true},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		for _, a := range []string{`\boxed{reveal 1}`, `\boxed{reveal -1 2}`, `\boxed{reveal 1  2}`, `reveal 1 2`, `\boxed{1 2 reveal}`} {
			e, _ := game(t)
			envtest.Expect(t, e, []envtest.Want{{Action: a, Obs: "At turn 1, you did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true}})
		}
	})
	t.Run("max turns", func(t *testing.T) {
		e, g := game(t)
		g.turn = 23
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{flag 2 2}`, Obs: "At turn 24, you added a flag on cell (2, 2)."},
			// The reveal on the last turn keeps its dense reward.
			{Action: `\boxed{reveal 0 0}`, Obs: "You have reached the maximum number of turns.", Reward: 8.0 / 20, Terminated: true, Truncated: true},
		})
		e, g = game(t)
		g.turn = 24
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{reveal 9 9}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true}})
		e, g = game(t)
		g.turn = 24
		envtest.Expect(t, e, []envtest.Want{{Action: "no move", Obs: "At turn 25, you did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
		// A loss or a win on the last turn is terminal, not truncated, as in GEM.
		e, g = game(t)
		g.turn = 24
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{reveal 4 0}`, Obs: "Game over! You hit a mine at (4, 0)", Terminated: true}})
		e, g = game(t)
		copy(g.flagged, []bool{3: true, 4: true, 9: true, 15: true, 20: true})
		g.turn = 24
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{reveal 0 0}`, Obs: "Congratulations! You have successfully cleared the Minesweeper board.", Reward: 1, Terminated: true, Success: true}})
	})
}

func itoa(n int) string { return string(rune('0' + n)) }

func TestObservation(t *testing.T) {
	e := envtest.Make(t, registry(t), "game:Minesweeper-v0-easy", nil)
	obs, info, err := e.Reset(7)
	if err != nil {
		t.Fatal(err)
	}
	wantSuffix := "Here is the current board layout:\n" +
		"    0  1  2  3  4\n" +
		" 0  .  .  .  .  . \n" +
		" 1  .  .  .  .  . \n" +
		" 2  .  .  .  .  . \n" +
		" 3  .  .  .  .  . \n" +
		" 4  .  .  .  .  . \n" +
		"\nEnter your guess."
	if info.Suffix != wantSuffix {
		t.Fatalf("reset suffix:\n%q\nwant\n%q", info.Suffix, wantSuffix)
	}
	example := regexp.MustCompile(`(?m)^- \\boxed\{reveal (\d) (\d)\} to reveal the cell in Row (\d), Column (\d)\.\n` +
		`- \\boxed\{flag (\d) (\d)\} to place or remove a flag on the cell in Row (\d), Column (\d)\.$`)
	m := example.FindStringSubmatch(obs)
	if m == nil || m[1] != m[3] || m[2] != m[4] || m[5] != m[7] || m[6] != m[8] {
		t.Fatalf("reset observation lacks consistent examples:\n%s", obs)
	}
	for _, line := range []string{
		"You are playing the Minesweeper game.\n",
		"To submit your move, type the command followed by the row and column in \\boxed{}.\n",
		"Be mindful not to choose revealed or flagged cells.\n",
	} {
		if !strings.Contains(obs, line) {
			t.Errorf("reset observation lacks %q", line)
		}
	}
}

func TestFirstRevealIsSafe(t *testing.T) {
	r := registry(t)
	for _, id := range []string{"game:Minesweeper-v0-easy", "game:Minesweeper-v0-hard", "game:Minesweeper-v0-random"} {
		e, _ := r.Make(id, nil)
		for seed := range uint64(200) {
			e.Reset(seed)
			g := inner(e)
			if g.placed || slices.ContainsFunc(g.grid, func(v int8) bool { return v != 0 }) {
				t.Fatalf("%s seed %d: mines placed before the first reveal", id, seed)
			}
			// A flagged cell cannot be revealed, so it does not place the mines.
			first := envs.NewRand(seed).IntN(g.rows * g.cols)
			g.flagged[first] = true
			e.Step(`\boxed{reveal ` + coord(g, first) + `}`)
			if g.placed {
				t.Fatalf("%s seed %d: revealing a flagged cell placed the mines", id, seed)
			}
			e.Step(`\boxed{flag ` + coord(g, first) + `}`)
			res, _ := e.Step(`\boxed{reveal ` + coord(g, first) + `}`)
			if g.grid[first] == mine || !g.revealed[first] {
				t.Fatalf("%s seed %d: the first reveal was not safe: %q", id, seed, res.Observation)
			}
			mines := 0
			for i, v := range g.grid {
				if v != mine {
					continue
				}
				mines++
				if abs(i/g.cols-first/g.cols) <= 1 && abs(i%g.cols-first%g.cols) <= 1 {
					t.Fatalf("%s seed %d: mine %d next to the first reveal %d", id, seed, i, first)
				}
			}
			if mines != g.mines {
				t.Fatalf("%s seed %d: %d mines, want %d", id, seed, mines, g.mines)
			}
		}
	}
}

func coord(g *Env, i int) string { return itoa2(i/g.cols) + " " + itoa2(i%g.cols) }

func itoa2(n int) string {
	if n < 10 {
		return itoa(n)
	}
	return itoa(n/10) + itoa(n%10)
}

func abs(x int) int { return max(x, -x) }

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id                   string
		rows, cols, n, turns int
	}{
		{"game:Minesweeper-v0-easy", 5, 5, 5, 25},
		{"game:Minesweeper-v0-hard", 8, 8, 12, 64},
	} {
		e, _ := r.Make(tt.id, nil)
		e.Reset(3)
		g := inner(e)
		if g.rows != tt.rows || g.cols != tt.cols || g.mines != tt.n || g.maxTurns != tt.turns {
			t.Errorf("%s: %dx%d, %d mines, %d turns; want %dx%d, %d, %d", tt.id, g.rows, g.cols, g.mines, g.maxTurns, tt.rows, tt.cols, tt.n, tt.turns)
		}
	}
	e, _ := r.Make("game:Minesweeper-v0-random", nil)
	sides := map[int]bool{}
	for seed := range uint64(100) {
		e.Reset(seed)
		g := inner(e)
		n := g.rows
		if n < 5 || n > 8 || g.cols != n || g.mines != n*n/5 || g.maxTurns != n*n {
			t.Fatalf("seed %d: %dx%d, %d mines, %d turns: not GEM's draw", seed, g.rows, g.cols, g.mines, g.maxTurns)
		}
		sides[n] = true
	}
	if len(sides) != 4 {
		t.Fatalf("random sides drawn: %v, want all of 5..8", sides)
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

// TestOracle plays 200 seeds of every variant. The oracle never makes an
// illegal move, wins at least 70% of each variant, and on a win has
// collected exactly the reward for every safe cell.
func TestOracle(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		spec, _ := r.Lookup(id)
		wins, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if !tr.Done {
				t.Fatalf("%s seed %d: oracle not done within %d turns", id, tr.Seed, spec.MaxTurns)
			}
			for i, s := range tr.Steps {
				if s.Info.InvalidAction || s.Info.FormatError {
					t.Fatalf("%s seed %d step %d: oracle move %q refused: %s", id, tr.Seed, i, s.Action, s.Observation)
				}
			}
			if tr.Success() && math.Abs(tr.Return()-1) > 1e-9 {
				t.Fatalf("%s seed %d: won with return %v, want 1", id, tr.Seed, tr.Return())
			}
		}
		t.Logf("%s: oracle won %d/200 (%.1f%%)", id, wins, float64(wins)/2)
		if wins < 140 {
			t.Errorf("%s: oracle won %d/200, want at least 140", id, wins)
		}
	}
}

// TestOracleTakesOver hands random games to the oracle: it must clear the
// random policy's wrong flags and never make an illegal move.
func TestOracleTakesOver(t *testing.T) {
	r := registry(t)
	e, _ := r.Make("game:Minesweeper-v0-hard", nil)
	wins := 0
	for seed := range uint64(100) {
		e.Reset(seed)
		rng := envs.NewRand(seed + 1)
		g := inner(e)
		done := false
		// Flag-heavy random play: up to 8 flags and one reveal.
		for k := 0; k < 8 && !done; k++ {
			res, _ := e.Step(`\boxed{flag ` + coord(g, rng.IntN(64)) + `}`)
			done = res.Done()
		}
		if !done {
			res, _ := e.Step(e.SampleRandomAction(rng))
			done = res.Done()
		}
		for !done {
			a, err := envtest.OraclePolicy(e)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			if res.Info.InvalidAction || res.Info.FormatError {
				t.Fatalf("seed %d: oracle move %q refused: %s", seed, a, res.Observation)
			}
			done = res.Done()
			if res.Info.Success {
				wins++
			}
		}
	}
	if wins < 50 {
		t.Fatalf("oracle won %d/100 games taken over from random play", wins)
	}
}

// board builds a solver from rows of text: digits are revealed counts,
// '.' hidden cells, 'F' flagged hidden cells.
func board(mines int, rows ...string) *solver {
	s := &solver{rows: len(rows), cols: len(rows[0]), mines: mines}
	for _, row := range rows {
		for _, ch := range row {
			switch ch {
			case '.', 'F':
				s.num = append(s.num, hidden)
			default:
				s.num = append(s.num, int8(ch-'0'))
			}
			s.flagged = append(s.flagged, ch == 'F')
		}
	}
	s.known = make([]int8, len(s.num))
	return s
}

func TestSolverDeductions(t *testing.T) {
	tests := []struct {
		name  string
		s     *solver
		known string // per cell: '?' unknown, 's' safe, 'm' mine, ' ' revealed
		kind  string
		cell  int
	}{
		{
			// No single count decides anything; the pair (1 of {a,b}) and
			// (2 of {a,b,c}) does: c is a mine, then a, then b is safe.
			name: "pair rule, 1-2-1",
			s:    board(2, "121", "..."),
			known: "   " +
				"msm",
			kind: "flag", cell: 3,
		},
		{
			// (0,0)=1 has one hidden neighbour: a mine. The mine total (1)
			// is then met, which clears the rest.
			name:  "single rules",
			s:     board(1, "1.."),
			known: " ms",
			kind:  "flag", cell: 1,
		},
		{
			// (0,0) touches no count; only the mine total makes it a mine.
			name: "global count",
			s:    board(4, "..2", "..2", "221"),
			known: "mm " +
				"mm " +
				"   ",
			kind: "flag", cell: 0,
		},
		{
			// A flag on a cell proved safe comes off first.
			name: "wrong flag is lifted",
			s:    board(1, "011", "F.."),
			known: "   " +
				"ssm",
			kind: "flag", cell: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.deduce()
			var got strings.Builder
			for i, k := range tt.s.known {
				switch {
				case tt.s.num[i] != hidden:
					got.WriteByte(' ')
				case k == safe:
					got.WriteByte('s')
				case k == isMine:
					got.WriteByte('m')
				default:
					got.WriteByte('?')
				}
			}
			if got.String() != tt.known {
				t.Fatalf("deduced %q, want %q", got.String(), tt.known)
			}
			kind, cell := tt.s.next()
			if kind != tt.kind || (tt.kind == "flag" && cell != tt.cell) {
				t.Fatalf("move %s %d, want %s %d", kind, cell, tt.kind, tt.cell)
			}
		})
	}
}

func TestSolverProbabilities(t *testing.T) {
	// (0,0)=1: one mine among its three hidden neighbours (3 ways); the
	// other mines go among the five cells no count touches.
	for _, tt := range []struct {
		mines           int
		frontier, other float64
		guess           int
	}{
		{2, 1.0 / 3, 1.0 / 5, 2}, // 1 mine left for 5 cells: guess (0,2), off the frontier
		{3, 1.0 / 3, 2.0 / 5, 1}, // 2 left for 5: guess (0,1), on it
	} {
		s := board(tt.mines, "1..", "...", "...")
		s.deduce()
		p, exact := s.enumerate()
		if !exact {
			t.Fatal("enumeration gave up on a 3-cell frontier")
		}
		for i, want := range []float64{0, tt.frontier, tt.other, tt.frontier, tt.frontier, tt.other, tt.other, tt.other, tt.other} {
			if math.Abs(p[i]-want) > 1e-12 {
				t.Fatalf("%d mines: p[%d] = %v, want %v (all %v)", tt.mines, i, p[i], want, p)
			}
		}
		if kind, cell := s.next(); kind != "reveal" || cell != tt.guess {
			t.Fatalf("%d mines: guess %s %d, want reveal %d", tt.mines, kind, cell, tt.guess)
		}
		// The fallback estimate ranks the cells the same way here.
		est := s.estimate()
		if (est[1] < est[2]) != (tt.frontier < tt.other) {
			t.Fatalf("%d mines: estimate %v ranks frontier and other cells wrongly", tt.mines, est)
		}
	}
}

func TestSolverWeighsFrontierMineCounts(t *testing.T) {
	// a 1 b 1 c, then five cells no count touches; three mines. Either b
	// alone is a mine (the other two among the five: C(5,2) = 10 ways) or
	// a and c are (the third among the five: 5 ways).
	s := board(3, ".1.1......")
	s.deduce()
	p, exact := s.enumerate()
	if !exact {
		t.Fatal("enumeration gave up")
	}
	want := []float64{1.0 / 3, 0, 2.0 / 3, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3}
	for i := range want {
		if math.Abs(p[i]-want[i]) > 1e-12 {
			t.Fatalf("p = %v, want %v", p, want)
		}
	}
}

func TestEnumerateComponent(t *testing.T) {
	// Ten mines among twenty cells under one count: C(20,10) configurations.
	c := component{cells: make([]int, 20), cons: [][]int{make([]int, 20)}, count: []int{10}}
	for i := range 20 {
		c.cells[i], c.cons[0][i] = i, i
	}
	budget := enumBudget
	d := enumerateComponent(c, &budget)
	if d == nil || d.count[10] != 184756 || d.mineCount[7][10] != 92378 {
		t.Fatalf("enumeration of C(20,10) configurations wrong: %+v", d)
	}
	// With a budget of a few nodes the search gives up rather than guess.
	budget = 10
	if d := enumerateComponent(c, &budget); d != nil {
		t.Fatal("enumeration did not stop at its budget")
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "game:Minesweeper-v0-easy", map[string]any{"rows": 6, "cols": 7, "num_mines": 3, "max_turns": 10})
	e.Reset(0)
	if g := inner(e); g.rows != 6 || g.cols != 7 || g.mines != 3 || g.maxTurns != 10 {
		t.Fatalf("options not applied: %dx%d %d mines %d turns", g.rows, g.cols, g.mines, g.maxTurns)
	}
	// A null parameter makes the board random, as in GEM.
	e = envtest.Make(t, r, "game:Minesweeper-v0-easy", map[string]any{"num_mines": nil})
	e.Reset(0)
	if g := inner(e); g.mines != g.rows*g.rows/5 || g.maxTurns != g.rows*g.rows {
		t.Fatalf("null num_mines did not draw a random board: %dx%d %d mines", g.rows, g.cols, g.mines)
	}
	envtest.OptionErrors(t, r, "game:Minesweeper-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"rows": 0}, Option: "rows"},
		{Options: map[string]any{"cols": 100}, Option: "cols"},
		{Options: map[string]any{"num_mines": 17}, Option: "num_mines"}, // 25 cells - 9 in the first zone
		{Options: map[string]any{"num_mines": -1}, Option: "num_mines"},
		{Options: map[string]any{"rows": 2, "cols": 2, "num_mines": 1}, Option: "num_mines"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"mines": 3}, Option: "mines"},
		{Options: map[string]any{"rows": "5"}, Option: "rows"},
	})
	if _, err := r.Make("game:Minesweeper-v0-easy", map[string]any{"num_mines": 16}); err != nil {
		t.Errorf("16 mines on 5x5 fit outside any first zone: %v", err)
	}
}

// BenchmarkStep times Step alone on replayed oracle play (see envtest.BenchmarkReplay).
func BenchmarkStep(b *testing.B) { envtest.BenchmarkReplay(b, registry(b)) }
