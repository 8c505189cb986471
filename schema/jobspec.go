package schema

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// JobSpec is one submitted job: which envs, how many episodes, which policy,
// where the output goes. It crosses every process boundary (CLI → workflow
// input → activities), so it holds no secrets: API keys are named by
// environment variable and resolved on the worker.
type JobSpec struct {
	// Job is the job id: output folder name and workflow id prefix. Empty
	// derives "job-<hash>" from the spec.
	Job  string `json:"job,omitempty"`
	Seed uint64 `json:"seed"`
	// Envs is one env or a weighted mixture; task i draws its env from the
	// mixture with the job seed, so the mix is the same on every rerun.
	Envs []EnvChoice `json:"envs"`
	// Tasks is the number of tasks; each is played SamplesPerTask times (a
	// group, for GRPO/RLOO). Episodes = Tasks × SamplesPerTask.
	Tasks          int `json:"tasks"`
	SamplesPerTask int `json:"samples_per_task,omitempty"`
	// BatchSize is the number of episodes per batch (one shard, one ReBN
	// normalisation); a multiple of SamplesPerTask so no group straddles batches.
	BatchSize int `json:"batch_size,omitempty"`
	// MaxTurns caps every episode's turns below its env's own limit (0: the env's).
	MaxTurns int `json:"max_turns,omitempty"`
	// Gamma discounts returns: G_t = r_t + γ·G_{t+1}. Default 1.
	Gamma *float64 `json:"gamma,omitempty"`
	// Wrapper renders observations into prompts: last, concat,
	// concat_with_action or chat (default).
	Wrapper    string        `json:"wrapper,omitempty"`
	MaxHistory int           `json:"max_history,omitempty"`
	Episode    EpisodeLimits `json:"episode"`
	Policy     Policy        `json:"policy"`
	// Tools lets the agent call tools between env steps (openai policy only).
	Tools *ToolsSpec `json:"tools,omitempty"`
	// Output is a folder (./out, /data/rl, file:///data/rl) or s3://bucket/prefix.
	Output   string   `json:"output,omitempty"`
	InFlight InFlight `json:"in_flight"`
	// KeepTurnLogs keeps a batch's turn-log objects (<job>/_turns/) after
	// its shard commits, for debugging; by default they are deleted then
	// (docs/operations.md, "Turn-log lifecycle").
	KeepTurnLogs bool `json:"keep_turn_logs,omitempty"`
	// Online makes the job a stream of batches for a trainer (online.go).
	Online *Online `json:"online,omitempty"`
}

// EnvChoice is one env of a job's mixture.
type EnvChoice struct {
	ID string `json:"id"`
	// Weight is the env's share of tasks (default 1; 0 disables it).
	Weight  *float64       `json:"weight,omitempty"`
	Options map[string]any `json:"options,omitempty"`
}

func (e EnvChoice) weight() float64 {
	if e.Weight == nil {
		return 1
	}
	return *e.Weight
}

// EpisodeLimits bound one episode so a hung one cannot hold a shard all night.
type EpisodeLimits struct {
	Timeout     Duration `json:"timeout,omitempty"`
	MaxAttempts int      `json:"max_attempts,omitempty"`
	// HeartbeatTimeout is how long a turn's activity may go silent before
	// it is retried on another worker: how soon a dead worker's turns
	// resume (unset: DefaultHeartbeatTimeout). MaxFailedFraction is the
	// share of failed episodes above which `submit` exits non-zero (unset:
	// DefaultMaxFailedFraction; a job whose every episode failed always
	// does). Both default where they are used, not in WithDefaults, so the
	// hash of a spec written before they existed does not change.
	HeartbeatTimeout  Duration `json:"heartbeat_timeout,omitempty"`
	MaxFailedFraction *float64 `json:"max_failed_fraction,omitempty"`
	// Activities is how an endpoint episode's turns meet Temporal:
	// ActivitiesEpisode (unset: the default for offline jobs) plays many
	// turns in one PlayTurns activity; ActivitiesTurn runs a Generate
	// activity and an Act local activity per turn, as online jobs always
	// do. docs/operations.md says when each is worth it.
	Activities string `json:"activities,omitempty"`
}

// Values of EpisodeLimits.Activities.
const (
	ActivitiesEpisode = "episode"
	ActivitiesTurn    = "turn"
)

// PerTurn reports whether an endpoint episode runs an activity per turn.
func (s JobSpec) PerTurn() bool {
	return s.Online != nil || s.Episode.Activities == ActivitiesTurn
}

// Defaults of EpisodeLimits' optional fields.
const (
	DefaultHeartbeatTimeout  = Duration(10 * time.Second)
	DefaultMaxFailedFraction = 0.1
)

// Heartbeat is HeartbeatTimeout or its default.
func (l EpisodeLimits) Heartbeat() time.Duration {
	return time.Duration(cmp.Or(l.HeartbeatTimeout, DefaultHeartbeatTimeout))
}

// FailedFractionLimit is MaxFailedFraction or its default.
func (l EpisodeLimits) FailedFractionLimit() float64 {
	if l.MaxFailedFraction == nil {
		return DefaultMaxFailedFraction
	}
	return *l.MaxFailedFraction
}

func (l EpisodeLimits) validate(add func(path, format string, args ...any)) {
	if h := time.Duration(l.HeartbeatTimeout); h != 0 && (h < time.Second || h > time.Hour) {
		add("episode.heartbeat_timeout", "%v: want 1s to 1h (Generate heartbeats every ~2 s; 10s is the default)", h)
	}
	if f := l.MaxFailedFraction; f != nil && !(*f >= 0 && *f <= 1) {
		add("episode.max_failed_fraction", "%v: want 0 ≤ max_failed_fraction ≤ 1", *f)
	}
	switch l.Activities {
	case "", ActivitiesEpisode, ActivitiesTurn:
	default:
		add("episode.activities", "%q: want %q (many turns in one activity, the default) or %q (an activity per turn)", l.Activities, ActivitiesEpisode, ActivitiesTurn)
	}
}

// InFlight bounds concurrency; both can be changed by signal while the job runs.
type InFlight struct {
	Batches  int `json:"batches,omitempty"`
	Episodes int `json:"episodes,omitempty"`
}

// Policy kinds.
const (
	PolicyOpenAI = "openai"
	PolicyRandom = "random"
	PolicyOracle = "oracle"
)

// Policy says where actions come from.
type Policy struct {
	Kind   string        `json:"kind"`
	OpenAI *OpenAIPolicy `json:"openai,omitempty"`
}

// OpenAIPolicy is an OpenAI-compatible endpoint (vLLM, SGLang, OpenAI).
type OpenAIPolicy struct {
	// Endpoints are base URLs ending in /v1; episodes and groups are routed
	// across them with affinity so prefix caches are reused.
	Endpoints []string `json:"endpoints"`
	Model     string   `json:"model"`
	// APIKeyEnv names the environment variable holding the API key on the
	// worker. The key itself never appears in a spec, a history or a log.
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// APIKey exists only to refuse keys written into specs.
	APIKey   string   `json:"api_key,omitempty"`
	Sampling Sampling `json:"sampling"`
	// ExtraBody is merged into every request body (vLLM's return_token_ids,
	// chat_template_kwargs, top_k, min_p, …).
	ExtraBody      map[string]any `json:"extra_body,omitempty"`
	RequestTimeout Duration       `json:"request_timeout,omitempty"`
	// Concurrency bounds requests in flight per worker.
	Concurrency int `json:"concurrency,omitempty"`
	// EndpointConcurrency is how many requests one endpoint replica serves
	// at once (vLLM's --max-num-seqs). When set, unset in_flight and
	// concurrency are sized from endpoints × EndpointConcurrency, and
	// in_flight limits below it are refused (sizing.go).
	EndpointConcurrency int `json:"endpoint_concurrency,omitempty"`
	// PolicyVersion labels the weights that produced the data (a column).
	PolicyVersion string `json:"policy_version,omitempty"`
	// API is chat (default: /v1/chat/completions with the wrapper's
	// messages) or completions (/v1/completions with a prompt built by
	// Template or TemplateText from the wrapper's text).
	API string `json:"api,omitempty"`
	// Template names a prompt template (GEM's qwen3_game, qwen3_general,
	// no, code, …; internal/prompt) for api: completions. TemplateText is a
	// user template instead (Go text/template; `submit` inlines a
	// template_file into it), so workers need no file.
	Template     string `json:"template,omitempty"`
	TemplateText string `json:"template_text,omitempty"`
	// TemplateFile is a user template's path (relative to the spec file);
	// `submit` reads it into TemplateText and clears it.
	TemplateFile string `json:"template_file,omitempty"`
	// SystemPrompt, for api: chat, is a system message before the first
	// observation.
	SystemPrompt string `json:"system_prompt,omitempty"`
	// Tokens is "" (token ids as the server returns them, if asked) or
	// exact (token-in/token-out: prompts are sent as token ids, responses
	// appended as served, only new text tokenised; vLLM and SGLang).
	Tokens string `json:"tokens,omitempty"`
}

// Policy APIs and token modes.
const (
	APIChat        = "chat"
	APICompletions = "completions"
	TokensExact    = "exact"
)

// Sampling parameters of the chat completions request.
type Sampling struct {
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Stop        []string `json:"stop,omitempty"`
	Logprobs    bool     `json:"logprobs,omitempty"`
}

// Duration is a time.Duration written as "90s", "30m", "1h30m".
type Duration time.Duration

func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("want a duration such as 90s, 30m or 1h30m, got %q", b)
	}
	*d = Duration(v)
	return nil
}

// Defaults applied by WithDefaults.
const (
	DefaultBatchSize        = 256
	DefaultEpisodeTimeout   = Duration(30 * time.Minute)
	DefaultMaxAttempts      = 3
	DefaultRequestTimeout   = Duration(10 * time.Minute)
	DefaultConcurrency      = 64
	DefaultOutput           = "./out"
	DefaultBatchesInFlight  = 2
	DefaultEpisodesInFlight = 256
	DefaultWrapper          = "chat"
	DefaultPythonTimeout    = Duration(10 * time.Second)
	DefaultSearchTimeout    = Duration(5 * time.Second)
)

// The default per-request timeout follows max_tokens (see RequestTimeoutFor).
const (
	RequestTimeoutBase     = Duration(30 * time.Second)       // queueing and prefill
	RequestTimeoutPerToken = Duration(100 * time.Millisecond) // a slow decode: 10 tokens/s
	MinRequestTimeout      = Duration(time.Minute)
)

// RequestTimeoutFor is the default request_timeout of a policy whose
// sampling.max_tokens is maxTokens: RequestTimeoutBase + maxTokens ×
// RequestTimeoutPerToken, at least MinRequestTimeout and at most
// DefaultRequestTimeout, which is also the timeout when max_tokens is unset
// (the server may then generate up to the context length).
func RequestTimeoutFor(maxTokens int) Duration {
	if maxTokens <= 0 || maxTokens >= int((DefaultRequestTimeout-RequestTimeoutBase)/RequestTimeoutPerToken) {
		return DefaultRequestTimeout
	}
	d := RequestTimeoutBase + Duration(maxTokens)*RequestTimeoutPerToken
	return min(max(d, MinRequestTimeout), DefaultRequestTimeout)
}

// ParseJobSpec decodes a YAML or JSON spec strictly: unknown keys, wrong
// types and duplicate keys are errors that point at the line. It does not
// apply defaults or validate; see WithDefaults and Validate.
func ParseJobSpec(data []byte) (JobSpec, error) {
	if err := checkYAML(data); err != nil {
		return JobSpec{}, fmt.Errorf("job spec: %w", err)
	}
	var s JobSpec
	if err := yaml.UnmarshalWithOptions(data, &s, yaml.DisallowUnknownField(), yaml.UseJSONUnmarshaler()); err != nil {
		return JobSpec{}, fmt.Errorf("job spec:\n%s", yaml.FormatError(err, false, true))
	}
	return s, nil
}

// WithDefaults returns s with every unset field at its default. It is the
// one place defaults live.
func (s JobSpec) WithDefaults() JobSpec {
	if s.SamplesPerTask == 0 {
		s.SamplesPerTask = 1
	}
	if s.BatchSize == 0 && s.SamplesPerTask > 0 {
		g := s.SamplesPerTask
		s.BatchSize = max(g, DefaultBatchSize/g*g)
		if total := s.Tasks * g; total > 0 && total < s.BatchSize {
			s.BatchSize = total
		}
	}
	for i := range s.Envs {
		if s.Envs[i].Weight == nil {
			one := 1.0
			s.Envs[i].Weight = &one
		}
	}
	if s.Gamma == nil {
		one := 1.0
		s.Gamma = &one
	}
	if s.Wrapper == "" {
		s.Wrapper = DefaultWrapper
	}
	if s.Episode.Timeout == 0 {
		s.Episode.Timeout = DefaultEpisodeTimeout
	}
	if s.Episode.MaxAttempts == 0 {
		s.Episode.MaxAttempts = DefaultMaxAttempts
	}
	if o := s.Policy.OpenAI; o != nil {
		c := *o
		if c.RequestTimeout == 0 {
			c.RequestTimeout = RequestTimeoutFor(c.Sampling.MaxTokens)
		}
		if c.Concurrency == 0 {
			c.Concurrency = DefaultConcurrency
			if t := c.EndpointCapacity(); t > 0 {
				// One worker may carry it all; the job's cap bounds the total.
				c.Concurrency = min(t, MaxConcurrency)
			}
		}
		s.Policy.OpenAI = &c
	}
	if s.Tools != nil {
		t := *s.Tools
		t.withDefaults()
		s.Tools = &t
	}
	if s.Output == "" {
		s.Output = DefaultOutput
	}
	if t := s.Policy.OpenAI.EndpointCapacity(); t > 0 {
		s.sizeInFlight(t)
	}
	if s.InFlight.Batches == 0 {
		s.InFlight.Batches = DefaultBatchesInFlight
	}
	if s.InFlight.Episodes == 0 {
		s.InFlight.Episodes = DefaultEpisodesInFlight
	}
	if s.Online != nil {
		o := *s.Online
		o.withDefaults()
		s.Online = &o
	}
	if s.Job == "" {
		s.Job = "job-" + s.Hash()[:12]
	}
	return s
}

// Episodes is the number of episodes the job produces (an online job:
// online.steps full batches; 0 when it runs until cancelled).
func (s JobSpec) Episodes() int {
	if s.Online != nil {
		return s.Online.Steps * s.BatchSize
	}
	return s.Tasks * s.SamplesPerTask
}

// Batches is the number of batches (shards); the last may be short. An
// online job has online.steps batches, 0 when it runs until cancelled.
func (s JobSpec) Batches() int {
	if s.Online != nil {
		return s.Online.Steps
	}
	if s.BatchSize <= 0 {
		return 0
	}
	return (s.Episodes() + s.BatchSize - 1) / s.BatchSize
}

// OpenEnded reports whether the job runs until cancelled (online, no steps).
func (s JobSpec) OpenEnded() bool { return s.Online != nil && s.Online.Steps == 0 }

// HasBatch reports whether b is one of the job's batches.
func (s JobSpec) HasBatch(b int) bool { return b >= 0 && (s.OpenEnded() || b < s.Batches()) }

// Hash identifies the spec's content (without its job id), so a different
// spec submitted under an existing job id is refused.
func (s JobSpec) Hash() string {
	s.Job = ""
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// FieldError is one problem with one field of a spec.
type FieldError struct {
	Path    string // e.g. "policy.openai.endpoints[1]"
	Problem string
}

func (e FieldError) Error() string { return e.Path + ": " + e.Problem }

// SpecError lists every problem found in a spec.
type SpecError []FieldError

func (e SpecError) Error() string {
	lines := make([]string, len(e))
	for i, fe := range e {
		lines[i] = "  " + fe.Error()
	}
	return fmt.Sprintf("invalid job spec (%d problem(s)):\n%s", len(e), strings.Join(lines, "\n"))
}

// ValidJobID reports whether id can be a job id: 1-63 of a-z 0-9 . _ -,
// starting with a letter or digit (it names a folder and workflow ids).
func ValidJobID(id string) bool { return jobIDPattern.MatchString(id) }

var (
	jobIDPattern  = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)
	envVarPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// MaxBatchSize bounds one shard's episodes so a batch's refs stay far
	// below Temporal's payload limit.
	MaxBatchSize = 4096
)

// Validate checks a defaulted spec's structure and returns a SpecError
// naming every bad field. Env ids and options are checked against the
// registry by the caller (schema knows no envs).
func (s JobSpec) Validate() error {
	var errs SpecError
	add := func(path, format string, args ...any) {
		errs = append(errs, FieldError{path, fmt.Sprintf(format, args...)})
	}
	if !jobIDPattern.MatchString(s.Job) {
		add("job", "%q: want 1-63 characters of a-z, 0-9, '.', '_', '-', starting with a letter or digit", s.Job)
	}
	if len(s.Envs) == 0 {
		add("envs", "at least one env is required, e.g. envs: [{id: game:GuessTheNumber-v0-easy}]")
	}
	var total float64
	for i, e := range s.Envs {
		p := fmt.Sprintf("envs[%d]", i)
		if e.ID == "" {
			add(p+".id", "required (list the ids with `quarry envs`)")
		}
		w := e.weight()
		if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
			add(p+".weight", "%v: want a finite weight ≥ 0", w)
		}
		total += w
	}
	if len(s.Envs) > 0 && !(total > 0) {
		add("envs", "the weights sum to 0; give at least one env a positive weight")
	}
	if s.Tasks < 1 {
		add("tasks", "%d: want at least 1", s.Tasks)
	}
	if s.SamplesPerTask < 1 {
		add("samples_per_task", "%d: want at least 1", s.SamplesPerTask)
	}
	switch {
	case s.BatchSize < 1 || s.BatchSize > MaxBatchSize:
		add("batch_size", "%d: want 1 to %d", s.BatchSize, MaxBatchSize)
	case s.SamplesPerTask >= 1 && s.BatchSize%s.SamplesPerTask != 0:
		add("batch_size", "%d is not a multiple of samples_per_task (%d): a group must not straddle two batches", s.BatchSize, s.SamplesPerTask)
	}
	if s.MaxTurns < 0 {
		add("max_turns", "%d: want 0 (the env's limit) or more", s.MaxTurns)
	}
	if s.Gamma != nil && !(*s.Gamma >= 0 && *s.Gamma <= 1) {
		add("gamma", "%v: want 0 ≤ gamma ≤ 1", *s.Gamma)
	}
	if s.MaxHistory < 0 {
		add("max_history", "%d: want 0 (all) or more", s.MaxHistory)
	}
	if s.Episode.Timeout <= 0 {
		add("episode.timeout", "want a positive duration such as 30m")
	}
	if s.Episode.MaxAttempts < 1 || s.Episode.MaxAttempts > 100 {
		add("episode.max_attempts", "%d: want 1 to 100", s.Episode.MaxAttempts)
	}
	s.Episode.validate(add)
	s.Policy.validate(add)
	if o := s.Policy.OpenAI; o != nil && o.Tokens == TokensExact && s.Tools != nil && s.Tools.Calling == CallingNative {
		add("tools.calling", "native tool calls need chat completions; tokens: exact sends token ids to /v1/completions: use text tags")
	}
	if o := s.Policy.OpenAI; o != nil && o.API == APICompletions {
		if s.Wrapper == DefaultWrapper {
			add("wrapper", "chat renders messages; api: completions needs a text wrapper (concat, concat_with_action, last) for its template")
		}
		if s.Tools != nil && s.Tools.Calling == CallingNative {
			add("tools.calling", "native tool calls need api: chat (a completion has no tools parameter); use text tags")
		}
	}
	s.validateOnline(add)
	if s.Tools != nil {
		s.Tools.validate(s.Policy.Kind, s.Wrapper, add)
	}
	if err := checkOutput(s.Output); err != nil {
		add("output", "%v", err)
	}
	if s.InFlight.Batches < 1 {
		add("in_flight.batches", "%d: want at least 1", s.InFlight.Batches)
	}
	if s.InFlight.Episodes < 1 {
		add("in_flight.episodes", "%d: want at least 1", s.InFlight.Episodes)
	}
	s.validateSizing(add)
	// Input limits (limits.go, secrets.go; docs/limits.md).
	s.checkBounds(add)
	s.checkSecrets(add)
	if len(errs) == 0 {
		s.checkSize(add) // its arithmetic assumes the rest is valid
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func (p Policy) validate(add func(path, format string, args ...any)) {
	kinds := []string{PolicyOpenAI, PolicyRandom, PolicyOracle}
	if !slices.Contains(kinds, p.Kind) {
		add("policy.kind", "%q: want one of %s", p.Kind, strings.Join(kinds, ", "))
		return
	}
	if p.Kind != PolicyOpenAI {
		if p.OpenAI != nil {
			add("policy.openai", "only allowed with kind: openai")
		}
		return
	}
	o := p.OpenAI
	if o == nil {
		add("policy.openai", "required with kind: openai (endpoints and model)")
		return
	}
	if len(o.Endpoints) == 0 {
		add("policy.openai.endpoints", "at least one base URL is required, e.g. http://127.0.0.1:8000/v1")
	}
	for i, e := range o.Endpoints {
		u, err := url.Parse(e)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add(fmt.Sprintf("policy.openai.endpoints[%d]", i), "%q: want an http(s) base URL such as http://127.0.0.1:8000/v1", e)
		} // credentials in it: checkSecrets

	}
	if o.Model == "" {
		add("policy.openai.model", "required: the served model name (see GET /v1/models)")
	}
	if o.APIKey != "" {
		add("policy.openai.api_key", "secrets never go in a spec (they would be stored in workflow history); export the key on the workers and set api_key_env to the variable's name")
	}
	if o.APIKeyEnv != "" && !envVarPattern.MatchString(o.APIKeyEnv) {
		add("policy.openai.api_key_env", "%q: want an environment variable name such as OPENAI_API_KEY", o.APIKeyEnv)
	}
	if t := o.Sampling.Temperature; t != nil && !(*t >= 0 && *t <= 2) {
		add("policy.openai.sampling.temperature", "%v: want 0 to 2", *t)
	}
	if t := o.Sampling.TopP; t != nil && !(*t > 0 && *t <= 1) {
		add("policy.openai.sampling.top_p", "%v: want 0 < top_p ≤ 1", *t)
	}
	if o.Sampling.MaxTokens < 0 {
		add("policy.openai.sampling.max_tokens", "%d: want 0 (server default) or more", o.Sampling.MaxTokens)
	}
	if o.RequestTimeout <= 0 {
		add("policy.openai.request_timeout", "want a positive duration such as 10m")
	}
	if o.Concurrency < 1 {
		add("policy.openai.concurrency", "%d: want at least 1", o.Concurrency)
	}
	for _, k := range []string{"model", "messages", "stream", "prompt"} {
		if _, ok := o.ExtraBody[k]; ok {
			add("policy.openai.extra_body."+k, "set by Quarry; remove it from extra_body")
		}
	}
	o.validateAPI(add)
}

// validateAPI checks the prompt settings: api, template, system_prompt, tokens.
func (o *OpenAIPolicy) validateAPI(add func(path, format string, args ...any)) {
	switch o.API {
	case "", APIChat:
		if o.Template != "" || o.TemplateText != "" || o.TemplateFile != "" {
			add("policy.openai.template", "only used with api: completions (chat prompts are the wrapper's messages; see system_prompt)")
		}
	case APICompletions:
		switch {
		case o.TemplateFile != "":
			add("policy.openai.template_file", "not read: submit reads the file into the spec (template_text); a spec sent another way must carry template_text")
		case o.SystemPrompt != "":
			add("policy.openai.system_prompt", "only used with api: chat (a completions prompt is the template's text)")
		case o.Template == "" && o.TemplateText == "":
			add("policy.openai.template", "required with api: completions: a template name (qwen3_game, qwen3_general, no, code, …) or template_file")
		case o.Template != "" && o.TemplateText != "":
			add("policy.openai.template", "give template or template_file, not both")
		}
	default:
		add("policy.openai.api", "%q: want chat or completions", o.API)
	}
	switch o.Tokens {
	case "":
	case TokensExact:
	default:
		add("policy.openai.tokens", "%q: want exact, or leave it unset", o.Tokens)
	}
}

// checkOutput accepts a folder path, file:///abs/path or s3://bucket[/prefix].
func checkOutput(out string) error {
	if out == "" {
		return errors.New("required: a folder or s3://bucket/prefix")
	}
	if !strings.Contains(out, "://") {
		return nil
	}
	u, err := url.Parse(out)
	if err != nil {
		return fmt.Errorf("%q: %v", out, err)
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" || !strings.HasPrefix(u.Path, "/") {
			return fmt.Errorf("%q: want file:///absolute/path", out)
		}
	case "s3":
		if u.Host == "" {
			return fmt.Errorf("%q: want s3://bucket/prefix", out)
		}
	default:
		return fmt.Errorf("%q: want a folder, file:///path or s3://bucket/prefix", out)
	}
	return nil
}
