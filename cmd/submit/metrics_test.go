package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/metrics"
	"github.com/quarry-rl/quarry/internal/metrics/metricstest"
	"github.com/quarry-rl/quarry/workflows"
)

// submit --local --metrics-address serves the in-process worker's metrics:
// after a job of locally played episodes (two envs), /metrics holds its
// turns, env steps and episodes per env exactly as the dataset does, and
// the SDK's temporal_ metrics.
func TestLocalMetrics(t *testing.T) {
	dir := t.TempDir()
	path := writeSpec(t, dir, `
job: local-metrics
seed: 3
envs: [{id: game:TowerofHanoi-v0-easy}, {id: rg:basic_arithmetic}]
tasks: 8
samples_per_task: 2
batch_size: 8
policy: {kind: oracle}
output: `+filepath.Join(dir, "out")+`
`)
	spec, err := loadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue,
		metricsAddr: "127.0.0.1:0", out: io.Discard, err: &stderr}
	ctx := context.Background()
	sess, err := connect(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	addr := sess.metricsAddr
	if !strings.Contains(stderr.String(), "metrics: http://"+addr+"/metrics") {
		t.Errorf("the metrics address is not shown: %q", stderr.String())
	}
	if code, body := metricstest.Get(t, "http://"+addr+metrics.PathReadyz); code != http.StatusOK {
		t.Errorf("readyz with the worker started: %d %q", code, body)
	}
	run, _, err := startOrAttach(ctx, sess.client, g.queue, spec)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := run.Get(wctx, nil); err != nil {
		t.Fatal(err)
	}
	_, turns, eps := readShards(t, spec.Output, spec.Job)
	wantTurns, wantSolved := map[string]float64{}, map[string]float64{}
	for _, r := range turns {
		wantTurns[r.EnvID]++
	}
	for _, e := range eps {
		if e.Success {
			wantSolved[e.EnvID]++
		}
	}
	f := metricstest.Scrape(t, addr)
	for _, e := range spec.Envs {
		l := map[string]string{metrics.LabelJob: spec.Job, metrics.LabelEnv: e.ID}
		if wantTurns[e.ID] == 0 || wantSolved[e.ID] == 0 {
			t.Fatalf("%s: %v turns, %v solved in the dataset: the test proves nothing", e.ID, wantTurns[e.ID], wantSolved[e.ID])
		}
		if got := f.Sum(metrics.TurnsTotal, l); got != wantTurns[e.ID] {
			t.Errorf("%s: quarry_turns_total %v, the dataset %v", e.ID, got, wantTurns[e.ID])
		}
		if got := float64(f.Count(metrics.EnvStepSeconds, l)); got != wantTurns[e.ID] {
			t.Errorf("%s: %v env steps observed, %v turns in the dataset", e.ID, got, wantTurns[e.ID])
		}
		l[metrics.LabelStatus] = "solved"
		if got := f.Sum(metrics.EpisodesTotal, l); got != wantSolved[e.ID] {
			t.Errorf("%s: solved episodes %v, the dataset %v", e.ID, got, wantSolved[e.ID])
		}
	}
	if got := f.Sum(metrics.EpisodesTotal, map[string]string{metrics.LabelJob: spec.Job}); got != float64(len(eps)) {
		t.Errorf("quarry_episodes_total %v, %d episode rows", got, len(eps))
	}
	if !f.SeriesNames()["temporal_activity_execution_latency_seconds_bucket"] {
		t.Error("no temporal_ SDK metrics")
	}
}

// --metrics-address belongs to --local's worker: without --local it is
// refused, not ignored.
func TestMetricsAddressNeedsLocal(t *testing.T) {
	path := writeSpec(t, t.TempDir(), "envs: [{id: game:GuessTheNumber-v0-easy}]\npolicy: {kind: oracle}\n")
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--metrics-address", "127.0.0.1:0", path})
	err := root.ExecuteContext(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--local") {
		t.Fatalf("err %v, want one naming --local", err)
	}
}
