package main

import (
	"os"
	"strings"
	"testing"
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
