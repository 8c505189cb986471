package rollout

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/schema"
)

func play(t *testing.T, id, policy string, w envs.Wrapper, maxTurns int, seed uint64) Episode {
	t.Helper()
	r, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Make(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := r.Lookup(id)
	ep, err := Play(context.Background(), Params{
		Job: "j", Slot: schema.Slot{Batch: 2, Episode: 5, TaskSeed: seed, SampleSeed: seed + 1},
		Env: e, EnvVersion: spec.Version(), Wrapper: w, MaxTurns: maxTurns,
		Policy: policy, Tag: "run/1/1", Attempt: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

func TestOracleEpisodeRecords(t *testing.T) {
	ep := play(t, "game:GuessTheNumber-v0-hard", schema.PolicyOracle, envs.WrapChat, 0, 9)
	if !ep.Success || ep.StopReason != schema.StopTerminated || ep.TotalReward != 1 {
		t.Fatalf("oracle episode: %+v", ep)
	}
	if len(ep.Records) != 2*ep.Turns {
		t.Fatalf("%d records for %d turns", len(ep.Records), ep.Turns)
	}
	for i, rec := range ep.Records {
		wantPhase := schema.PhaseGenerate
		if i%2 == 1 {
			wantPhase = schema.PhaseAct
		}
		if rec.Phase != wantPhase || rec.Turn != i/2 || rec.Batch != 2 || rec.Episode != 5 || rec.Job != "j" {
			t.Fatalf("record %d: %+v", i, rec)
		}
		if _, err := schema.MarshalTurnRecord(&rec); err != nil {
			t.Fatalf("record %d does not encode: %v", i, err)
		}
	}
	last := ep.Records[len(ep.Records)-1]
	if !last.Terminated || !last.Success || last.Reward != 1 || last.EnvVersion == "" {
		t.Fatalf("last act record %+v", last)
	}
	// Chat deltas are linear: the first request's rules, then one message a turn.
	var first, second []envs.Message
	json.Unmarshal([]byte(ep.Records[0].PromptDelta), &first)
	json.Unmarshal([]byte(ep.Records[2].PromptDelta), &second)
	if len(first) != 1 || first[0].Role != "user" || len(second) != 1 || second[0].Content == "" {
		t.Fatalf("chat deltas %v then %v", first, second)
	}
	if ep.Records[2].Segment != 0 {
		t.Fatal("chat history started a new segment")
	}
}

// A multi-agent env's turns name their acting agent: the agent_id and
// agent_role columns; a single-agent env's leave them null.
func TestAgentColumns(t *testing.T) {
	ep := play(t, "multiagent:retail-v0", schema.PolicyOracle, envs.WrapChat, 0, 3)
	if !ep.Success {
		t.Fatalf("the oracle assistant failed: %+v", ep)
	}
	for _, rec := range ep.Records {
		if rec.Phase != schema.PhaseAct {
			continue
		}
		if rec.AgentID == nil || rec.AgentRole == nil || *rec.AgentRole != "assistant" || *rec.AgentID == "" {
			t.Fatalf("turn %d: agent %v, role %v; want the assistant named", rec.Turn, rec.AgentID, rec.AgentRole)
		}
	}
	for _, rec := range play(t, "game:GuessTheNumber-v0-hard", schema.PolicyOracle, envs.WrapChat, 0, 9).Records {
		if rec.AgentID != nil || rec.AgentRole != nil {
			t.Fatalf("a single-agent env's turn %d names an agent", rec.Turn)
		}
	}
}

func TestConcatStartsSegments(t *testing.T) {
	ep := play(t, "game:GuessTheNumber-v0-hard", schema.PolicyOracle, envs.WrapConcatWithAction, 0, 9)
	if ep.Turns < 2 {
		t.Fatalf("seed 9 should give a multi-turn episode, got %d turns", ep.Turns)
	}
	if ep.Records[2].Segment != 1 {
		t.Fatalf("a re-rendered text prompt must start a new segment, got %d", ep.Records[2].Segment)
	}
}

func TestMaxTurnsCap(t *testing.T) {
	ep := play(t, "game:TowerofHanoi-v0-hard", schema.PolicyRandom, envs.WrapChat, 3, 1)
	last := ep.Records[len(ep.Records)-1]
	if ep.Turns != 3 || ep.StopReason != schema.StopMaxTurns || !last.Truncated || last.Terminated {
		t.Fatalf("capped episode: turns %d stop %s last %+v", ep.Turns, ep.StopReason, last)
	}
}

func TestRandomPolicyDeterministic(t *testing.T) {
	a := play(t, "game:Mastermind-v0-hard", schema.PolicyRandom, envs.WrapChat, 0, 4)
	b := play(t, "game:Mastermind-v0-hard", schema.PolicyRandom, envs.WrapChat, 0, 4)
	if len(a.Records) != len(b.Records) {
		t.Fatal("same seeds, different episodes")
	}
	for i := range a.Records {
		if a.Records[i].Action != b.Records[i].Action || a.Records[i].Reward != b.Records[i].Reward {
			t.Fatalf("record %d differs", i)
		}
	}
}

func TestFormatErrorClassified(t *testing.T) {
	gen := schema.TurnRecord{Phase: schema.PhaseGenerate, Tag: "t", Job: "j", Attempt: 1, TokenSource: schema.TokenSourceNone}
	act := ActRecord(gen, "1.x", envs.StepResult{Reward: -0.1, Terminated: true, Info: envs.Info{FormatError: true}}, 0.1)
	if act.ErrorClass == nil || *act.ErrorClass != ErrorFormat || act.ActionTag != "t" || act.Phase != schema.PhaseAct {
		t.Fatalf("act %+v", act)
	}
}
