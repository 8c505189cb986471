package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/quarry-rl/quarry/workflows"
)

// faultyProgress is a job with failed episodes of two classes, two past
// endpoint outages and one going on.
func faultyProgress() workflows.Progress {
	now := time.Now()
	return workflows.Progress{
		Job: "j", Batches: 4, BatchesDone: 1, Episodes: 32, EpisodesDone: 8, EpisodesFailed: 3,
		StartedAt: now.Add(-time.Minute), UpdatedAt: now,
		Endpoint: &workflows.Outage{Since: now.Add(-10 * time.Second), Waiting: 5, Reason: "model gone (404)"},
		Faults: workflows.Faults{
			Failed:          []workflows.ClassCount{{Class: "bad_answer", Count: 2}, {Class: "env_error", Count: 1}},
			EndpointOutages: 2, TurnsPaused: 7,
		},
	}
}

// The progress bar names the job's faults by class and its outages, not
// only a count of failed episodes.
func TestProgressBarShowsFaults(t *testing.T) {
	var out bytes.Buffer
	bar := progressbar.NewOptions64(32, progressbar.OptionSetWriter(&out), progressbar.OptionThrottle(0), progressbar.OptionSetWidth(10))
	update(bar, faultyProgress())
	got := out.String()
	for _, want := range []string{"failed 3", "bad_answer 2", "env_error 1", "endpoint outages 2 (7 turns paused)", "endpoint unavailable since", "5 turns waiting"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress bar %q lacks %q", got, want)
		}
	}
	out.Reset()
	update(bar, workflows.Progress{Job: "j", Batches: 4, Episodes: 32})
	if got := out.String(); strings.Contains(got, "faults") || strings.Contains(got, "outages") || strings.Contains(got, "failed") {
		t.Errorf("a job without faults shows some: %q", got)
	}
}

// Status prints the same counters, with the outage going on and its reason.
func TestStatusShowsOutageAndFaults(t *testing.T) {
	var out bytes.Buffer
	printFaults(&out, faultyProgress())
	got := out.String()
	for _, want := range []string{"endpoint unavailable since", "5 turns waiting", "model gone (404)", "faults   bad_answer 2, env_error 1, endpoint outages 2 (7 turns paused)"} {
		if !strings.Contains(got, want) {
			t.Errorf("status %q lacks %q", got, want)
		}
	}
	out.Reset()
	printFaults(&out, workflows.Progress{})
	if out.Len() != 0 {
		t.Errorf("a job without faults prints %q", out.String())
	}
}
