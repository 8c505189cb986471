package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/flight"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/online/onlinetest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

// sent is one SignalWorkflow call.
type sent struct {
	id, runID, name string
	arg             any
}

// recorder is a Signaler that records its calls and answers with err.
type recorder struct {
	mu    sync.Mutex
	calls []sent
	err   error
}

func (r *recorder) SignalWorkflow(_ context.Context, id, runID, name string, arg any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, sent{id, runID, name, arg})
	return r.err
}

func controlServer(t *testing.T, sig Signaler) (*httptest.Server, blob.Store) {
	t.Helper()
	store, err := blob.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newControl(store, sig, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	return srv, store
}

// call sends a JSON request and decodes the JSON answer.
func call(t *testing.T, method, url, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: answer is not JSON: %v", method, url, err)
	}
	return resp.StatusCode, out
}

func TestServePolicySendsSignal(t *testing.T) {
	rec := &recorder{}
	srv, _ := controlServer(t, rec)
	code, out := call(t, "POST", srv.URL+"/v1/jobs/job-a/policy", `{"version":"v7","model":"m-v7"}`)
	if code != http.StatusOK || out["version"] != "v7" {
		t.Fatalf("POST policy: %d %v", code, out)
	}
	want := sent{"job-a", "", workflows.SignalPolicy, workflows.PolicySignal{Version: "v7", Model: "m-v7"}}
	if len(rec.calls) != 1 || rec.calls[0] != want {
		t.Fatalf("signals sent %+v, want exactly %+v", rec.calls, want)
	}
}

func TestServePolicyRefusesBadInput(t *testing.T) {
	rec := &recorder{}
	srv, _ := controlServer(t, rec)
	for _, tc := range []struct{ path, body, field string }{
		{"/v1/jobs/job-a/policy", `{"version":""}`, "version"},
		{"/v1/jobs/job-a/policy", `{"version":"v1\nv2"}`, "version"},
		{"/v1/jobs/job-a/policy", `{"version":"v1","weights":"x"}`, `unknown field "weights"`},
		{"/v1/jobs/job-a/policy", `{"version":"v1","model":"` + strings.Repeat("m", schema.MaxNameLen+1) + `"}`, "model"},
		{"/v1/jobs/Job_A/policy", `{"version":"v1"}`, "job"},
	} {
		code, out := call(t, "POST", srv.URL+tc.path, tc.body)
		if msg, _ := out["error"].(string); code != http.StatusBadRequest || !strings.Contains(msg, tc.field) {
			t.Errorf("POST %s %.40s: %d %v; want 400 naming %s", tc.path, tc.body, code, out, tc.field)
		}
	}
	if len(rec.calls) != 0 {
		t.Fatalf("bad requests sent signals: %+v", rec.calls)
	}
	rec.err = serviceerror.NewNotFound("workflow not found")
	if code, out := call(t, "POST", srv.URL+"/v1/jobs/job-a/policy", `{"version":"v1"}`); code != http.StatusNotFound {
		t.Fatalf("signal to a missing job: %d %v, want 404", code, out)
	}
	if code, out := call(t, "GET", srv.URL+"/v1/nothing", ""); code != http.StatusNotFound || out["error"] == nil {
		t.Fatalf("unknown endpoint: %d %v, want a JSON 404", code, out)
	}
}

func TestServeAckMovesCursor(t *testing.T) {
	srv, store := controlServer(t, &recorder{})
	url := srv.URL + "/v1/jobs/job-a/cursors/trainer"
	if code, out := call(t, "GET", url, ""); code != http.StatusOK || out["next_batch"] != 0.0 {
		t.Fatalf("GET a cursor never written: %d %v, want next_batch 0", code, out)
	}
	if code, out := call(t, "POST", url, `{"batch":0}`); code != http.StatusOK || out["next_batch"] != 1.0 {
		t.Fatalf("ack 0: %d %v", code, out)
	}
	cur, err := online.ReadCursor(context.Background(), store, "job-a", "trainer")
	if err != nil || cur.NextBatch != 1 {
		t.Fatalf("stored cursor %+v, %v; want next_batch 1", cur, err)
	}
	if code, out := call(t, "POST", url, `{"batch":3}`); code != http.StatusConflict {
		t.Fatalf("ack ahead: %d %v, want 409", code, out)
	}
	if code, out := call(t, "POST", url, `{}`); code != http.StatusBadRequest || !strings.Contains(fmt.Sprint(out["error"]), "batch") {
		t.Fatalf("ack without a batch: %d %v, want 400 naming batch", code, out)
	}
	if code, out := call(t, "GET", srv.URL+"/v1/jobs/job-a/cursors/no.way!", ""); code != http.StatusBadRequest {
		t.Fatalf("bad consumer name: %d %v, want 400", code, out)
	}
}

// policyWaiter stands in for the job workflow: it returns the first policy
// signal it gets.
func policyWaiter(ctx workflow.Context) (workflows.PolicySignal, error) {
	var p workflows.PolicySignal
	workflow.GetSignalChannel(ctx, workflows.SignalPolicy).Receive(ctx, &p)
	return p, nil
}

// TestServeCommandEndToEnd runs `quarry serve` against the embedded Temporal
// server: a policy announced over HTTP reaches a running workflow, and a
// committed batch streams over Flight.
func TestServeCommandEndToEnd(t *testing.T) {
	ts, err := localserver.Start(localserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Stop)
	tc, err := client.Dial(client.Options{HostPort: ts.HostPort(), Namespace: ts.Namespace()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tc.Close)
	w := worker.New(tc, "serve-test", worker.Options{})
	w.RegisterWorkflowWithOptions(policyWaiter, workflow.RegisterOptions{Name: "policy-waiter"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "job-e2e", TaskQueue: "serve-test"}, "policy-waiter")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	store, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	m := onlinetest.New(store, "job-e2e").Commit(t, 0)
	flightAddr, httpAddr := startServe(t, ctx, "--output", dir, "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
		"--address", ts.HostPort(), "--namespace", ts.Namespace())

	code, out := call(t, "POST", "http://"+httpAddr+"/v1/jobs/job-e2e/policy", `{"version":"v1"}`)
	if code != http.StatusOK {
		t.Fatalf("POST policy: %d %v", code, out)
	}
	var got workflows.PolicySignal
	if err := run.Get(ctx, &got); err != nil || got.Version != "v1" {
		t.Fatalf("workflow got %+v, %v; want version v1", got, err)
	}

	fc, err := flight.NewClientWithMiddleware(flightAddr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	s, err := fc.DoGet(ctx, &flight.Ticket{Ticket: []byte(`{"job":"job-e2e","consumer":"trainer"}`)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := flight.NewRecordReader(s)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	var rows int64
	for r.Next() {
		rows += r.Record().NumRows()
	}
	if rows != m.TurnRows {
		t.Fatalf("streamed %d turn rows, the batch has %d", rows, m.TurnRows)
	}
}

var listenLine = regexp.MustCompile(`^flight on (\S+), http control on (\S+)$`)

// startServe runs the serve command until the test ends and returns the
// addresses it bound, read from its first line of output.
func startServe(t *testing.T, ctx context.Context, args ...string) (flightAddr, httpAddr string) {
	t.Helper()
	pr, pw := io.Pipe()
	root := newRoot(strings.NewReader(""), pw)
	root.SetErr(io.Discard)
	root.SetArgs(append([]string{"serve"}, args...))
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		err := root.ExecuteContext(sctx)
		pw.CloseWithError(errors.Join(err, io.EOF))
		done <- err
	}()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address line: %v", err)
	}
	go io.Copy(io.Discard, pr) // later output never blocks the command
	mm := listenLine.FindStringSubmatch(strings.TrimSpace(line))
	if mm == nil {
		t.Fatalf("serve printed %q", line)
	}
	return mm[1], mm[2]
}

// With --http "" only the stream serves, and no Temporal is needed: the
// cursor endpoints and the stream never dial it.
func TestServeWithoutHTTPNeedsNoTemporal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	flightAddr, httpAddr := startServe(t, ctx, "--output", dir, "--listen", "127.0.0.1:0", "--http", "",
		"--address", "127.0.0.1:1")
	if httpAddr != "off" {
		t.Fatalf("http control on %q with --http \"\", want off", httpAddr)
	}
	fc, err := flight.NewClientWithMiddleware(flightAddr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	s, err := fc.DoAction(ctx, &flight.Action{Type: "ack", Body: []byte(`{"job":"job-x","consumer":"trainer","batch":0}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Recv(); err != nil {
		t.Fatalf("ack over Flight: %v", err)
	}
	store, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if cur, err := online.ReadCursor(ctx, store, "job-x", "trainer"); err != nil || cur.NextBatch != 1 {
		t.Fatalf("stored cursor %+v, %v; want next_batch 1", cur, err)
	}
}
