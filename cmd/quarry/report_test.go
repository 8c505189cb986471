package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/report/reporttest"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/toolset"
	"github.com/quarry-rl/quarry/workflows"
)

// reportUIDBase is this package's sandbox uid range (other packages' tests
// use theirs meanwhile).
const reportUIDBase = 65000

var guessHint = regexp.MustCompile(`(\d+) is too (high|low)`)

// reportPolicy plays any env badly but in every way a report shows: on an
// episode's first turn it calls python (with code that raises when the
// prompt's length is even), after a tool result it guesses, and otherwise it guesses a number
// that depends on the conversation so far.
func reportPolicy(msgs []openaitest.Message) string {
	last := msgs[len(msgs)-1]
	if last.Role == "tool" {
		return "The tool answered. \\boxed{" + strconv.Itoa(1+len(msgs)%20) + "}"
	}
	if len(msgs) <= 2 {
		if len(last.Content)%2 == 0 {
			return "Let me check.\n<python>\nprint(1 / 0)\n</python>"
		}
		return "Let me check.\n<python>\nprint(6 * 7)\n</python>"
	}
	n := 1 + (len(msgs)*7+len(guessHint.FindAllString(last.Content, -1)))%20
	return "My guess is \\boxed{" + strconv.Itoa(n) + "}"
}

// reportFaults makes the endpoint fail some requests: a 500 now and then
// (retried by the client, so turns record failed attempts), a 429, and a 400
// that no retry can fix (its episode fails for good).
func reportFaults(seq int) openaitest.Fault {
	switch {
	case seq%29 == 13:
		return openaitest.Fault{Kind: openaitest.FaultServerError, Status: 400}
	case seq%7 == 3:
		return openaitest.ServerError()
	case seq%11 == 5:
		return openaitest.RateLimit(0)
	}
	return openaitest.Fault{}
}

// runReportJob runs a real job on the embedded Temporal server with a
// worker in this process: three envs, the python tool (sandboxed), an
// endpoint that fails some requests; it returns the output folder.
func runReportJob(t *testing.T) string {
	t.Helper()
	srv := openaitest.Start(t, openaitest.WithPolicy(reportPolicy), openaitest.WithFaultFunc(reportFaults))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	spec, err := schema.ParseJobSpec([]byte(`
job: rep
seed: 5
envs: [{id: game:GuessTheNumber-v0-easy}, {id: game:Mastermind-v0-easy}, {id: rg:basic_arithmetic, options: {difficulty: 1}}]
tasks: 12
samples_per_task: 2
batch_size: 6
max_turns: 6
policy:
  kind: openai
  openai:
    endpoints: [` + srv.BaseURL() + `]
    model: ` + openaitest.DefaultModel + `
    sampling: {max_tokens: 48, logprobs: true}
    extra_body: {return_token_ids: true}
tools: {preset: python_tool, max_tool_uses: 1}
output: file://` + out + `
`))
	if err != nil {
		t.Fatal(err)
	}
	spec = spec.WithDefaults()
	if err := spec.Validate(); err != nil {
		t.Fatal(err)
	}
	ts, err := localserver.Start(localserver.Options{Dir: filepath.Join(dir, "temporal")})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Stop()
	tc, err := client.Dial(client.Options{HostPort: ts.HostPort(), Namespace: ts.Namespace(),
		Logger: tlog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	host := &toolset.Host{Sandbox: sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: reportUIDBase, Slots: 2}}
	a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Tools: host}
	w := workflows.NewWorkers(tc, workflows.DefaultTaskQueue, a, worker.Options{}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: spec.Job, TaskQueue: workflows.DefaultTaskQueue},
		workflows.JobWorkflowName, workflows.JobInput{Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatalf("job: %v", err)
	}
	return out
}

// `quarry report` over a real job's dataset — three envs, python tool calls
// (some raising), endpoint faults retried, episodes failed for good — opens
// in headless Chromium with every chart drawn, and every number it shows
// equals DuckDB's over the committed files.
func TestReportOfRealJob(t *testing.T) {
	out := runReportJob(t)
	html := filepath.Join(t.TempDir(), "report.html")
	stdout, err := run(t, "", "report", filepath.Join(out, "rep"), "-o", html)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, "wrote "+html+": job rep, 4 committed batches") {
		t.Fatalf("report said %q", stdout)
	}
	p := reporttest.Open(t, html)
	reporttest.CheckCharts(t, p, "chart-batches", "chart-envs", "chart-turns", "chart-response-tokens", "chart-prompt-tokens",
		"chart-tools", "chart-latency", "chart-faults")
	reporttest.CheckNumbers(t, p, out, "rep")

	// The dataset has what each section shows, so the comparison above
	// compared something.
	tb := p.Tables
	for _, want := range []struct {
		table string
		rows  int
	}{{"t-batches", 4}, {"t-envs", 3}, {"t-tools", 1}, {"t-latency", 3}} {
		if got := len(tb[want.table]); got != want.rows {
			t.Errorf("%s has %d rows, want %d: %v", want.table, got, want.rows, tb[want.table])
		}
	}
	for _, id := range []string{"t-failures", "t-faults", "t-turn-errors"} {
		if len(tb[id]) == 0 {
			t.Errorf("%s is empty: the job was meant to have some", id)
		}
	}
	if c := tb["t-tools"]["python"]["errors"]; c.V == "0" || c.V == "" {
		t.Errorf("python tool errors %+v: the policy raised in some calls", c)
	}
	if out := os.Getenv("QUARRY_REPORT_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, p.Screenshot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Without --job, a location holding several jobs is refused with their
// names, an unknown job is refused naming the ones there, and a job with no
// committed shard has no report.
func TestReportTargetErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, s, true)
	html := filepath.Join(t.TempDir(), "r.html")
	if _, err := run(t, "", "report", dir, "-o", html); err != nil {
		t.Fatalf("one job at the root: %v", err)
	}
	other := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-other"})
	if _, err := shard.Write(ctx, s, other.Input); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "", "report", dir, "-o", html); err == nil || !strings.Contains(err.Error(), "holds 2 jobs (job-i, job-other): choose one with --job") {
		t.Errorf("two jobs without --job: %v", err)
	}
	if _, err := run(t, "", "report", dir, "--job", "nope", "-o", html); err == nil || !strings.Contains(err.Error(), `job "nope" not found`) || !strings.Contains(err.Error(), "job-i") {
		t.Errorf("unknown job: %v", err)
	}
	// A job with a turn log but no committed shard yet.
	running := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-running"})
	if _, err := run(t, "", "report", dir, "--job", running.Input.Job, "-o", html); err == nil || !strings.Contains(err.Error(), "no committed shard") {
		t.Errorf("job without shards: %v", err)
	}
	if _, err := os.Stat(html); err != nil {
		t.Errorf("the first report is gone: %v", err)
	}
}

// TestReportS3 reads a job from versitygw through the standard AWS
// configuration and writes the same report as from a folder holding the
// same files.
func TestReportS3(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	s, err := blob.Open(ctx, srv.URL("out"), blob.WithEndpoint(srv.Endpoint), blob.WithRegion(srv.Region),
		blob.WithStaticCredentials(srv.AccessKey, srv.SecretKey, ""))
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, s, true)
	dir := t.TempDir()
	fs, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, fs, true) // the same seeds: the same bytes

	srv.SetAWSEnv(t)

	out := t.TempDir()
	fromS3, fromDir := filepath.Join(out, "s3.html"), filepath.Join(out, "dir.html")
	if _, err := run(t, "", "report", srv.URL("out/"+testJob), "-o", fromS3); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "", "report", filepath.Join(dir, testJob), "-o", fromDir); err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(fromS3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(fromDir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(a), srv.URL("out")) {
		t.Fatalf("the S3 report does not name %s", srv.URL("out"))
	}
	dirURL := fs.URL()
	if !bytes.Equal(bytes.ReplaceAll(a, []byte(srv.URL("out")), []byte(dirURL)), b) {
		t.Errorf("the report of the S3 copy differs from the folder's beyond its location")
	}
}
