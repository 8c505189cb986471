package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/quarry-rl/quarry/workflows"
)

func statusCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status <job>",
		Short: "Show a job's progress",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := connect(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			desc, err := sess.client.DescribeWorkflowExecution(cmd.Context(), args[0], "")
			if err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			v, err := sess.client.QueryWorkflow(cmd.Context(), args[0], "", workflows.QueryProgress)
			if err != nil {
				return fmt.Errorf("job %s: progress: %w", args[0], err)
			}
			var p workflows.Progress
			if err := v.Get(&p); err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(g.out)
				enc.SetIndent("", "  ")
				return enc.Encode(p)
			}
			fmt.Fprintf(g.out, "job %s: %s%s\n", p.Job, desc.GetWorkflowExecutionInfo().GetStatus(), map[bool]string{true: " (paused)"}[p.Paused])
			fmt.Fprintf(g.out, "  batches  %d/%d committed, %d in flight\n", p.BatchesDone, p.Batches, p.BatchesInFlight)
			fmt.Fprintf(g.out, "  episodes %d/%d done, %d failed, %d solved\n", p.EpisodesDone, p.Episodes, p.EpisodesFailed, p.Successes)
			fmt.Fprintf(g.out, "  turns    %d (%.1f/s), mean reward %.4f\n", p.Turns, p.TurnsPerSecond(), p.MeanReward())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func signalCmd(g *globals, name, signal string) *cobra.Command {
	return &cobra.Command{
		Use:   name + " <job>",
		Short: name + " a running job (in-flight batches finish; no new ones start while paused)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := connect(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			if err := sess.client.SignalWorkflow(cmd.Context(), args[0], "", signal, nil); err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			fmt.Fprintf(g.out, "job %s: %s sent\n", args[0], name)
			return nil
		},
	}
}

func cancelCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel <job>",
		Short: "Cancel a job: committed shards stay, in-flight batches are cancelled",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := connect(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			if err := sess.client.CancelWorkflow(cmd.Context(), args[0], ""); err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			fmt.Fprintf(g.out, "job %s: cancellation requested\n", args[0])
			return nil
		},
	}
}

func listCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List jobs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sess, err := connect(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			var token []byte
			for {
				resp, err := sess.client.ListWorkflow(cmd.Context(), &workflowservice.ListWorkflowExecutionsRequest{
					Query: fmt.Sprintf("WorkflowType = '%s'", workflows.JobWorkflowName), NextPageToken: token,
				})
				if err != nil {
					return fmt.Errorf("list jobs: %w", err)
				}
				for _, e := range resp.GetExecutions() {
					fmt.Fprintf(g.out, "%-40s %-12s started %s\n", e.GetExecution().GetWorkflowId(), e.GetStatus(), e.GetStartTime().AsTime().Format(time.DateTime))
				}
				if token = resp.GetNextPageToken(); len(token) == 0 {
					return nil
				}
			}
		},
	}
}
