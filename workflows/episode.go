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

// EpisodeWorkflowName is the per-episode workflow of endpoint policies.
const EpisodeWorkflowName = "quarry.Episode"

// turnsPerRun bounds an episode run's history; longer episodes continue as
// new carrying only their counters and head ref.
const turnsPerRun = 100

// EpisodeInput starts (or continues) one episode.
type EpisodeInput struct {
	Episode activities.EpisodeRef `json:"episode"`
	State   EpisodeState          `json:"state"`
	// Regen numbers an online episode's regeneration by its batch (its
	// turns were too stale to deliver): record keys stay apart from every
	// earlier generation's.
	Regen int `json:"regen,omitempty"`
}

// EpisodeState is what one run of an episode hands to the next.
type EpisodeState struct {
	Turn        int             `json:"turn"`
	Head        *schema.TurnRef `json:"head,omitempty"`
	TotalReward float64         `json:"total_reward"`
	Runs        int             `json:"runs"`
	// Tokens the endpoint processed over every accepted and failed-over
	// generation of the episode (for progress and cost, not for training).
	PromptTokens   int64 `json:"prompt_tokens,omitempty"`
	ResponseTokens int64 `json:"response_tokens,omitempty"`
	// ToolQueue is the host queue of the worker holding the episode's tool
	// sessions (empty until the first tool call).
	ToolQueue string `json:"tool_queue,omitempty"`
	// Active is the wall-clock time the episode has played, less the time
	// its turns waited for the endpoint (the episode.timeout cap).
	Active time.Duration `json:"active,omitempty"`
	// Waiting: the current turn waits for the endpoint (the job was told).
	Waiting bool `json:"waiting,omitempty"`
	// TurnFaults and TurnFault are the current turn's failed Generate
	// attempts before it paused for the endpoint, and the last one's class:
	// handed to the next schedule so the accepted turn's failed_attempts and
	// last_fault columns count them.
	TurnFaults int    `json:"turn_faults,omitempty"`
	TurnFault  string `json:"turn_fault,omitempty"`
	// Policy is the live policy version of an online episode (nil
	// offline); Versions the distinct versions of its accepted turns;
	// Restarts how often it started over because the version changed
	// under it (online.partial_rollouts: false). See episode_online.go.
	Policy   *schema.PolicyStep  `json:"policy,omitempty"`
	Versions []schema.PolicyStep `json:"versions,omitempty"`
	Restarts int                 `json:"restarts,omitempty"`
}

// hostQueueWait is how long a tool call waits on the host queue of the
// worker holding the episode's tool session before going to any tool worker
// (a fresh session): the time to notice that worker is gone.
const hostQueueWait = 10 * time.Second

// Versions of the episode workflow (change id "episode").
const (
	// episodeDurable: a turn whose endpoint is away waits for it (probing)
	// and retries instead of failing; the wall-clock cap is enforced here,
	// excluding that wait; a permanent failure is an outcome carrying the
	// turns played and the attempts run; turn-sized heartbeat timeouts.
	episodeDurable = 2
	// episodePlay: an offline episode's endpoint turns run inside PlayTurns
	// activities, many turns each, instead of a Generate activity and an
	// Act local activity per turn (online episodes keep those: a weight
	// version can change at any turn).
	episodePlay = 3
)

// playSlice bounds one PlayTurns run: the workflow checks the episode's cap
// and its history between runs.
const playSlice = 5 * time.Minute

// Waiting for the endpoint: the first probe after probeFirst, doubling up
// to probeMax between probes.
const (
	probeFirst = 2 * time.Second
	probeMax   = time.Minute
)

// Re-scheduling Generate after a wait: each schedule numbers its attempts
// generateStride apart (Generate retries at most generateAttempts times),
// up to generateSchedules apart; later schedules reuse the last range, and
// the tag in a ref tells their records apart.
const (
	generateAttempts  = 20
	generateStride    = 20
	generateSchedules = 24
)

// EpisodeWorkflow plays one episode against an inference endpoint, a turn at
// a time: Generate (an activity, one inference call) then Act (a local
// activity stepping the env). Its history holds refs and counters only;
// transcripts and token arrays live in the turn log.
func EpisodeWorkflow(ctx workflow.Context, in EpisodeInput) (activities.EpisodeOutcome, error) {
	v := workflow.GetVersion(ctx, "episode", workflow.DefaultVersion, episodePlay)
	e := newEpisodeRun(ctx, v, in)
	var out activities.EpisodeOutcome
	var err error
	if v >= episodePlay && in.State.Policy == nil && !in.Episode.Spec.PerTurn() {
		out, err = e.playEpisode()
	} else {
		out, err = e.play()
	}
	var can *workflow.ContinueAsNewError
	if v < episodeDurable || err == nil || errors.As(err, &can) || ctx.Err() != nil {
		return out, err
	}
	return e.failed(out, err)
}

// episodeRun is one run of an episode workflow.
type episodeRun struct {
	ctx  workflow.Context
	v    workflow.Version
	in   EpisodeInput
	st   EpisodeState
	base int
	gctx workflow.Context // Generate
	actx workflow.Context // Act
	// clock is when the episode's active time was last counted.
	clock time.Time
	// sent is the policy version of the last Generate scheduled (online).
	sent *schema.PolicyStep
}

func newEpisodeRun(ctx workflow.Context, v workflow.Version, in EpisodeInput) *episodeRun {
	spec := in.Episode.Spec
	timeout := time.Duration(spec.Policy.OpenAI.RequestTimeout)
	gopts := workflow.ActivityOptions{
		StartToCloseTimeout: 4 * timeout,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			MaximumAttempts:        generateAttempts,
			NonRetryableErrorTypes: []string{activities.ErrTypeInference, activities.ErrTypeInvalidSpec, activities.ErrTypeEnvVersion},
		},
	}
	if v >= episodeDurable {
		// Generate heartbeats every quarter of this timeout while a
		// request lasts: a dead worker's turn resumes
		// elsewhere within the heartbeat timeout.
		gopts.HeartbeatTimeout = spec.Episode.Heartbeat()
		gopts.RetryPolicy.NonRetryableErrorTypes = append(gopts.RetryPolicy.NonRetryableErrorTypes,
			activities.ErrTypeBadAnswer, activities.ErrTypeEndpointDown)
	}
	e := &episodeRun{ctx: ctx, v: v, in: in, st: in.State, clock: workflow.Now(ctx)}
	e.gctx = workflow.WithActivityOptions(ctx, gopts)
	e.actx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: actTimeout(v, in.Episode.Env),
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 10},
	})
	// Record keys must never repeat: a retried run (or a continued one)
	// numbers its attempts above every earlier run's.
	e.setBase()
	return e
}

// setBase numbers this run's record attempts above every earlier run's,
// retry and regeneration.
func (e *episodeRun) setBase() {
	e.base = e.in.Regen*regenStride + (int(workflow.GetInfo(e.ctx).Attempt)-1)*100000 + e.st.Runs*1000
}

// actTimeout bounds Act: a minute, or from episodeDurable on the env's own
// step bound and a minute more (code grading runs up to max_tests programs),
// so a slow step is never cut off and retried while it still runs.
func actTimeout(v workflow.Version, plan activities.EnvPlan) time.Duration {
	if v < episodeDurable {
		return time.Minute
	}
	return time.Duration(plan.StepBound) + time.Minute
}

// play runs turns until the episode ends, fails, or continues as new.
func (e *episodeRun) play() (activities.EpisodeOutcome, error) {
	ctx, st := e.ctx, &e.st
	out := activities.EpisodeOutcome{Slot: e.in.Episode.Slot}
	for n := 0; ; n++ {
		if n == turnsPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return out, e.continueAsNew()
		}
		if err := e.checkCap(); err != nil {
			return out, err
		}
		gen, err := e.generate()
		if err != nil {
			return out, err
		}
		if restart, err := e.onVersion(); restart || err != nil {
			if err != nil {
				return out, err
			}
			continue
		}
		st.PromptTokens += int64(gen.PromptTokens)
		st.ResponseTokens += int64(gen.ResponseTokens)
		if gen.ContextExceeded {
			out.StopReason = schema.StopContext
			break
		}
		act, err := e.act(gen)
		if err != nil {
			return out, err
		}
		if e.accept(act, &out) {
			break
		}
	}
	return e.finish(out)
}

// accept folds an accepted turn into the state and reports whether it
// ended the episode (then out says how).
func (e *episodeRun) accept(act activities.ActResult, out *activities.EpisodeOutcome) bool {
	ref := act.Ref
	e.st.Head = &ref
	e.st.Turn++
	e.st.TotalReward += act.Reward
	if act.Done {
		out.Success, out.StopReason = act.Success, act.StopReason
	}
	return act.Done
}

// finish closes the episode's tool sessions and fills in its outcome.
func (e *episodeRun) finish(out activities.EpisodeOutcome) (activities.EpisodeOutcome, error) {
	ctx, st := e.ctx, &e.st
	if st.ToolQueue != "" {
		closeTools(ctx, st.ToolQueue, e.in.Episode.ID())
	}
	if st.Head == nil {
		// The very first prompt did not fit: nothing to write, the episode fails.
		return out, temporal.NewNonRetryableApplicationError("the first prompt exceeds the model's context", "ContextLength", nil)
	}
	out.Source, out.Turns, out.TotalReward = *st.Head, st.Turn, st.TotalReward
	out.PromptTokens, out.ResponseTokens = st.PromptTokens, st.ResponseTokens
	out.Policy = st.Versions
	e.livePolicy() // drain: versions announced after the last turn
	return out, nil
}

// playEpisode runs the episode in PlayTurns activities (episodePlay), each
// playing turns until the episode ends, a tool is called (the workflow
// runs ToolCall, as per turn) or its slice runs out.
func (e *episodeRun) playEpisode() (activities.EpisodeOutcome, error) {
	ctx, st := e.ctx, &e.st
	out := activities.EpisodeOutcome{Slot: e.in.Episode.Slot}
	for n := 0; ; n++ {
		if n == turnsPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return out, e.continueAsNew()
		}
		if err := e.checkCap(); err != nil {
			return out, err
		}
		res, base, err := e.playTurns()
		if err != nil {
			return out, err
		}
		if res.ContextExceeded {
			out.StopReason = schema.StopContext
			break
		}
		if res.Done {
			out.Success, out.StopReason = res.Success, res.StopReason
			break
		}
		if res.Tool == "" {
			continue // the slice ran out
		}
		tin := activities.ToolCallInput{Episode: e.in.Episode, Turn: st.Turn, Head: st.Head, Gen: res.Gen,
			AttemptBase: base, Uses: res.ToolUses, Successes: res.ToolSuccesses}
		act, err := callTool(ctx, e.v, st, tin)
		if err != nil {
			return out, err
		}
		st.ToolQueue = act.HostQueue
		if e.accept(act, &out) {
			break
		}
	}
	return e.finish(out)
}

// playTurns runs PlayTurns from the episode's head and folds the turns it
// played into the state, also when it fails. An endpoint that is away
// makes the episode wait for it (as generate does) and go on where the
// run stopped. It returns the attempt base the run's records used.
func (e *episodeRun) playTurns() (activities.PlayResult, int, error) {
	st := &e.st
	spec := e.in.Episode.Spec
	base := e.base
	for schedule := 1; ; schedule++ {
		slice := min(playSlice, time.Duration(spec.Episode.Timeout)-st.Active)
		in := activities.PlayInput{Episode: e.in.Episode, Turn: st.Turn, Head: st.Head, AttemptBase: base,
			PriorFaults: st.TurnFaults, PriorFault: st.TurnFault, Slice: slice}
		// Generate's heartbeat timeout and retry policy, and time for the
		// slice's turns plus the last one.
		opts := workflow.GetActivityOptions(e.gctx)
		opts.StartToCloseTimeout = slice + 4*time.Duration(spec.Policy.OpenAI.RequestTimeout) + actTimeout(e.v, e.in.Episode.Env)
		pctx := workflow.WithActivityOptions(e.ctx, opts)
		var res activities.PlayResult
		err := workflow.ExecuteActivity(pctx, activities.PlayTurnsName, in).Get(e.ctx, &res)
		var f activities.PlayFailure
		var ae *temporal.ApplicationError
		switch {
		case err == nil:
			e.advance(res.PlayProgress)
		case errors.As(err, &ae) && ae.HasDetails() && ae.Details(&f) == nil:
			e.advance(f.Progress)
		}
		if !hasType(err, activities.ErrTypeEndpointDown) {
			e.endpointAnswered()
			return res, base, err
		}
		st.TurnFaults, st.TurnFault = f.Turn.FailedAttempts, f.Turn.LastFault
		if err := e.waitForEndpoint(err); err != nil {
			return res, base, err
		}
		base = e.base + generateStride*min(schedule, generateSchedules)
	}
}

// advance folds the turns a PlayTurns run played into the state.
func (e *episodeRun) advance(p activities.PlayProgress) {
	st := &e.st
	st.Turn, st.Head = p.Turn, p.Head
	st.TotalReward += p.Reward
	st.PromptTokens += p.PromptTokens
	st.ResponseTokens += p.ResponseTokens
}

func (e *episodeRun) continueAsNew() error {
	e.countActive()
	e.st.Runs++
	return workflow.NewContinueAsNewError(e.ctx, EpisodeWorkflowName, EpisodeInput{Episode: e.in.Episode, State: e.st})
}

// act applies a generation: Act, then the tool call it names, if any.
func (e *episodeRun) act(gen activities.GenerateResult) (activities.ActResult, error) {
	st := &e.st
	var act activities.ActResult
	if err := workflow.ExecuteLocalActivity(e.actx, activities.ActName, activities.ActInput{
		Episode: e.in.Episode, Turn: st.Turn, Head: st.Head, Gen: gen.Ref, AttemptBase: e.base,
	}).Get(e.ctx, &act); err != nil {
		return act, err
	}
	if act.Tool == "" {
		return act, nil
	}
	tin := activities.ToolCallInput{Episode: e.in.Episode, Turn: st.Turn, Head: st.Head, Gen: gen.Ref,
		AttemptBase: e.base, Uses: act.ToolUses, Successes: act.ToolSuccesses}
	act, err := callTool(e.ctx, e.v, st, tin)
	if err != nil {
		return act, err
	}
	st.ToolQueue = act.HostQueue
	return act, nil
}

// generate runs the turn's Generate. Scheduled by the workflow task that
// ran the last Act, it is dispatched eagerly to that same worker, whose
// session is warm; when it has no free slot any worker rebuilds the
// session. From episodeDurable on, an endpoint that is away makes the turn
// wait for it and try again, however long that takes.
func (e *episodeRun) generate() (activities.GenerateResult, error) {
	in := activities.GenerateInput{Episode: e.in.Episode, Turn: e.st.Turn, Head: e.st.Head, AttemptBase: e.base}
	for schedule := 1; ; schedule++ {
		in.PriorFaults, in.PriorFault = e.st.TurnFaults, e.st.TurnFault
		in.Policy = e.livePolicy()
		var gen activities.GenerateResult
		err := workflow.ExecuteActivity(e.gctx, activities.GenerateName, in).Get(e.ctx, &gen)
		if e.v < episodeDurable {
			return gen, err
		}
		if !hasType(err, activities.ErrTypeEndpointDown) {
			e.endpointAnswered()
			return gen, err
		}
		var f activities.GenerateFailure
		var ae *temporal.ApplicationError
		if errors.As(err, &ae) && ae.HasDetails() && ae.Details(&f) == nil {
			e.st.TurnFaults, e.st.TurnFault = f.FailedAttempts, f.LastFault
		}
		if err := e.waitForEndpoint(err); err != nil {
			return gen, err
		}
		in.AttemptBase = e.base + generateStride*min(schedule, generateSchedules)
	}
}

// endpointAnswered clears the turn's fault count and, when the episode was
// waiting for the endpoint, tells the job it goes on.
func (e *episodeRun) endpointAnswered() {
	e.st.TurnFaults, e.st.TurnFault = 0, ""
	if e.st.Waiting {
		e.st.Waiting = false
		e.signalJob(false, "")
	}
}

// waitForEndpoint tells the job the turn waits, then probes the endpoint
// with a growing pause until it answers. The wait does not count toward the
// episode's wall-clock cap. A long wait continues as new at the same turn.
func (e *episodeRun) waitForEndpoint(cause error) error {
	ctx := e.ctx
	e.countActive()
	if !e.st.Waiting {
		e.st.Waiting = true
		e.signalJob(true, cause.Error())
	}
	pctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2*time.Duration(e.in.Episode.Spec.Policy.OpenAI.RequestTimeout) + time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	for delay := probeFirst; ; delay = min(2*delay, probeMax) {
		if workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			e.clock = workflow.Now(ctx)
			return e.continueAsNew()
		}
		if err := workflow.Sleep(ctx, delay); err != nil {
			return err
		}
		var r activities.ProbeResult
		err := workflow.ExecuteActivity(pctx, activities.ProbeEndpointName, e.probeSpec()).Get(ctx, &r)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == nil && r.Up {
			e.clock = workflow.Now(ctx)
			return nil
		}
	}
}

// signalJob tells the job this episode's turn waits for the endpoint, or
// goes on. A job that is gone has nobody to tell.
func (e *episodeRun) signalJob(down bool, reason string) {
	s := EndpointSignal{Episode: e.in.Episode.ID(), Down: down, At: workflow.Now(e.ctx), Reason: reason}
	_ = workflow.SignalExternalWorkflow(e.ctx, e.in.Episode.Spec.Job, "", SignalEndpoint, s).Get(e.ctx, nil)
}

// countActive adds the time since the clock was last read to the
// episode's active time.
func (e *episodeRun) countActive() {
	now := workflow.Now(e.ctx)
	e.st.Active += now.Sub(e.clock)
	e.clock = now
}

// checkCap fails the episode once its active time (wall clock, less the
// time its turns waited for the endpoint) reaches episode.timeout. It is
// checked between turns; a turn itself is bounded by its activities'
// timeouts.
func (e *episodeRun) checkCap() error {
	if e.v < episodeDurable {
		return nil // the batch set the cap as the run's execution timeout
	}
	e.countActive()
	if limit := time.Duration(e.in.Episode.Spec.Episode.Timeout); e.st.Active >= limit {
		msg := fmt.Sprintf("episode %s played %v of its %v cap (episode.timeout) in %d turns", e.in.Episode.ID(), e.st.Active.Round(time.Second), limit, e.st.Turn)
		return temporal.NewNonRetryableApplicationError(msg, ClassEpisodeTimeout, nil)
	}
	return nil
}

// failed turns a run's error into the episode's failure record when no
// retry will follow (the error is non-retryable, or this was the last
// attempt), with the turns it played and the attempts it ran; otherwise the
// error goes back to Temporal, which retries the run.
func (e *episodeRun) failed(out activities.EpisodeOutcome, err error) (activities.EpisodeOutcome, error) {
	attempt := int(workflow.GetInfo(e.ctx).Attempt)
	var ae *temporal.ApplicationError
	nonRetryable := errors.As(err, &ae) && ae.NonRetryable()
	if !nonRetryable && attempt < e.in.Episode.Spec.Episode.MaxAttempts {
		// Retried by Temporal; should no retry come (the run is cancelled
		// or the retry policy says otherwise), the batch still learns the
		// turns played and the attempts run from the details.
		return out, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("attempt %d failed at turn %d", attempt, e.st.Turn), errorClass(err),
			temporal.ApplicationErrorOptions{Cause: err, Details: []any{attemptDetails{Turns: e.st.Turn, Attempts: attempt}}})
	}
	out.Turns = e.st.Turn
	out.Failure = &activities.EpisodeFailure{ErrorClass: errorClass(err), Message: err.Error(), Attempts: attempt}
	return out, nil
}

// attemptDetails ride on the error of a failed episode run.
type attemptDetails struct {
	Turns    int `json:"turns"`
	Attempts int `json:"attempts"`
}

// hasType reports whether err carries an ApplicationError of type t.
func hasType(err error, t string) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.Type() == t
}

// callTool runs a tool call on the worker holding the episode's tool session
// (its host queue) or, for the first call or when that worker is gone, on
// the tool queue, where any tool worker opens a fresh session.
func callTool(ctx workflow.Context, v workflow.Version, st *EpisodeState, in activities.ToolCallInput) (activities.ActResult, error) {
	heartbeat := 30 * time.Second
	if v >= episodeDurable {
		// ToolCall heartbeats every 2 s: a dead tool worker's call
		// resumes elsewhere within the job's heartbeat timeout.
		heartbeat = in.Episode.Spec.Episode.Heartbeat()
	}
	tctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    heartbeat,
		RetryPolicy: &temporal.RetryPolicy{
			MaximumAttempts:        5,
			NonRetryableErrorTypes: []string{activities.ErrTypeInvalidSpec, "ToolMismatch"},
		},
	})
	var res activities.ActResult
	if st.ToolQueue != "" {
		hctx := workflow.WithScheduleToStartTimeout(workflow.WithTaskQueue(tctx, st.ToolQueue), hostQueueWait)
		err := workflow.ExecuteActivity(hctx, activities.ToolCallName, in).Get(ctx, &res)
		var te *temporal.TimeoutError
		if err == nil || !errors.As(err, &te) || te.TimeoutType() != enums.TIMEOUT_TYPE_SCHEDULE_TO_START {
			return res, err
		}
		// The worker holding the session is gone; its attempts are numbered
		// apart from this schedule's.
		in.AttemptBase += 500
	}
	queue := ToolQueue(workflow.GetInfo(ctx).TaskQueueName)
	err := workflow.ExecuteActivity(workflow.WithTaskQueue(tctx, queue), activities.ToolCallName, in).Get(ctx, &res)
	return res, err
}

// closeTools asks the worker holding the episode's tool sessions to close
// them; if it is gone, its sessions died with it (or its sweeper closes them).
func closeTools(ctx workflow.Context, queue, episodeID string) {
	cctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              queue,
		ScheduleToStartTimeout: hostQueueWait,
		StartToCloseTimeout:    time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	_ = workflow.ExecuteActivity(cctx, activities.CloseToolsName, episodeID).Get(ctx, nil)
}
