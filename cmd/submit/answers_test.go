package main

import (
	"bytes"
	"hash/fnv"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
)

// Bad answers (token ids missing, logprobs that do not match the tokens, no
// choices, a body that is not JSON) cost one retried attempt each, never a
// job or an episode: the job completes with every episode exactly once,
// and each retried turn records its failed attempts and their class.
func TestBadAnswersCostARetriedTurn(t *testing.T) {
	bad := []openaitest.Fault{openaitest.NoTokenIDs(), openaitest.ShortLogprobs(), openaitest.NoChoices(), openaitest.Garbage()}
	var mu sync.Mutex
	seen := map[string]bool{}
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithRequestFaults(func(_ int, body []byte) openaitest.Fault {
		mu.Lock()
		defer mu.Unlock()
		first := !seen[string(body)]
		seen[string(body)] = true
		h := fnv.New32a()
		h.Write(body)
		// About one request in four, never a retry (the same body) and
		// never the submit-time probe.
		if !first || bytes.Contains(body, []byte(`"max_tokens":1,`)) || h.Sum32()%4 != 0 {
			return openaitest.Fault{}
		}
		return bad[h.Sum32()/4%uint32(len(bad))]
	}))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stdout := submitLocal(t, dir, endpointJobSpec(t, dir, "bad-answers", 5, 4, srv.BaseURL(), "{max_tokens: 64, logprobs: true}"))
	if !strings.Contains(stdout, "job bad-answers complete: 8 episodes (0 failed)") {
		t.Fatalf("summary:\n%s", stdout)
	}
	_, turns, eps := readShards(t, "file://"+out, "bad-answers")
	ids := map[string]int{}
	for _, e := range eps {
		ids[e.EpisodeID]++
		if !e.Success || e.TokenSource != "served" {
			t.Errorf("%s: success %v, token source %q", e.EpisodeID, e.Success, e.TokenSource)
		}
	}
	if len(ids) != 8 || len(eps) != 8 {
		t.Fatalf("%d episode rows, %d distinct: want each of 8 exactly once", len(eps), len(ids))
	}
	faulted := 0
	for _, r := range srv.ChatRecords() {
		if r.Fault != "" {
			faulted++
		}
	}
	if faulted == 0 {
		t.Fatal("no bad answer was served")
	}
	counted := 0
	for _, r := range turns {
		if r.FailedAttempts == nil {
			t.Fatalf("turn %s/%d: failed_attempts is null", r.EpisodeID, r.Turn)
		}
		counted += int(*r.FailedAttempts)
		if *r.FailedAttempts > 0 && (r.LastFault == nil || *r.LastFault != inference.FaultBadAnswer) {
			t.Errorf("turn %s/%d: %d failed attempts, last fault %v", r.EpisodeID, r.Turn, *r.FailedAttempts, r.LastFault)
		}
		if len(r.ResponseLogprobs) != len(r.ResponseTokenIDs) || len(r.ResponseTokenIDs) == 0 {
			t.Errorf("turn %s/%d: %d logprobs for %d ids", r.EpisodeID, r.Turn, len(r.ResponseLogprobs), len(r.ResponseTokenIDs))
		}
	}
	if counted != faulted {
		t.Errorf("the turns record %d failed attempts, the server served %d bad answers", counted, faulted)
	}
}

// An endpoint that never returns token ids, asked for them and for
// logprobs, does not fail every batch: submit warns, the job runs with the
// token columns null.
func TestEndpointWithoutTokenIDs(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithoutTokenIDs())
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stdout := submitLocal(t, dir, endpointJobSpec(t, dir, "no-ids", 3, 2, srv.BaseURL(), "{logprobs: true}"))
	if !strings.Contains(stdout, "job no-ids complete: 4 episodes (0 failed)") ||
		!strings.Contains(stdout, "warning: ") || !strings.Contains(stdout, "return_token_ids") {
		t.Fatalf("output:\n%s", stdout)
	}
	_, turns, eps := readShards(t, "file://"+out, "no-ids")
	if len(eps) != 4 {
		t.Fatalf("%d episodes", len(eps))
	}
	for _, r := range turns {
		if r.TokenSource != "none" || r.ResponseTokenIDs != nil || r.ResponseLogprobs != nil || r.PromptTokenIDs != nil {
			t.Fatalf("turn %s/%d: %q with token columns %v %v", r.EpisodeID, r.Turn, r.TokenSource, r.ResponseTokenIDs, r.ResponseLogprobs)
		}
	}
	for _, e := range eps {
		if e.TokenSource != "none" || e.TokenIDs != nil {
			t.Fatalf("episode %s: %q", e.EpisodeID, e.TokenSource)
		}
	}
}
