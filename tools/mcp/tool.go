// Package mcp is Quarry's MCP tool: an agent calls the tools of one or more
// Model Context Protocol servers (stdio subprocesses or streamable HTTP
// endpoints, configured in the common mcpServers JSON shape) with GEM's
// <tool_call> format, through the official Go SDK.
//
// It follows GEM's gem/tools/mcp_tool.py for what the agent sees — the
// instructions with the tools' JSON schemas, tool names (prefixed with the
// server name when there are several servers, as fastmcp does), and the
// observation texts — and differs where GEM could repeat side effects: a
// tools/call that was sent is never sent again, whatever happened to it.
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"
	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-rl/quarry/tools"
)

// ToolName is the tools.Tool name of the MCP tool.
const ToolName = "mcp"

// Defaults follow GEM's MCPTool: a 30 s execution timeout and 3 attempts
// at things that may be retried (connecting, initializing, listing tools).
const (
	DefaultCallTimeout     = 30 * time.Second
	DefaultConnectAttempts = 3
	DefaultRetryDelay      = time.Second
	DefaultCloseWait       = 2 * time.Second
)

// Option sets an in-process knob of a Tool.
type Option func(*options)

type options struct {
	callTimeout     time.Duration
	connectAttempts uint
	retryDelay      time.Duration
	closeWait       time.Duration
	maxObservation  int
	logger          *slog.Logger
	lookupEnv       func(string) (string, bool)
	user            *User
	homeBase        string
}

// WithCallTimeout bounds each tools/call (default 30 s, as GEM).
func WithCallTimeout(d time.Duration) Option { return func(o *options) { o.callTimeout = d } }

// WithConnectAttempts sets how many times connecting to a server (start or
// dial, initialize, list tools) is tried before giving up (default 3).
func WithConnectAttempts(n uint) Option { return func(o *options) { o.connectAttempts = n } }

// WithRetryDelay sets the first delay between connection attempts; later
// delays grow exponentially (default 1 s, GEM's delay_between_retries).
func WithRetryDelay(d time.Duration) Option { return func(o *options) { o.retryDelay = d } }

// WithCloseWait sets how long Close lets a stdio server exit after its stdin
// is closed before it is signalled (default 2 s).
func WithCloseWait(d time.Duration) Option { return func(o *options) { o.closeWait = d } }

// WithMaxObservationBytes cuts observations longer than n bytes and marks
// the Result truncated. Zero (the default, as GEM) means no cap.
func WithMaxObservationBytes(n int) Option { return func(o *options) { o.maxObservation = n } }

// WithLogger sets where connection retries are logged (default: discarded).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithLookupEnv sets how ${NAME} references and a stdio server's inherited
// variables are resolved (default os.LookupEnv).
func WithLookupEnv(f func(string) (string, bool)) Option {
	return func(o *options) { o.lookupEnv = f }
}

// Tool is the MCP tool. It is safe for concurrent use; each episode opens
// its own Session.
type Tool struct {
	cfg    Config
	opts   options
	client *gomcp.Client
	// user is who stdio servers run as (nil: the worker's own user);
	// setpriv, when installed, sets no_new_privs for them.
	user    *User
	setpriv string
	// owner names this process in the homes it makes (see stale.go).
	owner string

	mu  sync.Mutex
	cat *catalog // the listed tools, once known
}

var _ tools.Tool = (*Tool)(nil)

// New returns a tool for the servers of cfg. It does no I/O: servers are
// reached by Instructions and Open.
func New(cfg Config, opts ...Option) (*Tool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("mcp tool: %w", err)
	}
	o := options{
		callTimeout:     DefaultCallTimeout,
		connectAttempts: DefaultConnectAttempts,
		retryDelay:      DefaultRetryDelay,
		closeWait:       DefaultCloseWait,
		logger:          slog.New(slog.DiscardHandler),
		lookupEnv:       os.LookupEnv,
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.connectAttempts == 0 {
		o.connectAttempts = 1
	}
	u, err := runAs(o)
	if err != nil {
		return nil, fmt.Errorf("mcp tool: %w", err)
	}
	setpriv, _ := exec.LookPath("setpriv") // util-linux; without it no_new_privs is not set
	t := &Tool{
		cfg:     cfg,
		opts:    o,
		client:  gomcp.NewClient(&gomcp.Implementation{Name: "quarry", Version: "v1"}, nil),
		user:    u,
		setpriv: setpriv,
	}
	if me, ok := self(); ok {
		t.owner = me.String()
		if n, err := sweepHomes(o.homeBase); err != nil {
			o.logger.Warn("mcp: sweep stale server homes", "err", err)
		} else if n > 0 {
			o.logger.Info("mcp: removed server homes of dead workers", "count", n)
		}
	}
	return t, nil
}

// Name returns "mcp".
func (t *Tool) Name() string { return ToolName }

// Parse finds the first <tool_call> block of an action, in GEM's form
// (<tool_name>…</tool_name><arguments>{…}</arguments>) or the Hermes/Qwen
// form ({"name": …, "arguments": {…}}). A malformed block, or once the
// tools are known (after Instructions or Open) an unknown tool name, yields
// a Call with Err set.
func (t *Tool) Parse(action string) (tools.Call, bool) {
	p, ok := parseAction(action)
	if !ok {
		return tools.Call{}, false
	}
	call := tools.Call{Tool: ToolName, Name: p.name, Input: p.args, Raw: p.raw, Err: p.err}
	if call.Err == "" {
		if cat := t.cached(); cat != nil {
			if _, ok := cat.lookup(call.Name); !ok {
				call.Err = notFound(call.Name, cat)
			}
		}
	}
	return call, true
}

func notFound(name string, cat *catalog) string {
	return fmt.Sprintf("Tool '%s' not found. Available tools: %s", name, cat.names())
}

// Instructions is GEM's tool-use instructions with every listed tool's JSON
// schema. The first call connects to the servers to list their tools; the
// list is then kept for the Tool's lifetime.
func (t *Tool) Instructions(ctx context.Context) (string, error) {
	cat, err := t.catalog(ctx)
	if err != nil {
		return "", err
	}
	return cat.instructions(), nil
}

func (t *Tool) cached() *catalog {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cat
}

// catalog returns the listed tools, connecting to list them if needed.
func (t *Tool) catalog(ctx context.Context) (*catalog, error) {
	if cat := t.cached(); cat != nil {
		return cat, nil
	}
	s, err := t.open(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil {
		t.opts.logger.Debug("mcp: close listing session", "err", err)
	}
	return s.cat, nil
}

// Open connects to every server for one episode (starting stdio servers).
func (t *Tool) Open(ctx context.Context) (tools.Session, error) {
	return t.open(ctx)
}

func (t *Tool) open(ctx context.Context) (*session, error) {
	s := &session{t: t, conns: map[string]*serverConn{}, homes: map[string]string{}, restarted: map[string]bool{}, cat: t.cached()}
	list := s.cat == nil
	listed := map[string][]listedTool{}
	for _, name := range sortedKeys(t.cfg.Servers) {
		if t.cfg.Servers[name].stdio() {
			home, err := t.makeHome(name)
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("mcp: %w", err)
			}
			s.homes[name] = home
		}
		sc, lt, err := t.connect(ctx, name, list, s.homes[name], &s.secrets)
		if err != nil {
			s.Close()
			return nil, s.secrets.wrap("mcp: ", err)
		}
		s.conns[name] = sc
		listed[name] = lt
	}
	if list {
		cat, err := newCatalog(listed, len(t.cfg.Servers) > 1)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("mcp: %w", err)
		}
		t.mu.Lock()
		if t.cat == nil {
			t.cat = cat
		}
		s.cat = t.cat
		t.mu.Unlock()
	}
	return s, nil
}

// connect dials a server, retrying with backoff: nothing is sent before the
// handshake succeeds except initialize and tools/list, which have no side
// effects.
func (t *Tool) connect(ctx context.Context, name string, list bool, home string, sc *secrets) (*serverConn, []listedTool, error) {
	type dialed struct {
		conn   *serverConn
		listed []listedTool
	}
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = t.opts.retryDelay
	b.MaxInterval = 10 * t.opts.retryDelay
	attempt := 0
	d, err := backoff.Retry(ctx, func() (dialed, error) {
		attempt++
		conn, listed, err := t.dial(ctx, name, list, home, sc)
		if err != nil {
			var ce configError
			if errors.As(err, &ce) {
				return dialed{}, backoff.Permanent(err)
			}
			return dialed{}, err
		}
		return dialed{conn, listed}, nil
	},
		backoff.WithBackOff(b),
		backoff.WithMaxTries(t.opts.connectAttempts),
		backoff.WithMaxElapsedTime(0),
		backoff.WithNotify(func(err error, next time.Duration) {
			t.opts.logger.Warn("mcp: connect failed, retrying", "server", name,
				"attempt", attempt, "next", next, "err", sc.redact(err.Error()))
		}))
	if err != nil {
		return nil, nil, fmt.Errorf("server %s (%d attempts): %w", name, attempt, err)
	}
	return d.conn, d.listed, nil
}

// Functions implements tools.Functions: every listed tool as an OpenAI
// function tool, named as the agent calls it.
func (t *Tool) Functions(ctx context.Context) ([]tools.Function, error) {
	c, err := t.catalog(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]tools.Function, 0, len(c.entries))
	for _, e := range c.entries {
		var def struct {
			Function tools.Function `json:"function"`
		}
		if err := json.Unmarshal([]byte(e.funcDef), &def); err != nil {
			return nil, fmt.Errorf("mcp tool %s: %w", e.name, err)
		}
		out = append(out, def.Function)
	}
	return out, nil
}
