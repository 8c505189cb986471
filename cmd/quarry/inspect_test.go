package main

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
	"github.com/quarry-rl/quarry/schema"
)

const testJob = "job-i"

// writeDataset commits batches 0 and 1 of a job and leaves batch 2 half
// written (its turns file, no manifest), as a crashed writer would. With
// complete set it commits batch 2 too and writes _SUCCESS.
func writeDataset(t *testing.T, s blob.Store, complete bool) []*shardtest.Batch {
	t.Helper()
	ctx := context.Background()
	var committed []*shardtest.Batch
	for batch := range 3 {
		b := shardtest.Write(ctx, t, s, shardtest.Options{Job: testJob, Batch: batch, Seed: uint64(10 + batch), Gamma: 0.9})
		var opts []shard.Option
		if batch == 2 && !complete {
			opts = append(opts, shard.WithStepHook(func(st shard.Step) error {
				if st == shard.AfterTurns {
					return blob.ErrCrash
				}
				return nil
			}))
		}
		_, err := shard.Write(ctx, s, b.Input, opts...)
		if batch == 2 && !complete {
			if !errors.Is(err, blob.ErrCrash) {
				t.Fatalf("Write = %v, want the crash", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		committed = append(committed, b)
	}
	if complete {
		if _, err := shard.WriteSuccess(ctx, s, testJob, 3); err != nil {
			t.Fatal(err)
		}
	}
	return committed
}

func inspectJSON(t *testing.T, args ...string) report {
	t.Helper()
	out, err := run(t, "", append([]string{"inspect", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var rep report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

// checkReport compares a job's report with the committed batches' rows.
func checkReport(t *testing.T, j jobReport, committed []*shardtest.Batch) {
	t.Helper()
	if j.Job != testJob || j.SchemaVersion != schema.SchemaVersion || len(j.Shards) != len(committed) || len(j.ColumnProblems) != 0 {
		t.Fatalf("report %+v", j)
	}
	var turns, eps, failed int64
	type acc struct {
		version                  string
		episodes, turns, success int64
		reward, ret, minR, maxR  float64
	}
	envs := map[string]*acc{}
	for i, b := range committed {
		sh := j.Shards[i]
		if sh.Batch != b.Input.Batch || sh.TurnRows != int64(len(b.Turns)) || sh.EpisodeRows != int64(len(b.Episodes)) || sh.FailedEpisodes != int64(len(b.Failures)) {
			t.Errorf("shard %+v, want batch %d with %d turns, %d episodes, %d failed", sh, b.Input.Batch, len(b.Turns), len(b.Episodes), len(b.Failures))
		}
		turns += int64(len(b.Turns))
		eps += int64(len(b.Episodes))
		failed += int64(len(b.Failures))
		for _, e := range b.Episodes {
			a := envs[e.EnvID]
			if a == nil {
				a = &acc{version: e.EnvVersion, minR: math.Inf(1), maxR: math.Inf(-1)}
				envs[e.EnvID] = a
			}
			a.episodes++
			a.turns += int64(e.NumTurns)
			if e.Success {
				a.success++
			}
			a.reward += e.TotalReward
			a.ret += e.Return
			a.minR, a.maxR = min(a.minR, e.TotalReward), max(a.maxR, e.TotalReward)
		}
	}
	if j.TurnRows != turns || j.EpisodeRows != eps || j.FailedEpisodes != failed || j.Returns.Count != turns {
		t.Errorf("totals %d turns, %d episodes, %d failed, returns count %d; want %d, %d, %d", j.TurnRows, j.EpisodeRows, j.FailedEpisodes, j.Returns.Count, turns, eps, failed)
	}
	if !reflect.DeepEqual(j.FailureClasses, map[string]int64{"EpisodeTimeout": failed}) {
		t.Errorf("failure classes %v", j.FailureClasses)
	}
	if len(j.Envs) != len(envs) {
		t.Fatalf("%d envs reported, want %d: %+v", len(j.Envs), len(envs), j.Envs)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for _, e := range j.Envs {
		a := envs[e.EnvID]
		n := float64(a.episodes)
		if a == nil || e.EnvVersion != a.version || e.Episodes != a.episodes || e.Turns != a.turns ||
			!near(e.SuccessRate, float64(a.success)/n) || !near(e.MeanReward, a.reward/n) || !near(e.MeanReturn, a.ret/n) ||
			!near(e.RewardPerTurn, a.reward/float64(a.turns)) || e.MinReward != a.minR || e.MaxReward != a.maxR {
			t.Errorf("env %+v, want %+v", e, a)
		}
	}
	for _, c := range []struct {
		got  []columnReport
		want []schema.Column
	}{{j.TurnColumns, schema.TurnColumns()}, {j.EpisodeColumns, schema.EpisodeColumns()}} {
		var want []columnReport
		for _, w := range c.want {
			want = append(want, columnReport{Name: w.Name, Type: w.Type, Nullable: w.Nullable})
		}
		if !reflect.DeepEqual(c.got, want) {
			t.Errorf("columns %v, want %v", c.got, want)
		}
	}
}

func TestInspectFolder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	committed := writeDataset(t, s, false)

	rep := inspectJSON(t, dir)
	if len(rep.Jobs) != 1 {
		t.Fatalf("jobs %+v", rep.Jobs)
	}
	j := rep.Jobs[0]
	checkReport(t, j, committed)
	if !reflect.DeepEqual(j.Uncommitted, []string{"shards/part-00002.turns.parquet"}) {
		t.Errorf("uncommitted %v, want the half-written batch's turns file", j.Uncommitted)
	}
	if j.Success != nil {
		t.Errorf("_SUCCESS reported for an unfinished job: %+v", j.Success)
	}
	for _, sh := range j.Shards {
		// Episodes, failures and the first turns file are read (and
		// verified) for the statistics and the schema.
		if len(sh.Verified) < 2 {
			t.Errorf("shard %d: verified %v", sh.Batch, sh.Verified)
		}
	}

	// The same job, named with --job or given as the job's own folder.
	for _, args := range [][]string{{dir, "--job", testJob}, {filepath.Join(dir, testJob)}} {
		again := inspectJSON(t, args...)
		if len(again.Jobs) != 1 || !reflect.DeepEqual(again.Jobs[0], j) {
			t.Errorf("inspect %v: %+v, want %+v", args, again.Jobs, j)
		}
	}
	verified := inspectJSON(t, dir, "--verify")
	for _, sh := range verified.Jobs[0].Shards {
		if len(sh.Verified) != len(sh.Files) {
			t.Errorf("--verify: shard %d verified %v of %v", sh.Batch, sh.Verified, sh.Files)
		}
	}

	out, err := run(t, "", "inspect", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"job       job-i", "schema    v1", "2 committed, 1 uncommitted", "part-00000", "part-00001",
		"shards/part-00002.turns.parquet", "EpisodeTimeout 2", "absent", "game:Mastermind-v0-easy", "math:GSM8K",
		"response_token_ids  list<int32>", "turn_spans[].start",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}

	// A committed file that changed is an error, not a statistic.
	if err := blob.PutBytes(ctx, s, testJob+"/shards/part-00001.episodes.parquet", []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, "", "inspect", dir); err == nil || !strings.Contains(err.Error(), "differs from its manifest") {
		t.Errorf("inspect of a changed file: %v", err)
	}
	if _, err := run(t, "", "inspect", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no Quarry dataset") {
		t.Errorf("inspect of an empty folder: %v", err)
	}
}

// TestInspectS3 reads a finished job from versitygw through the standard
// AWS configuration (AWS_ENDPOINT_URL and the credential chain).
func TestInspectS3(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	s, err := blob.Open(ctx, srv.URL("out"), blob.WithEndpoint(srv.Endpoint), blob.WithRegion(srv.Region),
		blob.WithStaticCredentials(srv.AccessKey, srv.SecretKey, ""))
	if err != nil {
		t.Fatal(err)
	}
	committed := writeDataset(t, s, true)

	srv.SetAWSEnv(t)

	rep := inspectJSON(t, srv.URL("out"), "--verify")
	if rep.Location != srv.URL("out") || len(rep.Jobs) != 1 {
		t.Fatalf("report %+v", rep)
	}
	j := rep.Jobs[0]
	checkReport(t, j, committed)
	if len(j.Uncommitted) != 0 {
		t.Errorf("uncommitted %v, want none", j.Uncommitted)
	}
	if j.Success == nil || j.Success.Batches != 3 || j.Success.TurnRows != j.TurnRows || j.Success.FailedEpisodes != j.FailedEpisodes {
		t.Errorf("_SUCCESS %+v", j.Success)
	}
	for _, sh := range j.Shards {
		if len(sh.Verified) != len(sh.Files) {
			t.Errorf("--verify: shard %d verified %v of %v", sh.Batch, sh.Verified, sh.Files)
		}
	}
	// The job's own prefix works too.
	again := inspectJSON(t, srv.URL("out/"+testJob), "--verify")
	if len(again.Jobs) != 1 || !reflect.DeepEqual(again.Jobs[0], j) {
		t.Errorf("job prefix: %+v", again.Jobs)
	}
	// Nothing was written: listing shows the same objects before and after.
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong")
	if _, err := run(t, "", "inspect", srv.URL("out")); err == nil || !errors.Is(err, blob.ErrCredentials) {
		t.Errorf("inspect with a wrong secret: %v, want a credentials error", err)
	}
}

// TestInspectMissingJob: --job naming a job the location does not hold is
// an error (the command exits non-zero) that lists the jobs it does hold;
// before, it printed an empty report and exited 0.
func TestInspectMissingJob(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeDataset(t, s, false)
	_, err = run(t, "", "inspect", "--job", "no-such-job", dir)
	if err == nil || !strings.Contains(err.Error(), `job "no-such-job" not found`) || !strings.Contains(err.Error(), "jobs found there: "+testJob) {
		t.Fatalf("inspect --job no-such-job = %v, want a not-found error listing %s", err, testJob)
	}
	if _, err := run(t, "", "inspect", "--job", "x", t.TempDir()); err == nil {
		t.Fatal("inspect --job x of an empty folder succeeded")
	}
	if rep := inspectJSON(t, "--job", testJob, dir); len(rep.Jobs) != 1 || rep.Jobs[0].Job != testJob {
		t.Fatalf("inspect --job %s: %+v", testJob, rep)
	}
}
