package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/parquet-go/parquet-go"
	"github.com/spf13/cobra"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

func newInspectCmd() *cobra.Command {
	var (
		job    string
		asJSON bool
		verify bool
	)
	cmd := &cobra.Command{
		Use:   "inspect <folder|s3://bucket/prefix>",
		Short: "Show a dataset: schema, committed shards, row counts, leftovers, failures and per-env statistics",
		Long: "Inspect a Quarry dataset in a folder or under s3://bucket/prefix. The location is the output root\n" +
			"(holding <job>/ folders) or one job's folder. Only committed shards (those with a manifest in\n" +
			"_manifest/) are counted; data files without a manifest are listed as uncommitted leftovers.\n" +
			"Statistics are read from the committed episodes files, whose checksums are verified; --verify also\n" +
			"reads and verifies every other file. Without --job the whole location is listed, turn log included.\n" +
			"S3: the endpoint comes from AWS_ENDPOINT_URL (for S3-compatible stores), credentials and region\n" +
			"from the standard AWS chain. Nothing is written or deleted.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			rep, err := inspect(ctx, args[0], job, verify)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			return printReport(out, rep)
		},
	}
	cmd.Flags().StringVar(&job, "job", "", "job id (default: every job found at the location)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&verify, "verify", false, "read every committed file and check its size and SHA-256")
	return cmd
}

// report is what inspect prints; its JSON form is the --json output.
type report struct {
	Location string      `json:"location"`
	Jobs     []jobReport `json:"jobs"`
}

type jobReport struct {
	Job string `json:"job"`
	// SchemaVersion is read from the committed files' metadata (0 when no
	// shard is committed).
	SchemaVersion  int               `json:"schema_version"`
	TurnColumns    []columnReport    `json:"turn_columns"`
	EpisodeColumns []columnReport    `json:"episode_columns"`
	ColumnProblems []string          `json:"column_problems,omitempty"`
	Shards         []shardReport     `json:"shards"`
	TurnRows       int64             `json:"turn_rows"`
	EpisodeRows    int64             `json:"episode_rows"`
	FailedEpisodes int64             `json:"failed_episodes"`
	FailureClasses map[string]int64  `json:"failure_classes"`
	Returns        returnReport      `json:"returns"`
	Uncommitted    []string          `json:"uncommitted"`
	Success        *schema.Success   `json:"success"`
	Envs           []envReport       `json:"envs"`
	EnvVersions    map[string]string `json:"env_versions"`
}

type columnReport struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
}

type shardReport struct {
	Batch          int      `json:"batch"`
	TurnRows       int64    `json:"turn_rows"`
	EpisodeRows    int64    `json:"episode_rows"`
	FailedEpisodes int64    `json:"failed_episodes"`
	Bytes          int64    `json:"bytes"`
	Files          []string `json:"files"`
	// Verified lists the files whose size and checksum were checked
	// against the manifest by reading them.
	Verified []string `json:"verified"`
}

type returnReport struct {
	schema.Stats
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// envReport summarises one env id over the committed episodes.
type envReport struct {
	EnvID       string  `json:"env_id"`
	EnvVersion  string  `json:"env_version"`
	Episodes    int64   `json:"episodes"`
	Turns       int64   `json:"turns"`
	SuccessRate float64 `json:"success_rate"`
	// MeanReward is the mean undiscounted episode reward (total_reward).
	MeanReward float64 `json:"mean_reward"`
	// MeanReturn is the mean discounted episode return (return, G at turn 0).
	MeanReturn float64 `json:"mean_return"`
	// RewardPerTurn is the summed reward over the summed turns.
	RewardPerTurn float64 `json:"reward_per_turn"`
	MinReward     float64 `json:"min_reward"`
	MaxReward     float64 `json:"max_reward"`
}

// episodeStatsRow is the part of an episode row the statistics need;
// parquet-go reads just these columns.
type episodeStatsRow struct {
	EnvID       string  `parquet:"env_id"`
	EnvVersion  string  `parquet:"env_version"`
	NumTurns    int32   `parquet:"num_turns"`
	TotalReward float64 `parquet:"total_reward"`
	Return      float64 `parquet:"return"`
	Success     bool    `parquet:"success"`
}

var jobKeyRE = regexp.MustCompile(`^(.+)/(?:_manifest/part-\d+\.json|shards/part-\d+\.(?:turns|episodes)\.parquet)$`)

func inspect(ctx context.Context, location, job string, verify bool) (*report, error) {
	store, err := blob.Open(ctx, location, blob.WithoutAutoCleanup())
	if err != nil {
		return nil, err
	}
	jobs := []string{job}
	if job == "" {
		if jobs, err = findJobs(ctx, store); err != nil {
			return nil, err
		}
		if len(jobs) == 0 {
			// Perhaps the location is one job's folder: inspect it from
			// its parent.
			parent, name, ok := parentOf(location)
			if ok && isJobFolder(ctx, store) {
				if store, err = blob.Open(ctx, parent, blob.WithoutAutoCleanup()); err != nil {
					return nil, err
				}
				jobs = []string{name}
			}
		}
		if len(jobs) == 0 {
			return nil, fmt.Errorf("%s: no Quarry dataset found (no <job>/_manifest/ or <job>/shards/)", store.URL())
		}
	}
	if job != "" {
		if err := jobExists(ctx, store, job); err != nil {
			return nil, err
		}
	}
	rep := &report{Location: store.URL()}
	for _, j := range jobs {
		jr, err := inspectJob(ctx, store, j, verify)
		if err != nil {
			return nil, err
		}
		rep.Jobs = append(rep.Jobs, *jr)
	}
	return rep, nil
}

// jobExists fails, naming the jobs found instead, when the location holds
// nothing of job: no manifest, shard, failure, turn log or _SUCCESS. A job
// with only a turn log (running, nothing committed yet) exists.
func jobExists(ctx context.Context, store blob.Store, job string) error {
	if _, err := store.Stat(ctx, schema.SuccessKey(job)); err == nil {
		return nil
	}
	for _, dir := range []string{"_manifest/", "shards/", "_failures/", "_turns/"} {
		infos, err := store.List(ctx, job+"/"+dir)
		if err != nil {
			return err
		}
		if len(infos) > 0 {
			return nil
		}
	}
	msg := fmt.Sprintf("job %q not found at %s (no %s/_manifest/, shards/, _turns/ or _SUCCESS)", job, store.URL(), job)
	if others, err := findJobs(ctx, store); err == nil && len(others) > 0 {
		msg += "; jobs found there: " + strings.Join(others, ", ")
	}
	return errors.New(msg)
}

func findJobs(ctx context.Context, store blob.Store) ([]string, error) {
	infos, err := store.List(ctx, "")
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var jobs []string
	for _, info := range infos {
		m := jobKeyRE.FindStringSubmatch(info.Key)
		if m == nil || seen[m[1]] || strings.Contains(m[1], "/_turns/") {
			continue
		}
		seen[m[1]] = true
		jobs = append(jobs, m[1])
	}
	slices.Sort(jobs)
	return jobs, nil
}

func isJobFolder(ctx context.Context, store blob.Store) bool {
	for _, prefix := range []string{"_manifest/", "shards/"} {
		if infos, err := store.List(ctx, prefix); err == nil && len(infos) > 0 {
			return true
		}
	}
	return false
}

// parentOf splits a location into its parent location and last segment.
func parentOf(location string) (parent, name string, ok bool) {
	if rest, found := strings.CutPrefix(location, "s3://"); found {
		rest = strings.Trim(rest, "/")
		i := strings.LastIndex(rest, "/")
		if i < 0 {
			return "", "", false // a bucket has no parent
		}
		return "s3://" + rest[:i], rest[i+1:], true
	}
	p := strings.TrimPrefix(location, "file://")
	p = filepath.Clean(p)
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	dir, base := filepath.Split(p)
	if base == "" || dir == "" {
		return "", "", false
	}
	return dir, base, true
}

func inspectJob(ctx context.Context, store blob.Store, job string, verify bool) (*jobReport, error) {
	ms, err := shard.Committed(ctx, store, job)
	if err != nil {
		return nil, err
	}
	jr := &jobReport{Job: job, FailureClasses: map[string]int64{}, EnvVersions: map[string]string{}}
	named := map[string]bool{}
	envs := map[string]*envReport{}
	var returns schema.Stats
	for _, m := range ms {
		sr := shardReport{Batch: m.Batch, TurnRows: m.TurnRows, EpisodeRows: m.EpisodeRows, FailedEpisodes: m.FailedEpisodes}
		jr.TurnRows += m.TurnRows
		jr.EpisodeRows += m.EpisodeRows
		jr.FailedEpisodes += m.FailedEpisodes
		returns = returns.Merge(m.Returns)
		for id, v := range m.EnvVersions {
			jr.EnvVersions[id] = v
		}
		for _, f := range m.Files {
			named[f.Path] = true
			sr.Files = append(sr.Files, f.Path)
			sr.Bytes += f.Size
			read := verify
			switch {
			case strings.HasSuffix(f.Path, ".episodes.parquet"), strings.HasSuffix(f.Path, ".jsonl"):
				read = true // statistics and failure classes come from these
			case strings.HasSuffix(f.Path, ".turns.parquet") && jr.TurnColumns == nil:
				read = true // the first turns file gives the schema
			}
			if !read {
				info, err := store.Stat(ctx, job+"/"+f.Path)
				if err != nil {
					return nil, fmt.Errorf("batch %d: %w", m.Batch, err)
				}
				if info.Size != f.Size {
					return nil, fmt.Errorf("batch %d: %w: %s has %d bytes, the manifest says %d", m.Batch, shard.ErrCorruptFile, f.Path, info.Size, f.Size)
				}
				continue
			}
			data, err := shard.ReadFile(ctx, store, job, f)
			if err != nil {
				return nil, fmt.Errorf("batch %d: %w", m.Batch, err)
			}
			sr.Verified = append(sr.Verified, f.Path)
			switch {
			case strings.HasSuffix(f.Path, ".jsonl"):
				fails, err := schema.UnmarshalFailures(data)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Path, err)
				}
				for _, fl := range fails {
					jr.FailureClasses[fl.ErrorClass]++
				}
			case strings.HasSuffix(f.Path, ".episodes.parquet"):
				cols, version, err := fileColumns(data, schema.TableEpisodes)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Path, err)
				}
				jr.noteSchema(f.Path, version, cols, schema.EpisodeColumns(), &jr.EpisodeColumns)
				if err := addEpisodeStats(envs, data); err != nil {
					return nil, fmt.Errorf("%s: %w", f.Path, err)
				}
			case strings.HasSuffix(f.Path, ".turns.parquet"):
				cols, version, err := fileColumns(data, schema.TableTurns)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f.Path, err)
				}
				jr.noteSchema(f.Path, version, cols, schema.TurnColumns(), &jr.TurnColumns)
			}
		}
		jr.Shards = append(jr.Shards, sr)
	}
	jr.Returns = returnReport{Stats: returns, Mean: returns.Mean(), Std: returns.Std()}
	for _, e := range envs {
		if e.Episodes > 0 {
			n := float64(e.Episodes)
			e.SuccessRate /= n
			e.MeanReward /= n
			e.MeanReturn /= n
		}
		if e.Turns > 0 {
			e.RewardPerTurn /= float64(e.Turns)
		}
		jr.Envs = append(jr.Envs, *e)
	}
	slices.SortFunc(jr.Envs, func(a, b envReport) int {
		return cmp.Or(cmp.Compare(a.EnvID, b.EnvID), cmp.Compare(a.EnvVersion, b.EnvVersion))
	})

	// Data files no manifest names: written by an attempt that has not
	// committed (yet), or left by one that died.
	for _, prefix := range []string{job + "/shards/", job + "/_failures/"} {
		infos, err := store.List(ctx, prefix)
		if err != nil {
			return nil, err
		}
		for _, info := range infos {
			if rel := schema.RelKey(job, info.Key); !named[rel] {
				jr.Uncommitted = append(jr.Uncommitted, rel)
			}
		}
	}
	data, err := blob.ReadAll(ctx, store, schema.SuccessKey(job))
	switch {
	case err == nil:
		s, err := schema.UnmarshalSuccess(data)
		if err != nil {
			return nil, err
		}
		jr.Success = &s
	case !errors.Is(err, blob.ErrNotExist):
		return nil, err
	}
	if jr.Shards == nil {
		jr.Shards = []shardReport{}
	}
	if jr.Uncommitted == nil {
		jr.Uncommitted = []string{}
	}
	return jr, nil
}

// noteSchema records a file's schema version and columns the first time,
// and any file that disagrees with the first or with this build's schema.
func (jr *jobReport) noteSchema(file string, version int, cols []columnReport, known []schema.Column, dst *[]columnReport) {
	if jr.SchemaVersion == 0 {
		jr.SchemaVersion = version
	} else if version != jr.SchemaVersion {
		jr.ColumnProblems = append(jr.ColumnProblems, fmt.Sprintf("%s: schema version %d, earlier files %d", file, version, jr.SchemaVersion))
	}
	if *dst != nil {
		return
	}
	*dst = cols
	want := map[string]bool{}
	for _, c := range known {
		if !strings.ContainsAny(c.Name, ".[") {
			want[c.Name] = true
		}
	}
	for _, c := range cols {
		if strings.ContainsAny(c.Name, ".[") {
			continue // nested fields are described by the build, not read from the file
		}
		if !want[c.Name] {
			jr.ColumnProblems = append(jr.ColumnProblems, fmt.Sprintf("%s: column %s is unknown to this build", file, c.Name))
		}
		delete(want, c.Name)
	}
	for name := range want {
		jr.ColumnProblems = append(jr.ColumnProblems, fmt.Sprintf("%s: column %s is missing", file, name))
	}
	slices.Sort(jr.ColumnProblems)
}

// fileColumns reads a Parquet file's schema version and top-level columns.
// Types are described as the schema package describes them when this
// build knows the column, and by the file's own Parquet type otherwise.
func fileColumns(data []byte, table string) ([]columnReport, int, error) {
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, 0, err
	}
	if got, _ := f.Lookup(schema.MetaTable); got != table {
		return nil, 0, fmt.Errorf("holds the %q table, want %q", got, table)
	}
	v, _ := f.Lookup(schema.MetaSchemaVersion)
	version, err := strconv.Atoi(v)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %s=%q", schema.ErrSchemaVersion, schema.MetaSchemaVersion, v)
	}
	known := map[string]schema.Column{}
	cols := schema.TurnColumns()
	if table == schema.TableEpisodes {
		cols = schema.EpisodeColumns()
	}
	for _, c := range cols {
		known[c.Name] = c
	}
	var out []columnReport
	for _, field := range f.Schema().Fields() {
		c, ok := known[field.Name()]
		if !ok {
			out = append(out, columnReport{Name: field.Name(), Type: field.Type().String(), Nullable: field.Optional()})
			continue
		}
		out = append(out, columnReport{Name: c.Name, Type: c.Type, Nullable: c.Nullable})
		// Struct fields of a known column, as the schema describes them
		// (turn_spans[].start, ...).
		for _, sub := range cols {
			if strings.HasPrefix(sub.Name, c.Name+".") || strings.HasPrefix(sub.Name, c.Name+"[].") {
				out = append(out, columnReport{Name: sub.Name, Type: sub.Type, Nullable: sub.Nullable})
			}
		}
	}
	return out, version, nil
}

func addEpisodeStats(envs map[string]*envReport, data []byte) error {
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	r := parquet.NewGenericReader[episodeStatsRow](f)
	defer r.Close()
	buf := make([]episodeStatsRow, 256)
	for {
		n, err := r.Read(buf)
		for _, row := range buf[:n] {
			key := row.EnvID + "\x00" + row.EnvVersion
			e := envs[key]
			if e == nil {
				e = &envReport{EnvID: row.EnvID, EnvVersion: row.EnvVersion, MinReward: math.Inf(1), MaxReward: math.Inf(-1)}
				envs[key] = e
			}
			e.Episodes++
			e.Turns += int64(row.NumTurns)
			if row.Success {
				e.SuccessRate++
			}
			e.MeanReward += row.TotalReward
			e.MeanReturn += row.Return
			e.RewardPerTurn += row.TotalReward
			e.MinReward = min(e.MinReward, row.TotalReward)
			e.MaxReward = max(e.MaxReward, row.TotalReward)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func printReport(w io.Writer, rep *report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "location\t%s\n", rep.Location)
	for _, j := range rep.Jobs {
		fmt.Fprintf(tw, "\njob\t%s\n", j.Job)
		if j.SchemaVersion > 0 {
			fmt.Fprintf(tw, "schema\tv%d (%s in the files)\n", j.SchemaVersion, schema.MetaSchemaVersion)
		} else {
			fmt.Fprintf(tw, "schema\tno committed files (this build writes v%d)\n", schema.SchemaVersion)
		}
		fmt.Fprintf(tw, "shards\t%d committed, %d uncommitted files\n", len(j.Shards), len(j.Uncommitted))
		fmt.Fprintf(tw, "rows\t%d turns, %d episodes\n", j.TurnRows, j.EpisodeRows)
		fmt.Fprintf(tw, "failed\t%d episodes%s\n", j.FailedEpisodes, classes(j.FailureClasses))
		fmt.Fprintf(tw, "returns\tcount %d, mean %.4g, std %.4g\n", j.Returns.Count, j.Returns.Mean, j.Returns.Std)
		if j.Success != nil {
			fmt.Fprintf(tw, "_SUCCESS\t%d batches, %d turns, %d episodes, %d failed\n", j.Success.Batches, j.Success.TurnRows, j.Success.EpisodeRows, j.Success.FailedEpisodes)
		} else {
			fmt.Fprintf(tw, "_SUCCESS\tabsent (job not finished)\n")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(j.Shards) > 0 {
			fmt.Fprintln(tw, "\ncommitted shards:")
			fmt.Fprintln(tw, "  PART\tTURNS\tEPISODES\tFAILED\tBYTES\tVERIFIED")
			for _, s := range j.Shards {
				fmt.Fprintf(tw, "  part-%05d\t%d\t%d\t%d\t%d\t%d of %d files\n", s.Batch, s.TurnRows, s.EpisodeRows, s.FailedEpisodes, s.Bytes, len(s.Verified), len(s.Files))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		if len(j.Uncommitted) > 0 {
			fmt.Fprintln(tw, "\nuncommitted (no manifest names them; not part of the dataset):")
			for _, u := range j.Uncommitted {
				fmt.Fprintf(tw, "  %s\n", u)
			}
		}
		if len(j.Envs) > 0 {
			fmt.Fprintln(tw, "\nper env (committed episodes):")
			fmt.Fprintln(tw, "  ENV\tVERSION\tEPISODES\tTURNS\tSUCCESS\tREWARD\tRETURN\tREWARD/TURN\tMIN\tMAX")
			for _, e := range j.Envs {
				fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%.3f\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\n", e.EnvID, e.EnvVersion, e.Episodes, e.Turns,
					e.SuccessRate, e.MeanReward, e.MeanReturn, e.RewardPerTurn, e.MinReward, e.MaxReward)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		for _, p := range j.ColumnProblems {
			fmt.Fprintf(tw, "warning: %s\n", p)
		}
		for _, t := range []struct {
			name string
			cols []columnReport
		}{{schema.TableTurns, j.TurnColumns}, {schema.TableEpisodes, j.EpisodeColumns}} {
			if len(t.cols) == 0 {
				continue
			}
			fmt.Fprintf(tw, "\n%s columns:\n", t.name)
			for _, c := range t.cols {
				null := ""
				if c.Nullable {
					null = "null"
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Name, c.Type, null)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	return tw.Flush()
}

func classes(m map[string]int64) string {
	if len(m) == 0 {
		return ""
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(parts)
	return " (" + strings.Join(parts, ", ") + ")"
}
