package main

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// A worker killed while a turn's generation is in flight loses nothing for
// long: the turn's Generate stops heartbeating and is retried on another
// worker after the job's turn-sized heartbeat timeout (10 s by default, not
// a minute), and the episode finishes exactly once.
func TestKilledWorkersTurnResumesAfterHeartbeatTimeout(t *testing.T) {
	const queue = "durable-heartbeat"
	// The third generation hangs (longer than the test) on whichever worker
	// serves it; every other one answers at once.
	srv := startPolicy(t, openaitest.WithFaultFunc(func(seq int) openaitest.Fault {
		if seq == 2 {
			return openaitest.Slow(time.Hour)
		}
		return openaitest.Fault{}
	}))
	// request_timeout 10m: Generate's start-to-close (4×) cannot be what
	// brings the turn back, only its heartbeat timeout can.
	spec := endpointSpec(t, "durable-heartbeat", srv, 1, 4, "10m") // one group of 4 episodes
	c := temporalClient(t)
	a := startWorker(t, "a", queue, nil)
	run := submit(t, c, queue, spec)
	waitFor(t, time.Minute, "the hanging generation", func() bool { return srv.ChatCount() >= 3 })
	a.kill()
	startWorker(t, "b", queue, nil)
	waitJob(t, run, 2*time.Minute)
	checkExactlyOnce(t, spec, srv)

	// The hung turn came back on its heartbeat timeout, which is the job's.
	retried := 0
	for e := range 4 {
		retried += generateRetries(t, c, schema.EpisodeID(spec.Job, 0, e), spec.Episode.Heartbeat())
	}
	if retried == 0 {
		t.Fatal("no PlayTurns attempt retried the turn lost with worker a")
	}
}

// generateRetries counts an episode's Generate or PlayTurns attempts that
// retried a heartbeat timeout, and checks every one had the job's
// heartbeat timeout.
func generateRetries(t *testing.T, c client.Client, id string, heartbeat time.Duration) int {
	t.Helper()
	scheduled := map[int64]*historypb.ActivityTaskScheduledEventAttributes{}
	retried := 0
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if s := ev.GetActivityTaskScheduledEventAttributes(); s != nil && (s.GetActivityType().GetName() == activities.GenerateName || s.GetActivityType().GetName() == activities.PlayTurnsName) {
			scheduled[ev.GetEventId()] = s
			if got := s.GetHeartbeatTimeout().AsDuration(); got != heartbeat {
				t.Fatalf("%s: %s scheduled with heartbeat timeout %v, want %v", id, s.GetActivityType().GetName(), got, heartbeat)
			}
		}
		if s := ev.GetActivityTaskStartedEventAttributes(); s != nil && scheduled[s.GetScheduledEventId()] != nil && s.GetAttempt() > 1 {
			if tt := s.GetLastFailure().GetTimeoutFailureInfo().GetTimeoutType(); tt != enumspb.TIMEOUT_TYPE_HEARTBEAT {
				t.Fatalf("Generate attempt %d followed a %v failure, want a heartbeat timeout: %v", s.GetAttempt(), tt, s.GetLastFailure())
			}
			retried++
		}
	}
	return retried
}
