package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/quarry-rl/quarry/tools"
)

// session is one episode's connections, one client session per server.
type session struct {
	t     *Tool
	cat   *catalog
	conns map[string]*serverConn // nil value: down, reconnect before the next call
	// homes are the stdio servers' directories for this session
	// (${QUARRY_MCP_HOME}), kept across restarts, removed on Close.
	homes map[string]string
	// restarted marks servers reconnected since their last call: the next
	// observation says their state may be gone.
	restarted map[string]bool
	secrets   secrets
	closed    bool
}

var _ tools.Session = (*session)(nil)

// Execute runs one call. What the agent should see comes back as a Result:
// a malformed call, an unknown tool, a server-flagged error, a JSON-RPC error,
// a timeout, or a connection lost while the call was in flight. A call that
// was sent is never sent again. A Go error means the call could not be made:
// it is marked tools.NotExecuted when nothing reached the server (the server
// could not be reached even after reconnecting).
func (s *session) Execute(ctx context.Context, call tools.Call) (tools.Result, error) {
	if s.closed {
		return tools.Result{}, tools.NotExecuted(errors.New("mcp: execute on a closed session"))
	}
	if call.Tool != ToolName {
		return tools.Result{}, tools.NotExecuted(fmt.Errorf("mcp: call for tool %q", call.Tool))
	}
	if call.Err != "" {
		return tools.Result{Observation: call.Err, Error: true}, nil
	}
	e, ok := s.cat.lookup(call.Name)
	if !ok {
		return tools.Result{Observation: notFound(call.Name, s.cat), Error: true}, nil
	}
	args, msg := argumentsObject([]byte(call.Input))
	if msg != "" {
		return tools.Result{Observation: fmt.Sprintf("Invalid arguments for tool '%s': %s", call.Name, msg), Error: true}, nil
	}

	notice := ""
	for attempt := 0; ; attempt++ {
		sc, err := s.conn(ctx, e.server)
		if err != nil {
			return tools.Result{}, tools.NotExecuted(s.secrets.wrap("mcp: call "+call.Name+": ", err))
		}
		if s.restarted[e.server] {
			delete(s.restarted, e.server)
			notice = s.restartNotice(e.server)
		}
		callCtx, cancel := context.WithTimeout(ctx, s.t.opts.callTimeout)
		res, err := sc.cs.CallTool(callCtx, &gomcp.CallToolParams{Name: e.tool, Arguments: json.RawMessage(args)})
		timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		switch {
		case err == nil:
			text, isErr := formatResult(res, e.wrapResult)
			return s.result(notice+text, isErr), nil
		case errors.Is(err, gomcp.ErrConnectionClosed) && attempt == 0:
			// The SDK refused to send: the connection had already broken.
			// Nothing reached the server, so reconnecting and sending is safe.
			s.drop(e.server)
			continue
		case errors.Is(err, gomcp.ErrConnectionClosed):
			s.drop(e.server)
			return tools.Result{}, tools.NotExecuted(s.secrets.wrap("mcp: call "+call.Name+": ", err))
		case ctx.Err() != nil:
			// The caller gave up; the call may have run.
			return tools.Result{}, fmt.Errorf("mcp: call %s: %w", call.Name, ctx.Err())
		case timedOut:
			r := s.result(fmt.Sprintf("%s%stimed out after %s]", notice, failurePrefix, s.t.opts.callTimeout), true)
			r.TimedOut = true
			return r, nil
		}
		var wire *jsonrpc.Error
		if errors.As(err, &wire) {
			// The server answered with a protocol error (unknown tool,
			// invalid params): the session is fine.
			return s.result(notice+failurePrefix+wire.Message+"]", true), nil
		}
		// The call was sent and its answer lost: it may have run, so it is
		// not sent again; the next call reconnects.
		s.drop(e.server)
		return s.result(notice+failurePrefix+"connection to the server was lost: "+err.Error()+"]", true), nil
	}
}

// result builds a Result with secrets redacted and the observation capped.
func (s *session) result(text string, isErr bool) tools.Result {
	r := tools.Result{Observation: s.secrets.redact(text), Error: isErr}
	if max := s.t.opts.maxObservation; max > 0 && len(r.Observation) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(r.Observation[cut]) {
			cut--
		}
		r.Observation, r.Truncated = r.Observation[:cut], true
	}
	return r
}

// conn returns a live connection to server, reconnecting (with retries) if
// it is down: a dead stdio server is restarted.
func (s *session) conn(ctx context.Context, server string) (*serverConn, error) {
	if sc := s.conns[server]; sc != nil {
		if sc.alive() {
			return sc, nil
		}
		s.drop(server)
	}
	sc, _, err := s.t.connect(ctx, server, false, s.homes[server], &s.secrets)
	if err != nil {
		return nil, err
	}
	s.conns[server] = sc
	s.restarted[server] = true
	return sc, nil
}

// restartNotice heads the first observation after a server was restarted
// (stdio) or reconnected (HTTP) within the episode: whatever it held for the
// episode outside its files may be gone, and the agent must not take an
// empty answer for the episode's state.
func (s *session) restartNotice(server string) string {
	if _, stdio := s.homes[server]; stdio {
		return fmt.Sprintf("[MCP server %s was restarted before this call: state it kept in memory is lost; files in its home directory are kept]\n", server)
	}
	return fmt.Sprintf("[MCP server %s was reconnected with a new session before this call: state it kept for the old session may be lost]\n", server)
}

// drop closes a server's connection (killing a stdio server's processes) so
// the next call reconnects.
func (s *session) drop(server string) {
	if sc := s.conns[server]; sc != nil {
		if err := sc.close(); err != nil {
			s.t.opts.logger.Debug("mcp: close broken connection", "server", server, "err", s.secrets.redact(err.Error()))
		}
		s.conns[server] = nil
	}
}

// Close ends every connection and kills every stdio server with its
// children. It is safe to call more than once.
func (s *session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, name := range sortedKeys(s.conns) {
		if sc := s.conns[name]; sc != nil {
			if err := sc.close(); err != nil && !isExitAfterKill(err) {
				errs = append(errs, s.secrets.wrap("close "+name+": ", err))
			}
		}
	}
	for _, name := range sortedKeys(s.homes) {
		if err := os.RemoveAll(s.homes[name]); err != nil {
			errs = append(errs, fmt.Errorf("remove home of %s: %w", name, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("mcp: %w", errors.Join(errs...))
	}
	return nil
}
