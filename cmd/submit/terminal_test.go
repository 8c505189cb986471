package main

import (
	"os"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/terminal"
	"github.com/quarry-rl/quarry/internal/openaitest"
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
	spec := runLocalJob(t, body)
	_, turns, eps := readShards(t, spec.Output, "terminal-oracle")
	if len(eps) != 8 {
		t.Fatalf("%d episodes, want 8", len(eps))
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
	tasks, err := terminal.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	policy := func(msgs []openaitest.Message) string {
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
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: terminal-endpoint
seed: 3
envs: [{id: terminal:git-revert-bad-commit}, {id: terminal:make-fix-build}]
tasks: 4
samples_per_task: 1
batch_size: 4
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 512}}}
`)
	_, turns, eps := readShards(t, spec.Output, "terminal-endpoint")
	if len(eps) != 4 {
		t.Fatalf("%d episodes, want 4", len(eps))
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
