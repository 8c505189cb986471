package toolset_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/toolenv"
	"github.com/quarry-rl/quarry/tools/toolset"
)

func TestFunctionCallRoundTrip(t *testing.T) {
	block := toolset.FunctionCall("python", `{"code": "print(1)"}`)
	text, name, args, raw, ok := toolset.SplitFunctionCall("Let me check.\n" + block)
	if !ok || text != "Let me check." || name != "python" || raw != block {
		t.Fatalf("split: %q %q %q %q %v", text, name, args, raw, ok)
	}
	var a map[string]string
	if err := json.Unmarshal([]byte(args), &a); err != nil || a["code"] != "print(1)" {
		t.Fatalf("arguments %s: %v", args, err)
	}
	// Arguments that are not JSON (a server that passed text through) are
	// quoted so the block stays parseable.
	if _, _, args, _, ok := toolset.SplitFunctionCall(toolset.FunctionCall("python", "print(1)")); !ok || args != `"print(1)"` {
		t.Fatalf("non-JSON arguments: %q %v", args, ok)
	}
	for _, bad := range []string{"no call", "<tool_call>{not json}</tool_call>", `<tool_call>{"arguments": {}}</tool_call>`} {
		if _, _, _, _, ok := toolset.SplitFunctionCall(bad); ok {
			t.Errorf("%q parsed as a call", bad)
		}
	}
}

// With native calling the set offers function tools and parses recorded
// calls into the tool that runs them.
func TestNativeSetParses(t *testing.T) {
	spec := &schema.ToolsSpec{Python: &schema.PythonToolSpec{}, Search: &schema.SearchToolSpec{URL: "http://127.0.0.1:1/retrieve", TopK: 3}, Calling: schema.CallingNative}
	set, err := (&toolset.Host{}).Set(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Functions) != 2 || set.Functions[0].Name != "python" || set.Functions[1].Name != "search" || len(set.Instructions) != 1 {
		t.Fatalf("functions %+v, instructions %d", set.Functions, len(set.Instructions))
	}
	for _, tt := range []struct{ action, tool, input, err string }{
		{toolset.FunctionCall("python", `{"code": "print(2)"}`), "python", "print(2)", ""},
		{"Searching. " + toolset.FunctionCall("search", `{"query": "towns"}`), "search", "towns", ""},
		{toolset.FunctionCall("python", `{"source": "x"}`), "python", "", `needs a string argument "code"`},
		{toolset.FunctionCall("calculator", `{}`), "python", "", `no tool named "calculator"`},
	} {
		call, ok := set.Parse(tt.action)
		if !ok || call.Tool != tt.tool || call.Input != tt.input || (tt.err == "") != (call.Err == "") || (tt.err != "" && !contains(call.Err, tt.err)) {
			t.Errorf("%q: %+v %v", tt.action, call, ok)
		}
	}
	if _, ok := set.Parse("<python>print(1)</python>"); ok {
		t.Error("a text call parsed in native mode")
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// countingTool records how many sessions it opened and how many are open,
// and catches two calls running in one session at once. Open waits for
// gate when it is set, after telling opening.
type countingTool struct {
	opened, open, overlaps atomic.Int64
	opening, gate          chan struct{}
}

type countingSession struct {
	t      *countingTool
	inUse  atomic.Int64
	closed atomic.Bool
	// hold, when set, keeps Execute running until it is closed.
	hold chan struct{}
}

func (c *countingTool) Name() string                                 { return "count" }
func (c *countingTool) Parse(string) (tools.Call, bool)              { return tools.Call{}, false }
func (c *countingTool) Instructions(context.Context) (string, error) { return "", nil }
func (c *countingTool) Open(context.Context) (tools.Session, error) {
	if c.gate != nil {
		c.opening <- struct{}{}
		<-c.gate
	}
	c.opened.Add(1)
	c.open.Add(1)
	return &countingSession{t: c}, nil
}
func (s *countingSession) Execute(context.Context, tools.Call) (tools.Result, error) {
	if s.inUse.Add(1) > 1 {
		s.t.overlaps.Add(1)
	}
	defer s.inUse.Add(-1)
	if s.closed.Load() {
		return tools.Result{}, errors.New("execute on a closed session")
	}
	if s.hold != nil {
		<-s.hold
	}
	runtime.Gosched()
	return tools.Result{}, nil
}
func (s *countingSession) Close() error {
	if !s.closed.Swap(true) {
		s.t.open.Add(-1)
	}
	return nil
}

// A session lives as long as its episode on the host: opened once, reused,
// closed by Close, by the idle sweep (never while busy) and by CloseAll.
func TestHostSessions(t *testing.T) {
	ctx := context.Background()
	h := &toolset.Host{}
	tool := &countingTool{}
	s1, release, err := h.Session(ctx, "e1", tool)
	if err != nil {
		t.Fatal(err)
	}
	release()
	s2, release, _ := h.Session(ctx, "e1", tool)
	release()
	if s1 != s2 || tool.opened.Load() != 1 || !h.HasSession("e1") {
		t.Fatalf("second call of the episode opened a new session (%d opened)", tool.opened.Load())
	}
	if _, release, _ := h.Session(ctx, "e2", tool); release != nil {
		// e2 stays busy: the sweep must not close it.
		if n := h.Sweep(0); n != 1 || h.HasSession("e1") || !h.HasSession("e2") {
			t.Fatalf("sweep closed %d, e1 held %v, e2 held %v", n, h.HasSession("e1"), h.HasSession("e2"))
		}
		release()
	}
	if err := h.Close("e2"); err != nil || h.Sessions() != 0 || tool.open.Load() != 0 {
		t.Fatalf("after Close: %d episodes, %d sessions open, %v", h.Sessions(), tool.open.Load(), err)
	}
	if _, release, err := h.Session(ctx, "e3", tool); err == nil {
		release()
	}
	h.CloseAll()
	if tool.open.Load() != 0 || h.Sessions() != 0 {
		t.Fatalf("CloseAll left %d sessions open", tool.open.Load())
	}
}

// Overlapping attempts of one episode never use its session at the same
// time: while one holds it, another waits, or gives up when its context
// ends; many attempts hammering one episode never overlap (run with -race).
func TestOverlappingAttemptsTakeTurns(t *testing.T) {
	h := &toolset.Host{}
	tool := &countingTool{}
	ctx := context.Background()
	_, release, err := h.Session(ctx, "e1", tool)
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if s, _, err := h.Session(gone, "e1", tool); !errors.Is(err, context.Canceled) {
		t.Fatalf("a second attempt got the session %v while the first held it (err %v)", s, err)
	}
	release()

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				s, release, err := h.Session(ctx, "e1", tool)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Execute(ctx, tools.Call{}); err != nil {
					t.Error(err)
				}
				release()
			}
		})
	}
	wg.Wait()
	if n := tool.overlaps.Load(); n != 0 {
		t.Fatalf("%d calls ran while another used the same session", n)
	}
	if n := tool.opened.Load(); n != 1 {
		t.Fatalf("%d sessions opened for one episode", n)
	}
	h.CloseAll()
	if n := tool.open.Load(); n != 0 {
		t.Fatalf("%d sessions left open", n)
	}
}

// An attempt that finishes does not make the episode idle while another
// attempt waits for or holds its session: the second attempt waits for the
// first, and the sweep spares the episode until the last release.
func TestReleaseKeepsOtherAttemptBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &toolset.Host{}
		tool := &countingTool{}
		ctx := context.Background()
		_, releaseA, err := h.Session(ctx, "e1", tool)
		if err != nil {
			t.Fatal(err)
		}
		type held struct {
			s       tools.Session
			release func()
			err     error
		}
		got := make(chan held, 1)
		go func() {
			s, release, err := h.Session(ctx, "e1", tool)
			got <- held{s, release, err}
		}()
		synctest.Wait()
		if len(got) != 0 {
			t.Fatal("a second attempt got the session while the first held it")
		}
		// Time in the bubble is fake: advancing it is what makes an
		// episode idle for Sweep(0), not a wait for anything.
		time.Sleep(time.Second)
		if n := h.Sweep(0); n != 0 {
			t.Fatalf("the sweep closed %d episodes while attempts held and waited", n)
		}
		releaseA()
		b := <-got
		if b.err != nil {
			t.Fatal(b.err)
		}
		releaseA() // releasing twice changes nothing
		time.Sleep(time.Second)
		if n := h.Sweep(0); n != 0 || tool.open.Load() != 1 {
			t.Fatalf("the sweep closed %d episodes while an attempt held one", n)
		}
		if _, err := b.s.Execute(ctx, tools.Call{}); err != nil {
			t.Fatalf("the holder's session: %v", err)
		}
		b.release()
		time.Sleep(time.Second)
		if n := h.Sweep(0); n != 1 || tool.open.Load() != 0 {
			t.Fatalf("after the last release the sweep closed %d episodes, %d sessions open", n, tool.open.Load())
		}
	})
}

// Close racing an open leaks nothing: the session opened after the episode
// was closed is closed, and the attempts are told — the one that opened it
// and the one waiting behind it.
func TestCloseRacingOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &toolset.Host{}
		tool := &countingTool{opening: make(chan struct{}, 2), gate: make(chan struct{})}
		ctx := context.Background()
		errs := make(chan error, 2)
		for range 2 {
			go func() {
				_, release, err := h.Session(ctx, "e1", tool)
				if err == nil {
					release()
				}
				errs <- err
			}()
		}
		synctest.Wait() // one attempt is in Open, the other waits for the episode
		if len(tool.opening) != 1 {
			t.Fatalf("%d attempts opening at once", len(tool.opening))
		}
		if err := h.Close("e1"); err != nil {
			t.Fatal(err)
		}
		close(tool.gate)
		for range 2 {
			if err := <-errs; !errors.Is(err, toolset.ErrClosed) {
				t.Errorf("an attempt racing Close: %v, want ErrClosed", err)
			}
		}
		if n := tool.open.Load(); n != 0 || tool.opened.Load() != 1 {
			t.Fatalf("%d sessions left open (%d opened)", n, tool.opened.Load())
		}
		if h.Sessions() != 0 {
			t.Fatalf("%d episodes kept", h.Sessions())
		}
	})
}

// Close while a call runs closes the session when the call's attempt
// releases it, never under the running call.
func TestCloseWhileCallRuns(t *testing.T) {
	h := &toolset.Host{}
	tool := &countingTool{}
	ctx := context.Background()
	s, release, err := h.Session(ctx, "e1", tool)
	if err != nil {
		t.Fatal(err)
	}
	cs := s.(*countingSession)
	cs.hold = make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, tools.Call{})
		release()
		done <- err
	}()
	if err := h.Close("e1"); err != nil {
		t.Fatal(err)
	}
	if cs.closed.Load() {
		t.Fatal("Close closed a session under a running call")
	}
	close(cs.hold)
	if err := <-done; err != nil {
		t.Fatalf("the running call: %v", err)
	}
	if tool.open.Load() != 0 {
		t.Fatal("the session stayed open after its last user released it")
	}
}

// The python presets reproduce GEM's python tool: its blocklist is on (a
// blocked call earns tool_reward but no success reward), no_blocklist turns
// it off, and python_tool_no_int_reward_last_line_error keeps only the last
// line of stderr.
func TestPythonPresets(t *testing.T) {
	host := &toolset.Host{Sandbox: sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: 63100, Slots: 1}}
	t.Cleanup(host.CloseAll)
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	step := func(tools, action string) envs.StepResult {
		t.Helper()
		spec, err := schema.ParseJobSpec([]byte("job: presets\nenvs: [{id: game:GuessTheNumber-v0-hard}]\ntasks: 1\npolicy: {kind: openai, openai: {endpoints: [\"http://127.0.0.1:1/v1\"], model: m}}\ntools: " + tools + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		spec = spec.WithDefaults()
		if err := spec.Validate(); err != nil {
			t.Fatal(err)
		}
		set, err := host.Set(context.Background(), spec.Tools)
		if err != nil {
			t.Fatal(err)
		}
		env, err := reg.Make("game:GuessTheNumber-v0-hard", nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := set.Wrap(env)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.Reset(1); err != nil {
			t.Fatal(err)
		}
		call, ok := e.Call(action)
		if !ok {
			t.Fatalf("%s: no call in %q", tools, action)
		}
		tool, _ := set.Tool(call.Tool)
		s, release, err := host.Session(context.Background(), "ep-"+tools, tool)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		res, err := toolenv.Execute(context.Background(), s, call)
		if err != nil {
			t.Fatal(err)
		}
		return e.Apply(call, res)
	}
	const threads = "<python>import threading\nprint('ran')</python>"
	if res := step("{preset: python_tool}", threads); res.Reward != 0.05 ||
		res.Observation != "Code execution result: Execution blocked: Code contains potentially dangerous operations or imports.\n" {
		t.Errorf("python_tool, blocked code: %+v", res)
	}
	if res := step("{preset: python_tool, python: {no_blocklist: true}}", threads); res.Reward != 0.05+0.25 || res.Observation != "Code execution result: ran\n\n" {
		t.Errorf("python_tool with no_blocklist: %+v", res)
	}
	raise := "<python>print('out')\nraise ValueError('boom')</python>"
	if res := step("{preset: python_tool_no_int_reward_last_line_error}", raise); res.Reward != 0 || res.Observation != "Code execution result: out\n\nValueError: boom\n" {
		t.Errorf("python_tool_no_int_reward_last_line_error: %q", res.Observation)
	}
	if res := step("{preset: python_tool_no_int_reward}", raise); !strings.Contains(res.Observation, "Traceback") {
		t.Errorf("python_tool_no_int_reward keeps the traceback: %q", res.Observation)
	}
}

// A python sandbox that could not start once is tried again on the next
// session: the failure is ErrUnavailable (the activity's retried
// ToolUnavailable), and the host does not remember it.
func TestSandboxFailureIsNotRemembered(t *testing.T) {
	dir := sandboxtest.Dir(t)
	blocker := filepath.Join(dir, "base")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil { // the base dir cannot be made under a file
		t.Fatal(err)
	}
	host := &toolset.Host{Sandbox: sandbox.Options{BaseDir: filepath.Join(blocker, "sub"), UIDBase: 63110, Slots: 1}}
	t.Cleanup(host.CloseAll)
	set, err := host.Set(context.Background(), &schema.ToolsSpec{Python: &schema.PythonToolSpec{}})
	if err != nil {
		t.Fatal(err)
	}
	tool, _ := set.Tool("python")
	if _, _, err := host.Session(context.Background(), "e1", tool); !errors.Is(err, toolset.ErrUnavailable) {
		t.Fatalf("session on an unmakeable sandbox: err = %v, want ErrUnavailable", err)
	}
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	s, release, err := host.Session(context.Background(), "e1", tool)
	if err != nil {
		t.Fatalf("session once the sandbox can start: %v", err)
	}
	defer release()
	call, _ := tool.Parse("<python>print(6 * 7)</python>")
	res, err := toolenv.Execute(context.Background(), s, call)
	if err != nil || !strings.Contains(res.Observation, "42") {
		t.Fatalf("call after the retry: %+v, %v", res, err)
	}
}
