package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// episodesPerActivity is how many local-policy episodes one RunEpisodes
// activity plays: large enough that Temporal's per-activity cost vanishes
// next to microsecond turns, small enough that a retry replays little.
const episodesPerActivity = 32

// BatchInput is one batch of a job.
type BatchInput struct {
	Spec  schema.JobSpec       `json:"spec"`
	Envs  []activities.EnvPlan `json:"envs"`
	Batch int                  `json:"batch"`
}

// BatchWorkflow plays a batch's episodes and commits them as one shard.
func BatchWorkflow(ctx workflow.Context, in BatchInput) (activities.ShardSummary, error) {
	_ = workflow.GetVersion(ctx, "batch", workflow.DefaultVersion, 1)
	spec := in.Spec
	slots := spec.BatchSlots(in.Batch)
	if len(slots) == 0 {
		return activities.ShardSummary{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("batch %d is outside the job's %d batches", in.Batch, spec.Batches()), activities.ErrTypeInvalidSpec, nil)
	}
	var outcomes []activities.EpisodeOutcome
	switch spec.Policy.Kind {
	case schema.PolicyRandom, schema.PolicyOracle:
		var err error
		if outcomes, err = runLocal(ctx, spec, in.Envs, slots); err != nil {
			return activities.ShardSummary{}, err
		}
	case schema.PolicyOpenAI:
		outcomes = runEpisodes(ctx, spec, in.Envs, slots)
	default:
		return activities.ShardSummary{}, temporal.NewNonRetryableApplicationError(
			"unknown policy "+spec.Policy.Kind, activities.ErrTypeInvalidSpec, nil)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	var sum activities.ShardSummary
	err := workflow.ExecuteActivity(actx, activities.WriteShardName, activities.WriteShardInput{
		Spec: spec, Envs: in.Envs, Batch: in.Batch, Episodes: outcomes,
	}).Get(ctx, &sum)
	return sum, err
}

// runLocal plays the slots with a local policy in chunks, a bounded number
// of chunks at a time, and returns the outcomes in slot order.
func runLocal(ctx workflow.Context, spec schema.JobSpec, plans []activities.EnvPlan, slots []schema.Slot) ([]activities.EpisodeOutcome, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Duration(spec.Episode.Timeout) * episodesPerActivity,
		HeartbeatTimeout:    30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: int32(spec.Episode.MaxAttempts)},
	})
	var chunks [][]schema.Slot
	for i := 0; i < len(slots); i += episodesPerActivity {
		chunks = append(chunks, slots[i:min(i+episodesPerActivity, len(slots))])
	}
	limit := max(1, spec.InFlight.Episodes/episodesPerActivity)
	results := make([]activities.RunEpisodesResult, len(chunks))
	sel := workflow.NewSelector(ctx)
	var failure error
	next, running := 0, 0
	for next < len(chunks) || running > 0 {
		for failure == nil && next < len(chunks) && running < limit {
			i := next
			next++
			running++
			fut := workflow.ExecuteActivity(actx, activities.RunEpisodesName, activities.RunEpisodesInput{
				Job: spec.Job, Spec: spec, Envs: plans, Slots: chunks[i],
			})
			sel.AddFuture(fut, func(f workflow.Future) {
				running--
				if err := f.Get(ctx, &results[i]); err != nil && failure == nil {
					failure = err
				}
			})
		}
		if running == 0 {
			break
		}
		sel.Select(ctx)
	}
	if failure != nil {
		return nil, failure
	}
	var out []activities.EpisodeOutcome
	for _, r := range results {
		out = append(out, r.Episodes...)
	}
	return out, nil
}

// runEpisodes plays each slot as a child EpisodeWorkflow, a bounded number
// at a time. An episode that fails for good (every attempt, or its
// wall-clock cap) is recorded as a failure; the batch goes on.
func runEpisodes(ctx workflow.Context, spec schema.JobSpec, plans []activities.EnvPlan, slots []schema.Slot) []activities.EpisodeOutcome {
	out := make([]activities.EpisodeOutcome, len(slots))
	sel := workflow.NewSelector(ctx)
	next, running := 0, 0
	limit := max(1, spec.InFlight.Episodes)
	for next < len(slots) || running > 0 {
		for next < len(slots) && running < limit {
			i := next
			next++
			running++
			slot := slots[i]
			cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
				WorkflowID:               schema.EpisodeID(spec.Job, slot.Batch, slot.Episode),
				WorkflowExecutionTimeout: time.Duration(spec.Episode.Timeout),
				RetryPolicy:              &temporal.RetryPolicy{MaximumAttempts: int32(spec.Episode.MaxAttempts)},
				WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			})
			ref := activities.EpisodeRef{Spec: spec, Env: plans[slot.Env], Slot: slot}
			fut := workflow.ExecuteChildWorkflow(cctx, EpisodeWorkflowName, EpisodeInput{Episode: ref})
			sel.AddFuture(fut, func(f workflow.Future) {
				running--
				if err := f.Get(ctx, &out[i]); err != nil {
					out[i] = activities.EpisodeOutcome{Slot: slot, Failure: &activities.EpisodeFailure{
						ErrorClass: errorClass(err), Message: err.Error(), Attempts: spec.Episode.MaxAttempts,
					}}
				}
			})
		}
		sel.Select(ctx)
	}
	return out
}

// errorClass names why an episode failed, from the error's type, never its text.
func errorClass(err error) string {
	var te *temporal.TimeoutError
	var ae *temporal.ApplicationError
	var ce *temporal.CanceledError
	switch {
	case errors.As(err, &te):
		return "EpisodeTimeout"
	case errors.As(err, &ce):
		return "Canceled"
	case errors.As(err, &ae) && ae.Type() != "":
		return ae.Type()
	}
	return "EpisodeError"
}
