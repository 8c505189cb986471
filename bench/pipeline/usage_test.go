package main

import (
	"context"
	"maps"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/grpc"

	"github.com/quarry-rl/quarry/internal/localserver"
)

func beat(ctx context.Context) error {
	activity.RecordHeartbeat(ctx, "x")
	return nil
}

// parentWF does one of every kind of billable action and starts a child
// that continues as new once.
func parentWF(ctx workflow.Context) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, "beat").Get(ctx, nil); err != nil {
		return err
	}
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteLocalActivity(lctx, beat).Get(ctx, nil); err != nil {
		return err
	}
	if err := workflow.Sleep(ctx, time.Millisecond); err != nil {
		return err
	}
	workflow.GetSignalChannel(ctx, "go").Receive(ctx, nil)
	return workflow.ExecuteChildWorkflow(ctx, "child", 1).Get(ctx, nil)
}

func childWF(ctx workflow.Context, n int) error {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	if err := workflow.ExecuteActivity(ctx, "beat").Get(ctx, nil); err != nil {
		return err
	}
	if n > 0 {
		return workflow.NewContinueAsNewError(ctx, "child", n-1)
	}
	return nil
}

// TestWalkJobCountsActions runs a small workflow tree on the embedded
// server and counts its real histories: the parent, the child's two runs
// (reached through the child-started event and the continue-as-new), and
// every kind of billable action once or more.
func TestWalkJobCountsActions(t *testing.T) {
	srv, err := localserver.Start(localserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	hb := newRPCCounter(heartbeatMethods...)
	c, err := client.Dial(client.Options{HostPort: srv.HostPort(), Namespace: srv.Namespace(),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(hb.intercept)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := worker.New(c, "count", worker.Options{})
	w.RegisterWorkflowWithOptions(parentWF, workflow.RegisterOptions{Name: "parent"})
	w.RegisterWorkflowWithOptions(childWF, workflow.RegisterOptions{Name: "child"})
	w.RegisterActivityWithOptions(beat, activity.RegisterOptions{Name: "beat"})
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "job", TaskQueue: "count"}, "parent")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SignalWorkflow(ctx, "job", "", "go", nil); err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	u, err := walkJob(ctx, c, "job")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"workflow_start": 3, "activity": 3, "local_activity": 1, "timer": 1, "signal": 1}
	if !maps.Equal(u.actions, want) {
		t.Errorf("actions %v, want %v", u.actions, want)
	}
	if u.runs != 3 || u.events < 20 || u.bytes < 10*u.events {
		t.Errorf("%d runs, %d events, %d bytes; want 3 runs and the events' sizes", u.runs, u.events, u.bytes)
	}
	if hb.count() < 1 {
		t.Errorf("%d heartbeats sent; want at least the first of three activities'", hb.count())
	}
}

func TestCPUAtInterpolates(t *testing.T) {
	t0 := time.Unix(100, 0)
	s := []cpuSample{{t0, 0}, {t0.Add(time.Second), 100 * time.Millisecond}, {t0.Add(2 * time.Second), 300 * time.Millisecond}}
	for _, c := range []struct {
		at   time.Time
		want time.Duration
	}{
		{t0.Add(-time.Second), 0},
		{t0.Add(500 * time.Millisecond), 50 * time.Millisecond},
		{t0.Add(1500 * time.Millisecond), 200 * time.Millisecond},
		{t0.Add(3 * time.Second), 300 * time.Millisecond},
	} {
		if got := cpuAt(s, c.at); got != c.want {
			t.Errorf("cpuAt(%s) = %s, want %s", c.at.Sub(t0), got, c.want)
		}
	}
}
