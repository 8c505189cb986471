package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// WriteShardInput commits one batch.
type WriteShardInput struct {
	Spec     schema.JobSpec   `json:"spec"`
	Envs     []EnvPlan        `json:"envs"`
	Batch    int              `json:"batch"`
	Episodes []EpisodeOutcome `json:"episodes"`
	// Policy is the online batch's account of its policy versions, for
	// the manifest.
	Policy *schema.ManifestPolicy `json:"policy,omitempty"`
}

// ShardSummary is what the job's progress keeps of a committed batch.
type ShardSummary struct {
	Batch     int     `json:"batch"`
	Episodes  int     `json:"episodes"`
	Failed    int     `json:"failed"`
	Successes int     `json:"successes"`
	Turns     int64   `json:"turns"`
	RewardSum float64 `json:"reward_sum"` // total reward over non-failed episodes
	TurnRows  int64   `json:"turn_rows"`
	// Token counts over the batch's successful episodes.
	PromptTokens   int64 `json:"prompt_tokens,omitempty"`
	ResponseTokens int64 `json:"response_tokens,omitempty"`
}

// TaskID names a task of a procedural env: its id and Reset seed define it.
func TaskID(envID string, taskSeed uint64) string { return fmt.Sprintf("%s@%016x", envID, taskSeed) }

// WriteShard commits a batch as one shard (internal/shard: data files, then
// the manifest). A batch already committed is not rewritten.
func (a *Activities) WriteShard(ctx context.Context, in WriteShardInput) (_ ShardSummary, err error) {
	defer func() { a.activityFault(ctx, in.Spec.Job, "", err) }()
	st, err := a.Stores.Open(ctx, in.Spec.Output)
	if err != nil {
		return ShardSummary{}, err
	}
	sin := shard.Input{Job: in.Spec.Job, Batch: in.Batch, Gamma: *in.Spec.Gamma, NormScheme: schema.NormReBN, Policy: in.Policy}
	for _, o := range in.Episodes {
		plan := in.Envs[o.Slot.Env]
		e := shard.Episode{
			Episode: o.Slot.Episode, Group: o.Slot.Group, Sample: o.Slot.Sample, GroupSize: in.Spec.SamplesPerTask,
			TaskID: plan.TaskID(in.Spec.Seed, o.Slot), TaskIndex: o.Slot.Task,
			TaskSeed: schema.SeedColumn(o.Slot.TaskSeed), SampleSeed: schema.SeedColumn(o.Slot.SampleSeed),
			DataSource: plan.DataSource, EnvID: plan.ID, EnvVersion: plan.Version,
			StopReason: o.StopReason, Head: o.Source,
		}
		if f := o.Failure; f != nil {
			e.Failure = &shard.Failure{ErrorClass: f.ErrorClass, Attempts: f.Attempts, Turns: o.Turns, Message: f.Message}
		}
		sin.Episodes = append(sin.Episodes, e)
	}
	stop := heartbeatEvery(ctx, 10*time.Second)
	defer stop()
	fresh := false // this call writes the commit (not a retry finding it made)
	m, err := shard.Write(ctx, st, sin, shard.WithStepHook(func(s shard.Step) error {
		a.crash("shard:" + string(s))
		fresh = fresh || s == shard.BeforeManifest
		return nil
	}))
	if err != nil {
		if errors.Is(err, shard.ErrInvalidInput) || errors.Is(err, shard.ErrInvalidTurns) {
			return ShardSummary{}, temporal.NewNonRetryableApplicationError(err.Error(), "InvalidShard", err)
		}
		return ShardSummary{}, fmt.Errorf("write shard %d: %w", in.Batch, err)
	}
	failed := map[int]EpisodeFailure{}
	for _, o := range in.Episodes {
		if o.Failure != nil {
			failed[o.Slot.Episode] = *o.Failure
		}
	}
	if int(m.FailedEpisodes) != len(failed) {
		// The writer failed episodes whose turns made no valid rows.
		fs, err := shard.Failures(ctx, st, m)
		if err != nil {
			return ShardSummary{}, fmt.Errorf("write shard %d: read its failures: %w", in.Batch, err)
		}
		for _, f := range fs {
			failed[f.Episode] = EpisodeFailure{ErrorClass: f.ErrorClass, Message: f.Message, Attempts: f.Attempts}
		}
	}
	if fresh {
		a.committed(in, failed)
	}
	sum := summarize(in, failed)
	sum.TurnRows = m.TurnRows
	if !in.Spec.KeepTurnLogs {
		a.crash(CrashBeforeTurnLogDelete)
		a.deleteTurnLog(ctx, st, in.Spec.Job, in.Batch)
	}
	return sum, nil
}

// deleteTurnLog deletes a committed batch's turn log. A failure is logged,
// not returned: the shard is committed, and failing the commit would retry
// it for a store that may refuse deletes for good. What stays is garbage
// the next run of the job sweeps (ValidateJob).
func (a *Activities) deleteTurnLog(ctx context.Context, st blob.Store, job string, batch int) {
	n, err := turnlog.DeleteBatch(ctx, st, job, batch)
	if err != nil {
		a.logger().Warn("turn log of a committed batch not deleted: it is garbage; the next run of the job sweeps it, or set keep_turn_logs: true to keep logs on purpose",
			"job", job, "batch", batch, "err", err)
		return
	}
	a.logger().Debug("turn log deleted", "job", job, "batch", batch, "objects", n)
}

// committed counts a freshly committed batch's episode outcomes and logs
// each failed episode once, at ERROR: the failure is final here (its
// attempts were retried and logged by Temporal before).
func (a *Activities) committed(in WriteShardInput, failed map[int]EpisodeFailure) {
	type key struct{ env, status string }
	n := map[key]int{}
	for _, o := range in.Episodes {
		env := in.Envs[o.Slot.Env].ID
		f, isFailed := failed[o.Slot.Episode]
		switch {
		case isFailed:
			n[key{env, EpisodeFailed}]++
			a.logger().Error("episode failed", "job", in.Spec.Job, "episode", schema.EpisodeID(in.Spec.Job, in.Batch, o.Slot.Episode),
				"env", env, "class", f.ErrorClass, "attempts", f.Attempts, "err", f.Message)
		case o.Success:
			n[key{env, EpisodeSolved}]++
		default:
			n[key{env, EpisodeUnsolved}]++
		}
	}
	for k, c := range n {
		a.metrics().Episodes(in.Spec.Job, k.env, k.status, c)
	}
}

// summarize is the batch's summary, the episodes in failed counted as failed.
func summarize(in WriteShardInput, failed map[int]EpisodeFailure) ShardSummary {
	sum := ShardSummary{Batch: in.Batch, Episodes: len(in.Episodes)}
	for _, o := range in.Episodes {
		if _, ok := failed[o.Slot.Episode]; ok {
			sum.Failed++
			continue
		}
		sum.Turns += int64(o.Turns)
		sum.RewardSum += o.TotalReward
		sum.PromptTokens += o.PromptTokens
		sum.ResponseTokens += o.ResponseTokens
		if o.Success {
			sum.Successes++
		}
	}
	return sum
}

// WriteSuccessInput finishes a job.
type WriteSuccessInput struct {
	Job       string    `json:"job"`
	Output    string    `json:"output"`
	Batches   int       `json:"batches"`
	StartedAt time.Time `json:"started_at"`
}

// WriteSuccess writes _SUCCESS once every batch is committed.
func (a *Activities) WriteSuccess(ctx context.Context, in WriteSuccessInput) error {
	st, err := a.Stores.Open(ctx, in.Output)
	if err != nil {
		return err
	}
	if _, err := shard.WriteSuccess(ctx, st, in.Job, in.Batches); err != nil {
		return fmt.Errorf("job %s: %w", in.Job, err)
	}
	return nil
}

// heartbeatEvery heartbeats in the background until stop is called, for
// activities whose work has no natural progress points.
func heartbeatEvery(ctx context.Context, d time.Duration) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}
