package workflows

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

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
	env.ExecuteWorkflow(JobWorkflowName, JobInput{Spec: spec})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var p Progress
	if err := env.GetWorkflowResult(&p); err != nil {
		t.Fatal(err)
	}
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
