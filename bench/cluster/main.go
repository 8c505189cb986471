//go:build linux

// Command cluster measures Quarry on the real multi-process Temporal
// cluster of scripts/cluster/cluster.sh (PostgreSQL, frontend, history,
// matching and worker services, versitygw): for 1, 2 and 3 `worker`
// processes it runs one oracle job with `submit --wait` and reports
// turns/s and episodes/s over the job (submit start to exit), and the CPU
// time per episode of each part — the Temporal services, PostgreSQL (the
// postmaster and its backends), the S3 server, Quarry's workers and submit —
// read from /proc (process trees, reaped children included). "other" is the
// rest of the machine's busy time in the same window: on a shared machine,
// other users' work.
//
// It is a program, not a test, so `go test ./...` never runs it:
//
//	go run ./bench/cluster                           # 1, 2, 3 workers, ~3 minutes
//	go run ./bench/cluster -workers 3 -episodes 8000 -json out.json
//
// Everything binds to 127.0.0.1. See BENCHMARKS.md, "Cluster".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/quarry-rl/quarry/internal/clustertest"
	"github.com/quarry-rl/quarry/schema"
)

// parts are the columns of the CPU split, in order.
var parts = []string{"history", "matching", "frontend", "worker", "postgres", "s3", "quarry workers", "submit", "other"}

// result is one run: a job with a number of workers.
type result struct {
	Workers          int                `json:"workers"`
	Episodes         int64              `json:"episodes"`
	Turns            int64              `json:"turns"`
	Seconds          float64            `json:"seconds"`
	EpisodesPerSec   float64            `json:"episodes_per_sec"`
	TurnsPerSec      float64            `json:"turns_per_sec"`
	CPUPerEpisodeMS  map[string]float64 `json:"cpu_ms_per_episode"`
	CPUTotalSec      float64            `json:"cpu_total_sec"`
	MachineBusyShare float64            `json:"machine_busy_share"` // busy CPU / (wall × cores)
}

func main() {
	var (
		workers  = flag.String("workers", "1,2,3", "worker process counts, comma-separated")
		episodes = flag.Int("episodes", 4000, "episodes per job (a multiple of -batch, of 4 samples per task)")
		batch    = flag.Int("batch", 100, "batch size (episodes per shard)")
		inFlight = flag.Int("in-flight", 6, "batches in flight")
		shards   = flag.Int("shards", 4, "history shards of the cluster")
		dir      = flag.String("dir", "", "cluster folder (default: a new temporary folder, removed at the end)")
		jsonOut  = flag.String("json", "", "also write the results as JSON to this file")
	)
	flag.Parse()
	ns, err := counts(*workers)
	if err == nil && (*episodes%*batch != 0 || *episodes%4 != 0) {
		err = fmt.Errorf("-episodes %d: want a multiple of -batch %d and of 4", *episodes, *batch)
	}
	if err == nil {
		err = run(ns, *episodes, *batch, *inFlight, *shards, *dir, *jsonOut)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func counts(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-workers: %q is not a positive integer", f)
		}
		ns = append(ns, n)
	}
	return ns, nil
}

func run(ns []int, episodes, batch, inFlight, shards int, dir, jsonOut string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	repo, err := clustertest.FindRepo(".")
	if err != nil {
		return err
	}
	if dir == "" {
		if dir, err = os.MkdirTemp("", "quarry-cluster-bench-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if err := repo.Build(ctx, filepath.Join(dir, "bin")); err != nil {
		return err
	}
	c, err := repo.Up(ctx, dir, shards)
	defer func() {
		if err := c.Down(); err != nil {
			fmt.Fprintln(os.Stderr, "cluster: down:", err)
		}
	}()
	if err != nil {
		return err
	}
	fmt.Printf("cluster benchmark: %s, %d CPUs, %s/%s; Temporal v1.32.0 (4 services, %d history shards) on PostgreSQL, versitygw; "+
		"oracle game:TowerofHanoi-v0-easy, %d episodes per job in batches of %d, %d in flight\n",
		time.Now().UTC().Format("2006-01-02 15:04"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, shards, episodes, batch, inFlight)
	var results []result
	for _, n := range ns {
		job := fmt.Sprintf("bench-%dw-%d", n, time.Now().Unix())
		r, err := measure(ctx, c, job, n, episodes, batch, inFlight)
		if err != nil {
			return fmt.Errorf("%d workers: %w", n, err)
		}
		results = append(results, r)
	}
	printResults(results)
	if jsonOut != "" {
		data, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(jsonOut, append(data, '\n'), 0o644)
	}
	return nil
}

// measure runs one job with n fresh worker processes.
func measure(ctx context.Context, c *clustertest.Cluster, job string, n, episodes, batch, inFlight int) (result, error) {
	logs := filepath.Join(c.Dir, "log")
	var workers []*clustertest.Proc
	defer func() {
		for _, w := range workers {
			_ = w.Stop(ctx)
		}
	}()
	for i := range n {
		w, err := c.StartProc(fmt.Sprintf("worker %d", i), filepath.Join(logs, fmt.Sprintf("%s-worker-%d.log", job, i)), "worker",
			"--sandbox-uid-base", strconv.Itoa(63000+100*i), "--sandbox-slots", "2")
		if err != nil {
			return result{}, err
		}
		workers = append(workers, w)
	}
	if err := c.WaitPollers(ctx, "quarry", workers); err != nil {
		return result{}, err
	}
	spec := filepath.Join(c.Dir, job+".yaml")
	body := fmt.Sprintf("job: %s\nseed: 3\nenvs:\n  - id: game:TowerofHanoi-v0-easy\ntasks: %d\nsamples_per_task: 4\nbatch_size: %d\nin_flight: {batches: %d}\npolicy:\n  kind: oracle\noutput: s3://quarry/runs\n",
		job, episodes/4, batch, inFlight)
	if err := os.WriteFile(spec, []byte(body), 0o644); err != nil {
		return result{}, err
	}

	roots, names, err := roots(c, workers)
	if err != nil {
		return result{}, err
	}
	before, err := clustertest.TreeCPU(roots...)
	if err != nil {
		return result{}, err
	}
	busy0, err := clustertest.MachineCPU()
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	submit, err := c.StartProc("submit", filepath.Join(logs, job+"-submit.log"), "submit", "--wait", spec)
	if err != nil {
		return result{}, err
	}
	if err := submit.Wait(ctx); err != nil {
		return result{}, err
	}
	wall := time.Since(start)
	after, err := clustertest.TreeCPU(roots...)
	if err != nil {
		return result{}, fmt.Errorf("a process died during the job: %w", err)
	}
	busy1, err := clustertest.MachineCPU()
	if err != nil {
		return result{}, err
	}

	cpu := map[string]time.Duration{"submit": submit.CPU()}
	for i, pid := range roots {
		cpu[names[i]] += after[pid] - before[pid]
	}
	var accounted time.Duration
	for _, d := range cpu {
		accounted += d
	}
	cpu["other"] = max(0, busy1-busy0-accounted)
	eps, turns, err := committed(c, job)
	if err != nil {
		return result{}, err
	}
	if eps != int64(episodes) {
		return result{}, fmt.Errorf("job %s committed %d episodes, want %d", job, eps, episodes)
	}
	r := result{Workers: n, Episodes: eps, Turns: turns, Seconds: wall.Seconds(),
		EpisodesPerSec: float64(eps) / wall.Seconds(), TurnsPerSec: float64(turns) / wall.Seconds(),
		CPUPerEpisodeMS: map[string]float64{}, CPUTotalSec: (busy1 - busy0).Seconds(),
		MachineBusyShare: (busy1 - busy0).Seconds() / (wall.Seconds() * float64(runtime.NumCPU()))}
	for _, p := range parts {
		r.CPUPerEpisodeMS[p] = float64(cpu[p].Microseconds()) / 1000 / float64(eps)
	}
	return r, nil
}

// roots returns the pids whose process trees are measured, with the part
// each belongs to.
func roots(c *clustertest.Cluster, workers []*clustertest.Proc) ([]int, []string, error) {
	var pids []int
	var names []string
	for _, svc := range clustertest.Services {
		pid, err := c.Pid(svc)
		if err != nil {
			return nil, nil, err
		}
		pids, names = append(pids, pid), append(names, svc)
	}
	for _, w := range workers {
		pids, names = append(pids, w.Pid()), append(names, "quarry workers")
	}
	return pids, names, nil
}

// committed sums the job's manifests (in versitygw's folder).
func committed(c *clustertest.Cluster, job string) (episodes, turns int64, err error) {
	files, err := filepath.Glob(filepath.Join(c.BucketDir("quarry"), "runs", job, "_manifest", "*.json"))
	if err != nil {
		return 0, 0, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, 0, err
		}
		m, err := schema.UnmarshalManifest(data)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", f, err)
		}
		episodes += m.EpisodeRows
		turns += m.TurnRows
	}
	return episodes, turns, nil
}

func printResults(results []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workers\tepisodes/s\tturns/s\tseconds\tmachine busy\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%d\t%.0f\t%.0f\t%.1f\t%.0f %%\t\n", r.Workers, r.EpisodesPerSec, r.TurnsPerSec, r.Seconds, 100*r.MachineBusyShare)
	}
	tw.Flush()
	fmt.Println("\nCPU ms per episode (share of the measured total):")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workers\t"+strings.Join(parts, "\t")+"\ttotal\t")
	for _, r := range results {
		var total float64
		for _, p := range parts {
			total += r.CPUPerEpisodeMS[p]
		}
		row := []string{strconv.Itoa(r.Workers)}
		for _, p := range parts {
			row = append(row, fmt.Sprintf("%.2f (%.0f%%)", r.CPUPerEpisodeMS[p], 100*r.CPUPerEpisodeMS[p]/total))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+fmt.Sprintf("\t%.2f\t", total))
	}
	tw.Flush()
}
