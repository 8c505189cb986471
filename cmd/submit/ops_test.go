package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

// turnLogObjects lists a job's turn-log objects in the store at output.
func turnLogObjects(t *testing.T, output, job string) []blob.Info {
	t.Helper()
	ctx := context.Background()
	store, err := blob.Open(ctx, output, blob.WithoutAutoCleanup())
	if err != nil {
		t.Fatal(err)
	}
	infos, err := store.List(ctx, schema.JobTurnPrefix(job))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(ctx, store, job)
	if err != nil || len(ms) == 0 {
		t.Fatalf("no committed shards (%v)", err)
	}
	return infos
}

// After a job on a folder, no turn-log object remains (every batch deleted
// its own once committed); with keep_turn_logs they all stay.
func TestTurnLogsDeletedAfterCommitFolder(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	dir := t.TempDir()
	spec := endpointJobSpec(t, dir, "tl-folder", 5, 8, srv.BaseURL(), "{max_tokens: 64}")
	submitLocal(t, dir, spec)
	out := "file://" + filepath.Join(dir, "out")
	if left := turnLogObjects(t, out, "tl-folder"); len(left) != 0 {
		t.Errorf("%d turn-log objects left after the job, e.g. %s", len(left), left[0].Key)
	}
	if ents, err := filepath.Glob(filepath.Join(dir, "out", "tl-folder", "_turns", "*")); err != nil || len(ents) != 0 {
		t.Errorf("turn-log folders left: %v (%v)", ents, err)
	}

	keep := t.TempDir()
	spec = writeSpec(t, keep, `
job: tl-keep
seed: 3
envs: [{id: rg:basic_arithmetic}]
tasks: 64
batch_size: 32
policy: {kind: random}
keep_turn_logs: true
output: `+filepath.Join(keep, "out")+`
`)
	submitLocal(t, keep, spec)
	if left := turnLogObjects(t, "file://"+filepath.Join(keep, "out"), "tl-keep"); len(left) != 64 {
		t.Errorf("keep_turn_logs: %d turn-log objects left, want one bundle per episode (64)", len(left))
	}
}

// The same on versitygw: a random-policy job's bundles are deleted once
// their batches commit, and the printed hint reads the bucket through the
// endpoint the job wrote to.
func TestTurnLogsDeletedAfterCommitS3(t *testing.T) {
	srv := s3test.Start(t)
	srv.SetAWSEnv(t)
	for _, c := range []struct {
		job  string
		keep bool
		want int
	}{{"tl-s3", false, 0}, {"tl-s3-keep", true, 64}} {
		dir := t.TempDir()
		body := `
job: ` + c.job + `
seed: 4
envs: [{id: rg:basic_arithmetic}]
tasks: 64
batch_size: 32
policy: {kind: random}
output: ` + srv.URL("rl") + "\n"
		if c.keep {
			body += "keep_turn_logs: true\n"
		}
		out := submitLocal(t, dir, writeSpec(t, dir, body))
		if left := turnLogObjects(t, srv.URL("rl"), c.job); len(left) != c.want {
			t.Errorf("%s: %d turn-log objects left, want %d", c.job, len(left), c.want)
		}
		if c.keep {
			continue
		}
		host := strings.TrimPrefix(srv.Endpoint, "http://")
		for _, want := range []string{
			"output: " + srv.URL("rl") + "/tl-s3\n",
			"CREATE SECRET (TYPE s3, PROVIDER credential_chain, ENDPOINT '" + host + "', URL_STYLE 'path', USE_SSL false, REGION '" + srv.Region + "');",
			"SELECT * FROM '" + srv.URL("rl") + "/tl-s3/shards/*.turns.parquet'",
			`"endpoint_url": "` + srv.Endpoint + `"`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("printed hint lacks %q:\n%s", want, out)
			}
		}
	}
}

// lockedBuffer is a bytes.Buffer the progress bar and the test share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func randomSpec(t *testing.T, dir, job string) string {
	return writeSpec(t, dir, `
job: `+job+`
seed: 5
envs: [{id: rg:basic_arithmetic}]
tasks: 32
policy: {kind: random}
output: `+filepath.Join(dir, "out")+`
`)
}

// submit --wait against a cluster where no worker polls the job's queue
// warns once on stderr, naming the queue and the worker command to run.
func TestWaitWarnsWhenNoWorkerPolls(t *testing.T) {
	srv, err := localserver.Start(localserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	dir := t.TempDir()
	var stdout, stderr lockedBuffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--address", srv.HostPort(), "--namespace", srv.Namespace(), "--task-queue", "nobody-polls",
		"--wait", "--worker-grace", "1s", randomSpec(t, dir, "no-workers")})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	const warning = `warning: no worker has polled task queue "nobody-polls" in namespace "default"`
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(stderr.String(), warning) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no warning after 60 s:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(50 * time.Millisecond) // polling the output, not synchronising
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := stderr.String()
	if n := strings.Count(got, "warning: no worker"); n != 1 {
		t.Errorf("warned %d times, want once:\n%s", n, got)
	}
	if want := "worker --address " + srv.HostPort() + " --namespace default --task-queue nobody-polls"; !strings.Contains(got, want) {
		t.Errorf("warning lacks %q:\n%s", want, got)
	}
	if !strings.Contains(stdout.String(), "detached; job no-workers keeps running") {
		t.Errorf("stdout: %s", stdout.String())
	}

	// Check after check past the grace period, the watch warns only once.
	c, err := tclient.Options{}.Local(srv.HostPort(), srv.Namespace()).Dial(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var again bytes.Buffer
	g := &globals{conn: tclient.Options{Address: srv.HostPort(), Namespace: "default"}, queue: "nobody-polls", err: &again, noWorkerGrace: time.Nanosecond}
	spec, err := loadSpec(randomSpec(t, t.TempDir(), "no-workers"))
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkerWatch(context.Background(), g, c, spec)
	for range 4 {
		w.last = time.Time{} // as if pollerCheckEvery had passed
		w.check(context.Background())
	}
	if n := strings.Count(again.String(), "warning: no worker"); n != 1 {
		t.Errorf("four checks warned %d times, want once:\n%s", n, again.String())
	}
}

// With a worker polling, the same watch says nothing, even with a grace
// period shorter than the job.
func TestWaitQuietWithWorkers(t *testing.T) {
	srv, err := localserver.Start(localserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	c, err := tclient.Options{}.Local(srv.HostPort(), srv.Namespace()).Dial(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	w := workflows.NewWorkers(c, "polled", &activities.Activities{Envs: reg, Stores: &activities.Stores{}}, worker.Options{}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for {
		p, err := tclient.QueuePollers(ctx, c, "polled")
		if err == nil && p.Workflow > 0 && p.Activity > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker never showed as a poller: %+v, %v", p, err)
		}
		time.Sleep(50 * time.Millisecond) // polling the server, not synchronising
	}
	dir := t.TempDir()
	var stdout, stderr lockedBuffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--address", srv.HostPort(), "--task-queue", "polled", "--wait", "--worker-grace", "1ms", randomSpec(t, dir, "with-workers")})
	if err := root.ExecuteContext(ctx); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "warning: no worker") {
		t.Errorf("warned with a worker polling:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "job with-workers complete") {
		t.Errorf("stdout: %s", stdout.String())
	}
}

// submit status of a running job shows what it has in flight against its
// cap, the workers polling its queue, and what caps its parallelism.
func TestStatusShowsInFlightAndPollers(t *testing.T) {
	release := make(chan struct{})
	var closeOnce sync.Once
	free := func() { closeOnce.Do(func() { close(release) }) }
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string {
		<-release // every episode stays in flight until the test has looked
		return "\\boxed{1}"
	}))
	t.Cleanup(free) // before the server stops (cleanups run last-first)
	dir := t.TempDir()
	path := writeSpec(t, dir, `
job: sizing-status
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 4
samples_per_task: 2
batch_size: 4
max_turns: 1
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {max_tokens: 16}
in_flight: {batches: 1, episodes: 3}
output: `+filepath.Join(dir, "out")+`
`)
	state := filepath.Join(dir, "state")
	ctx := context.Background()
	sess, _, run := startLocalJob(t, path, state)
	defer sess.close()
	status := func() string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", state, "status", "sizing-status"})
		if err := root.ExecuteContext(ctx); err != nil {
			t.Fatalf("status: %v\n%s", err, stderr.String())
		}
		return stdout.String()
	}
	want := "running  1 batches, 3 episodes (cap 3 episodes: in_flight 1 batches × 3 episodes)"
	deadline := time.Now().Add(60 * time.Second)
	got := status()
	for !strings.Contains(got, want) {
		if time.Now().After(deadline) {
			t.Fatalf("status never showed %q:\n%s", want, got)
		}
		time.Sleep(100 * time.Millisecond) // polling the job, not synchronising
		got = status()
	}
	for _, w := range []string{
		`workers  1 polling "quarry" (workflow tasks 1, activity tasks 1)`,
		"sizing   at most 3 episodes at once (in_flight: 1 batches × 3 episodes); 1 worker(s) × concurrency 64 = 64 requests at once; set policy.openai.endpoint_concurrency",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("status lacks %q:\n%s", w, got)
		}
	}
	free()
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := status(); strings.Contains(got, "running  ") || strings.Contains(got, "workers  ") {
		t.Errorf("a finished job shows in-flight work:\n%s", got)
	}
}
