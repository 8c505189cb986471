package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

// These tests run the real worker binary against an embedded Temporal
// server and kill it — at named points through QUARRY_TEST_CRASH, at random
// moments with SIGKILL, gracefully with SIGTERM — then read the output back
// as a consumer would. Every test's jobs run on a task queue of their own,
// so a worker only ever sees its own test's tasks and the tests can share
// one server and one binary.

var (
	binDir    string
	buildOnce sync.Once
	workerBin string
	buildErr  error

	serverOnce sync.Once
	server     *localserver.Server
	serverErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if server != nil {
		server.Stop()
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// workerBinary builds this package's binary once for all tests.
func workerBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "quarry-worker-test-"); buildErr != nil {
			return
		}
		workerBin = filepath.Join(binDir, "worker")
		if out, err := exec.Command("go", "build", "-o", workerBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return workerBin
}

// temporalClient starts the shared in-memory server once and dials it.
func temporalClient(t *testing.T) client.Client {
	t.Helper()
	serverOnce.Do(func() { server, serverErr = localserver.Start(localserver.Options{}) })
	if serverErr != nil {
		t.Fatal(serverErr)
	}
	c, err := client.Dial(client.Options{
		HostPort: server.HostPort(), Namespace: server.Namespace(),
		Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// syncBuffer collects a worker's output while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// workerProc is one `worker` process.
type workerProc struct {
	name string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{} // closed once the process has exited and been reaped
}

// startWorker runs the worker binary on queue with extra environment
// variables; it is SIGKILLed at the end of the test if still running.
func startWorker(t *testing.T, name, queue string, env []string, args ...string) *workerProc {
	t.Helper()
	bin := workerBinary(t)
	temporalClient(t) // the server is up
	cmd := exec.Command(bin, append([]string{
		"--address", server.HostPort(), "--namespace", server.Namespace(), "--task-queue", queue,
	}, args...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, crashEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	w := &workerProc{name: name, cmd: cmd, log: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = w.log, w.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(w.done)
	}()
	t.Cleanup(func() {
		w.kill()
		if t.Failed() {
			t.Logf("worker %s (pid %d) output, last 3 kB:\n%s", w.name, cmd.Process.Pid, tail(w.log.String(), 3000))
		}
	})
	return w
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// kill SIGKILLs the process (if it still runs) and reaps it.
func (w *workerProc) kill() {
	_ = w.cmd.Process.Signal(syscall.SIGKILL)
	<-w.done
}

// wait waits up to d for the process to exit and returns its exit code, or
// false when it is still running.
func (w *workerProc) wait(d time.Duration) (int, bool) {
	select {
	case <-w.done:
		return w.cmd.ProcessState.ExitCode(), true
	case <-time.After(d):
		return 0, false
	}
}

// parseSpec parses, defaults and validates a spec writing to a fresh folder.
func parseSpec(t *testing.T, yaml string) schema.JobSpec {
	t.Helper()
	s, err := schema.ParseJobSpec([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	s.Output = "file://" + t.TempDir()
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// endpointSpec is a GuessTheNumber-hard job played by srv's bisecting
// policy: 4 to 6 turns an episode, each a Generate activity and an Act.
// Timeouts are short so activities lost in a kill come back within seconds:
// Generate's start-to-close is 4 × request_timeout.
func endpointSpec(t *testing.T, job string, srv *openaitest.Server, tasks, batch int, requestTimeout string) schema.JobSpec {
	return parseSpec(t, fmt.Sprintf(`
job: %s
seed: 9
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: %d
samples_per_task: 4
batch_size: %d
episode: {timeout: 5m}
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    sampling: {max_tokens: 64, logprobs: true}
    extra_body: {return_token_ids: true}
    request_timeout: %s
`, job, tasks, batch, srv.BaseURL(), openaitest.DefaultModel, requestTimeout))
}

// oracleSpec is a local-policy job: whole episodes inside heartbeating
// RunEpisodes activities of 32.
func oracleSpec(t *testing.T, job, env string, tasks, batch, batchesInFlight int) schema.JobSpec {
	return parseSpec(t, fmt.Sprintf(`
job: %s
seed: 5
envs: [{id: %s}]
tasks: %d
samples_per_task: 2
batch_size: %d
episode: {timeout: 5m}
policy: {kind: oracle}
in_flight: {batches: %d}
`, job, env, tasks, batch, batchesInFlight))
}

var hint = regexp.MustCompile(`you guessed (\d+), and the target number is (higher|lower)`)

// bisect is cmd/submit's scripted policy for GuessTheNumber-hard (1..50) —
// it reads the hints and guesses the middle of what is left — with every
// reply numbered, so each turn row traces back to exactly one response the
// server sent.
type bisect struct{ n atomic.Int64 }

func (b *bisect) reply(msgs []openaitest.Message) string {
	lo, hi := 1, 50
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		for _, h := range hint.FindAllStringSubmatch(m.Content, -1) {
			g, _ := strconv.Atoi(h[1])
			if h[2] == "higher" {
				lo = max(lo, g+1)
			} else {
				hi = min(hi, g-1)
			}
		}
	}
	return fmt.Sprintf("Reply %d. Let me bisect the range. My guess is \\boxed{%d}", b.n.Add(1), (lo+hi)/2)
}

var codeResult = regexp.MustCompile(`Code execution result: (\d+)`)

// pythonReply plays GuessTheNumber-hard with the python tool, numbering
// every reply as bisect does: it asks python for the middle of the range,
// then guesses what python printed.
func (b *bisect) pythonReply(msgs []openaitest.Message) string {
	if last := msgs[len(msgs)-1]; last.Role == "tool" {
		if m := codeResult.FindStringSubmatch(last.Content); m != nil {
			return fmt.Sprintf("Reply %d. Python says %s. \\boxed{%s}", b.n.Add(1), m[1], m[1])
		}
	}
	uses := 0
	for _, m := range msgs {
		if m.Role == "tool" {
			uses++
		}
	}
	if uses >= 5 {
		return b.reply(msgs)
	}
	guess := b.reply(msgs) // "Reply n. … \boxed{g}"
	g := guess[strings.LastIndex(guess, "{")+1 : len(guess)-1]
	return fmt.Sprintf("Reply %d. <python>print(%s)</python>", b.n.Add(1), g)
}

// toolSpec is endpointSpec with the python_tool preset.
func toolSpec(t *testing.T, job string, srv *openaitest.Server, tasks, batch int) schema.JobSpec {
	s := endpointSpec(t, job, srv, tasks, batch, "2s")
	s.Tools = &schema.ToolsSpec{Preset: "python_tool"}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func startPolicy(t *testing.T, opts ...openaitest.Option) *openaitest.Server {
	return openaitest.Start(t, append([]openaitest.Option{openaitest.WithPolicy(new(bisect).reply)}, opts...)...)
}

func submit(t *testing.T, c client.Client, queue string, spec schema.JobSpec) client.WorkflowRun {
	t.Helper()
	run, err := c.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{ID: spec.Job, TaskQueue: queue},
		workflows.JobWorkflowName, workflows.JobInput{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

func waitJob(t *testing.T, run client.WorkflowRun, d time.Duration) workflows.Progress {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var p workflows.Progress
	if err := run.Get(ctx, &p); err != nil {
		t.Fatalf("job %s: %v", run.GetID(), err)
	}
	if !p.Done {
		t.Fatalf("job %s ended without finishing: %+v", run.GetID(), p)
	}
	return p
}

// turnLogObjects lists the objects left in a job's turn log.
func turnLogObjects(t *testing.T, spec schema.JobSpec) []blob.Info {
	t.Helper()
	store, err := blob.Open(context.Background(), spec.Output, blob.WithoutAutoCleanup())
	if err != nil {
		t.Fatal(err)
	}
	infos, err := store.List(context.Background(), schema.JobTurnPrefix(spec.Job))
	if err != nil {
		t.Fatal(err)
	}
	return infos
}

func jobDir(spec schema.JobSpec) string {
	return filepath.Join(strings.TrimPrefix(spec.Output, "file://"), spec.Job)
}

func complete(spec schema.JobSpec) bool {
	_, err := os.Stat(filepath.Join(jobDir(spec), "_SUCCESS"))
	return err == nil
}

// waitFor polls cond every 20 ms for up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// replyText is the assistant message of a chat completion the server sent.
func replyText(r openaitest.Record) (string, error) {
	var resp struct {
		Choices []struct {
			Message struct{ Content string }
		}
	}
	if err := json.Unmarshal(r.Response, &resp); err != nil || len(resp.Choices) != 1 {
		return "", fmt.Errorf("response %d: %d choices, %v", r.Seq, len(resp.Choices), err)
	}
	return resp.Choices[0].Message.Content, nil
}

// replies returns the text of every successful chat completion srv sent,
// with how many times it was sent.
func replies(t *testing.T, srv *openaitest.Server) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, r := range srv.ChatRecords() {
		if r.Status != 200 || r.Fault != openaitest.FaultNone {
			continue
		}
		text, err := replyText(r)
		if err != nil {
			t.Fatal(err)
		}
		out[text]++
	}
	return out
}

// checkExactlyOnce reads a finished job's output as a consumer would and
// checks that it holds every planned episode exactly once: one manifest per
// batch, every file it lists present with its size and checksum, no data
// file that no manifest lists, each episode id once, each (episode, turn)
// once and contiguous, and — for an endpoint policy (srv not nil) — every
// turn's action one response the server really sent, used by no other row.
// It returns the rows.
func checkExactlyOnce(t *testing.T, spec schema.JobSpec, srv *openaitest.Server) ([]schema.TurnRow, []schema.EpisodeRow) {
	t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join(jobDir(spec), "_SUCCESS"))
	if err != nil {
		t.Fatal(err)
	}
	success, err := schema.UnmarshalSuccess(data)
	if err != nil {
		t.Fatal(err)
	}
	store, err := blob.Open(ctx, spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(ctx, store, spec.Job)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != spec.Batches() {
		t.Fatalf("%d manifests for %d batches", len(ms), spec.Batches())
	}
	listed := map[string]bool{}
	var turns []schema.TurnRow
	var eps []schema.EpisodeRow
	for i, m := range ms {
		if m.Batch != i {
			t.Fatalf("manifest %d is batch %d", i, m.Batch)
		}
		if m.FailedEpisodes != 0 {
			t.Errorf("batch %d: %d episodes failed", m.Batch, m.FailedEpisodes)
		}
		for _, f := range m.Files {
			listed[f.Path] = true
			data, err := shard.ReadFile(ctx, store, spec.Job, f) // checks size and SHA-256
			if err != nil {
				t.Fatalf("batch %d: %v", m.Batch, err)
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
	// Every object under shards/ and _failures/ belongs to a commit. (A
	// writer killed mid-write may leave a temporary file, which List, like
	// every reader and a *.parquet glob, never sees; blob.Open sweeps it
	// once stale.)
	for _, dir := range []string{"shards/", "_failures/"} {
		infos, err := store.List(ctx, spec.Job+"/"+dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			if rel := schema.RelKey(spec.Job, info.Key); !listed[rel] {
				t.Errorf("%s is in no manifest: an uncommitted or torn file", rel)
			}
		}
	}

	planned := map[string]bool{}
	for b := range spec.Batches() {
		for _, s := range spec.BatchSlots(b) {
			planned[schema.EpisodeID(spec.Job, s.Batch, s.Episode)] = true
		}
	}
	if len(planned) != spec.Tasks*spec.SamplesPerTask {
		t.Fatalf("the plan has %d episodes, the spec %d", len(planned), spec.Tasks*spec.SamplesPerTask)
	}
	byID := map[string]schema.EpisodeRow{}
	for _, e := range eps {
		switch {
		case !planned[e.EpisodeID]:
			t.Errorf("episode %s was never planned", e.EpisodeID)
		case byID[e.EpisodeID].EpisodeID != "":
			t.Errorf("episode %s appears twice", e.EpisodeID)
		case !e.Success:
			t.Errorf("episode %s: the policy solves every task, but it did not succeed (%s)", e.EpisodeID, e.StopReason)
		}
		byID[e.EpisodeID] = e
	}
	if len(eps) != len(planned) || len(byID) != len(planned) {
		t.Errorf("%d episode rows (%d distinct) for %d planned episodes", len(eps), len(byID), len(planned))
	}
	type turnKey struct {
		episode string
		turn    int32
	}
	seen := map[turnKey]bool{}
	for _, r := range turns {
		k := turnKey{r.EpisodeID, r.Turn}
		if seen[k] {
			t.Errorf("turn %s/%d appears twice", r.EpisodeID, r.Turn)
		}
		seen[k] = true
	}
	for id, e := range byID {
		for turn := range e.NumTurns {
			if !seen[turnKey{id, turn}] {
				t.Errorf("episode %s: turn %d of %d is missing", id, turn, e.NumTurns)
			}
		}
	}
	if len(seen) != len(turns) || int64(len(turns)) != success.TurnRows || success.EpisodeRows != int64(len(planned)) {
		t.Errorf("%d turn rows (%d distinct), _SUCCESS says %d turns and %d episodes", len(turns), len(seen), success.TurnRows, success.EpisodeRows)
	}

	if srv != nil {
		sent := replies(t, srv)
		used := map[string]string{}
		for _, r := range turns {
			id := fmt.Sprintf("%s/%d", r.EpisodeID, r.Turn)
			if n := sent[r.Action]; n != 1 {
				t.Errorf("turn %s: action %q was sent %d times by the server, want once", id, r.Action, n)
			}
			if other, ok := used[r.Action]; ok {
				t.Errorf("turns %s and %s carry the same response %q", other, id, r.Action)
			}
			used[r.Action] = id
			if want := openaitest.Tokenize(r.Action); !slices.Equal(r.ResponseTokenIDs, want) {
				t.Errorf("turn %s: response ids %v, the server sent %v", id, r.ResponseTokenIDs, want)
			}
		}
	}
	return turns, eps
}

func TestCrashHookSpec(t *testing.T) {
	hook, err := crashHook("generate:after-response@3, shard:after-turns")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		hook("generate:after-response") // armed for the third time only
		hook("act:after-record")        // not armed
	}
	for _, bad := range []string{"generate:after-responce@1", "act:after-record@0", "act:after-record@x", ""} {
		if _, err := crashHook(bad); err == nil || !strings.Contains(err.Error(), crashEnv) {
			t.Errorf("%q: err %v, want an error naming %s", bad, err, crashEnv)
		}
	}
}

// A worker killed at each named point — after an inference response but
// before its record, after a record but before the activity returns, after
// a local-policy bundle, between WriteShard's writes — is replaced by a
// fresh one, and the job completes with every episode exactly once.
func TestCrashPoints(t *testing.T) {
	t.Parallel()
	c := temporalClient(t)
	type crashRun struct {
		point string
		at    int
		// lostResponse: the crash throws away a response the server sent,
		// which must then be in no row.
		lostResponse bool
		spec         schema.JobSpec
		srv          *openaitest.Server // nil for the oracle policy
		args         []string           // worker flags (the sandbox of tool jobs)
		sandboxDir   string
		uids         []int
		run          client.WorkflowRun
		armed        *workerProc
		err          error
	}
	runs := []*crashRun{
		{point: "generate:after-response", at: 5, lostResponse: true},
		{point: "generate:after-record", at: 5, lostResponse: true},
		{point: "act:after-record", at: 5},
		{point: "runepisodes:after-bundle", at: 3},
		{point: "shard:after-turns", at: 1},
		{point: "shard:before-manifest", at: 1},
		{point: activities.CrashBeforeTurnLogDelete, at: 1},
		{point: "tool:after-call", at: 3},
		{point: "tool:after-record", at: 3},
	}
	// Every job starts at once, under a worker armed to die at its point,
	// so the timeouts that bring lost activities back (up to WriteShard's
	// one-minute heartbeat timeout) run concurrently.
	for _, r := range runs {
		job := "crash-" + strings.NewReplacer(":", "-").Replace(r.point)
		switch r.point {
		case "runepisodes:after-bundle", "shard:before-manifest":
			r.spec = oracleSpec(t, job, "rg:basic_arithmetic", 32, 32, 2)
		case "tool:after-call", "tool:after-record":
			b := new(bisect)
			r.srv = openaitest.Start(t, openaitest.WithPolicy(b.pythonReply))
			r.spec = toolSpec(t, job, r.srv, 2, 4)
			r.sandboxDir = sandboxtest.Dir(t)
			base := 65000 // a uid range per job: the jobs run at once
			if r.point == "tool:after-record" {
				base = 65010
			}
			r.uids = []int{base, base + 1}
			r.args = []string{"--sandbox-dir", r.sandboxDir, "--sandbox-uid-base", strconv.Itoa(base), "--sandbox-slots", "2"}
		default:
			r.srv = startPolicy(t)
			r.spec = endpointSpec(t, job, r.srv, 2, 4, "2s")
		}
		r.run = submit(t, c, job, r.spec)
		r.armed = startWorker(t, job+"-armed", job, []string{fmt.Sprintf("%s=%s@%d", crashEnv, r.point, r.at)}, r.args...)
	}
	// As each armed worker dies at its point, a fresh one takes over.
	deadline := time.Now().Add(90 * time.Second)
	for _, r := range runs {
		code, exited := r.armed.wait(time.Until(deadline))
		switch {
		case !exited:
			r.err = fmt.Errorf("the worker armed with %s@%d never reached it", r.point, r.at)
		case code != 137 || !strings.Contains(r.armed.log.String(), "exiting at "+r.point):
			r.err = fmt.Errorf("the armed worker exited with status %d, want 137 at %s", code, r.point)
		case complete(r.spec):
			r.err = fmt.Errorf("the job finished before the crash")
		}
		startWorker(t, r.spec.Job+"-fresh", r.spec.Job, nil, r.args...)
	}
	for _, r := range runs {
		t.Run(r.point, func(t *testing.T) {
			if r.err != nil {
				t.Fatal(r.err)
			}
			waitJob(t, r.run, 3*time.Minute)
			turns, _ := checkExactlyOnce(t, r.spec, r.srv)
			// Every batch committed, so its turn log is gone, even where
			// the worker died between the commit and the deletion: the
			// retried commit deletes it. (A write the crash cut short may
			// leave a temporary file: store debris, not an object, which
			// the store's own cleanup removes.)
			if logs := turnLogObjects(t, r.spec); len(logs) != 0 {
				t.Errorf("%d turn-log objects left, e.g. %s", len(logs), logs[0].Key)
			}
			if r.sandboxDir != "" {
				// The dead worker's sandboxes died with it; the fresh one
				// swept its work dir and closed its own sessions.
				if n := sandboxtest.LiveProcesses(t, r.uids...); n != 0 {
					t.Errorf("%d sandbox processes left", n)
				}
				if left, _ := os.ReadDir(r.sandboxDir); len(left) != 0 {
					t.Errorf("sandbox work dirs left: %v", left)
				}
				// bwrap mounts inside its own namespace: the host's mount
				// table never shows a sandbox path.
				if mounts, err := os.ReadFile("/proc/self/mountinfo"); err != nil || strings.Contains(string(mounts), r.sandboxDir) {
					t.Errorf("a sandbox mount is visible on the host (%v)", err)
				}
				tools := 0
				for _, row := range turns {
					if row.ToolName != nil {
						tools++
					}
				}
				if tools == 0 {
					t.Error("no tool turn in the output")
				}
			}
			if r.lostResponse {
				if sent := len(replies(t, r.srv)); sent <= len(turns) {
					t.Errorf("%d responses sent for %d turns: the crash lost none", sent, len(turns))
				}
			}
		})
	}
}

// Workers SIGKILLed again and again at random moments, each replaced by a
// new one: the job completes with every episode exactly once.
func TestRepeatedSIGKILL(t *testing.T) {
	t.Parallel()
	t.Run("openai", func(t *testing.T) {
		t.Parallel()
		srv := startPolicy(t, openaitest.WithLatency(150*time.Millisecond))
		chaos(t, endpointSpec(t, "chaos-openai", srv, 6, 8, "2s"), srv)
	})
	t.Run("oracle", func(t *testing.T) {
		t.Parallel()
		chaos(t, oracleSpec(t, "chaos-oracle", "game:Sokoban-v0-hard", 192, 32, 2), nil)
	})
}

func chaos(t *testing.T, spec schema.JobSpec, srv *openaitest.Server) {
	c := temporalClient(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	want := 3 + rng.IntN(4)
	t.Logf("seed %d: %d kills", seed, want)
	run := submit(t, c, spec.Job, spec)
	w := startWorker(t, spec.Job+"-0", spec.Job, nil)
	waitFor(t, time.Minute, "the first turn-log record", func() bool {
		entries, _ := os.ReadDir(filepath.Join(jobDir(spec), "_turns"))
		return len(entries) > 0
	})
	kills := 0
	for stop := time.Now().Add(20 * time.Second); kills < want && time.Now().Before(stop); {
		// The first kill lands while the first activities run; the others
		// wherever they fall.
		delay := time.Duration(300+rng.IntN(1700)) * time.Millisecond
		if kills == 0 {
			delay = time.Duration(rng.IntN(100)) * time.Millisecond
		}
		time.Sleep(delay)
		if complete(spec) {
			break
		}
		w.kill()
		kills++
		w = startWorker(t, fmt.Sprintf("%s-%d", spec.Job, kills), spec.Job, nil)
	}
	if kills < 3 {
		t.Fatalf("only %d kills landed before the job finished; make the job longer", kills)
	}
	waitJob(t, run, 3*time.Minute)
	_, eps := checkExactlyOnce(t, spec, srv)
	retried := 0
	for _, e := range eps {
		if e.Retries > 0 {
			retried++
		}
	}
	t.Logf("%d kills; %d of %d episodes hold a retried attempt", kills, retried, len(eps))
	if retried == 0 {
		t.Error("no episode holds a retried attempt: no kill interrupted a running activity")
	}
}

// SIGTERM stops a worker gracefully: it lets its running activities finish
// (their results are accepted, not retried) or, past --shutdown-timeout,
// cancels them — another worker retries them once their timeout expires —
// and exits 0 within the timeout either way.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	t.Run("activities finish", func(t *testing.T) {
		t.Parallel()
		srv := startPolicy(t, openaitest.WithLatency(2*time.Second))
		spec := endpointSpec(t, "sigterm-finish", srv, 1, 4, "5s")
		const timeout = 10 * time.Second
		run := submit(t, temporalClient(t), spec.Job, spec)
		w := startWorker(t, spec.Job, spec.Job, nil, "--shutdown-timeout", timeout.String())
		waitFor(t, time.Minute, "a chat completion in flight", func() bool { return srv.InFlight() > 0 })
		var pending []int
		for _, r := range srv.ChatRecords() {
			if r.Done.IsZero() {
				pending = append(pending, r.Seq)
			}
		}
		if len(pending) == 0 {
			t.Fatal("no chat completion left in flight")
		}
		sent := time.Now()
		if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		code, exited := w.wait(timeout + 5*time.Second)
		took := time.Since(sent)
		t.Logf("SIGTERM → exit %d after %v", code, took.Round(time.Millisecond))
		if !exited || code != 0 || took > timeout {
			t.Fatalf("after SIGTERM: exited %v with status %d after %v; want status 0 within %v", exited, code, took, timeout)
		}
		// Every request in flight at SIGTERM was answered, and its answer
		// is the accepted action of its turn once the job is done.
		answered := map[int]string{}
		for _, r := range srv.ChatRecords() {
			if slices.Contains(pending, r.Seq) && r.Status == 200 {
				text, err := replyText(r)
				if err != nil {
					t.Fatal(err)
				}
				answered[r.Seq] = text
			}
		}
		if len(answered) != len(pending) {
			t.Fatalf("%d of the %d requests in flight at SIGTERM were answered", len(answered), len(pending))
		}
		startWorker(t, spec.Job+"-next", spec.Job, nil)
		waitJob(t, run, 2*time.Minute)
		turns, _ := checkExactlyOnce(t, spec, srv)
		for seq, action := range answered {
			if !slices.ContainsFunc(turns, func(r schema.TurnRow) bool { return r.Action == action }) {
				t.Errorf("response %d, in flight at SIGTERM, is no turn's action: its activity did not finish", seq)
			}
		}
	})
	t.Run("activities handed back", func(t *testing.T) {
		t.Parallel()
		var stall atomic.Bool
		stall.Store(true)
		srv := startPolicy(t, openaitest.WithFaultFunc(func(int) openaitest.Fault {
			if stall.Load() {
				return openaitest.Slow(time.Minute)
			}
			return openaitest.Fault{}
		}))
		spec := endpointSpec(t, "sigterm-handback", srv, 1, 4, "3s")
		const timeout = 2 * time.Second
		run := submit(t, temporalClient(t), spec.Job, spec)
		w := startWorker(t, spec.Job, spec.Job, nil, "--shutdown-timeout", timeout.String())
		waitFor(t, time.Minute, "a chat completion in flight", func() bool { return srv.InFlight() > 0 })
		sent := time.Now()
		if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		code, exited := w.wait(timeout + 5*time.Second)
		took := time.Since(sent)
		t.Logf("SIGTERM → exit %d after %v", code, took.Round(time.Millisecond))
		if !exited || code != 0 || took > timeout+3*time.Second {
			t.Fatalf("after SIGTERM: exited %v with status %d after %v; want status 0 once the %v timeout cancels the stalled activities", exited, code, took, timeout)
		}
		if complete(spec) {
			t.Fatal("the job finished although every response stalled")
		}
		stall.Store(false)
		startWorker(t, spec.Job+"-next", spec.Job, nil)
		waitJob(t, run, 2*time.Minute)
		checkExactlyOnce(t, spec, srv)
	})
}
