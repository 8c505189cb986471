// Command pipeline measures the durable pipeline's throughput and cost
// against its ideal, on the embedded Temporal server persisted to a SQLite
// file with the in-process worker, wired as `submit --local` wires them:
//
//   - endpoint: GuessTheNumber episodes of a fixed number of turns against
//     the project's OpenAI-compatible test server (internal/openaitest) run
//     in a process of its own (this binary re-executed with -serve-endpoint,
//     so its CPU is not counted as Quarry's), answering every chat
//     completion after a fixed latency (1 s) with token ids and logprobs;
//     with N episodes in flight the ideal is N turns/s. For each N it reports
//     turns/s over the whole job and in the steady state (the middle 80 % of
//     the served completions), the process CPU (user+sys) per endpoint turn
//     over that window and over the whole job, and, from the histories of
//     the job's workflows, Temporal billable actions and history bytes per
//     endpoint turn.
//   - oracle: the oracle policy at zero latency through the pipeline against
//     a plain in-process loop doing the same work with the same parallelism
//     and no Temporal, in alternating rounds.
//
// It is a program, not a test, so `go test ./...` never runs it:
//
//	go run ./bench/pipeline -json -scenario endpoint -in-flight 1024
//	go run ./bench/pipeline -json -scenario oracle
//	go run ./bench/pipeline                                   # both, at 16…256 in flight
//	go run ./bench/pipeline -concurrency 64 -oracle=false     # the old endpoint gate alone
//
// With -json, one JSON object per run is printed last, one a line. Everything
// binds to 127.0.0.1. See BENCHMARKS.md, "Pipeline throughput".
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"google.golang.org/grpc"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

type config struct {
	levels     []int
	latency    time.Duration
	turns      int
	waves      int
	words      int
	endpoint   bool
	oracle     bool
	oracleEps  int
	repeat     int
	dir        string
	cpuProfile string
	json       bool
}

func main() {
	var (
		cfg      config
		levels   = flag.String("concurrency", "16,32,64,128,256", "episodes in flight for the endpoint runs, comma-separated")
		inFlight = flag.String("in-flight", "", "episodes in flight for the endpoint runs, comma-separated (overrides -concurrency)")
		scenario = flag.String("scenario", "", `run one scenario only: "endpoint" or "oracle" (default: both)`)
		serve    = flag.Bool("serve-endpoint", false, "internal: serve the endpoint test server in this process (the benchmark starts it)")
	)
	flag.DurationVar(&cfg.latency, "latency", time.Second, "latency of every chat completion")
	flag.IntVar(&cfg.turns, "turns", 10, "turns per endpoint episode")
	flag.IntVar(&cfg.waves, "waves", 2, "endpoint episodes per run, in multiples of the episodes in flight")
	flag.IntVar(&cfg.words, "words", 100, "words (tokens) per endpoint response")
	flag.BoolVar(&cfg.endpoint, "endpoint", true, "run the endpoint benchmark")
	flag.BoolVar(&cfg.oracle, "oracle", true, "run the oracle benchmark")
	flag.IntVar(&cfg.oracleEps, "oracle-episodes", 8192, "episodes of each oracle run")
	flag.IntVar(&cfg.repeat, "repeat", 3, "oracle rounds (loop, then pipeline); the gate uses the median")
	flag.StringVar(&cfg.dir, "dir", "", "working folder (default: a new temporary folder, removed at the end)")
	flag.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the whole run (this process: server and worker) to this file")
	flag.BoolVar(&cfg.json, "json", false, "print one JSON object per run, last, one a line")
	flag.Parse()
	if *serve {
		if err := serveEndpoint(cfg.latency, cfg.words); err != nil {
			fmt.Fprintln(os.Stderr, "pipeline -serve-endpoint:", err)
			os.Exit(1)
		}
		return
	}
	err := cfg.parse(*levels, *inFlight, *scenario)
	if err == nil {
		err = run(cfg)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

func (c *config) parse(levels, inFlight, scenario string) error {
	switch scenario {
	case "":
	case "endpoint":
		c.endpoint, c.oracle = true, false
	case "oracle":
		c.endpoint, c.oracle = false, true
	default:
		return fmt.Errorf(`-scenario: %q is not "endpoint" or "oracle"`, scenario)
	}
	name := "-concurrency"
	if inFlight != "" {
		levels, name = inFlight, "-in-flight"
	}
	for _, f := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("%s: %q is not a positive integer", name, f)
		}
		c.levels = append(c.levels, n)
	}
	return nil
}

func run(cfg config) error {
	if cfg.dir == "" {
		tmp, err := os.MkdirTemp("", "quarry-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		cfg.dir = tmp
	}
	if cfg.cpuProfile != "" {
		f, err := os.Create(cfg.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Printf("pipeline benchmark: %s, GOMAXPROCS %d, %s/%s, embedded Temporal on SQLite file\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	var results []result
	if cfg.endpoint {
		rs, err := benchEndpoint(cfg)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	if cfg.oracle {
		rs, err := benchOracle(cfg.dir, cfg.oracleEps, max(1, cfg.repeat))
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	if cfg.json {
		enc := json.NewEncoder(os.Stdout)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// local is the embedded server and the in-process worker, wired as
// `submit --local` wires them (cmd/submit connect()), plus a count of the
// activity heartbeats the worker sends to the server.
type local struct {
	srv        *localserver.Server
	client     client.Client
	worker     *workflows.Workers
	heartbeats *rpcCounter
}

func startLocal(dir string) (*local, error) {
	log := slog.New(slog.DiscardHandler)
	srv, err := localserver.Start(localserver.Options{Dir: filepath.Join(dir, "temporal"), Logger: log})
	if err != nil {
		return nil, err
	}
	hb := newRPCCounter(heartbeatMethods...)
	c, err := client.Dial(client.Options{HostPort: srv.HostPort(), Namespace: srv.Namespace(), Logger: sdklog.NewStructuredLogger(log),
		// As submit --local dials its embedded server: no gzip on loopback.
		ConnectionOptions: client.ConnectionOptions{GrpcCompression: &client.GrpcCompressionNone{},
			DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(hb.intercept)}}})
	if err != nil {
		srv.Stop()
		return nil, err
	}
	reg, err := catalog.New()
	if err != nil {
		c.Close()
		srv.Stop()
		return nil, err
	}
	w := workflows.NewWorkers(c, workflows.DefaultTaskQueue, &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Log: log}, worker.Options{WorkerStopTimeout: 5 * time.Second}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		c.Close()
		srv.Stop()
		return nil, err
	}
	return &local{srv: srv, client: c, worker: w, heartbeats: hb}, nil
}

func (l *local) stop() {
	l.worker.Stop()
	l.client.Close()
	l.srv.Stop()
}

// spec parses, defaults and checks a spec as submit does.
func spec(yaml string) (schema.JobSpec, []activities.EnvPlan, error) {
	s, err := schema.ParseJobSpec([]byte(yaml))
	if err != nil {
		return s, nil, err
	}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		return s, nil, err
	}
	reg, err := catalog.New()
	if err != nil {
		return s, nil, err
	}
	plans, err := activities.ResolveEnvs(reg, s)
	return s, plans, err
}

// jobRun is one job's outcome and what it cost this process.
type jobRun struct {
	progress   workflows.Progress
	start      time.Time
	wall       time.Duration
	cpu        time.Duration // this process's user+sys CPU from submission to completion
	heartbeats int64         // heartbeats sent to the server meanwhile
	samples    []cpuSample   // this process's CPU over the job, every cpuEvery
}

// runJob starts the job workflow as submit does and waits for its end.
func (l *local) runJob(ctx context.Context, s schema.JobSpec) (jobRun, error) {
	sampler := startCPUSampler(cpuEvery)
	hb0 := l.heartbeats.count()
	start, cpu0 := time.Now(), processCPU()
	run, err := l.client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: s.Job, TaskQueue: workflows.DefaultTaskQueue},
		workflows.JobWorkflowName, workflows.JobInput{Spec: s})
	var r jobRun
	if err == nil {
		err = run.Get(ctx, &r.progress)
	}
	r.start, r.wall, r.cpu = start, time.Since(start), processCPU()-cpu0
	r.heartbeats = l.heartbeats.count() - hb0
	r.samples = sampler.stop()
	return r, err
}

func pass(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}
