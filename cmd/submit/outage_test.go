package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
)

// outage serves the model, then answers 404 for it (a trainer reloading
// weights under a new name) from the chat request numbered from on, and
// serves it again once the waiting episodes' probes (the one-token
// completion ProbeEndpoint sends) have met the 404 probes times. It flips
// from inside the server's fault hook, so the test needs no clock.
type outage struct {
	from, probes int

	mu         sync.Mutex
	down, over bool
	probed     int
	refused    int // chat requests answered 404, probes included
}

func (o *outage) fault(seq int, body []byte) openaitest.Fault {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down && !o.over && seq >= o.from {
		o.down = true
	}
	if !o.down {
		return openaitest.Fault{}
	}
	if bytes.Contains(body, []byte(`"max_tokens":1,`)) {
		o.probed++
		if o.probed > o.probes {
			o.down, o.over = false, true
			return openaitest.Fault{}
		}
	}
	o.refused++
	return openaitest.ModelGone()
}

// A model that disappears mid-job pauses the job's turns instead of burning
// its episodes: every episode lands exactly once, none failed, the turns
// that met the 404 record their failed attempts with the class
// ModelNotFound, and the summary reports the outage.
func TestModelGoneMidJobPausesTurns(t *testing.T) {
	o := &outage{from: 6, probes: 2}
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithRequestFaults(o.fault))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stdout := submitLocal(t, dir, endpointJobSpec(t, dir, "model-gone", 9, 4, srv.BaseURL(), "{max_tokens: 64, logprobs: true}"))
	o.mu.Lock()
	over, refused := o.over, o.refused
	o.mu.Unlock()
	if !over || refused == 0 {
		t.Fatalf("the outage did not happen as planned: over %v, %d requests refused", over, refused)
	}
	if !strings.Contains(stdout, "job model-gone complete: 8 episodes (0 failed)") ||
		!strings.Contains(stdout, "endpoint outages") {
		t.Fatalf("summary:\n%s", stdout)
	}
	_, turns, eps := readShards(t, "file://"+out, "model-gone")
	ids := map[string]int{}
	for _, e := range eps {
		ids[e.EpisodeID]++
	}
	if len(eps) != 8 || len(ids) != 8 {
		t.Fatalf("%d episode rows, %d distinct: want each of 8 exactly once", len(eps), len(ids))
	}
	paused := 0
	for _, r := range turns {
		if r.FailedAttempts != nil && *r.FailedAttempts > 0 {
			paused++
			if r.LastFault == nil || *r.LastFault != inference.FaultModelNotFound {
				t.Errorf("turn %s/%d: %d failed attempts, last fault %v", r.EpisodeID, r.Turn, *r.FailedAttempts, r.LastFault)
			}
		}
	}
	if paused == 0 {
		t.Fatal("no turn records the attempts the outage cost")
	}
}
