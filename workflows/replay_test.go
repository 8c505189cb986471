package workflows

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Histories recorded from a real run (cmd/submit's e2e test with
// -update-histories) must replay against the current workflow code: a change
// that breaks running workflows fails here, not in production.
func replayer(t *testing.T) worker.WorkflowReplayer {
	t.Helper()
	r := worker.NewWorkflowReplayer()
	r.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: JobWorkflowName})
	r.RegisterWorkflowWithOptions(BatchWorkflow, workflow.RegisterOptions{Name: BatchWorkflowName})
	r.RegisterWorkflowWithOptions(EpisodeWorkflow, workflow.RegisterOptions{Name: EpisodeWorkflowName})
	return r
}

func TestReplayCommittedHistories(t *testing.T) {
	// The job and a batch of the oracle e2e; an endpoint episode; an episode
	// with tool calls (Act, ToolCall on the tool queue, CloseTools). The
	// _v1 files were recorded by the first release (workflow versions 1)
	// and replay through its branches; the others are re-recorded by
	// -update-histories with the current versions. The _online files are an
	// online job's (cmd/submit TestOnlineAsyncInProcess -update-histories):
	// policy signals, commit leave, WaitConsumers.
	for _, f := range []string{
		"history_job.json", "history_batch.json", "history_episode.json", "history_episode_tools.json",
		"history_job_v1.json", "history_batch_v1.json", "history_episode_v1.json", "history_episode_tools_v1.json",
		"history_job_online.json", "history_batch_online.json", "history_episode_online.json",
	} {
		if err := replayer(t).ReplayWorkflowHistoryFromJSONFile(nil, filepath.Join("testdata", f)); err != nil {
			t.Errorf("%s no longer replays: %v", f, err)
		}
	}
}

// A deliberately broken history (an activity the code never schedules) must
// fail to replay, proving the replay test can fail.
func TestReplayDetectsNondeterminism(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "history_batch.json"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.ReplaceAll(string(b), `"quarry.RunEpisodes"`, `"quarry.RunEpisodesRenamed"`)
	if broken == string(b) {
		t.Fatal("the fixture schedules no RunEpisodes activity")
	}
	p := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := replayer(t).ReplayWorkflowHistoryFromJSONFile(nil, p); err == nil {
		t.Fatal("a history with a renamed activity replayed cleanly")
	}
}
