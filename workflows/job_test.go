package workflows

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

func testSpec(t *testing.T, out, policy string) schema.JobSpec {
	t.Helper()
	s, err := schema.ParseJobSpec([]byte(`
job: wf
seed: 5
envs: [{id: game:GuessTheNumber-v0-easy}, {id: rg:basic_arithmetic}]
tasks: 12
samples_per_task: 4
batch_size: 16
gamma: 0.9
policy: {kind: ` + policy + `}
in_flight: {batches: 2}
`))
	if err != nil {
		t.Fatal(err)
	}
	s.Output = "file://" + out
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func newEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *activities.Activities) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}}
	Register(env, a)
	return env, a
}

func TestJobCommitsEveryBatch(t *testing.T) {
	out := t.TempDir()
	spec := testSpec(t, out, schema.PolicyOracle)
	env, _ := newEnv(t)
	var paused []bool
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalPause, nil)
	}, time.Millisecond)
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryProgress)
		if err != nil {
			t.Error(err)
			return
		}
		var p Progress
		v.Get(&p)
		paused = append(paused, p.Paused)
		env.SignalWorkflow(SignalResume, nil)
	}, time.Hour)
	p := runJob(t, env, JobInput{Spec: spec})
	if !p.Done || p.BatchesDone != 3 || p.EpisodesDone != 48 || p.EpisodesFailed != 0 || p.Successes != 48 {
		t.Fatalf("progress %+v", p)
	}
	if len(paused) != 1 || !paused[0] {
		t.Fatalf("pause signal not reflected in the progress query: %v", paused)
	}
	store, err := blob.Open(context.Background(), spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(context.Background(), store, spec.Job)
	if err != nil {
		t.Fatal(err)
	}
	var episodes int64
	for _, m := range ms {
		episodes += m.EpisodeRows
	}
	if len(ms) != 3 || episodes != 48 {
		t.Fatalf("%d manifests, %d episode rows", len(ms), episodes)
	}
	if _, err := os.Stat(filepath.Join(out, "wf", "_SUCCESS")); err != nil {
		t.Fatal(err)
	}
}

func TestInvalidSpecFailsNonRetryably(t *testing.T) {
	spec := testSpec(t, t.TempDir(), schema.PolicyOracle)
	spec.Tasks = 0
	env, _ := newEnv(t)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	err := env.GetWorkflowError()
	if err == nil {
		t.Fatal("invalid spec accepted")
	}
	if want := "tasks"; !contains(err.Error(), want) {
		t.Fatalf("error %v does not name %q", err, want)
	}
}

func TestUnknownEnvRejectedByValidateJob(t *testing.T) {
	spec := testSpec(t, t.TempDir(), schema.PolicyOracle)
	spec.Envs[0].ID = "game:GuessTheNumbr-v0-easy"
	env, _ := newEnv(t)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	err := env.GetWorkflowError()
	if err == nil || !contains(err.Error(), "did you mean game:GuessTheNumber-v0-easy") {
		t.Fatalf("err %v", err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// set_in_flight raises both limits mid-job: more batches start at once, and
// batches started after the signal carry the new episode limit.
func TestSetInFlightSignal(t *testing.T) {
	spec := testSpec(t, t.TempDir(), schema.PolicyOracle)
	spec.Tasks, spec.InFlight = 24, schema.InFlight{Batches: 1, Episodes: 2} // 6 batches of 16
	env, _ := newEnv(t)
	type start struct {
		at       time.Time
		batch    int
		episodes int
	}
	var starts []start
	env.OnWorkflow(BatchWorkflowName, mock.Anything, mock.Anything).After(10 * time.Minute).Return(
		func(_ workflow.Context, in BatchInput) (BatchResult, error) {
			// The test env calls the mock when the delay has passed.
			starts = append(starts, start{env.Now().Add(-10 * time.Minute), in.Batch, in.Spec.InFlight.Episodes})
			return BatchResult{ShardSummary: activities.ShardSummary{Batch: in.Batch, Episodes: 16, Turns: 32, PromptTokens: 100, ResponseTokens: 10}}, nil
		})
	env.OnActivity(activities.WriteSuccessName, mock.Anything, mock.Anything).Return(nil) // no shards were written
	var sentAt time.Time
	env.RegisterDelayedCallback(func() {
		sentAt = env.Now()
		env.SignalWorkflow(SignalSetInFlight, schema.InFlight{Batches: 3, Episodes: 5})
	}, 15*time.Minute)
	p := runJob(t, env, JobInput{Spec: spec})
	if !p.Done || p.BatchesDone != 6 || p.PromptTokens != 600 || p.ResponseTokens != 60 {
		t.Fatalf("progress %+v", p)
	}
	if len(starts) != 6 {
		t.Fatalf("%d batches started", len(starts))
	}
	// Batches run 10 minutes each (the mock's delay): count the most running at once.
	most := 0
	for _, s := range starts {
		n := 0
		for _, o := range starts {
			if !o.at.After(s.at) && o.at.Add(10*time.Minute).After(s.at) {
				n++
			}
		}
		most = max(most, n)
	}
	if most != 3 {
		t.Fatalf("at most %d batches ran at once, want 3 after the signal: %+v", most, starts)
	}
	for _, s := range starts {
		want := 2
		if !s.at.Before(sentAt) {
			want = 5
		}
		if s.episodes != want {
			t.Fatalf("batch %d started at %v with %d episodes in flight, want %d (signal at %v)", s.batch, s.at, s.episodes, want, sentAt)
		}
	}
}

// A job that reaches its per-run batch budget drains, continues as new with
// its state, and the next run finishes the job with every counter carried.
func TestJobContinuesAsNew(t *testing.T) {
	out := t.TempDir()
	spec := testSpec(t, out, schema.PolicyOracle) // 3 batches, 2 in flight
	env, _ := newEnv(t)
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec, MaxBatchesPerRun: 2})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("first run ended with %v, want continue-as-new", err)
	}
	var next JobInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	st := next.State
	if st == nil || st.NextBatch != 2 || st.Progress.BatchesDone != 2 || st.Progress.EpisodesDone != 32 ||
		st.Progress.ContinuedAsNew != 1 || next.MaxBatchesPerRun != 2 || len(st.Envs) != 2 {
		t.Fatalf("continued with %+v", next)
	}

	env2, _ := newEnv(t)
	p := runJob(t, env2, next)
	if !p.Done || p.BatchesDone != 3 || p.EpisodesDone != 48 || p.ContinuedAsNew != 1 || !p.StartedAt.Equal(st.Progress.StartedAt) {
		t.Fatalf("final progress %+v", p)
	}
	if _, err := os.Stat(filepath.Join(out, "wf", "_SUCCESS")); err != nil {
		t.Fatal(err)
	}
}

// runJob runs the job workflow to its end in env and returns its progress;
// a failed job fails the test.
func runJob(t *testing.T, env *testsuite.TestWorkflowEnvironment, in JobInput) Progress {
	t.Helper()
	env.ExecuteWorkflow(JobWorkflowName, in)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var p Progress
	if err := env.GetWorkflowResult(&p); err != nil {
		t.Fatal(err)
	}
	return p
}
