package toolset_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/schema"
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
