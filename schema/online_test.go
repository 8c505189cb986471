package schema

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func onlineBase(t *testing.T, online string) JobSpec {
	t.Helper()
	s, err := ParseJobSpec([]byte(goodYAML + "online:\n" + online))
	if err != nil {
		t.Fatal(err)
	}
	return s.WithDefaults()
}

// Bad online settings are refused naming the field.
func TestOnlineValidateNamesFields(t *testing.T) {
	for _, tt := range []struct {
		online, path, want string
	}{
		{"  mode: streaming\n", "online.mode", "async or sync"},
		{"  steps: -1\n", "online.steps", "0 (until cancelled)"},
		{"  consumers: [ok, 'bad name']\n", "online.consumers[1]", "1-64 characters"},
		{"  consumers: [a, a]\n", "online.consumers[1]", "listed twice"},
		{"  max_batches_ahead: 3\n", "online.max_batches_ahead", "needs online.consumers"},
		{"  max_version_lag: -2\n", "online.max_version_lag", "want 0"},
		{"  stale: keep\n", "online.stale", "regenerate or drop"},
		{"  on_new_version: abort\n", "online.on_new_version", "only used with mode: sync"},
		{"  mode: sync\n  on_new_version: later\n", "online.on_new_version", "drain or abort"},
	} {
		err := onlineBase(t, tt.online).Validate()
		var se SpecError
		if !errors.As(err, &se) || !slices.ContainsFunc(se, func(fe FieldError) bool {
			return fe.Path == tt.path && strings.Contains(fe.Problem, tt.want)
		}) {
			t.Errorf("%q: want %s: …%s…; got %v", tt.online, tt.path, tt.want, err)
		}
	}
	s := onlineBase(t, "  steps: 3\n")
	s.Policy = Policy{Kind: PolicyRandom}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "online: needs policy.kind: openai") {
		t.Errorf("a random-policy online job: %v", err)
	}
}

// Defaults: async, regenerate, partial rollouts allowed, two batches ahead
// of named consumers; an online job of steps batches.
func TestOnlineDefaults(t *testing.T) {
	s := onlineBase(t, "  steps: 5\n  consumers: [trainer]\n")
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	o := s.Online
	if o.Mode != OnlineAsync || o.Stale != StaleRegenerate || !*o.PartialRollouts || o.MaxBatchesAhead != DefaultAhead || o.MaxVersionLag != nil {
		t.Errorf("defaults %+v", o)
	}
	if s.Batches() != 5 || s.Episodes() != 5*s.BatchSize || s.OpenEnded() || !s.HasBatch(4) || s.HasBatch(5) {
		t.Errorf("batches %d episodes %d", s.Batches(), s.Episodes())
	}
	open := onlineBase(t, "  mode: sync\n")
	if !open.OpenEnded() || !open.HasBatch(1<<20) || open.Online.OnNewVersion != NewVersionDrain {
		t.Errorf("open-ended sync job: %+v", open.Online)
	}
}

// An online job cycles over its tasks; each pass draws fresh sample seeds,
// and pass 0 is the offline plan.
func TestOnlineSlotsCycleTasks(t *testing.T) {
	s := onlineBase(t, "  steps: 0\n")
	s.Tasks, s.SamplesPerTask, s.BatchSize = 3, 2, 4
	off := s
	off.Online = nil
	var stream []Slot
	for b := range 6 {
		slots := s.BatchSlots(b)
		if len(slots) != 4 {
			t.Fatalf("batch %d: %d slots", b, len(slots))
		}
		stream = append(stream, slots...)
	}
	for k, sl := range stream {
		if want := int64((k / 2) % 3); sl.Task != want {
			t.Fatalf("slot %d plays task %d, want %d", k, sl.Task, want)
		}
		if sl.TaskSeed != TaskSeed(s.Seed, sl.Task) {
			t.Fatalf("slot %d: task seed differs from the task's", k)
		}
	}
	if got, want := s.BatchSlots(0), off.BatchSlots(0); !slices.Equal(got, want) {
		t.Errorf("pass 0 differs from the offline plan:\n%v\n%v", got, want)
	}
	if stream[0].SampleSeed == stream[6].SampleSeed || stream[0].Task != stream[6].Task {
		t.Errorf("the second pass over task 0 reuses its sample seed")
	}
}
