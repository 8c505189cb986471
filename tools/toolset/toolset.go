// Package toolset builds a job's tools (schema.ToolsSpec) on a worker and
// keeps their per-episode sessions. Inference workers use a Set to parse
// calls and render instructions; tool workers also run the calls, in
// sessions that live as long as their episode on that worker.
package toolset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/mcp"
	"github.com/quarry-rl/quarry/tools/python"
	"github.com/quarry-rl/quarry/tools/search"
	"github.com/quarry-rl/quarry/tools/toolenv"
)

// Set is one job's tools on this worker.
type Set struct {
	// Tools run calls; Parsers find them in actions (the tools themselves
	// with text calling, one parser of function calls with native calling).
	Tools        []tools.Tool
	Parsers      []tools.Tool
	Config       toolenv.Config
	Instructions []string // one per parser
	// Functions are the tools as OpenAI function tools (native calling only).
	Functions []tools.Function
}

// Wrap wraps env with the set's tools (no sessions: calls go through
// toolenv.Env.Call and Apply).
func (s *Set) Wrap(env envs.Env) (*toolenv.Env, error) {
	return toolenv.New(env, s.Config, s.Parsers, s.Instructions)
}

// Parse finds the action's tool call, as the wrapped env does.
func (s *Set) Parse(action string) (tools.Call, bool) { return toolenv.ParseCall(s.Parsers, action) }

// Tool returns the set's tool named name.
func (s *Set) Tool(name string) (tools.Tool, bool) {
	for _, t := range s.Tools {
		if t.Name() == name {
			return t, true
		}
	}
	return nil, false
}

// Host builds sets and holds sessions for one worker process.
type Host struct {
	// Sandbox configures the sandbox python runs in; it is created on first
	// use, so a worker that never runs python needs no bubblewrap.
	Sandbox sandbox.Options
	// Provider, when set, supplies the sandbox instead (sandbox.Lazy): one
	// per process, shared with code verification.
	Provider func(context.Context) (*sandbox.Sandbox, error)
	// LookupEnv resolves ${NAME} in MCP configs (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// MCP are in-process knobs of the MCP tool, such as the user stdio
	// servers run as (mcp.WithUser) and where their homes are made
	// (mcp.WithHomeBase).
	MCP []mcp.Option
	Log *slog.Logger

	sbMu sync.Mutex
	sb   *sandbox.Sandbox // made on first success; a failure is retried

	mu       sync.Mutex
	sets     map[string]*Set
	sessions map[string]*episode
}

// episode holds one episode's sessions on this worker. Attempts of the
// episode take turns (a retry may overlap an attempt that timed out but
// still runs): lock is held by the one using the sessions, users counts
// those holding or waiting for it, and an episode closed while in use is
// closed by its last user.
type episode struct {
	lock     chan struct{} // one token: the right to use the sessions
	sessions map[string]tools.Session
	users    int
	used     time.Time
	closed   bool
}

// ErrUnavailable means this worker cannot run a job's tool (no bubblewrap,
// not root, an MCP server that cannot start): the call did not run.
var ErrUnavailable = errors.New("tool unavailable on this worker")

func (h *Host) log() *slog.Logger {
	if h.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.Log
}

// sandbox returns the worker's sandbox, creating it on first use. A
// failure is not remembered: the next call tries again.
func (h *Host) sandbox(ctx context.Context) (*sandbox.Sandbox, error) {
	h.sbMu.Lock()
	defer h.sbMu.Unlock()
	if h.sb != nil {
		return h.sb, nil
	}
	var err error
	if h.Provider != nil {
		h.sb, err = h.Provider(ctx)
	} else {
		opts := h.Sandbox
		if opts.Logger == nil {
			opts.Logger = h.log()
		}
		h.sb, err = sandbox.New(ctx, opts)
	}
	if err != nil {
		h.sb = nil
		return nil, fmt.Errorf("%w: python sandbox: %v", ErrUnavailable, err)
	}
	return h.sb, nil
}

// Check builds spec's tools for running calls and starts a trivial sandbox
// when python is among them: a preflight for `submit --local` and workers.
func (h *Host) Check(ctx context.Context, spec *schema.ToolsSpec) error {
	if spec.Python != nil {
		sb, err := h.sandbox(ctx)
		if err != nil {
			return err
		}
		if err := sb.Check(ctx); err != nil {
			return fmt.Errorf("%w: python sandbox: %v", ErrUnavailable, err)
		}
	}
	_, err := h.Set(ctx, spec)
	return err
}

// Set returns the job's tools, built once per spec on this worker (MCP
// servers are asked for their tools once).
func (h *Host) Set(ctx context.Context, spec *schema.ToolsSpec) (*Set, error) {
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	key := string(b)
	h.mu.Lock()
	if s, ok := h.sets[key]; ok {
		h.mu.Unlock()
		return s, nil
	}
	h.mu.Unlock()
	s, err := h.build(ctx, spec)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sets == nil {
		h.sets = map[string]*Set{}
	}
	if old, ok := h.sets[key]; ok {
		return old, nil
	}
	h.sets[key] = s
	return s, nil
}

func (h *Host) build(ctx context.Context, spec *schema.ToolsSpec) (*Set, error) {
	set := &Set{Config: Config(spec)}
	if err := set.Config.Validate(); err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	for _, name := range spec.Names() {
		var t tools.Tool
		switch name {
		case "python":
			t = &pythonTool{host: h, opts: python.Options{Timeout: time.Duration(spec.Python.Timeout),
				KeepErrorLastLine: spec.Python.KeepErrorLastLine, Blocklist: !spec.Python.NoBlocklist}}
		case "search":
			st, err := search.New(search.Config{URL: spec.Search.URL, TopK: spec.Search.TopK, Timeout: time.Duration(spec.Search.Timeout)})
			if err != nil {
				return nil, fmt.Errorf("tools.search: %w", err)
			}
			t = st
		case "mcp":
			cfg, err := MCPConfig(spec)
			if err != nil {
				return nil, err
			}
			lookup := h.LookupEnv
			if lookup == nil {
				lookup = os.LookupEnv
			}
			opts := append([]mcp.Option{mcp.WithLogger(h.log()), mcp.WithLookupEnv(lookup)}, h.MCP...)
			mt, err := mcp.New(cfg, opts...)
			if err != nil {
				return nil, fmt.Errorf("tools.mcp: %w", err)
			}
			t = mt
		}
		set.Tools = append(set.Tools, t)
		if spec.Calling == schema.CallingNative {
			f, ok := t.(tools.Functions)
			if !ok {
				return nil, fmt.Errorf("tools.%s: cannot be offered as a function tool", name)
			}
			fs, err := f.Functions(ctx)
			if err != nil {
				return nil, fmt.Errorf("tools.%s: %w", name, err)
			}
			set.Functions = append(set.Functions, fs...)
			continue
		}
		ins, err := t.Instructions(ctx)
		if err != nil {
			return nil, fmt.Errorf("tools.%s: %w", name, err)
		}
		set.Instructions = append(set.Instructions, ins)
	}
	set.Parsers = set.Tools
	if spec.Calling == schema.CallingNative {
		set.Parsers = []tools.Tool{&functionCalls{set: set}}
		set.Instructions = []string{NativeInstructions}
	}
	return set, nil
}

// NativeInstructions is appended to the first observation with native tool
// calling, where the tools themselves travel as function tools.
const NativeInstructions = "You can call the tools you are given; each result comes back as a tool message. " +
	"Return your final answer as the task asks."

// MCPConfig parses the spec's MCP document.
func MCPConfig(spec *schema.ToolsSpec) (mcp.Config, error) {
	b, err := spec.MCPConfig()
	if err != nil {
		return mcp.Config{}, fmt.Errorf("tools.mcp: %w", err)
	}
	cfg, err := mcp.ParseConfig(b)
	if err != nil {
		return mcp.Config{}, fmt.Errorf("tools.mcp: %w", err)
	}
	return cfg, nil
}

// Config is the wrapper config of a defaulted spec.
func Config(spec *schema.ToolsSpec) toolenv.Config {
	deref := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	c := toolenv.Config{
		ToolReward: deref(spec.ToolReward), ToolSuccessReward: deref(spec.ToolSuccessReward),
		ToolErrorReward: deref(spec.ToolErrorReward), MaxToolUses: schema.DefaultMaxToolUses,
	}
	if spec.MaxToolUses != nil {
		c.MaxToolUses = *spec.MaxToolUses
	}
	return c
}

// ErrClosed means the episode's sessions were closed (the episode ended)
// while an attempt waited for them or opened one.
var ErrClosed = errors.New("the episode's tool sessions are closed")

// Session returns the episode's session of tool (opening it on first use),
// for the caller's use alone until it calls release: an overlapping attempt
// of the same episode waits (or gives up with ctx). The episode is not idle
// while any attempt holds or waits for it.
func (h *Host) Session(ctx context.Context, episodeID string, t tools.Tool) (s tools.Session, release func(), err error) {
	ep := h.join(episodeID)
	select {
	case ep.lock <- struct{}{}:
	default:
		select {
		case ep.lock <- struct{}{}:
		case <-ctx.Done():
			h.leave(ep, false)
			return nil, nil, fmt.Errorf("wait for the episode's tool session: %w", ctx.Err())
		}
	}
	var once sync.Once
	release = func() { once.Do(func() { h.leave(ep, true) }) }
	h.mu.Lock()
	closed, s := ep.closed, ep.sessions[t.Name()]
	h.mu.Unlock()
	switch {
	case closed:
		release()
		return nil, nil, ErrClosed
	case s != nil:
		return s, release, nil
	}
	// Opening holds the episode's lock, so no other attempt opens a second
	// session meanwhile.
	if s, err = t.Open(ctx); err != nil {
		release()
		return nil, nil, err
	}
	h.mu.Lock()
	closed = ep.closed
	if !closed {
		ep.sessions[t.Name()] = s
	}
	h.mu.Unlock()
	if closed {
		// Close ran while the session opened: it is this attempt's to close.
		release()
		return nil, nil, errors.Join(ErrClosed, s.Close())
	}
	return s, release, nil
}

// join counts a user of the episode, creating the episode if needed.
func (h *Host) join(episodeID string) *episode {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions == nil {
		h.sessions = map[string]*episode{}
	}
	ep := h.sessions[episodeID]
	if ep == nil {
		ep = &episode{lock: make(chan struct{}, 1), sessions: map[string]tools.Session{}}
		h.sessions[episodeID] = ep
	}
	ep.users++
	ep.used = time.Now()
	return ep
}

// leave ends a user's hold (held: it had the lock); the last user of an
// episode closed meanwhile closes its sessions.
func (h *Host) leave(ep *episode, held bool) {
	h.mu.Lock()
	ep.users--
	ep.used = time.Now()
	var orphans map[string]tools.Session
	if ep.closed && ep.users == 0 {
		orphans, ep.sessions = ep.sessions, nil
	}
	h.mu.Unlock()
	if held {
		<-ep.lock
	}
	if err := closeSessions(orphans); err != nil {
		h.log().Warn("closing tool sessions of an ended episode", "err", err)
	}
}

func closeSessions(ss map[string]tools.Session) error {
	var errs []error
	for _, s := range ss {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// HasSession reports whether this worker holds an open session of the episode.
func (h *Host) HasSession(episodeID string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	ep := h.sessions[episodeID]
	return ep != nil && len(ep.sessions) > 0
}

// Close closes the episode's sessions on this worker. Sessions an attempt
// is using are closed when it releases them (its call is not cut short),
// so Close does not wait for a call to end.
func (h *Host) Close(episodeID string) error {
	h.mu.Lock()
	ep := h.sessions[episodeID]
	delete(h.sessions, episodeID)
	var ss map[string]tools.Session
	if ep != nil {
		ep.closed = true
		if ep.users == 0 {
			ss, ep.sessions = ep.sessions, nil
		}
	}
	h.mu.Unlock()
	return closeSessions(ss)
}

// Sweep closes the sessions of episodes idle for longer than idle (their
// workflow ended without closing them, or moved to another worker). An
// episode an attempt holds or waits for is never idle.
func (h *Host) Sweep(idle time.Duration) int {
	h.mu.Lock()
	stale := map[string]map[string]tools.Session{}
	for id, ep := range h.sessions {
		if ep.users == 0 && time.Since(ep.used) > idle {
			delete(h.sessions, id)
			ep.closed = true
			stale[id], ep.sessions = ep.sessions, nil
		}
	}
	h.mu.Unlock()
	for id, ss := range stale {
		if err := closeSessions(ss); err != nil {
			h.log().Warn("closing idle tool sessions", "episode", id, "err", err)
		}
	}
	return len(stale)
}

// CloseAll closes every session (worker shutdown).
func (h *Host) CloseAll() {
	h.mu.Lock()
	ids := make([]string, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	for _, id := range ids {
		_ = h.Close(id)
	}
}

// Sessions counts the episodes holding sessions on this worker.
func (h *Host) Sessions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// pythonTool parses and describes without a sandbox; it makes the worker's
// sandbox only when a session is opened.
type pythonTool struct {
	host *Host
	opts python.Options
}

func (p *pythonTool) Name() string                                 { return python.Name }
func (p *pythonTool) Parse(action string) (tools.Call, bool)       { return python.Parse(action) }
func (p *pythonTool) Instructions(context.Context) (string, error) { return python.Instructions, nil }

func (p *pythonTool) Open(ctx context.Context) (tools.Session, error) {
	sb, err := p.host.sandbox(ctx)
	if err != nil {
		return nil, err
	}
	t, err := python.New(sb, p.opts)
	if err != nil {
		return nil, err
	}
	return t.Open(ctx)
}

// functionCalls parses native tool calls, which Generate records in the
// action as Hermes-style blocks (<tool_call>{"name": …, "arguments": {…}}</tool_call>,
// what Qwen and Hermes models generate), and routes each to its tool:
// python(code), search(query), or an MCP tool by name.
type functionCalls struct{ set *Set }

// FunctionCall is the Hermes-style block Generate appends to an action for
// a native tool call.
func FunctionCall(name, arguments string) string {
	if !json.Valid([]byte(arguments)) {
		b, _ := json.Marshal(arguments)
		arguments = string(b)
	}
	return "<tool_call>\n{\"name\": " + quote(name) + ", \"arguments\": " + arguments + "}\n</tool_call>"
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var hermesBlock = regexp.MustCompile(`(?s)<tool_call>\s*(\{.*?\})\s*</tool_call>`)

// SplitFunctionCall splits an action into its text and its first
// Hermes-style call; ok is false when it holds none.
func SplitFunctionCall(action string) (text, name, arguments, raw string, ok bool) {
	m := hermesBlock.FindStringSubmatchIndex(action)
	if m == nil {
		return "", "", "", "", false
	}
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(action[m[2]:m[3]]), &call); err != nil || call.Name == "" {
		return "", "", "", "", false
	}
	args := string(call.Arguments)
	if args == "" {
		args = "{}"
	}
	return strings.TrimSpace(action[:m[0]]), call.Name, args, action[m[0]:m[1]], true
}

func (f *functionCalls) Name() string                                 { return "function" }
func (f *functionCalls) Instructions(context.Context) (string, error) { return NativeInstructions, nil }
func (f *functionCalls) Open(context.Context) (tools.Session, error) {
	return nil, errors.New("toolset: the function-call parser runs no calls")
}

func (f *functionCalls) Parse(action string) (tools.Call, bool) {
	_, name, args, raw, ok := SplitFunctionCall(action)
	if !ok {
		return tools.Call{}, false
	}
	field := map[string]string{python.Name: "code", search.Name: "query"}[name]
	if _, has := f.set.Tool(name); has && field != "" {
		var a map[string]any
		call := tools.Call{Tool: name, Raw: raw, Shown: action[:strings.Index(action, raw)+len(raw)]}
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			call.Err = fmt.Sprintf("[Tool call error: arguments of %s are not a JSON object: %v]", name, err)
		} else if v, ok := a[field].(string); !ok {
			call.Err = fmt.Sprintf("[Tool call error: %s needs a string argument %q]", name, field)
		} else {
			call.Input = v
		}
		return call, true
	}
	if mt, has := f.set.Tool(mcp.ToolName); has {
		// The MCP tool reads the same Hermes form and knows its tools' names.
		if call, ok := mt.Parse(raw); ok {
			call.Raw = raw
			return call, true
		}
	}
	return tools.Call{Tool: f.set.Tools[0].Name(), Raw: raw, Err: fmt.Sprintf("[Tool call error: no tool named %q]", name)}, true
}

// Functions implements tools.Functions.
func (p *pythonTool) Functions(context.Context) ([]tools.Function, error) {
	return []tools.Function{python.Function}, nil
}
