package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverConn is one live client session with one server.
type serverConn struct {
	cs     *gomcp.ClientSession
	cmd    *exec.Cmd // stdio only
	done   chan struct{}
	stderr *tailBuffer
	raw    *rawSchemas
	once   sync.Once
}

// alive reports whether the session has not ended (a stdio server that
// exited, a closed connection).
func (sc *serverConn) alive() bool {
	select {
	case <-sc.done:
		return false
	default:
		return true
	}
}

// close ends the session and, for stdio, the server's whole process group.
func (sc *serverConn) close() error {
	var err error
	sc.once.Do(func() {
		if sc.cs != nil {
			err = sc.cs.Close()
		}
		if sc.cmd != nil && sc.cmd.Process != nil {
			killGroup(sc.cmd.Process.Pid)
		}
	})
	return err
}

// configError is a dial failure that retrying cannot fix.
type configError struct{ err error }

func (e configError) Error() string { return e.err.Error() }
func (e configError) Unwrap() error { return e.err }

// dial connects to one server and runs the MCP handshake; with list it also
// lists the server's tools. A stdio server runs in home. Secrets resolved
// for the connection are added to sc.
func (t *Tool) dial(ctx context.Context, name string, list bool, home string, sc *secrets) (*serverConn, []listedTool, error) {
	srv := t.cfg.Servers[name]
	raw := &rawSchemas{}
	conn := &serverConn{done: make(chan struct{}), raw: raw}
	var transport gomcp.Transport
	if srv.stdio() {
		cmd, stderr, err := t.command(name, srv, home, sc)
		if err != nil {
			return nil, nil, configError{err}
		}
		conn.cmd, conn.stderr = cmd, stderr
		transport = spyTransport{
			Transport: &gomcp.CommandTransport{Command: cmd, TerminateDuration: t.opts.closeWait},
			raw:       raw,
		}
	} else {
		headers := make(map[string]string, len(srv.Headers))
		for k, v := range srv.Headers {
			x, err := expand(v, t.opts.lookupEnv, sc)
			if err != nil {
				return nil, nil, configError{fmt.Errorf("mcpServers.%s.headers.%s: %w", name, k, err)}
			}
			headers[k] = x
		}
		transport = &gomcp.StreamableClientTransport{
			Endpoint: srv.URL,
			HTTPClient: &http.Client{Transport: &headerTransport{
				headers: headers,
				base:    &spyRoundTripper{base: http.DefaultTransport, raw: raw},
			}},
			DisableStandaloneSSE: true, // nothing here listens for server notifications
		}
	}
	cs, err := t.client.Connect(ctx, transport, nil)
	if err != nil {
		conn.close()
		if errors.Is(err, exec.ErrNotFound) {
			err = configError{err}
		}
		return nil, nil, fmt.Errorf("connect to %s: %w%s", name, err, conn.stderrTail())
	}
	conn.cs = cs
	go func() {
		_ = cs.Wait()
		close(conn.done)
	}()
	if !list {
		return conn, nil, nil
	}
	var listed []listedTool
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			conn.close()
			return nil, nil, fmt.Errorf("list tools of %s: %w%s", name, err, conn.stderrTail())
		}
		listed = append(listed, listedTool{tool: tool, rawSchema: raw.schema(tool.Name)})
	}
	return conn, listed, nil
}

func (sc *serverConn) stderrTail() string {
	if sc.stderr == nil {
		return ""
	}
	if s := strings.TrimSpace(sc.stderr.String()); s != "" {
		return "; server stderr: " + s
	}
	return ""
}

// command builds a stdio server's process (see isolation.go): its argv and
// environment, its home as working directory unless cwd says otherwise, its
// user, its own process group (so Close can kill its children), and stderr
// kept for error messages.
func (t *Tool) command(name string, srv Server, home string, sc *secrets) (*exec.Cmd, *tailBuffer, error) {
	argv, command, err := t.argv(name, srv, home)
	if err != nil {
		return nil, nil, err
	}
	env, err := t.serverEnv(name, srv, command, home, sc)
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = home
	if srv.Cwd != "" {
		cmd.Dir = expandHome(srv.Cwd, home)
	}
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	setProcAttr(cmd, t.user)
	return cmd, stderr, nil
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(req)
}

// rawSchemas keeps the input schemas of a tools/list response as the server
// sent them: the SDK decodes them into maps, which lose the key order GEM's
// prompt preserves.
type rawSchemas struct {
	mu      sync.Mutex
	pending map[any]bool
	schemas map[string]json.RawMessage
	// lastResult is the last tools/list result as received (for the golden
	// file of the tests).
	lastResult json.RawMessage
}

func (r *rawSchemas) expect(id jsonrpc.ID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[any]bool{}
	}
	r.pending[id.Raw()] = true
}

func (r *rawSchemas) capture(resp *jsonrpc.Response) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.pending[resp.ID.Raw()] {
		return
	}
	delete(r.pending, resp.ID.Raw())
	var res struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if resp.Error != nil || json.Unmarshal(resp.Result, &res) != nil {
		return
	}
	r.lastResult = resp.Result
	if r.schemas == nil {
		r.schemas = map[string]json.RawMessage{}
	}
	for _, t := range res.Tools {
		r.schemas[t.Name] = t.InputSchema
	}
}

func (r *rawSchemas) schema(name string) json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.schemas[name]
}

// inspect records tools/list requests and captures their responses.
func (r *rawSchemas) inspect(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() && m.Method == "tools/list" {
			r.expect(m.ID)
		}
	case *jsonrpc.Response:
		r.capture(m)
	}
}

// spyTransport wraps a stdio transport's connection to see raw messages.
// (A stdio client connection has no optional methods the SDK looks for, so
// wrapping it hides nothing; HTTP is spied on at the RoundTripper instead.)
type spyTransport struct {
	gomcp.Transport
	raw *rawSchemas
}

func (t spyTransport) Connect(ctx context.Context) (gomcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &spyConn{Connection: c, raw: t.raw}, nil
}

type spyConn struct {
	gomcp.Connection
	raw *rawSchemas
}

func (c *spyConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.raw.inspect(msg)
	return c.Connection.Write(ctx, msg)
}

func (c *spyConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.raw.inspect(msg)
	}
	return msg, err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// isExitAfterKill reports a stdio server's own exit status (or the signal
// that ended it) as returned by Close: the server is gone, which is what
// closing wanted.
func isExitAfterKill(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}
