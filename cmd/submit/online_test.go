package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// onlineSpec is an online GuessTheNumber job against endpoint with the
// given online: section (indented two spaces).
func onlineSpec(t *testing.T, dir, job, endpoint, online string) string {
	t.Helper()
	return writeSpec(t, dir, fmt.Sprintf(`
job: %s
seed: 5
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 6
samples_per_task: 2
batch_size: 4
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    extra_body: {return_token_ids: true}
in_flight: {batches: 2, episodes: 4}
online:
%s
output: %s
`, job, endpoint, openaitest.DefaultModel, online, filepath.Join(dir, "out")))
}

// goTrainer is a trainer in this process: it follows the job's manifests
// through the object-store protocol, "trains", announces the next version
// through `submit policy` and acks by writing its cursor.
type goTrainer struct {
	t        *testing.T
	dir, job string
	name     string
	train    time.Duration
	// announce is called with the next version before the ack.
	announce func(version string)
	trained  []schema.Manifest
}

func (g *goTrainer) run(ctx context.Context, steps int) error {
	store, err := blob.Open(ctx, "file://"+filepath.Join(g.dir, "out"))
	if err != nil {
		return err
	}
	for n := len(g.trained); n < steps; n++ {
		m, err := waitManifest(ctx, store, g.job, n)
		if err != nil {
			return err
		}
		g.trained = append(g.trained, m)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(g.train): // the simulated training step
		}
		if g.announce != nil && n+1 < steps {
			g.announce("v" + strconv.Itoa(n+1))
		}
		c, err := schema.MarshalCursor(&schema.Cursor{Job: g.job, Consumer: g.name, NextBatch: n + 1})
		if err != nil {
			return err
		}
		if err := blob.PutBytes(ctx, store, schema.CursorKey(g.job, g.name), c); err != nil {
			return err
		}
	}
	return nil
}

// waitManifest polls for batch n's manifest.
func waitManifest(ctx context.Context, store blob.Store, job string, n int) (schema.Manifest, error) {
	key := schema.ShardKeys(job, n).Manifest
	for {
		data, err := blob.ReadAll(ctx, store, key)
		if err == nil {
			return schema.UnmarshalManifest(data)
		}
		if !errors.Is(err, blob.ErrNotExist) {
			return schema.Manifest{}, err
		}
		select {
		case <-ctx.Done():
			return schema.Manifest{}, fmt.Errorf("batch %d never committed: %w", n, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// announceLocal announces a version through `submit --local policy`.
func announceLocal(t *testing.T, dir, job string) func(string) {
	return func(v string) {
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), "policy", job, "--version", v})
		if err := root.ExecuteContext(context.Background()); err != nil {
			t.Errorf("policy %s: %v\n%s", v, err, stderr.String())
		}
	}
}

// An async online job with an in-process trainer: batches come in order,
// every turn records the version live when it was sent, no turn is older
// than max_version_lag allows, and the job never runs further ahead of the
// trainer than max_batches_ahead.
func TestOnlineAsyncInProcess(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(30*time.Millisecond))
	dir := t.TempDir()
	const steps, ahead = 6, 2
	spec := onlineSpec(t, dir, "online-async", srv.BaseURL(), fmt.Sprintf(`
  steps: %d
  consumers: [trainer]
  max_batches_ahead: %d
  max_version_lag: 1`, steps, ahead))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	done := make(chan string, 1)
	go func() { done <- submitLocal(t, dir, spec) }()
	tr := &goTrainer{t: t, dir: dir, job: "online-async", name: "trainer", train: 200 * time.Millisecond,
		announce: announceLocal(t, dir, "online-async")}
	// The trainer starts late: the job must stop at max_batches_ahead.
	store, err := blob.Open(ctx, "file://"+filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waitManifest(ctx, store, "online-async", ahead-1); err != nil {
		t.Fatal(err)
	}
	if err := tr.run(ctx, steps); err != nil {
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), "status", "--json", "online-async"})
		_ = root.ExecuteContext(context.Background())
		t.Fatalf("%v\nstatus: %s%s", err, stdout.String(), stderr.String())
	}
	out := <-done
	if !strings.Contains(out, "complete") {
		t.Fatalf("job output:\n%s", out)
	}
	ms, turns, _ := readShards(t, "file://"+filepath.Join(dir, "out"), "online-async")
	if len(ms) != steps {
		t.Fatalf("%d shards, want %d", len(ms), steps)
	}
	byBatch := map[int32]int{}
	for _, r := range turns {
		if r.PolicyVersion == nil {
			t.Fatalf("turn %s/%d has no policy_version", r.EpisodeID, r.Turn)
		}
		step, _ := strconv.Atoi(strings.TrimPrefix(*r.PolicyVersion, "v"))
		cur := ms[r.Batch].Policy.Current.Step
		if step < cur-1 {
			t.Errorf("batch %d turn %s/%d by %s, the job at step %d: beyond max_version_lag 1", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion, cur)
		}
		byBatch[r.Batch] = max(byBatch[r.Batch], step)
	}
	if byBatch[int32(steps-1)] == 0 {
		t.Errorf("the last batch was generated by v0 only: announcements never reached the episodes (%v)", byBatch)
	}
	for i, m := range ms {
		if m.Policy == nil || len(m.Policy.Versions) == 0 {
			t.Fatalf("manifest %d has no policy account: %+v", i, m.Policy)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "online-async", "_SUCCESS")); err != nil {
		t.Fatal(err)
	}
}
