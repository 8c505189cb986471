// Package search is the search tool: an agent writes <search>query</search>
// and sees the top passages of a retrieval server, formatted as GEM's
// SearchTool formats them ("Doc 1(Title: …) …").
//
// The server speaks the /retrieve protocol of GEM and Search-R1: with msgpack
// bodies the request is GEM's {"query", "topk", "return_scores"} and the reply
// {"result": [{"document": {"contents", …}, "score"}, …]}; with JSON bodies it
// is Search-R1's {"queries": [q], …} and the result holds one list per query.
// The retriever subpackage is such a server (BM25 over a JSONL corpus).
//
// Everything that can go wrong on the server's side (a timeout, a refused
// connection, an HTTP error, a body that does not decode) is an error
// observation, "[SearchTool Error: …]", as in GEM; only a cancelled context
// is a Go error.
//
//go:generate go run ./gen -seed 1 -out testdata
package search

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/quarry-rl/quarry/tools"
)

// Name is the search tool's name.
const Name = "search"

// GEM's defaults.
const (
	DefaultTopK    = 3
	DefaultTimeout = 5 * time.Second
)

// DefaultMaxResponseBytes bounds a retrieval server's reply; a larger reply is
// an error observation.
const DefaultMaxResponseBytes = 16 << 20

// Encoding is how request and response bodies are encoded.
type Encoding string

// Encodings. Msgpack is what GEM's client sends (to its mosec server); JSON is
// what Search-R1's client sends (to its FastAPI server).
const (
	Msgpack Encoding = "msgpack"
	JSON    Encoding = "json"
)

// Config configures the search tool. Zero fields take GEM's defaults.
type Config struct {
	// URL is the full address of the retrieval endpoint, e.g.
	// http://127.0.0.1:8000/retrieve. Required.
	URL string
	// TopK is the number of passages asked for per query (default 3).
	TopK int
	// Timeout bounds one call, connection and reply included (default 5 s).
	Timeout time.Duration
	// Encoding of the request (default msgpack). The reply is decoded by its
	// Content-Type, whichever encoding was sent.
	Encoding Encoding
	// MaxResponseBytes bounds the reply (default 16 MiB).
	MaxResponseBytes int64
}

// Tool is the search tool. It is safe for concurrent use; its sessions share
// one HTTP client and its connection pool.
type Tool struct {
	cfg    Config
	client *http.Client
}

var _ tools.Tool = (*Tool)(nil)

// New validates cfg, applies the defaults and returns the tool.
func New(cfg Config) (*Tool, error) {
	if cfg.URL == "" {
		return nil, errors.New("search tool: url is required")
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("search tool: url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("search tool: url %q: want http(s)://host[:port]/path", cfg.URL)
	}
	if cfg.TopK == 0 {
		cfg.TopK = DefaultTopK
	}
	if cfg.TopK < 0 {
		return nil, fmt.Errorf("search tool: topk %d: want a positive number", cfg.TopK)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("search tool: timeout %v: want a positive duration", cfg.Timeout)
	}
	switch cfg.Encoding {
	case "":
		cfg.Encoding = Msgpack
	case Msgpack, JSON:
	default:
		return nil, fmt.Errorf("search tool: encoding %q: want %q or %q", cfg.Encoding, Msgpack, JSON)
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxResponseBytes < 0 {
		return nil, fmt.Errorf("search tool: max response bytes %d: want a positive number", cfg.MaxResponseBytes)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = 64
	return &Tool{cfg: cfg, client: &http.Client{Transport: transport}}, nil
}

// Config returns the tool's configuration, defaults applied.
func (t *Tool) Config() Config { return t.cfg }

// Name returns "search".
func (t *Tool) Name() string { return Name }

// Instructions is GEM's instruction text for the search tool. It promises
// results inside <information> tags, which GEM's tool does not add (the
// observation is the bare passages); Quarry keeps both as GEM has them.
func (t *Tool) Instructions(context.Context) (string, error) {
	return "You have access to a search engine to help answer questions.\n\n" +
		"Additional instructions:\n" +
		"- If your initial reasoning in <think> shows you lack some knowledge, explain what you need to find next inside a new <think> block.\n" +
		"- Then issue a search query using:\n" +
		"  <search> your query here </search>\n" +
		"- The search engine will provide results inside:\n" +
		"  <information> ... </information>\n" +
		"- You may repeat the <think> and <search> steps as many times as needed.\n" +
		"- When you are ready, give your final answer in:\n" +
		"  <answer> your answer here </answer>", nil
}

const (
	openTag  = "<search>"
	closeTag = "</search>"
)

// Parse finds the first <search>…</search> in action, as GEM's regex
// <search>(.*?)</search> (DOTALL) does: the first opening tag and the first
// closing tag after it. The query is the text between them with surrounding
// whitespace removed (Python's str.strip); an empty query is still a call.
// Raw is the matched tag text; Shown is GEM's parsed_action, the action up
// to the end of the call.
func (t *Tool) Parse(action string) (tools.Call, bool) {
	return Parse(action)
}

// Parse is Tool.Parse without a tool.
func Parse(action string) (tools.Call, bool) {
	start := strings.Index(action, openTag)
	if start < 0 {
		return tools.Call{}, false
	}
	bodyStart := start + len(openTag)
	n := strings.Index(action[bodyStart:], closeTag)
	if n < 0 {
		return tools.Call{}, false
	}
	end := bodyStart + n + len(closeTag)
	return tools.Call{
		Tool:  Name,
		Input: strings.TrimFunc(action[bodyStart:bodyStart+n], isPySpace),
		Raw:   action[start:end],
		Shown: action[:end],
	}, true
}

// isPySpace reports whether Python's str.isspace holds for r: Go's
// unicode.IsSpace plus the four ASCII information separators.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// Open starts a session. Sessions hold no resources of their own.
func (t *Tool) Open(context.Context) (tools.Session, error) {
	return &session{tool: t}, nil
}

type session struct {
	tool *Tool
}

// Close does nothing: the HTTP client belongs to the tool.
func (s *session) Close() error { return nil }

// Execute sends the call's query to the retrieval server and formats the
// passages. Every failure of the server is an error observation; the only Go
// error is ctx's, wrapped with NotExecuted (a search has no side effects).
func (s *session) Execute(ctx context.Context, call tools.Call) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, tools.NotExecuted(fmt.Errorf("search: %w", err))
	}
	if call.Err != "" {
		return errorResult(call.Err, false), nil
	}
	passages, err := s.tool.retrieve(ctx, call.Input)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, tools.NotExecuted(fmt.Errorf("search: %w", ctx.Err()))
		}
		var te timeoutError
		return errorResult(err.Error(), errors.As(err, &te)), nil
	}
	return tools.Result{Observation: FormatPassages(passages)}, nil
}

// errorResult is GEM's error observation.
func errorResult(msg string, timedOut bool) tools.Result {
	return tools.Result{Observation: "[SearchTool Error: " + msg + "]", Error: true, TimedOut: timedOut}
}

// FormatPassages renders passages' contents as GEM's _passages2string: per
// passage "Doc i(Title: <first line>) <other lines>\n". Titles keep the
// quotes Search-R1 corpora put around them.
func FormatPassages(contents []string) string {
	var b strings.Builder
	for i, c := range contents {
		title, text, _ := strings.Cut(c, "\n")
		fmt.Fprintf(&b, "Doc %d(Title: %s) %s\n", i+1, title, text)
	}
	return b.String()
}

// Function is the search tool as an OpenAI function tool (native calling):
// search(query).
var Function = tools.Function{
	Name:        Name,
	Description: "Search the knowledge base and return the top passages for a query.",
	Parameters:  []byte(`{"type":"object","properties":{"query":{"type":"string","description":"What to search for."}},"required":["query"]}`),
}

// Functions implements tools.Functions.
func (t *Tool) Functions(context.Context) ([]tools.Function, error) {
	return []tools.Function{Function}, nil
}
