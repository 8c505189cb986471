package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

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

func endpointSpec(cfg config, n int, url string) (schema.JobSpec, error) {
	eps := cfg.waves * n
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
`, n, cfg.turns, eps, eps, n, url, openaitest.DefaultModel, n, cfg.words+16, filepath.Join(cfg.dir, "out")))
	return s, err
}

func benchEndpoint(cfg config) ([]result, error) {
	l, err := startLocal(cfg.dir)
	if err != nil {
		return nil, err
	}
	defer l.stop()
	fmt.Printf("\nendpoint policy: test server (own process) latency %s, %d turns per episode, %d×N episodes, %d-token responses with ids and logprobs\n",
		cfg.latency, cfg.turns, cfg.waves, cfg.words)
	var results []result
	for _, n := range cfg.levels {
		r, err := endpointRun(context.Background(), l, cfg, n)
		if err != nil {
			return nil, fmt.Errorf("N=%d: %w", n, err)
		}
		results = append(results, r)
	}
	printEndpoint(results)
	return results, nil
}

// endpointRun runs one job at n episodes in flight and measures it.
func endpointRun(ctx context.Context, l *local, cfg config, n int) (result, error) {
	ep, err := startEndpoint(ctx, cfg.latency, cfg.words)
	if err != nil {
		return result{}, err
	}
	s, err := endpointSpec(cfg, n, ep.url)
	if err != nil {
		ep.kill()
		return result{}, err
	}
	run, err := l.runJob(ctx, s)
	if err != nil {
		ep.kill()
		return result{}, err
	}
	sv, err := ep.finish()
	if err != nil {
		return result{}, err
	}
	eps := cfg.waves * n
	p := run.progress
	if p.EpisodesDone != int64(eps) || p.EpisodesFailed != 0 || p.Turns != int64(eps*cfg.turns) || len(sv.Done) < 10 {
		return result{}, fmt.Errorf("%d episodes done (%d failed), %d turns, %d completions served; want %d episodes of %d turns",
			p.EpisodesDone, p.EpisodesFailed, p.Turns, len(sv.Done), eps, cfg.turns)
	}
	fmt.Printf("  N=%d done: %d turns in %s\n", n, p.Turns, run.wall.Round(10*time.Millisecond))
	ideal := float64(n) / cfg.latency.Seconds()
	lo, hi := len(sv.Done)/10, len(sv.Done)*9/10
	from, to := sv.Done[lo], sv.Done[hi]
	r := result{Scenario: "endpoint", InFlight: n, LatencyS: cfg.latency.Seconds(), Episodes: eps, Turns: int(p.Turns),
		WallS: run.wall.Seconds(), IdealTurnsPerS: ideal, JobTurnsPerS: float64(p.Turns) / run.wall.Seconds(),
		SteadyTurnsPerS: float64(hi-lo) / to.Sub(from).Seconds(),
		CPUMsPerTurn:    float64((cpuAt(run.samples, to) - cpuAt(run.samples, from)).Microseconds()) / 1000 / float64(hi-lo),
		OverheadMs:      float64(sv.Gap.Microseconds()) / 1000, PeakRequests: sv.Peak, Date: run.start.UTC().Format(time.RFC3339)}
	r.SteadyFractionOfIdeal = r.SteadyTurnsPerS / ideal
	u, err := walkJob(ctx, l.client, s.Job)
	if err != nil {
		return r, err
	}
	r.addUsage(run, u)
	if err := turnPhases(l.client, schema.EpisodeID(s.Job, 0, 0)); err != nil {
		return r, err
	}
	return r, nil
}

func printEndpoint(results []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "in flight\tepisodes\tturns\twall s\tideal turns/s\tturns/s (job)\tturns/s (steady)\tof ideal\tpeak requests\toverhead ms\tCPU ms/turn (steady)\t(job)\tactions/turn\thistory B/turn\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.1f\t%.0f\t%.1f\t%.1f\t%.1f%%\t%d\t%.1f\t%.2f\t%.2f\t%.2f\t%.0f\t\n", r.InFlight, r.Episodes, r.Turns, r.WallS,
			r.IdealTurnsPerS, r.JobTurnsPerS, r.SteadyTurnsPerS, 100*r.SteadyFractionOfIdeal, r.PeakRequests, r.OverheadMs,
			r.CPUMsPerTurn, r.CPUMsPerTurnJob, r.ActionsPerTurn, r.HistoryBytesPerTurn)
	}
	tw.Flush()
	for _, r := range results {
		fmt.Printf("  N=%d actions: %v\n", r.InFlight, r.Actions)
		if r.InFlight == 64 {
			fmt.Printf("gate (≥ 90%% of ideal at 64 in flight, steady state): %.1f%% %s\n", 100*r.SteadyFractionOfIdeal, pass(r.SteadyFractionOfIdeal >= 0.9))
		}
		if r.InFlight == 1024 {
			fmt.Printf("issue 15 goal (≥ 90%% of ideal at 1,024 in flight, steady state): %.1f%% %s\n", 100*r.SteadyFractionOfIdeal, pass(r.SteadyFractionOfIdeal >= 0.9))
		}
	}
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
