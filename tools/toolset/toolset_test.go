package toolset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
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

// countingTool records how many sessions it opened and how many are open.
type countingTool struct{ opened, open int }

type countingSession struct{ t *countingTool }

func (c *countingTool) Name() string                                 { return "count" }
func (c *countingTool) Parse(string) (tools.Call, bool)              { return tools.Call{}, false }
func (c *countingTool) Instructions(context.Context) (string, error) { return "", nil }
func (c *countingTool) Open(context.Context) (tools.Session, error) {
	c.opened++
	c.open++
	return &countingSession{c}, nil
}
func (s *countingSession) Execute(context.Context, tools.Call) (tools.Result, error) {
	return tools.Result{}, nil
}
func (s *countingSession) Close() error { s.t.open--; return nil }

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
	if s1 != s2 || tool.opened != 1 || !h.HasSession("e1") {
		t.Fatalf("second call of the episode opened a new session (%d opened)", tool.opened)
	}
	if _, release, _ := h.Session(ctx, "e2", tool); release != nil {
		// e2 stays busy: the sweep must not close it.
		if n := h.Sweep(0); n != 1 || h.HasSession("e1") || !h.HasSession("e2") {
			t.Fatalf("sweep closed %d, e1 held %v, e2 held %v", n, h.HasSession("e1"), h.HasSession("e2"))
		}
		release()
	}
	if err := h.Close("e2"); err != nil || h.Sessions() != 0 || tool.open != 0 {
		t.Fatalf("after Close: %d episodes, %d sessions open, %v", h.Sessions(), tool.open, err)
	}
	h.Session(ctx, "e3", tool)
	h.CloseAll()
	if tool.open != 0 || h.Sessions() != 0 {
		t.Fatalf("CloseAll left %d sessions open", tool.open)
	}
}
