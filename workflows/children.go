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
	fut, set := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for try := 1; ; try++ {
			child := workflow.ExecuteChildWorkflow(ctx, name, input)
			err := child.GetChildWorkflowExecution().Get(ctx, nil)
			if err == nil || !temporal.IsWorkflowExecutionAlreadyStartedError(err) || try == childStartAttempts {
				set.Chain(child)
				return
			}
			if err := workflow.Sleep(ctx, childStartBackoff); err != nil {
				set.SetError(err)
				return
			}
		}
	})
	return fut
}
