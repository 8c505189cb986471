package main

import (
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/metrics"
	"github.com/quarry-rl/quarry/internal/metrics/metricstest"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
)

var metricsServing = regexp.MustCompile(`msg="metrics: serving" address=(\S+)`)

// metricsAddress waits for the worker to log where it serves metrics.
func metricsAddress(t *testing.T, w *workerProc) string {
	t.Helper()
	var addr string
	waitFor(t, 30*time.Second, "the worker logs its metrics address", func() bool {
		if m := metricsServing.FindStringSubmatch(w.log.String()); m != nil {
			addr = m[1]
		}
		return addr != ""
	})
	return addr
}

// A real job on the embedded server, played by a worker process with
// --metrics-address: what /metrics reports equals what the dataset holds
// (turns, episodes by status, tokens, generations, env steps, tool calls),
// the endpoint fault injected is counted and logged once at WARN with its
// attempt, the SDK's temporal_ metrics are there, and every metric the
// Grafana dashboard queries is exported.
func TestMetricsMatchDataset(t *testing.T) {
	c := temporalClient(t)
	b := new(bisect)
	srv := openaitest.Start(t, openaitest.WithPolicy(b.pythonReply),
		openaitest.WithFaults(openaitest.Fault{}, openaitest.Fault{Kind: openaitest.FaultServerError}))
	job := "metrics-e2e"
	spec := toolSpec(t, job, srv, 2, 4)
	const uidBase = 65040
	w := startWorker(t, "metrics", job, nil, "--metrics-address", "127.0.0.1:0",
		"--sandbox-dir", sandboxtest.Dir(t), "--sandbox-uid-base", strconv.Itoa(uidBase), "--sandbox-slots", "2")
	addr := metricsAddress(t, w)
	waitFor(t, 30*time.Second, "/readyz answers 200", func() bool {
		code, _ := metricstest.Get(t, "http://"+addr+metrics.PathReadyz)
		return code == http.StatusOK
	})
	waitJob(t, submit(t, c, job, spec), 3*time.Minute)
	turns, eps := checkExactlyOnce(t, spec, srv)

	f := metricstest.Scrape(t, addr)
	env := spec.Envs[0].ID
	jl := map[string]string{metrics.LabelJob: job, metrics.LabelEnv: env}
	with := func(k, v string) map[string]string {
		return map[string]string{metrics.LabelJob: job, metrics.LabelEnv: env, k: v}
	}
	var promptTokens, completionTokens, toolTurns int
	for _, r := range turns {
		promptTokens += int(r.PromptLen)
		completionTokens += int(r.ResponseLen)
		if r.ToolName != nil {
			toolTurns++
		}
	}
	status := map[string]int{}
	for _, e := range eps {
		if e.Success {
			status["solved"]++
		} else {
			status["unsolved"]++
		}
	}
	if toolTurns == 0 || status["solved"] == 0 {
		t.Fatalf("the job played %d tool turns and solved %d episodes: the test proves nothing", toolTurns, status["solved"])
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"quarry_turns_total", f.Sum(metrics.TurnsTotal, jl), float64(len(turns))},
		{"solved episodes", f.Sum(metrics.EpisodesTotal, with(metrics.LabelStatus, "solved")), float64(status["solved"])},
		{"unsolved episodes", f.Sum(metrics.EpisodesTotal, with(metrics.LabelStatus, "unsolved")), float64(status["unsolved"])},
		{"failed episodes", f.Sum(metrics.EpisodesTotal, with(metrics.LabelStatus, "failed")), 0},
		{"prompt tokens", f.Sum(metrics.TokensTotal, with(metrics.LabelKind, metrics.KindPrompt)), float64(promptTokens)},
		{"completion tokens", f.Sum(metrics.TokensTotal, with(metrics.LabelKind, metrics.KindCompletion)), float64(completionTokens)},
		{"ServerError faults", f.Sum(metrics.FaultsTotal, with(metrics.LabelClass, "ServerError")), 1},
		{"all faults", f.Sum(metrics.FaultsTotal, jl), 1},
		{"generations", float64(f.Count(metrics.GenerationSeconds, jl)), float64(len(turns))},
		{"env steps", float64(f.Count(metrics.EnvStepSeconds, jl)), float64(len(turns) - toolTurns)},
		{"python calls", float64(f.Count(metrics.ToolCallSeconds, with(metrics.LabelTool, "python"))), float64(toolTurns)},
	} {
		if c.got != c.want {
			t.Errorf("%s: /metrics says %v, the dataset %v", c.what, c.got, c.want)
		}
	}
	have := f.SeriesNames()
	for _, name := range []string{"temporal_request_total", "temporal_activity_execution_latency_seconds_bucket", "temporal_workflow_completed_total"} {
		if !have[name] {
			t.Errorf("no %s in /metrics", name)
		}
	}
	names, err := metricstest.DashboardMetrics("../../deploy/grafana/quarry.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if !have[name] {
			t.Errorf("deploy/grafana/quarry.json queries %s, which a worker does not export", name)
		}
	}
	if code, _ := metricstest.Get(t, "http://"+addr+metrics.PathHealthz); code != http.StatusOK {
		t.Errorf("healthz: %d", code)
	}
	// The retried request is one WARN with its attempt; no ERROR line.
	log := w.log.String()
	retries := regexp.MustCompile(`level=WARN msg="inference: retrying" .*attempt=1 fault=ServerError`).FindAllString(log, -1)
	if len(retries) != 1 {
		t.Errorf("%d WARN lines for the retried request, want 1:\n%s", len(retries), tail(log, 3000))
	}
	if strings.Contains(log, "level=ERROR") {
		t.Errorf("an ERROR line in a job that failed nothing:\n%s", tail(log, 3000))
	}
}

// /healthz answers while the worker is still connecting to Temporal and
// /readyz does not: here the frontend accepts connections and never
// answers, so the worker can never start.
func TestReadyzNotReadyBeforeStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	held.Add(1)
	go func() {
		defer held.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		held.Wait()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	// A later --address wins over startWorker's.
	w := startWorker(t, "blackhole", "metrics-blackhole", nil, "--address", ln.Addr().String(), "--metrics-address", "127.0.0.1:0")
	addr := metricsAddress(t, w)
	if code, _ := metricstest.Get(t, "http://"+addr+metrics.PathHealthz); code != http.StatusOK {
		t.Errorf("healthz while connecting: %d", code)
	}
	if code, body := metricstest.Get(t, "http://"+addr+metrics.PathReadyz); code != http.StatusServiceUnavailable {
		t.Errorf("readyz before the worker started: %d %q", code, body)
	}
}
