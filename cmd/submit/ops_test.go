package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

// turnLogObjects lists a job's turn-log objects in the store at output.
func turnLogObjects(t *testing.T, output, job string) []blob.Info {
	t.Helper()
	ctx := context.Background()
	store, err := blob.Open(ctx, output, blob.WithoutAutoCleanup())
	if err != nil {
		t.Fatal(err)
	}
	infos, err := store.List(ctx, schema.JobTurnPrefix(job))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := shard.Committed(ctx, store, job)
	if err != nil || len(ms) == 0 {
		t.Fatalf("no committed shards (%v)", err)
	}
	return infos
}

// After a job on a folder, no turn-log object remains (every batch deleted
// its own once committed); with keep_turn_logs they all stay.
func TestTurnLogsDeletedAfterCommitFolder(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	dir := t.TempDir()
	spec := endpointJobSpec(t, dir, "tl-folder", 5, 8, srv.BaseURL(), "{max_tokens: 64}")
	submitLocal(t, dir, spec)
	out := "file://" + filepath.Join(dir, "out")
	if left := turnLogObjects(t, out, "tl-folder"); len(left) != 0 {
		t.Errorf("%d turn-log objects left after the job, e.g. %s", len(left), left[0].Key)
	}
	if ents, err := filepath.Glob(filepath.Join(dir, "out", "tl-folder", "_turns", "*")); err != nil || len(ents) != 0 {
		t.Errorf("turn-log folders left: %v (%v)", ents, err)
	}

	keep := t.TempDir()
	spec = writeSpec(t, keep, `
job: tl-keep
seed: 3
envs: [{id: rg:basic_arithmetic}]
tasks: 64
batch_size: 32
policy: {kind: random}
keep_turn_logs: true
output: `+filepath.Join(keep, "out")+`
`)
	submitLocal(t, keep, spec)
	if left := turnLogObjects(t, "file://"+filepath.Join(keep, "out"), "tl-keep"); len(left) != 64 {
		t.Errorf("keep_turn_logs: %d turn-log objects left, want one bundle per episode (64)", len(left))
	}
}

// The same on versitygw: a random-policy job's bundles are deleted once
// their batches commit, and the printed hint reads the bucket through the
// endpoint the job wrote to.
func TestTurnLogsDeletedAfterCommitS3(t *testing.T) {
	srv := s3test.Start(t)
	empty := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", empty)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", empty)
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_ENDPOINT_URL", srv.Endpoint)
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	t.Setenv("AWS_REGION", srv.Region)
	for _, c := range []struct {
		job  string
		keep bool
		want int
	}{{"tl-s3", false, 0}, {"tl-s3-keep", true, 64}} {
		dir := t.TempDir()
		body := `
job: ` + c.job + `
seed: 4
envs: [{id: rg:basic_arithmetic}]
tasks: 64
batch_size: 32
policy: {kind: random}
output: ` + srv.URL("rl") + "\n"
		if c.keep {
			body += "keep_turn_logs: true\n"
		}
		out := submitLocal(t, dir, writeSpec(t, dir, body))
		if left := turnLogObjects(t, srv.URL("rl"), c.job); len(left) != c.want {
			t.Errorf("%s: %d turn-log objects left, want %d", c.job, len(left), c.want)
		}
		if c.keep {
			continue
		}
		host := strings.TrimPrefix(srv.Endpoint, "http://")
		for _, want := range []string{
			"output: " + srv.URL("rl") + "/tl-s3\n",
			"CREATE SECRET (TYPE s3, PROVIDER credential_chain, ENDPOINT '" + host + "', URL_STYLE 'path', USE_SSL false, REGION '" + srv.Region + "');",
			"SELECT * FROM '" + srv.URL("rl") + "/tl-s3/shards/*.turns.parquet'",
			`"endpoint_url": "` + srv.Endpoint + `"`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("printed hint lacks %q:\n%s", want, out)
			}
		}
	}
}
