package guessthenumber

import (
	"math"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// game returns a reset -hard env (range 1..50, 7 turns) whose target is forced.
func game(t *testing.T, target int) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:GuessTheNumber-v0-hard", 1)
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	inner.target = target
	return e, inner
}

func TestRules(t *testing.T) {
	t.Run("hints, illegal and win", func(t *testing.T) {
		e, _ := game(t, 30)
		envtest.Expect(t, e, []envtest.Want{
			{Action: `I think \boxed{25}`, Obs: "At turn 1, you guessed 25, and the target number is higher than 25."},
			{Action: `\boxed{25}`, Obs: "At turn 2, you guessed 25, which has been already guessed before.", InvalidAction: true},
			{Action: `\boxed{51}`, Obs: "At turn 3, you guessed 51, which is outside the range specified.", InvalidAction: true},
			{Action: `\boxed{0}`, Obs: "At turn 4, you guessed 0, which is outside the range specified.", InvalidAction: true},
			{Action: `\boxed{40} no, \boxed{35}`, Obs: "At turn 5, you guessed 35, and the target number is lower than 35."},
			{Action: `\boxed{30}`, Obs: "Congratulations! You guessed the correct number 30 in 6 turns.", Reward: 1, Terminated: true, Success: true},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		e, _ := game(t, 30)
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{-3}`, Obs: "At turn 1, you did not provide a valid guess.", Reward: -0.1, Terminated: true, FormatError: true}})
	})
	t.Run("max turns scores closeness", func(t *testing.T) {
		e, _ := game(t, 30)
		steps := []envtest.Want{}
		for i, g := range []string{"1", "2", "3", "4", "5", "6"} {
			steps = append(steps, envtest.Want{Action: `\boxed{` + g + `}`, Obs: "At turn " + string(rune('1'+i)) + ", you guessed " + g + ", and the target number is higher than " + g + "."})
		}
		// 7th turn: guess 40, distance 10 over a range of 49.
		steps = append(steps, envtest.Want{Action: `\boxed{40}`, Obs: "You have reached the maximum number of turns.", Reward: 1 - 10.0/49, Terminated: true, Truncated: true})
		envtest.Expect(t, e, steps)
	})
	t.Run("max turns with an out-of-range guess scores zero", func(t *testing.T) {
		e, inner := game(t, 30)
		inner.turn = 6
		envtest.Expect(t, e, []envtest.Want{{Action: `\boxed{99}`, Obs: "You have reached the maximum number of turns.", Terminated: true, Truncated: true, InvalidAction: true}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, inner := game(t, 30)
		inner.turn = 6
		envtest.Expect(t, e, []envtest.Want{{Action: "pass", Obs: "At turn 7, you did not provide a valid guess.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true}})
	})
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id            string
		lo, hi, turns int
	}{
		{"game:GuessTheNumber-v0-easy", 1, 10, 4},
		{"game:GuessTheNumber-v0-hard", 1, 50, 7},
		{"game:GuessTheNumber-v0", 1, 50, 7},
	} {
		e, _ := r.Make(tt.id, nil)
		e.Reset(3)
		g := e.(envs.Unwrapper).Unwrap().(*Env)
		if g.lo != tt.lo || g.hi != tt.hi || g.maxTurns != tt.turns {
			t.Errorf("%s: range %d..%d in %d turns, want %d..%d in %d", tt.id, g.lo, g.hi, g.maxTurns, tt.lo, tt.hi, tt.turns)
		}
	}
	e, _ := r.Make("game:GuessTheNumber-v0-random", nil)
	sizes := map[int]bool{}
	for seed := range uint64(300) {
		e.Reset(seed)
		g := e.(envs.Unwrapper).Unwrap().(*Env)
		if g.lo < 1 || g.lo > 10 || g.hi < g.lo+5 || g.hi > g.lo+50 || g.target < g.lo || g.target > g.hi {
			t.Fatalf("seed %d: range %d..%d target %d outside GEM's draw", seed, g.lo, g.hi, g.target)
		}
		if want := int(math.Ceil(math.Sqrt(float64(g.hi-g.lo)))) + 1; g.maxTurns != want || g.maxTurns > randomMaxTurns {
			t.Fatalf("seed %d: max turns %d, want %d", seed, g.maxTurns, want)
		}
		sizes[g.hi-g.lo] = true
	}
	if len(sizes) < 20 {
		t.Fatalf("random ranges barely vary: %d distinct widths", len(sizes))
	}
}

func TestConformance(t *testing.T) { envtest.RunAll(t, registry(t)) }

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		_, trs := envtest.OracleWins(t, r, id, 200)
		for _, tr := range trs {
			if !tr.Success() {
				t.Fatalf("%s seed %d: oracle lost:\n%s", id, tr.Seed, tr)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "game:GuessTheNumber-v0-easy", map[string]any{"max_number": 20, "max_turns": 5})
	e.Reset(0)
	if g := e.(envs.Unwrapper).Unwrap().(*Env); g.hi != 20 || g.maxTurns != 5 {
		t.Fatalf("options not applied: hi=%d turns=%d", g.hi, g.maxTurns)
	}
	envtest.OptionErrors(t, r, "game:GuessTheNumber-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"max_number": 1}, Option: "max_number"},
		{Options: map[string]any{"max_turns": 0}, Option: "max_turns"},
		{Options: map[string]any{"maxnumber": 3}, Option: "maxnumber"},
		{Options: map[string]any{"max_turns": "7"}, Option: "max_turns"},
	})
}
