package schema

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// goodSpec is goodYAML decoded and defaulted.
func goodSpec(t *testing.T) JobSpec {
	t.Helper()
	s, err := ParseJobSpec([]byte(goodYAML))
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

// wantField asserts that err is a SpecError with a problem at path
// containing want.
func wantField(t *testing.T, err error, path, want string) {
	t.Helper()
	var se SpecError
	if !errors.As(err, &se) {
		t.Fatalf("%s: err %v, want a SpecError", path, err)
	}
	for _, fe := range se {
		if fe.Path == path && strings.Contains(fe.Problem, want) {
			return
		}
	}
	t.Errorf("want %s: …%s…; got %v", path, want, err)
}

func TestTaskCountsCannotOverflow(t *testing.T) {
	// 2^62 tasks × 4 samples wraps int64 to 0: today a job of 0 batches
	// (or negative ones) that retries forever.
	s := goodSpec(t)
	s.Tasks = 1 << 62
	wantField(t, s.Validate(), "tasks", "want at most 1000000000")

	s = goodSpec(t)
	s.Tasks, s.SamplesPerTask, s.BatchSize = 600_000_000, 4, 256
	wantField(t, s.Validate(), "tasks", "2400000000 episodes: want at most 1000000000")

	s = goodSpec(t)
	s.SamplesPerTask = 1 << 40
	wantField(t, s.Validate(), "samples_per_task", "want at most 4096")
}

func TestNumbersHaveUpperBounds(t *testing.T) {
	for _, tt := range []struct {
		mutate func(*JobSpec)
		path   string
	}{
		{func(s *JobSpec) { s.MaxTurns = 1 << 30 }, "max_turns"},
		{func(s *JobSpec) { s.MaxHistory = 1 << 30 }, "max_history"},
		{func(s *JobSpec) { s.InFlight.Batches = 100000 }, "in_flight.batches"},
		{func(s *JobSpec) { s.InFlight.Episodes = 100000 }, "in_flight.episodes"},
		{func(s *JobSpec) { s.Policy.OpenAI.Concurrency = 1 << 20 }, "policy.openai.concurrency"},
		{func(s *JobSpec) { s.Policy.OpenAI.Sampling.MaxTokens = 1 << 30 }, "policy.openai.sampling.max_tokens"},
		{func(s *JobSpec) { s.Policy.OpenAI.RequestTimeout = Duration(1 << 62) }, "policy.openai.request_timeout"},
		{func(s *JobSpec) { s.Episode.Timeout = Duration(1 << 62) }, "episode.timeout"},
		{func(s *JobSpec) { s.Policy.OpenAI.Model = strings.Repeat("m", 1000) }, "policy.openai.model"},
	} {
		s := goodSpec(t)
		tt.mutate(&s)
		wantField(t, s.Validate(), tt.path, "want at most")
	}
}

// TestLargeExtraBodyRefused: a 20 KB extra_body is copied into each of the
// 256 episodes a batch starts in one workflow task (5 MiB, over Temporal's
// 4 MiB transaction limit: the batch was terminated while --dry-run called
// the spec valid).
func TestLargeExtraBodyRefused(t *testing.T) {
	s := goodSpec(t)
	s.Tasks, s.SamplesPerTask, s.BatchSize = 1000, 8, 256
	s.InFlight.Episodes = 256
	s.Policy.OpenAI.ExtraBody = map[string]any{"logit_bias": strings.Repeat("x", 20<<10)}
	err := s.Validate()
	wantField(t, err, "in_flight.episodes", "Temporal's 4.0 MiB transaction limit")
	wantField(t, err, "in_flight.episodes", "policy.openai.extra_body")

	// The limit it names is enough.
	var se SpecError
	errors.As(err, &se)
	s.InFlight.Episodes = s.maxInFlight(jsonSize(s) + jsonSize(s.Envs[0].Options) + len(s.Envs[0].ID) + copyOverhead)
	if err := s.Validate(); err != nil {
		t.Errorf("at the suggested in_flight.episodes %d: %v", s.InFlight.Episodes, err)
	}

	s.Policy.OpenAI.ExtraBody = map[string]any{"logit_bias": strings.Repeat("x", 70<<10)}
	wantField(t, s.Validate(), "policy.openai.extra_body", "want at most 64.0 KiB")
}

func TestBatchHistoryBudget(t *testing.T) {
	s := goodSpec(t)
	s.Tasks, s.SamplesPerTask, s.BatchSize, s.InFlight.Episodes = 100000, 4, 4096, 64
	s.Policy.OpenAI.ExtraBody = map[string]any{"bias": strings.Repeat("x", 12<<10)}
	wantField(t, s.Validate(), "batch_size", "history limit")
}

func TestJobInFlightBudget(t *testing.T) {
	s := goodSpec(t)
	s.Tasks, s.SamplesPerTask, s.BatchSize = 1_000_000, 4, 256
	s.InFlight.Batches, s.InFlight.Episodes = 256, 16
	s.Policy.OpenAI.ExtraBody = map[string]any{"bias": strings.Repeat("x", 20<<10)}
	wantField(t, s.Validate(), "in_flight.batches", "want in_flight.batches at most")
}

// TestBillionLaughs: nine levels of ten aliases would expand to 10^9 strings.
func TestBillionLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("job: lol\nenvs: [{id: game:GuessTheNumber-v0-easy}]\ntasks: 1\npolicy:\n  kind: openai\n  openai:\n    endpoints: [http://127.0.0.1:8000/v1]\n    model: m\n    extra_body:\n      l0: &l0 lol\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("      l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*l" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	_, err := ParseJobSpec([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "anchors and aliases expand to more than") {
		t.Fatalf("ParseJobSpec(billion laughs) = %v, want a refusal", err)
	}
	// A few aliases are fine.
	ok := "x: &opts {max_turns: 5}\n"
	if err := checkYAML([]byte(ok + "y: [*opts, *opts]\n")); err != nil {
		t.Errorf("two aliases: %v", err)
	}
	big := []byte("job: x\n# " + strings.Repeat("c", MaxSpecDocumentBytes) + "\n")
	if _, err := ParseJobSpec(big); err == nil || !strings.Contains(err.Error(), "want at most 1.0 MiB") {
		t.Errorf("ParseJobSpec(1 MiB) = %v, want a size refusal", err)
	}
}

// TestEveryNumberIsRefusedOutOfRange sets each number of a spec that
// TestNumbersHaveUpperBounds does not cover far out of range (huge, NaN or
// infinite) and wants the error to name that field.
func TestEveryNumberIsRefusedOutOfRange(t *testing.T) {
	const big = 1 << 40
	nan, inf := math.NaN(), math.Inf(1)
	ptr := func(v float64) *float64 { return &v }
	iptr := func(v int) *int { return &v }
	python := func(s *JobSpec) *ToolsSpec {
		s.Tools = &ToolsSpec{Preset: "python_tool"}
		return s.Tools
	}
	for _, tt := range []struct {
		path   string
		mutate func(*JobSpec)
	}{
		{"batch_size", func(s *JobSpec) { s.BatchSize = big }},
		{"gamma", func(s *JobSpec) { s.Gamma = ptr(nan) }},
		{"envs[0].weight", func(s *JobSpec) { s.Envs[0].Weight = ptr(inf) }},
		{"envs[0].weight", func(s *JobSpec) { s.Envs[0].Weight = ptr(nan) }},
		{"episode.max_attempts", func(s *JobSpec) { s.Episode.MaxAttempts = big }},
		{"episode.heartbeat_timeout", func(s *JobSpec) { s.Episode.HeartbeatTimeout = Duration(1 << 62) }},
		{"episode.max_failed_fraction", func(s *JobSpec) { s.Episode.MaxFailedFraction = ptr(nan) }},
		{"policy.openai.sampling.temperature", func(s *JobSpec) { s.Policy.OpenAI.Sampling.Temperature = ptr(inf) }},
		{"policy.openai.sampling.top_p", func(s *JobSpec) { s.Policy.OpenAI.Sampling.TopP = ptr(nan) }},
		{"policy.openai.sampling.max_tokens", func(s *JobSpec) { s.Policy.OpenAI.Sampling.MaxTokens = -1 }},
		{"policy.openai.endpoint_concurrency", func(s *JobSpec) { s.Policy.OpenAI.EndpointConcurrency = big }},
		{"tools.max_tool_uses", func(s *JobSpec) { python(s).MaxToolUses = iptr(big) }},
		{"tools.python.timeout", func(s *JobSpec) { python(s).Python = &PythonToolSpec{Timeout: Duration(1 << 62)} }},
		{"tools.search.topk", func(s *JobSpec) {
			s.Tools = &ToolsSpec{Search: &SearchToolSpec{URL: "http://127.0.0.1:1/retrieve", TopK: big, Timeout: Duration(time.Second)}}
		}},
		{"tools.tool_reward", func(s *JobSpec) { python(s).ToolReward = ptr(nan) }},
		{"tools.tool_success_reward", func(s *JobSpec) { python(s).ToolSuccessReward = ptr(inf) }},
		{"tools.tool_error_reward", func(s *JobSpec) {
			s.Tools = &ToolsSpec{Preset: "python_tool_no_int_reward", ToolErrorReward: ptr(-1e300)}
		}},
		{"online.steps", func(s *JobSpec) { s.Online = &Online{Steps: big} }},
		{"online.max_batches_ahead", func(s *JobSpec) { s.Online = &Online{Consumers: []string{"t"}, MaxBatchesAhead: big} }},
		{"online.max_version_lag", func(s *JobSpec) { s.Online = &Online{MaxVersionLag: iptr(big)} }},
	} {
		s := goodSpec(t)
		tt.mutate(&s)
		s = s.WithDefaults()
		var se SpecError
		if !errors.As(s.Validate(), &se) || !slices.ContainsFunc(se, func(fe FieldError) bool { return fe.Path == tt.path }) {
			t.Errorf("%s out of range: got %v, want an error naming it", tt.path, s.Validate())
		}
	}
	// From YAML, as a user writes it.
	s, err := ParseJobSpec([]byte(strings.Replace(goodYAML, "episode:", "tools: {preset: python_tool, tool_reward: .nan}\nepisode:", 1)))
	if err != nil {
		t.Fatal(err)
	}
	wantField(t, s.WithDefaults().Validate(), "tools.tool_reward", "want a finite reward")
}

// A turn lost with its worker resumes within ~10 s by default (issue 11),
// not after the minute a Temporal activity's heartbeat timeout usually is;
// a spec may set its own within 1 s to 1 h.
func TestHeartbeatTimeoutDefault(t *testing.T) {
	if got := (EpisodeLimits{}).Heartbeat(); got != 10*time.Second {
		t.Fatalf("default heartbeat timeout %v, want 10s", got)
	}
	if got := (EpisodeLimits{HeartbeatTimeout: Duration(3 * time.Second)}).Heartbeat(); got != 3*time.Second {
		t.Fatalf("a spec's heartbeat timeout of 3s became %v", got)
	}
}
