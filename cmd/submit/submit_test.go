package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

var updateHistories = flag.Bool("update-histories", false, "record the e2e job's workflow histories into workflows/testdata for the replay tests")

// recordHistories saves the e2e job's and its first batch's histories as the
// replay tests' fixtures (workflows/replay_test.go).
func recordHistories(t *testing.T, stateDir string) {
	t.Helper()
	sess, _ := localWorker(t, stateDir)
	defer sess.close()
	for id, file := range map[string]string{"e2e": "history_job.json", "e2e/b00000": "history_batch.json"} {
		saveHistory(t, sess.client, id, file)
	}
}

// saveHistory writes a workflow's history into workflows/testdata.
func saveHistory(t *testing.T, c client.Client, id, file string) {
	t.Helper()
	var h historypb.History
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	b, err := protojson.MarshalOptions{Indent: "  "}.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "workflows", "testdata", file), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// localWorker starts the embedded server on stateDir with a worker in this
// process, as `submit --local` does; the caller closes the session.
// startLocalJob loads the spec at specPath and submits it to a local worker
// on stateDir; the caller closes the session.
func startLocalJob(t *testing.T, specPath, stateDir string) (*session, schema.JobSpec, client.WorkflowRun) {
	t.Helper()
	spec, err := loadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	sess, g := localWorker(t, stateDir)
	run, _, err := startOrAttach(context.Background(), sess.client, g.queue, spec)
	if err != nil {
		sess.close()
		t.Fatal(err)
	}
	return sess, spec, run
}

func localWorker(t *testing.T, stateDir string) (*session, *globals) {
	t.Helper()
	g := &globals{local: true, stateDir: stateDir, queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
	sess, err := connect(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	return sess, g
}

func writeSpec(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readShards(t *testing.T, out, job string) ([]schema.Manifest, []schema.TurnRow, []schema.EpisodeRow) {
	t.Helper()
	ctx := context.Background()
	store, err := blob.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(ctx, store, job)
	if err != nil {
		t.Fatal(err)
	}
	var turns []schema.TurnRow
	var eps []schema.EpisodeRow
	for _, m := range ms {
		for _, f := range m.Files {
			data, err := shard.ReadFile(ctx, store, job, f)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasSuffix(f.Path, ".turns.parquet"):
				rows, err := schema.ReadTurns(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					t.Fatal(err)
				}
				turns = append(turns, rows...)
			case strings.HasSuffix(f.Path, ".episodes.parquet"):
				rows, err := schema.ReadEpisodes(bytes.NewReader(data), int64(len(data)))
				if err != nil {
					t.Fatal(err)
				}
				eps = append(eps, rows...)
			}
		}
	}
	return ms, turns, eps
}

// The README's main command, end to end on the embedded server: a mixture
// with groups of 8, read back and checked.
func TestLocalEndToEnd(t *testing.T) { localEndToEnd(t, *updateHistories) }

// The same suite with the worker's sticky cache off: every workflow task
// replays the history from the start, so any nondeterminism shows.
func TestLocalEndToEndNoStickyCache(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000) // the SDK's default
	localEndToEnd(t, false)
}

func localEndToEnd(t *testing.T, record bool) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, dir, `
job: e2e
seed: 3
envs: [{id: game:GuessTheNumber-v0-hard}, {id: rg:basic_arithmetic, options: {difficulty: 1}}]
tasks: 6
samples_per_task: 8
batch_size: 16
gamma: 0.9
policy: {kind: oracle}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "job e2e complete: 48 episodes (0 failed)") {
		t.Fatalf("summary:\n%s", stdout.String())
	}
	ms, turns, eps := readShards(t, "file://"+out, "e2e")
	if len(ms) != 3 || len(eps) != 48 {
		t.Fatalf("%d shards, %d episodes", len(ms), len(eps))
	}
	groups := map[string][]schema.EpisodeRow{}
	for _, e := range eps {
		groups[e.GroupID] = append(groups[e.GroupID], e)
		if !e.Success || e.GroupSize != 8 {
			t.Fatalf("episode %+v", e)
		}
	}
	for id, g := range groups {
		if len(g) != 8 {
			t.Fatalf("group %s has %d members", id, len(g))
		}
		for _, e := range g {
			if e.TaskID != g[0].TaskID || e.TaskSeed != g[0].TaskSeed || e.EnvID != g[0].EnvID {
				t.Fatalf("group %s mixes tasks: %s vs %s", id, e.TaskID, g[0].TaskID)
			}
		}
	}
	// Returns are discounted rewards-to-go; ReBN advantages are normalised per batch.
	byEpisode := map[string][]schema.TurnRow{}
	perBatch := map[int32][]float64{}
	for _, r := range turns {
		byEpisode[r.EpisodeID] = append(byEpisode[r.EpisodeID], r)
		perBatch[r.Batch] = append(perBatch[r.Batch], r.Advantage)
	}
	for id, rows := range byEpisode {
		g := 0.0
		for i := len(rows) - 1; i >= 0; i-- {
			if rows[i].Turn != int32(i) {
				t.Fatalf("%s: turn %d at %d", id, rows[i].Turn, i)
			}
			g = rows[i].Reward + 0.9*g
			if math.Abs(rows[i].Return-g) > 1e-9 {
				t.Fatalf("%s turn %d: return %v, want %v", id, i, rows[i].Return, g)
			}
		}
	}
	for b, adv := range perBatch {
		var sum float64
		for _, a := range adv {
			sum += a
		}
		if math.Abs(sum/float64(len(adv))) > 1e-9 {
			t.Fatalf("batch %d: mean advantage %v", b, sum/float64(len(adv)))
		}
	}
	if record {
		recordHistories(t, filepath.Join(dir, "state"))
	}
	// Submitting again reports the finished job instead of running it twice.
	stdout.Reset()
	root = newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "already complete") {
		t.Fatalf("resubmission:\n%s", stdout.String())
	}
}

func TestBadSpecsRejectedBeforeSubmission(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ body, want string }{
		{"envs: [{id: game:Nope}]\ntasks: 1\npolicy: {kind: oracle}\n", `unknown env id "game:Nope"`},
		{"envs: [{id: game:Sudoku-v0-easy, options: {scale: 5}}]\ntasks: 1\npolicy: {kind: random}\n", "envs[0].options.scale"},
		{"envs: [{id: game:Sudoku-v0-easy}]\ntasks: 1\npolicy: {kind: oracle}\nbatch_size: 3\nsamples_per_task: 2\n", "batch_size"},
		{"envs: [{id: game:Sudoku-v0-easy}]\ntasks: 1\npolicy: {kind: oracle}\ntypo: 1\n", `unknown field "typo"`},
		{"envs: [{id: game:Sudoku-v0-easy}]\ntasks: 1\npolicy: {kind: oracle}\noutput: " + filepath.Join(dir, "spec.yaml", "x") + "\n", "output"},
	} {
		spec := writeSpec(t, dir, tt.body)
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
		err := root.ExecuteContext(context.Background())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %q", tt.body, err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); err == nil {
		t.Error("a rejected spec started the local server")
	}
}

// submit --local killed with SIGKILL mid-job, then run again, finishes the
// same job with every episode exactly once.
func TestLocalResumeAfterKill(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "submit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, dir, `
job: resume
seed: 11
envs: [{id: game:Sudoku-v0-hard}]
tasks: 96
samples_per_task: 2
batch_size: 16
policy: {kind: oracle}
in_flight: {batches: 1}
output: `+out+`
`)
	args := []string{"--local", "--state-dir", filepath.Join(dir, "state"), spec}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	manifests := filepath.Join(out, "resume", "_manifest")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		n, _ := os.ReadDir(manifests)
		if len(n) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no shard committed within 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(out, "resume", "_SUCCESS")); err == nil {
		t.Fatal("the job finished before the kill; make it longer")
	}
	rerun, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, rerun)
	}
	if !strings.Contains(string(rerun), "attached to running job resume") {
		t.Fatalf("rerun did not resume the job:\n%s", rerun)
	}
	ms, turns, eps := readShards(t, "file://"+out, "resume")
	if len(ms) != 12 || len(eps) != 192 {
		t.Fatalf("%d shards, %d episodes; want 12 and 192", len(ms), len(eps))
	}
	seen := map[string]bool{}
	for _, e := range eps {
		if seen[e.EpisodeID] {
			t.Fatalf("episode %s twice", e.EpisodeID)
		}
		seen[e.EpisodeID] = true
	}
	seenTurn := map[[2]any]bool{}
	for _, r := range turns {
		k := [2]any{r.EpisodeID, r.Turn}
		if seenTurn[k] {
			t.Fatalf("turn %v twice", k)
		}
		seenTurn[k] = true
	}
}

// The random policy end to end, with a weighted mixture and the job's
// max_turns cap below the envs' limits.
func TestLocalRandomPolicy(t *testing.T) { localRandomPolicy(t) }

// The random-policy job with the sticky cache off.
func TestLocalRandomPolicyNoStickyCache(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	localRandomPolicy(t)
}

func localRandomPolicy(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, dir, `
job: rnd
seed: 21
envs: [{id: game:TowerofHanoi-v0-hard, weight: 3}, {id: rg:basic_arithmetic}]
tasks: 8
samples_per_task: 8
batch_size: 32
max_turns: 12
policy: {kind: random}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	_, turns, eps := readShards(t, "file://"+out, "rnd")
	if len(eps) != 64 {
		t.Fatalf("%d episodes", len(eps))
	}
	envs := map[string]int{}
	for _, e := range eps {
		envs[e.EnvID]++
		if e.NumTurns > 12 {
			t.Fatalf("%s played %d turns past the job's cap of 12", e.EpisodeID, e.NumTurns)
		}
		if e.EnvID == "game:TowerofHanoi-v0-hard" && e.StopReason != "max_turns" && !e.Success {
			t.Fatalf("%s stopped by %q", e.EpisodeID, e.StopReason)
		}
	}
	if envs["game:TowerofHanoi-v0-hard"] == 0 || envs["rg:basic_arithmetic"] == 0 {
		t.Fatalf("mixture not drawn: %v", envs)
	}
	for _, r := range turns {
		if r.PolicyModel != "random" || r.TokenSource != "none" || r.ResponseTokenIDs != nil {
			t.Fatalf("random-policy row %+v", r)
		}
	}
}

// Cancelling a running job stops it cleanly: shards already committed stay
// whole, no _SUCCESS is written, and the workflow ends cancelled.
func TestCancelRunningJob(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	path := writeSpec(t, dir, `
job: cancel-me
envs: [{id: game:Sudoku-v0-hard}]
tasks: 400
batch_size: 16
policy: {kind: oracle}
in_flight: {batches: 1}
output: `+out+`
`)
	ctx := context.Background()
	sess, spec, run := startLocalJob(t, path, filepath.Join(dir, "state"))
	defer sess.close()
	deadline := time.Now().Add(time.Minute)
	for {
		if n, _ := os.ReadDir(filepath.Join(out, "cancel-me", "_manifest")); len(n) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no shard committed within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := sess.client.CancelWorkflow(ctx, spec.Job, ""); err != nil {
		t.Fatal(err)
	}
	err := run.Get(ctx, nil)
	if !workflows.IsCanceled(err) {
		t.Fatalf("job ended with %v, want cancelled", err)
	}
	if _, err := os.Stat(filepath.Join(out, "cancel-me", "_SUCCESS")); err == nil {
		t.Fatal("_SUCCESS written for a cancelled job")
	}
	ms, _, eps := readShards(t, "file://"+out, "cancel-me")
	if len(ms) == 0 || len(ms) >= 25 || len(eps) != 16*len(ms) {
		t.Fatalf("%d committed shards with %d episodes", len(ms), len(eps))
	}
}

// A different spec under a running job's id is refused; the same spec attaches.
func TestDifferentSpecRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	body := `
job: same-id
envs: [{id: game:Sudoku-v0-hard}]
tasks: 400
batch_size: 16
policy: {kind: oracle}
in_flight: {batches: 1}
output: ` + out + "\n"
	spec, err := loadSpec(writeSpec(t, dir, body))
	if err != nil {
		t.Fatal(err)
	}
	other, err := loadSpec(writeSpec(t, dir, body+"seed: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess, g := localWorker(t, filepath.Join(dir, "state"))
	defer sess.close()
	if _, attached, err := startOrAttach(ctx, sess.client, g.queue, spec); err != nil || attached {
		t.Fatalf("first submission: attached=%v err=%v", attached, err)
	}
	if _, attached, err := startOrAttach(ctx, sess.client, g.queue, spec); err != nil || !attached {
		t.Fatalf("same spec again: attached=%v err=%v", attached, err)
	}
	if _, _, err := startOrAttach(ctx, sess.client, g.queue, other); err == nil || !strings.Contains(err.Error(), "exists with a different spec") {
		t.Fatalf("different spec: err %v", err)
	}
	if err := sess.client.CancelWorkflow(ctx, spec.Job, ""); err != nil {
		t.Fatal(err)
	}
}

// endpointJobSpec writes a GuessTheNumber-v0-hard job of tasks × 2 episodes
// against endpoint, asking for logprobs and token ids, with its output in
// dir/out.
func endpointJobSpec(t *testing.T, dir, job string, seed, tasks int, endpoint, sampling string) string {
	t.Helper()
	return writeSpec(t, dir, fmt.Sprintf(`
job: %s
seed: %d
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: %d
samples_per_task: 2
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    sampling: %s
    extra_body: {return_token_ids: true}
output: %s
`, job, seed, tasks, endpoint, openaitest.DefaultModel, sampling, filepath.Join(dir, "out")))
}

// submitLocal runs `submit --local spec` to the end and returns what it
// printed; a failed job fails the test.
func submitLocal(t *testing.T, dir, spec string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	return stdout.String()
}
