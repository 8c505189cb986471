package activities

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/toolset"
)

// Activity names of the per-turn path (endpoint policies).
const (
	GenerateName = "quarry.Generate"
	ActName      = "quarry.Act"
)

// Error types of the per-turn path.
const (
	ErrTypeInference = "InferenceRejected" // auth, bad request: retrying cannot help
	// ErrTypeBadAnswer: the endpoint's answer failed validation (missing token
	// ids that were asked for, logprobs that do not match the tokens, invalid
	// JSON, no choices) on every bounded try; the episode fails with this class.
	ErrTypeBadAnswer = "BadAnswer"
	// ErrTypeEndpointDown: the model is not served any more (404, e.g. a
	// trainer reloading weights under a new name) or the endpoint cannot be
	// reached; the job pauses new turns until it answers again instead of
	// burning episodes.
	ErrTypeEndpointDown = "EndpointUnavailable"
)

// EpisodeRef names one episode of a job and what is needed to play it.
type EpisodeRef struct {
	Spec schema.JobSpec `json:"spec"`
	Env  EnvPlan        `json:"env"`
	Slot schema.Slot    `json:"slot"`
}

// ID is the episode's id (its workflow id and episode_id column).
func (e EpisodeRef) ID() string { return schema.EpisodeID(e.Spec.Job, e.Slot.Batch, e.Slot.Episode) }

// GenerateInput asks for the action of turn Turn.
type GenerateInput struct {
	Episode EpisodeRef      `json:"episode"`
	Turn    int             `json:"turn"`
	Head    *schema.TurnRef `json:"head,omitempty"` // the previous turn's accepted act record
	// AttemptBase offsets the activity's attempt so record keys never repeat
	// across workflow runs and re-schedules.
	AttemptBase int `json:"attempt_base"`
	// PriorFaults counts this turn's failed attempts in earlier schedules
	// of Generate (say, before the job paused for an endpoint that was
	// down; GenerateFailure.FailedAttempts of the last one), and PriorFault
	// is the last one's class. Both are added to the failed_attempts and
	// last_fault columns of the accepted turn.
	PriorFaults int    `json:"prior_faults,omitempty"`
	PriorFault  string `json:"prior_fault,omitempty"`
	// Policy is the policy version live when the workflow sent this turn
	// (online jobs): recorded as the turn's policy_version, its Model (when
	// set) asked for instead of policy.openai.model. With it, the endpoint
	// being away (a weight swap) is not counted as a failed attempt.
	Policy *schema.PolicyStep `json:"policy,omitempty"`
}

// GenerateFailure is the detail of a Generate error of type
// ErrTypeBadAnswer or ErrTypeEndpointDown: how many attempts this turn has
// failed so far (PriorFaults included) and the last one's class.
type GenerateFailure struct {
	FailedAttempts int    `json:"failed_attempts"`
	LastFault      string `json:"last_fault,omitempty"`
}

// FaultActivityRetry is the last_fault class of a turn whose previous
// Generate run ended without a result (a worker lost mid-request, a store
// error after the answer) and whose accepted run had no fault of its own.
const FaultActivityRetry = "ActivityRetry"

// generateProgress is Generate's heartbeat detail: the request faults of
// this turn's runs so far, so a retried run counts them.
type generateProgress struct {
	Attempt    int    `json:"attempt"`     // the inference attempt in flight
	PoolFaults int    `json:"pool_faults"` // failed requests over this schedule's runs
	LastFault  string `json:"last_fault,omitempty"`
}

// faults tracks one Generate run's count of failed attempts.
type faults struct {
	base     generateProgress // what earlier runs of this schedule recorded
	runs     int              // earlier runs of this schedule (Temporal's attempt - 1)
	prior    int              // in.PriorFaults
	priorCls string
	// swaps: the endpoint being away is a weight swap, not a fault (online
	// jobs): ModelNotFound, Unreachable and 503s are not counted.
	swaps bool
}

// priorFaults reads what the earlier runs of this schedule recorded.
func priorFaults(ctx context.Context, in GenerateInput) faults {
	f := faults{prior: in.PriorFaults, priorCls: in.PriorFault}
	if !activity.IsActivity(ctx) {
		return f
	}
	info := activity.GetInfo(ctx)
	f.runs = int(info.Attempt) - 1
	if activity.HasHeartbeatDetails(ctx) {
		_ = activity.GetHeartbeatDetails(ctx, &f.base) // unreadable details count as none
	}
	return f
}

// isSwapFault reports whether a request fault is what a weight swap looks
// like from outside: the model gone, the server refusing or not listening.
func isSwapFault(class string) bool {
	return class == inference.FaultModelNotFound || class == inference.FaultUnreachable || class == inference.FaultServerError
}

// progress is the heartbeat detail once this run has seen run's faults.
func (f faults) progress(attempt int, run []string) generateProgress {
	if f.swaps {
		run = slices.DeleteFunc(slices.Clone(run), isSwapFault)
	}
	p := generateProgress{Attempt: attempt, PoolFaults: f.base.PoolFaults + len(run), LastFault: f.base.LastFault}
	if len(run) > 0 {
		p.LastFault = run[len(run)-1]
	}
	return p
}

// total is the turn's failed attempts and the last one's class, given this
// run's request faults.
func (f faults) total(run []string) (int, string) {
	if f.swaps {
		run = slices.DeleteFunc(slices.Clone(run), isSwapFault)
	}
	n := f.prior + f.runs + f.base.PoolFaults + len(run)
	switch {
	case len(run) > 0:
		return n, run[len(run)-1]
	case f.runs > 0:
		return n, FaultActivityRetry
	case f.base.PoolFaults > 0 && f.base.LastFault != "":
		return n, f.base.LastFault
	case n > 0:
		return n, f.priorCls
	}
	return 0, ""
}

// GenerateResult is the small result the workflow keeps.
type GenerateResult struct {
	Ref schema.TurnRef `json:"ref"`
	// ContextExceeded: the prompt no longer fits the model's context; the
	// episode ends (stop reason "context") and no record was written.
	ContextExceeded bool `json:"context_exceeded,omitempty"`
	PromptTokens    int  `json:"prompt_tokens,omitempty"`
	ResponseTokens  int  `json:"response_tokens,omitempty"`
}

// ActInput applies an accepted generation.
type ActInput struct {
	Episode     EpisodeRef      `json:"episode"`
	Turn        int             `json:"turn"`
	Head        *schema.TurnRef `json:"head,omitempty"`
	Gen         schema.TurnRef  `json:"gen"`
	AttemptBase int             `json:"attempt_base"`
}

// ActResult is the turn's consequence.
type ActResult struct {
	Ref        schema.TurnRef `json:"ref"`
	Reward     float64        `json:"reward"`
	Done       bool           `json:"done,omitempty"`
	Success    bool           `json:"success,omitempty"`
	StopReason string         `json:"stop_reason,omitempty"`
	// HostQueue is the queue of the worker that now holds the episode's
	// tool session (ToolCall).
	HostQueue string `json:"host_queue,omitempty"`
	// Tool, from Act, names the tool the action calls: nothing was written,
	// the workflow runs ToolCall next. ToolUses and ToolSuccesses are the
	// episode's tool turns before this one.
	Tool          string `json:"tool,omitempty"`
	ToolUses      int    `json:"tool_uses,omitempty"`
	ToolSuccesses int    `json:"tool_successes,omitempty"`
}

// turnState is a worker's per-episode memory and its inference pools.
type turnState struct {
	sessions *lru.Cache[string, *rollout.Session]
	mu       sync.Mutex
	pools    map[string]*inference.Pool
	// shapes is each pool's chat template as token-in/token-out sees it.
	shapes  map[*inference.Pool]chatShape
	replays atomic.Int64
	tools   *toolset.Host
	// poolOptions are added to every pool's options (tests shorten the
	// backoff with them).
	poolOptions []inference.Option
}

// SessionReplays counts the sessions this worker rebuilt by reading an
// episode's turn log (a cache miss after the first turn).
func (a *Activities) SessionReplays() int64 { return a.turns().replays.Load() }

func (a *Activities) turns() *turnState {
	a.turnsOnce.Do(func() {
		c, _ := lru.New[string, *rollout.Session](4096)
		a.turnState = &turnState{sessions: c, pools: map[string]*inference.Pool{}}
	})
	return a.turnState
}

// pool returns the inference pool of a spec's policy, one per policy.
func (a *Activities) pool(spec schema.JobSpec) (*inference.Pool, error) {
	ts := a.turns()
	// One pool per policy, whatever else differs between specs (in-flight
	// limits change by signal mid-job; the pool's affinity must not reset).
	b, err := json.Marshal(spec.Policy.OpenAI)
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	key := string(b)
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if p, ok := ts.pools[key]; ok {
		return p, nil
	}
	p, err := inference.NewPool(*spec.Policy.OpenAI, append([]inference.Option{inference.WithLogger(a.logger())}, ts.poolOptions...)...)
	if err != nil {
		return nil, err
	}
	ts.pools[key] = p
	return p, nil
}

// session returns the episode's in-memory state at turn, rebuilding it from
// the turn log when this worker does not hold it (or holds another turn).
func (a *Activities) session(ctx context.Context, ep EpisodeRef, head *schema.TurnRef, turn int) (*rollout.Session, error) {
	ts := a.turns()
	if s, ok := ts.sessions.Get(ep.ID()); ok {
		if s.Turn == turn && sameRef(s.Head, head) {
			return s, nil
		}
		if s.Turn == turn-1 && head != nil {
			// A tool worker played the last turn: fold its record in.
			if err := a.catchUp(ctx, ep, s, *head); err == nil {
				return s, nil
			}
			ts.sessions.Remove(ep.ID())
		}
	}
	env, err := a.makeEnv(ep.Env)
	if err != nil {
		return nil, err
	}
	if t := ep.Spec.Tools; t != nil {
		set, err := a.toolHost().Set(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("tools of %s: %w", ep.ID(), err)
		}
		if env, err = set.Wrap(env); err != nil {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
		}
	}
	w, err := envs.ParseWrapper(ep.Spec.Wrapper)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	var opts []envs.EpisodeOption
	if w == envs.WrapConcatChatOnReset {
		pool, err := a.pool(ep.Spec)
		if err != nil {
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInference, err)
		}
		affinity := schema.GroupID(ep.Spec.Job, ep.Slot.Batch, ep.Slot.Group)
		tmpl, err := poolTokenizer{pool: pool, affinity: affinity, ts: ts}.ChatTemplate(ctx)
		if err != nil {
			return nil, fmt.Errorf("chat template for %s: %w", ep.ID(), err)
		}
		opts = append(opts, envs.WithChatTemplate(tmpl))
	}
	s, err := rollout.NewSession(env, ep.Env.Version, w, ep.Spec.MaxHistory, ep.Slot, ep.Env.Row(ep.Spec.Seed, ep.Slot.Task), opts...)
	if err != nil {
		return nil, fmt.Errorf("reset %s: %w", ep.ID(), err)
	}
	f, err := frameFor(ep.Spec.Policy.OpenAI)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	if f != nil {
		s.UseFrame(f)
	}
	if head != nil {
		st, err := a.Stores.Open(ctx, ep.Spec.Output)
		if err != nil {
			return nil, err
		}
		turns, err := turnlog.ReadEpisode(ctx, st, *head)
		if err != nil {
			return nil, fmt.Errorf("rebuild %s: %w", ep.ID(), err)
		}
		ts.replays.Add(1)
		if err := s.Replay(turns); err != nil {
			if errors.Is(err, rollout.ErrDiverged) {
				return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeEnvVersion, err)
			}
			return nil, err
		}
	}
	if s.Turn != turn {
		return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: turn log holds %d turns, the workflow is at turn %d", ep.ID(), s.Turn, turn), "TurnLogMismatch", nil)
	}
	ts.sessions.Add(ep.ID(), s)
	return s, nil
}

// catchUp applies the tool turn head names to a session one turn behind,
// when head follows the session's own head.
func (a *Activities) catchUp(ctx context.Context, ep EpisodeRef, s *rollout.Session, head schema.TurnRef) error {
	st, err := a.Stores.Open(ctx, ep.Spec.Output)
	if err != nil {
		return err
	}
	act, err := turnlog.ReadRecord(ctx, st, head)
	if err != nil {
		return err
	}
	if act.ToolName == nil || act.Gen == nil || !sameRef(act.Prev, s.Head) {
		return errors.New("not a tool turn after the session's head")
	}
	gen, err := turnlog.ReadRecord(ctx, st, *act.Gen)
	if err != nil {
		return err
	}
	return s.ApplyTool(gen, act)
}

func sameRef(a, b *schema.TurnRef) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func tag(ctx context.Context) (string, int) {
	info := activity.GetInfo(ctx)
	return fmt.Sprintf("%s/%s/%s/%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID, info.Attempt), int(info.Attempt)
}

// generateHeartbeat is Generate's heartbeat interval: a quarter of its
// heartbeat timeout (2.5 s of the default 10 s), so a turn whose
// generation is shorter records no heartbeat — a Temporal action per turn
// saved — while a lost worker's turn still resumes within the timeout.
// Outside an activity (or without a timeout): the pool's interval.
func generateHeartbeat(ctx context.Context) time.Duration {
	if !activity.IsActivity(ctx) {
		return 0
	}
	return activity.GetInfo(ctx).HeartbeatTimeout / 4
}

// Generate asks the policy endpoint for turn's action and writes the
// generate record before returning its ref. It records no heartbeat of its
// own at the start: the earlier runs' details stay until the pool's first
// beat replaces them, and the heartbeat timeout counts from the start.
func (a *Activities) Generate(ctx context.Context, in GenerateInput) (_ GenerateResult, err error) {
	spec := in.Episode.Spec
	defer func() { a.activityFault(ctx, spec.Job, in.Episode.Env.ID, err) }()
	fs := priorFaults(ctx, in)
	s, err := a.session(ctx, in.Episode, in.Head, in.Turn)
	if err != nil {
		return GenerateResult{}, err
	}
	pool, err := a.pool(spec)
	if err != nil {
		return GenerateResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInference, err)
	}
	_, res, err := a.generate(ctx, in, s, pool, fs, func(p generateProgress) { activity.RecordHeartbeat(ctx, p) }, false)
	return res, err
}

// generate asks the endpoint for the session's next action and writes the
// generate record (unless inline: then the act record will carry it); it
// returns the record and the result the workflow keeps. beat records the
// request's progress (its faults so far) as the activity's heartbeat.
func (a *Activities) generate(ctx context.Context, in GenerateInput, s *rollout.Session, pool *inference.Pool, fs faults, beat func(generateProgress), inline bool) (schema.TurnRecord, GenerateResult, error) {
	spec := in.Episode.Spec
	job, env := spec.Job, in.Episode.Env.ID
	delta, segment, err := s.Peek()
	if err != nil {
		return schema.TurnRecord{}, GenerateResult{}, err
	}
	req, err := a.request(ctx, in, s)
	if err != nil {
		return schema.TurnRecord{}, GenerateResult{}, err
	}
	if spec.Policy.OpenAI.Tokens == schema.TokensExact {
		tk := poolTokenizer{pool: pool, affinity: req.Affinity, ts: a.turns()}
		ids, err := s.ExactPrompt(ctx, tk, spec.Policy.OpenAI.API != schema.APICompletions)
		if _, ok := errors.AsType[*inference.Error](err); err != nil && !ok {
			// A template token-in/token-out cannot extend: no retry helps.
			return schema.TurnRecord{}, GenerateResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInference, err)
		}
		if err != nil {
			a.requestFaults(job, env, runFaults(err))
			res, err := generateError(err, fs)
			return schema.TurnRecord{}, res, err
		}
		req.Messages, req.Prompt, req.PromptIDs = nil, "", ids
	}
	if in.Policy != nil {
		req.Model = in.Policy.Model
		fs.swaps = true
	}
	req.Heartbeat = func(p inference.Progress) { beat(fs.progress(p.Attempt, p.Faults)) }
	req.HeartbeatEvery = generateHeartbeat(ctx)
	res, err := pool.Generate(ctx, req)
	if err != nil {
		a.requestFaults(job, env, runFaults(err))
		gres, err := generateError(err, fs)
		return schema.TurnRecord{}, gres, err
	}
	a.requestFaults(job, env, res.Faults)
	a.metrics().Generated(job, env, res.Latency, res.PromptTokens, res.CompletionTokens)
	if len(res.ToolCalls) > 0 {
		// The first call is the turn's (one tool per turn, as GEM), recorded
		// in the action as the model wrote it; the parser finds it there.
		tc := res.ToolCalls[0].Function
		res.Text = strings.TrimSpace(res.Text + "\n" + toolset.FunctionCall(tc.Name, tc.Arguments))
	}
	a.crash("generate:after-response")
	t, attempt := tag(ctx)
	rec := schema.TurnRecord{
		Phase: schema.PhaseGenerate, Tag: t + "/" + res.ResponseID, Job: spec.Job,
		Batch: in.Episode.Slot.Batch, Episode: in.Episode.Slot.Episode, Turn: in.Turn, Attempt: in.AttemptBase + attempt,
		Segment: segment, PromptDelta: delta, PromptLen: res.PromptTokens, Action: res.Text,
		PolicyModel: cmp.Or(req.Model, spec.Policy.OpenAI.Model), SamplingParams: res.SamplingParams, TokenSource: res.TokenSource(),
		ResponseTokenIDs: res.ResponseTokenIDs, ResponseLogprobs: res.Logprobs, ResponseLen: res.CompletionTokens,
		FinishReason: res.FinishReason, ResponseID: res.ResponseID, GenerationMs: float64(res.Latency.Microseconds()) / 1000,
	}
	if v := spec.Policy.OpenAI.PolicyVersion; v != "" {
		rec.PolicyVersion = &v
	}
	if in.Policy != nil {
		v := in.Policy.Version
		rec.PolicyVersion = &v
	}
	n, last := fs.total(res.Faults)
	rec.FailedAttempts = &n
	if last != "" {
		rec.LastFault = &last
	}
	if res.TokenSource() == schema.TokenSourceServed {
		rec.PromptTokenIDs, rec.Segment = s.PromptTokens(res.PromptTokenIDs)
		rec.PromptLen = len(res.PromptTokenIDs)
	} else {
		// Without token ids the token columns are null: logprobs that
		// match no tokens are not recorded.
		rec.ResponseLogprobs = nil
	}
	ref := rec.Ref()
	if !inline {
		st, err := a.Stores.Open(ctx, spec.Output)
		if err != nil {
			return schema.TurnRecord{}, GenerateResult{}, err
		}
		if ref, err = turnlog.PutRecord(ctx, st, &rec); err != nil {
			return schema.TurnRecord{}, GenerateResult{}, err
		}
	}
	// Inline, the record is kept for the act record: the point is the same
	// (the answer accepted, the act not yet recorded).
	a.crash("generate:after-record")
	return rec, GenerateResult{Ref: ref, PromptTokens: res.PromptTokens, ResponseTokens: res.CompletionTokens}, nil
}

// request is the chat completion of the session's next turn.
func (a *Activities) request(ctx context.Context, in GenerateInput, s *rollout.Session) (inference.Request, error) {
	spec := in.Episode.Spec
	prompt := s.Prompt()
	msgs := prompt.Chat()
	req := inference.Request{Affinity: schema.GroupID(spec.Job, in.Episode.Slot.Batch, in.Episode.Slot.Group)}
	t := spec.Tools
	if spec.Policy.OpenAI.API == schema.APICompletions {
		// The session's frame rendered the template: the prompt is text.
		req.Prompt = prompt.Text
		if t != nil {
			req.Sampling, req.ExtraBody = stopAtToolCalls(spec.Policy.OpenAI.Sampling, t)
		}
		return req, nil
	}
	if t != nil && t.Calling == schema.CallingNative {
		native, err := a.toolHost().Set(ctx, t)
		if err != nil {
			return req, fmt.Errorf("tools of %s: %w", in.Episode.ID(), err)
		}
		req.Messages = nativeMessages(msgs)
		for _, f := range native.Functions {
			req.Tools = append(req.Tools, inference.Function{Name: f.Name, Description: f.Description, Parameters: f.Parameters})
		}
		return req, nil
	}
	for _, m := range msgs {
		req.Messages = append(req.Messages, chatMessage(m))
	}
	if t != nil {
		req.Sampling, req.ExtraBody = stopAtToolCalls(spec.Policy.OpenAI.Sampling, t)
	}
	return req, nil
}

// generateError classifies a failed generation at the activity boundary.
func generateError(err error, fs faults) (GenerateResult, error) {
	run := runFaults(err)
	switch {
	case errors.Is(err, inference.ErrContextLength):
		return GenerateResult{ContextExceeded: true}, nil
	case errors.Is(err, inference.ErrBadAnswer):
		return GenerateResult{}, generateFailure(err, ErrTypeBadAnswer, fs, run)
	case errors.Is(err, inference.ErrModelNotFound), errors.Is(err, inference.ErrUnavailable):
		return GenerateResult{}, generateFailure(err, ErrTypeEndpointDown, fs, run)
	case errors.Is(err, inference.ErrAuth), errors.Is(err, inference.ErrBadRequest):
		return GenerateResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInference, err)
	}
	return GenerateResult{}, err
}

// runFaults is the request faults of a failed inference run.
func runFaults(err error) []string {
	if e, ok := errors.AsType[*inference.Error](err); ok {
		return e.Faults
	}
	return nil
}

// generateFailure is the non-retryable error of a turn that gave up, with
// the turn's fault count as its detail (GenerateFailure).
func generateFailure(err error, typ string, fs faults, run []string) error {
	n, last := fs.total(run)
	return temporal.NewNonRetryableApplicationError(err.Error(), typ, err, GenerateFailure{FailedAttempts: n, LastFault: last})
}

// Act steps the env with the accepted generation and writes the act record,
// linked to it and to the previous turn, before returning its ref.
func (a *Activities) Act(ctx context.Context, in ActInput) (_ ActResult, err error) {
	spec := in.Episode.Spec
	defer func() { a.activityFault(ctx, spec.Job, in.Episode.Env.ID, err) }()
	s, err := a.session(ctx, in.Episode, in.Head, in.Turn)
	if err != nil {
		return ActResult{}, err
	}
	st, err := a.Stores.Open(ctx, spec.Output)
	if err != nil {
		return ActResult{}, err
	}
	gen, err := turnlog.ReadRecord(ctx, st, in.Gen)
	if err != nil {
		return ActResult{}, err
	}
	if call, ok := s.ToolCall(gen.Action); ok {
		return toolTurn(call, s), nil
	}
	return a.act(ctx, in, s, gen, false)
}

// act steps the session with gen (no tool call) and writes the act record,
// with gen inside it when inline (generate wrote none).
func (a *Activities) act(ctx context.Context, in ActInput, s *rollout.Session, gen schema.TurnRecord, inline bool) (ActResult, error) {
	spec := in.Episode.Spec
	job, env := spec.Job, in.Episode.Env.ID
	start := time.Now()
	act, stop, err := s.Step(gen, spec.MaxTurns, func() float64 { return float64(time.Since(start).Microseconds()) / 1000 })
	if err == nil {
		a.metrics().Stepped(job, env, time.Since(start))
	}
	// The session moved on (or broke): whatever happens next, a retry must
	// rebuild it from the turn log rather than step it twice.
	a.turns().sessions.Remove(in.Episode.ID())
	if errors.Is(err, sandbox.ErrUnavailable) || errors.Is(err, sandbox.ErrNotStarted) {
		// Code grading could not run its sandbox: an infrastructure fault, retried.
		return ActResult{}, temporal.NewApplicationErrorWithCause(fmt.Sprintf("%s turn %d: %v", in.Episode.ID(), in.Turn, err), "SandboxUnavailable", err)
	}
	if err != nil {
		return ActResult{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s turn %d: %v", in.Episode.ID(), in.Turn, err), "EnvError", err)
	}
	st, err := a.Stores.Open(ctx, spec.Output)
	if err != nil {
		return ActResult{}, err
	}
	t, attempt := tag(ctx)
	act.Tag, act.Attempt = t, in.AttemptBase+attempt
	gref := in.Gen
	act.Gen, act.Prev = &gref, in.Head
	if inline {
		if act.GenInline, err = schema.MarshalTurnRecord(&gen); err != nil {
			return ActResult{}, err
		}
	}
	ref, err := turnlog.PutRecord(ctx, st, &act)
	if err != nil {
		return ActResult{}, err
	}
	a.metrics().Turns(job, env, 1)
	a.crash("act:after-record")
	s.Head = &ref
	a.turns().sessions.Add(in.Episode.ID(), s)
	return ActResult{Ref: ref, Reward: act.Reward, Done: stop != "", Success: act.Success, StopReason: stop}, nil
}

// closingTags end each tool's text call; generation stops there.
var closingTags = map[string]string{"python": "</python>", "search": "</search>", "mcp": "</tool_call>"}

// stopAtToolCalls makes generation stop at the end of a tool call, with the
// closing tag kept in the output (vLLM's include_stop_str_in_output), so the
// parsers see whole calls and the agent does not write past its call.
func stopAtToolCalls(base schema.Sampling, t *schema.ToolsSpec) (*schema.Sampling, map[string]any) {
	s := base
	s.Stop = slices.Clone(base.Stop)
	for _, name := range t.Names() {
		if tag := closingTags[name]; !slices.Contains(s.Stop, tag) {
			s.Stop = append(s.Stop, tag)
		}
	}
	return &s, map[string]any{"include_stop_str_in_output": true}
}

// nativeMessages renders a chat prompt for native tool calling: an assistant
// message holding a recorded call (a Hermes-style block, see
// toolset.FunctionCall) that a tool message answers becomes the text before
// the call plus a tool_calls entry, and the tool message carries its id. Ids
// are numbered from the conversation, so any worker renders the same prompt.
func nativeMessages(msgs []envs.Message) []inference.Message {
	out := make([]inference.Message, len(msgs))
	for i, m := range msgs {
		out[i] = chatMessage(m)
	}
	n := 0
	for i, m := range msgs {
		if m.Role != "assistant" || i+1 >= len(msgs) || msgs[i+1].Role != "tool" {
			continue
		}
		text, name, args, _, ok := toolset.SplitFunctionCall(m.Content)
		if !ok {
			continue
		}
		id := fmt.Sprintf("call_%d", n)
		n++
		out[i].Content = text
		out[i].ToolCalls = []inference.ToolCall{{ID: id, Type: "function", Function: inference.FunctionCall{Name: name, Arguments: args}}}
		out[i+1].ToolCallID = id
	}
	return out
}

// chatMessage is a message as the pool sends it: its parts, when it has
// any, as OpenAI content parts, each image a base64 data URL of its bytes.
func chatMessage(m envs.Message) inference.Message {
	out := inference.Message{Role: m.Role, Content: m.Content}
	for _, p := range m.Parts {
		switch {
		case p.Image != nil:
			out.Parts = append(out.Parts, inference.ContentPart{Type: inference.PartImage, ImageURL: p.Image.DataURL()})
		default:
			out.Parts = append(out.Parts, inference.ContentPart{Type: inference.PartText, Text: p.Text})
		}
	}
	return out
}
