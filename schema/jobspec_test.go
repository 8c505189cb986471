package schema

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

const goodYAML = `
job: quick
seed: 7
envs:
  - id: game:GuessTheNumber-v0-easy
    options: {max_turns: 5}
  - id: rg:basic_arithmetic
    weight: 3
tasks: 10
samples_per_task: 4
policy:
  kind: openai
  openai:
    endpoints: [http://127.0.0.1:8000/v1]
    model: Qwen/Qwen3-8B
    api_key_env: OPENAI_API_KEY
    sampling: {temperature: 0.7, max_tokens: 512}
    extra_body: {top_k: 20, chat_template_kwargs: {enable_thinking: false}}
    request_timeout: 90s
episode:
  timeout: 5m
output: s3://bucket/runs
`

func TestParseDefaultsValidate(t *testing.T) {
	s, err := ParseJobSpec([]byte(goodYAML))
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	switch {
	case s.Job != "quick" || s.Seed != 7 || len(s.Envs) != 2:
		t.Fatalf("decoded %+v", s)
	case *s.Envs[0].Weight != 1 || *s.Envs[1].Weight != 3:
		t.Fatalf("weights %v %v", *s.Envs[0].Weight, *s.Envs[1].Weight)
	case s.Envs[0].Options["max_turns"] != uint64(5) && s.Envs[0].Options["max_turns"] != float64(5) && s.Envs[0].Options["max_turns"] != int64(5):
		t.Fatalf("options %#v", s.Envs[0].Options)
	case s.BatchSize != 40: // 10 tasks × 4 samples < 256
		t.Fatalf("batch size %d", s.BatchSize)
	case *s.Gamma != 1 || s.Wrapper != "chat" || s.Episode.MaxAttempts != 3:
		t.Fatalf("defaults %+v", s)
	case time.Duration(s.Episode.Timeout) != 5*time.Minute || time.Duration(s.Policy.OpenAI.RequestTimeout) != 90*time.Second:
		t.Fatalf("durations %v %v", s.Episode.Timeout, s.Policy.OpenAI.RequestTimeout)
	case s.Policy.OpenAI.Concurrency != DefaultConcurrency || s.InFlight.Batches != 2:
		t.Fatalf("defaults %+v", s)
	case s.Episodes() != 40 || s.Batches() != 1:
		t.Fatalf("episodes %d batches %d", s.Episodes(), s.Batches())
	}
	// JSON is YAML too.
	j, err := ParseJobSpec([]byte(`{"envs":[{"id":"game:X"}],"tasks":600,"samples_per_task":8,"policy":{"kind":"random"}}`))
	if err != nil {
		t.Fatal(err)
	}
	j = j.WithDefaults()
	if err := j.Validate(); err != nil {
		t.Fatal(err)
	}
	if j.BatchSize != 256 || j.Batches() != 19 || !strings.HasPrefix(j.Job, "job-") {
		t.Fatalf("batch %d batches %d job %q", j.BatchSize, j.Batches(), j.Job)
	}
}

func TestParseErrorsPointAtTheLine(t *testing.T) {
	for _, tt := range []struct{ spec, want string }{
		{"tasks: 3\ntemprature: 1\n", `unknown field "temprature"`},
		{"tasks: three\n", "tasks"},
		{"tasks: 1\ntasks: 2\n", "already defined"},
		{"episode: {timeout: soon}\n", "want a duration"},
		{"envs: [{id: a, optons: {}}]\n", `unknown field "optons"`},
	} {
		_, err := ParseJobSpec([]byte(tt.spec))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err %v, want %q", tt.spec, err, tt.want)
		}
	}
	_, err := ParseJobSpec([]byte("tasks: 3\nseed: 1\nbogus: 1\n"))
	if err == nil || !strings.Contains(err.Error(), "3 |") && !strings.Contains(err.Error(), "[3:") {
		t.Errorf("error does not point at line 3: %v", err)
	}
}

func TestValidateNamesFields(t *testing.T) {
	base := func() JobSpec {
		s, err := ParseJobSpec([]byte(goodYAML))
		if err != nil {
			t.Fatal(err)
		}
		return s.WithDefaults()
	}
	neg := -0.5
	for _, tt := range []struct {
		mutate func(*JobSpec)
		path   string
		want   string
	}{
		{func(s *JobSpec) { s.Job = "Bad Job" }, "job", "a-z"},
		{func(s *JobSpec) { s.Envs = nil }, "envs", "at least one"},
		{func(s *JobSpec) { s.Envs[1].ID = "" }, "envs[1].id", "required"},
		{func(s *JobSpec) { w := -1.0; s.Envs[0].Weight = &w }, "envs[0].weight", "≥ 0"},
		{func(s *JobSpec) { z := 0.0; s.Envs[0].Weight, s.Envs[1].Weight = &z, &z }, "envs", "sum to 0"},
		{func(s *JobSpec) { s.Tasks = 0 }, "tasks", "at least 1"},
		{func(s *JobSpec) { s.BatchSize = 6 }, "batch_size", "not a multiple of samples_per_task (4)"},
		{func(s *JobSpec) { s.BatchSize = 100000 }, "batch_size", "want 1 to"},
		{func(s *JobSpec) { s.Gamma = &neg }, "gamma", "0 ≤ gamma ≤ 1"},
		{func(s *JobSpec) { s.Policy.Kind = "gpt" }, "policy.kind", "openai, random, oracle"},
		{func(s *JobSpec) { s.Policy.OpenAI = nil }, "policy.openai", "required"},
		{func(s *JobSpec) { s.Policy.OpenAI.Endpoints = []string{"localhost:8000"} }, "policy.openai.endpoints[0]", "http(s) base URL"},
		{func(s *JobSpec) { s.Policy.OpenAI.Endpoints = []string{"http://u:p@h/v1"} }, "policy.openai.endpoints[0]", "credentials"},
		{func(s *JobSpec) { s.Policy.OpenAI.Model = "" }, "policy.openai.model", "required"},
		{func(s *JobSpec) { s.Policy.OpenAI.APIKey = "sk-123" }, "policy.openai.api_key", "secrets never go in a spec"},
		{func(s *JobSpec) { s.Policy.OpenAI.APIKeyEnv = "my key" }, "policy.openai.api_key_env", "environment variable name"},
		{func(s *JobSpec) { s.Policy.OpenAI.ExtraBody = map[string]any{"model": "x"} }, "policy.openai.extra_body.model", "set by Quarry"},
		{func(s *JobSpec) { s.Policy.Kind = PolicyOracle }, "policy.openai", "only allowed with kind: openai"},
		{func(s *JobSpec) { s.Output = "gs://bucket" }, "output", "s3://bucket/prefix"},
		{func(s *JobSpec) { s.Output = "file://relative" }, "output", "file:///absolute"},
		{func(s *JobSpec) { s.Episode.MaxAttempts = 0 }, "episode.max_attempts", "1 to 100"},
		{func(s *JobSpec) { s.InFlight.Episodes = -1 }, "in_flight.episodes", "at least 1"},
	} {
		s := base()
		tt.mutate(&s)
		err := s.Validate()
		var se SpecError
		if !errors.As(err, &se) {
			t.Fatalf("%s: err %v, want SpecError", tt.path, err)
		}
		found := false
		for _, fe := range se {
			if fe.Path == tt.path && strings.Contains(fe.Problem, tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("want %s: …%s…; got %v", tt.path, tt.want, err)
		}
		if strings.Contains(err.Error(), "sk-123") {
			t.Errorf("the error echoes a secret: %v", err)
		}
	}
}

func TestHash(t *testing.T) {
	a, _ := ParseJobSpec([]byte(goodYAML))
	b := a
	b.Job = "other"
	if a.Hash() != b.Hash() {
		t.Fatal("hash depends on the job id")
	}
	b.Seed++
	if a.Hash() == b.Hash() {
		t.Fatal("hash ignores the seed")
	}
	if a.WithDefaults().Hash() != a.WithDefaults().Hash() {
		t.Fatal("hash not deterministic")
	}
}

func TestToolsSpec(t *testing.T) {
	parse := func(tools string) JobSpec {
		t.Helper()
		s, err := ParseJobSpec([]byte(goodYAML + "tools: " + tools + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		return s.WithDefaults()
	}
	s := parse(`{preset: python_tool}`)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	tl := s.Tools
	if tl.Python == nil || tl.Python.Timeout != DefaultPythonTimeout || *tl.ToolReward != 0.05 || *tl.ToolSuccessReward != 0.25 ||
		*tl.MaxToolUses != 5 || !slices.Equal(tl.Names(), []string{"python"}) {
		t.Fatalf("python_tool preset: %+v", tl)
	}
	s = parse(`{preset: search_tool, search: {url: "http://127.0.0.1:8000/retrieve"}, max_tool_uses: 2}`)
	if err := s.Validate(); err != nil || *s.Tools.ToolReward != 0.3 || *s.Tools.MaxToolUses != 2 || s.Tools.Search.TopK != 3 {
		t.Fatalf("search_tool preset: %+v %v", s.Tools, err)
	}
	s = parse(`{mcp: {mcpServers: {time: {command: node, args: [server.js]}}}}`)
	if err := s.Validate(); err != nil || *s.Tools.MaxToolUses != DefaultMaxToolUses || *s.Tools.ToolReward != 0 {
		t.Fatalf("mcp: %+v %v", s.Tools, err)
	}
	for _, tt := range []struct{ tools, path, want string }{
		{`{preset: pyhton_tool}`, "tools.preset", "python_tool, python_tool_no_int_reward"},
		{`{}`, "tools", "no tool"},
		{`{preset: search_tool}`, "tools.search.url", "quarry retrieve serve"},
		{`{search: {url: "ftp://x/retrieve"}}`, "tools.search.url", "http(s) URL"},
		{`{python: {}, max_tool_uses: -2}`, "tools.max_tool_uses", "-1 (no cap)"},
		{`{python: {}, tool_error_reward: 0.5}`, "tools.tool_error_reward", "negative"},
		{`{preset: python_tool, tool_error_reward: -0.1}`, "tools.tool_error_reward", "cannot be combined"},
		{`{mcp: {servers: {}}}`, "tools.mcp", "mcpServers"},
		{`{python: {}, calling: smoke}`, "tools.calling", "want text or native"},
	} {
		err := parse(tt.tools).Validate()
		var se SpecError
		if !errors.As(err, &se) || !slices.ContainsFunc(se, func(fe FieldError) bool { return fe.Path == tt.path && strings.Contains(fe.Problem, tt.want) }) {
			t.Errorf("tools %s: err %v, want %s: …%s…", tt.tools, err, tt.path, tt.want)
		}
	}
	s = parse(`{preset: python_tool, calling: native}`)
	if err := s.Validate(); err != nil {
		t.Fatalf("native calling with the chat wrapper: %v", err)
	}
	s.Wrapper = "concat"
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "needs wrapper: chat") {
		t.Fatalf("native calling with a text wrapper: %v", err)
	}
	s = parse(`{preset: python_tool}`)
	s.Policy.Kind, s.Policy.OpenAI = PolicyRandom, nil
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "only the openai policy calls tools") {
		t.Fatalf("tools with the random policy: %v", err)
	}
}
