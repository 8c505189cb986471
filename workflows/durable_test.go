package workflows

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// openAISpec is a one-batch endpoint job: 8 episodes, 2 at a time.
func openAISpec(t *testing.T) schema.JobSpec {
	t.Helper()
	s, err := schema.ParseJobSpec([]byte(`
job: wf
envs: [{id: game:GuessTheNumber-v0-easy}]
tasks: 8
batch_size: 8
policy: {kind: openai, openai: {endpoints: ["http://127.0.0.1:9/v1"], model: m}}
in_flight: {batches: 1, episodes: 2}
episode: {timeout: 15m, max_attempts: 3}
`))
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

// fakeTurns mocks the per-turn activities: Generate takes a minute and
// answers unless *down (then the endpoint is away), Act ends an episode
// after three turns.
// Mocked activities run on goroutines of their own: mu guards the fields.
type fakeTurns struct {
	mu   sync.Mutex
	down bool
	// downFor, when set, limits the outage to these episodes' turns: the
	// others' generations were answered before it began (a freed slot).
	downFor   map[int]bool
	downCalls int
	firstDown time.Time
	// starts: when each episode's first Generate was scheduled, by
	// episodeKey.
	starts map[int]time.Time
	shard  activities.WriteShardInput
}

type generateFunc = func(context.Context, activities.GenerateInput) (activities.GenerateResult, error)

// mockTurns mocks every activity of an endpoint job; generate, when set,
// replaces the fake's Generate.
func mockTurns(env *testsuite.TestWorkflowEnvironment, f *fakeTurns, generate generateFunc) {
	f.starts = map[int]time.Time{}
	if generate != nil {
		env.OnActivity(activities.GenerateName, mock.Anything, mock.Anything).Return(generate)
	} else {
		env.OnActivity(activities.GenerateName, mock.Anything, mock.Anything).After(time.Minute).Return(f.generate(env))
	}
	env.OnActivity(activities.ActName, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ActInput) (activities.ActResult, error) {
			return fakeAct(in.Turn, in.Gen), nil
		})
	// PlayTurns plays one turn a run here (as a run whose slice is shorter
	// than a turn): the fake's Generate, then its Act.
	gen := generate
	if gen == nil {
		gen = f.generate(env)
	}
	play := env.OnActivity(activities.PlayTurnsName, mock.Anything, mock.Anything)
	if generate == nil {
		play = play.After(time.Minute)
	}
	play.Return(func(ctx context.Context, in activities.PlayInput) (activities.PlayResult, error) {
		p := activities.PlayProgress{Turn: in.Turn, Head: in.Head}
		g, err := gen(ctx, activities.GenerateInput{Episode: in.Episode, Turn: in.Turn, Head: in.Head, AttemptBase: in.AttemptBase,
			PriorFaults: in.PriorFaults, PriorFault: in.PriorFault})
		if err != nil {
			var ae *temporal.ApplicationError
			if errors.As(err, &ae) && ae.NonRetryable() {
				return activities.PlayResult{}, temporal.NewNonRetryableApplicationError(ae.Message(), ae.Type(), nil, activities.PlayFailure{Progress: p})
			}
			return activities.PlayResult{}, err
		}
		act := fakeAct(in.Turn, g.Ref)
		ref := act.Ref
		p.Turn, p.Head, p.Reward = in.Turn+1, &ref, act.Reward
		p.PromptTokens, p.ResponseTokens = int64(g.PromptTokens), int64(g.ResponseTokens)
		return activities.PlayResult{PlayProgress: p, Done: act.Done, Success: act.Success, StopReason: act.StopReason}, nil
	})
	env.OnActivity(activities.ProbeEndpointName, mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ schema.JobSpec) (activities.ProbeResult, error) {
			if f.isDown() {
				return activities.ProbeResult{Reason: "404"}, nil
			}
			return activities.ProbeResult{Up: true}, nil
		})
	env.OnActivity(activities.WriteShardName, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.WriteShardInput) (activities.ShardSummary, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.shard = in
			sum := activities.ShardSummary{Batch: in.Batch, Episodes: len(in.Episodes)}
			for _, o := range in.Episodes {
				if o.Failure != nil {
					sum.Failed++
				} else {
					sum.Turns += int64(o.Turns)
				}
			}
			return sum, nil
		})
	env.OnActivity(activities.WriteSuccessName, mock.Anything, mock.Anything).Return(nil)
}

// fakeAct ends an episode after three turns, one reward each.
func fakeAct(turn int, gen schema.TurnRef) activities.ActResult {
	return activities.ActResult{Ref: schema.TurnRef{Key: gen.Key + "/act", Tag: "t"}, Reward: 1, Done: turn == 2, Success: true, StopReason: "terminated"}
}

func (f *fakeTurns) isDown() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.down
}

func (f *fakeTurns) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

// episodeKey numbers episodes job-wide for the fake: batch*1000+episode.
func episodeKey(s schema.Slot) int { return s.Batch*1000 + s.Episode }

// generate answers after a minute, or fails with ErrTypeEndpointDown while
// the endpoint is down.
func (f *fakeTurns) generate(env *testsuite.TestWorkflowEnvironment) generateFunc {
	return func(_ context.Context, in activities.GenerateInput) (activities.GenerateResult, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		now := env.Now()
		e := episodeKey(in.Episode.Slot)
		if _, ok := f.starts[e]; !ok && in.Turn == 0 {
			f.starts[e] = now.Add(-time.Minute)
		}
		if f.down && (f.downFor == nil || f.downFor[e]) {
			if f.downCalls == 0 {
				f.firstDown = now
			}
			f.downCalls++
			return activities.GenerateResult{}, temporal.NewNonRetryableApplicationError(`model "m" is not served (404)`, activities.ErrTypeEndpointDown, nil)
		}
		key := fmt.Sprintf("e%d/t%d/a%d", in.Episode.Slot.Episode, in.Turn, in.AttemptBase)
		return activities.GenerateResult{Ref: schema.TurnRef{Key: key, Tag: key}, PromptTokens: 10, ResponseTokens: 2}, nil
	}
}

// An endpoint that goes away for 40 minutes (a trainer reloading weights
// under a new name answers 404) pauses the job: the turns in flight wait
// and retry the same turn once a probe finds it back, no episode starts
// while it is away, the progress shows the outage, no episode fails — not
// even on its 15-minute cap — and the outage is counted.
func TestEndpointOutagePausesTurns(t *testing.T) {
	spec := openAISpec(t)
	env, _ := newEnv(t)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: spec.Job})
	f := &fakeTurns{}
	mockTurns(env, f, nil)
	downAt, upAt := 4*time.Minute+30*time.Second, 44*time.Minute
	var start time.Time
	var during Progress
	env.RegisterDelayedCallback(func() { start = env.Now().Add(-downAt); f.setDown(true) }, downAt)
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryProgress)
		if err == nil {
			err = v.Get(&during)
		}
		if err != nil {
			t.Error(err)
		}
	}, 20*time.Minute)
	env.RegisterDelayedCallback(func() { f.setDown(false) }, upAt)
	p := runJob(t, env, JobInput{Spec: spec})
	if !p.Done || p.EpisodesDone != 8 || p.EpisodesFailed != 0 || p.Turns != 24 {
		t.Fatalf("progress %+v", p)
	}
	if p.Faults.EndpointOutages != 1 || p.Faults.TurnsPaused != 2 || p.Endpoint != nil {
		t.Fatalf("faults %+v, endpoint %+v", p.Faults, p.Endpoint)
	}
	if o := during.Endpoint; o == nil || o.Waiting != 2 || !o.Since.Equal(f.firstDown) || o.Reason == "" {
		t.Fatalf("progress during the outage: %+v", o)
	}
	// The two turns in flight failed once each; then only probes ran until
	// the endpoint was back.
	if f.downCalls != 2 {
		t.Fatalf("%d Generate calls met the outage, want 2 (the turns in flight, retried only after a probe)", f.downCalls)
	}
	for e, at := range f.starts {
		if at.After(f.firstDown) && at.Before(start.Add(upAt)) {
			t.Errorf("episode %d started at %v, during the outage (%v to %v)", e, at.Sub(start), f.firstDown.Sub(start), upAt)
		}
	}
	for _, o := range f.shard.Episodes {
		if o.Failure != nil || o.Turns != 3 {
			t.Fatalf("episode %d: %+v", o.Slot.Episode, o)
		}
	}
}

// An episode that finishes while the endpoint is away frees its slot, and
// the batch leaves it empty: no new episode starts until the endpoint is
// back, though the batch has slots left to play.
func TestFreedSlotNotRefilledDuringOutage(t *testing.T) {
	spec := openAISpec(t) // one batch of 8 episodes, 2 in flight, 3 one-minute turns each
	// Episodes 0 and 1 end at 3:00; 2 and 3 start. Episode 3's first turn
	// meets the outage at 4:00; episode 2 plays on and ends at 6:00.
	f := &fakeTurns{downFor: map[int]bool{3: true}}
	upAt := 30 * time.Minute
	p := runOutage(t, spec, f, 3*time.Minute+30*time.Second, upAt)
	if p.EpisodesDone != 8 || p.EpisodesFailed != 0 || p.Faults.EndpointOutages != 1 {
		t.Fatalf("progress %+v", p)
	}
	if end := f.starts[2].Add(3 * time.Minute); !end.Before(f.starts[0].Add(upAt)) {
		t.Fatalf("episode 2 ended at %v, not during the outage", end.Sub(f.starts[0]))
	}
	for e := 4; e < 8; e++ {
		if at := f.starts[e].Sub(f.starts[0]); at < upAt {
			t.Errorf("episode %d started at %v, in the slot episode 2 freed during the outage (back at %v)", e, at, upAt)
		}
	}
}

// A batch that commits while the endpoint is away frees the job's batch
// slot, and the job leaves it empty: no batch starts until the endpoint is
// back.
func TestFreedBatchNotRefilledDuringOutage(t *testing.T) {
	spec := openAISpec(t)
	spec.BatchSize, spec.InFlight = 2, schema.InFlight{Batches: 2, Episodes: 2} // 4 batches of 2
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	// Batches 0 and 1 play at once. Batch 1's second episode meets the
	// outage on its second turn at 2:00; batch 0 ends at 3:00.
	f := &fakeTurns{downFor: map[int]bool{1001: true}}
	upAt := 30 * time.Minute
	p := runOutage(t, spec, f, 90*time.Second, upAt)
	if p.EpisodesDone != 8 || p.BatchesDone != 4 || p.EpisodesFailed != 0 || p.Faults.EndpointOutages != 1 {
		t.Fatalf("progress %+v", p)
	}
	if end := f.starts[0].Add(3 * time.Minute); !end.Before(f.starts[0].Add(upAt)) {
		t.Fatal("batch 0 did not end during the outage")
	}
	for _, e := range []int{2000, 2001, 3000, 3001} {
		if at := f.starts[e].Sub(f.starts[0]); at < upAt {
			t.Errorf("batch %d's episode %d started at %v, in the batch slot batch 0 freed during the outage (back at %v)", e/1000, e%1000, at, upAt)
		}
	}
}

// runOutage runs spec's job with the endpoint away from downAt to upAt.
func runOutage(t *testing.T, spec schema.JobSpec, f *fakeTurns, downAt, upAt time.Duration) Progress {
	t.Helper()
	env, _ := newEnv(t)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: spec.Job})
	mockTurns(env, f, nil)
	env.RegisterDelayedCallback(func() { f.setDown(true) }, downAt)
	env.RegisterDelayedCallback(func() { f.setDown(false) }, upAt)
	return runJob(t, env, JobInput{Spec: spec})
}

// An episode still fails on its wall-clock cap when it plays (not waits)
// that long.
func TestEpisodeCapCountsPlayedTime(t *testing.T) {
	spec := openAISpec(t)
	spec.Episode.Timeout = schema.Duration(90 * time.Second) // the third one-minute turn starts past it
	env, _ := newEnv(t)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: spec.Job})
	f := &fakeTurns{}
	mockTurns(env, f, nil)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	for _, o := range f.shard.Episodes {
		if o.Failure == nil || o.Failure.ErrorClass != ClassEpisodeTimeout || o.Turns != 2 || o.Failure.Attempts != 1 {
			t.Fatalf("episode %d: %+v %+v", o.Slot.Episode, o, o.Failure)
		}
	}
}

// A failed episode's record carries the turns it played and the attempts
// it ran: a bad answer fails the episode at once (one attempt), a fault that
// persists fails it after every attempt. The job counts both by class.
func TestFailureRecordsAreHonest(t *testing.T) {
	spec := openAISpec(t)
	spec.Tasks, spec.BatchSize = 4, 4
	env, _ := newEnv(t)
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: spec.Job})
	f := &fakeTurns{}
	var runs atomic.Int32 // of episode 1: each attempt starts at turn 0
	mockTurns(env, f, func(_ context.Context, in activities.GenerateInput) (activities.GenerateResult, error) {
		if in.Episode.Slot.Episode == 1 && in.Turn == 0 {
			runs.Add(1)
		}
		switch e := in.Episode.Slot.Episode; {
		case e == 0 && in.Turn == 2:
			return activities.GenerateResult{}, temporal.NewNonRetryableApplicationError("logprobs do not match the tokens", activities.ErrTypeBadAnswer, nil)
		case e == 1 && in.Turn == 1:
			return activities.GenerateResult{}, temporal.NewApplicationError("the endpoint resets every connection", "Flaky")
		}
		key := fmt.Sprintf("e%d/t%d/a%d", in.Episode.Slot.Episode, in.Turn, in.AttemptBase)
		return activities.GenerateResult{Ref: schema.TurnRef{Key: key, Tag: key}}, nil
	})
	p := runJob(t, env, JobInput{Spec: spec})
	got := map[int]activities.EpisodeOutcome{}
	for _, o := range f.shard.Episodes {
		got[o.Slot.Episode] = o
	}
	if o := got[0]; o.Failure == nil || o.Failure.ErrorClass != activities.ErrTypeBadAnswer || o.Failure.Attempts != 1 || o.Turns != 2 {
		t.Fatalf("bad answers: %+v %+v", o, o.Failure)
	}
	if o := got[1]; o.Failure == nil || o.Failure.ErrorClass != "Flaky" || o.Failure.Attempts != int(runs.Load()) || o.Turns != 1 {
		t.Fatalf("persistent fault: %+v %+v", o, o.Failure)
	}
	if got[2].Failure != nil || got[3].Failure != nil {
		t.Fatalf("healthy episodes failed: %+v %+v", got[2], got[3])
	}
	want := []ClassCount{{activities.ErrTypeBadAnswer, 1}, {"Flaky", 1}}
	if fmt.Sprint(p.Faults.Failed) != fmt.Sprint(want) || p.EpisodesFailed != 2 {
		t.Fatalf("fault counters %+v, failed %d", p.Faults, p.EpisodesFailed)
	}
}

// A rerun of a job that stopped half way (failed or cancelled) plays only
// the batches it did not commit: committed shards are not touched, and the
// job's progress counts them as done.
func TestRerunSkipsCommittedBatches(t *testing.T) {
	out := t.TempDir()
	spec := testSpec(t, out, schema.PolicyOracle) // 3 batches
	env, _ := newEnv(t)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	// Batch 1 was never committed, and the job never finished.
	job := filepath.Join(out, spec.Job)
	for _, p := range []string{"_SUCCESS", "_manifest/part-00001.json"} {
		if err := os.Remove(filepath.Join(job, p)); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, filepath.Join(job, "shards"))

	env2, _ := newEnv(t)
	var started []string
	env2.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		started = append(started, info.WorkflowExecution.ID)
	})
	p := runJob(t, env2, JobInput{Spec: spec})
	if fmt.Sprint(started) != "[wf/b00001]" {
		t.Fatalf("the rerun started %v, want only wf/b00001", started)
	}
	if !p.Done || p.BatchesDone != 3 || p.EpisodesDone != 48 || p.Resumed.Batches != 2 || p.Resumed.Episodes != 32 {
		t.Fatalf("progress %+v", p)
	}
	after := snapshot(t, filepath.Join(job, "shards"))
	for name, fi := range before {
		if strings.Contains(name, "-00001.") {
			continue // not committed: the rerun played and wrote it again
		}
		if a, ok := after[name]; !ok || a != fi {
			t.Fatalf("%s changed: %+v → %+v", name, fi, a)
		}
	}
	if len(after) != 6 {
		t.Fatalf("%d shard files, want 6", len(after))
	}
	if _, err := os.Stat(filepath.Join(job, "_SUCCESS")); err != nil {
		t.Fatal(err)
	}
}

type fileStamp struct {
	size int64
	mod  time.Time
	data string
}

func snapshot(t *testing.T, dir string) map[string]fileStamp {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]fileStamp{}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = fileStamp{fi.Size(), fi.ModTime(), string(b)}
	}
	return m
}

// The job's workflow code decides nothing from the spec's validation rules
// (ValidateJob applies them), so tightening a rule cannot change what a
// running job's history replays to.
func TestWorkflowCodeLeavesValidationToTheActivity(t *testing.T) {
	spec := testSpec(t, t.TempDir(), schema.PolicyOracle)
	bad := 2.0
	spec.Gamma = &bad // a rule of today's Validate
	env, _ := newEnv(t)
	env.OnActivity(activities.ValidateJobName, mock.Anything, mock.Anything).Return(activities.ValidateJobResult{}, nil)
	env.OnWorkflow(BatchWorkflowName, mock.Anything, mock.Anything).Return(
		func(_ workflow.Context, in BatchInput) (BatchResult, error) {
			return BatchResult{ShardSummary: activities.ShardSummary{Batch: in.Batch, Episodes: 16}}, nil
		})
	env.OnActivity(activities.WriteSuccessName, mock.Anything, mock.Anything).Return(nil)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("the workflow validated the spec itself: %v", err)
	}
}

// Act's timeout covers the env's step bound (code grading) from
// episodeDurable on; the first release kept a minute.
func TestActTimeoutCoversTheStepBound(t *testing.T) {
	code := activities.EnvPlan{ID: "code:CodeContest", StepBound: schema.Duration(150 * time.Second)}
	if got := actTimeout(episodeDurable, code); got < 150*time.Second {
		t.Errorf("Act timeout %v for a step bound of 150 s", got)
	}
	if got := actTimeout(episodeDurable, activities.EnvPlan{ID: "game:Sudoku-v0-easy"}); got != time.Minute {
		t.Errorf("Act timeout %v for a CPU-bound env, want 1m", got)
	}
	if got := actTimeout(workflow.DefaultVersion, code); got != time.Minute {
		t.Errorf("first-release Act timeout %v, want 1m", got)
	}
}
