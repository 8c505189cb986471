package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

func newActivities(t *testing.T) *Activities {
	t.Helper()
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	return &Activities{Envs: reg, Stores: &Stores{}}
}

func spec(t *testing.T, yaml string) schema.JobSpec {
	t.Helper()
	s, err := schema.ParseJobSpec([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	s.Output = "file://" + t.TempDir()
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestValidateJob(t *testing.T) {
	a := newActivities(t)
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.ValidateJob)
	good := spec(t, `{job: v, envs: [{id: game:Sudoku-v0-easy}, {id: rg:basic_arithmetic}], tasks: 2, policy: {kind: oracle}}`)
	v, err := env.ExecuteActivity(a.ValidateJob, good)
	if err != nil {
		t.Fatal(err)
	}
	var res ValidateJobResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Envs) != 2 || res.Envs[0].Version == "" || res.Envs[1].DataSource != "rg" {
		t.Fatalf("plans %+v", res.Envs)
	}
	bad := good
	bad.Envs = []schema.EnvChoice{{ID: "game:Sudoku-v0-easy", Options: map[string]any{"scale": 5}}}
	_, err = env.ExecuteActivity(a.ValidateJob, bad)
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeInvalidSpec || !ae.NonRetryable() || !strings.Contains(err.Error(), "envs[0].options.scale") {
		t.Fatalf("bad options: %v", err)
	}
}

func TestRunEpisodesResumesFromHeartbeat(t *testing.T) {
	a := newActivities(t)
	s := spec(t, `{job: r, envs: [{id: game:TowerofHanoi-v0-easy}], tasks: 3, samples_per_task: 2, policy: {kind: oracle}}`)
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	in := RunEpisodesInput{Job: s.Job, Spec: s, Envs: plans, Slots: s.BatchSlots(0)}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.RunEpisodes)
	v, err := env.ExecuteActivity(a.RunEpisodes, in)
	if err != nil {
		t.Fatal(err)
	}
	var full RunEpisodesResult
	v.Get(&full)
	if len(full.Episodes) != 6 {
		t.Fatalf("%d outcomes", len(full.Episodes))
	}
	store, _ := blob.Open(context.Background(), s.Output)
	for _, o := range full.Episodes {
		if !o.Success || !o.Bundle || o.Turns != 7 {
			t.Fatalf("outcome %+v", o)
		}
		turns, err := turnlog.ReadEpisode(context.Background(), store, o.Source)
		if err != nil || len(turns) != 7 {
			t.Fatalf("bundle %s: %d turns, %v", o.Source.Key, len(turns), err)
		}
	}
	// A retried attempt with two episodes checkpointed plays only the rest.
	env2 := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env2.RegisterActivity(a.RunEpisodes)
	marker := full.Episodes[:2]
	marker[0].TotalReward = 42 // proves the checkpoint, not a replay, supplied it
	env2.SetHeartbeatDetails(marker)
	v, err = env2.ExecuteActivity(a.RunEpisodes, in)
	if err != nil {
		t.Fatal(err)
	}
	var resumed RunEpisodesResult
	v.Get(&resumed)
	if len(resumed.Episodes) != 6 || resumed.Episodes[0].TotalReward != 42 || resumed.Episodes[2].TotalReward != 1 {
		t.Fatalf("resumed outcomes %+v", resumed.Episodes)
	}
}

func TestEnvVersionMismatchRefused(t *testing.T) {
	a := newActivities(t)
	_, err := a.makeEnv(EnvPlan{ID: "game:Sudoku-v0-easy", Version: "0.deadbeef"})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeEnvVersion || !ae.NonRetryable() {
		t.Fatalf("err %v", err)
	}
}

// Generate and Act link their records; a worker that never saw the episode
// rebuilds it from the turn log and continues exactly where it was.
func TestTurnsRebuildOnAnotherWorker(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string {
		return "I guess \\boxed{" + string(rune('1'+len(m)/2)) + "}"
	}))
	s := spec(t, `{job: g, envs: [{id: game:GuessTheNumber-v0-hard}], tasks: 1, policy: {kind: openai, openai: {endpoints: ['`+srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`, extra_body: {return_token_ids: true}}}}`)
	first := newActivities(t)
	plans, _ := ResolveEnvs(first.Envs, s)
	ep := EpisodeRef{Spec: s, Env: plans[0], Slot: s.BatchSlots(0)[0]}
	run := func(a *Activities, turn int, head *schema.TurnRef) (GenerateResult, ActResult) {
		t.Helper()
		env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
		env.RegisterActivity(a.Generate)
		env.RegisterActivity(a.Act)
		v, err := env.ExecuteActivity(a.Generate, GenerateInput{Episode: ep, Turn: turn, Head: head})
		if err != nil {
			t.Fatal(err)
		}
		var g GenerateResult
		v.Get(&g)
		v, err = env.ExecuteLocalActivity(a.Act, ActInput{Episode: ep, Turn: turn, Head: head, Gen: g.Ref})
		if err != nil {
			t.Fatal(err)
		}
		var act ActResult
		v.Get(&act)
		return g, act
	}
	_, a0 := run(first, 0, nil)
	_, a1 := run(first, 1, &a0.Ref)
	second := newActivities(t) // another worker: empty session cache
	_, a2 := run(second, 2, &a1.Ref)
	store, _ := blob.Open(context.Background(), s.Output)
	turns, err := turnlog.ReadEpisode(context.Background(), store, a2.Ref)
	if err != nil || len(turns) != 3 {
		t.Fatalf("%d turns, %v", len(turns), err)
	}
	for i, tr := range turns {
		if tr.Gen.Turn != i || tr.Gen.TokenSource != schema.TokenSourceServed || len(tr.Gen.ResponseTokenIDs) == 0 {
			t.Fatalf("turn %d: %+v", i, tr.Gen)
		}
	}
	// The rebuilt worker saw the same conversation: its delta is one user message.
	if !strings.HasPrefix(turns[2].Gen.PromptDelta, `[{"role":"user"`) || strings.Count(turns[2].Gen.PromptDelta, `"role"`) != 1 {
		t.Fatalf("rebuilt delta %s", turns[2].Gen.PromptDelta)
	}
}
