// Package report summarises one job's committed dataset — rewards, returns
// and success per batch and per env, turn and token distributions, tool-call
// rates and errors, latency percentiles, faults and failures by class — and
// renders it as one self-contained HTML file (charts drawn by an inlined
// Chart.js; nothing is fetched when the file is opened).
//
// Only committed shards count: the files the manifests in _manifest/ name,
// each checked against its manifest's size and SHA-256. Every number is
// defined by a DuckDB query over the same files in docs/report.md, and the
// tests hold the rendered page to those queries.
package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

// ErrNoShards reports a job with no committed shard: there is nothing to
// summarise yet.
var ErrNoShards = errors.New("no committed shard")

// turnRow is the part of a turn row the report needs; parquet-go reads just
// these columns, never the prompts, actions or token arrays.
type turnRow struct {
	Batch          int32   `parquet:"batch"`
	EnvID          string  `parquet:"env_id"`
	ToolName       *string `parquet:"tool_name"`
	PromptLen      int32   `parquet:"prompt_len"`
	ResponseLen    int32   `parquet:"response_len"`
	GenerationMs   float64 `parquet:"generation_ms"`
	EnvMs          float64 `parquet:"env_ms"`
	ErrorClass     *string `parquet:"error_class"`
	FailedAttempts *int32  `parquet:"failed_attempts"`
	LastFault      *string `parquet:"last_fault"`
}

// episodeRow is the part of an episode row the report needs.
type episodeRow struct {
	Batch          int32   `parquet:"batch"`
	EnvID          string  `parquet:"env_id"`
	EnvVersion     string  `parquet:"env_version"`
	NumTurns       int32   `parquet:"num_turns"`
	NumToolTurns   int32   `parquet:"num_tool_turns"`
	TotalReward    float64 `parquet:"total_reward"`
	Return         float64 `parquet:"return"`
	Success        bool    `parquet:"success"`
	Retries        int32   `parquet:"retries"`
	PromptTokens   int64   `parquet:"prompt_tokens"`
	ResponseTokens int64   `parquet:"response_tokens"`
}

// dataset is what Build reads: the committed rows (the columns above) and
// failure records of one job.
type dataset struct {
	manifests []schema.Manifest
	turns     []turnRow
	episodes  []episodeRow
	failures  []schema.Failure
}

// Build reads the committed shards of job from store and computes its
// report. location is shown in the report as where the data came from.
func Build(ctx context.Context, store blob.Store, job string) (*Report, error) {
	d, err := read(ctx, store, job)
	if err != nil {
		return nil, err
	}
	if len(d.manifests) == 0 {
		return nil, fmt.Errorf("job %q at %s: %w (no %s*.json); run `quarry inspect` to see what is there", job, store.URL(), ErrNoShards, schema.ManifestPrefix(job))
	}
	r := compute(d)
	r.Job = job
	r.Location = store.URL()
	return r, nil
}

func read(ctx context.Context, store blob.Store, job string) (*dataset, error) {
	ms, err := shard.Committed(ctx, store, job)
	if err != nil {
		return nil, err
	}
	d := &dataset{manifests: ms}
	for _, m := range ms {
		for _, f := range m.Files {
			data, err := shard.ReadFile(ctx, store, job, f)
			if err != nil {
				return nil, fmt.Errorf("batch %d: %s: %w", m.Batch, f.Path, err)
			}
			switch {
			case strings.HasSuffix(f.Path, ".turns.parquet"):
				rows, err := readParquet[turnRow](data, schema.TableTurns)
				if err != nil {
					return nil, fmt.Errorf("batch %d: %s: %w", m.Batch, f.Path, err)
				}
				d.turns = append(d.turns, rows...)
			case strings.HasSuffix(f.Path, ".episodes.parquet"):
				rows, err := readParquet[episodeRow](data, schema.TableEpisodes)
				if err != nil {
					return nil, fmt.Errorf("batch %d: %s: %w", m.Batch, f.Path, err)
				}
				d.episodes = append(d.episodes, rows...)
			case strings.HasSuffix(f.Path, ".jsonl"):
				fs, err := schema.UnmarshalFailures(data)
				if err != nil {
					return nil, fmt.Errorf("batch %d: %s: %w", m.Batch, f.Path, err)
				}
				d.failures = append(d.failures, fs...)
			}
		}
	}
	return d, nil
}

// readParquet reads the columns of T from a Quarry file of the given table,
// refusing files of another table or a schema version this build does not
// know.
func readParquet[T any](data []byte, table string) ([]T, error) {
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	if got, _ := f.Lookup(schema.MetaTable); got != table {
		return nil, fmt.Errorf("holds the %q table, want %q", got, table)
	}
	v, _ := f.Lookup(schema.MetaSchemaVersion)
	if n, err := strconv.Atoi(v); err != nil || n < 1 || n > schema.SchemaVersion {
		return nil, fmt.Errorf("%w: %s=%q, this build reads 1 to %d", schema.ErrSchemaVersion, schema.MetaSchemaVersion, v, schema.SchemaVersion)
	}
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	out := make([]T, 0, f.NumRows())
	buf := make([]T, 256)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
