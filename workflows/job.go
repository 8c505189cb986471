package workflows

import (
	"cmp"
	"errors"
	"slices"
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
	// Committed lists the batches from NextBatch on that an earlier run of
	// the job committed: this run skips them.
	Committed []int `json:"committed,omitempty"`
	// Endpoint is the job's view of the policy endpoint.
	Endpoint outages `json:"endpoint"`
	// Online is an online job's stream state (job_online.go).
	Online *OnlineState `json:"online,omitempty"`
}

// Versions of the job workflow (change id "job").
const (
	// jobResumable: the spec is validated in ValidateJob, not in workflow
	// code; batches an earlier run committed are skipped; batch ids of
	// closed runs are reused; endpoint outages stop new batches.
	jobResumable = 2
)

// JobWorkflow drives a job: validates it, runs its batches with a bounded
// number in flight, and writes _SUCCESS once every batch is committed. It can
// be paused, resumed and re-sized by signal and answers the progress query.
// A rerun of a failed or cancelled job skips the batches already committed.
func JobWorkflow(ctx workflow.Context, in JobInput) (Progress, error) {
	v := workflow.GetVersion(ctx, "job", workflow.DefaultVersion, jobResumable)
	spec := in.Spec
	if v < jobResumable {
		// Runs of the first release validated here; kept so they replay.
		// workflowcheck flags it (Validate ranges over a map to build its
		// message): new runs never take this branch.
		//workflowcheck:ignore
		if err := spec.Validate(); err != nil {
			return Progress{}, temporal.NewNonRetryableApplicationError(err.Error(), activities.ErrTypeInvalidSpec, err)
		}
	}
	j := &jobRun{ctx: ctx, v: v, spec: spec, st: in.State, in: in}
	// Answer from the start: before the plan exists the job reports its
	// size and nothing done.
	if err := workflow.SetQueryHandler(ctx, QueryProgress, j.progress); err != nil {
		return Progress{}, err
	}
	if j.st == nil {
		if err := j.plan(); err != nil {
			return Progress{}, err
		}
	}
	return j.run()
}

// jobRun is one run of a job workflow.
type jobRun struct {
	ctx      workflow.Context
	v        workflow.Version
	spec     schema.JobSpec
	in       JobInput
	st       *JobState
	sel      workflow.Selector
	childCtx workflow.Context
	failure  error
	running  []int // batches in flight, in launch order
	launched int
	// polling: a WaitConsumers activity is out (online jobs).
	polling bool
	// children are the batches in flight, to signal (online jobs).
	children map[int]*child
}

func (j *jobRun) progress() (Progress, error) {
	if j.st == nil {
		return Progress{Job: j.spec.Job, Batches: j.spec.Batches(), Episodes: int64(j.spec.Episodes())}, nil
	}
	p := j.st.Progress
	p.Paused = j.st.Paused
	f := j.st.InFlight // the limits now, set_in_flight included
	p.InFlight = &f
	p.Endpoint = j.st.Endpoint.outage()
	if o := j.st.Online; o != nil {
		p.Online = o.progress(j.spec, j.st.NextBatch, len(j.running))
	}
	return p, nil
}

// plan validates the job on a worker and sets up its state, counting the
// batches an earlier run committed as done.
func (j *jobRun) plan() error {
	ctx, spec := j.ctx, j.spec
	var plan activities.ValidateJobResult
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5},
	})
	if err := workflow.ExecuteActivity(actx, activities.ValidateJobName, spec).Get(ctx, &plan); err != nil {
		return err
	}
	now := workflow.Now(ctx)
	j.st = &JobState{Envs: plan.Envs, InFlight: spec.InFlight, Progress: Progress{
		Job: spec.Job, Batches: spec.Batches(), Episodes: int64(spec.Episodes()), StartedAt: now, UpdatedAt: now,
	}}
	if j.v >= jobResumable && len(plan.Committed) > 0 {
		p := &j.st.Progress
		j.st.Committed = plan.Committed
		p.Resumed = Resumed{Batches: len(plan.Committed), Episodes: plan.CommittedEpisodes, Failed: plan.CommittedFailed}
		p.BatchesDone, p.EpisodesDone, p.EpisodesFailed = len(plan.Committed), plan.CommittedEpisodes, plan.CommittedFailed
	}
	if spec.Online != nil {
		j.st.Online = newOnlineState(spec, plan)
	}
	return nil
}

func (j *jobRun) run() (Progress, error) {
	ctx, st := j.ctx, j.st
	j.sel = workflow.NewSelector(ctx)
	onSignals := j.signals()
	reuse := enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	if j.v >= jobResumable {
		// A completed batch is committed and skipped; any other closed run
		// of its id (cancelled with an earlier job run) is replaced.
		reuse = enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	}
	j.childCtx = workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		ParentClosePolicy:     enums.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
		WorkflowIDReusePolicy: reuse,
	})
	perRun := cmp.Or(j.in.MaxBatchesPerRun, maxBatchesPerRun)
	for {
		draining := j.launched >= perRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested()
		j.launch(draining)
		st.Progress.BatchesInFlight = len(j.running)
		if len(j.running) == 0 {
			switch {
			case j.failure != nil:
				return st.Progress, j.failure
			case !j.spec.HasBatch(st.NextBatch):
				return finish(ctx, j.spec, st)
			case draining:
				onSignals()
				st.Progress.ContinuedAsNew++
				return Progress{}, workflow.NewContinueAsNewError(ctx, JobWorkflowName, JobInput{Spec: j.spec, State: st, MaxBatchesPerRun: j.in.MaxBatchesPerRun})
			}
		}
		j.sel.Select(ctx)
		if err := ctx.Err(); err != nil {
			return st.Progress, err
		}
	}
}

// signals wires the job's signals into the selector and returns a function
// draining them all.
func (j *jobRun) signals() func() {
	st := j.st
	pause := workflow.GetSignalChannel(j.ctx, SignalPause)
	resume := workflow.GetSignalChannel(j.ctx, SignalResume)
	resize := workflow.GetSignalChannel(j.ctx, SignalSetInFlight)
	endpoint := workflow.GetSignalChannel(j.ctx, SignalEndpoint)
	policy := workflow.GetSignalChannel(j.ctx, SignalPolicy)
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
		if j.v >= jobResumable {
			j.onEndpoint(endpoint)
		}
		if st.Online != nil {
			j.onPolicy(policy)
		}
	}
	j.sel.AddReceive(pause, func(workflow.ReceiveChannel, bool) { onSignals() })
	j.sel.AddReceive(resume, func(workflow.ReceiveChannel, bool) { onSignals() })
	j.sel.AddReceive(resize, func(workflow.ReceiveChannel, bool) { onSignals() })
	if j.v >= jobResumable {
		j.sel.AddReceive(endpoint, func(workflow.ReceiveChannel, bool) { onSignals() })
	}
	if st.Online != nil {
		j.sel.AddReceive(policy, func(workflow.ReceiveChannel, bool) { onSignals() })
	}
	return onSignals
}

// launch starts batches up to the in-flight limit, unless the job is
// paused, draining, failing or waiting for its endpoint.
func (j *jobRun) launch(draining bool) {
	st := j.st
	for j.failure == nil && !st.Paused && !draining && !j.endpointDown() &&
		len(j.running) < st.InFlight.Batches && j.spec.HasBatch(st.NextBatch) && !j.onlineHeld() {
		b := st.NextBatch
		st.NextBatch++
		if len(st.Committed) > 0 && st.Committed[0] == b {
			st.Committed = st.Committed[1:] // committed by an earlier run
			continue
		}
		j.running = append(j.running, b)
		j.launched++
		cctx := workflow.WithWorkflowID(j.childCtx, BatchID(j.spec.Job, b))
		// A batch takes the in-flight limits current when it starts, so
		// set_in_flight reaches episodes of every later batch.
		bspec := j.spec
		bspec.InFlight = st.InFlight
		input := BatchInput{Spec: bspec, Envs: st.Envs, Batch: b}
		j.onlineLaunch(&input)
		var fut workflow.Future
		if j.v >= jobResumable {
			var c *child
			fut, c = startSignalable(cctx, BatchWorkflowName, input)
			j.keepChild(b, c)
		} else {
			fut = workflow.ExecuteChildWorkflow(cctx, BatchWorkflowName, input)
		}
		j.sel.AddFuture(fut, func(f workflow.Future) { j.onBatch(b, f) })
	}
}

func (j *jobRun) endpointDown() bool { return j.v >= jobResumable && len(j.st.Endpoint.Waiting) > 0 }

// onBatch folds a finished batch into the job's progress.
func (j *jobRun) onBatch(b int, f workflow.Future) {
	j.running = slices.DeleteFunc(j.running, func(x int) bool { return x == b })
	delete(j.children, b)
	var res BatchResult
	err := f.Get(j.ctx, &res)
	if j.v >= jobResumable && j.st.Endpoint.forgetBatch(BatchID(j.spec.Job, b)) {
		j.broadcast(false)
	}
	if err != nil {
		if j.failure == nil {
			j.failure = err
		}
		return
	}
	j.onlineCommitted(b, res.Policy)
	p := &j.st.Progress
	p.BatchesDone++
	p.EpisodesDone += int64(res.Episodes)
	p.EpisodesFailed += int64(res.Failed)
	p.Successes += int64(res.Successes)
	p.Turns += res.Turns
	p.RewardSum += res.RewardSum
	p.PromptTokens += res.PromptTokens
	p.ResponseTokens += res.ResponseTokens
	p.Faults.Failed = addClasses(p.Faults.Failed, res.FailedClasses)
	p.UpdatedAt = workflow.Now(j.ctx)
}

// onEndpoint applies the episodes' endpoint signals; when the endpoint goes
// away or comes back for the job, the batches in flight hear of it.
func (j *jobRun) onEndpoint(c workflow.ReceiveChannel) {
	var s EndpointSignal
	for c.ReceiveAsync(&s) {
		before := len(j.st.Endpoint.Waiting)
		if j.st.Endpoint.apply(s) {
			if s.Down {
				j.st.Progress.Faults.EndpointOutages++
			}
			j.broadcast(s.Down)
		}
		if len(j.st.Endpoint.Waiting) > before {
			j.st.Progress.Faults.TurnsPaused++
		}
		s = EndpointSignal{}
	}
}

// broadcast tells every batch in flight that the endpoint went away or came
// back, so none starts new episodes while it is away. A batch that just
// ended misses the signal; nothing waits for it.
func (j *jobRun) broadcast(down bool) {
	j.st.Endpoint.Epoch++
	for _, b := range j.running {
		_ = workflow.SignalExternalWorkflow(j.ctx, BatchID(j.spec.Job, b), "", SignalEndpoint, BatchEndpointSignal{Down: down, Epoch: j.st.Endpoint.Epoch})
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
