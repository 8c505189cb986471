//go:build cluster && linux

package clustertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// The job: oracle Tower of Hanoi, a few thousand episodes in 40 shards, six
// batches in flight so every worker has work.
const (
	testJob      = "cluster-exactly-once"
	testTasks    = 1000
	testSamples  = 4
	testBatch    = 100
	testEpisodes = testTasks * testSamples
	testBatches  = testEpisodes / testBatch
)

const testSpec = `job: ` + testJob + `
seed: 11
envs:
  - id: game:TowerofHanoi-v0-easy
tasks: 1000
samples_per_task: 4
batch_size: 100
in_flight: {batches: 6}
policy:
  kind: oracle
output: s3://quarry/runs
`

// TestClusterExactlyOnce runs a job on the real cluster with three worker
// processes and submit without --local, SIGKILLs and restarts workers and
// the history, matching and frontend services while it runs, and checks
// that no half-written object was ever visible and that every episode is in
// the output exactly once.
func TestClusterExactlyOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 7*time.Minute)
	defer cancel()
	c := startCluster(ctx, t)
	logs := filepath.Join(c.Dir, "log")
	f := &fleet{t: t, c: c, procs: make([]*Proc, 3)}
	for i := range f.procs {
		f.start(i)
	}
	t.Cleanup(f.killAll)

	watcher := c.NewWatcher("quarry", "runs/"+testJob+"/")
	wctx, stopWatch := context.WithCancel(ctx)
	watchErr := make(chan error, 1)
	go func() { watchErr <- watcher.Run(wctx) }()
	defer func() { stopWatch(); <-watchErr }()

	spec := filepath.Join(c.Dir, "job.yaml")
	if err := os.WriteFile(spec, []byte(testSpec), 0o644); err != nil {
		t.Fatal(err)
	}
	submit, err := c.StartProc("submit", filepath.Join(logs, "submit.log"), "submit", "--wait", spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(submit.Kill)
	disrupt(ctx, t, c, f, watcher, submit)
	if err := submit.Wait(ctx); err != nil {
		t.Fatalf("submit --wait: %v%s", err, tail(filepath.Join(logs, "submit.log")))
	}
	stopWatch()
	if err := <-watchErr; err != nil {
		t.Fatalf("bucket watch: %v", err)
	}
	watchErr <- nil // for the deferred receive
	if err := watcher.Scan(ctx); err != nil {
		t.Fatalf("final listing: %v", err)
	}
	listings, shards, manifests := watcher.Stats()
	t.Logf("bucket watch: %d listings, %d shard objects and %d manifests verified", listings, shards, manifests)
	if manifests != testBatches || shards != 2*testBatches {
		t.Fatalf("committed %d manifests and %d shard objects, want %d and %d", manifests, shards, testBatches, 2*testBatches)
	}
	checkOutput(ctx, t, c, watcher)
}

// disrupt SIGKILLs workers and Temporal services at points of the job's
// progress (manifests committed), so each lands while the job runs however
// fast the machine is, and restarts each at once.
func disrupt(ctx context.Context, t *testing.T, c *Cluster, f *fleet, w *Watcher, submit *Proc) {
	t.Helper()
	restart := func(svc string) func() error {
		return func() error {
			if err := c.Kill(ctx, svc); err != nil {
				return err
			}
			return c.Start(ctx, svc)
		}
	}
	for _, ev := range []struct {
		at   int
		name string
		do   func() error
	}{
		{3, "SIGKILL worker 0", f.kill(0)},
		{8, "SIGKILL workers 1 and 2", f.kill(1, 2)},
		{14, "SIGKILL the history service", restart("history")},
		{20, "SIGKILL every worker", f.kill(0, 1, 2)},
		{26, "SIGKILL the matching service", restart("matching")},
		{32, "SIGKILL the frontend service", restart("frontend")},
	} {
		if err := waitProgress(ctx, w, submit, ev.at); err != nil {
			t.Fatalf("before %s: %v%s", ev.name, err, tail(filepath.Join(c.Dir, "log", "submit.log")))
		}
		t.Logf("%d manifests committed: %s, restarted", ev.at, ev.name)
		if err := ev.do(); err != nil {
			t.Fatalf("%s: %v", ev.name, err)
		}
	}
}

// fleet is the test's worker processes, each with its own sandbox uids.
type fleet struct {
	t     *testing.T
	c     *Cluster
	procs []*Proc
}

func (f *fleet) start(i int) {
	f.t.Helper()
	p, err := f.c.StartProc(fmt.Sprintf("worker %d", i), filepath.Join(f.c.Dir, "log", fmt.Sprintf("quarry-worker-%d.log", i)), "worker",
		"--sandbox-uid-base", strconv.Itoa(63000+100*i), "--sandbox-slots", "2")
	if err != nil {
		f.t.Fatal(err)
	}
	f.procs[i] = p
}

// kill returns a disruption: SIGKILL the workers ids, check that each was
// still running until then, start each again.
func (f *fleet) kill(ids ...int) func() error {
	return func() error {
		for _, i := range ids {
			f.procs[i].Kill()
			if err := f.procs[i].Err(); !Killed(err) {
				return fmt.Errorf("worker %d ended with %v before its SIGKILL", i, err)
			}
			f.start(i)
		}
		return nil
	}
}

func (f *fleet) killAll() {
	for _, p := range f.procs {
		if p != nil {
			p.Kill()
		}
	}
}

// startCluster builds the binaries (unless $QUARRY_CLUSTER_BIN holds them)
// and brings a cluster up in $QUARRY_CLUSTER_DIR (make cluster-test sets
// both, and tears the cluster down whatever happens to this process) or a
// temporary folder.
func startCluster(ctx context.Context, t *testing.T) *Cluster {
	t.Helper()
	repo, err := FindRepo(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("QUARRY_CLUSTER_DIR")
	if dir == "" {
		if dir, err = os.MkdirTemp("", "quarry-cluster-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	if bin := os.Getenv("QUARRY_CLUSTER_BIN"); bin != "" {
		repo.Bin = bin // built by make cluster-test, outside the test's time budget
	} else if err := repo.Build(ctx, filepath.Join(dir, "bin")); err != nil {
		t.Fatal(err)
	}
	c, err := repo.Up(ctx, dir, 4)
	t.Cleanup(func() {
		if err := c.Down(); err != nil {
			t.Errorf("cluster down: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitProgress waits until n manifests are committed; submit ending first is
// an error (the disruption would not land during the job).
func waitProgress(ctx context.Context, w *Watcher, submit *Proc, n int) error {
	for {
		got, changed, err := w.Committed()
		if err != nil {
			return fmt.Errorf("bucket watch: %w", err)
		}
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d manifests committed: %w", got, n, ctx.Err())
		case <-submit.Done():
			return fmt.Errorf("submit ended (%v) with %d manifests committed, before %d", submit.Err(), got, n)
		case <-changed:
		}
	}
}

// checkOutput checks the job's end state: _SUCCESS, no failures, and with
// DuckDB, every episode of the job exactly once in the committed shards.
func checkOutput(ctx context.Context, t *testing.T, c *Cluster, w *Watcher) {
	t.Helper()
	list, err := w.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &w.bucket, Prefix: ptr(w.prefix + "_failures/")})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Contents) != 0 {
		t.Errorf("%d objects in _failures/, want none", len(list.Contents))
	}
	if _, err := w.get(ctx, w.prefix+"_SUCCESS"); err != nil {
		t.Errorf("_SUCCESS: %v", err)
	}
	var manifestTurns, manifestEpisodes int64
	for _, m := range w.Manifests() {
		manifestTurns += m.TurnRows
		manifestEpisodes += m.EpisodeRows
	}
	got, err := c.repo.CountShards(ctx, filepath.Join(c.BucketDir("quarry"), "runs", testJob))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DuckDB over the shards: %+v", got)
	if got.Episodes != testEpisodes || got.DistinctEpisodes != testEpisodes || got.DistinctSlots != testEpisodes || got.Batches != testBatches {
		t.Errorf("episodes: %d rows, %d distinct ids, %d distinct (batch, episode), %d batches; want %d, %d, %d, %d",
			got.Episodes, got.DistinctEpisodes, got.DistinctSlots, got.Batches, testEpisodes, testEpisodes, testEpisodes, testBatches)
	}
	if got.Turns == 0 || got.Turns != got.DistinctTurns || got.Turns != got.SumNumTurns || got.OrphanTurns != 0 {
		t.Errorf("turns: %d rows, %d distinct (episode, turn), Σ num_turns %d, %d without an episode; want equal and none orphaned",
			got.Turns, got.DistinctTurns, got.SumNumTurns, got.OrphanTurns)
	}
	if got.RetriedTurns == 0 {
		t.Errorf("no turn row of a second attempt: the SIGKILLs interrupted no work in flight, so the test proved nothing")
	}
	if got.Turns != manifestTurns || got.Episodes != manifestEpisodes {
		t.Errorf("the shards hold %d turns and %d episodes, the manifests commit %d and %d", got.Turns, got.Episodes, manifestTurns, manifestEpisodes)
	}
}

func ptr[T any](v T) *T { return &v }

// tail returns the end of a log file, for failure messages.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if len(data) > 3000 {
		data = data[len(data)-3000:]
	}
	return "\n" + path + ":\n" + string(data)
}
