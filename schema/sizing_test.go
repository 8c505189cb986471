package schema

import (
	"errors"
	"strings"
	"testing"
)

func sizingSpec(t *testing.T, extra string) JobSpec {
	t.Helper()
	s, err := ParseJobSpec([]byte(`
job: sized
envs: [{id: game:GuessTheNumber-v0-easy}]
tasks: 4096
batch_size: 128
policy:
  kind: openai
  openai:
    endpoints: [http://a:8000/v1, http://b:8000/v1, http://c:8000/v1, http://d:8000/v1]
    model: m
` + extra))
	if err != nil {
		t.Fatal(err)
	}
	return s.WithDefaults()
}

// Without endpoint_concurrency the defaults stay as they were (the hash of
// a spec written before it existed must not change); with it, in_flight
// and concurrency follow endpoints × endpoint_concurrency.
func TestInFlightSizedFromEndpoints(t *testing.T) {
	plain := sizingSpec(t, "")
	if plain.InFlight != (InFlight{Batches: DefaultBatchesInFlight, Episodes: DefaultEpisodesInFlight}) || plain.Policy.OpenAI.Concurrency != DefaultConcurrency {
		t.Errorf("defaults changed: %+v, concurrency %d", plain.InFlight, plain.Policy.OpenAI.Concurrency)
	}
	s := sizingSpec(t, "    endpoint_concurrency: 256\n")
	// 4 × 256 = 1024 episodes at once over batches of 128: 8 batches, and
	// one more starting while another drains.
	if s.InFlight != (InFlight{Batches: 9, Episodes: 128}) {
		t.Errorf("in_flight %+v, want 9 batches × 128", s.InFlight)
	}
	if got := s.EpisodeCap(s.InFlight); got < 1024 {
		t.Errorf("cap %d below the endpoints' 1024", got)
	}
	if s.Policy.OpenAI.Concurrency != 1024 {
		t.Errorf("concurrency %d, want 1024 (one worker may carry it all)", s.Policy.OpenAI.Concurrency)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	small := sizingSpec(t, "    endpoint_concurrency: 16\nin_flight: {batches: 1}\n")
	if small.InFlight != (InFlight{Batches: 1, Episodes: 64}) {
		t.Errorf("an explicit field must stay: %+v", small.InFlight)
	}
}

// Explicit in_flight limits below what the endpoints serve are refused with
// the values that fit; endpoint_concurrency out of bounds names itself.
func TestLowInFlightRefused(t *testing.T) {
	s := sizingSpec(t, "    endpoint_concurrency: 256\nin_flight: {batches: 2, episodes: 128}\n")
	err := s.Validate()
	var se SpecError
	if !errors.As(err, &se) || len(se) != 1 || se[0].Path != "in_flight" ||
		!strings.Contains(se[0].Problem, "256 episodes at once, below the 1024") || !strings.Contains(se[0].Problem, "in_flight.batches: 9") {
		t.Fatalf("got %v", err)
	}
	bad := sizingSpec(t, "    endpoint_concurrency: -1\n")
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "policy.openai.endpoint_concurrency") {
		t.Errorf("got %v", err)
	}
	few := sizingSpec(t, "    endpoint_concurrency: 256\n")
	few.Tasks = 100 // the job has fewer episodes than the endpoints serve: nothing to refuse
	few.InFlight = InFlight{Batches: 1, Episodes: 128}
	if err := few.Validate(); err != nil {
		t.Errorf("a job smaller than the endpoints' capacity: %v", err)
	}
}

func TestSizingNote(t *testing.T) {
	s := sizingSpec(t, "")
	note := s.SizingNote(s.InFlight, 3)
	for _, want := range []string{
		"at most 256 episodes at once (in_flight: 2 batches × 128 episodes)",
		"3 worker(s) × concurrency 64 = 192 requests at once caps it: run 4 workers or raise policy.openai.concurrency to 86",
		"set policy.openai.endpoint_concurrency",
	} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	sized := sizingSpec(t, "    endpoint_concurrency: 8\n")
	if note := sized.SizingNote(sized.InFlight, 0); !strings.Contains(note, "the endpoints serve 32 (4 × endpoint_concurrency 8)") || strings.Contains(note, "caps it") {
		t.Errorf("note %q", note)
	}
}
