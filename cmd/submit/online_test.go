package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
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
	// announce is called with the next version before the ack; onBatch
	// when batch n is committed.
	announce func(version string)
	onBatch  func(n int)
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
		if g.onBatch != nil {
			g.onBatch(n)
		}
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

// startLocal runs `submit --local spec` in the background; its output
// arrives on the channel when the job ends. The context bounds the test's
// waits.
func startLocal(t *testing.T, dir, spec string) (context.Context, <-chan localRun) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	done := make(chan localRun, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
		err := root.ExecuteContext(context.Background())
		if err != nil {
			cancel() // the trainer stops waiting
		}
		done <- localRun{out: stdout.String() + stderr.String(), err: err}
	}()
	return ctx, done
}

// localRun is how a background `submit --local` ended.
type localRun struct {
	out string
	err error
}

// wait is the run's output; a failed run fails the test.
func (r localRun) wait(t *testing.T) string {
	t.Helper()
	if r.err != nil {
		t.Fatalf("submit --local: %v\n%s", r.err, r.out)
	}
	return r.out
}

// announceLocal announces a version through `submit --local policy`.
func announceLocal(t *testing.T, dir, job string) func(string) {
	return func(v string) {
		if err := announce(dir, job, v); err != nil {
			t.Errorf("policy %s: %v", v, err)
		}
	}
}

// announce runs `submit --local policy job --version v [args…]`.
func announce(dir, job, v string, args ...string) error {
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs(append([]string{"--local", "--state-dir", filepath.Join(dir, "state"), "policy", job, "--version", v}, args...))
	if err := root.ExecuteContext(context.Background()); err != nil {
		return fmt.Errorf("%w\n%s", err, stderr.String())
	}
	return nil
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
	ctx, done := startLocal(t, dir, spec)
	tr := &goTrainer{t: t, dir: dir, job: "online-async", name: "trainer", train: 200 * time.Millisecond,
		announce: announceLocal(t, dir, "online-async")}
	if *updateHistories {
		// Replay fixtures of an online job (workflows/replay_test.go): the
		// job so far, a committed batch and one of its episodes, which
		// heard of new versions while they ran.
		tr.onBatch = func(n int) {
			if n != 3 {
				return
			}
			sess, err := manage(ctx, &globals{local: true, stateDir: filepath.Join(dir, "state"), out: io.Discard, err: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			defer sess.close()
			for id, file := range map[string]string{"online-async": "history_job_online.json",
				"online-async/b00003": "history_batch_online.json", "online-async/b00003/e0000": "history_episode_online.json"} {
				saveHistory(t, sess.client, id, file)
			}
		}
	}
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
	out := (<-done).wait(t)
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

// tail is the last n bytes of s.
func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// trainerState is trainer_loop.py's checkpoint.
type trainerState struct {
	NextBatch int `json:"next_batch"`
	Trained   []struct {
		Batch    int      `json:"batch"`
		Versions []string `json:"versions"`
		TurnRows int      `json:"turn_rows"`
		Ready    bool     `json:"ready"`
	} `json:"trained"`
}

func readTrainer(path string) trainerState {
	var s trainerState
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &s)
	}
	return s
}

// waitFor polls cond every 20 ms until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// servedTag reads the weights version the test server wrote into an
// action ("[weights vK]").
var servedTag = regexp.MustCompile(`\[weights v(\d+)\]`)

// The online loop end to end, as the issue asks: `submit --local` runs an
// online job against a test server whose weights have versions; a trainer
// process (clients/python's trainer_loop.py) consumes batches through the
// object-store protocol, "trains", swaps the server's weights (with a 404
// window) and announces each new version through `submit policy`. The
// trainer is SIGKILLed and restarted, and so is `submit --local`.
func TestOnlineTrainerLoopSurvivesKills(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithLatency(20*time.Millisecond),
		openaitest.WithVersionedPolicy(func(version string, msgs []openaitest.Message) string {
			return "[weights " + version + "] " + bisect(msgs)
		}))
	dir := t.TempDir()
	bin := filepath.Join(dir, "submit")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	const job, steps, ahead, lag = "online-e2e", 8, 2, 1
	spec := onlineSpec(t, dir, job, srv.BaseURL(), fmt.Sprintf(`
  steps: %d
  consumers: [trainer]
  max_batches_ahead: %d
  max_version_lag: %d`, steps, ahead, lag))
	state := filepath.Join(dir, "state")
	out := filepath.Join(dir, "out")
	logs, err := os.Create(filepath.Join(dir, "logs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(logs.Name())
			t.Logf("submit and trainer output:\n%s", tail(string(b), 4000))
		}
	}()
	startSubmit := func() *exec.Cmd {
		cmd := exec.Command(bin, "--local", "--state-dir", state, spec)
		cmd.Stdout, cmd.Stderr = logs, logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	ckpt := filepath.Join(dir, "trainer.json")
	startTrainer := func() *exec.Cmd {
		cmd := exec.Command("python3", filepath.Join("..", "..", "clients", "python", "examples", "trainer_loop.py"),
			"--output", out, "--job", job, "--consumer", "trainer", "--steps", strconv.Itoa(steps),
			"--train-seconds", "0.3", "--checkpoint", ckpt, "--skip-last-announce", "--announce-retries", "40",
			"--submit-cmd", bin+" --local --state-dir "+state,
			"--weights-url", srv.URL+"/admin/weights", "--weights-extra", `{"unavailable_ms": 300, "status": 404}`)
		cmd.Stdout, cmd.Stderr = logs, logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	sub := startSubmit()
	defer func() { _ = sub.Process.Kill(); _, _ = sub.Process.Wait() }()
	tr := startTrainer()
	defer func() { _ = tr.Process.Kill(); _, _ = tr.Process.Wait() }()

	// A watcher checks the bound at every look: committed batches never
	// run more than max_batches_ahead past the trainer's cursor.
	store, err := blob.Open(context.Background(), "file://"+out)
	if err != nil {
		t.Fatal(err)
	}
	committed := func() int {
		n := 0
		for ; ; n++ {
			if _, err := store.Stat(context.Background(), schema.ShardKeys(job, n).Manifest); err != nil {
				return n
			}
		}
	}
	cursor := func() int {
		n, err := online.Slowest(context.Background(), store, job, []string{"trainer"})
		if err != nil {
			t.Error(err)
		}
		return n
	}
	stopWatch := make(chan struct{})
	watched := make(chan int)
	go func() {
		worst := 0
		for {
			select {
			case <-stopWatch:
				watched <- worst
				return
			case <-time.After(10 * time.Millisecond):
			}
			c := cursor() // read first: it only grows
			worst = max(worst, committed()-c)
		}
	}()

	// Kill the trainer after two batches: the job pauses at the bound.
	waitFor(t, "the trainer trains 2 batches", 2*time.Minute, func() bool { return len(readTrainer(ckpt).Trained) >= 2 })
	_ = tr.Process.Signal(syscall.SIGKILL)
	_, _ = tr.Process.Wait()
	status := func() workflows.Progress {
		var p workflows.Progress
		b, err := exec.Command(bin, "--local", "--state-dir", state, "status", "--json", job).Output()
		if err == nil {
			_ = json.Unmarshal(b, &p)
		}
		return p
	}
	// The batches in flight commit; then nothing starts (the watcher
	// checks nothing more commits).
	waitFor(t, "max_batches_ahead batches committed and unread", time.Minute, func() bool { return committed() == cursor()+ahead })
	waitFor(t, "the job says it waits for its consumer", time.Minute, func() bool {
		p := status()
		return p.Online != nil && p.Online.Waiting == "consumers" && p.BatchesInFlight == 0
	})
	// The trainer comes back; after two more batches `submit --local` is
	// killed and restarted.
	tr = startTrainer()
	waitFor(t, "the trainer trains 4 batches", 2*time.Minute, func() bool { return len(readTrainer(ckpt).Trained) >= 4 })
	_ = sub.Process.Signal(syscall.SIGKILL)
	_, _ = sub.Process.Wait()
	sub = startSubmit()
	if err := sub.Wait(); err != nil {
		t.Fatalf("the resumed submit --local: %v", err)
	}
	if err := tr.Wait(); err != nil {
		t.Fatalf("the trainer: %v", err)
	}
	close(stopWatch)
	if worst := <-watched; worst > ahead {
		t.Errorf("at one look %d committed batches were unread: want at most max_batches_ahead %d", worst, ahead)
	}

	// Every batch was trained exactly once, in order.
	st := readTrainer(ckpt)
	if len(st.Trained) != steps {
		t.Fatalf("trained %d batches, want %d", len(st.Trained), steps)
	}
	ready := 0
	for i, b := range st.Trained {
		if b.Batch != i {
			t.Fatalf("trained batches %+v: want 0..%d once each, in order", st.Trained, steps-1)
		}
		if b.Ready && i < 2 {
			ready++
		}
	}
	if ready == 0 {
		t.Errorf("no early batch was committed before the trainer asked for it: generation did not overlap training")
	}
	ms, turns, eps := readShards(t, "file://"+out, job)
	if len(ms) != steps {
		t.Fatalf("%d shards, want %d", len(ms), steps)
	}
	seen := map[[2]any]bool{}
	for _, r := range turns {
		k := [2]any{r.EpisodeID, r.Turn}
		if seen[k] {
			t.Fatalf("turn %v twice", k)
		}
		seen[k] = true
		step, err := strconv.Atoi(strings.TrimPrefix(*r.PolicyVersion, "v"))
		if err != nil {
			t.Fatalf("policy_version %q", *r.PolicyVersion)
		}
		if cur := ms[r.Batch].Policy.Current.Step; step < cur-lag {
			t.Errorf("batch %d: turn %s/%d by %s, the job at step %d: beyond max_version_lag", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion, cur)
		}
		// Announced after the servers served it: the weights that served a
		// turn are never older than the version it records.
		m := servedTag.FindStringSubmatch(r.Action)
		if served, _ := strconv.Atoi(m[1]); m == nil || served < step {
			t.Errorf("turn %s/%d records %s but was served by %q", r.EpisodeID, r.Turn, *r.PolicyVersion, r.Action)
		}
		if f := r.LastFault; f != nil && (*f == "ModelNotFound" || *f == "ServerError" || *f == "Unreachable") {
			t.Errorf("turn %s/%d counts the weight swap as a fault: %s", r.EpisodeID, r.Turn, *f)
		}
	}
	if len(eps) != steps*4 {
		t.Errorf("%d episodes delivered, want %d (none failed)", len(eps), steps*4)
	}
}

// A sync job is on-policy: batch k is generated only after the trainer
// announced v<k>, and every one of its turns says so.
func TestOnlineSyncModeWaitsForEachVersion(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(20*time.Millisecond))
	dir := t.TempDir()
	const steps = 3
	spec := onlineSpec(t, dir, "online-sync", srv.BaseURL(), fmt.Sprintf(`
  mode: sync
  steps: %d`, steps))
	ctx, done := startLocal(t, dir, spec)
	tr := &goTrainer{t: t, dir: dir, job: "online-sync", name: "trainer", train: 300 * time.Millisecond,
		announce: announceLocal(t, dir, "online-sync")}
	if err := tr.run(ctx, steps); err != nil {
		t.Fatal(err)
	}
	(<-done).wait(t)
	ms, turns, _ := readShards(t, "file://"+filepath.Join(dir, "out"), "online-sync")
	if len(ms) != steps {
		t.Fatalf("%d shards, want %d", len(ms), steps)
	}
	for _, r := range turns {
		if want := "v" + strconv.Itoa(int(r.Batch)); *r.PolicyVersion != want {
			t.Errorf("batch %d turn %s/%d by %s: a sync batch k is generated by v<k> only", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion)
		}
	}
	for k, m := range ms {
		if len(m.Policy.Versions) != 1 || m.Policy.Versions[0].Step != k {
			t.Errorf("manifest %d policy %+v: want one version, step %d", k, m.Policy, k)
		}
	}
}

// noisyOnline runs an online job while an announcer publishes versions
// v1…v<n> 150 ms apart from the job's start, faster than an episode plays,
// and returns what the job committed.
func noisyOnline(t *testing.T, job, online string, n int) ([]schema.Manifest, []schema.TurnRow, []schema.Failure) {
	t.Helper()
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(60*time.Millisecond))
	dir := t.TempDir()
	spec := onlineSpec(t, dir, job, srv.BaseURL(), online)
	announced := make(chan int)
	go func() {
		ok := 0
		for v := 1; v <= n; {
			if announce(dir, job, "v"+strconv.Itoa(v)) != nil {
				time.Sleep(20 * time.Millisecond) // the job is not there yet: poll
				continue
			}
			ok++
			v++
			time.Sleep(150 * time.Millisecond) // the announcer's pace, not synchronisation
		}
		announced <- ok
	}()
	submitLocal(t, dir, spec)
	if ok := <-announced; ok != n {
		t.Fatalf("%d of %d announcements went through", ok, n)
	}
	ms, turns, _ := readShards(t, "file://"+filepath.Join(dir, "out"), job)
	store, err := blob.Open(context.Background(), "file://"+filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	var failures []schema.Failure
	for _, m := range ms {
		fs, err := shard.Failures(context.Background(), store, m)
		if err != nil {
			t.Fatal(err)
		}
		failures = append(failures, fs...)
	}
	return ms, turns, failures
}

// stepOf is a "v<k>" label's step.
func stepOf(t *testing.T, r schema.TurnRow) int {
	t.Helper()
	k, err := strconv.Atoi(strings.TrimPrefix(*r.PolicyVersion, "v"))
	if err != nil {
		t.Fatalf("policy_version %q", *r.PolicyVersion)
	}
	return k
}

// With max_version_lag 0, an episode any of whose turns is older than the
// version live at commit is played again (its rows come from the new
// generation) or, past episode.max_attempts regenerations, dropped as
// StalePolicy.
func TestOnlineStaleEpisodesRegenerated(t *testing.T) {
	ms, turns, failures := noisyOnline(t, "online-stale", `
  steps: 2
  max_version_lag: 0`, 4)
	regenerated := 0
	for _, r := range turns {
		if cur := ms[r.Batch].Policy.Current.Step; stepOf(t, r) != cur {
			t.Errorf("batch %d turn %s/%d by %s, the job at step %d: lag 0 delivers only the live version", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion, cur)
		}
		if r.Attempt >= 10_000_000 {
			regenerated++
		}
	}
	for _, f := range failures {
		if f.ErrorClass != schema.ClassStalePolicy {
			t.Errorf("failure %+v: want only %s", f, schema.ClassStalePolicy)
		}
	}
	if regenerated == 0 {
		t.Errorf("no delivered turn comes from a regenerated episode (%d turns, %d dropped)", len(turns), len(failures))
	}
}

// stale: drop sends stale episodes to _failures instead of playing them again.
func TestOnlineStaleEpisodesDropped(t *testing.T) {
	ms, turns, failures := noisyOnline(t, "online-drop", `
  steps: 3
  max_version_lag: 0
  stale: drop
episode: {max_failed_fraction: 1}`, 3)
	for _, r := range turns {
		if cur := ms[r.Batch].Policy.Current.Step; stepOf(t, r) != cur {
			t.Errorf("batch %d turn %s/%d by %s, the job at step %d", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion, cur)
		}
		if r.Attempt >= 10_000_000 {
			t.Errorf("turn %s/%d was regenerated under stale: drop", r.EpisodeID, r.Turn)
		}
	}
	if len(failures) == 0 {
		t.Fatal("no episode was dropped as stale")
	}
	for _, f := range failures {
		if f.ErrorClass != schema.ClassStalePolicy || f.Attempts != 1 {
			t.Errorf("failure %+v: want %s after 1 attempt", f, schema.ClassStalePolicy)
		}
	}
}

// partial_rollouts: false: an episode whose version changed under it
// starts over, so every delivered episode was played by one version.
func TestOnlinePartialRolloutsForbidden(t *testing.T) {
	_, turns, failures := noisyOnline(t, "online-whole", `
  steps: 2
  partial_rollouts: false`, 4)
	first := map[string]string{}
	restarted := 0
	for _, r := range turns {
		if v, ok := first[r.EpisodeID]; ok && v != *r.PolicyVersion {
			t.Errorf("episode %s spans %s and %s", r.EpisodeID, v, *r.PolicyVersion)
		}
		first[r.EpisodeID] = *r.PolicyVersion
		if r.Attempt > 1000 {
			restarted++
		}
	}
	if restarted == 0 {
		t.Errorf("no episode started over (%d turns)", len(turns))
	}
	if len(failures) != 0 {
		t.Errorf("failures %+v", failures)
	}
}

// A sync job that aborts on new versions cancels the batch's episodes when
// one is announced and plays them again: nothing generated by the old
// weights is delivered, and the next batch waits for a version newer
// still.
func TestOnlineSyncAbortOnNewVersion(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(60*time.Millisecond))
	dir := t.TempDir()
	const job = "online-abort"
	spec := onlineSpec(t, dir, job, srv.BaseURL(), `
  mode: sync
  steps: 2
  on_new_version: abort`)
	ctx, done := startLocal(t, dir, spec)
	// Mid-batch 0 (once its first turns are served), v1 arrives.
	waitFor(t, "batch 0 is generating", time.Minute, func() bool { return srv.ChatCount() >= 2 })
	announceLocal(t, dir, job)("v1")
	tr := &goTrainer{t: t, dir: dir, job: job, name: "trainer", announce: func(string) { announceLocal(t, dir, job)("v2") }}
	if err := tr.run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	(<-done).wait(t)
	ms, turns, _ := readShards(t, "file://"+filepath.Join(dir, "out"), job)
	aborted := 0
	for _, r := range turns {
		if want := int(r.Batch) + 1; stepOf(t, r) != want {
			t.Errorf("batch %d turn %s/%d by %s, want v%d", r.Batch, r.EpisodeID, r.Turn, *r.PolicyVersion, want)
		}
		if r.Attempt >= 10_000_000 {
			aborted++
		}
	}
	if aborted == 0 {
		t.Errorf("no delivered turn was played again after the abort")
	}
	if len(ms) != 2 || ms[0].FailedEpisodes+ms[1].FailedEpisodes != 0 {
		t.Errorf("manifests %+v", ms)
	}
}

// A trainer that serves new weights under a new model name announces it
// with --model: the job asks for that name from then on, and the swap's 404
// window costs no episode.
func TestOnlineNewModelName(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(20*time.Millisecond))
	dir := t.TempDir()
	const job = "online-rename"
	spec := onlineSpec(t, dir, job, srv.BaseURL(), `
  mode: sync
  steps: 2`)
	ctx, done := startLocal(t, dir, spec)
	tr := &goTrainer{t: t, dir: dir, job: job, name: "trainer", announce: func(v string) {
		if err := srv.SwapWeights(v, openaitest.SwapOptions{Unavailable: 300 * time.Millisecond, Status: 404, Model: "policy-" + v}); err != nil {
			t.Error(err)
		}
		if err := announce(dir, job, v, "--model", "policy-"+v); err != nil {
			t.Errorf("policy %s: %v", v, err)
		}
	}}
	if err := tr.run(ctx, 2); err != nil {
		t.Fatal(err)
	}
	(<-done).wait(t)
	ms, turns, _ := readShards(t, "file://"+filepath.Join(dir, "out"), job)
	for _, r := range turns {
		want := map[int32]string{0: openaitest.DefaultModel, 1: "policy-v1"}[r.Batch]
		if r.PolicyModel != want {
			t.Errorf("batch %d turn %s/%d asked for %q, want %q", r.Batch, r.EpisodeID, r.Turn, r.PolicyModel, want)
		}
	}
	if len(ms) != 2 || ms[1].FailedEpisodes != 0 || ms[1].Policy.Current.Model != "policy-v1" {
		t.Fatalf("manifests %+v", ms)
	}
}

// An online job without steps runs until it is cancelled; it never writes
// _SUCCESS, and never runs further ahead than its consumer allows.
func TestOnlineOpenEndedUntilCancelled(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(20*time.Millisecond))
	dir := t.TempDir()
	const job = "online-open"
	spec := onlineSpec(t, dir, job, srv.BaseURL(), `
  consumers: [trainer]
  max_batches_ahead: 1`)
	ctx, done := startLocal(t, dir, spec)
	tr := &goTrainer{t: t, dir: dir, job: job, name: "trainer"}
	if err := tr.run(ctx, 3); err != nil {
		t.Fatal(err)
	}
	store, err := blob.Open(ctx, "file://"+filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waitManifest(ctx, store, job, 3); err != nil {
		t.Fatal(err) // the fourth batch: one ahead of the trainer
	}
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), "cancel", job})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("cancel: %v\n%s", err, stderr.String())
	}
	r := <-done
	if r.err == nil || !strings.Contains(r.err.Error(), "cancel") {
		t.Fatalf("the cancelled job ended with %v", r.err)
	}
	ms, _, _ := readShards(t, "file://"+filepath.Join(dir, "out"), job)
	if len(ms) != 4 {
		t.Errorf("%d batches committed with the trainer at 3 and max_batches_ahead 1: want 4", len(ms))
	}
	if _, err := os.Stat(filepath.Join(dir, "out", job, "_SUCCESS")); err == nil {
		t.Error("an open-ended job wrote _SUCCESS")
	}
}
