package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// oracleSpec is the oracle job: the envs of the e2e test plus a longer game.
func oracleSpec(job, out string, episodes int) string {
	return fmt.Sprintf(`
job: %s
seed: 7
envs: [{id: game:GuessTheNumber-v0-hard}, {id: game:TowerofHanoi-v0-easy}, {id: rg:basic_arithmetic, options: {difficulty: 1}}]
tasks: %d
samples_per_task: 8
batch_size: 256
policy: {kind: oracle}
output: %s
`, job, episodes/8, out)
}

func benchOracle(dir string, episodes, repeat int) ([]result, error) {
	ctx := context.Background()
	fmt.Printf("\noracle policy, zero latency: %d episodes, batches of 256 (one Parquet shard each), %d rounds\n", episodes, repeat)
	l, err := startLocal(dir)
	if err != nil {
		return nil, err
	}
	defer l.stop()
	var results []result
	for i := range repeat {
		// The plain loop, then the pipeline, on fresh output folders; rounds
		// alternate so background load hits both alike.
		r, err := oracleRound(ctx, l, dir, episodes, i)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tturns\tloop turns/s\tpipeline s\tpipeline turns/s\tpipeline / loop\tCPU ms/turn\tactions/turn\thistory B/turn\t")
	var ratios []float64
	for i, r := range results {
		ratios = append(ratios, *r.FractionOfPlainLoop)
		fmt.Fprintf(tw, "%d\t%d\t%.0f\t%.2f\t%.0f\t%.1f%%\t%.3f\t%.3f\t%.0f\t\n", i+1, r.Turns, r.PlainLoopTurnsPerS,
			r.WallS, r.JobTurnsPerS, 100**r.FractionOfPlainLoop, r.CPUMsPerTurnJob, r.ActionsPerTurn, r.HistoryBytesPerTurn)
	}
	tw.Flush()
	slices.Sort(ratios)
	med := (ratios[(len(ratios)-1)/2] + ratios[len(ratios)/2]) / 2
	fmt.Printf("gate (pipeline ≥ 50%% of the plain loop, median of %d): %.1f%% %s; issue 15 goal ≥ 80%%: %s\n", len(ratios), 100*med, pass(med >= 0.5), pass(med >= 0.8))
	return results, nil
}

// oracleRound times the plain loop, then the pipeline, and measures the
// pipeline's job. The oracle has no latency and no steady window: the ideal
// is the plain loop's rate, steady is the pipeline's over its whole job.
func oracleRound(ctx context.Context, l *local, dir string, episodes, i int) (result, error) {
	s, plans, err := spec(oracleSpec(fmt.Sprintf("loop-%d", i), filepath.Join(dir, fmt.Sprintf("oracle-loop-%d", i)), episodes))
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	loopTurns, err := plainLoop(ctx, s, plans)
	if err != nil {
		return result{}, err
	}
	loopRate := float64(loopTurns) / time.Since(start).Seconds()
	s, _, err = spec(oracleSpec(fmt.Sprintf("oracle-%d", i), filepath.Join(dir, fmt.Sprintf("oracle-pipeline-%d", i)), episodes))
	if err != nil {
		return result{}, err
	}
	run, err := l.runJob(ctx, s)
	if err != nil {
		return result{}, err
	}
	p := run.progress
	if p.EpisodesDone != int64(episodes) || p.EpisodesFailed != 0 || p.Turns != int64(loopTurns) {
		return result{}, fmt.Errorf("oracle job: %d episodes (%d failed), %d turns; the loop played %d turns", p.EpisodesDone, p.EpisodesFailed, p.Turns, loopTurns)
	}
	rate := float64(p.Turns) / run.wall.Seconds()
	frac := rate / loopRate
	r := result{Scenario: "oracle", InFlight: s.InFlight.Batches * s.InFlight.Episodes, Episodes: episodes, Turns: int(p.Turns),
		WallS: run.wall.Seconds(), IdealTurnsPerS: loopRate, JobTurnsPerS: rate, SteadyTurnsPerS: rate, SteadyFractionOfIdeal: frac,
		PlainLoopTurnsPerS: loopRate, FractionOfPlainLoop: &frac, Date: run.start.UTC().Format(time.RFC3339)}
	u, err := walkJob(ctx, l.client, s.Job)
	if err != nil {
		return r, err
	}
	r.addUsage(run, u)
	r.CPUMsPerTurn = r.CPUMsPerTurnJob
	return r, nil
}

// plainLoop does the oracle job's work without Temporal and with the
// pipeline's parallelism: in_flight.batches batches at a time; in each, the
// episodes played in chunks of 32 (RunEpisodes' size), in_flight.episodes/32
// chunks at a time, each episode written as a turn-log bundle (as
// RunEpisodes does); then the batch committed with shard.Write (as
// WriteShard does); finally _SUCCESS.
func plainLoop(ctx context.Context, s schema.JobSpec, plans []activities.EnvPlan) (int, error) {
	st, err := blob.Open(ctx, s.Output)
	if err != nil {
		return 0, err
	}
	reg, err := catalog.New()
	if err != nil {
		return 0, err
	}
	w, err := envs.ParseWrapper(s.Wrapper)
	if err != nil {
		return 0, err
	}
	var turns atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.InFlight.Batches)
	for b := range s.Batches() {
		g.Go(func() error {
			n, err := loopBatch(gctx, st, reg, w, s, plans, b)
			turns.Add(int64(n))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	_, err = shard.WriteSuccess(ctx, st, s.Job, s.Batches())
	return int(turns.Load()), err
}

const chunk = 32 // episodes per RunEpisodes activity (workflows.episodesPerActivity)

func loopBatch(ctx context.Context, st blob.Store, reg *envs.Registry, w envs.Wrapper, s schema.JobSpec, plans []activities.EnvPlan, b int) (int, error) {
	slots := s.BatchSlots(b)
	eps := make([]shard.Episode, len(slots))
	var turns atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, s.InFlight.Episodes/chunk))
	for first := 0; first < len(slots); first += chunk {
		g.Go(func() error {
			made := map[int]envs.Env{} // one env per id per chunk, as RunEpisodes
			for i := first; i < min(first+chunk, len(slots)); i++ {
				slot, plan := slots[i], plans[slots[i].Env]
				env, ok := made[slot.Env]
				if !ok {
					var err error
					if env, err = reg.Make(plan.ID, plan.Options); err != nil {
						return err
					}
					made[slot.Env] = env
				}
				ep, err := rollout.Play(gctx, rollout.Params{
					Job: s.Job, Slot: slot, Env: env, EnvVersion: plan.Version, Wrapper: w, MaxHistory: s.MaxHistory,
					MaxTurns: s.MaxTurns, Policy: s.Policy.Kind, Tag: fmt.Sprintf("loop/b%d/e%d", b, slot.Episode), Attempt: 1,
				})
				if err != nil {
					return err
				}
				ref, err := turnlog.PutBundle(gctx, st, &schema.Bundle{Job: s.Job, Batch: b, Episode: slot.Episode, Attempt: 1, Records: ep.Records})
				if err != nil {
					return err
				}
				turns.Add(int64(ep.Turns))
				eps[i] = shard.Episode{
					Episode: slot.Episode, Group: slot.Group, Sample: slot.Sample, GroupSize: s.SamplesPerTask,
					TaskID: activities.TaskID(plan.ID, slot.TaskSeed), TaskIndex: slot.Task,
					TaskSeed: schema.SeedColumn(slot.TaskSeed), SampleSeed: schema.SeedColumn(slot.SampleSeed),
					DataSource: plan.DataSource, EnvID: plan.ID, EnvVersion: plan.Version,
					StopReason: ep.StopReason, Head: ref,
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return 0, err
	}
	_, err := shard.Write(ctx, st, shard.Input{Job: s.Job, Batch: b, Gamma: *s.Gamma, NormScheme: schema.NormReBN, Episodes: eps})
	return int(turns.Load()), err
}
