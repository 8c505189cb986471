package metrics

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/metrics/metricstest"
)

func serve(t *testing.T, m *Metrics) *Server {
	t.Helper()
	s, err := Serve("127.0.0.1:0", m, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return s
}

func newMetrics(t *testing.T, opts ...Option) *Metrics {
	t.Helper()
	m, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// record exercises every recorder method once for job.
func record(m *Metrics, job string) {
	m.Turns(job, "game:A", 3)
	m.Generated(job, "game:A", 40*time.Millisecond, 100, 7)
	m.Stepped(job, "game:A", time.Millisecond)
	m.ToolCalled(job, "game:A", "python", 200*time.Millisecond)
	m.Fault(job, "game:A", "ServerError")
	m.Episodes(job, "game:A", "solved", 2)
	m.Episodes(job, "game:A", "failed", 1)
}

// What the recorder methods record is served at /metrics under the
// documented names and labels.
func TestRecorderServed(t *testing.T) {
	m := newMetrics(t)
	s := serve(t, m)
	record(m, "j1")
	m.Turns("j1", "game:A", 2)
	f := metricstest.Scrape(t, s.Addr())
	jl := map[string]string{LabelJob: "j1", LabelEnv: "game:A"}
	with := func(k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range jl {
			out[a] = b
		}
		return out
	}
	for _, c := range []struct {
		got, want float64
		what      string
	}{
		{f.Sum(TurnsTotal, jl), 5, "turns"},
		{f.Sum(TokensTotal, with(LabelKind, KindPrompt)), 100, "prompt tokens"},
		{f.Sum(TokensTotal, with(LabelKind, KindCompletion)), 7, "completion tokens"},
		{f.Sum(FaultsTotal, with(LabelClass, "ServerError")), 1, "faults"},
		{f.Sum(EpisodesTotal, with(LabelStatus, "solved")), 2, "solved episodes"},
		{f.Sum(EpisodesTotal, with(LabelStatus, "failed")), 1, "failed episodes"},
		{float64(f.Count(GenerationSeconds, jl)), 1, "generations"},
		{float64(f.Count(EnvStepSeconds, jl)), 1, "env steps"},
		{float64(f.Count(ToolCallSeconds, with(LabelTool, "python"))), 1, "tool calls"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %v, want %v", c.what, c.got, c.want)
		}
	}
	if h := f[GenerationSeconds].GetMetric()[0].GetHistogram(); h.GetSampleSum() != 0.04 {
		t.Errorf("generation seconds: sum %v, want 0.04", h.GetSampleSum())
	}
	if _, ok := f["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}
}

// Past WithMaxJobs jobs, the least recently seen job's series go.
func TestJobCardinalityBounded(t *testing.T) {
	m := newMetrics(t, WithMaxJobs(2))
	s := serve(t, m)
	record(m, "old")
	record(m, "mid")
	m.Turns("old", "game:A", 1) // "old" is now the most recent: "mid" goes next
	record(m, "new")
	f := metricstest.Scrape(t, s.Addr())
	if got := f.LabelValues(TurnsTotal, LabelJob); strings.Join(got, ",") != "new,old" {
		t.Errorf("jobs with turn series: %v, want new,old", got)
	}
	for _, name := range []string{EpisodesTotal, TokensTotal, FaultsTotal, GenerationSeconds, EnvStepSeconds, ToolCallSeconds} {
		for _, j := range f.LabelValues(name, LabelJob) {
			if j == "mid" {
				t.Errorf("%s still has series of the evicted job", name)
			}
		}
	}
	if got := f.Sum(JobsEvicted, nil); got != 1 {
		t.Errorf("%s = %v, want 1", JobsEvicted, got)
	}
}

// The SDK's metrics handler lands on the same registry, temporal_-named:
// counters with _total, timers as histograms in seconds.
func TestTemporalHandler(t *testing.T) {
	m := newMetrics(t)
	s := serve(t, m)
	h := m.Temporal().WithTags(map[string]string{"task_queue": "q"})
	h.Counter("temporal_request").Inc(2)
	h.Timer("temporal_activity_execution_latency").Record(300 * time.Millisecond)
	h.Gauge("temporal_num_pollers").Update(4)
	f := metricstest.Scrape(t, s.Addr())
	if got := f.Sum("temporal_request_total", map[string]string{"task_queue": "q"}); got != 2 {
		t.Errorf("temporal_request_total = %v, want 2", got)
	}
	if got := f.Count("temporal_activity_execution_latency_seconds", map[string]string{"task_queue": "q"}); got != 1 {
		t.Errorf("temporal_activity_execution_latency_seconds count = %v, want 1", got)
	}
	buckets := f["temporal_activity_execution_latency_seconds"].GetMetric()[0].GetHistogram().GetBucket()
	if len(buckets) != len(temporalBuckets)+1 || buckets[0].GetUpperBound() != temporalBuckets[0] {
		t.Errorf("buckets %v, want the seconds bounds %v and +Inf", buckets, temporalBuckets)
	}
	if g := f["temporal_num_pollers"].GetMetric(); len(g) != 1 || g[0].GetGauge().GetValue() != 4 {
		t.Errorf("temporal_num_pollers: %v", g)
	}
}

// /healthz answers at once; /readyz answers 503 until SetReady, then what
// its check says.
func TestHealthAndReadiness(t *testing.T) {
	s := serve(t, newMetrics(t))
	base := "http://" + s.Addr()
	if code, _ := metricstest.Get(t, base+PathHealthz); code != http.StatusOK {
		t.Errorf("healthz: %d", code)
	}
	if code, body := metricstest.Get(t, base+PathReadyz); code != http.StatusServiceUnavailable || !strings.Contains(body, "starting") {
		t.Errorf("readyz before start: %d %q", code, body)
	}
	s.SetReady(func(context.Context) error { return errors.New("frontend unreachable") })
	if code, body := metricstest.Get(t, base+PathReadyz); code != http.StatusServiceUnavailable || !strings.Contains(body, "frontend unreachable") {
		t.Errorf("readyz while the check fails: %d %q", code, body)
	}
	s.SetReady(func(context.Context) error { return nil })
	if code, _ := metricstest.Get(t, base+PathReadyz); code != http.StatusOK {
		t.Errorf("readyz once ready: %d", code)
	}
	if code, _ := metricstest.Get(t, base+"/nothing"); code != http.StatusNotFound {
		t.Errorf("unknown path: %d", code)
	}
}

func TestServeBadAddress(t *testing.T) {
	m := newMetrics(t)
	for _, addr := range []string{"9464", "127.0.0.1:notaport"} {
		if _, err := Serve(addr, m, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "--metrics-address") {
			t.Errorf("Serve(%q): %v, want an error naming --metrics-address", addr, err)
		}
	}
}

// Off unless asked: Start with no address is a nil *Process whose methods
// do nothing.
func TestStartOff(t *testing.T) {
	p, err := Start("", slog.New(slog.DiscardHandler))
	if err != nil || p != nil {
		t.Fatalf("Start(\"\") = %v, %v; want nil, nil", p, err)
	}
	if p.Handler() != nil || p.Addr() != "" || p.Close() != nil {
		t.Error("a nil Process does something")
	}
	p.Ready(nil)
}

// Every quarry_ metric the dashboard queries is one the registry exports
// (temporal_ names are checked against a real worker in cmd/worker).
func TestDashboardQuarryMetrics(t *testing.T) {
	names, err := metricstest.DashboardMetrics("../../deploy/grafana/quarry.json")
	if err != nil {
		t.Fatal(err)
	}
	m := newMetrics(t)
	record(m, "j")
	s := serve(t, m)
	have := metricstest.Scrape(t, s.Addr()).SeriesNames()
	n := 0
	for _, name := range names {
		if strings.HasPrefix(name, "quarry_") {
			n++
			if !have[name] {
				t.Errorf("the dashboard queries %s, which the registry does not export", name)
			}
		}
	}
	if n < 7 {
		t.Errorf("the dashboard queries only %d quarry_ metrics: %v", n, names)
	}
}
