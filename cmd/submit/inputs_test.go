package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// dryRun runs `submit --local --dry-run spec` and returns stdout and the error.
func dryRun(t *testing.T, dir, body string) (string, error) {
	t.Helper()
	spec := writeSpec(t, dir, body)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--dry-run", "--state-dir", filepath.Join(dir, "state"), spec})
	err := root.ExecuteContext(context.Background())
	return stdout.String(), err
}

// TestDryRunHasNoSideEffects: a dry run creates no output folder, sweeps
// no debris, and starts no local server.
func TestDryRunHasNoSideEffects(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "not", "yet")
	body := "envs: [{id: game:GuessTheNumber-v0-easy}]\ntasks: 2\npolicy: {kind: oracle}\noutput: " + out + "\n"
	stdout, err := dryRun(t, dir, body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "not")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dry run created the output folder (stat: %v)", err)
	}
	if !strings.Contains(stdout, out+" does not exist yet; a real run creates it under "+dir) || !strings.Contains(stdout, "nothing submitted") {
		t.Errorf("stdout does not report the read-only check:\n%s", stdout)
	}

	// An existing folder with a stale temporary file of a killed writer:
	// a real run's Open sweeps it; a dry run leaves it.
	existing := filepath.Join(dir, "out")
	if err := os.MkdirAll(existing, 0o755); err != nil {
		t.Fatal(err)
	}
	debris := filepath.Join(existing, ".quarry-tmp-deadbeef")
	if err := os.WriteFile(debris, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(debris, old, old); err != nil {
		t.Fatal(err)
	}
	before := listAll(t, existing)
	body = strings.Replace(body, out, existing, 1)
	if stdout, err = dryRun(t, dir, body); err != nil {
		t.Fatal(err)
	}
	if after := listAll(t, existing); after != before {
		t.Errorf("the dry run changed the output folder:\nbefore %s\nafter  %s", before, after)
	}
	if !strings.Contains(stdout, existing+" is a writable folder") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the dry run started the local server")
	}

	// A path under a file is still refused, read-only.
	body = strings.Replace(body, existing, filepath.Join(debris, "x"), 1)
	if _, err := dryRun(t, dir, body); err == nil || !strings.Contains(err.Error(), "is a file, not a folder") {
		t.Errorf("output under a file: %v", err)
	}
}

func listAll(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %s; ", p, fi.Size(), fi.ModTime().UTC().Format(time.RFC3339Nano))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDryRunRefusesBadInputs: each input the outside testers sent, refused
// by --dry-run (which called several of them valid) with the field named.
func TestDryRunRefusesBadInputs(t *testing.T) {
	dir := t.TempDir()
	openai := func(extra string) string {
		return "envs: [{id: game:GuessTheNumber-v0-easy}]\ntasks: 100\nsamples_per_task: 8\npolicy:\n  kind: openai\n  openai:\n    endpoints: [http://127.0.0.1:1/v1]\n    model: m\n" + extra
	}
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := range "abcdefgh" {
		name := string(rune('b' + i))
		laughs += "    " + name + ": &" + name + " [" + strings.Repeat("*"+string(prev)+", ", 9) + "*" + string(prev) + "]\n"
	}
	for name, tt := range map[string]struct{ body, want string }{
		"num_disks": {"envs: [{id: game:TowerofHanoi-v0-easy, options: {num_disks: 100000000}}]\ntasks: 1\npolicy: {kind: oracle}\n",
			`envs[0].options.num_disks: got 100000000, want 1 to 20`},
		"code_length": {"envs: [{id: game:Mastermind-v0-easy, options: {code_length: 50000000}}]\ntasks: 1\npolicy: {kind: oracle}\n",
			`envs[0].options.code_length: got 50000000, want 1 to 6`},
		"tasks overflow": {"envs: [{id: game:GuessTheNumber-v0-easy}]\ntasks: 4611686018427387904\nsamples_per_task: 4\npolicy: {kind: oracle}\n",
			"tasks: 4611686018427387904: want at most 1000000000"},
		"20 KB extra_body": {openai("    extra_body: {logit_bias_note: " + strings.Repeat("x", 20<<10) + "}\n"),
			"in_flight.episodes: 256: a batch starts 256 episode(s) in one Temporal workflow task"},
		"extra_body token": {openai("    extra_body: {auth: {token: abc123}}\n"),
			"policy.openai.extra_body.auth.token: looks like a credential"},
		"endpoint key": {strings.Replace(openai(""), "http://127.0.0.1:1/v1", "http://127.0.0.1:1/v1?key=abc123", 1),
			`policy.openai.endpoints[0]: query parameter "key" looks like a credential`},
		"mcp header": {openai("tools: {mcp: {mcpServers: {gh: {url: 'https://example.com/mcp', headers: {Authorization: Bearer abc123}}}}}\n"),
			"tools.mcp.mcpServers.gh.headers.Authorization: a literal value"},
		"billion laughs": {openai("    extra_body:\n      " + strings.TrimPrefix(laughs, "")),
			"anchors and aliases expand to more than"},
	} {
		_, err := dryRun(t, dir, tt.body)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want …%s…", name, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "abc123") {
			t.Errorf("%s: the error echoes the secret: %v", name, err)
		}
	}
}

// TestWorkerRechecksOptions: a plan an old client submitted with an option
// out of range (num_disks 10^8 once crashed every worker that resumed it)
// fails on the worker, non-retryably, naming the option, before any env is
// built.
func TestWorkerRechecksOptions(t *testing.T) {
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	id := "game:TowerofHanoi-v0-easy"
	s, err := reg.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	spec := schema.JobSpec{Job: "old", Envs: []schema.EnvChoice{{ID: id}}, Tasks: 1, Policy: schema.Policy{Kind: schema.PolicyOracle}, Output: "file://" + t.TempDir()}.WithDefaults()
	plan := activities.EnvPlan{ID: id, Options: map[string]any{"num_disks": 100000000}, Version: s.Version(), MaxTurns: s.MaxTurns, DataSource: s.Category()}
	a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.RunEpisodes)
	_, err = env.ExecuteActivity(a.RunEpisodes, activities.RunEpisodesInput{Job: spec.Job, Spec: spec, Envs: []activities.EnvPlan{plan}, Slots: spec.BatchSlots(0)})
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || !ae.NonRetryable() || ae.Type() != activities.ErrTypeInvalidSpec || !strings.Contains(err.Error(), `option "num_disks": got 100000000, want 1 to 20`) {
		t.Fatalf("RunEpisodes = %v, want a non-retryable InvalidSpec naming num_disks", err)
	}
	if _, err := activities.ResolveEnvs(reg, schema.JobSpec{Envs: []schema.EnvChoice{{ID: id, Options: plan.Options}}, Policy: spec.Policy}); err == nil || !strings.Contains(err.Error(), "envs[0].options.num_disks") {
		t.Fatalf("ResolveEnvs (ValidateJob) = %v, want envs[0].options.num_disks", err)
	}
}

// TestHugeSpecFileNotReadWhole: an endless spec file is refused after the
// document limit instead of exhausting memory.
func TestHugeSpecFileNotReadWhole(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--dry-run", "/dev/zero"})
	if err := root.ExecuteContext(context.Background()); err == nil || !strings.Contains(err.Error(), "want at most 1.0 MiB") {
		t.Fatalf("submit /dev/zero = %v, want a size refusal", err)
	}
}

// TestDryRunStartsNoSandbox: with --local a dry run of a python_tool job
// starts no sandbox (a real start makes its base dir and reclaims its uid
// range), and says so.
func TestDryRunStartsNoSandbox(t *testing.T) {
	dir := t.TempDir()
	sb := filepath.Join(dir, "sandbox")
	srv := openaitest.Start(t)
	spec := llmSpec(t, dir, srv.BaseURL(), openaitest.DefaultModel, "tools: {preset: python_tool}")
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--dry-run", "--sandbox-dir", sb, "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(sb); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dry run started a sandbox (stat %s: %v)", sb, err)
	}
	if !strings.Contains(stdout.String(), "tools.python: sandbox not started (dry run)") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}
