package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The Go SDK test server runs in-process behind httptest, or as this test
// binary re-executed with serverModeEnv set (stdio).
const (
	serverModeEnv = "QUARRY_MCP_TEST_SERVER"
	countFileEnv  = "QUARRY_MCP_COUNT_FILE"
)

// serverBinary is a copy of this test binary that the unprivileged user
// stdio servers run as may execute (go test builds it in a directory only
// its owner can enter).
var serverBinary string

func TestMain(m *testing.M) {
	if os.Getenv(serverModeEnv) == "stdio" {
		s := newGoServer(nil)
		if err := s.Run(context.Background(), &gomcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	dir, err := copyBinary()
	if err != nil {
		fmt.Fprintln(os.Stderr, "copy the test binary:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	npm.Close()
	os.Exit(code)
}

func copyBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "quarry-mcp-test-")
	if err != nil {
		return "", err
	}
	serverBinary = filepath.Join(dir, "server")
	data, err := os.ReadFile(exe)
	if err == nil {
		err = os.WriteFile(serverBinary, data, 0o755)
	}
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	return dir, err
}

// sharedDir is a temporary directory a stdio server, running as another
// user, may write in.
func sharedDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "quarry-mcp-shared-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

type (
	echoIn struct {
		Text string `json:"text" jsonschema:"what to echo"`
	}
	addIn struct {
		A int `json:"a" jsonschema:"first addend"`
		B int `json:"b" jsonschema:"second addend"`
	}
	addOut struct {
		Sum int `json:"sum"`
	}
	slowIn struct {
		MS int `json:"ms"`
	}
	envIn struct {
		Name string `json:"name"`
	}
	noIn struct{}
)

func text(s string) *gomcp.CallToolResult {
	return &gomcp.CallToolResult{Content: []gomcp.Content{&gomcp.TextContent{Text: s}}}
}

// newGoServer is the Go SDK server the tests call. count, when not nil,
// counts invocations of the side-effecting tools (slow, crash); a stdio
// server counts into the file named by countFileEnv instead.
func newGoServer(count *atomic.Int64) *gomcp.Server {
	bump := func() {
		if count != nil {
			count.Add(1)
		}
		if path := os.Getenv(countFileEnv); path != "" {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.Write([]byte("x"))
				f.Close()
			}
		}
	}
	s := gomcp.NewServer(&gomcp.Implementation{Name: "quarry-test", Version: "v1"}, nil)
	gomcp.AddTool(s, &gomcp.Tool{Name: "echo", Description: "Echoes the text back"},
		func(_ context.Context, _ *gomcp.CallToolRequest, in echoIn) (*gomcp.CallToolResult, any, error) {
			return text("echo: " + in.Text), nil, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "add", Description: "Adds two integers"},
		func(_ context.Context, _ *gomcp.CallToolRequest, in addIn) (*gomcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "fail", Description: "Always fails"},
		func(context.Context, *gomcp.CallToolRequest, noIn) (*gomcp.CallToolResult, any, error) {
			return nil, nil, errors.New("the tool failed on purpose")
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "slow", Description: "Counts an invocation, then sleeps ms milliseconds"},
		func(_ context.Context, _ *gomcp.CallToolRequest, in slowIn) (*gomcp.CallToolResult, any, error) {
			bump()
			time.Sleep(time.Duration(in.MS) * time.Millisecond) // deliberately deaf to cancellation
			return text("done"), nil, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "crash", Description: "Counts an invocation, then exits without answering"},
		func(context.Context, *gomcp.CallToolRequest, noIn) (*gomcp.CallToolResult, any, error) {
			bump()
			os.Exit(3)
			return nil, nil, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "pid", Description: "The server's process id"},
		func(context.Context, *gomcp.CallToolRequest, noIn) (*gomcp.CallToolResult, any, error) {
			return text(strconv.Itoa(os.Getpid())), nil, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "spawn", Description: "Starts a long sleep child; returns both pids"},
		func(context.Context, *gomcp.CallToolRequest, noIn) (*gomcp.CallToolResult, any, error) {
			cmd := exec.Command("sleep", "300")
			if err := cmd.Start(); err != nil {
				return nil, nil, err
			}
			go cmd.Wait()
			return text(fmt.Sprintf("%d %d", os.Getpid(), cmd.Process.Pid)), nil, nil
		})
	gomcp.AddTool(s, &gomcp.Tool{Name: "env", Description: "An environment variable of the server"},
		func(_ context.Context, _ *gomcp.CallToolRequest, in envIn) (*gomcp.CallToolResult, any, error) {
			v, ok := os.LookupEnv(in.Name)
			if !ok {
				return text("unset"), nil, nil
			}
			return text("value=" + v), nil, nil
		})
	return s
}

// goHTTPServer serves newGoServer over streamable HTTP on 127.0.0.1 and
// records the Authorization header of each request.
type goHTTPServer struct {
	*httptest.Server
	count atomic.Int64
	mu    sync.Mutex
	auth  []string
	// failFirst makes the first n requests fail with 503 (connect retries).
	failFirst atomic.Int64
	// handler serves MCP; forget replaces it, so the server no longer knows
	// the sessions it had (as after a restart).
	handler atomic.Pointer[gomcp.StreamableHTTPHandler]
	server  *gomcp.Server
}

func (g *goHTTPServer) forget() {
	g.handler.Store(gomcp.NewStreamableHTTPHandler(func(*http.Request) *gomcp.Server { return g.server }, nil))
}

func startGoHTTP(t testing.TB) *goHTTPServer {
	t.Helper()
	g := &goHTTPServer{}
	g.server = newGoServer(&g.count)
	g.forget()
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.auth = append(g.auth, r.Header.Get("Authorization"))
		g.mu.Unlock()
		if g.failFirst.Add(-1) >= 0 {
			http.Error(w, "not yet", http.StatusServiceUnavailable)
			return
		}
		g.handler.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(g.Close)
	return g
}

func (g *goHTTPServer) authHeaders() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.auth...)
}

// goStdioServer is a Server that runs this test binary as the stdio server.
func goStdioServer(t testing.TB, env map[string]string) Server {
	t.Helper()
	e := map[string]string{serverModeEnv: "stdio"}
	for k, v := range env {
		e[k] = v
	}
	return Server{Command: serverBinary, Env: e}
}

// processGone reports whether pid has exited (a zombie counts as exited: it
// runs nothing and only waits to be reaped).
func processGone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return true
	}
	state := s[i+2]
	return state == 'Z' || state == 'X'
}

// waitGone waits up to 5 s for pid to exit.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running after Close", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
