package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// PlayTurnsName is the episode-level activity of endpoint policies: one
// activity plays many turns of an episode (see PlayTurns).
const PlayTurnsName = "quarry.PlayTurns"

// PlayInput asks for an episode's turns from Turn on, after Head.
type PlayInput struct {
	Episode EpisodeRef      `json:"episode"`
	Turn    int             `json:"turn"`
	Head    *schema.TurnRef `json:"head,omitempty"`
	// AttemptBase offsets the record attempts as GenerateInput's does.
	AttemptBase int `json:"attempt_base"`
	// PriorFaults and PriorFault count the first turn's failed attempts in
	// earlier schedules, as GenerateInput's do.
	PriorFaults int    `json:"prior_faults,omitempty"`
	PriorFault  string `json:"prior_fault,omitempty"`
	// Slice bounds the wall-clock time this run plays before it returns
	// with the episode unfinished (the workflow checks the episode's cap
	// and its history between runs); no new turn starts after it.
	Slice time.Duration `json:"slice"`
}

// PlayProgress is what a run of PlayTurns has played so far: its heartbeat
// detail, the detail of its typed errors, and part of its result.
type PlayProgress struct {
	Turn           int             `json:"turn"`
	Head           *schema.TurnRef `json:"head,omitempty"`
	Reward         float64         `json:"reward"` // the reward of the turns this run's input did not hold
	PromptTokens   int64           `json:"prompt_tokens,omitempty"`
	ResponseTokens int64           `json:"response_tokens,omitempty"`
	// Fault is the request faults of the turn in flight.
	Fault generateProgress `json:"fault"`
}

// PlayResult ends a run of PlayTurns: the episode ended (Done or
// ContextExceeded), its action calls a tool (Tool, with the generate
// record Gen: the workflow runs ToolCall, then another PlayTurns), the
// slice ran out, or the worker is shutting down.
type PlayResult struct {
	PlayProgress
	Done            bool           `json:"done,omitempty"`
	Success         bool           `json:"success,omitempty"`
	StopReason      string         `json:"stop_reason,omitempty"`
	ContextExceeded bool           `json:"context_exceeded,omitempty"`
	Tool            string         `json:"tool,omitempty"`
	Gen             schema.TurnRef `json:"gen"`
	ToolUses        int            `json:"tool_uses,omitempty"`
	ToolSuccesses   int            `json:"tool_successes,omitempty"`
}

// PlayFailure is the detail of PlayTurns' typed errors (ErrTypeBadAnswer,
// ErrTypeEndpointDown and the env's): the turns played before it, and the
// failing turn's fault count.
type PlayFailure struct {
	Progress PlayProgress    `json:"progress"`
	Turn     GenerateFailure `json:"turn"`
}

// PlayTurns plays an episode against the endpoint turn after turn inside
// one activity: each turn is written to the turn log before the next turn
// starts (one act record holding its generate record inline; a turn that
// calls a tool writes its generate record alone, for ToolCall), and the
// head is heartbeated (as often as the SDK's throttling sends it). A retried run resumes from the
// heartbeated head and then from the act records its earlier runs wrote
// after it, which their keys name: a lost worker costs only the generation
// in flight. Temporal sees one activity where the per-turn path has a
// Generate activity and an Act local activity per turn.
func (a *Activities) PlayTurns(ctx context.Context, in PlayInput) (_ PlayResult, err error) {
	spec := in.Episode.Spec
	defer func() { a.activityFault(ctx, spec.Job, in.Episode.Env.ID, err) }()
	st, err := a.Stores.Open(ctx, spec.Output)
	if err != nil {
		return PlayResult{}, err
	}
	p := PlayProgress{Turn: in.Turn, Head: in.Head}
	attempt := int(activity.GetInfo(ctx).Attempt)
	retried := attempt > 1
	if retried && activity.HasHeartbeatDetails(ctx) {
		var hb PlayProgress
		if activity.GetHeartbeatDetails(ctx, &hb) == nil && hb.Turn >= in.Turn {
			p = hb
		}
	}
	var res PlayResult
	if retried {
		if res, err = resume(ctx, st, in, p, attempt); err != nil || res.Done {
			return res, err
		}
		p = res.PlayProgress
	}
	s, err := a.session(ctx, in.Episode, p.Head, p.Turn)
	if err != nil {
		return PlayResult{}, err
	}
	pool, err := a.pool(spec)
	if err != nil {
		return PlayResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInference, err)
	}
	start := time.Now()
	stopping := activity.GetWorkerStopChannel(ctx)
	for first := true; ; first = false {
		if !first && time.Since(start) >= in.Slice {
			return PlayResult{PlayProgress: p}, nil
		}
		if !first && isClosed(stopping) {
			// The worker shuts down gracefully: hand the episode back at
			// this turn boundary; another worker plays on from the head.
			return PlayResult{PlayProgress: p}, nil
		}
		gin := GenerateInput{Episode: in.Episode, Turn: p.Turn, Head: p.Head, AttemptBase: in.AttemptBase}
		fs := playFaults(in, p, first, retried)
		beat := func(f generateProgress) {
			p.Fault = f
			activity.RecordHeartbeat(ctx, p)
		}
		gen, gres, err := a.generate(ctx, gin, s, pool, fs, beat, true)
		if err != nil {
			return PlayResult{}, withProgress(err, p)
		}
		if gres.ContextExceeded {
			return PlayResult{PlayProgress: p, ContextExceeded: true}, nil
		}
		p.PromptTokens += int64(gres.PromptTokens)
		p.ResponseTokens += int64(gres.ResponseTokens)
		p.Fault = generateProgress{}
		if call, ok := s.ToolCall(gen.Action); ok {
			// ToolCall reads the generate record from its own object.
			if _, err := turnlog.PutRecord(ctx, st, &gen); err != nil {
				return PlayResult{}, err
			}
			t := toolTurn(call, s)
			return PlayResult{PlayProgress: p, Tool: t.Tool, Gen: gres.Ref, ToolUses: t.ToolUses, ToolSuccesses: t.ToolSuccesses}, nil
		}
		act, err := a.act(ctx, ActInput{Episode: in.Episode, Turn: p.Turn, Head: p.Head, Gen: gres.Ref, AttemptBase: in.AttemptBase}, s, gen, true)
		if err != nil {
			return PlayResult{}, withProgress(err, p)
		}
		ref := act.Ref
		p.Head, p.Turn, p.Reward = &ref, p.Turn+1, p.Reward+act.Reward
		activity.RecordHeartbeat(ctx, p)
		if act.Done {
			return PlayResult{PlayProgress: p, Done: true, Success: act.Success, StopReason: act.StopReason}, nil
		}
	}
}

// playFaults is the fault count a turn starts with: the input's prior
// faults for the run's first turn; for the first turn of a retried run,
// one more for the run that was lost, and the request faults its
// heartbeat recorded for that turn.
func playFaults(in PlayInput, p PlayProgress, first, retried bool) faults {
	if !first {
		return faults{}
	}
	var f faults
	if p.Turn == in.Turn {
		f.prior, f.priorCls = in.PriorFaults, in.PriorFault
	}
	if retried {
		f.runs = 1
		f.base = p.Fault
	}
	return f
}

// resume follows the act records the runs of this activity before attempt
// wrote after p's head: their keys are known (the turn and the run's
// attempt), and each must link to the head before it. It returns the
// progress they add, and Done when the last of them ended the episode.
func resume(ctx context.Context, st blob.Store, in PlayInput, p PlayProgress, attempt int) (PlayResult, error) {
	ep := in.Episode
	for {
		var next *schema.TurnRecord
		for run := attempt - 1; run >= 1 && next == nil; run-- {
			key := schema.ActKey(ep.Spec.Job, ep.Slot.Batch, ep.Slot.Episode, p.Turn, in.AttemptBase+run)
			b, err := blob.ReadAll(ctx, st, key)
			if errors.Is(err, blob.ErrNotExist) {
				continue
			}
			if err != nil {
				return PlayResult{}, fmt.Errorf("resume %s at turn %d: %w", ep.ID(), p.Turn, err)
			}
			rec, err := schema.UnmarshalTurnRecord(b)
			if err != nil || rec.Phase != schema.PhaseAct || rec.ToolName != nil || !sameRef(rec.Prev, p.Head) {
				continue // not the next turn of this chain: played again
			}
			next = &rec
		}
		if next == nil {
			return PlayResult{PlayProgress: p}, nil
		}
		ref := next.Ref()
		p.Head, p.Turn, p.Reward = &ref, p.Turn+1, p.Reward+next.Reward
		p.Fault = generateProgress{}
		if next.Terminated || next.Truncated {
			return PlayResult{PlayProgress: p, Done: true, Success: next.Success, StopReason: stopOf(*next, ep.Spec.MaxTurns)}, nil
		}
	}
}

// stopOf is the stop reason of an act record that ended its episode. The
// job's cap and the env's own truncation at that same turn look alike in
// a record; the cap is reported.
func stopOf(act schema.TurnRecord, maxTurns int) string {
	switch {
	case act.Terminated:
		return schema.StopTerminated
	case maxTurns > 0 && act.Turn+1 >= maxTurns:
		return schema.StopMaxTurns
	}
	return schema.StopTruncated
}

// withProgress attaches the turns played to a typed (non-retryable) error,
// so the workflow counts them; a retryable error is retried from the
// heartbeat, which holds them.
func withProgress(err error, p PlayProgress) error {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || !ae.NonRetryable() {
		return err
	}
	f := PlayFailure{Progress: p}
	if ae.HasDetails() {
		_ = ae.Details(&f.Turn) // GenerateFailure, when the generation failed
	}
	return temporal.NewNonRetryableApplicationError(ae.Message(), ae.Type(), ae.Unwrap(), f)
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
