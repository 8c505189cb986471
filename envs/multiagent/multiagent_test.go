package multiagent_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/multiagent"
)

// echo is a small real two-agent game: the speaker says a word, the
// listener must repeat it. Each round the listener earns 1 for a correct
// echo and the speaker 0.5 when it was understood; after rounds rounds the
// episode ends and the speaker earns a bonus of 1 if every echo was right.
type echo struct {
	rounds   int
	words    []string
	round    int
	turn     string
	correct  int
	said     string
	over     bool
	rng      *rand.Rand
	oracleOK bool
}

func newEcho() *echo { return &echo{rounds: 3, oracleOK: true} }

func (e *echo) Agents() []multiagent.Agent {
	return []multiagent.Agent{{ID: "s", Role: "speaker"}, {ID: "l", Role: "listener"}}
}

func (e *echo) Reset(seed uint64) (multiagent.Start, error) {
	e.rng = envs.NewRand(seed)
	e.words = nil
	for range e.rounds {
		e.words = append(e.words, fmt.Sprintf("w%d", e.rng.IntN(100)))
	}
	e.round, e.turn, e.correct, e.said, e.over = 0, "s", 0, "", false
	return multiagent.Start{Observations: map[string]string{
		"s": "say the words " + strings.Join(e.words, " ") + " one at a time",
		"l": "repeat what you hear",
	}}, nil
}

func (e *echo) Next() (string, bool) { return e.turn, !e.over }

func (e *echo) Step(id, action string) (multiagent.Result, error) {
	if e.over {
		return multiagent.Result{}, multiagent.ErrEpisodeOver
	}
	if id != e.turn {
		return multiagent.Result{}, multiagent.ErrNotYourTurn
	}
	if id == "s" {
		e.said, e.turn = action, "l"
		return multiagent.Result{Observations: map[string]string{"l": action},
			Messages: []multiagent.Message{{From: "s", To: "l", Text: action}}}, nil
	}
	res := multiagent.Result{Rewards: map[string]float64{}, Observations: map[string]string{"s": "heard: " + action}}
	if action == e.said && e.said == e.words[e.round] {
		e.correct++
		res.Rewards["l"], res.Rewards["s"] = 1, 0.5
	}
	e.round++
	e.turn = "s"
	if e.round == e.rounds {
		e.over, res.Terminated = true, true
		if e.correct == e.rounds {
			res.Rewards["s"] += 1
		}
	}
	return res, nil
}

func (e *echo) SampleRandomAction(id string, rng *rand.Rand) string {
	return fmt.Sprintf("w%d", rng.IntN(100))
}

func (e *echo) OracleAction(id string) (string, error) {
	if id == "s" {
		return e.words[e.round], nil
	}
	return e.said, nil
}

func TestPlayPerAgentRowsAndReturns(t *testing.T) {
	env := newEcho()
	ep, err := multiagent.Play(env, 7, map[string]multiagent.Policy{
		"speaker": multiagent.OraclePolicy(), "listener": multiagent.OraclePolicy(),
	}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if !ep.Done || len(ep.Turns) != 6 {
		t.Fatalf("done %v after %d turns, want 6", ep.Done, len(ep.Turns))
	}
	if got := ep.Total("l"); got != 3 {
		t.Errorf("listener total %v, want 3", got)
	}
	if got := ep.Total("s"); got != 2.5 {
		t.Errorf("speaker total %v, want 2.5 (3 × 0.5 + bonus)", got)
	}
	// The speaker's rewards arrive on the listener's steps and are
	// credited to the speaker's latest turn; its returns discount over its
	// own three turns only.
	rows := ep.Rows(0.5)
	var sp []multiagent.Row
	for _, r := range rows {
		if r.AgentRole == "" || r.AgentID == "" {
			t.Fatalf("row without agent: %+v", r)
		}
		if r.AgentID == "s" {
			sp = append(sp, r)
		}
	}
	want := []float64{0.5 + 0.5*(0.5+0.5*1.5), 0.5 + 0.5*1.5, 1.5}
	for i, r := range sp {
		if math.Abs(r.Return-want[i]) > 1e-12 || r.AgentTurn != i {
			t.Errorf("speaker turn %d: return %v agent_turn %d, want %v", i, r.Return, r.AgentTurn, want[i])
		}
	}
	if rows[0].Obs != "heard: "+rows[1].Action {
		t.Errorf("speaker's observation %q: want what the listener said", rows[0].Obs)
	}
	if len(ep.Messages) != 3 {
		t.Errorf("%d messages routed, want 3", len(ep.Messages))
	}
}

func TestAdvantagesPerRole(t *testing.T) {
	var batch []multiagent.Episode
	for seed := range uint64(6) {
		pols := map[string]multiagent.Policy{"speaker": multiagent.OraclePolicy(), "listener": multiagent.RandomPolicy(seed)}
		if seed%2 == 0 {
			pols["listener"] = multiagent.OraclePolicy()
		}
		ep, err := multiagent.Play(newEcho(), seed, pols, 100)
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, ep)
	}
	rows, stats := multiagent.Advantages(batch, nil, 1)
	for _, role := range []string{"speaker", "listener"} {
		var sum float64
		n := 0
		for _, ep := range rows {
			for _, r := range ep {
				if r.AgentRole == role {
					sum += r.Advantage
					n++
				}
			}
		}
		if n != 18 || math.Abs(sum) > 1e-9 {
			t.Errorf("%s: %d rows, advantages sum to %v; want 18 rows normalised to mean 0", role, n, sum)
		}
		if stats[role].Count != 18 {
			t.Errorf("%s stats count %d", role, stats[role].Count)
		}
	}
}

func TestPlayNeedsEveryRole(t *testing.T) {
	_, err := multiagent.Play(newEcho(), 1, map[string]multiagent.Policy{"speaker": multiagent.OraclePolicy()}, 10)
	if err == nil || !strings.Contains(err.Error(), "listener") {
		t.Fatalf("err = %v, want a missing listener policy", err)
	}
}

func TestSingleAdapter(t *testing.T) {
	e, err := multiagent.NewSingle(newEcho(), "l", map[string]string{"speaker": multiagent.KindScripted})
	if err != nil {
		t.Fatal(err)
	}
	obs, info, err := e.Reset(3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(obs, "repeat what you hear") || !strings.Contains(obs, "w") {
		t.Fatalf("first observation %q: want the instructions and the speaker's first word", obs)
	}
	if a, ok := multiagent.AgentOf(info); !ok || a.ID != "l" || a.Role != "listener" {
		t.Fatalf("info %v: want agent_id and agent_role", info.Extra)
	}
	if _, ok := multiagent.AgentOf(envs.Info{}); ok {
		t.Fatal("AgentOf found an agent in a single-agent info")
	}
	o, ok := envs.AsOracle(e)
	if !ok {
		t.Fatal("no oracle through the adapter")
	}
	var total float64
	for i := 0; ; i++ {
		a, err := o.OracleAction()
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		total += res.Reward
		if res.Done() {
			break
		}
		if i > 5 {
			t.Fatal("adapter episode did not end")
		}
	}
	if total != 3 {
		t.Fatalf("listener return %v, want 3", total)
	}
	if _, err := multiagent.NewSingle(newEcho(), "l", map[string]string{"speaker": multiagent.KindEndpoint}); !errors.Is(err, multiagent.ErrNotLocal) {
		t.Fatalf("endpoint for a fixed role: err = %v, want ErrNotLocal", err)
	}
	if _, err := multiagent.NewSingle(newEcho(), "x", nil); !errors.Is(err, multiagent.ErrUnknownAgent) {
		t.Fatalf("unknown agent: err = %v", err)
	}
}

func TestPlanFor(t *testing.T) {
	env := newEcho()
	cases := []struct {
		a    multiagent.Assignment
		mode string
		err  string
	}{
		{multiagent.Assignment{"speaker": "oracle", "listener": "random"}, multiagent.ModeLocal, ""},
		{multiagent.Assignment{"speaker": "scripted", "listener": "endpoint"}, multiagent.ModeSingle, ""},
		{multiagent.Assignment{"speaker": "endpoint", "listener": "endpoint"}, multiagent.ModeMulti, ""},
		{multiagent.Assignment{"speaker": "oracle"}, "", "agents.listener: no policy"},
		{multiagent.Assignment{"speaker": "oracle", "listener": "human"}, "", `agents.listener: "human": want one of`},
		{multiagent.Assignment{"speaker": "oracle", "listener": "oracle", "judge": "oracle"}, "", "agents.judge: not a role"},
	}
	for _, c := range cases {
		p, err := multiagent.PlanFor(env, c.a)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err %v, want %q", c.a, err, c.err)
			}
			continue
		}
		if err != nil || p.Mode != c.mode {
			t.Errorf("%v: plan %+v err %v, want mode %s", c.a, p, err, c.mode)
		}
		if c.mode == multiagent.ModeSingle && p.Trained != "l" {
			t.Errorf("single plan trains %q, want l", p.Trained)
		}
	}
}

func TestReplayAndHistory(t *testing.T) {
	env := newEcho()
	pols := map[string]multiagent.Policy{"speaker": multiagent.OraclePolicy(), "listener": multiagent.RandomPolicy(4)}
	ep, err := multiagent.Play(env, 9, pols, 100)
	if err != nil {
		t.Fatal(err)
	}
	var rec []multiagent.Recorded
	for _, tr := range ep.Turns {
		rec = append(rec, multiagent.Recorded{AgentID: tr.Agent.ID, Action: tr.Action})
	}
	start, _ := env.Reset(9)
	again, err := multiagent.Replay(env, start, 9, rec)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(again.Rows(1)) != fmt.Sprint(ep.Rows(1)) {
		t.Fatal("replay differs from the episode")
	}
	h := ep.History("l")
	if len(h.Observations) != len(h.Actions)+1 || len(h.Actions) != 3 {
		t.Fatalf("history: %d observations, %d actions", len(h.Observations), len(h.Actions))
	}
	if h.Observations[0].Text != "repeat what you hear"+ep.Turns[0].Action {
		t.Fatalf("listener's first observation %q: want its instructions and the first word", h.Observations[0].Text)
	}
	p, err := envs.Wrapper("chat").Render(h, 0)
	if err != nil || len(p.Messages) != 2*3+1 {
		t.Fatalf("chat prompt: %v, %d messages", err, len(p.Messages))
	}
	start, _ = env.Reset(9)
	if _, err := multiagent.Replay(env, start, 9, []multiagent.Recorded{{AgentID: "l", Action: "w1"}}); err == nil {
		t.Fatal("a record out of turn order replayed")
	}
}
