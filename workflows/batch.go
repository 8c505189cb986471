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
	// Policy is the live policy version when an online batch starts;
	// CommitReady says every earlier batch is committed already (else
	// SignalCommit says so later).
	Policy      *schema.PolicyStep `json:"policy,omitempty"`
	CommitReady bool               `json:"commit_ready,omitempty"`
}

// Versions of the batch workflow (change id "batch").
const (
	// batchResumable: episode ids of closed runs are reused (a start that
	// collides with a run still closing waits); the episode enforces its
	// own wall-clock cap, excluding time paused for the endpoint; no new
	// episode starts while the job reports the endpoint away; the result
	// counts failed episodes by class.
	batchResumable = 2
)

// BatchWorkflow plays a batch's episodes and commits them as one shard.
func BatchWorkflow(ctx workflow.Context, in BatchInput) (BatchResult, error) {
	v := workflow.GetVersion(ctx, "batch", workflow.DefaultVersion, batchResumable)
	spec := in.Spec
	slots := spec.BatchSlots(in.Batch)
	if len(slots) == 0 {
		return BatchResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("batch %d is outside the job's %d batches", in.Batch, spec.Batches()), activities.ErrTypeInvalidSpec, nil)
	}
	var outcomes []activities.EpisodeOutcome
	var policy *schema.ManifestPolicy
	switch spec.Policy.Kind {
	case schema.PolicyOpenAI:
		if spec.Online == nil {
			outcomes = runEpisodes(ctx, v, spec, in.Envs, slots)
			break
		}
		var err error
		if outcomes, policy, err = runOnline(ctx, in, slots); err != nil {
			return BatchResult{}, err
		}
	case schema.PolicyRandom, schema.PolicyOracle:
		var err error
		if outcomes, err = runLocal(ctx, spec, in.Envs, slots); err != nil {
			return BatchResult{}, err
		}
	default:
		return BatchResult{}, temporal.NewNonRetryableApplicationError(
			"unknown policy "+spec.Policy.Kind, activities.ErrTypeInvalidSpec, nil)
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	var res BatchResult
	err := workflow.ExecuteActivity(actx, activities.WriteShardName, activities.WriteShardInput{
		Spec: spec, Envs: in.Envs, Batch: in.Batch, Episodes: outcomes, Policy: policy,
	}).Get(ctx, &res.ShardSummary)
	if v >= batchResumable {
		res.FailedClasses = failedClasses(outcomes)
	}
	if policy != nil {
		res.Policy = &policy.Current
	}
	return res, err
}

// failedClasses counts failed outcomes by error class.
func failedClasses(outcomes []activities.EpisodeOutcome) []ClassCount {
	var cs []ClassCount
	for _, o := range outcomes {
		if o.Failure != nil {
			cs = addClasses(cs, []ClassCount{{Class: o.Failure.ErrorClass, Count: 1}})
		}
	}
	return cs
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
// wall-clock cap) is recorded as a failure; the batch goes on. From
// batchResumable on, no episode starts while the job reports the endpoint
// away.
func runEpisodes(ctx workflow.Context, v workflow.Version, spec schema.JobSpec, plans []activities.EnvPlan, slots []schema.Slot) []activities.EpisodeOutcome {
	out := make([]activities.EpisodeOutcome, len(slots))
	sel := workflow.NewSelector(ctx)
	var endpoint BatchEndpointSignal
	if v >= batchResumable {
		sel.AddReceive(workflow.GetSignalChannel(ctx, SignalEndpoint), func(c workflow.ReceiveChannel, _ bool) {
			var s BatchEndpointSignal
			for c.ReceiveAsync(&s) {
				if s.Epoch > endpoint.Epoch {
					endpoint = s
				}
			}
		})
	}
	next, running := 0, 0
	limit := max(1, spec.InFlight.Episodes)
	for next < len(slots) || running > 0 {
		for next < len(slots) && running < limit && !endpoint.Down {
			i := next
			next++
			running++
			slot := slots[i]
			ref := activities.EpisodeRef{Spec: spec, Env: plans[slot.Env], Slot: slot}
			fut := startEpisode(ctx, v, ref)
			sel.AddFuture(fut, func(f workflow.Future) {
				running--
				if err := f.Get(ctx, &out[i]); err != nil {
					out[i] = failedOutcome(slot, spec, err)
				}
			})
		}
		sel.Select(ctx)
		if v >= batchResumable && ctx.Err() != nil {
			return out // cancelled: the shard is not written
		}
	}
	return out
}

// failedOutcome records an episode whose run ended in an error: the turns
// and attempts its last run reported, or (a run of the first release, or
// one that ended without reporting, such as a timeout) no turns and every
// attempt.
func failedOutcome(slot schema.Slot, spec schema.JobSpec, err error) activities.EpisodeOutcome {
	out := activities.EpisodeOutcome{Slot: slot, Failure: &activities.EpisodeFailure{
		ErrorClass: errorClass(err), Message: err.Error(), Attempts: spec.Episode.MaxAttempts,
	}}
	var ae *temporal.ApplicationError
	var d attemptDetails
	if errors.As(err, &ae) && ae.HasDetails() && ae.Details(&d) == nil && d.Attempts > 0 {
		out.Turns, out.Failure.Attempts = d.Turns, d.Attempts
	}
	return out
}

// startEpisode starts one episode's child workflow.
func startEpisode(ctx workflow.Context, v workflow.Version, ref activities.EpisodeRef) workflow.Future {
	opts := workflow.ChildWorkflowOptions{
		WorkflowID:            ref.ID(),
		RetryPolicy:           &temporal.RetryPolicy{MaximumAttempts: int32(ref.Spec.Episode.MaxAttempts)},
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}
	if v < batchResumable {
		opts.WorkflowExecutionTimeout = time.Duration(ref.Spec.Episode.Timeout)
		return workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, opts), EpisodeWorkflowName, EpisodeInput{Episode: ref})
	}
	// The episode enforces its wall-clock cap itself, excluding the time
	// its turns wait for the endpoint: an outage must not time it out.
	return startChild(workflow.WithChildOptions(ctx, opts), EpisodeWorkflowName, EpisodeInput{Episode: ref})
}

// Error classes the workflows give failed episodes.
const (
	ClassEpisodeTimeout = "EpisodeTimeout" // the wall-clock cap (episode.timeout)
	ClassTurnTimeout    = "TurnTimeout"    // a turn's activity timed out on its every attempt
)

// errorClass names why an episode failed, from the error's type, never its text.
func errorClass(err error) string {
	var te *temporal.TimeoutError
	var ae *temporal.ApplicationError
	var ce *temporal.CanceledError
	var act *temporal.ActivityError
	switch {
	case errors.As(err, &act) && errors.As(err, &te):
		return ClassTurnTimeout
	case errors.As(err, &te):
		return ClassEpisodeTimeout
	case errors.As(err, &ce):
		return "Canceled"
	case errors.As(err, &ae) && ae.Type() != "":
		return ae.Type()
	}
	return "EpisodeError"
}
