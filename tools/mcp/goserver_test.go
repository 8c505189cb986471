package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/tools"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newTool(t testing.TB, cfg Config, opts ...Option) *Tool {
	t.Helper()
	opts = append([]Option{WithRetryDelay(20 * time.Millisecond)}, opts...)
	tool, err := New(cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func openT(t *testing.T, tool *Tool) tools.Session {
	t.Helper()
	s, err := tool.Open(ctxT(t))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// run parses action with tool and executes it in s.
func run(t *testing.T, tool *Tool, s tools.Session, action string) tools.Result {
	t.Helper()
	call, ok := tool.Parse(action)
	if !ok {
		t.Fatalf("Parse(%q): no call", action)
	}
	res, err := s.Execute(ctxT(t), call)
	if err != nil {
		t.Fatalf("Execute(%q): %v", action, err)
	}
	return res
}

func gemCall(name, args string) string {
	return "<tool_call><tool_name>" + name + "</tool_name><arguments>" + args + "</arguments></tool_call>"
}

// TestGoServer runs the same calls against the Go SDK server over streamable
// HTTP and over stdio.
func TestGoServer(t *testing.T) {
	transports := map[string]func(t *testing.T) Server{
		"http":  func(t *testing.T) Server { return Server{URL: startGoHTTP(t).URL} },
		"stdio": func(t *testing.T) Server { return goStdioServer(t, nil) },
	}
	for name, server := range transports {
		t.Run(name, func(t *testing.T) {
			tool := newTool(t, Config{Servers: map[string]Server{"go": server(t)}})
			instr, err := tool.Instructions(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"# Tool-Use Instructions\n",
				`{"type": "function", "function": {"name": "add", "description": "Adds two integers", "parameters": {"type": "object", "properties": {"a": {"type": "integer", "description": "first addend"}, "b": {"type": "integer", "description": "second addend"}}, "required": ["a", "b"], "additionalProperties": false}}}`,
				"\n</tools>",
			} {
				if !strings.Contains(instr, want) {
					t.Errorf("instructions lack %q:\n%s", want, instr)
				}
			}
			// Sorted by name, as GEM lists them.
			if i, j := strings.Index(instr, `"name": "add"`), strings.Index(instr, `"name": "echo"`); i < 0 || j < i {
				t.Errorf("tools not sorted: add at %d, echo at %d", i, j)
			}
			s := openT(t, tool)
			cases := []struct {
				action, want string
				isErr        bool
			}{
				{gemCall("echo", `{"text": "héllo"}`), "echo: héllo", false},
				{`<tool_call>{"name": "echo", "arguments": {"text": "hermes"}}</tool_call>`, "echo: hermes", false},
				{gemCall("add", `{"a": 2, "b": 40}`), `{"sum": 42}`, false},
				{gemCall("fail", `{}`), "[Tool execution error: the tool failed on purpose]", true},
				{gemCall("nope", `{}`), "Tool 'nope' not found. Available tools: add, crash, echo, env, fail, pid, slow, spawn", true},
				{gemCall("echo", `{"text": }`), "Invalid arguments for tool 'echo': invalid JSON: invalid character '}' looking for beginning of value", true},
				{gemCall("add", `{"a": "x", "b": 1}`), "[Tool execution error: ", true},
			}
			for _, c := range cases {
				res := run(t, tool, s, c.action)
				if !strings.HasPrefix(res.Observation, c.want) || res.Error != c.isErr {
					t.Errorf("%s:\n got %q (error %v)\nwant %q (error %v)", c.action, res.Observation, res.Error, c.want, c.isErr)
				}
			}
		})
	}
}

// TestHeadersAndSecrets: a header referencing an environment variable is
// resolved on the worker, reaches the server, and never shows in errors.
func TestHeadersAndSecrets(t *testing.T) {
	g := startGoHTTP(t)
	env := map[string]string{"QUARRY_TEST_TOKEN": "s3cret-token-value"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg := Config{Servers: map[string]Server{"go": {URL: g.URL, Headers: map[string]string{"Authorization": "Bearer ${QUARRY_TEST_TOKEN}"}}}}
	tool := newTool(t, cfg, WithLookupEnv(lookup))
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("echo", `{"text": "a s3cret-token-value b"}`)); res.Observation != "echo: a ${QUARRY_TEST_TOKEN} b" {
		t.Errorf("secret not redacted from the observation: %q", res.Observation)
	}
	auth := g.authHeaders()
	if len(auth) == 0 || auth[0] != "Bearer s3cret-token-value" {
		t.Errorf("Authorization headers seen by the server: %q", auth)
	}

	// A missing variable fails at once (no retries), naming the field, not a value.
	delete(env, "QUARRY_TEST_TOKEN")
	tool = newTool(t, cfg, WithLookupEnv(lookup), WithRetryDelay(time.Hour))
	_, err := tool.Open(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), "mcpServers.go.headers.Authorization: environment variable QUARRY_TEST_TOKEN is not set") {
		t.Fatalf("open with a missing variable: %v", err)
	}
}

// TestStdioEnv: a stdio server sees PATH, HOME and TMPDIR plus its
// configured env, with references resolved; none of the worker's variables.
func TestStdioEnv(t *testing.T) {
	env := map[string]string{"PATH": os.Getenv("PATH"), "WORKER_SECRET": "worker-only-value", "API_KEY": "abcdef123456", "USER": "root"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv := goStdioServer(t, map[string]string{"SERVER_KEY": "${API_KEY}", "DATA": "${QUARRY_MCP_HOME}/data"})
	tool := newTool(t, Config{Servers: map[string]Server{"go": srv}}, WithLookupEnv(lookup))
	s := openT(t, tool)
	home := s.(*session).homes["go"]
	for _, c := range []struct{ name, want string }{
		{"SERVER_KEY", "value=${API_KEY}"}, // resolved on the way in, redacted on the way out
		{"DATA", "value=" + home + "/data"},
		{"HOME", "value=" + home},
		{"TMPDIR", "value=" + home},
		{"PATH", "value=" + filepath.Dir(serverBinary) + ":/usr/local/bin:/usr/bin:/bin"},
		{"WORKER_SECRET", "unset"},
		{"USER", "unset"},
		{"LOGNAME", "unset"},
	} {
		if res := run(t, tool, s, gemCall("env", `{"name": "`+c.name+`"}`)); res.Observation != c.want {
			t.Errorf("env %s: got %q, want %q", c.name, res.Observation, c.want)
		}
	}
}

// TestCloseKillsProcessTree: Close ends a stdio server and every process it
// started, even one that would outlive it.
func TestCloseKillsProcessTree(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, nil)}})
	s, err := tool.Open(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	res := run(t, tool, s, gemCall("spawn", `{}`))
	var server, child int
	if _, err := fmt.Sscan(res.Observation, &server, &child); err != nil {
		t.Fatalf("spawn: %q: %v", res.Observation, err)
	}
	if processGone(server) || processGone(child) {
		t.Fatalf("server %d or child %d not running before Close", server, child)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	waitGone(t, server)
	waitGone(t, child)
	if err := s.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := s.Execute(ctxT(t), tools.Call{Tool: ToolName, Name: "echo", Input: "{}"}); !tools.IsNotExecuted(err) {
		t.Fatalf("execute after close: %v, want a NotExecuted error", err)
	}
}

// TestTimeoutNeverResent: a call that times out becomes an error
// observation and is not sent again; the session stays usable.
func TestTimeoutNeverResent(t *testing.T) {
	t.Run("http", func(t *testing.T) {
		g := startGoHTTP(t)
		tool := newTool(t, Config{Servers: map[string]Server{"go": {URL: g.URL}}}, WithCallTimeout(200*time.Millisecond))
		s := openT(t, tool)
		res := run(t, tool, s, gemCall("slow", `{"ms": 1500}`))
		if !res.TimedOut || !res.Error || res.Observation != "[Tool execution failed: timed out after 200ms]" {
			t.Fatalf("slow call: %+v", res)
		}
		time.Sleep(1500 * time.Millisecond) // let any re-sent call arrive
		if n := g.count.Load(); n != 1 {
			t.Fatalf("slow tool ran %d times, want 1", n)
		}
		if res := run(t, tool, s, gemCall("echo", `{"text": "after"}`)); res.Observation != "echo: after" {
			t.Fatalf("call after a timeout: %+v", res)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		countFile := filepath.Join(sharedDir(t), "count")
		tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, map[string]string{countFileEnv: countFile})}},
			WithCallTimeout(200*time.Millisecond))
		s := openT(t, tool)
		res := run(t, tool, s, gemCall("slow", `{"ms": 1500}`))
		if !res.TimedOut || !res.Error {
			t.Fatalf("slow call: %+v", res)
		}
		time.Sleep(1500 * time.Millisecond)
		if n := countOf(t, countFile); n != 1 {
			t.Fatalf("slow tool ran %d times, want 1", n)
		}
	})
}

// TestLostConnectionNeverResent: a server that dies while handling a call
// yields an error observation, the call is not re-sent, and the next call
// runs on a restarted server.
func TestLostConnectionNeverResent(t *testing.T) {
	countFile := filepath.Join(sharedDir(t), "count")
	tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, map[string]string{countFileEnv: countFile})}})
	s := openT(t, tool)
	first := run(t, tool, s, gemCall("pid", `{}`)).Observation
	res := run(t, tool, s, gemCall("crash", `{}`))
	if !res.Error || !strings.HasPrefix(res.Observation, "[Tool execution failed: connection to the server was lost") {
		t.Fatalf("crash: %+v", res)
	}
	if n := countOf(t, countFile); n != 1 {
		t.Fatalf("crash ran %d times, want 1", n)
	}
	second := run(t, tool, s, gemCall("pid", `{}`)).Observation
	if second == first {
		t.Fatalf("server pid %s unchanged: not restarted", second)
	}
	if n := countOf(t, countFile); n != 1 {
		t.Fatalf("crash ran %d times after reconnecting, want 1", n)
	}
}

// TestReconnectWhenDown: a server that died between calls is restarted and
// the call sent, since it cannot have reached the dead one.
func TestReconnectWhenDown(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"go": goStdioServer(t, nil)}})
	s := openT(t, tool)
	pid, err := strconv.Atoi(run(t, tool, s, gemCall("pid", `{}`)).Observation)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDown(t, s, "go")
	res := run(t, tool, s, gemCall("echo", `{"text": "again"}`))
	if res.Observation != "[MCP server go was restarted before this call: state it kept in memory is lost; files in its home directory are kept]\necho: again" {
		t.Fatalf("call after the server died: %+v", res)
	}
	if res := run(t, tool, s, gemCall("echo", `{"text": "later"}`)); res.Observation != "echo: later" {
		t.Fatalf("the call after that repeats the notice: %+v", res)
	}
}

// TestUnreachableIsNotExecuted: when the server cannot be restarted, Execute
// returns a Go error marked NotExecuted, so the caller may retry the call.
func TestUnreachableIsNotExecuted(t *testing.T) {
	dir, exe := sharedDir(t), serverBinary
	// Starts once; every later start fails.
	script := `if [ -e "$MARK" ]; then echo "refusing to start again" >&2; exit 1; fi; touch "$MARK"; exec "$EXE"`
	srv := Server{Command: "/bin/sh", Args: []string{"-c", script},
		Env: map[string]string{serverModeEnv: "stdio", "MARK": filepath.Join(dir, "started"), "EXE": exe}}
	tool := newTool(t, Config{Servers: map[string]Server{"go": srv}})
	s := openT(t, tool)
	pid, err := strconv.Atoi(run(t, tool, s, gemCall("pid", `{}`)).Observation)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	waitDown(t, s, "go")
	call, _ := tool.Parse(gemCall("echo", `{"text": "x"}`))
	res, err := s.Execute(ctxT(t), call)
	if !tools.IsNotExecuted(err) {
		t.Fatalf("execute with the server down: %+v, %v, want NotExecuted", res, err)
	}
	if !strings.Contains(err.Error(), "3 attempts") || !strings.Contains(err.Error(), "refusing to start again") {
		t.Errorf("error should tell the attempts and the server's stderr: %v", err)
	}
}

// TestConnectRetries: connecting retries with backoff, up to the limit.
func TestConnectRetries(t *testing.T) {
	g := startGoHTTP(t)
	g.failFirst.Store(2)
	tool := newTool(t, Config{Servers: map[string]Server{"go": {URL: g.URL}}}, WithConnectAttempts(3))
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("echo", `{"text": "ok"}`)); res.Observation != "echo: ok" {
		t.Fatalf("after retries: %+v", res)
	}

	g.failFirst.Store(5)
	tool = newTool(t, Config{Servers: map[string]Server{"go": {URL: g.URL}}}, WithConnectAttempts(2))
	if _, err := tool.Open(ctxT(t)); err == nil || !strings.Contains(err.Error(), "2 attempts") {
		t.Fatalf("open against a failing server: %v", err)
	}
}

// TestMultiServer: with several servers, tools are "<server>_<tool>" and
// descriptions "[server] …", and each call reaches its own server.
func TestMultiServer(t *testing.T) {
	a, b := startGoHTTP(t), startGoHTTP(t)
	tool := newTool(t, Config{Servers: map[string]Server{"alpha": {URL: a.URL}, "beta": {URL: b.URL}}})
	instr, err := tool.Instructions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "alpha_echo", "description": "[alpha] Echoes the text back"`, `"name": "beta_slow"`} {
		if !strings.Contains(instr, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	if _, ok := tool.Parse(gemCall("echo", "{}")); ok {
		if c, _ := tool.Parse(gemCall("echo", "{}")); c.Err == "" {
			t.Errorf("unprefixed name accepted with several servers")
		}
	}
	s := openT(t, tool)
	run(t, tool, s, gemCall("beta_slow", `{"ms": 1}`))
	if a.count.Load() != 0 || b.count.Load() != 1 {
		t.Fatalf("counts alpha=%d beta=%d, want 0 and 1", a.count.Load(), b.count.Load())
	}
}

func countOf(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return len(data)
}

// waitDown waits until the session has seen its connection to server end.
// (Between a server's death and the client reading EOF there is a window in
// which a call is written and then lost: that call may count as executed, so
// it becomes an error observation rather than a resend.)
func waitDown(t *testing.T, s tools.Session, server string) {
	t.Helper()
	select {
	case <-s.(*session).conns[server].done:
	case <-time.After(5 * time.Second):
		t.Fatalf("session did not notice server %s ended", server)
	}
}

// TestHTTPReconnectSaysSo: a URL server that lost the episode's MCP session
// (it restarted) is reconnected with a new session, and the observation says
// its state for the old one may be lost.
func TestHTTPReconnectSaysSo(t *testing.T) {
	g := startGoHTTP(t)
	tool := newTool(t, Config{Servers: map[string]Server{"go": {URL: g.URL}}})
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("echo", `{"text": "one"}`)); res.Observation != "echo: one" {
		t.Fatalf("first call: %+v", res)
	}
	g.forget()
	// The call that finds its session gone is an error observation (never
	// re-sent); the next one runs on a new session and says so.
	if res := run(t, tool, s, gemCall("echo", `{"text": "two"}`)); !res.Error || !strings.Contains(res.Observation, "session not found") {
		t.Fatalf("call on the forgotten session: %+v", res)
	}
	res := run(t, tool, s, gemCall("echo", `{"text": "three"}`))
	if res.Observation != "[MCP server go was reconnected with a new session before this call: state it kept for the old session may be lost]\necho: three" {
		t.Fatalf("call after reconnecting: %+v", res)
	}
}
