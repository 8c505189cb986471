package activities

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/internal/inference"
)

// Recorder receives what activities measure (internal/metrics implements
// it for Prometheus). Turns, latencies, tokens and faults are counted per
// attempt: a retried turn is counted again. Episodes are counted once per
// outcome, when the shard holding them commits.
type Recorder interface {
	// Turns counts n turns played (act records written).
	Turns(job, env string, n int)
	// Generated records an answered generation: the answering request's
	// latency and the tokens the endpoint reported.
	Generated(job, env string, d time.Duration, promptTokens, completionTokens int)
	// Stepped records one env step.
	Stepped(job, env string, d time.Duration)
	// ToolCalled records one tool call.
	ToolCalled(job, env, tool string, d time.Duration)
	// Fault counts one failed inference request (by inference fault class)
	// or failed activity attempt (by error type).
	Fault(job, env, class string)
	// Episodes counts n episode outcomes of status (EpisodeSolved, …).
	Episodes(job, env, status string, n int)
}

// Episode outcomes, the status a Recorder is given.
const (
	EpisodeSolved   = "solved"   // committed; the env reported success
	EpisodeUnsolved = "unsolved" // committed without success
	EpisodeFailed   = "failed"   // failed permanently: in _failures/, never in a shard
)

// FaultInternal is the fault class of an activity error that carries no
// error type (a store error, a bug).
const FaultInternal = "Internal"

// nopRecorder records nothing (Activities.Metrics unset).
type nopRecorder struct{}

func (nopRecorder) Turns(string, string, int)                         {}
func (nopRecorder) Generated(string, string, time.Duration, int, int) {}
func (nopRecorder) Stepped(string, string, time.Duration)             {}
func (nopRecorder) ToolCalled(string, string, string, time.Duration)  {}
func (nopRecorder) Fault(string, string, string)                      {}
func (nopRecorder) Episodes(string, string, string, int)              {}

func (a *Activities) metrics() Recorder {
	if a.Metrics == nil {
		return nopRecorder{}
	}
	return a.Metrics
}

// requestFaults counts an inference run's failed requests. A prompt past
// the model's context is an episode's end, not a fault.
func (a *Activities) requestFaults(job, env string, classes []string) {
	for _, c := range classes {
		if c != inference.FaultContextLength {
			a.metrics().Fault(job, env, c)
		}
	}
}

// activityFault counts an activity attempt's error by its type: the
// ApplicationError type, FaultInternal without one. Errors of the
// inference client (counted per request by requestFaults) and the end of
// the activity's context (a timeout or a worker stopping, which Temporal's
// own metrics count) are not counted again.
func (a *Activities) activityFault(ctx context.Context, job, env string, err error) {
	if err == nil || ctx.Err() != nil {
		return
	}
	if _, ok := errors.AsType[*inference.Error](err); ok {
		return
	}
	class := FaultInternal
	if ae, ok := errors.AsType[*temporal.ApplicationError](err); ok && ae.Type() != "" {
		class = ae.Type()
	}
	a.metrics().Fault(job, env, class)
}
