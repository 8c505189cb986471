package workflows

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
)

// Workers are what one process runs: a worker on the shared queue (every
// workflow and activity) and one on the process's own host queue, for
// activities that must reach this process's in-memory sessions (an
// episode's Generate after this process ran its Act). This is Temporal's
// worker-specific task queue pattern: a lost process only costs a rebuild
// from the turn log.
type Workers struct {
	shared, host worker.Worker
	// HostQueue is the process's own queue.
	HostQueue string
}

// NewWorkers creates the workers on queue and on a fresh host queue named
// after it, registers the workflows and activities, and sets a.HostQueue.
func NewWorkers(c client.Client, queue string, a *activities.Activities, opts worker.Options) *Workers {
	a.HostQueue = NewHostQueue(queue)
	shared := worker.New(c, queue, opts)
	Register(shared, a)
	hostOpts := opts
	hostOpts.DisableWorkflowWorker = true
	// Every turn of every episode this process holds comes back here: poll
	// with as many pollers as the backlog needs, not the default two.
	hostOpts.MaxConcurrentActivityTaskPollers = 0
	hostOpts.ActivityTaskPollerBehavior = worker.NewPollerBehaviorAutoscaling(worker.PollerBehaviorAutoscalingOptions{})
	host := worker.New(c, a.HostQueue, hostOpts)
	RegisterHost(host, a)
	return &Workers{shared: shared, host: host, HostQueue: a.HostQueue}
}

// NewHostQueue names a process's own queue: the shared queue's name, the
// host name, the pid and a random suffix, unique across restarts.
func NewHostQueue(queue string) string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s@%s-%d-%s", queue, host, os.Getpid(), hex.EncodeToString(b[:]))
}

// RegisterHost registers the activities a host queue serves.
func RegisterHost(w worker.Registry, a *activities.Activities) {
	w.RegisterActivityWithOptions(a.Generate, activity.RegisterOptions{Name: activities.GenerateName})
}

// Start starts both workers.
func (w *Workers) Start() error {
	if err := w.shared.Start(); err != nil {
		return fmt.Errorf("start worker: %w", err)
	}
	if err := w.host.Start(); err != nil {
		w.shared.Stop()
		return fmt.Errorf("start host-queue worker: %w", err)
	}
	return nil
}

// Stop stops both, letting running activities finish within the options'
// WorkerStopTimeout.
func (w *Workers) Stop() {
	var wg sync.WaitGroup
	wg.Go(w.host.Stop)
	wg.Go(w.shared.Stop)
	wg.Wait()
}
