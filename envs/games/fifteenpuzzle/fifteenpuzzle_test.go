package fifteenpuzzle

import (
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// game returns a reset env of id with its board forced to board.
func game(t *testing.T, id string, board []int8) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), id, 1)
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	if board != nil {
		inner.board = slices.Clone(board)
		inner.blank = slices.Index(inner.board, 0)
	}
	return e, inner
}

// boardIs checks the board after a step.
func boardIs(inner *Env, board ...int8) envtest.Check {
	return func(t testing.TB, i int, w envtest.Want, _ envs.StepResult) {
		t.Helper()
		if !slices.Equal(inner.board, board) {
			t.Fatalf("step %d %q: board %v, want %v", i, w.Action, inner.board, board)
		}
	}
}

const easy, hard, random = "game:FifteenPuzzle-v0-easy", "game:FifteenPuzzle-v0-hard", "game:FifteenPuzzle-v0-random"

func TestRules(t *testing.T) {
	t.Run("moves, off-board moves and win", func(t *testing.T) {
		// 1 2      The space is bottom-left; 3 sits right of it.
		// __ 3
		e, inner := game(t, easy, []int8{1, 2, 0, 3})
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{left} or \boxed{down}`, Obs: "At turn 1, you made a valid move: down.\n", Check: boardIs(inner, 0, 2, 1, 3)},
			{Action: `\boxed{right}`, Obs: "At turn 2, you chose a move right that is outside the bounds of the board.", InvalidAction: true, Check: boardIs(inner, 0, 2, 1, 3)},
			{Action: `\boxed{down}`, Obs: "At turn 3, you chose a move down that is outside the bounds of the board.", InvalidAction: true},
			{Action: `\boxed{up}`, Obs: "At turn 4, you made a valid move: up.\n", Check: boardIs(inner, 1, 2, 0, 3)},
			{Action: `\boxed{left}`, Obs: "Congratulations! You have solved the puzzle!", Reward: 1, Terminated: true, Success: true, Check: boardIs(inner, 1, 2, 3, 0)},
		})
	})
	t.Run("the pattern is case-sensitive, as GEM's", func(t *testing.T) {
		e, _ := game(t, easy, []int8{1, 2, 0, 3})
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{Left}`, Obs: "At turn 1, you did not provide a valid guess", Reward: -0.1, Terminated: true, FormatError: true}})
	})
	t.Run("max turns adds the fraction of cells in place", func(t *testing.T) {
		e, inner := game(t, easy, []int8{1, 2, 0, 3})
		inner.turn = 9
		// Off-board on the last turn: 0 + 2 of 4 cells in place (1 and 2).
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{up}`, Obs: "You have reached the maximum number of turns.", Reward: 0.5, Terminated: true, Truncated: true, InvalidAction: true}})
	})
	t.Run("a legal move on the last turn is scored on the new board", func(t *testing.T) {
		e, inner := game(t, hard, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15})
		inner.turn = 49
		// down: 11 drops into the space; 1..10 and 12..14 stay in place: 13 of 16.
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{down}`, Obs: "You have reached the maximum number of turns.", Reward: 13.0 / 16, Terminated: true, Truncated: true,
			Check: boardIs(inner, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 12, 13, 14, 11, 15)}})
	})
	t.Run("winning on the last turn is not truncated", func(t *testing.T) {
		e, inner := game(t, easy, []int8{1, 2, 0, 3})
		inner.turn = 9
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{left}`, Obs: "Congratulations! You have solved the puzzle!", Reward: 1, Terminated: true, Success: true}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, inner := game(t, easy, []int8{1, 2, 0, 3})
		inner.turn = 9
		envtest.Expect(t, e, []envtest.Want{{Action: "left", Obs: "At turn 10, you did not provide a valid guess", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
}

func TestObservations(t *testing.T) {
	e, inner := game(t, hard, []int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15})
	obs, _, _ := e.Reset(1)
	if !strings.HasPrefix(obs, "You are playing the 15-Puzzle game.\nYou have to arrange the numbered tiles in ascending order from 1 to 15, with the empty space") ||
		!strings.HasSuffix(obs, "The current board layout is shown below\nUse logic and planning to solve the puzzle.\n") {
		t.Fatalf("reset observation:\n%s", obs)
	}
	inner.board = []int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15}
	inner.blank = 14
	res, err := e.Step(`\boxed{left}`)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Info.Success || res.Info.ParsedAction != `\boxed{left}` {
		t.Fatalf("left on a one-move board: %+v", res)
	}
	want := "Here is the current board layout: \n" +
		" 1  2  3  4\n" +
		" 5  6  7  8\n" +
		" 9 10 11 12\n" +
		"13 14 15 __\n" +
		"\nEnter your move."
	if res.Info.Suffix != want {
		t.Fatalf("suffix:\n%q\nwant\n%q", res.Info.Suffix, want)
	}
	_, inner2 := game(t, easy, []int8{3, 1, 0, 2})
	if got := inner2.info().Suffix; got != "Here is the current board layout: \n 3  1\n__  2\n\nEnter your move." {
		t.Fatalf("2x2 suffix %q", got)
	}
}

func TestSolvable(t *testing.T) {
	for _, tt := range []struct {
		board []int8
		n     int
		want  bool
	}{
		{[]int8{1, 2, 3, 0}, 2, true},
		{[]int8{2, 1, 3, 0}, 2, false},
		{[]int8{1, 2, 0, 3}, 2, true},
		{[]int8{0, 1, 3, 2}, 2, true},
		{[]int8{0, 2, 3, 1}, 2, false},
		{[]int8{1, 2, 3, 4, 5, 6, 8, 7, 0}, 3, false},
		{[]int8{1, 2, 3, 4, 5, 6, 7, 0, 8}, 3, true},
		{[]int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0}, 4, false}, // Loyd's 14-15 puzzle
		{[]int8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12}, 4, true},
	} {
		if got := solvable(tt.board, tt.n); got != tt.want {
			t.Errorf("solvable(%v) = %v, want %v", tt.board, got, tt.want)
		}
	}
}

// TestScramble checks every start is solvable and unsolved, for both of
// GEM's algorithms and every size, and that easy starts are GEM's: 100
// non-reversing moves on 2x2 circle the board, leaving one of two boards
// four moves from the goal.
func TestScramble(t *testing.T) {
	r := registry(t)
	for _, algo := range []string{MonteCarlo, PureRandom} {
		for _, n := range []int{2, 3, 4, 5} {
			e := envtest.Make(t, r, easy, map[string]any{"num_rows": n, "init_algo": algo, "max_turns": 30})
			inner := e.(envs.Unwrapper).Unwrap().(*Env)
			distinct := map[string]bool{}
			for seed := range uint64(100) {
				e.Reset(seed)
				if !solvable(inner.board, n) || inner.solved() || inner.board[inner.blank] != 0 || len(inner.board) != n*n {
					t.Fatalf("%s %dx%d seed %d: bad start %v", algo, n, n, seed, inner.board)
				}
				distinct[inner.render()] = true
			}
			if n > 2 && len(distinct) < 90 {
				t.Errorf("%s %dx%d: only %d distinct starts in 100 seeds", algo, n, n, len(distinct))
			}
		}
	}
	e, inner := game(t, easy, nil)
	starts := map[string]bool{}
	for seed := range uint64(50) {
		e.Reset(seed)
		plan, ok := solve(inner.board, 2, 10, 1000)
		if !ok || len(plan) != 4 {
			t.Fatalf("seed %d: easy start %v solves in %d moves (ok %v), want 4", seed, inner.board, len(plan), ok)
		}
		starts[inner.render()] = true
	}
	if len(starts) != 2 {
		t.Fatalf("easy starts: %d distinct, want GEM's 2", len(starts))
	}
	// A scramble that lands on the goal keeps walking: 12 moves circle a 2x2
	// board back to it.
	e12 := envtest.Make(t, registry(t), easy, map[string]any{"mc_rand_moves": 12})
	for seed := range uint64(20) {
		e12.Reset(seed)
		if e12.(envs.Unwrapper).Unwrap().(*Env).solved() {
			t.Fatalf("seed %d: 12-move scramble handed out a solved board", seed)
		}
	}
}

// TestSolverOptimal compares IDA* with breadth-first search over every 3x3
// board, so an inadmissible heuristic (or a bad incremental update) fails.
func TestSolverOptimal(t *testing.T) {
	goal := goalBoard(3)
	dist := map[string]int{key(goal): 0}
	type entry struct {
		board []int8
		d     int
	}
	all := []entry{{goal, 0}}
	for i := 0; i < len(all); i++ {
		for m := range 4 {
			sim := Env{n: 3, board: slices.Clone(all[i].board)}
			sim.blank = slices.Index(sim.board, 0)
			if !sim.apply(m) {
				continue
			}
			if _, seen := dist[key(sim.board)]; !seen {
				dist[key(sim.board)] = all[i].d + 1
				all = append(all, entry{sim.board, all[i].d + 1})
			}
		}
	}
	if len(all) != 181440 || all[len(all)-1].d != 31 {
		t.Fatalf("BFS reached %d boards, deepest %d; want 9!/2 and 31", len(all), all[len(all)-1].d)
	}
	checked := 0
	for i, en := range all {
		if i%500 != 0 && en.d < 30 { // a sample, plus every board at 30 and 31
			continue
		}
		plan, ok := solve(en.board, 3, 40, 50_000_000)
		if !ok || len(plan) != en.d {
			t.Fatalf("board %v: IDA* found %d moves (ok %v), BFS %d", en.board, len(plan), ok, en.d)
		}
		sim := Env{n: 3, board: slices.Clone(en.board), blank: slices.Index(en.board, 0)}
		for _, m := range plan {
			if !sim.apply(int(m)) {
				t.Fatalf("board %v: plan move %d illegal", en.board, m)
			}
		}
		if !sim.solved() {
			t.Fatalf("board %v: plan does not solve it", en.board)
		}
		checked++
	}
	if checked < 500 {
		t.Fatalf("checked only %d boards", checked)
	}
	if _, ok := solve([]int8{8, 6, 7, 2, 5, 4, 3, 0, 1}, 3, 30, 50_000_000); ok {
		t.Fatal("a 31-move board solved within 30")
	}
}

func key(b []int8) string {
	k := make([]byte, len(b))
	for i, v := range b {
		k[i] = byte(v)
	}
	return string(k)
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id        string
		n, turns  int
		maxTurns  int
		specTurns int
	}{
		{easy, 2, 10, 10, 10},
		{hard, 4, 50, 50, 50},
	} {
		_, inner := game(t, tt.id, nil)
		spec, _ := r.Lookup(tt.id)
		if inner.n != tt.n || inner.maxTurns != tt.turns || spec.MaxTurns != tt.specTurns {
			t.Errorf("%s: %dx%d in %d turns (spec %d)", tt.id, inner.n, inner.n, inner.maxTurns, spec.MaxTurns)
		}
	}
	e, inner := game(t, random, nil)
	seen := map[[2]int]int{}
	for seed := range uint64(300) {
		e.Reset(seed)
		seen[[2]int{inner.n, inner.maxTurns}]++
	}
	if len(seen) != 3 || seen[[2]int{2, 10}] == 0 || seen[[2]int{3, 20}] == 0 || seen[[2]int{4, 50}] == 0 {
		t.Fatalf("random draws %v, want GEM's (2,10), (3,20), (4,50)", seen)
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, hard, []envtest.OptionCase{
		{Options: map[string]any{"num_rows": 1}, Option: "num_rows"},
		{Options: map[string]any{"num_rows": 10}, Option: "num_rows"},
		{Options: map[string]any{"num_rows": "4"}, Option: "num_rows"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"init_algo": "bogo"}, Option: "init_algo"},
		{Options: map[string]any{"mc_rand_moves": 0}, Option: "mc_rand_moves"},
		{Options: map[string]any{"board": 4}, Option: "board"},
	})
	e := envtest.Make(t, r, random, map[string]any{"num_rows": 3}) // max_turns still nil: random
	if _, _, err := e.Reset(0); err != nil {
		t.Fatal(err)
	}
	e = envtest.Make(t, r, easy, map[string]any{"num_rows": 3, "max_turns": 31, "init_algo": "pure_random"})
	e.Reset(0)
	if in := e.(envs.Unwrapper).Unwrap().(*Env); in.n != 3 || in.maxTurns != 31 {
		t.Fatalf("options not applied: %dx%d, %d turns", in.n, in.n, in.maxTurns)
	}
}

func TestRandomActionsParse(t *testing.T) {
	_, inner := game(t, easy, nil)
	rng := envs.NewRand(3)
	seen := map[string]bool{}
	for range 200 {
		a := inner.SampleRandomAction(rng)
		if envs.LastMatch(actionPattern, a) == nil {
			t.Fatalf("random action %q does not parse", a)
		}
		seen[a] = true
	}
	if len(seen) != 4 {
		t.Fatalf("random actions %v, want all four directions", seen)
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

// oracleRate plays seeds of id with the oracle and returns the wins.
func oracleRate(t *testing.T, id string, seeds int) int {
	t.Helper()
	wins, trs := envtest.OracleWins(t, registry(t), id, seeds)
	for _, tr := range trs {
		if !tr.Done {
			t.Fatalf("seed %d: oracle episode unfinished", tr.Seed)
		}
	}
	return wins
}

func TestOracle(t *testing.T) {
	if wins := oracleRate(t, easy, 200); wins != 200 {
		t.Fatalf("easy: oracle won %d/200", wins)
	}
	// Hard: GEM's 100-move scramble is solvable within 50 moves on 175 of
	// seeds 0..199; IDA* within its node budget finds 165 of them. A sample
	// keeps the test fast.
	if wins := oracleRate(t, hard, 40); wins < 30 {
		t.Fatalf("hard: oracle won %d/40, want at least 30", wins)
	}
}

// TestOracleReplans: when the board leaves the plan, the oracle searches again.
func TestOracleReplans(t *testing.T) {
	e, inner := game(t, hard, nil)
	o, _ := envs.AsOracle(e)
	a, _ := o.OracleAction()
	// Play a different legal move instead.
	for _, m := range games.Directions {
		if `\boxed{`+m+`}` != a && inner.target(slices.Index(games.Directions[:], m)) >= 0 {
			if _, err := e.Step(`\boxed{` + m + `}`); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	for range 49 {
		a, _ := o.OracleAction()
		res, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if res.Done() {
			if !res.Info.Success {
				t.Fatalf("oracle did not recover: %q", res.Observation)
			}
			return
		}
	}
	t.Fatal("oracle did not finish")
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStepsOnly(b, registry(b)) }
