// Package openaitest runs a real OpenAI-compatible HTTP server for tests, on
// a free loopback port: GET /v1/models, non-streaming POST
// /v1/chat/completions and POST /v1/completions, and vLLM's POST /tokenize
// and POST /detokenize (at the root, as vLLM serves them), speaking the
// wire format vLLM (≥ 0.10.2) speaks — OpenAI's fields plus vLLM's
// prompt_token_ids, token_ids, stop_reason and max_model_len, and vLLM's
// error shape {"error": {message, type, param, code}}.
//
// Chat answers come from a scripted Policy over a deterministic fake
// tokenizer (one token per whitespace-separated word; see Tokenize and
// PromptTokenIDs); completions, tokenize and detokenize use a real BPE
// (cl100k_base, EncodeBPE) and a ChatML chat template (ChatTemplate), and
// completions answer from a CompletionPolicy. Either way a test can
// recompute every id and logprob it was served. Chat messages may carry
// OpenAI content parts, text and images as base64 data URLs (Message.Parts;
// an image counts a fixed ImagePads+2 tokens). The fault plan, records,
// weights versions and the API key apply to all these endpoints alike;
// WithoutCompletions, WithoutTokenPrompts and WithoutTokenize play servers
// that lack them. Faults —
// 429 with Retry-After, 5xx, a 404 for the model, a response slower than
// the client's timeout or none at all, a dropped connection, and bad
// answers (a garbage body, no choices, token ids missing, logprobs that do
// not match the tokens) — are injected per request from a plan, for chat
// completions and for GET /v1/models (WithModelsFaults).
//
// The server plays an inference endpoint a trainer updates: it serves one
// weights version at a time (DefaultVersion at first), WithVersionedPolicy
// makes the replies depend on it, and every reply the weights produced
// carries it in the X-Quarry-Weights header (tests may read it; clients
// ignore it) and in its Record. SwapWeights — or POST /admin/weights, for a
// trainer in another process — loads a new version, optionally under a new
// model name and behind a window in which the API answers 404 or 503, as
// vLLM does while a trainer reloads it; requests already being served
// finish with the version they started with.
//
// Every API request is recorded (the API key replaced by "<redacted>") for
// assertions; /admin requests are not, and need no key. Clients under test
// talk real HTTP to it; nothing is mocked.
package openaitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one chat message as the server reads it.
type Message struct {
	Role string `json:"role"`
	// Content is the message's text: its content string, or the text of
	// its content parts in order.
	Content string `json:"content"`
	// Parts is the content when it was sent as a list of parts (text and
	// image_url), nil when it was a string.
	Parts []ContentPart `json:"-"`
	// ToolCalls (assistant) and ToolCallID (tool) are native tool calling's.
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is one function call in the OpenAI wire shape.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Policy answers a chat: the assistant's whole reply, before max_tokens and
// stop strings cut it.
type Policy func(messages []Message) string

// VersionedPolicy is a Policy that knows the weights version serving the
// request.
type VersionedPolicy func(version string, messages []Message) string

// Defaults of a server started without options.
const (
	DefaultModel       = "quarry-test-model"
	DefaultMaxModelLen = 4096
	DefaultReply       = "ok"
	// DefaultVersion is the weights version a server starts with.
	DefaultVersion = "v0"
)

type config struct {
	model                                     string
	maxModelLen                               int
	apiKey                                    string
	policy                                    VersionedPolicy
	completion                                func(version, prompt string) string
	noCompletions, noTokenPrompts, noTokenize bool
	eosInIDs                                  bool
	latency                                   time.Duration
	hold                                      <-chan struct{}
	noTokenIDs                                bool
	faults                                    []Fault
	modelFaults                               []Fault
	faultFunc                                 func(seq int) Fault
	bodyFault                                 func(seq int, body []byte) Fault
	hook                                      func(Record)
}

// Option configures a server.
type Option func(*config)

// WithModel sets the served model name (default DefaultModel).
func WithModel(name string) Option { return func(c *config) { c.model = name } }

// WithMaxModelLen sets the context length: prompt tokens plus max_tokens
// beyond it are refused with vLLM's 400 (default DefaultMaxModelLen).
func WithMaxModelLen(n int) Option { return func(c *config) { c.maxModelLen = n } }

// WithAPIKey requires "Authorization: Bearer key" on every /v1 request;
// others get 401 in OpenAI's error shape.
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithPolicy scripts the replies (default: always DefaultReply), the same
// for every weights version.
func WithPolicy(p Policy) Option {
	return func(c *config) { c.policy = func(_ string, m []Message) string { return p(m) } }
}

// WithVersionedPolicy scripts replies that depend on the weights version
// serving the request (see SwapWeights). It replaces WithPolicy's, and
// WithPolicy replaces it: the last one given wins.
func WithVersionedPolicy(p VersionedPolicy) Option { return func(c *config) { c.policy = p } }

// WithLatency delays every chat completion and completion by d (a client that goes away
// stops the wait).
func WithLatency(d time.Duration) Option { return func(c *config) { c.latency = d } }

// WithHold makes every chat completion and completion wait until ch is closed (or the
// client goes away) before it is answered: a test decides when a long
// generation ends instead of guessing with a latency.
func WithHold(ch <-chan struct{}) Option { return func(c *config) { c.hold = ch } }

// WithoutTokenIDs ignores return_token_ids, as vLLM before 0.10.2 did:
// prompt_token_ids and token_ids are always null.
func WithoutTokenIDs() Option { return func(c *config) { c.noTokenIDs = true } }

// WithFaults queues a fault plan: plan[i] applies to the i-th authorized
// API request (chat completion, completion, tokenize or detokenize — one
// plan for all; the answer faults only change chat and completion
// answers); requests after the plan are served normally
// (unless WithFaultFunc says otherwise). Inject appends to the queue later.
func WithFaults(plan ...Fault) Option {
	return func(c *config) { c.faults = append(c.faults, plan...) }
}

// WithModelsFaults queues a fault plan for GET /v1/models: plan[i] applies
// to the i-th authorized request; later ones are served normally. Only the
// transport faults apply there (rate limit, server error, slow, hang, drop,
// garbage, model gone).
func WithModelsFaults(plan ...Fault) Option {
	return func(c *config) { c.modelFaults = append(c.modelFaults, plan...) }
}

// WithFaultFunc decides the fault of every authorized chat completion
// request the queued plan does not cover; seq counts those requests from 0.
func WithFaultFunc(f func(seq int) Fault) Option { return func(c *config) { c.faultFunc = f } }

// WithRequestFaults decides the fault of every authorized chat completion
// request the queued plan does not cover from its body too, so a test can
// fault a request and spare its retry (the same body); it wins over
// WithFaultFunc. f may be called from several goroutines at once.
func WithRequestFaults(f func(seq int, body []byte) Fault) Option {
	return func(c *config) { c.bodyFault = f }
}

// WithHook calls f with the record of every chat completion and completion request once
// its response has been written (or the connection dropped): a test can
// act between "the server answered" and "the client used the answer".
func WithHook(f func(Record)) Option { return func(c *config) { c.hook = f } }

// Record is one request the server received and what it answered.
type Record struct {
	// Seq numbers every request in arrival order; ChatSeq numbers the
	// authorized API requests the server admitted (chat completions,
	// completions, tokenize, detokenize: they share one plan), the index
	// the fault plan uses (-1 for others, and for those a swap's window
	// refused: a window consumes no planned fault).
	Seq     int
	ChatSeq int
	Method  string
	Path    string
	// Header is the request's header with any Authorization value replaced
	// by "Bearer <redacted>".
	Header http.Header
	// Authorized: the request presented the configured key (always true
	// when the server has none).
	Authorized bool
	Body       []byte // the request body as received
	Fault      FaultKind
	// Status is the HTTP status written; 0 when the connection was dropped
	// or the client went away first.
	Status     int
	Response   []byte // the response body written
	ResponseID string
	// Version is the weights version that produced the answer (the
	// X-Quarry-Weights header sent): the one live when the request was
	// admitted, even if a swap happened while it was served. It is empty
	// when the weights produced no answer: the request was refused (by a
	// swap's window, a fault, or as invalid) or dropped.
	Version  string
	Received time.Time
	// Done is when the response was handed to the connection (zero while
	// the request is being served).
	Done time.Time

	slot int // index in Server.records
}

// JSON decodes the request body.
func (r Record) JSON() (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		return nil, fmt.Errorf("request %d body: %w", r.Seq, err)
	}
	return m, nil
}

// Server is a running OpenAI-compatible test server.
type Server struct {
	// URL is the server's root, http://127.0.0.1:port; BaseURL adds /v1.
	URL string

	cfg  config
	http *httptest.Server
	stop chan struct{}
	once sync.Once

	mu       sync.Mutex
	records  []Record
	seq      int
	chatSeq  int
	queue    []Fault
	mqueue   []Fault
	standing Fault // SetFault's
	inFlight int
	peak     int
	live     Weights
	window   int // while a swap's window is open: the status refusing requests

	swapMu sync.Mutex // one swap at a time
}

// Start starts a server on 127.0.0.1 and stops it when t's test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := New(opts...)
	t.Cleanup(s.Close)
	return s
}

// New starts a server on 127.0.0.1; Close stops it.
func New(opts ...Option) *Server {
	cfg := config{model: DefaultModel, maxModelLen: DefaultMaxModelLen}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.policy == nil {
		cfg.policy = func(string, []Message) string { return DefaultReply }
	}
	if cfg.completion == nil {
		chat := cfg.policy
		cfg.completion = func(v, prompt string) string { return chat(v, []Message{{Role: "user", Content: prompt}}) }
	}
	s := &Server{cfg: cfg, stop: make(chan struct{}), queue: cfg.faults, mqueue: cfg.modelFaults,
		live: Weights{Version: DefaultVersion, Model: cfg.model}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", s.record(s.models))
	mux.HandleFunc("POST /v1/chat/completions", s.record(s.chat))
	if !cfg.noCompletions {
		mux.HandleFunc("POST /v1/completions", s.record(s.completions))
	}
	if !cfg.noTokenize {
		// vLLM serves these at the root, not under /v1.
		mux.HandleFunc("POST /tokenize", s.record(s.tokenize))
		mux.HandleFunc("POST /detokenize", s.record(s.detokenize))
	}
	mux.HandleFunc("GET /admin/weights", s.getWeights)
	mux.HandleFunc("POST /admin/weights", s.postWeights)
	mux.HandleFunc("/", s.record(func(w http.ResponseWriter, r *http.Request, rec *Record) {
		// FastAPI's answer to an unknown route, as vLLM gives it.
		s.reply(w, rec, http.StatusNotFound, []byte(`{"detail":"Not Found"}`))
	}))
	s.http = httptest.NewServer(mux) // binds 127.0.0.1
	s.URL = s.http.URL
	return s
}

// BaseURL is the OpenAI base URL, ending in /v1.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Close stops the server, cutting short any latency or slow fault.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.stop)
		s.http.CloseClientConnections()
		s.http.Close()
	})
}

// Inject appends faults to the plan: they apply to the next authorized
// chat completion requests not yet covered by it.
func (s *Server) Inject(faults ...Fault) {
	s.mu.Lock()
	s.queue = append(s.queue, faults...)
	s.mu.Unlock()
}

// SetFault makes every authorized chat completion request not covered by
// the queued plan get f, until SetFault(Fault{}) clears it: an endpoint
// that goes down (say ModelGone while a trainer reloads weights) and comes
// back when the test says so. It wins over WithFaultFunc and
// WithRequestFaults.
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	s.standing = f
	s.mu.Unlock()
}

// Records returns every API request received so far (not /admin ones), in
// arrival order. A request's record is complete (status, response) before
// its response is written, so a client that has an answer finds it
// recorded.
func (s *Server) Records() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Record(nil), s.records...)
}

// ChatRecords returns the chat completion requests received so far.
func (s *Server) ChatRecords() []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Record
	for _, r := range s.records {
		if r.Path == "/v1/chat/completions" {
			out = append(out, r)
		}
	}
	return out
}

// RecordsAt returns the requests received so far at path (say
// "/v1/completions" or "/tokenize").
func (s *Server) RecordsAt(path string) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Record
	for _, r := range s.records {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// ChatCount is the number of chat completion requests received (answered
// or not).
func (s *Server) ChatCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.records {
		if r.Path == "/v1/chat/completions" {
			n++
		}
	}
	return n
}

// InFlight is the number of chat completion requests being served now.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inFlight
}

// MaxInFlight is the largest number of chat completion requests that were
// being served at once.
func (s *Server) MaxInFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}

type handler func(w http.ResponseWriter, r *http.Request, rec *Record)

// record wraps h so every request lands in the record list once answered.
func (s *Server) record(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		hdr := r.Header.Clone()
		if hdr.Get("Authorization") != "" {
			hdr.Set("Authorization", "Bearer <redacted>")
		}
		rec := &Record{ChatSeq: -1, Method: r.Method, Path: r.URL.Path, Header: hdr, Received: time.Now()}
		rec.Authorized = s.cfg.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+s.cfg.apiKey
		s.mu.Lock()
		rec.Seq, rec.slot = s.seq, len(s.records)
		s.seq++
		s.records = append(s.records, *rec)
		s.mu.Unlock()
		h(w, r, rec)
		s.commit(rec)
		if s.cfg.hook != nil && (rec.Path == "/v1/chat/completions" || rec.Path == "/v1/completions") {
			s.cfg.hook(*rec)
		}
	}
}

// commit stores what the handler knows of rec so far.
func (s *Server) commit(rec *Record) {
	s.mu.Lock()
	s.records[rec.slot] = *rec
	s.mu.Unlock()
}

// reply records the answer, then writes it.
func (s *Server) reply(w http.ResponseWriter, rec *Record, status int, body []byte) {
	rec.Status, rec.Response, rec.Done = status, body, time.Now()
	s.commit(rec)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// vLLM's error shape (vllm/entrypoints/openai/engine/protocol.py
// ErrorResponse{error: ErrorInfo{message, type, param, code: int}}).
type errorInfo struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    any     `json:"code"`
}

func (s *Server) fail(w http.ResponseWriter, rec *Record, status int, typ, param, format string, args ...any) {
	e := errorInfo{Message: fmt.Sprintf(format, args...), Type: typ, Code: status}
	if param != "" {
		e.Param = &param
	}
	body, _ := json.Marshal(map[string]errorInfo{"error": e})
	s.reply(w, rec, status, body)
}

// unauthorized answers as OpenAI does: the key masked in the message,
// code "invalid_api_key".
func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request, rec *Record) {
	msg := "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && got != "" {
		msg = "Incorrect API key provided: " + mask(got) + "."
	}
	e := errorInfo{Message: msg, Type: "invalid_request_error", Code: "invalid_api_key"}
	body, _ := json.Marshal(map[string]errorInfo{"error": e})
	s.reply(w, rec, http.StatusUnauthorized, body)
}

func mask(key string) string {
	if len(key) < 12 {
		return "***"
	}
	return key[:3] + "***" + key[len(key)-4:]
}

func (s *Server) models(w http.ResponseWriter, r *http.Request, rec *Record) {
	if !rec.Authorized {
		s.unauthorized(w, r, rec)
		return
	}
	s.mu.Lock()
	live, closed := s.live, s.window
	var f Fault
	if len(s.mqueue) > 0 && closed == 0 {
		f, s.mqueue = s.mqueue[0], s.mqueue[1:]
	}
	s.mu.Unlock()
	if closed != 0 {
		s.refuse(w, rec, closed, live.Model)
		return
	}
	rec.Fault = f.Kind
	s.commit(rec)
	if done := s.inject(w, r, rec, f); done {
		return
	}
	type permission struct {
		ID                 string  `json:"id"`
		Object             string  `json:"object"`
		Created            int64   `json:"created"`
		AllowCreateEngine  bool    `json:"allow_create_engine"`
		AllowSampling      bool    `json:"allow_sampling"`
		AllowLogprobs      bool    `json:"allow_logprobs"`
		AllowSearchIndices bool    `json:"allow_search_indices"`
		AllowView          bool    `json:"allow_view"`
		AllowFineTuning    bool    `json:"allow_fine_tuning"`
		Organization       string  `json:"organization"`
		Group              *string `json:"group"`
		IsBlocking         bool    `json:"is_blocking"`
	}
	type card struct {
		ID          string       `json:"id"`
		Object      string       `json:"object"`
		Created     int64        `json:"created"`
		OwnedBy     string       `json:"owned_by"`
		Root        string       `json:"root"`
		Parent      *string      `json:"parent"`
		MaxModelLen int          `json:"max_model_len"`
		Permission  []permission `json:"permission"`
	}
	now := time.Now().Unix()
	body, _ := json.Marshal(map[string]any{
		"object": "list",
		"data": []card{{
			ID: live.Model, Object: "model", Created: now, OwnedBy: "vllm", Root: live.Model,
			MaxModelLen: s.cfg.maxModelLen,
			Permission: []permission{{
				ID: "modelperm-" + randHex(), Object: "model_permission", Created: now,
				AllowSampling: true, AllowLogprobs: true, AllowView: true, Organization: "*",
			}},
		}},
	})
	s.served(w, rec, live.Version, body)
}

type chatRequest struct {
	Model               string          `json:"model"`
	Messages            []Message       `json:"messages"`
	MaxTokens           *int            `json:"max_tokens"`
	MaxCompletionTokens *int            `json:"max_completion_tokens"`
	Stop                json.RawMessage `json:"stop"`
	Stream              bool            `json:"stream"`
	N                   *int            `json:"n"`
	Logprobs            bool            `json:"logprobs"`
	TopLogprobs         int             `json:"top_logprobs"`
	ReturnTokenIDs      bool            `json:"return_token_ids"`
	IncludeStopStr      bool            `json:"include_stop_str_in_output"`
	Tools               []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

type logprob struct {
	Token   string  `json:"token"`
	Logprob float64 `json:"logprob"`
	Bytes   []int   `json:"bytes"`
}

type logprobContent struct {
	logprob
	TopLogprobs []logprob `json:"top_logprobs"`
}

type choice struct {
	Index   int `json:"index"`
	Message struct {
		Role             string     `json:"role"`
		Content          string     `json:"content"`
		Refusal          *string    `json:"refusal"`
		ReasoningContent *string    `json:"reasoning_content"`
		ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	} `json:"message"`
	Logprobs     *choiceLogprobs `json:"logprobs"`
	FinishReason string          `json:"finish_reason"`
	StopReason   *string         `json:"stop_reason"`
	TokenIDs     []int32         `json:"token_ids"`
}

type choiceLogprobs struct {
	Content []logprobContent `json:"content"`
}

type usage struct {
	PromptTokens        int  `json:"prompt_tokens"`
	TotalTokens         int  `json:"total_tokens"`
	CompletionTokens    int  `json:"completion_tokens"`
	PromptTokensDetails *any `json:"prompt_tokens_details"`
}

type chatResponse struct {
	ID                string   `json:"id"`
	Object            string   `json:"object"`
	Created           int64    `json:"created"`
	Model             string   `json:"model"`
	Choices           []choice `json:"choices"`
	ServiceTier       *string  `json:"service_tier"`
	SystemFingerprint *string  `json:"system_fingerprint"`
	Usage             usage    `json:"usage"`
	PromptLogprobs    *any     `json:"prompt_logprobs"`
	PromptTokenIDs    []int32  `json:"prompt_token_ids"`
	KVTransferParams  *any     `json:"kv_transfer_params"`
}

// busy counts a generation in flight until the returned func is called.
func (s *Server) busy() func() {
	s.mu.Lock()
	s.inFlight++
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}
}

// admit reads the body of an API request (chat, completions, tokenize,
// detokenize), checks its key, refuses it while a swap's window is open,
// and applies the next fault of the plan: all these endpoints share one
// plan and one sequence (Record.ChatSeq). ok reports that the request is to
// be served (an answer fault, if any, is in f).
func (s *Server) admit(w http.ResponseWriter, r *http.Request, rec *Record) (live Weights, f Fault, body []byte, ok bool) {
	body, err := io.ReadAll(r.Body)
	rec.Body = body
	s.commit(rec)
	if err != nil {
		return live, f, body, false
	}
	if !rec.Authorized {
		s.unauthorized(w, r, rec)
		return live, f, body, false
	}
	s.mu.Lock()
	live, closed := s.live, s.window
	if closed != 0 {
		s.mu.Unlock()
		s.refuse(w, rec, closed, live.Model)
		return live, f, body, false
	}
	seq := s.chatSeq
	s.chatSeq++
	planned := len(s.queue) > 0 || s.standing.Kind != FaultNone
	switch {
	case len(s.queue) > 0:
		f, s.queue = s.queue[0], s.queue[1:]
	case s.standing.Kind != FaultNone:
		f = s.standing
	case s.cfg.faultFunc != nil && s.cfg.bodyFault == nil:
		f = s.cfg.faultFunc(seq)
	}
	s.mu.Unlock()
	if !planned && s.cfg.bodyFault != nil {
		f = s.cfg.bodyFault(seq, body)
	}
	rec.ChatSeq = seq
	rec.Fault = f.Kind
	s.commit(rec)
	if done := s.inject(w, r, rec, f); done {
		return live, f, body, false
	}
	return live, f, body, true
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, rec *Record) {
	defer s.busy()()
	live, f, body, ok := s.admit(w, r, rec)
	if !ok {
		return
	}
	seq := rec.ChatSeq

	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "invalid request body: %v", err)
		return
	}
	if req.Model != live.Model {
		s.fail(w, rec, http.StatusNotFound, "NotFoundError", "model", "The model `%s` does not exist.", req.Model)
		return
	}
	if req.Stream {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "stream", "openaitest serves non-streaming chat completions only")
		return
	}
	if len(req.Messages) == 0 {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "messages", "messages must not be empty")
		return
	}
	if err := checkParts(req.Messages); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "messages", "%v", err)
		return
	}
	if err := checkToolMessages(req.Messages, len(req.Tools) > 0); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "messages", "%v", err)
		return
	}
	tools := map[string]bool{}
	for _, t := range req.Tools {
		if t.Type != "function" || t.Function.Name == "" || !json.Valid(t.Function.Parameters) {
			s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "tools", "each tool needs type function, a name and JSON-schema parameters")
			return
		}
		tools[t.Function.Name] = true
	}
	stops, err := parseStop(req.Stop)
	if err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "stop", "%v", err)
		return
	}
	n := 1
	if req.N != nil {
		n = *req.N
	}
	if n < 1 {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "n", "n must be at least 1, got %d", n)
		return
	}

	prompt := PromptTokenIDs(req.Messages)
	maxLen := s.cfg.maxModelLen
	maxTokens := req.MaxTokens
	if req.MaxCompletionTokens != nil {
		maxTokens = req.MaxCompletionTokens
	}
	if len(prompt) >= maxLen {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "This model's maximum context length is %d tokens. However, your request has %d input tokens. Please reduce the length of the input messages.", maxLen, len(prompt))
		return
	}
	budget := maxLen - len(prompt)
	if maxTokens != nil {
		if *maxTokens < 1 {
			s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "max_tokens", "max_tokens must be at least 1, got %d.", *maxTokens)
			return
		}
		if *maxTokens > budget {
			s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "'max_tokens' or 'max_completion_tokens' is too large: %d. This model's maximum context length is %d tokens and your request has %d input tokens (%d > %d - %d).", *maxTokens, maxLen, len(prompt), *maxTokens, maxLen, len(prompt))
			return
		}
		budget = *maxTokens
	}

	if !s.sleep(r, s.cfg.latency) || !s.wait(r, s.cfg.hold) {
		return
	}

	resp := chatResponse{
		ID:      fmt.Sprintf("chatcmpl-%d-%s", seq, randHex()),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   live.Model,
		Usage:   usage{PromptTokens: len(prompt)},
	}
	withIDs := req.ReturnTokenIDs && !s.cfg.noTokenIDs
	if withIDs {
		resp.PromptTokenIDs = prompt
	}
	reply := s.cfg.policy(live.Version, req.Messages)
	for i := range n {
		c := generate(reply, stops, req.IncludeStopStr, budget)
		c.Index = i
		if withIDs {
			c.TokenIDs = Tokenize(c.Message.Content)
		}
		if req.Logprobs {
			c.Logprobs = &choiceLogprobs{logprobs(c.Message.Content, req.TopLogprobs)}
		}
		if len(tools) > 0 {
			parseToolCalls(&c, tools, fmt.Sprintf("chatcmpl-tool-%d-%d", seq, i))
		}
		resp.Choices = append(resp.Choices, c)
		resp.Usage.CompletionTokens += len(strings.Fields(c.Message.Content))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	spoil(&resp, f.Kind)
	out, err := json.Marshal(resp)
	if err != nil {
		s.fail(w, rec, http.StatusInternalServerError, "InternalServerError", "", "encode response: %v", err)
		return
	}
	rec.ResponseID = resp.ID
	s.served(w, rec, live.Version, out)
}

// generate applies stop strings, then the token budget, to a reply.
func generate(reply string, stops []string, includeStop bool, budget int) choice {
	var c choice
	c.Message.Role = "assistant"
	c.FinishReason = "stop"
	cut, which := -1, ""
	for _, st := range stops {
		if i := strings.Index(reply, st); i >= 0 && (cut < 0 || i < cut) {
			cut, which = i, st
		}
	}
	if cut >= 0 {
		if includeStop {
			reply = reply[:cut+len(which)]
		} else {
			reply = reply[:cut]
		}
		c.StopReason = &which
	}
	if words := strings.Fields(reply); len(words) > budget {
		reply = strings.Join(words[:budget], " ")
		c.FinishReason = "length"
		c.StopReason = nil
	}
	c.Message.Content = reply
	return c
}

func logprobs(text string, top int) []logprobContent {
	words := strings.Fields(text)
	out := make([]logprobContent, len(words))
	for i, w := range words {
		lp := logprob{Token: w, Logprob: Logprob(TokenID(w), i), Bytes: wordBytes(w)}
		out[i] = logprobContent{logprob: lp, TopLogprobs: []logprob{}}
		for k := range top {
			if k == 0 {
				out[i].TopLogprobs = append(out[i].TopLogprobs, lp)
				continue
			}
			alt := fmt.Sprintf("alt%d", k)
			out[i].TopLogprobs = append(out[i].TopLogprobs, logprob{Token: alt, Logprob: lp.Logprob - float64(k), Bytes: wordBytes(alt)})
		}
	}
	return out
}

func wordBytes(w string) []int {
	b := make([]int, len(w))
	for i := range len(w) {
		b[i] = int(w[i])
	}
	return b
}

func parseStop(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		return nil, fmt.Errorf("stop: want a string or a list of strings")
	}
	return many, nil
}

// sleep waits d unless the client goes away or the server closes first.
func (s *Server) sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.stop:
	}
	return false
}

// wait waits until ch is closed (at once for a nil ch) unless the client
// goes away or the server closes first.
func (s *Server) wait(r *http.Request, ch <-chan struct{}) bool {
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	case <-r.Context().Done():
	case <-s.stop:
	}
	return false
}

func randHex() string {
	return strconv.FormatUint(rand.Uint64()|1<<63, 16)[:12]
}

// checkToolMessages applies OpenAI's rule to native tool calling: every
// "tool" message answers, by tool_call_id, a call of an earlier assistant
// message. Without tools in the request, a "tool" message without an id is
// accepted, as vLLM accepts GEM-style transcripts.
func checkToolMessages(msgs []Message, native bool) error {
	calls := map[string]bool{}
	for i, m := range msgs {
		for _, tc := range m.ToolCalls {
			if m.Role != "assistant" || tc.ID == "" || tc.Type != "function" || !json.Valid([]byte(tc.Function.Arguments)) {
				return fmt.Errorf("messages[%d]: tool_calls need an assistant message, an id, type function and JSON arguments", i)
			}
			calls[tc.ID] = true
		}
		if m.Role != "tool" || (!native && m.ToolCallID == "") {
			continue
		}
		if !calls[m.ToolCallID] {
			return fmt.Errorf("messages[%d]: role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id %q)", i, m.ToolCallID)
		}
	}
	return nil
}

// hermesCall is a tool call as Hermes/Qwen models write it.
var hermesCall = regexp.MustCompile(`(?s)<tool_call>\s*(\{.*?\})\s*</tool_call>`)

// parseToolCalls does what vLLM's hermes tool parser does to a reply: calls
// of offered tools written as <tool_call>{"name": …, "arguments": {…}}</tool_call>
// move from the content into tool_calls (the content keeps the text before
// the first call) and the finish reason becomes tool_calls.
func parseToolCalls(c *choice, tools map[string]bool, idPrefix string) {
	ms := hermesCall.FindAllStringSubmatchIndex(c.Message.Content, -1)
	var calls []ToolCall
	for k, m := range ms {
		var call struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		body := c.Message.Content[m[2]:m[3]]
		if json.Unmarshal([]byte(body), &call) != nil || !tools[call.Name] {
			return // the parser gives up: the reply stays text
		}
		tc := ToolCall{ID: fmt.Sprintf("%s-%d", idPrefix, k), Type: "function"}
		tc.Function.Name, tc.Function.Arguments = call.Name, string(call.Arguments)
		calls = append(calls, tc)
	}
	if len(calls) == 0 {
		return
	}
	c.Message.Content = strings.TrimSpace(c.Message.Content[:ms[0][0]])
	c.Message.ToolCalls = calls
	c.FinishReason = "tool_calls"
}
