// Package activities adapts Quarry's libraries to Temporal: each activity
// is a thin method that decodes its input, calls plain packages (envs,
// activities/rollout, internal/turnlog, internal/shard, internal/inference)
// and classifies errors as retryable or not. Workflows call activities by
// the persisted names below, never by Go identifiers.
package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataset"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/toolset"
)

// Activity names: persisted in workflow histories, so they never change.
const (
	ValidateJobName  = "quarry.ValidateJob"
	RunEpisodesName  = "quarry.RunEpisodes"
	WriteShardName   = "quarry.WriteShard"
	WriteSuccessName = "quarry.WriteSuccess"
)

// Error types for non-retryable failures (temporal ApplicationError types);
// callers branch on them, never on messages.
const (
	ErrTypeInvalidSpec = "InvalidSpec"
	ErrTypeEnvVersion  = "EnvVersionMismatch"
	ErrTypeOutput      = "OutputUnavailable"
)

// Activities holds what activities need; one value per worker process.
type Activities struct {
	Envs   *envs.Registry
	Stores *Stores
	Log    *slog.Logger
	// Crash, when set, is called at each of CrashPoints as an activity
	// passes it, so a test can kill the worker exactly there (cmd/worker's
	// QUARRY_TEST_CRASH). Nil in production.
	Crash func(point string)
	// HostQueue is this process's own task queue (workflows.NewWorkers sets
	// it): ToolCall reports it so the episode's next call comes back to the
	// worker holding its tool session.
	HostQueue string
	// Tools runs tool calls (sandbox settings, sessions); nil: a default
	// host, whose python sandbox is made on first use.
	Tools *toolset.Host
	// Metrics receives turns, latencies, tokens, faults and episode
	// outcomes (internal/metrics); nil: nothing is recorded.
	Metrics Recorder

	turnsOnce sync.Once
	turnState *turnState
}

// CrashPoints names the places where activities call Crash: between an
// inference response and its turn record, between a record and the
// activity's return, and between WriteShard's writes (internal/shard's
// steps, prefixed "shard:").
func CrashPoints() []string {
	return []string{
		"generate:after-response", "generate:after-record", "act:after-record", "runepisodes:after-bundle", "tool:after-call", "tool:after-record",
		"shard:" + string(shard.AfterTurns), "shard:" + string(shard.AfterEpisodes),
		"shard:" + string(shard.AfterFailures), "shard:" + string(shard.BeforeManifest),
		CrashBeforeTurnLogDelete,
	}
}

// CrashBeforeTurnLogDelete is the crash point between a batch's commit (its
// manifest stored) and the deletion of its turn log.
const CrashBeforeTurnLogDelete = "shard:before-turnlog-delete"

func (a *Activities) crash(point string) {
	if a.Crash != nil {
		a.Crash(point)
	}
}

func (a *Activities) logger() *slog.Logger {
	if a.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return a.Log
}

// Stores opens blob stores by URL and keeps them for the worker's lifetime.
type Stores struct {
	Options []blob.Option
	mu      sync.Mutex
	open    map[string]blob.Store
}

// Open returns the store for url, opening it once.
func (s *Stores) Open(ctx context.Context, url string) (blob.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.open[url]; ok {
		return st, nil
	}
	st, err := blob.Open(ctx, url, s.Options...)
	if err != nil {
		return nil, err
	}
	if s.open == nil {
		s.open = map[string]blob.Store{}
	}
	s.open[url] = st
	return st, nil
}

// EnvPlan is one env of the job's mixture as the workers resolved it.
type EnvPlan struct {
	ID      string         `json:"id"`
	Options map[string]any `json:"options,omitempty"`
	// Version is the env's version on the validating worker; every worker
	// that plays the env must have the same, or the turn fails.
	Version    string `json:"version"`
	MaxTurns   int    `json:"max_turns"`
	DataSource string `json:"data_source"`
	// Rows is the dataset size of a dataset-backed env (0: procedural).
	Rows int `json:"rows,omitempty"`
	// StepBound is the most one Step of the env can take (envs.StepBound;
	// 0 for a CPU-bound env): Act's timeout covers it.
	StepBound schema.Duration `json:"step_bound,omitempty"`
}

// Row is the dataset row task plays (−1 for a procedural env): a seeded
// permutation of the rows per epoch, so a job draws them without
// replacement and task i is the same row on every worker and rerun.
func (p EnvPlan) Row(jobSeed uint64, task int64) int {
	if p.Rows <= 0 {
		return -1
	}
	return dataset.Index(jobSeed, p.Rows, int(task))
}

// TaskID names a task: its env id and dataset row, or for a procedural env
// its Reset seed.
func (p EnvPlan) TaskID(jobSeed uint64, slot schema.Slot) string {
	if row := p.Row(jobSeed, slot.Task); row >= 0 {
		return fmt.Sprintf("%s#%d", p.ID, row)
	}
	return TaskID(p.ID, slot.TaskSeed)
}

// ValidateJobResult is the resolved mixture and what an earlier run of the
// job already committed.
type ValidateJobResult struct {
	Envs []EnvPlan `json:"envs"`
	// Committed lists, in order, the batches whose manifest is in the
	// output store: a rerun of a failed or cancelled job skips them.
	Committed []int `json:"committed,omitempty"`
	// CommittedEpisodes and CommittedFailed total those batches' episode
	// rows and failed episodes, for the job's progress.
	CommittedEpisodes int64 `json:"committed_episodes,omitempty"`
	CommittedFailed   int64 `json:"committed_failed,omitempty"`
	CommittedTurns    int64 `json:"committed_turns,omitempty"`
	// Policy is the policy version the last committed batch of an online
	// job was written under: a rerun goes on from it.
	Policy *schema.PolicyStep `json:"policy,omitempty"`
}

// ValidateJob checks a spec (schema rules, which live here rather than in
// workflow code so tightening one never breaks the replay of a running job)
// against this worker's registry and output store: every env id exists and
// accepts its options, local policies have what they need (an oracle), and
// the output is writable. Problems are non-retryable. It also lists the
// batches an earlier run committed (the manifest is the truth).
func (a *Activities) ValidateJob(ctx context.Context, spec schema.JobSpec) (ValidateJobResult, error) {
	err := spec.Validate()
	var plans []EnvPlan
	if err == nil {
		plans, err = ResolveEnvs(a.Envs, spec)
	}
	if err == nil {
		err = CheckTools(spec)
	}
	if err == nil {
		err = CheckPrompt(spec)
	}
	if err != nil {
		return ValidateJobResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidSpec, err)
	}
	st, err := a.Stores.Open(ctx, spec.Output)
	if err != nil {
		return ValidateJobResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeOutput, err)
	}
	if err := st.Preflight(ctx); err != nil {
		var pe *blob.PreflightError
		if errors.As(err, &pe) && errors.Is(err, blob.ErrUnreachable) {
			return ValidateJobResult{}, err // may come back: retry
		}
		return ValidateJobResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeOutput, err)
	}
	res := ValidateJobResult{Envs: plans}
	ms, err := shard.Committed(ctx, st, spec.Job)
	if err != nil {
		return ValidateJobResult{}, fmt.Errorf("job %s: committed batches: %w", spec.Job, err)
	}
	if !spec.KeepTurnLogs && len(ms) > 0 {
		a.sweepTurnLogs(ctx, st, spec.Job, ms)
	}
	for _, m := range ms {
		if !spec.HasBatch(m.Batch) {
			msg := fmt.Sprintf("job %s: %s holds batch %d but the spec has %d batches: the output belongs to another spec; give this one another job id or output", spec.Job, spec.Output, m.Batch, spec.Batches())
			return ValidateJobResult{}, temporal.NewNonRetryableApplicationError(msg, ErrTypeOutput, nil)
		}
		res.Committed = append(res.Committed, m.Batch)
		res.CommittedEpisodes += m.EpisodeRows + m.FailedEpisodes
		res.CommittedFailed += m.FailedEpisodes
		res.CommittedTurns += m.TurnRows
		if m.Policy != nil {
			p := m.Policy.Current
			res.Policy = &p
		}
	}
	return res, nil
}

// sweepTurnLogs deletes the turn logs an earlier run left of batches it
// committed (a commit interrupted before its deletion). A failure is only
// logged: the logs are garbage, not state.
func (a *Activities) sweepTurnLogs(ctx context.Context, st blob.Store, job string, ms []schema.Manifest) {
	committed := make(map[int]bool, len(ms))
	for _, m := range ms {
		committed[m.Batch] = true
	}
	n, err := turnlog.Sweep(ctx, st, job, func(b int) bool { return committed[b] })
	if err != nil {
		a.logger().Warn("turn logs of committed batches not swept", "job", job, "err", err)
		return
	}
	if n > 0 {
		a.logger().Info("swept turn logs an earlier run left of committed batches", "job", job, "objects", n)
	}
}

// ResolveEnvs checks the spec's envs against r: ids, options, oracles for
// the oracle policy, the API an image env needs (CheckImages). The submit
// CLI calls it before submission, the workflow again through ValidateJob.
func ResolveEnvs(r *envs.Registry, spec schema.JobSpec) ([]EnvPlan, error) {
	var errs schema.SpecError
	plans := make([]EnvPlan, len(spec.Envs))
	for i, e := range spec.Envs {
		path := fmt.Sprintf("envs[%d]", i)
		s, err := r.Lookup(e.ID)
		if err != nil {
			errs = append(errs, schema.FieldError{Path: path + ".id", Problem: err.Error()})
			continue
		}
		env, err := r.Make(e.ID, e.Options)
		if err != nil {
			var oe *envs.OptionError
			if errors.As(err, &oe) && oe.Option != "" {
				errs = append(errs, schema.FieldError{Path: path + ".options." + oe.Option, Problem: oe.Reason})
			} else {
				errs = append(errs, schema.FieldError{Path: path + ".options", Problem: err.Error()})
			}
			continue
		}
		if spec.Policy.Kind == schema.PolicyOracle {
			if _, ok := envs.AsOracle(env); !ok {
				errs = append(errs, schema.FieldError{Path: path + ".id", Problem: fmt.Sprintf("%s has no oracle; use policy random or openai", s.ID)})
			}
		}
		if s.Images {
			errs = append(errs, CheckImages(spec, s.ID)...)
		}
		if _, err := envs.ParseWrapper(spec.Wrapper); err != nil && i == 0 {
			errs = append(errs, schema.FieldError{Path: "wrapper", Problem: err.Error()})
		}
		rows, err := envs.Rows(env)
		if err != nil {
			errs = append(errs, schema.FieldError{Path: path + ".options", Problem: err.Error()})
			continue
		}
		plans[i] = EnvPlan{ID: s.ID, Options: e.Options, Version: s.Version(), MaxTurns: s.MaxTurns, DataSource: s.Category(), Rows: rows,
			StepBound: schema.Duration(envs.StepBound(env))}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return plans, nil
}
