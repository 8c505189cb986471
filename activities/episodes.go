package activities

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// RunEpisodesInput asks for whole episodes with a local policy (random,
// oracle): microsecond turns, so one heartbeating activity plays many
// episodes and checkpoints its progress in heartbeat details.
type RunEpisodesInput struct {
	Job   string         `json:"job"`
	Spec  schema.JobSpec `json:"spec"`
	Envs  []EnvPlan      `json:"envs"`
	Slots []schema.Slot  `json:"slots"`
}

// EpisodeOutcome is what a batch keeps of one episode: where its accepted
// records are, or why it failed, and a small summary for progress.
type EpisodeOutcome struct {
	Slot schema.Slot `json:"slot"`
	// Source is the episode's accepted records: a bundle ref (Bundle true)
	// or the head act record of a chain.
	Source      schema.TurnRef  `json:"source"`
	Bundle      bool            `json:"bundle,omitempty"`
	Turns       int             `json:"turns"`
	TotalReward float64         `json:"total_reward"`
	Success     bool            `json:"success,omitempty"`
	StopReason  string          `json:"stop_reason,omitempty"`
	Failure     *EpisodeFailure `json:"failure,omitempty"`
	// Token counts the endpoint reported (zero for local policies).
	PromptTokens   int64 `json:"prompt_tokens,omitempty"`
	ResponseTokens int64 `json:"response_tokens,omitempty"`
	// Policy lists the distinct policy versions of the episode's accepted
	// turns, oldest first (online jobs).
	Policy []schema.PolicyStep `json:"policy,omitempty"`
}

// EpisodeFailure records an episode that failed permanently; it goes to
// _failures/, never into a shard.
type EpisodeFailure struct {
	ErrorClass string `json:"error_class"`
	Message    string `json:"message"`
	Attempts   int    `json:"attempts"`
}

// RunEpisodesResult lists the outcomes in slot order.
type RunEpisodesResult struct {
	Episodes []EpisodeOutcome `json:"episodes"`
}

// Error classes of failed episodes.
const (
	FailEnv = "env_error"
)

// RunEpisodes plays its slots one after another, writing each episode's
// records as one bundle before recording its outcome in a heartbeat. A
// retried attempt resumes after the last heartbeated episode; an episode
// half-played by a killed attempt is played again under the new attempt's
// number, and only the outcome's ref is ever read.
func (a *Activities) RunEpisodes(ctx context.Context, in RunEpisodesInput) (_ RunEpisodesResult, err error) {
	defer func() { a.activityFault(ctx, in.Job, "", err) }()
	info := activity.GetInfo(ctx)
	var done []EpisodeOutcome
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &done); err != nil {
			done = nil // unreadable progress: start over, refs stay unique per attempt
		}
	}
	st, err := a.Stores.Open(ctx, in.Spec.Output)
	if err != nil {
		return RunEpisodesResult{}, err
	}
	w, err := envs.ParseWrapper(in.Spec.Wrapper)
	if err != nil {
		return RunEpisodesResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	made := map[int]envs.Env{}
	for i := len(done); i < len(in.Slots); i++ {
		slot := in.Slots[i]
		plan := in.Envs[slot.Env]
		env, ok := made[slot.Env]
		if !ok {
			if env, err = a.makeEnv(plan); err != nil {
				return RunEpisodesResult{}, err
			}
			made[slot.Env] = env
		}
		tag := fmt.Sprintf("%s/%s/%s/%d/e%d", info.WorkflowExecution.ID, info.WorkflowExecution.RunID, info.ActivityID, info.Attempt, slot.Episode)
		ep, err := rollout.Play(ctx, rollout.Params{
			Job: in.Job, Slot: slot, Env: env, EnvVersion: plan.Version,
			Wrapper: w, MaxHistory: in.Spec.MaxHistory, MaxTurns: in.Spec.MaxTurns,
			Policy: in.Spec.Policy.Kind, Tag: tag, Attempt: int(info.Attempt), Row: plan.Row(in.Spec.Seed, slot.Task),
		})
		out := EpisodeOutcome{Slot: slot}
		switch {
		case ctx.Err() != nil:
			return RunEpisodesResult{}, ctx.Err()
		case err != nil:
			// A Go error from an env is deterministic for a local policy:
			// replaying would fail the same way, so the episode fails.
			out.Failure = &EpisodeFailure{ErrorClass: FailEnv, Message: err.Error(), Attempts: 1}
			a.metrics().Fault(in.Job, plan.ID, FailEnv)
		default:
			ref, err := turnlog.PutBundle(ctx, st, &schema.Bundle{
				Job: in.Job, Batch: slot.Batch, Episode: slot.Episode, Attempt: int(info.Attempt), Records: ep.Records,
			})
			if err != nil {
				return RunEpisodesResult{}, fmt.Errorf("episode %d: %w", slot.Episode, err)
			}
			a.recordPlayed(in.Job, plan.ID, ep.Records)
			a.crash("runepisodes:after-bundle")
			out.Source, out.Bundle = ref, true
			out.Turns, out.TotalReward, out.Success, out.StopReason = ep.Turns, ep.TotalReward, ep.Success, ep.StopReason
		}
		done = append(done, out)
		activity.RecordHeartbeat(ctx, done)
	}
	return RunEpisodesResult{Episodes: done}, nil
}

// recordPlayed counts a locally played episode's turns and env steps (the
// latency its act records carry).
func (a *Activities) recordPlayed(job, env string, recs []schema.TurnRecord) {
	n := 0
	for _, r := range recs {
		if r.Phase == schema.PhaseAct {
			n++
			a.metrics().Stepped(job, env, time.Duration(r.EnvMs*float64(time.Millisecond)))
		}
	}
	a.metrics().Turns(job, env, n)
}

// makeEnv builds an env and refuses to play it under another version than
// the one the job was validated with: one dataset never mixes rule sets.
func (a *Activities) makeEnv(plan EnvPlan) (envs.Env, error) {
	s, err := a.Envs.Lookup(plan.ID)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	if v := s.Version(); v != plan.Version {
		msg := fmt.Sprintf("env %s is version %s on this worker but the job was planned with %s: deploy one version of Quarry across the job's workers", plan.ID, v, plan.Version)
		return nil, temporal.NewNonRetryableApplicationError(msg, ErrTypeEnvVersion, nil)
	}
	env, err := a.Envs.Make(plan.ID, plan.Options)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	return env, nil
}
