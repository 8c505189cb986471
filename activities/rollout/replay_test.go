package rollout

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// clock is an env whose observations depend on when it runs (a terminal's
// `date`): a replay reproduces its rewards but not its observations.
// bestEffort makes it an envs.Replayer.
type clock struct {
	bestEffort bool
	run        string // differs between instances, as the time would
	n          int
}

func (c *clock) Reset(uint64) (string, envs.Info, error) { c.n = 0; return "start", envs.Info{}, nil }
func (c *clock) Step(string) (envs.StepResult, error) {
	c.n++
	return envs.StepResult{Observation: fmt.Sprintf("step %d at %s", c.n, c.run), Reward: 1, Terminated: c.n == 4}, nil
}
func (c *clock) SampleRandomAction(*rand.Rand) string { return "x" }

type bestEffortClock struct{ clock }

func (c *bestEffortClock) MarkReplay(bool) {}

func playClock(t *testing.T, env envs.Env, turns int) (*Session, []turnlog.Turn) {
	t.Helper()
	s, err := NewSession(env, "1.x", envs.WrapChat, 0, schema.Slot{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []turnlog.Turn
	for k := range turns {
		gen := schema.TurnRecord{Phase: schema.PhaseGenerate, Tag: fmt.Sprintf("g%d", k), Job: "j", Turn: k, Attempt: 1, Action: "x"}
		act, _, err := s.Step(gen, 0, func() float64 { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, turnlog.Turn{Gen: gen, Act: act})
	}
	return s, out
}

// An env whose replay is best effort rebuilds though its observations
// differ, and the turns after say how many replayed turns diverged; an env
// that promises exact replay fails on the same difference.
func TestReplayBestEffort(t *testing.T) {
	_, turns := playClock(t, &bestEffortClock{clock{run: "10:00"}}, 2)
	s, _ := playClock(t, &bestEffortClock{clock{run: "11:00"}}, 0)
	if err := s.Replay(turns); err != nil {
		t.Fatalf("best-effort replay: %v", err)
	}
	if s.Diverged != 2 || s.Turn != 2 {
		t.Fatalf("diverged %d at turn %d; want 2 at 2", s.Diverged, s.Turn)
	}
	act, _, err := s.Step(schema.TurnRecord{Phase: schema.PhaseGenerate, Tag: "g2", Job: "j", Turn: 2, Attempt: 1, Action: "x"}, 0, func() float64 { return 0 })
	if err != nil {
		t.Fatal(err)
	}
	if act.Info == nil || !strings.Contains(*act.Info, `"replay_diverged_turns":2`) {
		t.Fatalf("the next act record's info %v does not count the diverged turns", act.Info)
	}

	_, turns = playClock(t, &clock{run: "10:00"}, 2)
	s, _ = playClock(t, &clock{run: "11:00"}, 0)
	if err := s.Replay(turns); !errors.Is(err, ErrDiverged) {
		t.Fatalf("exact replay of differing observations: %v, want ErrDiverged", err)
	}
}
