package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/internal/blob"
	htmlreport "github.com/quarry-rl/quarry/internal/report"
)

func newReportCmd() *cobra.Command {
	var job, out string
	cmd := &cobra.Command{
		Use:   "report <folder|s3://bucket/prefix>",
		Short: "Write a self-contained HTML report of a job's committed dataset",
		Long: "Write one self-contained HTML file summarising a job's committed shards: reward, return and\n" +
			"success per batch and per env, turns and tokens distributions, tool-call rates and errors, latency\n" +
			"percentiles, faults and failures by class. The location is one job's folder, or the output root\n" +
			"with --job (needed when it holds several jobs). Only the files the manifests name are read, each\n" +
			"checked against its size and SHA-256. The page fetches nothing when opened (charts are inlined).\n" +
			"docs/report.md gives the query behind every number. S3 as for `quarry inspect`.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			store, j, err := reportTarget(ctx, args[0], job)
			if err != nil {
				return err
			}
			r, err := htmlreport.Build(ctx, store, j)
			if err != nil {
				return err
			}
			if err := writeReport(out, r); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: job %s, %d committed batches, %d episodes (%d failed)\n",
				out, j, r.Summary.Batches, r.Summary.Episodes, r.Summary.FailedEpisodes)
			return nil
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "job id (default: the only job at the location, or the job folder given)")
	cmd.Flags().StringVarP(&out, "output", "o", "report.html", "HTML file to write")
	return cmd
}

// reportTarget resolves a location and optional job id to the store that
// holds <job>/ and the job, as inspect does: a job folder stands for itself,
// an output root for its only job.
func reportTarget(ctx context.Context, location, job string) (blob.Store, string, error) {
	store, err := blob.Open(ctx, location, blob.WithoutAutoCleanup())
	if err != nil {
		return nil, "", err
	}
	if job != "" {
		return store, job, jobExists(ctx, store, job)
	}
	if isJobFolder(ctx, store) {
		if parent, name, ok := parentOf(location); ok {
			ps, err := blob.Open(ctx, parent, blob.WithoutAutoCleanup())
			return ps, name, err
		}
	}
	jobs, err := findJobs(ctx, store)
	switch {
	case err != nil:
		return nil, "", err
	case len(jobs) == 0:
		return nil, "", fmt.Errorf("%s: no Quarry dataset found (no <job>/_manifest/ or <job>/shards/)", store.URL())
	case len(jobs) > 1:
		return nil, "", fmt.Errorf("%s holds %d jobs (%s): choose one with --job", store.URL(), len(jobs), strings.Join(jobs, ", "))
	}
	return store, jobs[0], nil
}

// writeReport writes the page to a temporary file beside path and renames
// it, so path is never a half-written report.
func writeReport(path string, r *htmlreport.Report) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".report-*.html")
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	if err := htmlreport.Render(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
