// Package inference is Quarry's client for OpenAI-compatible chat
// endpoints (vLLM, SGLang, OpenAI): a Pool over one or more replicas of one
// model, built on github.com/sashabaranov/go-openai. Besides chat
// completions it sends vLLM-style completions (text or token-id prompts,
// Request.Prompt/PromptIDs) and tokenises through the server's /tokenize
// (Pool.Tokenize), with the same routing, retries and validation.
//
// A Pool routes each request by an affinity key (an episode's or a group's
// id) with bounded-load consistent hashing, so a replica's prefix cache is
// reused across turns and samples; limits requests in flight; retries
// 429s, 5xx, timeouts and dropped connections with jittered exponential
// backoff that honours Retry-After; validates every answer where it
// arrives (choices, token ids when asked for, logprobs against the tokens)
// and retries a bad one a bounded number of times; and classifies
// permanent failures (ErrContextLength, ErrAuth, ErrModelNotFound,
// ErrBadRequest, ErrBadAnswer) so callers branch with errors.Is. The spec's extra_body (vLLM's return_token_ids,
// chat_template_kwargs, top_k, …) is merged into every request body, and
// the token ids vLLM returns (prompt_token_ids, choices[].token_ids) are
// read back from the raw response, by the client's own HTTP transport.
//
// The API key is read from the environment variable the spec names, on
// the worker; it is never logged and never part of an error.
package inference

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	// cenkalti/backoff is the well-kept jittered exponential backoff the
	// Temporal SDK and server already bring into this module; its
	// ExponentialBackOff supplies the randomized delays, while the retry
	// loop stays ours because it must honour Retry-After to the
	// millisecond, bound attempts and a total deadline together, release
	// the concurrency slot between attempts and steer the next attempt to
	// another replica.
	"github.com/cenkalti/backoff/v5"
	openai "github.com/sashabaranov/go-openai"

	"github.com/quarry-rl/quarry/schema"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Parts, when set, are the message's content instead of Content:
	// OpenAI's multimodal content parts (text and images), sent as the
	// list "content" is on the wire. (This struct's own JSON, the one
	// Temporal payloads carry, keeps them under "parts".)
	Parts []ContentPart `json:"parts,omitempty"`
	// ToolCalls are an assistant message's function calls (native tool
	// calling); ToolCallID links a "tool" message to the call it answers.
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ContentPart is one part of a multimodal message: Type "text" with Text,
// or "image_url" with ImageURL (a URL, typically a base64 data URL
// data:image/png;base64,…, which vLLM decodes without fetching anything).
type ContentPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

// Content part types.
const (
	PartText  = "text"
	PartImage = "image_url"
)

// wireMessages renders messages as the OpenAI wire shape: content a string,
// or the list of parts ({"type":"image_url","image_url":{"url":…}}).
func wireMessages(msgs []Message) []any {
	type imageURL struct {
		URL string `json:"url"`
	}
	type part struct {
		Type     string    `json:"type"`
		Text     string    `json:"text,omitempty"`
		ImageURL *imageURL `json:"image_url,omitempty"`
	}
	type wire struct {
		Role       string     `json:"role"`
		Content    any        `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	out := make([]any, len(msgs))
	for i, m := range msgs {
		w := wire{Role: m.Role, Content: m.Content, ToolCalls: m.ToolCalls, ToolCallID: m.ToolCallID}
		if m.Parts != nil {
			parts := make([]part, len(m.Parts))
			for j, p := range m.Parts {
				parts[j] = part{Type: p.Type, Text: p.Text}
				if p.Type == PartImage {
					parts[j].ImageURL = &imageURL{URL: p.ImageURL}
				}
			}
			w.Content = parts
		}
		out[i] = w
	}
	return out
}

// ToolCall is one function call, in the OpenAI wire shape.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"
	Function FunctionCall `json:"function"`
}

// FunctionCall names a function and its JSON-encoded arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Function is a function tool offered to the model.
type Function struct {
	Name        string
	Description string
	Parameters  json.RawMessage // JSON Schema object
}

// Request is one generation: a chat completion (Messages) or a completion
// (Prompt or PromptIDs, sent to /v1/completions); exactly one of the three.
type Request struct {
	Messages []Message
	// Prompt is a completion's prompt text; PromptIDs a completion's prompt
	// as token ids (token-in/token-out: vLLM takes a list of ints), which
	// also asks for return_token_ids and requires the answer's
	// prompt_token_ids, when served, to equal them.
	Prompt    string
	PromptIDs []int32
	// Model replaces the pool's model name when set (an online job's
	// trainer may serve new weights under a new name).
	Model string
	// Sampling replaces the pool's sampling parameters when set.
	Sampling *schema.Sampling
	// ExtraBody is merged over the pool's extra_body (and both over the
	// sampling parameters) into the request body.
	ExtraBody map[string]any
	// Tools are offered as function tools (native tool calling).
	Tools []Function
	// Affinity routes the request: requests with the same key go to the
	// same replica while its load allows. Use the group's id so the
	// samples of a group, and every turn of each, share a prefix cache;
	// empty routes to the least loaded replica.
	Affinity string
	// Heartbeat, when set, is called every heartbeat interval (see
	// WithHeartbeatInterval) from another goroutine until Generate returns,
	// and once more right after each failed attempt, so a Temporal
	// activity can record heartbeats during a long generation, including
	// its retries, and checkpoint the faults seen so far.
	Heartbeat func(Progress)
	// HeartbeatEvery, when positive, is this request's heartbeat interval
	// instead of the pool's: a caller that knows its heartbeat timeout
	// beats a few times per timeout and no more, so a generation shorter
	// than the interval records no heartbeat at all.
	HeartbeatEvery time.Duration
}

// Progress is what a heartbeat reports.
type Progress struct {
	Attempt  int    // 1-based attempt in flight or about to start
	Endpoint string // endpoint of that attempt ("" before the first)
	Elapsed  time.Duration
	// Faults are the classes (Fault constants) of the attempts that
	// failed so far, in order.
	Faults []string
}

// Result is one generation, as served: a chat completion's or a
// completion's (a completion has no Reasoning or ToolCalls).
type Result struct {
	Text      string
	Reasoning string // reasoning_content / reasoning, when the server parses it out
	// ToolCalls the model made (native tool calling), as the server parsed them.
	ToolCalls []ToolCall
	// FinishReason is the server's: stop, length, …
	FinishReason string
	// PromptTokenIDs and ResponseTokenIDs are the ids the server returned
	// (vLLM ≥ 0.10.2 with return_token_ids); nil when it returned none.
	PromptTokenIDs   []int32
	ResponseTokenIDs []int32
	// Logprobs of the response tokens, when requested; nil otherwise.
	Logprobs         []float32
	PromptTokens     int // usage.prompt_tokens
	CompletionTokens int // usage.completion_tokens
	ResponseID       string
	Model            string
	Endpoint         string
	// SamplingParams is the JSON object of every field sent besides model,
	// messages, prompt and stream (sampling parameters and extra_body),
	// keys sorted.
	SamplingParams string
	// Latency of the successful attempt; Attempts counts all attempts.
	Latency  time.Duration
	Attempts int
	// Faults are the classes (Fault constants) of the failed attempts
	// before the successful one, in order: len(Faults) == Attempts-1.
	Faults []string
}

// TokenSource is schema.TokenSourceServed when the server returned the
// response's token ids, else schema.TokenSourceNone.
func (r *Result) TokenSource() string {
	if r.ResponseTokenIDs != nil {
		return schema.TokenSourceServed
	}
	return schema.TokenSourceNone
}

type options struct {
	logger         *slog.Logger
	maxAttempts    int
	maxElapsed     time.Duration
	initialBackoff time.Duration
	maxBackoff     time.Duration
	epsilon        float64
	heartbeat      time.Duration
	ejection       time.Duration
	transport      http.RoundTripper
	badAnswers     int
	preflight      time.Duration
	probeCaps      bool
}

// Option configures a Pool.
type Option func(*options)

// Defaults of the options.
const (
	DefaultMaxAttempts       = 6
	DefaultInitialBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff        = 30 * time.Second
	DefaultLoadFactor        = 0.25
	DefaultHeartbeatInterval = time.Second
	DefaultEjection          = 10 * time.Second
	// DefaultBadAnswers bad answers in a row end a Generate call with
	// ErrBadAnswer.
	DefaultBadAnswers = 3
	// DefaultPreflightTimeout bounds Preflight's work on one endpoint,
	// retries included: a hung endpoint fails the preflight this soon.
	DefaultPreflightTimeout = 30 * time.Second
)

// WithLogger logs retries and preflight probes to l, at debug level;
// failures are returned, not logged.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithRetry bounds one Generate call: at most attempts attempts, and no
// attempt or wait past total after the first attempt started (default:
// DefaultMaxAttempts, and three times the spec's request timeout). Waiting
// for the first free slot is bounded by the caller's context only. Keep
// total below the Temporal activity's start-to-close timeout.
func WithRetry(attempts int, total time.Duration) Option {
	return func(o *options) { o.maxAttempts, o.maxElapsed = attempts, total }
}

// WithBackoff sets the first and the largest delay between attempts; each
// delay is drawn from ±50% around an interval that doubles.
func WithBackoff(initial, maxDelay time.Duration) Option {
	return func(o *options) { o.initialBackoff, o.maxBackoff = initial, maxDelay }
}

// WithLoadFactor sets ε of bounded-load routing: a replica with more than
// (1+ε)× the average load in flight passes keys on (default 0.25). Small ε
// balances load; large ε keeps affinity.
func WithLoadFactor(epsilon float64) Option { return func(o *options) { o.epsilon = epsilon } }

// WithHeartbeatInterval sets how often Request.Heartbeat is called
// (default DefaultHeartbeatInterval, well inside a 10 s heartbeat timeout;
// the Temporal SDK throttles what it sends to the server).
func WithHeartbeatInterval(d time.Duration) Option { return func(o *options) { o.heartbeat = d } }

// WithBadAnswers sets how many bad answers in a row (see ErrBadAnswer)
// end a Generate call (default DefaultBadAnswers). Each counts as an
// attempt of WithRetry's bound too.
func WithBadAnswers(n int) Option { return func(o *options) { o.badAnswers = n } }

// WithPreflightTimeout bounds Preflight's work on each endpoint, retries
// of transient faults included (default DefaultPreflightTimeout).
func WithPreflightTimeout(d time.Duration) Option { return func(o *options) { o.preflight = d } }

// WithEjection sets how long an endpoint that refused a connection is
// left out of routing while others are usable (0: never).
func WithEjection(d time.Duration) Option { return func(o *options) { o.ejection = d } }

// WithTransport sets the HTTP transport under the pool's own (default: a
// clone of http.DefaultTransport keeping enough idle connections for the
// concurrency limit).
func WithTransport(rt http.RoundTripper) Option { return func(o *options) { o.transport = rt } }

// Pool sends chat completions to the replicas of one model.
type Pool struct {
	model    string
	key      string
	sampling schema.Sampling
	// extraBody is the spec's extra_body, encoded once; base is the
	// fields merged into a request that sets no sampling or extra_body of
	// its own: the spec's sampling fields go-openai cannot send faithfully
	// (temperature and top_p are float32 with omitempty there, so 0 would
	// vanish and 0.7 would be rounded), then extra_body over them.
	extraBody map[string]json.RawMessage
	base      map[string]json.RawMessage
	timeout   time.Duration
	sem       chan struct{}
	router    *router
	http      *http.Client
	o         options
	log       *slog.Logger
	// spec is the policy the pool serves: what its preflight requires
	// (api, tokens) and its extra_body (for Tokenize's chat template).
	spec schema.OpenAIPolicy
}

// NewPool builds a pool from a validated spec. The API key is read from
// the environment variable spec.APIKeyEnv names; an unset or empty
// variable is an ErrAuth error naming the variable.
func NewPool(spec schema.OpenAIPolicy, opts ...Option) (*Pool, error) {
	o := options{
		maxAttempts:    DefaultMaxAttempts,
		initialBackoff: DefaultInitialBackoff,
		maxBackoff:     DefaultMaxBackoff,
		epsilon:        DefaultLoadFactor,
		heartbeat:      DefaultHeartbeatInterval,
		ejection:       DefaultEjection,
		badAnswers:     DefaultBadAnswers,
		preflight:      DefaultPreflightTimeout,
	}
	for _, opt := range opts {
		opt(&o)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("inference pool: %w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
	}
	switch {
	case len(spec.Endpoints) == 0:
		return nil, bad("no endpoints")
	case spec.Model == "":
		return nil, bad("no model")
	case spec.APIKey != "":
		return nil, bad("api_key is set in the spec; name an environment variable in api_key_env instead")
	case o.maxAttempts < 1:
		return nil, bad("max attempts %d: want at least 1", o.maxAttempts)
	case o.epsilon < 0:
		return nil, bad("load factor %v: want ε ≥ 0", o.epsilon)
	case o.heartbeat <= 0:
		return nil, bad("heartbeat interval %v: want a positive duration", o.heartbeat)
	case o.badAnswers < 1:
		return nil, bad("bad answers %d: want at least 1", o.badAnswers)
	case o.preflight <= 0:
		return nil, bad("preflight timeout %v: want a positive duration", o.preflight)
	}
	p := &Pool{model: spec.Model, sampling: spec.Sampling, o: o, log: o.logger, spec: spec}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if spec.APIKeyEnv != "" {
		key, ok := os.LookupEnv(spec.APIKeyEnv)
		if !ok || key == "" {
			return nil, &Error{Kind: ErrAuth, Endpoint: strings.Join(spec.Endpoints, ","),
				Message: fmt.Sprintf("environment variable %s (api_key_env) is not set on this worker", spec.APIKeyEnv)}
		}
		p.key = key
	}
	p.timeout = time.Duration(spec.RequestTimeout)
	if p.timeout <= 0 {
		p.timeout = time.Duration(schema.RequestTimeoutFor(spec.Sampling.MaxTokens))
	}
	if p.o.maxElapsed <= 0 {
		p.o.maxElapsed = 3 * p.timeout
	}
	concurrency := spec.Concurrency
	if concurrency <= 0 {
		concurrency = schema.DefaultConcurrency
	}
	p.sem = make(chan struct{}, concurrency)
	var err error
	if p.extraBody, err = encodeExtra(spec.ExtraBody); err != nil {
		return nil, bad("extra_body: %v", err)
	}
	p.base = fields(spec.Sampling, p.extraBody, nil)

	base := o.transport
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConns = 0 // no global cap
		t.MaxIdleConnsPerHost = concurrency
		base = t
	}
	p.http = &http.Client{Transport: &transport{base: base}}
	p.router = &router{epsilon: o.epsilon}
	for i, u := range spec.Endpoints {
		cfg := openai.DefaultConfig(p.key)
		cfg.BaseURL = strings.TrimRight(u, "/")
		cfg.HTTPClient = p.http
		p.router.eps = append(p.router.eps, &endpoint{
			url: cfg.BaseURL, index: i, seed: mix(fnv64(cfg.BaseURL)), client: openai.NewClientWithConfig(cfg),
		})
	}
	return p, nil
}

// String describes the pool without its API key (fmt and slog use it).
func (p *Pool) String() string {
	return fmt.Sprintf("inference.Pool{model: %q, endpoints: %q}", p.model, p.Endpoints())
}

// GoString is String, so %#v does not print the key either.
func (p *Pool) GoString() string { return p.String() }

// Close releases idle connections.
func (p *Pool) Close() { p.http.CloseIdleConnections() }

// Endpoints lists the pool's base URLs in spec order.
func (p *Pool) Endpoints() []string {
	out := make([]string, len(p.router.eps))
	for i, ep := range p.router.eps {
		out[i] = ep.url
	}
	return out
}

// encodeExtra encodes extra_body, refusing the fields Quarry sets and
// more than one choice.
func encodeExtra(extra map[string]any) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(extra))
	for k, v := range extra {
		if slices.Contains(reserved, k) {
			return nil, fmt.Errorf("%q is set by Quarry", k)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", k, err)
		}
		if k == "n" && string(b) != "1" {
			return nil, fmt.Errorf("n = %s: one choice per request (the samples of a group are separate episodes)", b)
		}
		out[k] = b
	}
	return out, nil
}

// fields merges, later winning: the sampling fields go-openai would drop
// or round (temperature, top_p), then each extra.
func fields(s schema.Sampling, extras ...map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage)
	if s.Temperature != nil {
		out["temperature"], _ = json.Marshal(*s.Temperature)
	}
	if s.TopP != nil {
		out["top_p"], _ = json.Marshal(*s.TopP)
	}
	for _, e := range extras {
		for k, v := range e {
			out[k] = v
		}
	}
	return out
}

// prepare builds the go-openai request and the fields to merge over it.
func (p *Pool) prepare(req Request) (openai.ChatCompletionRequest, map[string]json.RawMessage, error) {
	if len(req.Messages) == 0 {
		return openai.ChatCompletionRequest{}, nil, fmt.Errorf("inference: %w: no messages", ErrBadRequest)
	}
	s, extra := p.sampling, p.base
	if req.Sampling != nil || len(req.ExtraBody) > 0 {
		if req.Sampling != nil {
			s = *req.Sampling
		}
		reqExtra, err := encodeExtra(req.ExtraBody)
		if err != nil {
			return openai.ChatCompletionRequest{}, nil, fmt.Errorf("inference: %w: extra_body: %v", ErrBadRequest, err)
		}
		extra = fields(s, p.extraBody, reqExtra)
	}
	msgs := make([]openai.ChatCompletionMessage, len(req.Messages))
	emptyContent := false
	for i, m := range req.Messages {
		msgs[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, openai.ToolCall{ID: tc.ID, Type: openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
		}
		if m.Parts != nil {
			if err := checkParts(i, m.Parts); err != nil {
				return openai.ChatCompletionRequest{}, nil, err
			}
			msgs[i].Content = ""
			msgs[i].MultiContent = multiContent(m.Parts)
		}
		emptyContent = emptyContent || len(m.Parts) == 0 && m.Content == ""
	}
	var tools []openai.Tool
	for _, f := range req.Tools {
		tools = append(tools, openai.Tool{Type: openai.ToolTypeFunction, Function: &openai.FunctionDefinition{
			Name: f.Name, Description: f.Description, Parameters: f.Parameters,
		}})
	}
	if emptyContent {
		// go-openai omits an empty content; the model must see the
		// message as it was (an empty action is still a turn).
		b, err := json.Marshal(wireMessages(req.Messages))
		if err != nil {
			return openai.ChatCompletionRequest{}, nil, fmt.Errorf("inference: encode messages: %w", err)
		}
		extra = fields(schema.Sampling{}, extra, map[string]json.RawMessage{"messages": b})
	}
	return openai.ChatCompletionRequest{
		Model:     cmp.Or(req.Model, p.model),
		Messages:  msgs,
		MaxTokens: s.MaxTokens,
		Stop:      s.Stop,
		LogProbs:  s.Logprobs,
		Tools:     tools,
	}, extra, nil
}

// checkParts refuses a part of unknown type, and one that is empty.
func checkParts(msg int, parts []ContentPart) error {
	for j, p := range parts {
		switch {
		case p.Type == PartText:
		case p.Type == PartImage && p.ImageURL != "":
		case p.Type == PartImage:
			return fmt.Errorf("inference: %w: messages[%d].parts[%d]: an image part without a URL", ErrBadRequest, msg, j)
		default:
			return fmt.Errorf("inference: %w: messages[%d].parts[%d]: type %q: want text or image_url", ErrBadRequest, msg, j, p.Type)
		}
	}
	return nil
}

func multiContent(parts []ContentPart) []openai.ChatMessagePart {
	out := make([]openai.ChatMessagePart, len(parts))
	for j, p := range parts {
		out[j] = openai.ChatMessagePart{Type: openai.ChatMessagePartType(p.Type), Text: p.Text}
		if p.Type == PartImage {
			out[j].ImageURL = &openai.ChatMessageImageURL{URL: p.ImageURL}
		}
	}
	return out
}

// beat is the progress a heartbeat reports.
type beat struct {
	mu       sync.Mutex
	attempt  int
	endpoint string
	faults   []string
}

func (b *beat) set(attempt int, endpoint string) {
	b.mu.Lock()
	b.attempt, b.endpoint = attempt, endpoint
	b.mu.Unlock()
}

// fault records a failed attempt's class and returns the progress to report.
func (b *beat) fault(class string, elapsed time.Duration) Progress {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.faults = append(b.faults, class)
	return Progress{Attempt: b.attempt, Endpoint: b.endpoint, Elapsed: elapsed, Faults: slices.Clone(b.faults)}
}

// beats is a request's heartbeat callback and interval (0: the pool's).
type beats struct {
	f     func(Progress)
	every time.Duration
}

func (r Request) beats() beats { return beats{f: r.Heartbeat, every: max(r.HeartbeatEvery, 0)} }

func (p *Pool) heartbeat(f func(Progress), every time.Duration, b *beat, start time.Time) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				b.mu.Lock()
				pr := Progress{Attempt: b.attempt, Endpoint: b.endpoint, Elapsed: now.Sub(start), Faults: slices.Clone(b.faults)}
				b.mu.Unlock()
				f(pr)
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// Generate sends one chat completion, retrying transient failures: 429,
// 5xx, timeouts (the spec's request_timeout per attempt), dropped
// connections and bad answers (see ErrBadAnswer). A retry after a failure
// goes to the key's next replica when there is one. Permanent failures
// return at once as an *Error of kind ErrContextLength, ErrAuth,
// ErrModelNotFound or ErrBadRequest; WithBadAnswers bad answers in a row
// as kind ErrBadAnswer; exhausted retries as the last failure's kind
// (ErrUnavailable or ErrBadAnswer); the end of ctx as ctx's error.
func (p *Pool) Generate(ctx context.Context, req Request) (Result, error) {
	c, err := p.plan(req)
	if err != nil {
		return Result{}, err
	}
	return p.run(ctx, c, req.Affinity, req.beats())
}

// call is one kind of request the retry loop makes: send makes one
// attempt at ep (its transport fills ex), decode reads the answer of a
// send that succeeded; want is what the answer must carry.
type call struct {
	send  func(ctx context.Context, ep *endpoint, ex *exchange) (decode func() (Result, error), err error)
	extra map[string]json.RawMessage
	want  wanted
	what  string // "chat completion", "completion", "tokenize": for errors
	route string // "POST /v1/completions", …
}

// plan builds the call of a Request: a chat completion (Messages) or a
// completion (Prompt or PromptIDs), exactly one of them.
func (p *Pool) plan(req Request) (call, error) {
	n := 0
	for _, set := range []bool{req.Messages != nil, req.Prompt != "", req.PromptIDs != nil} {
		if set {
			n++
		}
	}
	if n > 1 {
		return call{}, fmt.Errorf("inference: %w: give one of messages, prompt and prompt ids", ErrBadRequest)
	}
	if req.Prompt != "" || req.PromptIDs != nil {
		return p.planCompletion(req)
	}
	cr, extra, err := p.prepare(req)
	if err != nil {
		return call{}, err
	}
	send := func(ctx context.Context, ep *endpoint, ex *exchange) (func() (Result, error), error) {
		resp, err := ep.client.CreateChatCompletion(ctx, cr)
		if err != nil {
			return nil, err
		}
		return func() (Result, error) { return decodeResult(resp, ex.body) }, nil
	}
	return call{send: send, extra: extra, want: asked(&cr, extra), what: "chat completion"}, nil
}

// run makes c's attempts, retrying transient failures (see Generate).
func (p *Pool) run(ctx context.Context, c call, key string, hb beats) (Result, error) {
	start := time.Now()
	var b beat
	b.set(1, "")
	heartbeat := hb.f
	if heartbeat != nil {
		stop := p.heartbeat(heartbeat, cmp.Or(hb.every, p.o.heartbeat), &b, start)
		defer stop()
	}
	var deadline time.Time // set when the first attempt gets a slot
	bo := backoff.ExponentialBackOff{
		InitialInterval:     p.o.initialBackoff,
		RandomizationFactor: 0.5,
		Multiplier:          2,
		MaxInterval:         p.o.maxBackoff,
	}
	bo.Reset()
	var avoid uint64
	for attempt := 1; ; attempt++ {
		res, ep, aerr := p.attempt(ctx, &c, key, avoid, &deadline, &b, attempt)
		if aerr == nil {
			res.Attempts = attempt
			res.Faults = slices.Clone(b.faults)
			return res, nil
		}
		e, ok := errors.AsType[*Error](aerr)
		if !ok {
			return Result{}, aerr // ctx ended
		}
		pr := b.fault(e.Fault(), time.Since(start))
		e.Attempts, e.Faults = attempt, pr.Faults
		if e.Kind != ErrUnavailable && e.Kind != ErrBadAnswer {
			return Result{}, e
		}
		if heartbeat != nil {
			heartbeat(pr)
		}
		tooManyBad := e.Kind == ErrBadAnswer && attemptsInRow(pr.Faults, FaultBadAnswer) >= p.o.badAnswers
		delay := bo.NextBackOff()
		if e.RetryAfter > 0 {
			delay = e.RetryAfter
		}
		if tooManyBad || attempt >= p.o.maxAttempts || time.Now().Add(delay).After(deadline) {
			return Result{}, e // the caller logs it, or not
		}
		// One WARN per failed request that is retried: an operator sees a
		// flaky endpoint; the turn's final failure, if any, is the caller's.
		p.log.Warn("inference: retrying", "endpoint", e.Endpoint, "attempt", attempt, "fault", e.Fault(), "status", e.Status,
			"delay", delay, "err", e)
		if ep != nil {
			avoid |= bit(ep.index)
		}
		b.set(attempt+1, "")
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return Result{}, fmt.Errorf("inference: %w (last attempt: %v)", ctx.Err(), e)
		case <-t.C:
		}
	}
}

// attemptsInRow counts the trailing entries of faults equal to class.
func attemptsInRow(faults []string, class string) int {
	n := 0
	for i := len(faults) - 1; i >= 0 && faults[i] == class; i-- {
		n++
	}
	return n
}

// wanted is what a request asked the answer to carry.
type wanted struct {
	tokenIDs bool // return_token_ids: true
	logprobs bool // logprobs: true (chat) or a number (completions)
	// prompt, when set, is the token prompt sent: served prompt ids must
	// equal it.
	prompt []int32
}

// asked reads what the request body will ask for: extra fields win over
// the encoded request, as they do on the wire.
func asked(cr *openai.ChatCompletionRequest, extra map[string]json.RawMessage) wanted {
	isTrue := func(k string) (bool, bool) {
		v, ok := extra[k]
		return ok && string(bytes.TrimSpace(v)) == "true", ok
	}
	w := wanted{logprobs: cr.LogProbs}
	w.tokenIDs, _ = isTrue("return_token_ids")
	if lp, ok := isTrue("logprobs"); ok {
		w.logprobs = lp
	}
	return w
}

// check validates an answer against what was asked: a bad one is retried
// like an outage, never handed on.
func (w wanted) check(r *Result) error {
	switch {
	case w.tokenIDs && (r.PromptTokenIDs == nil || r.ResponseTokenIDs == nil):
		return errors.New("token ids were asked for (return_token_ids) and the answer has none")
	case w.logprobs && r.ResponseTokenIDs != nil && len(r.Logprobs) != len(r.ResponseTokenIDs):
		return fmt.Errorf("%d logprobs for %d response tokens", len(r.Logprobs), len(r.ResponseTokenIDs))
	case w.prompt != nil && r.PromptTokenIDs != nil && !slices.Equal(w.prompt, r.PromptTokenIDs):
		return fmt.Errorf("the served prompt_token_ids (%d ids) differ from the %d token ids sent", len(r.PromptTokenIDs), len(w.prompt))
	}
	return nil
}

// attempt makes one request. Its error is an *Error, or ctx's error when
// ctx ended; the endpoint is the one tried (nil when none was).
func (p *Pool) attempt(ctx context.Context, c *call, key string, avoid uint64, deadline *time.Time, b *beat, n int) (Result, *endpoint, error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return Result{}, nil, fmt.Errorf("inference: waiting for a free slot: %w", ctx.Err())
	}
	defer func() { <-p.sem }()
	now := time.Now()
	if deadline.IsZero() {
		*deadline = now.Add(p.o.maxElapsed)
	}
	ep := p.router.pick(key, avoid, now)
	defer p.router.release(ep)
	b.set(n, ep.url)

	timeout := min(p.timeout, deadline.Sub(now))
	if timeout <= 0 { // the slot came too late: no time is left for this attempt
		return Result{}, ep, &Error{Kind: ErrUnavailable, Endpoint: ep.url, Message: "the retry deadline passed while waiting for a free slot"}
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ex := &exchange{extra: c.extra}
	t0 := time.Now()
	decode, err := c.send(withExchange(actx, ex), ep, ex)
	latency := time.Since(t0)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ep, fmt.Errorf("inference %s: %w", ep.url, ctx.Err())
		}
		e := p.failure(ep, ex, err, actx, timeout)
		switch {
		case c.what == "chat completion": // go-openai's messages stand
		case e.Kind == ErrBadAnswer:
			e.Message = "bad answer: not a " + c.what + " answer"
		case e.Kind == ErrModelNotFound && e.Type != "NotFoundError":
			// FastAPI's 404 for a route it lacks, not vLLM's for a model:
			// no retry later will find the route.
			e.Kind, e.Message = ErrUnsupported, "the endpoint does not serve "+c.route+" (see Preflight's capabilities)"
		}
		return Result{}, ep, e
	}
	res, err := decode()
	if err == nil {
		err = c.want.check(&res)
	}
	if err != nil {
		return Result{}, ep, &Error{Kind: ErrBadAnswer, Endpoint: ep.url, Status: ex.status, Message: "bad answer", Err: err}
	}
	p.router.markUp(ep)
	res.Endpoint, res.Latency, res.SamplingParams = ep.url, latency, string(ex.params)
	return res, ep, nil
}

// failure classifies a failed attempt whose caller context is still live.
func (p *Pool) failure(ep *endpoint, ex *exchange, err error, actx context.Context, timeout time.Duration) *Error {
	switch {
	case ex.status == 0 && errors.Is(actx.Err(), context.DeadlineExceeded):
		return &Error{Kind: ErrUnavailable, Endpoint: ep.url, Message: fmt.Sprintf("no answer within %v", timeout), fault: FaultTimeout}
	case !ex.sent:
		// go-openai refused the request before sending it (its checks
		// for reasoning models, say): sending it again changes nothing.
		return &Error{Kind: ErrBadRequest, Endpoint: ep.url, Message: "the client refused the request", Err: err}
	case ex.status == 0:
		e := &Error{Kind: ErrUnavailable, Endpoint: ep.url, Message: "connection failed", Err: transportCause(err)}
		if isDialError(err) {
			e.Message, e.fault = "unreachable", FaultUnreachable
			if p.o.ejection > 0 {
				p.router.markDown(ep, time.Now().Add(p.o.ejection))
			}
		}
		return e
	case ex.status >= 200 && ex.status < 300:
		return &Error{Kind: ErrBadAnswer, Endpoint: ep.url, Status: ex.status, Message: "bad answer: not a chat completion", Err: err}
	}
	return classifyStatus(ep.url, ex.status, ex.header, ex.body, p.key, time.Now())
}

// transportCause strips the *url.Error wrapper (its text repeats the URL).
func transportCause(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

func isDialError(err error) bool {
	op, ok := errors.AsType[*net.OpError](err)
	return ok && op.Op == "dial"
}

// served is what go-openai's response type drops.
type served struct {
	PromptTokenIDs []int32 `json:"prompt_token_ids"`
	Choices        []struct {
		TokenIDs []int32 `json:"token_ids"`
		Message  struct {
			Reasoning string `json:"reasoning"`
		} `json:"message"`
	} `json:"choices"`
}

func decodeResult(resp openai.ChatCompletionResponse, raw []byte) (Result, error) {
	if len(resp.Choices) == 0 {
		return Result{}, errors.New("no choices")
	}
	var extra served
	if err := json.Unmarshal(raw, &extra); err != nil {
		return Result{}, fmt.Errorf("decode token ids: %w", err)
	}
	ch := resp.Choices[0]
	r := Result{
		Text:             ch.Message.Content,
		Reasoning:        ch.Message.ReasoningContent,
		FinishReason:     string(ch.FinishReason),
		PromptTokenIDs:   extra.PromptTokenIDs,
		PromptTokens:     resp.Usage.PromptTokens,
		CompletionTokens: resp.Usage.CompletionTokens,
		ResponseID:       resp.ID,
		Model:            resp.Model,
	}
	for _, tc := range ch.Message.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: tc.ID, Type: "function",
			Function: FunctionCall{Name: tc.Function.Name, Arguments: tc.Function.Arguments}})
	}
	if len(extra.Choices) > 0 {
		r.ResponseTokenIDs = extra.Choices[0].TokenIDs
		if r.Reasoning == "" {
			r.Reasoning = extra.Choices[0].Message.Reasoning
		}
	}
	if ch.LogProbs != nil {
		r.Logprobs = make([]float32, len(ch.LogProbs.Content))
		for i, lp := range ch.LogProbs.Content {
			r.Logprobs[i] = float32(lp.LogProb)
		}
	}
	return r, nil
}
