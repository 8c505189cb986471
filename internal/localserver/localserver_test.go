package localserver

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

func waitSignal(ctx workflow.Context) (string, error) {
	var v string
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, &v)
	return "got " + v, nil
}

func dial(t *testing.T, s *Server) client.Client {
	t.Helper()
	c, err := client.Dial(client.Options{HostPort: s.HostPort(), Namespace: s.Namespace(), Logger: nopLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A workflow started before a stop finishes after a restart on the same
// directory, on the same ports.
func TestRestartResumes(t *testing.T) {
	dir := t.TempDir()
	s, err := Start(Options{Dir: dir, UI: true})
	if err != nil {
		t.Fatal(err)
	}
	ports := s.Ports()
	if _, err := Start(Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("a second server on the same dir: err = %v, want in use", err)
	}
	resp, err := http.Get(s.UIURL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("web ui: %s", resp.Status)
	}
	c := dial(t, s)
	ctx := context.Background()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "wait", TaskQueue: "q"}, waitSignal)
	if err != nil {
		t.Fatal(err)
	}
	w := worker.New(c, "q", worker.Options{})
	w.RegisterWorkflow(waitSignal)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // let the first workflow task run
	w.Stop()
	c.Close()
	s.Stop()

	s, err = Start(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	// The database runs in WAL mode (a rollback journal fsyncs far more).
	if _, err := os.Stat(filepath.Join(dir, "temporal.db-wal")); err != nil {
		t.Fatalf("no write-ahead log beside the database: %v", err)
	}
	if s.Ports() != ports {
		t.Fatalf("ports changed across restart: %+v then %+v", ports, s.Ports())
	}
	c = dial(t, s)
	defer c.Close()
	w = worker.New(c, "q", worker.Options{})
	w.RegisterWorkflow(waitSignal)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if err := c.SignalWorkflow(ctx, "wait", run.GetRunID(), "go", "after restart"); err != nil {
		t.Fatal(err)
	}
	var got string
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.GetWorkflow(tctx, "wait", run.GetRunID()).Get(tctx, &got); err != nil {
		t.Fatal(err)
	}
	if got != "got after restart" {
		t.Fatalf("result %q", got)
	}
}

type nopLogger struct{}

func (nopLogger) Debug(string, ...any) {}
func (nopLogger) Info(string, ...any)  {}
func (nopLogger) Warn(string, ...any)  {}
func (nopLogger) Error(string, ...any) {}
