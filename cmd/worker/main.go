// Command worker runs Quarry's workflows and activities against a Temporal
// cluster. Run as many as you like; each polls the task queue.
//
//	worker --address temporal:7233 --namespace rl --task-queue quarry
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/logs"
	"github.com/quarry-rl/quarry/internal/metrics"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/tools/mcp"
	"github.com/quarry-rl/quarry/tools/toolset"
	"github.com/quarry-rl/quarry/workflows"
)

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	var (
		conn          tclient.Options
		queue         string
		maxActivities int
		maxWorkflows  int
		shutdownWait  time.Duration
		verbose       bool
		metricsAddr   string
		roles         = workflows.AllRoles
		sb            sandbox.Options
		mcpUser       = mcp.DefaultUser
		mcpHomes      string
	)
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run Quarry's workflows and activities",
		Long: `Run Quarry's workflows and activities. Run as many workers as you like;
each polls the task queue. SIGINT or SIGTERM stops a worker gracefully: it
stops polling and lets running activities finish for up to --shutdown-timeout.

Environment (a testing aid, never set in production):
  ` + crashEnv + `="point@n[,point@n...]"
      exit the process with status 137, as SIGKILL would, the n-th time
      (default 1) an activity reaches point, one of
        ` + strings.Join(activities.CrashPoints(), "\n        "),
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			if mcpUser.UID <= 0 || mcpUser.GID <= 0 {
				return fmt.Errorf("--mcp-uid %d --mcp-gid %d: MCP stdio servers never run as root; give an unprivileged account (default %d:%d, nobody)",
					mcpUser.UID, mcpUser.GID, mcp.DefaultUser.UID, mcp.DefaultUser.GID)
			}
			log := slog.New(logs.Handler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
			var crash func(string)
			if v := os.Getenv(crashEnv); v != "" {
				var err error
				if crash, err = crashHook(v); err != nil {
					return err
				}
			}
			c, mx, disconnect, err := connect(conn, metricsAddr, log)
			if err != nil {
				return err
			}
			defer disconnect()
			// One sandbox for the process: python tool calls and code grading.
			sb.Logger = log
			provider := sandbox.Lazy(sb)
			reg, err := catalog.New(catalog.WithSandbox(provider))
			if err != nil {
				return err
			}
			if crash != nil {
				log.Warn("test crash points armed: this worker will exit at them", crashEnv, os.Getenv(crashEnv))
			}
			if !roles.Main && !roles.Tools {
				return fmt.Errorf("--workflows=false and --tools=false: this worker would serve nothing")
			}
			a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Log: log, Crash: crash,
				Tools: &toolset.Host{Provider: provider, Log: log, MCP: mcpOptions(mcpUser, mcpHomes)}}
			if mx != nil {
				a.Metrics = mx
			}
			w := workflows.NewWorkers(c, queue, a, worker.Options{
				MaxConcurrentActivityExecutionSize:     maxActivities,
				MaxConcurrentWorkflowTaskExecutionSize: maxWorkflows,
				WorkerStopTimeout:                      shutdownWait,
			}, roles)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if roles.Tools {
				reclaimSandbox(ctx, log, provider)
			}
			if err := w.Start(); err != nil {
				return err
			}
			mx.Ready(c)
			log.Info("worker started", "address", conn.Address, "namespace", conn.Namespace, "task_queue", queue, "host_queue", w.HostQueue)
			<-ctx.Done()
			log.Info("stopping: waiting for running activities", "timeout", shutdownWait)
			w.Stop()
			return nil
		},
	}
	conn.AddFlags(cmd.Flags())
	tclient.AddTaskQueueFlag(cmd.Flags(), &queue, workflows.DefaultTaskQueue, "task queue to poll")
	cmd.Flags().IntVar(&maxActivities, "max-activities", 0, "concurrent activities on the shared queue (0: workflows.DefaultActivitySlots, 8192; an episode in flight holds one)")
	cmd.Flags().IntVar(&maxWorkflows, "max-workflow-tasks", 0, "concurrent workflow tasks (0: the SDK default)")
	cmd.Flags().DurationVar(&shutdownWait, "shutdown-timeout", 30*time.Second, "how long a graceful stop waits for running activities")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "debug logging")
	cmd.Flags().StringVar(&metricsAddr, "metrics-address", "", "serve Prometheus metrics, /healthz and /readyz at host:port, e.g. 127.0.0.1:9464 (off when empty)")
	cmd.Flags().BoolVar(&roles.Main, "workflows", true, "serve the shared queue: workflows, inference, env steps, shards")
	cmd.Flags().BoolVar(&roles.Tools, "tools", true, "serve the tool queue (<task-queue>-tools): sandboxed python, search, MCP calls")
	cmd.Flags().StringVar(&sb.BaseDir, "sandbox-dir", "", "work dirs of sandboxed tool sessions (default $TMPDIR/quarry-sandbox)")
	cmd.Flags().IntVar(&sb.Slots, "sandbox-slots", 0, "concurrent sandboxed runs, each as its own host uid (default: the CPU count)")
	cmd.Flags().IntVar(&sb.UIDBase, "sandbox-uid-base", 0, "host uid of the first sandbox slot (default 61000); give each worker on one host its own range")
	cmd.Flags().IntVar(&mcpUser.UID, "mcp-uid", mcp.DefaultUser.UID, "uid MCP stdio servers run as when the worker is root (never 0)")
	cmd.Flags().IntVar(&mcpUser.GID, "mcp-gid", mcp.DefaultUser.GID, "gid MCP stdio servers run as when the worker is root (never 0)")
	cmd.Flags().StringVar(&mcpHomes, "mcp-home-dir", "", "where each episode's MCP server gets its working directory and home (default $TMPDIR); the MCP user must be able to reach it")
	return cmd
}

// mcpOptions are the MCP tool's in-process knobs from the worker's flags.
func mcpOptions(u mcp.User, homes string) []mcp.Option {
	opts := []mcp.Option{mcp.WithUser(u)}
	if homes != "" {
		opts = append(opts, mcp.WithHomeBase(homes))
	}
	return opts
}

// connect serves the metrics (when asked) before it dials Temporal, so
// /healthz answers while the worker connects and /readyz says it is not
// ready yet; disconnect closes both.
func connect(conn tclient.Options, metricsAddr string, log *slog.Logger) (_ client.Client, _ *metrics.Process, disconnect func(), _ error) {
	mx, err := metrics.Start(metricsAddr, log)
	if err != nil {
		return nil, nil, nil, err
	}
	closeMetrics := func() {
		if err := mx.Close(); err != nil {
			log.Warn("metrics: close", "err", err)
		}
	}
	conn.MetricsHandler = mx.Handler()
	c, err := conn.Dial(log)
	if err != nil {
		closeMetrics()
		return nil, nil, nil, err
	}
	return c, mx, func() { c.Close(); closeMetrics() }, nil
}

// reclaimSandbox makes a tool worker's sandbox at start-up, which kills what
// a dead worker's sandbox left running as the slot uids before any call
// comes. A failure is only logged: the host may have no bubblewrap and its
// jobs no python, and the first call that needs the sandbox tries again.
func reclaimSandbox(ctx context.Context, log *slog.Logger, provider func(context.Context) (*sandbox.Sandbox, error)) {
	if _, err := provider(ctx); err != nil {
		log.Warn("sandbox not ready at start-up; the first python call or code grading will try again", "err", err)
	}
}

// crashEnv arms test crash points (see crashHook).
const crashEnv = "QUARRY_TEST_CRASH"

// crashHook parses "point@n[,point@n...]" into an activities.Crash hook
// that exits the process with status 137 — no deferred calls, no
// goodbyes to the server, as a SIGKILL — the n-th time point is reached.
func crashHook(spec string) (func(point string), error) {
	at := map[string]int{}
	for _, item := range strings.Split(spec, ",") {
		point, count, found := strings.Cut(strings.TrimSpace(item), "@")
		n := 1
		if found {
			var err error
			if n, err = strconv.Atoi(count); err != nil || n < 1 {
				return nil, fmt.Errorf("%s: %q: want point@n with n ≥ 1", crashEnv, item)
			}
		}
		if !slices.Contains(activities.CrashPoints(), point) {
			return nil, fmt.Errorf("%s: unknown crash point %q; known: %s", crashEnv, point, strings.Join(activities.CrashPoints(), ", "))
		}
		at[point] = n
	}
	var mu sync.Mutex
	seen := map[string]int{}
	return func(point string) {
		mu.Lock()
		defer mu.Unlock() // held while exiting: no other activity gets past a point
		n, ok := at[point]
		if !ok {
			return
		}
		if seen[point]++; seen[point] == n {
			fmt.Fprintf(os.Stderr, "worker: %s: exiting at %s (time %d)\n", crashEnv, point, n)
			os.Exit(137)
		}
	}, nil
}
