package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// A job stopped half way — cancelled, or terminated (what a failed run
// leaves: no _SUCCESS, its batches cancelled by the parent-close policy) —
// resumes when the same spec is submitted again: the shards it committed
// are not touched, only the other batches run, every episode exactly once.
func TestResumeCancelledJob(t *testing.T) {
	resumeStoppedJob(t, func(c client.Client, job string) error { return c.CancelWorkflow(context.Background(), job, "") })
}

func TestResumeTerminatedJob(t *testing.T) {
	resumeStoppedJob(t, func(c client.Client, job string) error {
		return c.TerminateWorkflow(context.Background(), job, "", "a batch failed for good")
	})
}

func resumeStoppedJob(t *testing.T, stop func(client.Client, string) error) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	path := writeSpec(t, dir, `
job: stop-resume
envs: [{id: game:Sudoku-v0-hard}]
tasks: 320
batch_size: 16
policy: {kind: oracle}
in_flight: {batches: 1}
output: `+out+`
`)
	spec, err := loadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	ctx := context.Background()
	sess, g := localWorker(t, state)
	run, _, err := startOrAttach(ctx, sess.client, g.queue, spec)
	if err != nil {
		sess.close()
		t.Fatal(err)
	}
	manifests := filepath.Join(out, spec.Job, "_manifest")
	deadline := time.Now().Add(2 * time.Minute)
	for n, _ := os.ReadDir(manifests); len(n) < 2; n, _ = os.ReadDir(manifests) {
		if time.Now().After(deadline) {
			sess.close()
			t.Fatal("no two shards committed within 2 minutes")
		}
		time.Sleep(20 * time.Millisecond) // polling the output folder
	}
	if err := stop(sess.client, spec.Job); err != nil {
		sess.close()
		t.Fatal(err)
	}
	_ = run.Get(ctx, nil) // cancelled or terminated
	sess.close()
	if _, err := os.Stat(filepath.Join(out, spec.Job, "_SUCCESS")); err == nil {
		t.Fatal("the job finished before it was stopped; make it longer")
	}
	ms, _, _ := readShards(t, "file://"+out, spec.Job)
	before := map[string][]byte{}
	stamps := map[string]time.Time{}
	for _, m := range ms {
		for _, f := range m.Files {
			p := filepath.Join(out, spec.Job, f.Path)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fi, _ := os.Stat(p)
			before[p], stamps[p] = b, fi.ModTime()
		}
	}

	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", state, path})
	if err := root.ExecuteContext(ctx); err != nil {
		t.Fatalf("resubmission: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "job stop-resume complete: 320 episodes (0 failed)") {
		t.Fatalf("summary:\n%s", stdout.String())
	}
	if want := "resumed  " + strconv.Itoa(len(ms)) + " batches"; !strings.Contains(stdout.String(), want) {
		t.Fatalf("the summary does not say %q:\n%s", want, stdout.String())
	}
	all, _, eps := readShards(t, "file://"+out, spec.Job)
	if len(all) != 20 || len(eps) != 320 {
		t.Fatalf("%d shards, %d episodes; want 20 and 320", len(all), len(eps))
	}
	seen := map[string]bool{}
	for _, e := range eps {
		if seen[e.EpisodeID] {
			t.Fatalf("episode %s twice", e.EpisodeID)
		}
		seen[e.EpisodeID] = true
	}
	for p, b := range before {
		now, err := os.ReadFile(p)
		fi, _ := os.Stat(p)
		if err != nil || !bytes.Equal(now, b) || !fi.ModTime().Equal(stamps[p]) {
			t.Fatalf("committed file %s was rewritten by the rerun", p)
		}
	}
}

// refusingProxy serves the policy through srv, but refuses (400) the first
// refuse chat completions after the submit-time preflight probe
// (max_tokens 1): each refusal fails one episode for good.
func refusingProxy(t *testing.T, srv *openaitest.Server, refuse int) string {
	t.Helper()
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			MaxTokens int `json:"max_tokens"`
		}
		_ = json.Unmarshal(body, &req)
		mu.Lock()
		no := strings.HasSuffix(r.URL.Path, "/chat/completions") && req.MaxTokens != 1 && refuse > 0
		if no {
			refuse--
		}
		mu.Unlock()
		if no {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error": {"message": "unsupported parameter", "type": "BadRequestError"}}`))
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy.URL + "/v1"
}

func refusedJob(t *testing.T, dir, job string, refuse int, extra string) (string, error) {
	t.Helper()
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	spec := writeSpec(t, dir, `
job: `+job+`
seed: 4
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 4
policy:
  kind: openai
  openai:
    endpoints: [`+refusingProxy(t, srv, refuse)+`]
    model: `+openaitest.DefaultModel+`
in_flight: {episodes: 4}
output: `+filepath.Join(dir, "out")+`
`+extra)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	err := root.ExecuteContext(context.Background())
	return stdout.String(), err
}

// A job in which every episode failed exits non-zero; _SUCCESS and the
// failure records say how many failed, after how many turns and attempts,
// and `submit status` shows the job's fault counters.
func TestEveryEpisodeFailedExitsNonZero(t *testing.T) {
	dir := t.TempDir()
	stdout, err := refusedJob(t, dir, "all-fail", 1<<20, "")
	if err == nil || !strings.Contains(err.Error(), "every one of its 4 episodes failed") {
		t.Fatalf("err %v\n%s", err, stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "all-fail", "_SUCCESS"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.UnmarshalSuccess(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.FailedEpisodes != 4 || s.EpisodeRows != 0 {
		t.Fatalf("_SUCCESS %+v", s)
	}
	fails := readFailures(t, filepath.Join(dir, "out", "all-fail", "_failures"))
	if len(fails) != 4 {
		t.Fatalf("%d failure records", len(fails))
	}
	for _, f := range fails {
		// A refused request cannot succeed on a retry: one attempt, no turn.
		if f.ErrorClass != "InferenceRejected" || f.Attempts != 1 || f.Turns != 0 {
			t.Fatalf("failure record %+v", f)
		}
	}
	var out, errw bytes.Buffer
	root := newRoot(&out, &errw)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), "status", "all-fail"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "faults   InferenceRejected 4") {
		t.Fatalf("status:\n%s", out.String())
	}
}

func readFailures(t *testing.T, dir string) []schema.Failure {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []schema.Failure
	for _, e := range ents {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r schema.Failure
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		f.Close()
	}
	return out
}

// submit exits non-zero when the failed share is above the spec's
// episode.max_failed_fraction, and zero at or below it.
func TestFailedFractionThreshold(t *testing.T) {
	// Two refusals fail two episodes of four: 50 %.
	stdout, err := refusedJob(t, t.TempDir(), "half-fail", 2, "episode: {max_failed_fraction: 0.4}\n")
	if err == nil || !strings.Contains(err.Error(), "2 of 4 episodes failed (50.0%), above episode.max_failed_fraction 40.0%") {
		t.Fatalf("err %v\n%s", err, stdout)
	}
	stdout, err = refusedJob(t, t.TempDir(), "half-fail", 2, "episode: {max_failed_fraction: 0.5}\n")
	if err != nil || !strings.Contains(stdout, "complete: 4 episodes (2 failed)") {
		t.Fatalf("err %v\n%s", err, stdout)
	}
}
