// Package metrics is Quarry's Prometheus instrumentation: one registry per
// process holding Quarry's own collectors (turns, episodes, tokens, faults
// and latency histograms, labelled by job and env), the Temporal SDK's
// metrics through its metrics handler (names prefixed temporal_), the Go
// runtime and process collectors; and the HTTP server that serves them at
// /metrics with /healthz and /readyz beside.
//
// A *Metrics is built once by a command (cmd/worker, cmd/submit --local)
// and passed in: to the Temporal client as its MetricsHandler, to the
// activities as their recorder. Nothing here is global.
package metrics

import (
	"fmt"
	"log/slog"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.temporal.io/sdk/client"
)

// Names of Quarry's metrics (docs/observability.md says what each counts).
const (
	TurnsTotal        = "quarry_turns_total"
	EpisodesTotal     = "quarry_episodes_total"
	TokensTotal       = "quarry_tokens_total"
	FaultsTotal       = "quarry_faults_total"
	GenerationSeconds = "quarry_generation_seconds"
	EnvStepSeconds    = "quarry_env_step_seconds"
	ToolCallSeconds   = "quarry_tool_call_seconds"
	JobsEvicted       = "quarry_metrics_jobs_evicted_total"
)

// Label names. "job" is Prometheus's own target label too: scrape Quarry
// with honor_labels: true to keep it (docs/observability.md).
const (
	LabelJob    = "job"
	LabelEnv    = "env"
	LabelStatus = "status"
	LabelKind   = "kind"
	LabelClass  = "class"
	LabelTool   = "tool"
)

// Values of the kind label of quarry_tokens_total.
const (
	KindPrompt     = "prompt"
	KindCompletion = "completion"
)

// DefaultMaxJobs is how many jobs' series a process keeps by default.
const DefaultMaxJobs = 32

// Metrics is one process's registry and Quarry's collectors on it. Its
// methods are safe for concurrent use.
type Metrics struct {
	reg        *prometheus.Registry
	turns      *prometheus.CounterVec
	episodes   *prometheus.CounterVec
	tokens     *prometheus.CounterVec
	faults     *prometheus.CounterVec
	generation *prometheus.HistogramVec
	envStep    *prometheus.HistogramVec
	toolCall   *prometheus.HistogramVec
	evicted    prometheus.Counter
	vecs       []*prometheus.MetricVec

	jobs *lru.Cache[string, struct{}] // jobs with series, least recently seen first out

	provider *sdkmetric.MeterProvider
	temporal client.MetricsHandler
}

// An Option adjusts New.
type Option func(*options)

type options struct {
	maxJobs int
	log     *slog.Logger
}

// WithMaxJobs bounds the jobs whose series the process keeps (DefaultMaxJobs
// by default): past it, the series of the job seen least recently are
// deleted, which bounds the label cardinality of a long-lived worker.
func WithMaxJobs(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.maxJobs = n
		}
	}
}

// WithLogger logs what the metrics pipeline itself gets wrong (an SDK
// instrument it cannot make). Silent by default.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New makes a registry with Quarry's collectors, the Go and process
// collectors and the Temporal SDK's handler (Temporal).
func New(opts ...Option) (*Metrics, error) {
	o := options{maxJobs: DefaultMaxJobs, log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(&o)
	}
	m := &Metrics{reg: prometheus.NewRegistry()}
	jl := []string{LabelJob, LabelEnv}
	m.turns = prometheus.NewCounterVec(prometheus.CounterOpts{Name: TurnsTotal,
		Help: "Turns played: act records written by Act, ToolCall and RunEpisodes (attempts: a retried turn counts again)."}, jl)
	m.episodes = prometheus.NewCounterVec(prometheus.CounterOpts{Name: EpisodesTotal,
		Help: "Episode outcomes, counted once when their shard commits: solved, unsolved (committed) or failed."}, append(jl, LabelStatus))
	m.tokens = prometheus.NewCounterVec(prometheus.CounterOpts{Name: TokensTotal,
		Help: "Tokens the endpoint reported in its answers to Generate, by kind (prompt, completion)."}, append(jl, LabelKind))
	m.faults = prometheus.NewCounterVec(prometheus.CounterOpts{Name: FaultsTotal,
		Help: "Faults seen by activities: failed inference requests by fault class, failed activity attempts by error type."}, append(jl, LabelClass))
	m.generation = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: GenerationSeconds,
		Help:    "Latency of the answered request of a generation (its failed attempts count in quarry_faults_total).",
		Buckets: prometheus.ExponentialBuckets(0.01, 2, 14)}, jl) // 10 ms … 82 s
	m.envStep = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: EnvStepSeconds,
		Help:    "Latency of one env step (Act, and each turn of locally played episodes).",
		Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)}, jl) // 100 µs … 26 s
	m.toolCall = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: ToolCallSeconds,
		Help:    "Latency of one tool call, its session's start included.",
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)}, append(jl, LabelTool)) // 5 ms … 41 s
	m.evicted = prometheus.NewCounter(prometheus.CounterOpts{Name: JobsEvicted,
		Help: "Jobs whose series were deleted to keep the label cardinality bounded (WithMaxJobs)."})
	for _, v := range []prometheus.Collector{m.turns, m.episodes, m.tokens, m.faults, m.generation, m.envStep, m.toolCall, m.evicted,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := m.reg.Register(v); err != nil {
			return nil, fmt.Errorf("metrics: register: %w", err)
		}
	}
	m.vecs = []*prometheus.MetricVec{m.turns.MetricVec, m.episodes.MetricVec, m.tokens.MetricVec, m.faults.MetricVec,
		m.generation.MetricVec, m.envStep.MetricVec, m.toolCall.MetricVec}
	jobs, err := lru.NewWithEvict(o.maxJobs, func(job string, _ struct{}) { m.drop(job) })
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	m.jobs = jobs
	if err := m.initTemporal(o.log); err != nil {
		return nil, err
	}
	return m, nil
}

// Registry is the registry everything above is on (tests gather it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Temporal is the handler to give the Temporal client (client.Options.
// MetricsHandler): the SDK's metrics land on this registry.
func (m *Metrics) Temporal() client.MetricsHandler { return m.temporal }

// Close flushes and stops the SDK metrics pipeline.
func (m *Metrics) Close() error {
	if err := m.provider.Shutdown(noCancel()); err != nil {
		return fmt.Errorf("metrics: shut down the SDK meter provider: %w", err)
	}
	return nil
}

// seen marks l's job as in use, evicting the least recently seen job's
// series when there are too many.
func (m *Metrics) seen(job, env string) prometheus.Labels {
	m.jobs.Add(job, struct{}{}) // may call drop
	return prometheus.Labels{LabelJob: job, LabelEnv: env}
}

// drop deletes every series of job (the LRU's eviction callback).
func (m *Metrics) drop(job string) {
	for _, v := range m.vecs {
		v.DeletePartialMatch(prometheus.Labels{LabelJob: job})
	}
	m.evicted.Inc()
}

func with(base prometheus.Labels, name, value string) prometheus.Labels {
	out := make(prometheus.Labels, len(base)+1)
	for k, v := range base {
		out[k] = v
	}
	out[name] = value
	return out
}

// Turns counts n played turns.
func (m *Metrics) Turns(job, env string, n int) {
	if n > 0 {
		m.turns.With(m.seen(job, env)).Add(float64(n))
	}
}

// Generated records one generation the endpoint answered: its latency and
// the tokens it reported.
func (m *Metrics) Generated(job, env string, d time.Duration, promptTokens, completionTokens int) {
	base := m.seen(job, env)
	m.generation.With(base).Observe(d.Seconds())
	if promptTokens > 0 {
		m.tokens.With(with(base, LabelKind, KindPrompt)).Add(float64(promptTokens))
	}
	if completionTokens > 0 {
		m.tokens.With(with(base, LabelKind, KindCompletion)).Add(float64(completionTokens))
	}
}

// Stepped records one env step's latency.
func (m *Metrics) Stepped(job, env string, d time.Duration) {
	m.envStep.With(m.seen(job, env)).Observe(d.Seconds())
}

// ToolCalled records one call of tool and its latency.
func (m *Metrics) ToolCalled(job, env string, tool string, d time.Duration) {
	m.toolCall.With(with(m.seen(job, env), LabelTool, tool)).Observe(d.Seconds())
}

// Fault counts one fault of class.
func (m *Metrics) Fault(job, env string, class string) {
	m.faults.With(with(m.seen(job, env), LabelClass, class)).Inc()
}

// Episodes counts n episode outcomes of status.
func (m *Metrics) Episodes(job, env string, status string, n int) {
	if n > 0 {
		m.episodes.With(with(m.seen(job, env), LabelStatus, status)).Add(float64(n))
	}
}
