package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Retrying a child start that collided with a run still closing.
const (
	childStartBackoff  = 5 * time.Second
	childStartAttempts = 60 // five minutes of a cancelled run still closing
)

// startChild starts a child workflow whose id may still be held by a run
// of an earlier job run that is being cancelled (a job failed or cancelled,
// then resubmitted at once: parent-close cancellation takes a moment). Such
// a start fails with "already started"; it is retried after a pause instead
// of failing the batch or burning the episode. Ids of closed runs are
// reusable (the caller's WorkflowIDReusePolicy allows duplicates).
func startChild(ctx workflow.Context, name string, input any) workflow.Future {
	fut, _ := startSignalable(ctx, name, input)
	return fut
}

// child is a child workflow started by startSignalable.
type child struct {
	f       workflow.ChildWorkflowFuture // the run that started
	started workflow.Future              // ready once f's run has started
}

// signal sends the child a signal once its run has started: a signal sent
// before (by id, to a workflow not yet running) would be lost. Signals
// sent this way arrive in the order sent.
func (c *child) signal(ctx workflow.Context, name string, arg any) {
	workflow.Go(ctx, func(ctx workflow.Context) {
		if c.started.Get(ctx, nil) != nil {
			return // never started: nobody to tell
		}
		_ = c.f.SignalChildWorkflow(ctx, name, arg).Get(ctx, nil)
	})
}

// startSignalable is startChild, also returning a handle to signal the
// child with.
func startSignalable(ctx workflow.Context, name string, input any) (workflow.Future, *child) {
	fut, set := workflow.NewFuture(ctx)
	started, setStarted := workflow.NewFuture(ctx)
	c := &child{started: started}
	workflow.Go(ctx, func(ctx workflow.Context) {
		for try := 1; ; try++ {
			cf := workflow.ExecuteChildWorkflow(ctx, name, input)
			err := cf.GetChildWorkflowExecution().Get(ctx, nil)
			if err == nil || !temporal.IsWorkflowExecutionAlreadyStartedError(err) || try == childStartAttempts {
				c.f = cf
				setStarted.Set(nil, err)
				set.Chain(cf)
				return
			}
			if err := workflow.Sleep(ctx, childStartBackoff); err != nil {
				setStarted.SetError(err)
				set.SetError(err)
				return
			}
		}
	})
	return fut, c
}
