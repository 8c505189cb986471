// Command submit validates a job spec, submits it (or attaches to the job
// already running under its id) and watches it to the end with a progress
// bar. With --local it runs everything in this process: an embedded Temporal
// server persisted under --state-dir and a worker; kill it and run the same
// command again, and the job resumes where it was.
//
//	submit --local examples/quickstart.yaml
//	submit --address temporal:7233 spec.yaml --wait
//	submit status|pause|resume|cancel <job>; submit list
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/internal/logs"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/workflows"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRoot(os.Stdout, os.Stderr).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "submit:", err)
		stop()
		os.Exit(1)
	}
}

type globals struct {
	conn     tclient.Options
	queue    string
	local    bool
	stateDir string
	sandbox  sandbox.Options // with --local: the sandbox tool calls and code grading run in
	ui       bool
	// noWorkerGrace is how long --wait sees no worker before it warns (0:
	// never).
	noWorkerGrace time.Duration
	// metricsAddr, with --local: where the in-process worker serves its
	// metrics, /healthz and /readyz (off when empty).
	metricsAddr string
	out, err    io.Writer
}

func (g *globals) logger() *slog.Logger {
	return slog.New(logs.Handler(slog.NewTextHandler(g.err, &slog.HandlerOptions{Level: slog.LevelWarn})))
}

func newRoot(out, errw io.Writer) *cobra.Command {
	g := &globals{out: out, err: errw}
	var wait, dryRun bool
	root := &cobra.Command{
		Use:   "submit [flags] spec.yaml",
		Short: "Submit a Quarry job and watch it",
		Long: "Validate a job spec, submit it (or attach to the job running under its id) and watch it.\n" +
			"With --local, an embedded Temporal server and an in-process worker run the job here.",
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSubmit(cmd.Context(), g, args[0], wait || g.local, dryRun)
		},
	}
	root.SetOut(out)
	root.SetErr(errw)
	pf := root.PersistentFlags()
	g.conn.AddFlags(pf)
	tclient.AddTaskQueueFlag(pf, &g.queue, workflows.DefaultTaskQueue, "task queue the workers poll")
	pf.BoolVar(&g.local, "local", false, "run an embedded Temporal server and a worker in this process")
	pf.StringVar(&g.stateDir, "state-dir", ".quarry", "with --local: where the embedded server keeps its database")
	pf.BoolVar(&g.ui, "ui", false, "with --local: also serve the Temporal Web UI on loopback")
	root.Flags().StringVar(&g.sandbox.BaseDir, "sandbox-dir", "", "with --local: work dirs of sandboxed runs (default $TMPDIR/quarry-sandbox)")
	root.Flags().IntVar(&g.sandbox.UIDBase, "sandbox-uid-base", 0, "with --local: host uid of the first sandbox slot (default 61000)")
	root.Flags().StringVar(&g.metricsAddr, "metrics-address", "", "with --local: serve Prometheus metrics, /healthz and /readyz at host:port, e.g. 127.0.0.1:9464 (off when empty)")
	root.Flags().BoolVar(&wait, "wait", false, "watch the job until it ends (always on with --local)")
	root.Flags().BoolVar(&dryRun, "dry-run", false, "validate the spec and the output location, then stop")
	root.Flags().DurationVar(&g.noWorkerGrace, "worker-grace", defaultNoWorkerGrace, "with --wait: warn when no worker has polled the job's task queue for this long (0: never)")
	root.AddCommand(statusCmd(g), signalCmd(g, "pause", workflows.SignalPause), signalCmd(g, "resume", workflows.SignalResume), setInFlightCmd(g), policyCmd(g), cancelCmd(g), listCmd(g))
	return root
}
