package sokoban

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/games"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

const easy, hard, random = "game:Sokoban-v0-easy", "game:Sokoban-v0-hard", "game:Sokoban-v0-random"

// parse reads a room drawn in GEM's symbols, one row per string, cells
// separated by spaces.
func parse(t *testing.T, rows ...string) (*level, state) {
	t.Helper()
	lv := &level{rows: len(rows), cols: len(strings.Fields(rows[0]))}
	var st state
	for r, row := range rows {
		for c, sym := range strings.Fields(row) {
			i := r*lv.cols + c
			switch sym {
			case "#":
				lv.wall.set(i)
			case "P":
				st.player = i
			case "X":
				st.boxes.set(i)
			case "O":
				lv.targets.set(i)
			case "√":
				st.boxes.set(i)
				lv.targets.set(i)
			case "_":
			default:
				t.Fatalf("unknown symbol %q", sym)
			}
		}
	}
	lv.prepare()
	return lv, st
}

// game returns a reset env of id whose room is replaced by rows.
func game(t *testing.T, id string, rows ...string) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), id, 1)
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	if len(rows) > 0 {
		inner.lv, inner.st = parse(t, rows...)
		inner.numBoxes = inner.st.boxes.count()
		inner.plan = nil
	}
	return e, inner
}

var twoBoxes = []string{
	"# # # # # #",
	"# P X _ O #",
	"# _ _ _ _ #",
	"# _ X O _ #",
	"# _ _ _ X #",
	"# # # # # #",
}

func TestRules(t *testing.T) {
	t.Run("moves, pushes, blocked moves and win", func(t *testing.T) {
		e, _ := game(t, easy,
			"# # # # # #",
			"# P X _ O #",
			"# _ _ _ _ #",
			"# _ X O _ #",
			"# _ _ _ _ #",
			"# # # # # #")
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{up}`, Obs: "At turn 1, you cannot move up - you would collide with wall or other boxes!", InvalidAction: true},
			{Action: `\boxed{right}`, Obs: "At turn 2, you pushed a box while you moved right."},
			{Action: `go \boxed{up} no, \boxed{RIGHT}`, Obs: "At turn 3, you pushed a box while you moved right."},
			{Action: `\boxed{right}`, Obs: "At turn 4, you cannot move right - you would collide with wall or other boxes!", InvalidAction: true},
			{Action: `\boxed{down}`, Obs: "At turn 5, you moved down."},
			{Action: `\boxed{left}`, Obs: "At turn 6, you moved left."},
			{Action: `\boxed{left}`, Obs: "At turn 7, you moved left."},
			{Action: `\boxed{down}`, Obs: "At turn 8, you moved down."},
			{Action: `\boxed{right}`, Obs: "Congratulations! You have solved the Sokoban puzzle!", Reward: 1, Terminated: true, Success: true},
		})
	})
	t.Run("a box cannot be pushed into another", func(t *testing.T) {
		e, inner := game(t, easy,
			"# # # # # #",
			"# P X X O #",
			"# _ _ _ O #",
			"# _ _ _ _ #",
			"# _ _ _ _ #",
			"# # # # # #")
		before := inner.st
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{right}`, Obs: "At turn 1, you cannot move right - you would collide with wall or other boxes!", InvalidAction: true}})
		if inner.st != before {
			t.Fatal("a blocked push changed the room")
		}
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		e, _ := game(t, easy, twoBoxes...)
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{north}`, Obs: "At turn 1, your submitted action is not valid.", Reward: -0.1, Terminated: true, FormatError: true}})
	})
	t.Run("max turns pays the fraction of boxes on targets", func(t *testing.T) {
		e, inner := game(t, easy,
			"# # # # # #",
			"# P _ _ √ #",
			"# _ _ _ _ #",
			"# _ X O _ #",
			"# _ _ _ _ #",
			"# # # # # #")
		inner.turn = 18
		envtest.Expect(t, e, []envtest.Want{
			{Action: `\boxed{down}`, Obs: "At turn 19, you moved down."},
			{Action: `\boxed{left}`, Obs: "You have reached the maximum number of turns.", Reward: 0.5, Terminated: true, Truncated: true, InvalidAction: true},
		})
	})
	t.Run("winning on the last turn is not truncated", func(t *testing.T) {
		e, inner := game(t, easy,
			"# # # # # #",
			"# P X O _ #",
			"# _ _ _ _ #",
			"# # # # # #",
			"# # # # # #",
			"# # # # # #")
		inner.turn = 19
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{right}`, Obs: "Congratulations! You have solved the Sokoban puzzle!", Reward: 1, Terminated: true, Success: true}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, inner := game(t, easy, twoBoxes...)
		inner.turn = 19
		envtest.Expect(t, e, []envtest.Want{{Action: "right", Obs: "At turn 20, your submitted action is not valid.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
}

func TestObservations(t *testing.T) {
	e, inner := game(t, easy,
		"# # # # # #",
		"# P X _ √ #",
		"# _ # _ O #",
		"# # # # # #")
	res, err := e.Step(`\boxed{right}`)
	if err != nil {
		t.Fatal(err)
	}
	want := "Here is the current board layout:\n" +
		"# # # # # #\n" +
		"# _ P X √ #\n" +
		"# _ # _ O #\n" +
		"# # # # # #\n" +
		"\nEnter your move."
	if res.Info.Suffix != want || res.Info.ParsedAction != `\boxed{right}` {
		t.Fatalf("suffix:\n%q\nwant\n%q (parsed %q)", res.Info.Suffix, want, res.Info.ParsedAction)
	}
	// The player hides a target it stands on, as in GEM.
	inner.st.player = 16
	if got := inner.lv.render(inner.st); got != "# # # # # #\n# _ _ X √ #\n# _ # _ P #\n# # # # # #\n" {
		t.Fatalf("player on target: %q", got)
	}
	obs, info, err := e.Reset(5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(obs, "You are solving the Sokoban puzzle. You are the player and you need to push all boxes to targets.\n") ||
		!strings.Contains(obs, "you have to complete the puzzle within 20 turns.\n") ||
		!strings.HasSuffix(obs, "Use logic and deduction to push all boxes onto the target positions!") {
		t.Fatalf("reset observation:\n%s", obs)
	}
	i := strings.Index(obs, "For example: ")
	line := obs[i : i+strings.Index(obs[i:], "\n")]
	var dir string
	for _, d := range games.Directions {
		if line == `For example: \boxed{`+d+`} to move `+d+"." {
			dir = d
		}
	}
	if dir == "" {
		t.Fatalf("example line %q", line)
	}
	if !strings.HasPrefix(info.Suffix, "Here is the current board layout:\n# # # # # #\n") || info.Extra["optimal_moves"] != inner.optimal {
		t.Fatalf("reset info %+v", info)
	}
}

// TestGeneratedLevels checks what the generator promises on many seeds: a
// walled room with n boxes off n targets, whose shortest solution (found
// independently by A*) equals the backward search's depth, fits the turn
// limit, and really solves the room.
func TestGeneratedLevels(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id    string
		seeds int
	}{{easy, 200}, {hard, 60}, {random, 60}} {
		e, _ := r.Make(tt.id, nil)
		inner := e.(envs.Unwrapper).Unwrap().(*Env)
		depths := map[int]int{}
		for seed := range uint64(tt.seeds) {
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatal(err)
			}
			lv, st := inner.lv, inner.st
			for i := range lv.rows * lv.cols {
				if (i/lv.cols == 0 || i%lv.cols == 0 || i/lv.cols == lv.rows-1 || i%lv.cols == lv.cols-1) && !lv.wall.has(i) {
					t.Fatalf("%s seed %d: border cell %d is open", tt.id, seed, i)
				}
			}
			if st.boxes.count() != inner.numBoxes || lv.targets.count() != inner.numBoxes ||
				st.boxes.and(lv.targets).count() != 0 || lv.wall.has(st.player) || st.boxes.has(st.player) || (st.boxes.and(lv.wall) != bitset{}) {
				t.Fatalf("%s seed %d: bad opening\n%s", tt.id, seed, lv.render(st))
			}
			if inner.optimal < 1 || inner.optimal > inner.maxTurns || len(inner.plan) != inner.optimal {
				t.Fatalf("%s seed %d: optimal %d, plan %d, limit %d", tt.id, seed, inner.optimal, len(inner.plan), inner.maxTurns)
			}
			plan, ok := solve(lv, st, inner.maxTurns, solverBudget)
			if !ok || len(plan) != inner.optimal {
				t.Fatalf("%s seed %d: A* found %d moves (ok %v), backward search %d\n%s", tt.id, seed, len(plan), ok, inner.optimal, lv.render(st))
			}
			if shorter, ok := solve(lv, st, inner.optimal-1, solverBudget); ok {
				t.Fatalf("%s seed %d: solved in %d < optimal %d", tt.id, seed, len(shorter), inner.optimal)
			}
			s := st
			for _, d := range inner.plan {
				var legal bool
				if s, _, legal = lv.move(s, int(d)); !legal {
					t.Fatalf("%s seed %d: plan move illegal", tt.id, seed)
				}
			}
			if !lv.solved(s) {
				t.Fatalf("%s seed %d: plan does not solve the room", tt.id, seed)
			}
			depths[inner.optimal]++
		}
		if len(depths) < 5 {
			t.Errorf("%s: shortest solutions barely vary: %v", tt.id, depths)
		}
	}
}

func TestSolver(t *testing.T) {
	// One push.
	lv, st := parse(t,
		"# # # # # #",
		"# _ _ _ _ #",
		"# O X P _ #",
		"# # # # # #")
	plan, ok := solve(lv, st, 20, 1000)
	if !ok || len(plan) != 1 {
		t.Fatalf("push left: plan %v ok %v", plan, ok)
	}
	lv, st = parse(t,
		"# # # # # #",
		"# _ _ _ _ #",
		"# P X _ O #",
		"# # # # # #")
	if plan, ok := solve(lv, st, 20, 1000); !ok || len(plan) != 2 {
		t.Fatalf("push right twice: plan %v ok %v", plan, ok)
	}
	lv, st = parse(t,
		"# # # # # #",
		"# _ _ _ _ #",
		"# O X _ P #",
		"# _ _ _ _ #",
		"# # # # # #")
	if plan, ok := solve(lv, st, 20, 1000); !ok || len(plan) != 2 {
		t.Fatalf("walk then push: plan %v ok %v", plan, ok)
	}
	// A box in a corner off target can never move.
	lv, st = parse(t,
		"# # # # #",
		"# X _ _ #",
		"# _ P O #",
		"# # # # #")
	if plan, ok := solve(lv, st, 50, 10000); ok {
		t.Fatalf("dead box solved: %v", plan)
	}
	if h := heuristic(lv, st.boxes); h < noPath {
		t.Fatalf("dead box heuristic %d", h)
	}
	// The heuristic assigns each target its own box: both boxes are nearest
	// the left target (1 and 2 pushes), but one must go right (5 pushes).
	lv, st = parse(t,
		"# # # # # # # # # #",
		"# O X X _ _ _ _ O #",
		"# # # # # # # # # #")
	if h := heuristic(lv, st.boxes); h != 6 {
		t.Fatalf("matching heuristic %d, want 6", h)
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id                       string
		rows, cols, boxes, turns int
	}{
		{easy, 6, 6, 2, 20},
		{hard, 8, 8, 4, 50},
	} {
		_, inner := game(t, tt.id)
		spec, _ := r.Lookup(tt.id)
		if inner.lv.rows != tt.rows || inner.lv.cols != tt.cols || inner.numBoxes != tt.boxes || inner.maxTurns != tt.turns || spec.MaxTurns != tt.turns {
			t.Errorf("%s: %dx%d, %d boxes, %d turns", tt.id, inner.lv.rows, inner.lv.cols, inner.numBoxes, inner.maxTurns)
		}
	}
	e, inner := game(t, random)
	seen := map[[4]int]int{}
	for seed := range uint64(40) {
		e.Reset(seed)
		seen[[4]int{inner.lv.rows, inner.lv.cols, inner.numBoxes, inner.maxTurns}]++
	}
	if len(seen) != 2 || seen[[4]int{6, 6, 2, 20}] == 0 || seen[[4]int{8, 8, 5, 50}] == 0 {
		t.Fatalf("random draws %v, want GEM's (6x6, 2, 20) and (8x8, 5, 50)", seen)
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, easy, []envtest.OptionCase{
		{Options: map[string]any{"dim_room": []int{6}}, Option: "dim_room"},
		{Options: map[string]any{"dim_room": []int{4, 6}}, Option: "dim_room"},
		{Options: map[string]any{"dim_room": []int{6, 11}}, Option: "dim_room"},
		{Options: map[string]any{"dim_room": "6x6"}, Option: "dim_room"},
		{Options: map[string]any{"num_boxes": 0}, Option: "num_boxes"},
		{Options: map[string]any{"num_boxes": 4}, Option: "num_boxes"}, // 6x6 holds at most 3
		{Options: map[string]any{"max_turns": 9}, Option: "max_turns"}, // 2 boxes need 10
		{Options: map[string]any{"max_turns": 301}, Option: "max_turns"},
		{Options: map[string]any{"room_size": []int{6, 6}}, Option: "room_size"},
	})
	// The tightest settings Validate allows still generate levels.
	for _, opts := range []map[string]any{
		{"dim_room": []int{5, 5}, "num_boxes": 1, "max_turns": 5},
		{"dim_room": []int{6, 6}, "num_boxes": 3, "max_turns": 15},
		{"dim_room": []int{7, 5}, "num_boxes": 3, "max_turns": 15},
	} {
		e := envtest.Make(t, r, easy, opts)
		for seed := range uint64(30) {
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatalf("%v seed %d: %v", opts, seed, err)
			}
		}
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

// Every level fits its turn limit, so the oracle wins every seed of every variant.
func TestOracle(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		_, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if !tr.Success() {
				t.Fatalf("%s seed %d: oracle lost after %d steps", id, tr.Seed, len(tr.Steps))
			}
		}
	}
}

// TestOracleReplans: after a move off the plan, the oracle searches again and still wins.
func TestOracleReplans(t *testing.T) {
	r := registry(t)
	e, _ := r.Make(hard, nil)
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	o, _ := envs.AsOracle(e)
	replanned := 0
	for seed := range uint64(20) {
		e.Reset(seed)
		if inner.optimal > inner.maxTurns-6 {
			continue // not enough slack for the detour
		}
		// Walk off the plan without pushing: one wasted turn, nothing spoiled.
		for _, d := range []int{0, 1, 2, 3} {
			if next, pushed, ok := inner.lv.move(inner.st, d); ok && !pushed && int8(d) != inner.plan[0] {
				if _, err := e.Step(games.BoxedDirection(d)); err != nil {
					t.Fatal(err)
				}
				if inner.st != next {
					t.Fatal("step did not move")
				}
				replanned++
				break
			}
		}
		for {
			a, _ := o.OracleAction()
			res, err := e.Step(a)
			if err != nil {
				t.Fatal(err)
			}
			if res.Done() {
				if !res.Info.Success {
					t.Fatalf("seed %d: oracle did not recover: %q", seed, res.Observation)
				}
				break
			}
		}
	}
	if replanned < 10 {
		t.Fatalf("only %d seeds exercised", replanned)
	}
}

// BenchmarkStep times Step alone. Unlike envtest.BenchmarkStepsOnly it
// always resets to seed 0: a new level per episode would be generated off the
// clock but multiply the run's wall time tenfold.
func BenchmarkStep(b *testing.B) {
	r := registry(b)
	for _, id := range r.IDs() {
		b.Run(id, func(b *testing.B) {
			e, _ := r.Make(id, nil)
			rng := envs.NewRand(1)
			e.Reset(0)
			b.ReportAllocs()
			for b.Loop() {
				res, err := e.Step(e.SampleRandomAction(rng))
				if err != nil {
					b.Fatal(err)
				}
				if res.Done() { // generation belongs to Reset, not Step
					b.StopTimer()
					e.Reset(0)
					b.StartTimer()
				}
			}
		})
	}
}
