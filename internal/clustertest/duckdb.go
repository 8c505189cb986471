//go:build linux

package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/internal/duckdbtest"
)

// Counts are what DuckDB finds in a job's committed shards.
type Counts struct {
	Episodes         int64 // episode rows
	DistinctEpisodes int64 // distinct episode_id
	DistinctSlots    int64 // distinct (batch, episode)
	Batches          int64 // distinct batch
	Turns            int64 // turn rows
	DistinctTurns    int64 // distinct (episode_id, turn)
	SumNumTurns      int64 // Σ num_turns over episode rows
	OrphanTurns      int64 // turn rows whose episode has no episode row
	RetriedTurns     int64 // turn rows of an attempt after the first (attempt > 1)
}

// CountShards reads every shards/*.parquet file of the job folder dir (on
// disk: versitygw's POSIX folder holds the objects as files) with DuckDB
// (tools/duckdb, installed by scripts/deps/duckdb.sh).
func (r *Repo) CountShards(ctx context.Context, dir string) (Counts, error) {
	ep := sqlString(filepath.Join(dir, "shards", "*.episodes.parquet"))
	tu := sqlString(filepath.Join(dir, "shards", "*.turns.parquet"))
	q := `WITH e AS (SELECT * FROM read_parquet(` + ep + `)), t AS (SELECT * FROM read_parquet(` + tu + `))
SELECT (SELECT count(*) FROM e) AS episodes,
       (SELECT count(DISTINCT episode_id) FROM e) AS distinct_episodes,
       (SELECT count(*) FROM (SELECT DISTINCT batch, episode FROM e)) AS distinct_slots,
       (SELECT count(DISTINCT batch) FROM e) AS batches,
       (SELECT count(*) FROM t) AS turns,
       (SELECT count(*) FROM (SELECT DISTINCT episode_id, turn FROM t)) AS distinct_turns,
       (SELECT sum(num_turns) FROM e) AS sum_num_turns,
       (SELECT count(*) FROM t ANTI JOIN e USING (episode_id)) AS orphan_turns,
       (SELECT count(*) FROM t WHERE attempt > 1) AS retried_turns`
	out, err := duckdbtest.Exec(ctx, r.Root, "--sql", q)
	if err != nil {
		return Counts{}, err
	}
	var res struct {
		Rows []map[string]json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Rows) != 1 {
		return Counts{}, fmt.Errorf("duckdb: unexpected answer %q: %v", out, err)
	}
	row := res.Rows[0]
	var c Counts
	for name, dst := range map[string]*int64{
		"episodes": &c.Episodes, "distinct_episodes": &c.DistinctEpisodes, "distinct_slots": &c.DistinctSlots,
		"batches": &c.Batches, "turns": &c.Turns, "distinct_turns": &c.DistinctTurns,
		"sum_num_turns": &c.SumNumTurns, "orphan_turns": &c.OrphanTurns, "retried_turns": &c.RetriedTurns,
	} {
		// BIGINT and HUGEINT come as decimal strings.
		var s string
		if err := json.Unmarshal(row[name], &s); err != nil {
			return Counts{}, fmt.Errorf("duckdb: %s: %s: %w", name, row[name], err)
		}
		if *dst, err = strconv.ParseInt(s, 10, 64); err != nil {
			return Counts{}, fmt.Errorf("duckdb: %s: %w", name, err)
		}
	}
	return c, nil
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
