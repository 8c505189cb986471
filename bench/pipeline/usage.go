package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// result is one run's figures, the benchmark interface of issue 15: the
// JSON object printed with -json.
type result struct {
	Scenario              string  `json:"scenario"`
	InFlight              int     `json:"in_flight"`
	LatencyS              float64 `json:"latency_s"`
	Episodes              int     `json:"episodes"`
	Turns                 int     `json:"turns"`
	WallS                 float64 `json:"wall_s"`
	IdealTurnsPerS        float64 `json:"ideal_turns_per_s"`
	JobTurnsPerS          float64 `json:"job_turns_per_s"`
	SteadyTurnsPerS       float64 `json:"steady_turns_per_s"`
	SteadyFractionOfIdeal float64 `json:"steady_fraction_of_ideal"`
	// CPUMsPerTurn is this process's (server + worker) user+sys CPU over
	// the steady window divided by the endpoint turns completed in it;
	// CPUMsPerTurnJob the same over the whole job.
	CPUMsPerTurn    float64 `json:"cpu_ms_per_turn"`
	CPUMsPerTurnJob float64 `json:"cpu_ms_per_turn_job"`
	ActionsPerTurn  float64 `json:"actions_per_turn"`
	// Actions counts billable actions by kind (see countHistory).
	Actions             map[string]int `json:"actions"`
	HistoryBytesPerTurn float64        `json:"history_bytes_per_turn"`
	HistoryEvents       int            `json:"history_events"`
	Workflows           int            `json:"workflow_runs"`
	OverheadMs          float64        `json:"overhead_ms_per_turn,omitempty"`
	PeakRequests        int            `json:"peak_requests,omitempty"`
	PlainLoopTurnsPerS  float64        `json:"plain_loop_turns_per_s,omitempty"`
	FractionOfPlainLoop *float64       `json:"fraction_of_plain_loop,omitempty"`
	Date                string         `json:"date"`
}

// addUsage fills the cost figures of r from one job's run and its histories.
func (r *result) addUsage(run jobRun, u usage) {
	per := func(x float64) float64 { return x / float64(max(1, r.Turns)) }
	r.CPUMsPerTurnJob = per(float64(run.cpu.Microseconds()) / 1000)
	u.actions["heartbeat"] = int(run.heartbeats)
	total := 0
	for _, n := range u.actions {
		total += n
	}
	r.Actions, r.ActionsPerTurn = u.actions, per(float64(total))
	r.HistoryBytesPerTurn, r.HistoryEvents, r.Workflows = per(float64(u.bytes)), u.events, u.runs
}

// processCPU is this process's user+sys CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const cpuEvery = 100 * time.Millisecond

type cpuSample struct {
	at  time.Time
	cpu time.Duration
}

// cpuSampler records processCPU every interval until stop, so the CPU of a
// window known only afterwards (the steady state) can be read off.
type cpuSampler struct {
	quit    chan struct{}
	done    chan struct{}
	samples []cpuSample
}

func startCPUSampler(every time.Duration) *cpuSampler {
	s := &cpuSampler{quit: make(chan struct{}), done: make(chan struct{})}
	s.samples = append(s.samples, cpuSample{time.Now(), processCPU()})
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.quit:
				return
			case now := <-t.C:
				s.samples = append(s.samples, cpuSample{now, processCPU()})
			}
		}
	}()
	return s
}

func (s *cpuSampler) stop() []cpuSample {
	close(s.quit)
	<-s.done
	return append(s.samples, cpuSample{time.Now(), processCPU()})
}

// cpuAt interpolates the process CPU at t between the samples around it.
func cpuAt(samples []cpuSample, t time.Time) time.Duration {
	i, _ := slices.BinarySearchFunc(samples, t, func(s cpuSample, t time.Time) int { return s.at.Compare(t) })
	switch {
	case i == 0:
		return samples[0].cpu
	case i == len(samples):
		return samples[len(samples)-1].cpu
	}
	a, b := samples[i-1], samples[i]
	f := float64(t.Sub(a.at)) / float64(b.at.Sub(a.at))
	return a.cpu + time.Duration(f*float64(b.cpu-a.cpu))
}

// Recorded heartbeats leave no history event; the SDK throttles
// RecordHeartbeat calls and sends the rest with these RPCs, which the server
// records (and a cloud bills), so the client counts them.
var heartbeatMethods = []string{
	"/temporal.api.workflowservice.v1.WorkflowService/RecordActivityTaskHeartbeat",
	"/temporal.api.workflowservice.v1.WorkflowService/RecordActivityTaskHeartbeatById",
}

// rpcCounter counts the unary calls of some gRPC methods.
type rpcCounter struct {
	methods []string
	n       atomic.Int64
}

func newRPCCounter(methods ...string) *rpcCounter { return &rpcCounter{methods: methods} }

func (c *rpcCounter) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if slices.Contains(c.methods, method) {
		c.n.Add(1)
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func (c *rpcCounter) count() int64 { return c.n.Load() }

// usage is what a job's histories hold: billable actions by kind, events,
// their bytes (proto size) and workflow runs.
type usage struct {
	actions map[string]int
	events  int
	bytes   int
	runs    int
}

// countHistory adds one run's history to u and returns the runs it leads
// to: the children it started and the run it continued as new into.
//
// Billable actions counted (as issue 15 lists them, after Temporal Cloud's
// pricing): a workflow run's start (the job, every child, every
// continue-as-new run: one WorkflowExecutionStarted each, so a child start
// is not counted again in its parent), every activity attempt (scheduled,
// plus the retries its started event reports), every local activity (a
// "LocalActivity" marker; its retries inside one marker are not visible),
// every timer started and every signal received. Heartbeats are counted by
// the client (rpcCounter). Version and side-effect markers, search
// attribute upserts and queries are not counted.
func countHistory(events []*historypb.HistoryEvent, u *usage) []*commonpb.WorkflowExecution {
	var next []*commonpb.WorkflowExecution
	u.runs++
	for _, ev := range events {
		u.events++
		u.bytes += proto.Size(ev)
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			u.actions["workflow_start"]++
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			u.actions["activity"]++
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			if a := ev.GetActivityTaskStartedEventAttributes().GetAttempt(); a > 1 {
				u.actions["activity_retry"] += int(a - 1)
			}
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == "LocalActivity" {
				u.actions["local_activity"]++
			}
		case enumspb.EVENT_TYPE_TIMER_STARTED:
			u.actions["timer"]++
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			u.actions["signal"]++
		case enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
			next = append(next, ev.GetChildWorkflowExecutionStartedEventAttributes().GetWorkflowExecution())
		}
	}
	return next
}

// walkJob reads the histories of a job's workflow runs — the job's runs
// (the latest and every run before it), its children and theirs, and every
// run they continued as new into — and counts them.
func walkJob(ctx context.Context, c client.Client, id string) (usage, error) {
	u := usage{actions: map[string]int{}}
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return u, fmt.Errorf("describe %s: %w", id, err)
	}
	level := []*commonpb.WorkflowExecution{d.GetWorkflowExecutionInfo().GetExecution()}
	seen := map[string]bool{level[0].GetRunId(): true}
	for len(level) > 0 {
		var (
			mu   sync.Mutex
			next []*commonpb.WorkflowExecution
		)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(8)
		for _, ex := range level {
			g.Go(func() error {
				evs, err := history(gctx, c, ex)
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				for _, r := range append(countHistory(evs, &u), otherRuns(ex, evs)...) {
					if !seen[r.GetRunId()] {
						seen[r.GetRunId()] = true
						next = append(next, r)
					}
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return u, err
		}
		level = next
	}
	return u, nil
}

// otherRuns are the runs of ex's workflow before and after it: the one it
// continued from and the one it continued as new into.
func otherRuns(ex *commonpb.WorkflowExecution, evs []*historypb.HistoryEvent) []*commonpb.WorkflowExecution {
	var runs []*commonpb.WorkflowExecution
	if len(evs) == 0 {
		return nil
	}
	if prev := evs[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId(); prev != "" {
		runs = append(runs, &commonpb.WorkflowExecution{WorkflowId: ex.GetWorkflowId(), RunId: prev})
	}
	if last := evs[len(evs)-1].GetWorkflowExecutionContinuedAsNewEventAttributes(); last != nil {
		runs = append(runs, &commonpb.WorkflowExecution{WorkflowId: ex.GetWorkflowId(), RunId: last.GetNewExecutionRunId()})
	}
	return runs
}

func history(ctx context.Context, c client.Client, ex *commonpb.WorkflowExecution) ([]*historypb.HistoryEvent, error) {
	it := c.GetWorkflowHistory(ctx, ex.GetWorkflowId(), ex.GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var evs []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("history of %s/%s: %w", ex.GetWorkflowId(), ex.GetRunId(), err)
		}
		evs = append(evs, ev)
	}
	return evs, nil
}
