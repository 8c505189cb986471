package workflows

import (
	"cmp"
	"errors"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// maxBatchesPerRun bounds one run's history: after this many batches the job
// drains its in-flight batches and continues as new.
const maxBatchesPerRun = 200

// JobInput starts a job; State carries a running job across continue-as-new.
type JobInput struct {
	Spec  schema.JobSpec `json:"spec"`
	State *JobState      `json:"state,omitempty"`
	// MaxBatchesPerRun overrides how many batches one run launches before it
	// drains and continues as new (0: maxBatchesPerRun). For tests and for
	// clusters with tighter history limits.
	MaxBatchesPerRun int `json:"max_batches_per_run,omitempty"`
}

// JobState is everything a job run hands to the next: counters and plans,
// never episode data.
type JobState struct {
	Envs      []activities.EnvPlan `json:"envs"`
	NextBatch int                  `json:"next_batch"`
	Paused    bool                 `json:"paused"`
	InFlight  schema.InFlight      `json:"in_flight"`
	Progress  Progress             `json:"progress"`
}

// Progress is what the progress query answers.
type Progress struct {
	Job             string    `json:"job"`
	Batches         int       `json:"batches"`
	BatchesDone     int       `json:"batches_done"`
	BatchesInFlight int       `json:"batches_in_flight"`
	Episodes        int64     `json:"episodes"`
	EpisodesDone    int64     `json:"episodes_done"`
	EpisodesFailed  int64     `json:"episodes_failed"`
	Successes       int64     `json:"successes"`
	Turns           int64     `json:"turns"`
	PromptTokens    int64     `json:"prompt_tokens"`
	ResponseTokens  int64     `json:"response_tokens"`
	RewardSum       float64   `json:"reward_sum"`
	StartedAt       time.Time `json:"started_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	Paused          bool      `json:"paused"`
	Done            bool      `json:"done"`
	ContinuedAsNew  int       `json:"continued_as_new"`
}

// MeanReward is the mean total reward of the finished episodes.
func (p Progress) MeanReward() float64 {
	if n := p.EpisodesDone - p.EpisodesFailed; n > 0 {
		return p.RewardSum / float64(n)
	}
	return 0
}

// TurnsPerSecond since the job started.
func (p Progress) TurnsPerSecond() float64 {
	if d := p.UpdatedAt.Sub(p.StartedAt).Seconds(); d > 0 {
		return float64(p.Turns) / d
	}
	return 0
}

// JobWorkflow drives a job: validates it, runs its batches with a bounded
// number in flight, and writes _SUCCESS once every batch is committed. It can
// be paused, resumed and re-sized by signal and answers the progress query.
func JobWorkflow(ctx workflow.Context, in JobInput) (Progress, error) {
	// Versioned from the first release so later changes can branch on it.
	_ = workflow.GetVersion(ctx, "job", workflow.DefaultVersion, 1)
	spec := in.Spec
	if err := spec.Validate(); err != nil {
		return Progress{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrTypeInvalidSpec, err)
	}
	st := in.State
	// Answer from the start: before the plan exists the job reports its
	// size and nothing done.
	if err := workflow.SetQueryHandler(ctx, QueryProgress, func() (Progress, error) {
		if st == nil {
			return Progress{Job: spec.Job, Batches: spec.Batches(), Episodes: int64(spec.Episodes())}, nil
		}
		p := st.Progress
		p.Paused = st.Paused
		return p, nil
	}); err != nil {
		return Progress{}, err
	}
	if st == nil {
		var plan activities.ValidateJobResult
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			StartToCloseTimeout: 2 * time.Minute,
			RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
		})
		if err := workflow.ExecuteActivity(actx, activities.ValidateJobName, spec).Get(ctx, &plan); err != nil {
			return Progress{}, err
		}
		now := workflow.Now(ctx)
		st = &JobState{Envs: plan.Envs, InFlight: spec.InFlight, Progress: Progress{
			Job: spec.Job, Batches: spec.Batches(), Episodes: int64(spec.Episodes()), StartedAt: now, UpdatedAt: now,
		}}
	}

	sel := workflow.NewSelector(ctx)
	pause := workflow.GetSignalChannel(ctx, SignalPause)
	resume := workflow.GetSignalChannel(ctx, SignalResume)
	resize := workflow.GetSignalChannel(ctx, SignalSetInFlight)
	onSignals := func() {
		for pause.ReceiveAsync(nil) {
			st.Paused = true
		}
		for resume.ReceiveAsync(nil) {
			st.Paused = false
		}
		var f schema.InFlight
		for resize.ReceiveAsync(&f) {
			if f.Batches > 0 {
				st.InFlight.Batches = f.Batches
			}
			if f.Episodes > 0 {
				st.InFlight.Episodes = f.Episodes
			}
		}
	}
	sel.AddReceive(pause, func(workflow.ReceiveChannel, bool) { onSignals() })
	sel.AddReceive(resume, func(workflow.ReceiveChannel, bool) { onSignals() })
	sel.AddReceive(resize, func(workflow.ReceiveChannel, bool) { onSignals() })

	childCtx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
	})
	var failure error
	inFlight, launched := 0, 0
	perRun := cmp.Or(in.MaxBatchesPerRun, maxBatchesPerRun)
	for {
		draining := launched >= perRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested()
		for failure == nil && !st.Paused && !draining && inFlight < st.InFlight.Batches && st.NextBatch < st.Progress.Batches {
			b := st.NextBatch
			st.NextBatch++
			inFlight++
			launched++
			cctx := workflow.WithWorkflowID(childCtx, BatchID(spec.Job, b))
			// A batch takes the in-flight limits current when it starts, so
			// set_in_flight reaches episodes of every later batch.
			bspec := spec
			bspec.InFlight = st.InFlight
			fut := workflow.ExecuteChildWorkflow(cctx, BatchWorkflowName, BatchInput{Spec: bspec, Envs: st.Envs, Batch: b})
			sel.AddFuture(fut, func(f workflow.Future) {
				inFlight--
				var sum activities.ShardSummary
				if err := f.Get(ctx, &sum); err != nil {
					if failure == nil {
						failure = err
					}
					return
				}
				p := &st.Progress
				p.BatchesDone++
				p.EpisodesDone += int64(sum.Episodes)
				p.EpisodesFailed += int64(sum.Failed)
				p.Successes += int64(sum.Successes)
				p.Turns += sum.Turns
				p.RewardSum += sum.RewardSum
				p.PromptTokens += sum.PromptTokens
				p.ResponseTokens += sum.ResponseTokens
				p.UpdatedAt = workflow.Now(ctx)
			})
		}
		st.Progress.BatchesInFlight = inFlight
		if inFlight == 0 {
			switch {
			case failure != nil:
				return st.Progress, failure
			case st.NextBatch >= st.Progress.Batches:
				return finish(ctx, spec, st)
			case draining:
				onSignals()
				st.Progress.ContinuedAsNew++
				return Progress{}, workflow.NewContinueAsNewError(ctx, JobWorkflowName, JobInput{Spec: spec, State: st, MaxBatchesPerRun: in.MaxBatchesPerRun})
			}
		}
		sel.Select(ctx)
		if err := ctx.Err(); err != nil {
			return st.Progress, err
		}
	}
}

func finish(ctx workflow.Context, spec schema.JobSpec, st *JobState) (Progress, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumInterval: time.Minute},
	})
	in := activities.WriteSuccessInput{Job: spec.Job, Output: spec.Output, Batches: st.Progress.Batches, StartedAt: st.Progress.StartedAt}
	if err := workflow.ExecuteActivity(actx, activities.WriteSuccessName, in).Get(ctx, nil); err != nil {
		return st.Progress, err
	}
	st.Progress.Done = true
	st.Progress.UpdatedAt = workflow.Now(ctx)
	return st.Progress, nil
}

// IsCanceled reports whether err is a workflow cancellation.
func IsCanceled(err error) bool {
	var ce *temporal.CanceledError
	return errors.As(err, &ce)
}
