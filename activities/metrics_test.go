package activities

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/internal/inference"
)

// recorder is a Recorder that keeps totals by "job env what".
type recorder struct {
	mu sync.Mutex
	n  map[string]float64
}

func (r *recorder) add(key string, v float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]float64{}
	}
	r.n[key] += v
}

func (r *recorder) get(key string) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[key]
}

func (r *recorder) Turns(job, env string, n int) { r.add(job+" "+env+" turns", float64(n)) }
func (r *recorder) Generated(job, env string, _ time.Duration, p, c int) {
	r.add(job+" "+env+" generations", 1)
}
func (r *recorder) Stepped(job, env string, _ time.Duration) { r.add(job+" "+env+" steps", 1) }
func (r *recorder) ToolCalled(job, env, tool string, _ time.Duration) {
	r.add(job+" "+env+" tool "+tool, 1)
}
func (r *recorder) Fault(job, env, class string) { r.add(job+" "+env+" fault "+class, 1) }
func (r *recorder) Episodes(job, env, status string, n int) {
	r.add(job+" "+env+" episodes "+status, float64(n))
}

// A batch's episode outcomes are counted once, by the WriteShard call that
// commits it: not by an attempt that died before the manifest, not by a
// retry that finds the batch committed. Its failed episode is logged once
// at ERROR. Locally played turns and steps are counted as they are played.
func TestEpisodesCountedOncePerCommit(t *testing.T) {
	a := newActivities(t)
	rec := &recorder{}
	var logs bytes.Buffer
	a.Metrics, a.Log = rec, slog.New(slog.NewTextHandler(&logs, nil))
	s := spec(t, `{job: once, envs: [{id: game:TowerofHanoi-v0-easy}], tasks: 3, samples_per_task: 2, policy: {kind: oracle}}`)
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.RunEpisodes)
	env.RegisterActivity(a.WriteShard)
	slots := s.BatchSlots(0)
	v, err := env.ExecuteActivity(a.RunEpisodes, RunEpisodesInput{Job: s.Job, Spec: s, Envs: plans, Slots: slots[:5]})
	if err != nil {
		t.Fatal(err)
	}
	var played RunEpisodesResult
	if err := v.Get(&played); err != nil {
		t.Fatal(err)
	}
	id := plans[0].ID
	if got := rec.get("once " + id + " turns"); got != 5*7 {
		t.Errorf("turns %v, want 35", got)
	}
	if got := rec.get("once " + id + " steps"); got != 5*7 {
		t.Errorf("env steps %v, want 35", got)
	}
	outcomes := append(played.Episodes, EpisodeOutcome{Slot: slots[5],
		Failure: &EpisodeFailure{ErrorClass: "EpisodeTimeout", Message: "no answer in 5m", Attempts: 3}})
	in := WriteShardInput{Spec: s, Envs: plans, Batch: 0, Episodes: outcomes}

	crashed := false
	a.Crash = func(point string) {
		if point == "shard:before-manifest" && !crashed {
			crashed = true
			panic("killed before the manifest")
		}
	}
	if _, err := env.ExecuteActivity(a.WriteShard, in); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the first attempt should die before its manifest: %v", err)
	}
	for attempt := range 2 { // commits, then finds the commit
		if _, err := env.ExecuteActivity(a.WriteShard, in); err != nil {
			t.Fatalf("attempt %d: %v", attempt+2, err)
		}
	}
	for status, want := range map[string]float64{EpisodeSolved: 5, EpisodeUnsolved: 0, EpisodeFailed: 1} {
		if got := rec.get(fmt.Sprintf("once %s episodes %s", id, status)); got != want {
			t.Errorf("%s episodes: %v, want %v", status, got, want)
		}
	}
	if n := strings.Count(logs.String(), `level=ERROR msg="episode failed"`); n != 1 ||
		!strings.Contains(logs.String(), "class=EpisodeTimeout attempts=3") {
		t.Errorf("%d ERROR lines for the failed episode, want 1 with its class and attempts:\n%s", n, logs.String())
	}
}

// An activity attempt's error counts once under its error type; the
// inference client's errors (counted per request) and the end of the
// activity's context do not count again.
func TestActivityFaultClasses(t *testing.T) {
	a := newActivities(t)
	rec := &recorder{}
	a.Metrics = rec
	ctx := context.Background()
	a.activityFault(ctx, "j", "e", temporal.NewApplicationError("no sandbox", "SandboxUnavailable"))
	a.activityFault(ctx, "j", "e", fmt.Errorf("write: %w", errors.New("disk full")))
	a.activityFault(ctx, "j", "e", temporal.NewNonRetryableApplicationError("bad answer", ErrTypeBadAnswer, &inference.Error{Kind: inference.ErrBadAnswer}))
	a.activityFault(ctx, "j", "e", nil)
	done, cancel := context.WithCancel(ctx)
	cancel()
	a.activityFault(done, "j", "e", context.Canceled)
	a.requestFaults("j", "e", []string{inference.FaultServerError, inference.FaultContextLength, inference.FaultServerError})
	want := map[string]float64{"j e fault SandboxUnavailable": 1, "j e fault " + FaultInternal: 1, "j e fault ServerError": 2}
	if len(rec.n) != len(want) {
		t.Errorf("recorded %v, want %v", rec.n, want)
	}
	for k, v := range want {
		if rec.get(k) != v {
			t.Errorf("%s: %v, want %v", k, rec.get(k), v)
		}
	}
}
