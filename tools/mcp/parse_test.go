package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"s": {URL: "http://127.0.0.1:1/mcp"}}})
	cases := []struct {
		name, action string
		ok           bool
		call, input  string // Name and Input when ok and no error
		raw          string
		err          string // substring of Err; "" means no error
	}{
		{name: "no call", action: "I think the answer is \\boxed{4}."},
		{name: "unterminated", action: `<tool_call><tool_name>echo</tool_name><arguments>{}</arguments>`},
		{name: "gem", action: `Let me check. <tool_call><tool_name>echo</tool_name><arguments>{"message": "hi"}</arguments></tool_call> done`,
			ok: true, call: "echo", input: `{"message":"hi"}`, raw: `<tool_call><tool_name>echo</tool_name><arguments>{"message": "hi"}</arguments></tool_call>`},
		{name: "gem multiline", action: "<tool_call>\n<tool_name> get-sum </tool_name>\n<arguments>\n{\n  \"a\": 1,\n  \"b\": 2\n}\n</arguments>\n</tool_call>",
			ok: true, call: "get-sum", input: `{"a":1,"b":2}`},
		{name: "gem empty arguments", action: `<tool_call><tool_name>pid</tool_name><arguments></arguments></tool_call>`,
			ok: true, call: "pid", input: `{}`},
		{name: "hermes", action: "<tool_call>\n{\"name\": \"echo\", \"arguments\": {\"message\": \"hi\"}}\n</tool_call>",
			ok: true, call: "echo", input: `{"message":"hi"}`},
		{name: "hermes string arguments", action: `<tool_call>{"name": "echo", "arguments": "{\"message\": \"hi\"}"}</tool_call>`,
			ok: true, call: "echo", input: `{"message":"hi"}`},
		{name: "hermes no arguments", action: `<tool_call>{"name": "pid"}</tool_call>`, ok: true, call: "pid", input: `{}`},
		{name: "first of two", action: gemCall("a", "{}") + gemCall("b", "{}"), ok: true, call: "a", input: "{}"},
		{name: "stray opening tag", action: `<tool_call> oops <tool_call><tool_name>echo</tool_name><arguments>{}</arguments></tool_call>`,
			ok: true, call: "echo", input: "{}", raw: `<tool_call><tool_name>echo</tool_name><arguments>{}</arguments></tool_call>`},
		{name: "bad json", action: gemCall("echo", `{"message": "hi}`), ok: true, err: "Invalid arguments for tool 'echo': invalid JSON"},
		{name: "array arguments", action: gemCall("echo", `[1]`), ok: true, err: "arguments must be a JSON object, got an array"},
		{name: "trailing text", action: gemCall("echo", `{} x`), ok: true, err: "text after the object"},
		{name: "extra brace", action: gemCall("echo", `{}}`), ok: true, err: "text after the object"},
		{name: "no arguments tag", action: `<tool_call><tool_name>echo</tool_name></tool_call>`, ok: true, err: "Invalid tool call: expected"},
		{name: "empty name", action: `<tool_call><tool_name> </tool_name><arguments>{}</arguments></tool_call>`, ok: true, err: "Invalid tool call"},
		{name: "free text body", action: `<tool_call>call echo please</tool_call>`, ok: true, err: "Invalid tool call: expected"},
		{name: "hermes bad json", action: `<tool_call>{"name": "echo", "arguments": {</tool_call>`, ok: true, err: "Invalid tool call: not valid JSON"},
		{name: "hermes missing name", action: `<tool_call>{"arguments": {}}</tool_call>`, ok: true, err: `missing "name"`},
		{name: "hermes arguments not object", action: `<tool_call>{"name": "echo", "arguments": 3}</tool_call>`, ok: true, err: "got a number"},
		{name: "hermes trailing", action: `<tool_call>{"name": "echo"} {}</tool_call>`, ok: true, err: "text after the JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			call, ok := tool.Parse(c.action)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, c.ok, call)
			}
			if !ok {
				return
			}
			if call.Tool != ToolName {
				t.Errorf("Tool = %q", call.Tool)
			}
			if c.err != "" {
				if !strings.Contains(call.Err, c.err) {
					t.Errorf("Err = %q, want it to contain %q", call.Err, c.err)
				}
				return
			}
			if call.Err != "" || call.Name != c.call || call.Input != c.input {
				t.Errorf("got name %q input %q err %q, want %q %q", call.Name, call.Input, call.Err, c.call, c.input)
			}
			if c.raw != "" && call.Raw != c.raw {
				t.Errorf("Raw = %q, want %q", call.Raw, c.raw)
			}
		})
	}
}

// TestParseUnknownName: once the tools are known, an unknown name is
// refused at parse time with GEM's message.
func TestParseUnknownName(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"go": {URL: startGoHTTP(t).URL}}})
	if c, _ := tool.Parse(gemCall("nope", "{}")); c.Err != "" {
		t.Fatalf("before listing, Parse cannot know the names: %q", c.Err)
	}
	if _, err := tool.Instructions(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	c, _ := tool.Parse(gemCall("nope", "{}"))
	if want := "Tool 'nope' not found. Available tools: add, crash, echo, env, fail, pid, slow, spawn"; c.Err != want {
		t.Fatalf("Err = %q, want %q", c.Err, want)
	}
	if c, _ := tool.Parse(gemCall("echo", `{"text": "x"}`)); c.Err != "" {
		t.Fatalf("known tool refused: %q", c.Err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		gemCall("echo", `{"message": "hi"}`),
		`<tool_call>{"name": "echo", "arguments": {"a": [1, 2]}}</tool_call>`,
		`<tool_call><tool_name>x</tool_name><arguments>{</arguments></tool_call>`,
		`<tool_call> <tool_call>{"name": "x", "arguments": "{}"}</tool_call>`,
		"text <tool_call>\n<tool_name>a</tool_name>\n<arguments>\n{}\n</arguments>\n</tool_call> more",
		`<tool_call></tool_call>`,
	} {
		f.Add(s)
	}
	tool, err := New(Config{Servers: map[string]Server{"s": {URL: "http://127.0.0.1:1/mcp"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, action string) {
		call, ok := tool.Parse(action)
		if !ok {
			if strings.Contains(action, openTag) && strings.Contains(action[strings.Index(action, openTag):], closeTag) {
				t.Fatalf("a complete <tool_call> block was not parsed: %q", action)
			}
			return
		}
		if !strings.Contains(action, call.Raw) || !strings.HasPrefix(call.Raw, openTag) || !strings.HasSuffix(call.Raw, closeTag) {
			t.Fatalf("Raw %q is not a <tool_call> block of the action", call.Raw)
		}
		if call.Err != "" {
			return
		}
		if call.Name == "" || strings.ContainsAny(call.Name, "<") {
			t.Fatalf("bad name %q", call.Name)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(call.Input), &obj); err != nil || obj == nil {
			t.Fatalf("Input %q is not a JSON object: %v", call.Input, err)
		}
		if again, _ := tool.Parse(action); again != call {
			t.Fatalf("Parse is not deterministic")
		}
	})
}
