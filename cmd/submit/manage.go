package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/quarry-rl/quarry/internal/localserver"
	"github.com/quarry-rl/quarry/internal/tclient"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

func statusCmd(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status <job>",
		Short: "Show a job's progress",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := manage(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			desc, err := sess.client.DescribeWorkflowExecution(cmd.Context(), args[0], "")
			if err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			p, err := progress(cmd.Context(), sess.client, args[0], desc.GetWorkflowExecutionInfo().GetStatus())
			if err != nil {
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
			if p.PromptTokens+p.ResponseTokens > 0 {
				fmt.Fprintf(g.out, "  tokens   %d prompt, %d response\n", p.PromptTokens, p.ResponseTokens)
			}
			if o := p.Online; o != nil {
				fmt.Fprintf(g.out, "  online   %s, policy %s (step %d), slowest consumer at batch %d", o.Mode, o.Policy.Version, o.Policy.Step, o.Slowest)
				if o.Waiting != "" {
					fmt.Fprintf(g.out, ", waiting for %s", o.Waiting)
				}
				fmt.Fprintln(g.out)
			}
			if desc.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
				printRunning(cmd.Context(), g, sess.client, args[0], desc.GetExecutionConfig().GetTaskQueue().GetName(), p)
			}
			printFaults(g.out, p)
			switch desc.GetWorkflowExecutionInfo().GetStatus() {
			case enums.WORKFLOW_EXECUTION_STATUS_FAILED, enums.WORKFLOW_EXECUTION_STATUS_CANCELED,
				enums.WORKFLOW_EXECUTION_STATUS_TERMINATED, enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
				fmt.Fprintf(g.out, "  submit the same spec again to resume it: committed shards are kept, only the other batches run\n")
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// printRunning writes what a running job has in flight against its cap,
// who polls its queue, and what caps its parallelism. What cannot be read
// (an old worker's progress without limits, a server hiccup) is left out.
func printRunning(ctx context.Context, g *globals, c client.Client, job, queue string, p workflows.Progress) {
	spec, err := startedSpec(ctx, c, job)
	if err != nil {
		return
	}
	limits := spec.InFlight
	if p.InFlight != nil {
		limits = *p.InFlight
	}
	if n, unit, err := episodesInFlight(ctx, c, job, spec); err == nil {
		fmt.Fprintf(g.out, "  running  %d batches, %d %s (cap %d episodes: in_flight %d batches × %d episodes)\n",
			p.BatchesInFlight, n, unit, spec.EpisodeCap(limits), limits.Batches, limits.Episodes)
	}
	workers := 0
	if pollers, err := tclient.QueuePollers(ctx, c, queue); err == nil {
		workers = pollers.Workers()
		fmt.Fprintf(g.out, "  workers  %d polling %q (workflow tasks %d, activity tasks %d)\n", workers, queue, pollers.Workflow, pollers.Activity)
		if workers == 0 {
			fmt.Fprintf(g.out, "           no worker polls the job's queue: start one with --task-queue %s\n", queue)
		}
	}
	fmt.Fprintf(g.out, "  sizing   %s\n", spec.SizingNote(limits, workers))
}

// episodesInFlight counts what the job's running batches have in flight:
// episode workflows (openai policy), or RunEpisodes activities of up to 32
// episodes each (local policies).
func episodesInFlight(ctx context.Context, c client.Client, job string, spec schema.JobSpec) (int, string, error) {
	top, err := tclient.RunningOf(ctx, c, job)
	if err != nil {
		return 0, "", err
	}
	n, unit := 0, "episodes"
	if spec.Policy.Kind != schema.PolicyOpenAI {
		unit = "episode chunks (up to 32 episodes each)"
	}
	for _, b := range top.Children {
		r, err := tclient.RunningOf(ctx, c, b)
		if err != nil {
			return 0, "", err
		}
		if spec.Policy.Kind == schema.PolicyOpenAI {
			n += len(r.Children)
		} else {
			n += r.Activities
		}
	}
	return n, unit, nil
}

// progress reads a job's progress: a finished job's result, or a running
// job's answer to the progress query, which needs a worker polling its queue.
func progress(ctx context.Context, c client.Client, job string, status enums.WorkflowExecutionStatus) (workflows.Progress, error) {
	var p workflows.Progress
	switch status {
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		if err := c.GetWorkflow(ctx, job, "").Get(ctx, &p); err != nil {
			return p, fmt.Errorf("job %s: result: %w", job, err)
		}
		return p, nil
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
	default:
		p.Job = job
		return p, nil // failed, cancelled, terminated: no progress to show beyond the status
	}
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := c.QueryWorkflow(qctx, job, "", workflows.QueryProgress)
	if err != nil {
		if qctx.Err() != nil {
			return p, fmt.Errorf("job %s: no worker answered the progress query in 10 s: start a worker (or rerun `submit --local` with the job's spec to resume it)", job)
		}
		return p, fmt.Errorf("job %s: progress: %w", job, err)
	}
	if err := v.Get(&p); err != nil {
		return p, fmt.Errorf("job %s: progress: %w", job, err)
	}
	return p, nil
}

// faults sums up a job's fault counters, "" when there are none: failed
// episodes by class, then past endpoint outages. Status and the progress
// bar both show it.
func faults(p workflows.Progress) string {
	var parts []string
	for _, c := range p.Faults.Failed {
		parts = append(parts, fmt.Sprintf("%s %d", c.Class, c.Count))
	}
	if n := p.Faults.EndpointOutages; n > 0 {
		parts = append(parts, fmt.Sprintf("endpoint outages %d (%d turns paused)", n, p.Faults.TurnsPaused))
	}
	return strings.Join(parts, ", ")
}

// printFaults writes what went wrong in a job, if anything: an endpoint
// outage going on, failed episodes by class, past outages, and what an
// earlier run of the job committed.
func printFaults(w io.Writer, p workflows.Progress) {
	if o := p.Endpoint; o != nil {
		fmt.Fprintf(w, "  endpoint unavailable since %s (%s), %d turns waiting; no new episodes start until it answers: %s\n",
			o.Since.Local().Format(time.DateTime), time.Since(o.Since).Round(time.Second), o.Waiting, o.Reason)
	}
	if f := faults(p); f != "" {
		fmt.Fprintf(w, "  faults   %s\n", f)
	}
	if r := p.Resumed; r.Batches > 0 {
		fmt.Fprintf(w, "  resumed  %d batches (%d episodes, %d failed) committed by an earlier run\n", r.Batches, r.Episodes, r.Failed)
	}
}

// failureVerdict fails a finished job whose every episode failed, or whose
// failed share is above the spec's episode.max_failed_fraction.
func failureVerdict(spec schema.JobSpec, p workflows.Progress) error {
	failures := fmt.Sprintf("%s/%s/_failures/", strings.TrimPrefix(spec.Output, "file://"), spec.Job)
	limit := spec.Episode.FailedFractionLimit()
	switch {
	case p.EpisodesDone > 0 && p.EpisodesFailed == p.EpisodesDone:
		return fmt.Errorf("job %s: every one of its %d episodes failed; see %s", spec.Job, p.EpisodesDone, failures)
	case p.FailedFraction() > limit:
		return fmt.Errorf("job %s: %d of %d episodes failed (%.1f%%), above episode.max_failed_fraction %.1f%%; see %s",
			spec.Job, p.EpisodesFailed, p.EpisodesDone, 100*p.FailedFraction(), 100*limit, failures)
	}
	return nil
}

func signalCmd(g *globals, name, signal string) *cobra.Command {
	return &cobra.Command{
		Use:   name + " <job>",
		Short: name + " a running job (in-flight batches finish; no new ones start while paused)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := manage(cmd.Context(), g)
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

func setInFlightCmd(g *globals) *cobra.Command {
	var f schema.InFlight
	cmd := &cobra.Command{
		Use:   "set-in-flight <job> [--batches N] [--episodes N]",
		Short: "Change a running job's in-flight limits (batches at once; episodes at once per batch, from the next batch on)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.Batches < 0 || f.Episodes < 0 || f.Batches+f.Episodes == 0 {
				return fmt.Errorf("set-in-flight: give --batches and/or --episodes, each at least 1")
			}
			sess, err := manage(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			if err := checkInFlight(cmd.Context(), sess.client, args[0], f); err != nil {
				return err
			}
			if err := sess.client.SignalWorkflow(cmd.Context(), args[0], "", workflows.SignalSetInFlight, f); err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			fmt.Fprintf(g.out, "job %s: in-flight limits sent (batches %d, episodes %d; 0 = unchanged)\n", args[0], f.Batches, f.Episodes)
			return nil
		},
	}
	cmd.Flags().IntVar(&f.Batches, "batches", 0, "batches in flight at once")
	cmd.Flags().IntVar(&f.Episodes, "episodes", 0, "episodes in flight at once in each batch started from now on")
	return cmd
}

// checkInFlight refuses limits the job's spec could not run with: the
// bounds and the Temporal-size budget a spec is checked against before
// submission (docs/limits.md), applied to the spec of the job's current run
// with the new limits.
func checkInFlight(ctx context.Context, c client.Client, job string, f schema.InFlight) error {
	spec, err := startedSpec(ctx, c, job)
	if err != nil {
		return err
	}
	if f.Batches > 0 {
		spec.InFlight.Batches = f.Batches
	}
	if f.Episodes > 0 {
		spec.InFlight.Episodes = f.Episodes
	}
	var se schema.SpecError
	if err := spec.Validate(); errors.As(err, &se) {
		var refused schema.SpecError
		for _, fe := range se {
			if strings.HasPrefix(fe.Path, "in_flight.") {
				refused = append(refused, fe)
			}
		}
		if len(refused) > 0 {
			return fmt.Errorf("set-in-flight %s: %w", job, refused)
		}
	}
	return nil
}

// startedSpec is the spec a job's current run started with.
func startedSpec(ctx context.Context, c client.Client, job string) (schema.JobSpec, error) {
	it := c.GetWorkflowHistory(ctx, job, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		return schema.JobSpec{}, fmt.Errorf("job %s: no history", job)
	}
	ev, err := it.Next()
	if err != nil {
		return schema.JobSpec{}, fmt.Errorf("job %s: read its start: %w", job, err)
	}
	var in workflows.JobInput
	if err := converter.GetDefaultDataConverter().FromPayloads(ev.GetWorkflowExecutionStartedEventAttributes().GetInput(), &in); err != nil {
		return schema.JobSpec{}, fmt.Errorf("job %s: decode its spec: %w", job, err)
	}
	return in.Spec, nil
}

func policyCmd(g *globals) *cobra.Command {
	var sig workflows.PolicySignal
	cmd := &cobra.Command{
		Use:   "policy <job> --version v7 [--model name]",
		Short: "Announce a new policy version to an online job, once the inference servers serve it",
		Long: "Announce a new policy version to an online job: turns sent from now on record it as policy_version,\n" +
			"and staleness (online.max_version_lag) is counted in announcements. With --model the requests ask for\n" +
			"that served model name from now on. Announcing the live version again does nothing.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := schema.CheckVersionLabel(sig.Version); err != nil {
				return fmt.Errorf("policy --version: %w", err)
			}
			if len(sig.Model) > schema.MaxNameLen {
				return fmt.Errorf("policy --model: %d bytes: want at most %d", len(sig.Model), schema.MaxNameLen)
			}
			if dir := filepath.Join(g.stateDir, "temporal"); g.local && !localserver.InUse(dir) {
				// Starting a server here would run the job's state without
				// its worker, beside a submit --local about to restart.
				return fmt.Errorf("policy --local: no submit --local is running with state dir %s; announce again once it runs", g.stateDir)
			}
			sess, err := manage(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer sess.close()
			spec, err := startedSpec(cmd.Context(), sess.client, args[0])
			if err != nil {
				return err
			}
			if spec.Online == nil {
				return fmt.Errorf("job %s is not an online job (its spec has no online: section); policy versions are announced to online jobs only", args[0])
			}
			if err := sess.client.SignalWorkflow(cmd.Context(), args[0], "", workflows.SignalPolicy, sig); err != nil {
				return fmt.Errorf("job %s: %w", args[0], err)
			}
			fmt.Fprintf(g.out, "job %s: policy version %s announced\n", args[0], sig.Version)
			return nil
		},
	}
	cmd.Flags().StringVar(&sig.Version, "version", "", "the new version's label (e.g. v7, step-1200)")
	cmd.Flags().StringVar(&sig.Model, "model", "", "the model name the servers now serve the weights under (default: unchanged)")
	return cmd
}

func cancelCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel <job>",
		Short: "Cancel a job: committed shards stay, in-flight batches are cancelled",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := manage(cmd.Context(), g)
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
			sess, err := manage(cmd.Context(), g)
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
