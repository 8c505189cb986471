package tclient

import (
	"context"
	"fmt"
	"slices"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// Pollers are the workers that polled a task queue recently (the server
// keeps a poller listed for a few minutes after its last poll).
type Pollers struct {
	Workflow int // pollers of workflow tasks
	Activity int // pollers of activity tasks
	// Identities are the distinct workers among them, sorted.
	Identities []string
}

// Workers is the number of distinct workers polling.
func (p Pollers) Workers() int { return len(p.Identities) }

// QueuePollers asks the server who polls queue, for workflow and for
// activity tasks.
func QueuePollers(ctx context.Context, c client.Client, queue string) (Pollers, error) {
	var p Pollers
	seen := map[string]bool{}
	for _, typ := range []enumspb.TaskQueueType{enumspb.TASK_QUEUE_TYPE_WORKFLOW, enumspb.TASK_QUEUE_TYPE_ACTIVITY} {
		resp, err := c.DescribeTaskQueue(ctx, queue, typ)
		if err != nil {
			return Pollers{}, fmt.Errorf("describe task queue %s: %w", queue, err)
		}
		n := len(resp.GetPollers())
		if typ == enumspb.TASK_QUEUE_TYPE_WORKFLOW {
			p.Workflow = n
		} else {
			p.Activity = n
		}
		for _, pi := range resp.GetPollers() {
			if id := pi.GetIdentity(); !seen[id] {
				seen[id] = true
				p.Identities = append(p.Identities, id)
			}
		}
	}
	slices.Sort(p.Identities)
	return p, nil
}

// Running is what a workflow has in flight: its child workflows and
// activities not yet closed.
type Running struct {
	Children   []string // workflow ids
	Activities int
}

// RunningOf describes workflow id's current run and returns what it has
// in flight.
func RunningOf(ctx context.Context, c client.Client, id string) (Running, error) {
	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return Running{}, fmt.Errorf("describe %s: %w", id, err)
	}
	r := Running{Activities: len(desc.GetPendingActivities())}
	for _, ch := range desc.GetPendingChildren() {
		r.Children = append(r.Children, ch.GetWorkflowId())
	}
	return r, nil
}
