package report_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/report"
	"github.com/quarry-rl/quarry/internal/report/reporttest"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
)

const job = "job-r"

// writeDataset commits batches 0 to 2 of a job (multi-turn served
// episodes, random-policy bundles with tool turns, one failed episode per
// batch) and leaves batch 3 half written, as a crashed writer would.
func writeDataset(t *testing.T, s blob.Store) {
	t.Helper()
	ctx := context.Background()
	for batch := range 4 {
		b := shardtest.Write(ctx, t, s, shardtest.Options{Job: job, Batch: batch, Seed: uint64(20 + batch), Gamma: 0.9, Turns: 6})
		var opts []shard.Option
		if batch == 3 {
			opts = append(opts, shard.WithStepHook(func(st shard.Step) error {
				if st == shard.AfterEpisodes {
					return blob.ErrCrash
				}
				return nil
			}))
		}
		if _, err := shard.Write(ctx, s, b.Input, opts...); batch < 3 && err != nil {
			t.Fatal(err)
		}
	}
}

func renderFile(t *testing.T, r *report.Report) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := report.Render(f, r); err != nil {
		t.Fatal(err)
	}
	return path
}

// The report of a dataset opens in Chromium with every chart drawn, and
// every number it shows equals DuckDB's over the committed files: the
// half-written batch 3 counts nowhere.
func TestReportMatchesDuckDB(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, store)
	r, err := report.Build(ctx, store, job)
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.Batches != 3 || r.Summary.FailedEpisodes != 3 || len(r.Tools) == 0 {
		t.Fatalf("summary %+v, tools %+v: want 3 committed batches, 3 failures and tool turns", r.Summary, r.Tools)
	}
	p := reporttest.Open(t, renderFile(t, r))
	reporttest.CheckCharts(t, p, "chart-batches", "chart-envs", "chart-turns", "chart-response-tokens", "chart-prompt-tokens",
		"chart-tools", "chart-latency", "chart-faults")
	reporttest.CheckNumbers(t, p, dir, job)
	if len(p.Tables["t-batches"]) != 3 {
		t.Errorf("batches shown %v, want 0 to 2", p.Tables["t-batches"])
	}
	if out := os.Getenv("QUARRY_REPORT_SCREENSHOT"); out != "" {
		if err := os.WriteFile(out, p.Screenshot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A job with nothing committed has no report, and the error says so.
func TestReportWithoutShards(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := report.Build(ctx, store, "nothing"); !errors.Is(err, report.ErrNoShards) {
		t.Fatalf("Build = %v, want ErrNoShards", err)
	}
}

// docs/report.md shows exactly the queries the tests hold the page to.
func TestQueriesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range reporttest.Queries {
		if !strings.Contains(string(doc), "```sql\n"+q.SQL+";\n```") {
			t.Errorf("docs/report.md lacks the query of %s:\n%s", q.Table, q.SQL)
		}
	}
}

// A committed file that differs from its manifest is an error, not a
// report of whatever it now holds.
func TestReportRefusesCorruptFile(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	store, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, store)
	path := filepath.Join(dir, job, "shards", "part-00001.episodes.parquet")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := report.Build(ctx, store, job); !errors.Is(err, shard.ErrCorruptFile) || !strings.Contains(err.Error(), "batch 1") {
		t.Fatalf("Build = %v, want ErrCorruptFile naming batch 1", err)
	}
}
