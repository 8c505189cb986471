package reporttest

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/duckdbtest"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
)

// Query is the DuckDB query behind one table of the report. It reads the
// relations turns, episodes and failures (the committed files, see
// Relations); Key lists the columns whose values, joined by "@", make the
// table's data-row key, and every other column is compared with the cell
// of the same data-k.
type Query struct {
	Table string
	Key   []string
	SQL   string
}

// Queries are the report's numbers as docs/report.md defines them (a test
// keeps the two texts equal).
var Queries = []Query{
	{"t-summary", nil, `SELECT (SELECT count(DISTINCT batch) FROM (SELECT batch FROM episodes UNION ALL SELECT batch FROM failures)) AS batches,
       (SELECT count(*) FROM episodes) AS episodes,
       (SELECT count(*) FROM failures) AS failed_episodes,
       (SELECT count(*) FROM turns) AS turns,
       (SELECT count(*) FROM turns WHERE tool_name IS NOT NULL) AS tool_turns,
       avg(success::INT) AS success_rate, avg(total_reward) AS mean_reward, avg("return") AS mean_return,
       sum(prompt_tokens) AS prompt_tokens, sum(response_tokens) AS response_tokens, sum(retries) AS retries
FROM episodes`},
	{"t-batches", []string{"batch"}, `SELECT batch, count(e.batch) AS episodes, coalesce(any_value(f.n), 0) AS failed_episodes,
       coalesce(sum(num_turns), 0) AS turns, coalesce(avg(total_reward), 0) AS mean_reward,
       coalesce(avg("return"), 0) AS mean_return, coalesce(avg(success::INT), 0) AS success_rate
FROM (SELECT batch FROM episodes UNION SELECT batch FROM failures) b
LEFT JOIN episodes e USING (batch)
LEFT JOIN (SELECT batch, count(*) AS n FROM failures GROUP BY batch) f USING (batch)
GROUP BY batch ORDER BY batch`},
	{"t-envs", []string{"env_id", "env_version"}, `SELECT env_id, env_version, count(e.env_id) AS episodes, coalesce(any_value(f.n), 0) AS failed_episodes,
       coalesce(sum(num_turns), 0) AS turns, coalesce(avg(num_turns), 0) AS mean_turns,
       coalesce(avg(success::INT), 0) AS success_rate, coalesce(avg(total_reward), 0) AS mean_reward,
       coalesce(avg("return"), 0) AS mean_return
FROM (SELECT env_id, env_version FROM episodes UNION SELECT env_id, env_version FROM failures) k
LEFT JOIN episodes e USING (env_id, env_version)
LEFT JOIN (SELECT env_id, env_version, count(*) AS n FROM failures GROUP BY ALL) f USING (env_id, env_version)
GROUP BY env_id, env_version ORDER BY env_id, env_version`},
	{"t-hist-turns", []string{"lo"}, histogramSQL("num_turns", "episodes", "true")},
	{"t-hist-response-tokens", []string{"lo"}, histogramSQL("response_len", "turns", "response_len > 0")},
	{"t-hist-prompt-tokens", []string{"lo"}, histogramSQL("prompt_len", "turns", "response_len > 0")},
	{"t-tools", []string{"tool"}, `SELECT tool_name AS tool, count(*) AS calls, count(error_class) AS errors,
       count(error_class) / count(*) AS error_rate,
       count(*) / (SELECT count(*) FROM episodes) AS calls_per_episode,
       avg(env_ms) AS mean_ms, quantile_cont(env_ms, 0.5) AS p50_ms, quantile_cont(env_ms, 0.95) AS p95_ms
FROM turns WHERE tool_name IS NOT NULL GROUP BY tool_name ORDER BY tool_name`},
	{"t-latency", []string{"kind"}, `SELECT kind, count(*) AS count, avg(ms) AS mean, quantile_cont(ms, 0.5) AS p50,
       quantile_cont(ms, 0.9) AS p90, quantile_cont(ms, 0.99) AS p99, max(ms) AS max
FROM (SELECT 'generation' AS kind, generation_ms AS ms FROM turns
      UNION ALL SELECT 'env_step', env_ms FROM turns WHERE tool_name IS NULL
      UNION ALL SELECT 'tool_call', env_ms FROM turns WHERE tool_name IS NOT NULL)
GROUP BY kind`},
	{"t-failures", []string{"class"}, `SELECT error_class AS class, count(*) AS count FROM failures GROUP BY error_class`},
	{"t-turn-errors", []string{"class"}, `SELECT error_class AS class, count(*) AS count FROM turns WHERE error_class IS NOT NULL GROUP BY error_class`},
	{"t-faults", []string{"class"}, `SELECT coalesce(last_fault, 'unknown') AS class, count(*) AS turns, sum(failed_attempts) AS attempts
FROM turns WHERE failed_attempts > 0 GROUP BY class`},
}

// histogramSQL bins the integer column col of rel (rows where cond holds)
// as the report does: from the smallest value, in bins of the smallest
// width that makes at most 40 of them. Empty bins are absent.
func histogramSQL(col, rel, cond string) string {
	return `SELECT b.lo + (v.x - b.lo) // b.w * b.w AS lo, b.lo + (v.x - b.lo) // b.w * b.w + b.w AS hi, count(*) AS count
FROM (SELECT ` + col + ` AS x FROM ` + rel + ` WHERE ` + cond + `) v,
     (SELECT min(` + col + `) AS lo, greatest(1, (max(` + col + `) - min(` + col + `) + 40) // 40) AS w FROM ` + rel + ` WHERE ` + cond + `) b
GROUP BY ALL ORDER BY lo`
}

// Relations returns the WITH clause that defines turns, episodes and
// failures over the files job's manifests name in store's folder root.
func Relations(t *testing.T, root, job string) string {
	t.Helper()
	ctx := context.Background()
	store, err := blob.Open(ctx, root, blob.WithoutAutoCleanup())
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(ctx, store, job)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]string{}
	for _, m := range ms {
		for _, f := range m.Files {
			kind := filepath.Ext(strings.TrimSuffix(f.Path, ".parquet"))
			if strings.HasSuffix(f.Path, ".jsonl") {
				kind = ".failures"
			}
			files[kind] = append(files[kind], "'"+filepath.Join(root, job, f.Path)+"'")
		}
	}
	list := func(kind string) string { return "[" + strings.Join(files[kind], ", ") + "]" }
	failures := `SELECT NULL::INT AS batch, NULL::VARCHAR AS env_id, NULL::VARCHAR AS env_version, NULL::VARCHAR AS error_class WHERE false`
	if len(files[".failures"]) > 0 {
		failures = `SELECT * FROM read_json(` + list(".failures") + `, format = 'newline_delimited')`
	}
	return `WITH turns AS (SELECT * FROM read_parquet(` + list(".turns") + `)),
     episodes AS (SELECT * FROM read_parquet(` + list(".episodes") + `)),
     failures AS (` + failures + `) `
}

// CheckNumbers runs every query of Queries over the job's committed files
// and fails the test unless each table of the page has exactly the rows
// the query returns, with each cell's data-v equal to the query's value (to
// 1e-9, relative) and its text showing it (to the four digits shown).
func CheckNumbers(t *testing.T, p *Page, root, job string) {
	t.Helper()
	with := Relations(t, root, job)
	for _, q := range Queries {
		rows := duckdbtest.Run(t, "--sql", with+q.SQL).Rows
		page, ok := p.Tables[q.Table]
		if !ok {
			t.Errorf("table %s is missing from the page", q.Table)
			continue
		}
		if q.Key == nil { // one row, shown as a key/value table
			one := map[string]Cell{}
			for k, row := range page {
				one[k] = row["value"]
			}
			page = map[string]map[string]Cell{"": one}
		}
		checkTable(t, q, rows, page)
	}
}

func checkTable(t *testing.T, q Query, rows []map[string]any, page map[string]map[string]Cell) {
	t.Helper()
	seen := map[string]bool{}
	for _, row := range rows {
		var key []string
		for _, k := range q.Key {
			key = append(key, fmt.Sprint(row[k]))
		}
		rk := strings.Join(key, "@")
		seen[rk] = true
		cells, ok := page[rk]
		if !ok {
			t.Errorf("%s: DuckDB has row %q, the page does not (page rows %v)", q.Table, rk, keys(page))
			continue
		}
		for col, want := range row {
			if slices.Contains(q.Key, col) {
				continue
			}
			c, ok := cells[col]
			if !ok {
				t.Errorf("%s row %q: no cell %s", q.Table, rk, col)
				continue
			}
			checkCell(t, fmt.Sprintf("%s row %q %s", q.Table, rk, col), c, fmt.Sprint(want))
		}
	}
	for rk, cells := range page {
		if seen[rk] {
			continue
		}
		// A histogram shows its empty bins; DuckDB's GROUP BY has none.
		if c, ok := cells["count"]; ok && c.V == "0" && strings.HasPrefix(q.Table, "t-hist-") {
			continue
		}
		t.Errorf("%s: the page has row %q, DuckDB does not", q.Table, rk)
	}
}

func checkCell(t *testing.T, what string, c Cell, want string) {
	t.Helper()
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		if c.V != want || c.Text != want {
			t.Errorf("%s: page %q (shown %q), DuckDB %q", what, c.V, c.Text, want)
		}
		return
	}
	v, err1 := strconv.ParseFloat(c.V, 64)
	shown, err2 := strconv.ParseFloat(c.Text, 64)
	if err1 != nil || err2 != nil || !near(v, w, 1e-9) || !near(shown, w, 5e-4) {
		t.Errorf("%s: page %q (shown %q), DuckDB %v", what, c.V, c.Text, want)
	}
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1e-12, math.Max(math.Abs(a), math.Abs(b)))
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
