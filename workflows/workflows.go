// Package workflows holds Quarry's Temporal workflows: Job → Batch →
// episodes. Workflow code is deterministic orchestration only — no I/O, no
// clocks but workflow.Now, no map iteration — and refers to activities by
// their persisted names. Each workflow's state is counters and refs; the
// data lives in the turn log and the shards.
package workflows

import (
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
)

// Workflow names: persisted, never derived from Go identifiers.
const (
	JobWorkflowName   = "quarry.Job"
	BatchWorkflowName = "quarry.Batch"
)

// Query, signal and search names.
const (
	QueryProgress     = "progress"
	SignalPause       = "pause"
	SignalResume      = "resume"
	SignalSetInFlight = "set_in_flight"
	// SignalEndpoint: an episode tells its job its turn waits for the
	// endpoint (or goes on); the job tells its batches the endpoint went
	// away (or came back).
	SignalEndpoint = "endpoint"
)

// DefaultTaskQueue is where workflows and activities run unless configured.
const DefaultTaskQueue = "quarry"

// JobID, BatchID: deterministic workflow ids.
func BatchID(job string, batch int) string { return fmt.Sprintf("%s/b%05d", job, batch) }

// Register registers every workflow and activity on w under its persisted name.
func Register(w worker.Registry, a *activities.Activities) {
	w.RegisterWorkflowWithOptions(JobWorkflow, workflow.RegisterOptions{Name: JobWorkflowName})
	w.RegisterWorkflowWithOptions(BatchWorkflow, workflow.RegisterOptions{Name: BatchWorkflowName})
	w.RegisterWorkflowWithOptions(EpisodeWorkflow, workflow.RegisterOptions{Name: EpisodeWorkflowName})
	w.RegisterActivityWithOptions(a.ValidateJob, activity.RegisterOptions{Name: activities.ValidateJobName})
	w.RegisterActivityWithOptions(a.RunEpisodes, activity.RegisterOptions{Name: activities.RunEpisodesName})
	w.RegisterActivityWithOptions(a.Generate, activity.RegisterOptions{Name: activities.GenerateName})
	w.RegisterActivityWithOptions(a.PlayTurns, activity.RegisterOptions{Name: activities.PlayTurnsName})
	w.RegisterActivityWithOptions(a.Act, activity.RegisterOptions{Name: activities.ActName})
	w.RegisterActivityWithOptions(a.WriteShard, activity.RegisterOptions{Name: activities.WriteShardName})
	w.RegisterActivityWithOptions(a.WriteSuccess, activity.RegisterOptions{Name: activities.WriteSuccessName})
	w.RegisterActivityWithOptions(a.ProbeEndpoint, activity.RegisterOptions{Name: activities.ProbeEndpointName})
	w.RegisterActivityWithOptions(a.WaitConsumers, activity.RegisterOptions{Name: activities.WaitConsumersName})
}
