package game2048

import (
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

const (
	easy    = "game:Game2048-v0-easy"
	hard    = "game:Game2048-v0-hard"
	extreme = "game:Game2048-v0-extreme-hard"
	random  = "game:Game2048-v0-random"
)

// grid builds a board from tile values, row by row.
func grid(n int, values ...int) board {
	b := board{n: n}
	for i, v := range values {
		if v != 0 {
			b.c[i] = uint8(math.Log2(float64(v)))
		}
	}
	return b
}

func (b *board) values() []int {
	out := make([]int, b.n*b.n)
	for i := range out {
		if b.c[i] != 0 {
			out[i] = 1 << b.c[i]
		}
	}
	return out
}

// game returns a reset env of id whose board is forced, its opening maximum
// taken from it as Reset would.
func game(t *testing.T, id string, b *board) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), id, 1)
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	if b != nil {
		inner.b = *b
		inner.best = b.maxTile()
		inner.opening = inner.best
	}
	return e, inner
}

func TestSlide(t *testing.T) {
	for _, tt := range []struct {
		name  string
		in    board
		dir   int
		want  board
		moved bool
	}{
		{"left merges pairs once, from the left", grid(4, 2, 2, 2, 2, 4, 4, 8, 0, 2, 0, 2, 4, 0, 0, 0, 0), 2,
			grid(4, 4, 4, 0, 0, 8, 8, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0), true},
		{"right merges from the right", grid(4, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 3,
			grid(4, 0, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), true},
		{"up", grid(4, 2, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 8), 0,
			grid(4, 4, 0, 0, 8, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), true},
		{"down", grid(4, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0), 1,
			grid(4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0), true},
		{"no merge of unequal tiles", grid(4, 4, 2, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 2,
			grid(4, 4, 2, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), false},
		{"a merged tile does not merge again", grid(4, 4, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), 2,
			grid(4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), true},
		{"3x3", grid(3, 0, 2, 2, 0, 0, 0, 8, 0, 8), 2, grid(3, 4, 0, 0, 0, 0, 0, 16, 0, 0), true},
	} {
		got, moved := tt.in.slide(tt.dir)
		if got != tt.want || moved != tt.moved {
			t.Errorf("%s: got %v moved %v, want %v moved %v", tt.name, got.values(), moved, tt.want.values(), tt.moved)
		}
	}
	stuck := grid(2, 2, 4, 4, 2)
	if !stuck.stuck() {
		t.Error("checkerboard not stuck")
	}
	if g := grid(2, 2, 4, 2, 8); g.stuck() {
		t.Error("a vertical pair counted as stuck")
	}
}

func TestRules(t *testing.T) {
	t.Run("wasted moves and progress", func(t *testing.T) {
		// Opening maximum 8, target 64: the climb is log2(64/8) = 3.
		b := grid(4,
			8, 8, 0, 2,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0)
		e, _ := game(t, easy, &b)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{up}`, Obs: "At turn 1, you chose move 'up' which doesn't change the board state. Try a different direction.", InvalidAction: true},
			{Action: `\boxed{left}`, Obs: "At turn 2, you moved left", Reward: 1.0 / 3}, // 8 → 16
		})
	})
	t.Run("reaching the target wins", func(t *testing.T) {
		b := grid(4,
			32, 32, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 2)
		e, _ := game(t, easy, &b)
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{LEFT}`, Obs: "Congratulations! You reached the 64 tile in 1 turns!", Reward: 1, Terminated: true, Success: true}})
	})
	t.Run("the target caps progress", func(t *testing.T) {
		b := grid(4,
			64, 64, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 2)
		e, inner := game(t, random, &b)
		inner.target, inner.opening, inner.best = 32, 2, 16 // best 16 of target 32 from 2: one step of four left
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{left}`, Obs: "Congratulations! You reached the 32 tile in 1 turns!", Reward: 0.25, Terminated: true, Success: true}})
	})
	t.Run("no move left ends the game", func(t *testing.T) {
		// left empties only the last cell of row 0; a 2 spawned there leaves
		// no pair (a 4 would pair with the 4 below it).
		b := grid(4,
			0, 2, 4, 8,
			4, 8, 2, 4,
			2, 4, 8, 2,
			4, 2, 4, 8)
		for seed := uint64(0); ; seed++ {
			e, inner := game(t, easy, &b)
			// The spawn draws the same way from any board with one empty cell:
			// peek at this seed's value.
			inner.rng = envs.NewRand(seed)
			inner.spawn()
			if inner.b.c[0] != 1 {
				continue
			}
			inner.b = b
			inner.rng = envs.NewRand(seed)
			envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{left}`, Obs: "Game over! No more moves possible.", Terminated: true}})
			if got := inner.b.values(); got[3] != 2 || !inner.b.stuck() {
				t.Fatalf("board after game over %v", got)
			}
			return
		}
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		e, _ := game(t, easy, nil)
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{north}`, Obs: "At turn 1, you did not provide a valid move. Please use \\boxed{direction} format.", Reward: -0.1, Terminated: true, FormatError: true}})
	})
	t.Run("max turns keeps the step's progress", func(t *testing.T) {
		b := grid(4,
			2, 2, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0)
		e, inner := game(t, easy, &b)
		inner.turn = 49
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{left}`, Obs: "You have reached the maximum number of turns (50).", Reward: 1.0 / 5, Terminated: true, Truncated: true}})
	})
	t.Run("max turns after a wasted move", func(t *testing.T) {
		b := grid(4,
			4, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0,
			0, 0, 0, 0)
		e, inner := game(t, easy, &b)
		inner.turn = 49
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{left}`, Obs: "You have reached the maximum number of turns (50).", Terminated: true, Truncated: true, InvalidAction: true}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, inner := game(t, easy, nil)
		inner.turn = 49
		envtest.Expect(t, e, []envtest.Want{{Action: "left", Obs: "At turn 50, you did not provide a valid move. Please use \\boxed{direction} format.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
}

func TestObservations(t *testing.T) {
	b := grid(4,
		2, 0, 0, 0,
		0, 1024, 0, 0,
		0, 0, 16, 0,
		0, 0, 0, 128)
	_, inner := game(t, easy, &b)
	want := "Current board:\n" +
		"   2    .    .    .\n" +
		"   . 1024    .    .\n" +
		"   .    .   16    .\n" +
		"   .    .    .  128\n" +
		"Enter your move."
	if got := inner.info().Suffix; got != want {
		t.Fatalf("suffix:\n%q\nwant\n%q", got, want)
	}
	e, _ := game(t, hard, nil)
	obs, info, _ := e.Reset(9)
	if !strings.HasPrefix(obs, "You are playing 2048.\nYour goal is to reach the 512 tile by sliding and merging tiles.\nYou have 50 turns maximum.\n\nRules:\n") ||
		!strings.Contains(obs, "To submit your move, type the direction in \\boxed{...}.\nFor example: \\boxed{") || !strings.HasSuffix(obs, "}\n\n") {
		t.Fatalf("reset observation:\n%s", obs)
	}
	tiles := 0
	for _, line := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(info.Suffix, "Current board:\n"), "\nEnter your move."), "\n") {
		for _, f := range strings.Fields(line) {
			if f != "." {
				tiles++
			}
		}
	}
	if tiles != 2 {
		t.Fatalf("opening board has %d tiles:\n%s", tiles, info.Suffix)
	}
}

// TestSumBound checks the invariant behind the package comment's proof that
// -hard and -extreme-hard cannot be won: merges keep the tile sum, and each
// board-changing move adds one tile of 2 or 4, so after k such moves the sum
// is at most 8 + 4k.
func TestSumBound(t *testing.T) {
	r := registry(t)
	for seed := range uint64(20) {
		e, _ := r.Make(extreme, nil)
		inner := e.(envs.Unwrapper).Unwrap().(*Env)
		e.Reset(seed)
		sum := func() int {
			total := 0
			for _, v := range inner.b.values() {
				total += v
			}
			return total
		}
		prev, moves := sum(), 0
		if prev > 8 {
			t.Fatalf("seed %d: opening sum %d", seed, prev)
		}
		rng := envs.NewRand(seed)
		for {
			res, err := e.Step(e.SampleRandomAction(rng))
			if err != nil {
				t.Fatal(err)
			}
			s := sum()
			if res.Info.InvalidAction {
				if s != prev {
					t.Fatalf("seed %d: a wasted move changed the sum %d → %d", seed, prev, s)
				}
			} else if moves++; s != prev+2 && s != prev+4 {
				t.Fatalf("seed %d: a move changed the sum %d → %d", seed, prev, s)
			}
			if s > 8+4*moves {
				t.Fatalf("seed %d: sum %d after %d moves", seed, s, moves)
			}
			prev = s
			if res.Done() {
				break
			}
		}
	}
}

// TestSpawn checks GEM's spawn law: a uniform empty cell, a 4 one time in ten.
func TestSpawn(t *testing.T) {
	_, inner := game(t, easy, nil)
	inner.rng = envs.NewRand(5)
	fours, cells := 0, map[int]int{}
	const n = 20000
	for range n {
		inner.b = grid(4, 2, 0, 2, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)
		inner.spawn()
		for _, i := range []int{1, 3} {
			if inner.b.c[i] != 0 {
				cells[i]++
				if inner.b.c[i] == 2 {
					fours++
				}
			}
		}
	}
	if f := float64(fours) / n; f < 0.09 || f > 0.11 {
		t.Errorf("fours %.3f of spawns, want 0.1", f)
	}
	if c := float64(cells[1]) / n; c < 0.48 || c > 0.52 {
		t.Errorf("cell 1 chosen %.3f of the time, want 0.5", c)
	}
}

// TestProgressSumsToOne: a won episode's rewards add up to exactly the climb.
func TestProgressSumsToOne(t *testing.T) {
	r := registry(t)
	e, _ := r.Make(easy, nil)
	wins := 0
	for tr := range envtest.OracleEpisodes(t, e, 20, 50) {
		if tr.Success() {
			wins++
			if math.Abs(tr.Return()-1) > 1e-9 {
				t.Fatalf("seed %d: won with return %v", tr.Seed, tr.Return())
			}
		}
	}
	if wins < 10 {
		t.Fatalf("only %d wins to check", wins)
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id            string
		target, turns int
	}{
		{easy, 64, 50}, {hard, 512, 50}, {extreme, 2048, 100},
	} {
		_, inner := game(t, tt.id, nil)
		spec, _ := r.Lookup(tt.id)
		if inner.target != tt.target || inner.maxTurns != tt.turns || spec.MaxTurns != tt.turns || inner.b.n != 4 {
			t.Errorf("%s: target %d in %d turns on %dx%d", tt.id, inner.target, inner.maxTurns, inner.b.n, inner.b.n)
		}
	}
	e, inner := game(t, random, nil)
	seen := map[[2]int]int{}
	for seed := range uint64(100) {
		e.Reset(seed)
		seen[[2]int{inner.target, inner.maxTurns}]++
	}
	if len(seen) != 3 || seen[[2]int{16, 20}] == 0 || seen[[2]int{32, 30}] == 0 || seen[[2]int{64, 50}] == 0 {
		t.Fatalf("random draws %v, want GEM's (16,20), (32,30), (64,50)", seen)
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, easy, []envtest.OptionCase{
		{Options: map[string]any{"target_tile": 4}, Option: "target_tile"},
		{Options: map[string]any{"target_tile": "64"}, Option: "target_tile"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"board_size": 1}, Option: "board_size"},
		{Options: map[string]any{"board_size": 9}, Option: "board_size"},
		{Options: map[string]any{"size": 4}, Option: "size"},
	})
	e := envtest.Make(t, r, easy, map[string]any{"board_size": 3, "target_tile": 100, "max_turns": 7})
	e.Reset(0)
	if in := e.(envs.Unwrapper).Unwrap().(*Env); in.b.n != 3 || in.target != 100 || in.maxTurns != 7 {
		t.Fatalf("options not applied: %dx%d, target %d, %d turns", in.b.n, in.b.n, in.target, in.maxTurns)
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

// oracle plays seeds of id and returns the wins and the mean return.
func oracle(t *testing.T, id string, seeds int) (wins int, mean float64) {
	t.Helper()
	wins, trs := envtest.OracleWins(t, registry(t), id, seeds)
	for _, tr := range trs {
		if !tr.Done {
			t.Fatalf("%s seed %d: unfinished", id, tr.Seed)
		}
		mean += tr.Return() / float64(seeds)
	}
	return wins, mean
}

func TestOracle(t *testing.T) {
	if wins, _ := oracle(t, easy, 200); wins < 190 {
		t.Errorf("easy: oracle won %d/200, want at least 190", wins)
	}
	if wins, _ := oracle(t, random, 200); wins < 190 {
		t.Errorf("random: oracle won %d/200, want at least 190", wins)
	}
	// No policy wins these (see the package comment); the oracle reaches 64
	// or 128, i.e. 5/8 of -hard's climb from a 2.
	if wins, mean := oracle(t, hard, 50); wins != 0 || mean < 0.55 {
		t.Errorf("hard: oracle won %d, mean return %.3f; want 0 and at least 0.55", wins, mean)
	}
	if wins, mean := oracle(t, extreme, 20); wins != 0 || mean < 0.55 {
		t.Errorf("extreme-hard: oracle won %d, mean return %.3f; want 0 and at least 0.55", wins, mean)
	}
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkStepsOnly(b, registry(b)) }
