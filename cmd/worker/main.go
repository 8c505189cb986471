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
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/tclient"
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
	)
	cmd := &cobra.Command{
		Use:           "worker",
		Short:         "Run Quarry's workflows and activities",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
			c, err := conn.Dial(log)
			if err != nil {
				return err
			}
			defer c.Close()
			reg, err := catalog.New()
			if err != nil {
				return err
			}
			w := worker.New(c, queue, worker.Options{
				MaxConcurrentActivityExecutionSize:     maxActivities,
				MaxConcurrentWorkflowTaskExecutionSize: maxWorkflows,
				WorkerStopTimeout:                      shutdownWait,
			})
			workflows.Register(w, &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Log: log})
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if err := w.Start(); err != nil {
				return fmt.Errorf("start worker: %w", err)
			}
			log.Info("worker started", "address", conn.Address, "namespace", conn.Namespace, "task_queue", queue)
			<-ctx.Done()
			log.Info("stopping: waiting for running activities", "timeout", shutdownWait)
			w.Stop()
			return nil
		},
	}
	conn.AddFlags(cmd.Flags())
	cmd.Flags().StringVar(&queue, "task-queue", workflows.DefaultTaskQueue, "task queue to poll")
	cmd.Flags().IntVar(&maxActivities, "max-activities", 0, "concurrent activities (0: the SDK default)")
	cmd.Flags().IntVar(&maxWorkflows, "max-workflow-tasks", 0, "concurrent workflow tasks (0: the SDK default)")
	cmd.Flags().DurationVar(&shutdownWait, "shutdown-timeout", 30*time.Second, "how long a graceful stop waits for running activities")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "debug logging")
	return cmd
}
