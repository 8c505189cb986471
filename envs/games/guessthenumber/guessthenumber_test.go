package guessthenumber

import (
	"errors"
	"math"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(t testing.TB) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// game returns a reset -hard env (range 1..50, 7 turns) whose target is forced.
func game(t *testing.T, target int) (envs.Env, *Env) {
	t.Helper()
	e, err := registry(t).Make("game:GuessTheNumber-v0-hard", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	inner := e.(envs.Unwrapper).Unwrap().(*Env)
	inner.target = target
	return e, inner
}

type step struct {
	action      string
	obs         string
	reward      float64
	term, trunc bool
	format      bool
	invalid     bool
}

func play(t *testing.T, e envs.Env, steps []step) {
	t.Helper()
	for i, s := range steps {
		res, err := e.Step(s.action)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if res.Observation != s.obs || math.Abs(res.Reward-s.reward) > 1e-12 || res.Terminated != s.term ||
			res.Truncated != s.trunc || res.Info.FormatError != s.format || res.Info.InvalidAction != s.invalid {
			t.Fatalf("step %d %q:\n got obs=%q r=%v term=%v trunc=%v fmt=%v inv=%v\nwant obs=%q r=%v term=%v trunc=%v fmt=%v inv=%v",
				i, s.action, res.Observation, res.Reward, res.Terminated, res.Truncated, res.Info.FormatError, res.Info.InvalidAction,
				s.obs, s.reward, s.term, s.trunc, s.format, s.invalid)
		}
	}
}

func TestRules(t *testing.T) {
	t.Run("hints, illegal and win", func(t *testing.T) {
		e, _ := game(t, 30)
		play(t, e, []step{
			{action: `I think \boxed{25}`, obs: "At turn 1, you guessed 25, and the target number is higher than 25."},
			{action: `\boxed{25}`, obs: "At turn 2, you guessed 25, which has been already guessed before.", invalid: true},
			{action: `\boxed{51}`, obs: "At turn 3, you guessed 51, which is outside the range specified.", invalid: true},
			{action: `\boxed{0}`, obs: "At turn 4, you guessed 0, which is outside the range specified.", invalid: true},
			{action: `\boxed{40} no, \boxed{35}`, obs: "At turn 5, you guessed 35, and the target number is lower than 35."},
			{action: `\boxed{30}`, obs: "Congratulations! You guessed the correct number 30 in 6 turns.", reward: 1, term: true},
		})
	})
	t.Run("unparseable ends the episode", func(t *testing.T) {
		e, _ := game(t, 30)
		play(t, e, []step{{action: `\boxed{-3}`, obs: "At turn 1, you did not provide a valid guess.", reward: -0.1, term: true, format: true}})
	})
	t.Run("max turns scores closeness", func(t *testing.T) {
		e, _ := game(t, 30)
		steps := []step{}
		for i, g := range []string{"1", "2", "3", "4", "5", "6"} {
			steps = append(steps, step{action: `\boxed{` + g + `}`, obs: "At turn " + string(rune('1'+i)) + ", you guessed " + g + ", and the target number is higher than " + g + "."})
		}
		// 7th turn: guess 40, distance 10 over a range of 49.
		steps = append(steps, step{action: `\boxed{40}`, obs: "You have reached the maximum number of turns.", reward: 1 - 10.0/49, term: true, trunc: true})
		play(t, e, steps)
	})
	t.Run("max turns with an out-of-range guess scores zero", func(t *testing.T) {
		e, inner := game(t, 30)
		inner.turn = 6
		play(t, e, []step{{action: `\boxed{99}`, obs: "You have reached the maximum number of turns.", term: true, trunc: true, invalid: true}})
	})
	t.Run("format error on the last turn is also truncated", func(t *testing.T) {
		e, inner := game(t, 30)
		inner.turn = 6
		play(t, e, []step{{action: "pass", obs: "At turn 7, you did not provide a valid guess.", reward: -0.1, term: true, trunc: true, format: true}})
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

func TestConformance(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) { envtest.Run(t, r, id) })
	}
}

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		e, _ := r.Make(id, nil)
		spec, _ := r.Lookup(id)
		for seed := range uint64(200) {
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Success() {
				t.Fatalf("%s seed %d: oracle lost:\n%s", id, seed, tr)
			}
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e, err := r.Make("game:GuessTheNumber-v0-easy", map[string]any{"max_number": 20, "max_turns": 5})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(0)
	if g := e.(envs.Unwrapper).Unwrap().(*Env); g.hi != 20 || g.maxTurns != 5 {
		t.Fatalf("options not applied: hi=%d turns=%d", g.hi, g.maxTurns)
	}
	for _, bad := range []map[string]any{{"max_number": 1}, {"max_turns": 0}, {"maxnumber": 3}, {"max_turns": "7"}} {
		_, err := r.Make("game:GuessTheNumber-v0-easy", bad)
		var oe *envs.OptionError
		if !errors.As(err, &oe) || oe.Option == "" {
			t.Errorf("options %v: err %v, want an OptionError naming the option", bad, err)
		}
	}
}
