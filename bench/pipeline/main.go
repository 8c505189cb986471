// Command pipeline measures the durable pipeline's throughput against its
// ideal, on the embedded Temporal server persisted to a SQLite file with the
// in-process worker, wired as `submit --local` wires them, and prints tables
// of figures and ratios:
//
//   - endpoint: GuessTheNumber episodes of a fixed number of turns against
//     an OpenAI-compatible test server (internal/openaitest) that answers
//     every chat completion after a fixed latency (1 s), with token ids and
//     logprobs; with N episodes in flight the ideal is N turns/s. For each N
//     it reports turns/s over the whole job (submit to completion: job
//     validation, episode starts and the final shard included) and in the
//     steady state (the middle 80 % of the served completions), the mean
//     per-turn overhead (a response to the same episode's next request), and
//     where one episode's turns spend it (from the server's event times).
//     The gate is ≥ 90 % of ideal at 64 in flight, steady state.
//   - oracle: the oracle policy at zero latency through the pipeline (a job
//     as submit starts it, Parquet shards out) against a plain in-process
//     loop doing the same work with the same parallelism and no Temporal
//     (rollout.Play, the turn-log bundles, shard.Write, _SUCCESS), in
//     alternating rounds; the gate is ≥ 50 % (median round).
//
// It is a program, not a test, so `go test ./...` never runs it:
//
//	go run ./bench/pipeline                                   # everything, a few minutes
//	go run ./bench/pipeline -concurrency 64 -oracle=false     # the endpoint gate alone
//	go run ./bench/pipeline -endpoint=false -cpuprofile cpu.prof
//
// Everything binds to 127.0.0.1. See BENCHMARKS.md, "Pipeline throughput".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

func main() {
	var (
		levels     = flag.String("concurrency", "16,32,64,128,256", "episodes in flight for the endpoint runs, comma-separated")
		latency    = flag.Duration("latency", time.Second, "latency of every chat completion")
		turns      = flag.Int("turns", 10, "turns per endpoint episode")
		waves      = flag.Int("waves", 2, "endpoint episodes per run, in multiples of the concurrency")
		words      = flag.Int("words", 100, "words (tokens) per endpoint response")
		endpoint   = flag.Bool("endpoint", true, "run the endpoint benchmark")
		oracle     = flag.Bool("oracle", true, "run the oracle benchmark")
		oracleEps  = flag.Int("oracle-episodes", 8192, "episodes of each oracle run")
		repeat     = flag.Int("repeat", 3, "oracle rounds (loop, then pipeline); the gate uses the median")
		dir        = flag.String("dir", "", "working folder (default: a new temporary folder, removed at the end)")
		cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	)
	flag.Parse()
	if err := run(*levels, *latency, *turns, *waves, *words, *endpoint, *oracle, *oracleEps, *repeat, *dir, *cpuProfile); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

func run(levels string, latency time.Duration, turns, waves, words int, endpoint, oracle bool, oracleEps, repeat int, dir, cpuProfile string) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "quarry-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Printf("pipeline benchmark: %s, GOMAXPROCS %d, %s/%s, embedded Temporal on SQLite file\n",
		time.Now().Format("2006-01-02 15:04"), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	var ns []int
	for _, f := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("-concurrency: %q is not a positive integer", f)
		}
		ns = append(ns, n)
	}
	if endpoint {
		if err := benchEndpoint(dir, ns, latency, turns, waves, words); err != nil {
			return err
		}
	}
	if oracle {
		if err := benchOracle(dir, oracleEps, max(1, repeat)); err != nil {
			return err
		}
	}
	return nil
}

// local is the embedded server and the in-process worker, wired as
// `submit --local` wires them (cmd/submit connect()).
type local struct {
	srv    *localserver.Server
	client client.Client
	worker *workflows.Workers
}

func startLocal(dir string) (*local, error) {
	log := slog.New(slog.DiscardHandler)
	srv, err := localserver.Start(localserver.Options{Dir: filepath.Join(dir, "temporal"), Logger: log})
	if err != nil {
		return nil, err
	}
	c, err := client.Dial(client.Options{HostPort: srv.HostPort(), Namespace: srv.Namespace(), Logger: sdklog.NewStructuredLogger(log)})
	if err != nil {
		srv.Stop()
		return nil, err
	}
	reg, err := catalog.New()
	if err != nil {
		c.Close()
		srv.Stop()
		return nil, err
	}
	w := workflows.NewWorkers(c, workflows.DefaultTaskQueue, &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Log: log}, worker.Options{WorkerStopTimeout: 5 * time.Second}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		c.Close()
		srv.Stop()
		return nil, err
	}
	return &local{srv: srv, client: c, worker: w}, nil
}

func (l *local) stop() {
	l.worker.Stop()
	l.client.Close()
	l.srv.Stop()
}

// spec parses, defaults and checks a spec as submit does.
func spec(yaml string) (schema.JobSpec, []activities.EnvPlan, error) {
	s, err := schema.ParseJobSpec([]byte(yaml))
	if err != nil {
		return s, nil, err
	}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		return s, nil, err
	}
	reg, err := catalog.New()
	if err != nil {
		return s, nil, err
	}
	plans, err := activities.ResolveEnvs(reg, s)
	return s, plans, err
}

// runJob starts the job workflow as submit does and waits for its end.
func (l *local) runJob(ctx context.Context, s schema.JobSpec) (workflows.Progress, time.Duration, error) {
	start := time.Now()
	run, err := l.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: s.Job, TaskQueue: workflows.DefaultTaskQueue},
		workflows.JobWorkflowName, workflows.JobInput{Spec: s})
	if err != nil {
		return workflows.Progress{}, 0, err
	}
	var p workflows.Progress
	err = run.Get(ctx, &p)
	return p, time.Since(start), err
}

var hint = regexp.MustCompile(`At turn \d+, you guessed (\d+), and the target number is (higher|lower) than`)

// walkAway plays GuessTheNumber over 1..100000 without ever winning or
// making an illegal move (it steps away from the target), so every episode
// lasts exactly its max_turns.
func walkAway(words int) openaitest.Policy {
	ws := make([]string, words)
	for i := range ws {
		ws[i] = "w" + strconv.Itoa(i)
	}
	text := strings.Join(ws, " ")
	return func(msgs []openaitest.Message) string {
		guess := 50_000
		if m := hint.FindStringSubmatch(msgs[len(msgs)-1].Content); m != nil {
			g, _ := strconv.Atoi(m[1])
			if m[2] == "higher" {
				guess = g - 1
			} else {
				guess = g + 1
			}
		}
		return text + ` \boxed{` + strconv.Itoa(guess) + `}`
	}
}

type endpointResult struct {
	n                 int
	episodes, turns   int
	wall              time.Duration
	steady            float64 // turns/s over the middle 80 % of completions
	peakInFlight      int
	gap               time.Duration // mean time from a response to the episode's next request
	gaps              int
	whole, steadyFrac float64
}

func benchEndpoint(dir string, ns []int, latency time.Duration, turns, waves, words int) error {
	l, err := startLocal(dir)
	if err != nil {
		return err
	}
	defer l.stop()
	fmt.Printf("\nendpoint policy: test server latency %s, %d turns per episode, %d×N episodes, %d-token responses with ids and logprobs\n",
		latency, turns, waves, words)
	var results []endpointResult
	for _, n := range ns {
		srv := openaitest.New(openaitest.WithPolicy(walkAway(words)), openaitest.WithLatency(latency))
		eps := waves * n
		s, _, err := spec(fmt.Sprintf(`
job: endpoint-%d
seed: 1
envs: [{id: game:GuessTheNumber-v0-easy, options: {min_number: 1, max_number: 100000, max_turns: %d}}]
tasks: %d
batch_size: %d
in_flight: {batches: 1, episodes: %d}
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    concurrency: %d
    sampling: {max_tokens: %d, logprobs: true}
    extra_body: {return_token_ids: true}
output: %s
`, n, turns, eps, eps, n, srv.BaseURL(), openaitest.DefaultModel, n, words+16, filepath.Join(dir, "out")))
		if err != nil {
			srv.Close()
			return err
		}
		p, wall, err := l.runJob(context.Background(), s)
		recs := srv.ChatRecords()
		peak := srv.MaxInFlight()
		srv.Close()
		if err != nil {
			return fmt.Errorf("N=%d: %w", n, err)
		}
		if p.EpisodesDone != int64(eps) || p.EpisodesFailed != 0 || p.Turns != int64(eps*turns) {
			return fmt.Errorf("N=%d: %d episodes done (%d failed), %d turns; want %d episodes of %d turns", n, p.EpisodesDone, p.EpisodesFailed, p.Turns, eps, turns)
		}
		var done []time.Time
		for _, r := range recs {
			if r.Status == 200 {
				done = append(done, r.Done)
			}
		}
		slices.SortFunc(done, func(a, b time.Time) int { return a.Compare(b) })
		gap, gaps := turnGaps(recs)
		lo, hi := len(done)/10, len(done)*9/10
		steady := float64(hi-lo) / done[hi].Sub(done[lo]).Seconds()
		r := endpointResult{n: n, episodes: eps, turns: int(p.Turns), wall: wall, steady: steady, peakInFlight: peak, gap: gap, gaps: gaps}
		r.whole = float64(r.turns) / wall.Seconds() / (float64(n) / latency.Seconds())
		r.steadyFrac = steady / (float64(n) / latency.Seconds())
		results = append(results, r)
		fmt.Printf("  N=%d done: %d turns in %s\n", n, r.turns, wall.Round(10*time.Millisecond))
		if err := turnPhases(l.client, schema.EpisodeID(s.Job, 0, 0)); err != nil {
			return err
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "episodes in flight\tepisodes\tturns\twall s\tideal turns/s\tturns/s (job)\tof ideal\tturns/s (steady)\tof ideal\tpeak requests\t")
	for _, r := range results {
		ideal := float64(r.n) / latency.Seconds()
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f\t%.0f\t%.1f\t%.1f%%\t%.1f\t%.1f%%\t%d\t%.1f\t\n", r.n, r.episodes, r.turns, r.wall.Seconds(),
			ideal, float64(r.turns)/r.wall.Seconds(), 100*r.whole, r.steady, 100*r.steadyFrac, r.peakInFlight, float64(r.gap.Microseconds())/1000)
	}
	tw.Flush()
	for _, r := range results {
		if r.n == 64 {
			fmt.Printf("gate (≥ 90%% of ideal at 64 in flight, steady state): %.1f%% %s\n", 100*r.steadyFrac, pass(r.steadyFrac >= 0.9))
		}
	}
	return nil
}

func pass(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

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

func benchOracle(dir string, episodes, repeat int) error {
	ctx := context.Background()
	fmt.Printf("\noracle policy, zero latency: %d episodes, batches of 256 (one Parquet shard each), %d rounds\n", episodes, repeat)
	l, err := startLocal(dir)
	if err != nil {
		return err
	}
	defer l.stop()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tturns\tloop s\tloop turns/s\tpipeline s\tpipeline turns/s\tpipeline / loop\t")
	var ratios []float64
	for i := range repeat {
		// The plain loop, then the pipeline, on fresh output folders; rounds
		// alternate so background load hits both alike.
		s, plans, err := spec(oracleSpec(fmt.Sprintf("loop-%d", i), filepath.Join(dir, fmt.Sprintf("oracle-loop-%d", i)), episodes))
		if err != nil {
			return err
		}
		start := time.Now()
		loopTurns, err := plainLoop(ctx, s, plans)
		if err != nil {
			return err
		}
		loopWall := time.Since(start)
		s, _, err = spec(oracleSpec(fmt.Sprintf("oracle-%d", i), filepath.Join(dir, fmt.Sprintf("oracle-pipeline-%d", i)), episodes))
		if err != nil {
			return err
		}
		p, wall, err := l.runJob(ctx, s)
		if err != nil {
			return err
		}
		if p.EpisodesDone != int64(episodes) || p.EpisodesFailed != 0 || p.Turns != int64(loopTurns) {
			return fmt.Errorf("oracle job: %d episodes (%d failed), %d turns; the loop played %d turns", p.EpisodesDone, p.EpisodesFailed, p.Turns, loopTurns)
		}
		ratio := loopWall.Seconds() / wall.Seconds()
		ratios = append(ratios, ratio)
		fmt.Fprintf(tw, "%d\t%d\t%.2f\t%.0f\t%.2f\t%.0f\t%.1f%%\t\n", i+1, loopTurns, loopWall.Seconds(), float64(loopTurns)/loopWall.Seconds(),
			wall.Seconds(), float64(p.Turns)/wall.Seconds(), 100*ratio)
	}
	tw.Flush()
	slices.Sort(ratios)
	med := (ratios[(len(ratios)-1)/2] + ratios[len(ratios)/2]) / 2
	fmt.Printf("gate (pipeline ≥ 50%% of the plain loop, median of %d): %.1f%% %s\n", len(ratios), 100*med, pass(med >= 0.5))
	return nil
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

// turnGaps is the mean time between a response and the same episode's next
// request: the pipeline's own per-turn cost (turn-log write, activity
// completion, workflow task, Act, scheduling and dispatching the next
// Generate), the part of a turn that is not the endpoint's latency.
// Requests are grouped by episode through their first message (the env's
// intro names a random example guess, distinct per task) and ordered by
// their message count.
func turnGaps(recs []openaitest.Record) (time.Duration, int) {
	type req struct {
		n              int
		received, done time.Time
	}
	byEpisode := map[string][]req{}
	for _, r := range recs {
		if r.Status != 200 {
			continue
		}
		var body struct {
			Messages []openaitest.Message `json:"messages"`
		}
		if json.Unmarshal(r.Body, &body) != nil || len(body.Messages) == 0 {
			continue
		}
		k := body.Messages[0].Content
		byEpisode[k] = append(byEpisode[k], req{len(body.Messages), r.Received, r.Done})
	}
	var sum time.Duration
	n := 0
	for _, rs := range byEpisode {
		slices.SortFunc(rs, func(a, b req) int { return a.n - b.n })
		for i := 1; i < len(rs); i++ {
			if rs[i].n != rs[i-1].n+2 {
				continue // two episodes shared an intro; skip the pair
			}
			sum += rs[i].received.Sub(rs[i-1].done)
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / time.Duration(n), n
}

// turnPhases prints where one episode's turns spend their time, from the
// server's event times: Generate from scheduled to completed (dispatch, the
// endpoint's latency, the turn-log write), then the workflow task's dispatch
// (Generate completed → workflow task started) and run (started → completed:
// the workflow code, the Act local activity, scheduling the next Generate).
func turnPhases(c client.Client, id string) error {
	ctx := context.Background()
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var sum [3]time.Duration
	var cnt [3]int
	var sched, completed, wftStart time.Time
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return err
		}
		t := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			sched = t
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			completed = t
			sum[0] += t.Sub(sched)
			cnt[0]++
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			wftStart = t
			if !completed.IsZero() {
				sum[1] += t.Sub(completed)
				cnt[1]++
				completed = time.Time{}
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			sum[2] += t.Sub(wftStart)
			cnt[2]++
		}
	}
	avg := func(i int) string {
		if cnt[i] == 0 {
			return "-"
		}
		return (sum[i] / time.Duration(cnt[i])).Round(100 * time.Microsecond).String()
	}
	fmt.Printf("    %s (mean per turn): Generate scheduled → completed %s; → workflow task started %s; workflow task (Act, next Generate) %s\n",
		id, avg(0), avg(1), avg(2))
	return nil
}
