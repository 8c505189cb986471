package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

// defaultNoWorkerGrace is how long `submit --wait` sees no worker polling
// the job's task queue before it warns.
const defaultNoWorkerGrace = 15 * time.Second

// pollerCheckEvery spaces the task-queue lookups of a watch.
const pollerCheckEvery = 2 * time.Second

// workerWatch warns once, on stderr, when no worker has polled the job's
// queues for the grace period: a job submitted to a queue (or namespace)
// no worker serves waits forever, silently.
type workerWatch struct {
	g       *globals
	c       client.Client
	spec    schema.JobSpec
	queue   string
	start   time.Time
	last    time.Time
	seen    bool // some worker polled since the watch started
	done    bool // warned, or a worker was seen: nothing more to say
	missing []string
}

func newWorkerWatch(ctx context.Context, g *globals, c client.Client, spec schema.JobSpec) *workerWatch {
	return &workerWatch{g: g, c: c, spec: spec, queue: jobQueue(ctx, c, spec.Job, g.queue), start: time.Now()}
}

// jobQueue is the task queue the job's current run is on (an attached job
// may have been submitted to another one than --task-queue).
func jobQueue(ctx context.Context, c client.Client, job, fallback string) string {
	desc, err := c.DescribeWorkflowExecution(ctx, job, "")
	if q := desc.GetExecutionConfig().GetTaskQueue().GetName(); err == nil && q != "" {
		return q
	}
	return fallback
}

// check looks at the queues' pollers every pollerCheckEvery and warns once
// the grace period has passed with a queue still unpolled.
func (w *workerWatch) check(ctx context.Context) {
	if w.done || w.g.local || w.g.noWorkerGrace <= 0 || time.Since(w.last) < pollerCheckEvery {
		return
	}
	w.last = time.Now()
	missing, err := w.unpolled(ctx)
	if err != nil {
		return // the server may be restarting; ask again at the next check
	}
	if len(missing) == 0 {
		w.done = true
		return
	}
	grace := w.g.noWorkerGrace
	if time.Since(w.start) < grace {
		return
	}
	w.done = true
	c := w.g.conn
	fmt.Fprintf(w.g.err, "\nwarning: no worker has polled %s in namespace %q for %s: the job waits until one does.\n"+
		"  start one: worker --address %s --namespace %s --task-queue %s\n"+
		"  or check that the workers use this address, namespace and task queue (flags or $%s, $%s, $%s)\n",
		strings.Join(missing, " or "), c.Namespace, grace.Round(time.Second), c.Address, c.Namespace, w.queue,
		tclient.EnvAddress, tclient.EnvNamespace, tclient.EnvTaskQueue)
}

// unpolled names the queues no worker polls: the job's queue (workflow and
// activity tasks) and, for a job with tools, its tool queue.
func (w *workerWatch) unpolled(ctx context.Context) ([]string, error) {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	p, err := tclient.QueuePollers(qctx, w.c, w.queue)
	if err != nil {
		return nil, err
	}
	var missing []string
	if p.Workflow == 0 || p.Activity == 0 {
		missing = append(missing, fmt.Sprintf("task queue %q", w.queue))
	}
	if w.spec.Tools != nil {
		tq := workflows.ToolQueue(w.queue)
		tp, err := tclient.QueuePollers(qctx, w.c, tq)
		if err != nil {
			return nil, err
		}
		if tp.Activity == 0 {
			missing = append(missing, fmt.Sprintf("tool queue %q (workers with --tools)", tq))
		}
	}
	return missing, nil
}
