package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/envs/terminal"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/workflows"
)

// The terminal example end to end (issue 17): the oracle plays terminal
// tasks through the embedded server and a worker's sandbox (files, git, a
// failing test, a loopback service); every episode scores 1 and its rows
// hold the commands and their output.
func TestExampleTerminalOracle(t *testing.T) {
	b, err := os.ReadFile("../../examples/terminal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(b), "output: ./out\n", "", 1)
	spec := runLocalJobUIDs(t, body, terminalUIDs(t))
	_, turns, eps := readShards(t, spec.Output, "terminal-oracle")
	if len(eps) != 8 {
		t.Fatalf("%d episodes, want 8%s", len(eps), firstFailure(t, spec.Output, "terminal-oracle"))
	}
	seen := map[string]bool{}
	for _, e := range eps {
		seen[e.EnvID] = true
		if !e.Success || e.TotalReward != 1 {
			t.Fatalf("episode %s (%s): success %v reward %v", e.EpisodeID, e.EnvID, e.Success, e.TotalReward)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("envs played: %v", seen)
	}
	bash := 0
	for _, r := range turns {
		if strings.HasPrefix(r.Action, "<bash>") {
			bash++
			if !strings.HasPrefix(r.Observation, "<bash_output>") {
				t.Fatalf("turn %s/%d: observation %q", r.EpisodeID, r.Turn, r.Observation)
			}
		}
	}
	if bash == 0 {
		t.Fatal("no <bash> turns recorded")
	}
}

// Terminal tasks driven by an endpoint (the OpenAI test server), one turn a
// request: a scripted model sends the task's solution commands one by one
// as <bash> actions, then <finish>; every episode scores 1, and the turn
// rows hold the sandbox's output of each command.
func TestLocalTerminalEndpointJob(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(terminalPolicy(t)))
	spec := runLocalJobUIDs(t, `
job: terminal-endpoint
seed: 3
envs: [{id: terminal:git-revert-bad-commit}, {id: terminal:make-fix-build}]
tasks: 4
samples_per_task: 1
batch_size: 4
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 512}}}
`, terminalUIDs(t))
	_, turns, eps := readShards(t, spec.Output, "terminal-endpoint")
	if len(eps) != 4 {
		t.Fatalf("%d episodes, want 4%s", len(eps), firstFailure(t, spec.Output, "terminal-endpoint"))
	}
	for _, e := range eps {
		if !e.Success || e.TotalReward != 1 || e.NumTurns < 2 {
			t.Fatalf("episode %s (%s): success %v reward %v turns %d", e.EpisodeID, e.EnvID, e.Success, e.TotalReward, e.NumTurns)
		}
	}
	made := false
	for _, r := range turns {
		if strings.Contains(r.Observation, "cat data/a.txt data/b.txt | sort > out/report.txt") {
			made = true // make echoed its recipe from inside the sandbox
		}
	}
	if !made {
		t.Fatal("no turn shows make's output")
	}
}

// terminalPolicy is a scripted model for the shipped terminal tasks: it
// finds the task by its instruction and sends the solution's next command
// (one per assistant message so far), then finish.
func terminalPolicy(t *testing.T) func([]openaitest.Message) string {
	tasks, err := terminal.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	return func(msgs []openaitest.Message) string {
		task := firstUser(msgs)
		done := 0
		for _, m := range msgs {
			if m.Role == "assistant" {
				done++
			}
		}
		for _, tk := range tasks {
			if strings.Contains(task, strings.TrimSpace(tk.Instruction)) {
				cmds := terminal.SolutionCommands(tk.Solution)
				if done < len(cmds) {
					return "Next step.\n" + terminal.BashAction(cmds[done], 0)
				}
				return terminal.FinishAction("done")
			}
		}
		return "<finish>\nmessage: unknown task\n</finish>"
	}
}

// Two workers without eager dispatch, on the per-turn path
// (episode.activities: turn; PlayTurns would keep an episode on one
// worker): an episode's next turn often lands on
// the worker that did not play the previous one, which rebuilds the
// terminal session from the turn log by re-executing the recorded commands
// in a fresh sandbox workspace (the env's replay, issue 17). The episodes
// still score 1: git's merge state and the files were rebuilt.
func TestTerminalEpisodesRebuiltOnAnotherWorker(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(terminalPolicy(t)), openaitest.WithLatency(5*time.Millisecond))
	dir := t.TempDir()
	spec, err := loadSpec(writeSpec(t, dir, `
job: terminal-rebuilt
seed: 5
envs: [{id: terminal:git-merge-conflict}, {id: terminal:fix-backup-script}]
tasks: 4
samples_per_task: 2
batch_size: 8
episode: {activities: turn}
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`}}
output: `+filepath.Join(dir, "out")+`
`))
	if err != nil {
		t.Fatal(err)
	}
	g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
	ctx := context.Background()
	sess, err := manage(ctx, g) // the server alone: the test runs two workers
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	// One registry (one sandbox, this test's uids) shared by both workers;
	// each worker has its own session cache.
	reg, err := catalog.New(catalog.WithSandbox(sandbox.Lazy(sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: terminalUIDs(t), Slots: 2})))
	if err != nil {
		t.Fatal(err)
	}
	var acts [2]*activities.Activities
	for i := range acts {
		acts[i] = &activities.Activities{Envs: reg, Stores: &activities.Stores{}}
		w := workflows.NewWorkers(sess.client, g.queue, acts[i], worker.Options{DisableEagerActivities: true}, workflows.AllRoles)
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
	}
	run, _, err := startOrAttach(ctx, sess.client, g.queue, spec)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if err := run.Get(wctx, nil); err != nil {
		t.Fatal(err)
	}
	_, turns, eps := readShards(t, spec.Output, "terminal-rebuilt")
	replays := acts[0].SessionReplays() + acts[1].SessionReplays()
	t.Logf("%d turns, %d sessions rebuilt from the turn log", len(turns), replays)
	if replays == 0 {
		t.Fatal("no session was rebuilt: the test does not exercise a second worker")
	}
	if len(eps) != 8 {
		t.Fatalf("%d episodes, want 8%s", len(eps), firstFailure(t, spec.Output, "terminal-rebuilt"))
	}
	for _, e := range eps {
		if !e.Success || e.TotalReward != 1 {
			t.Fatalf("episode %s (%s): success %v reward %v", e.EpisodeID, e.EnvID, e.Success, e.TotalReward)
		}
	}
}

// firstFailure describes the job's first failed episode, if any: on a host
// where another process holds this package's sandbox uids (a concurrent
// test run of the same package), every terminal episode fails that way.
func firstFailure(t *testing.T, out, job string) string {
	dir := filepath.Join(strings.TrimPrefix(out, "file://"), job, "_failures")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	if fails := readFailures(t, dir); len(fails) > 0 {
		return fmt.Sprintf("; %d failed, the first: %+v", len(fails), fails[0])
	}
	return ""
}

// terminalUIDs finds two slot uids for a terminal test's sandbox that no
// other process holds (69100…, stepping by 10): these tests run sandboxes
// for many seconds, and another run of this package on the same host (a
// second worktree) would otherwise make every episode fail with "uids in
// use". A range this process locked stays usable by it.
func terminalUIDs(t *testing.T) int {
	t.Helper()
	ctx := context.Background()
	var last error
	for base := 69100; base < 69300; base += 10 {
		sb, err := sandbox.New(ctx, sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: base, Slots: 2})
		if err == nil {
			sb.Close()
			return base
		}
		last = err
	}
	t.Fatalf("no free sandbox uids in 69100…69299: %v", last)
	return 0
}
