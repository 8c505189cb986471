package workflows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
)

// Roles says which queues a process serves.
type Roles struct {
	// Main serves the shared queue: every workflow and every activity but
	// tool calls.
	Main bool
	// Tools serves the tool queue (<queue>-tools): tool calls, in sandboxes
	// and MCP sessions, so tool workers scale apart from inference.
	Tools bool
}

// AllRoles serves everything: what `submit --local` and a default worker run.
var AllRoles = Roles{Main: true, Tools: true}

// ToolQueue is the queue tool calls start on, beside the shared queue.
func ToolQueue(queue string) string { return queue + "-tools" }

// Workers are what one process runs: workers on the shared queue and the
// tool queue (per Roles), and one on the process's own host queue, where an
// episode's later tool calls come back to find its session (Temporal's
// worker-specific task queue pattern; a lost process costs a fresh session).
type Workers struct {
	ws    []worker.Worker
	a     *activities.Activities
	stop  chan struct{}
	sweep sync.WaitGroup
	// HostQueue is the process's own queue.
	HostQueue string
}

// idleTools is how long an episode's tool sessions may sit unused before
// the worker closes them (their episode ended without closing them, or moved).
const idleTools = 15 * time.Minute

// DefaultActivitySlots is the shared queue's concurrent activities when
// the options leave it unset: an episode in flight holds one (PlayTurns
// plays its turns), so the SDK's default of 1,000 would cap a worker below
// the thousands of episodes one process sustains while the endpoint works.
const DefaultActivitySlots = 8192

// NewWorkers creates the workers for roles, registers workflows and
// activities, and sets a.HostQueue.
func NewWorkers(c client.Client, queue string, a *activities.Activities, opts worker.Options, roles Roles) *Workers {
	a.HostQueue = NewHostQueue(queue)
	w := &Workers{a: a, HostQueue: a.HostQueue, stop: make(chan struct{})}
	if roles.Main {
		sharedOpts := opts
		if sharedOpts.MaxConcurrentActivityExecutionSize == 0 {
			sharedOpts.MaxConcurrentActivityExecutionSize = DefaultActivitySlots
		}
		shared := worker.New(c, queue, sharedOpts)
		Register(shared, a)
		w.ws = append(w.ws, shared)
	}
	actOpts := opts
	actOpts.DisableWorkflowWorker = true
	if roles.Tools {
		tw := worker.New(c, ToolQueue(queue), actOpts)
		RegisterHost(tw, a)
		w.ws = append(w.ws, tw)
	}
	hostOpts := actOpts
	hostOpts.MaxConcurrentActivityTaskPollers = 0
	hostOpts.ActivityTaskPollerBehavior = worker.NewPollerBehaviorAutoscaling(worker.PollerBehaviorAutoscalingOptions{})
	host := worker.New(c, a.HostQueue, hostOpts)
	RegisterHost(host, a)
	w.ws = append(w.ws, host)
	return w
}

// NewHostQueue names a process's own queue: the shared queue's name, the
// host name, the pid and a random suffix, unique across restarts.
func NewHostQueue(queue string) string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s@%s-%d-%s", queue, host, os.Getpid(), hex.EncodeToString(b[:]))
}

// RegisterHost registers the activities tool and host queues serve.
func RegisterHost(w worker.Registry, a *activities.Activities) {
	w.RegisterActivityWithOptions(a.ToolCall, activity.RegisterOptions{Name: activities.ToolCallName})
	w.RegisterActivityWithOptions(a.CloseTools, activity.RegisterOptions{Name: activities.CloseToolsName})
}

// Start starts the workers and the sweeper of idle tool sessions.
func (w *Workers) Start() error {
	for i, x := range w.ws {
		if err := x.Start(); err != nil {
			for _, y := range w.ws[:i] {
				y.Stop()
			}
			return fmt.Errorf("start worker: %w", err)
		}
	}
	w.sweep.Go(func() {
		t := time.NewTicker(time.Minute)
		defer t.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-t.C:
				w.a.SweepTools(idleTools)
			}
		}
	})
	return nil
}

// Stop stops the workers, letting running activities finish within the
// options' WorkerStopTimeout, then closes every tool session left.
func (w *Workers) Stop() {
	close(w.stop)
	w.sweep.Wait()
	var wg sync.WaitGroup
	for _, x := range w.ws {
		wg.Go(x.Stop)
	}
	wg.Wait()
	w.a.CloseAllTools(context.Background())
}
