package python

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/tools"
)

// parseOnly is a Tool good for Parse (which needs no sandbox).
var parseOnly = &Tool{}

func TestParse(t *testing.T) {
	tests := []struct {
		name, action string
		ok           bool
		input, raw   string
	}{
		{"tag", "x <python>print(1)</python> y", true, "print(1)", "<python>print(1)</python>"},
		{"fence", "x ```python\nprint(1)\n``` y", true, "print(1)", "```python\nprint(1)\n```"},
		{"fence newline before python", "```\npython\nprint(2)\n```", true, "print(2)", "```\npython\nprint(2)\n```"},
		{"fence python3 keeps the 3", "```python3\nprint(2)\n```", true, "3\nprint(2)", "```python3\nprint(2)\n```"},
		{"no call", "\\boxed{30}", false, "", ""},
		{"unclosed tag", "<python>print(1)", false, "", ""},
		{"unclosed fence", "```python\nprint(1)", false, "", ""},
		{"plain fence", "```\nprint(1)\n```", false, "", ""},
		{"first tag of two", "<python>a</python><python>b</python>", true, "a", "<python>a</python>"},
		{"tag ends first", "<python>a</python> ```python\nb\n```", true, "a", "<python>a</python>"},
		{"fence ends first", "```python\nb\n``` <python>a</python>", true, "b", "```python\nb\n```"},
		// GEM's test action: the fence's first match runs from the first ``` to
		// the next one, spanning both tags, so the first tag (ending earlier) wins.
		{"gem sleep action", "```<python>import time\ntime.sleep(30)\nprint('Hello from Python!')</python> ... <python>print('Hello again!')</python>``` ...",
			true, "import time\ntime.sleep(30)\nprint('Hello from Python!')", "<python>import time\ntime.sleep(30)\nprint('Hello from Python!')</python>"},
		{"tag inside fence ends first", "```python\n<python>x</python>\n```", true, "x", "<python>x</python>"},
		{"empty tag", "<python></python>", true, "", "<python></python>"},
		{"strip python whitespace", "<python>\x1c\t print(1) \u3000\n</python>", true, "print(1)", "<python>\x1c\t print(1) \u3000\n</python>"},
		{"case sensitive", "<PYTHON>print(1)</PYTHON>", false, "", ""},
		{"gem unclosed then closed", "<python>import os;os.makedirs(\"tmp-dir\")<python>print('Hello from Python!')</python> ...",
			true, "import os;os.makedirs(\"tmp-dir\")<python>print('Hello from Python!')", "<python>import os;os.makedirs(\"tmp-dir\")<python>print('Hello from Python!')</python>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, ok := parseOnly.Parse(tt.action)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if call.Tool != Name || call.Input != tt.input || call.Raw != tt.raw || call.Err != "" {
				t.Errorf("got %+v, want input %q raw %q", call, tt.input, tt.raw)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"<python>print(1)</python>", "```python\nx\n```", "```\npython x```<python>y</python>",
		"<python>a</python>```python b```", "no code", "<python>\x1c</python>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, action string) {
		call, ok := parseOnly.Parse(action)
		hasTag := strings.Contains(action, "<python>") && strings.Contains(action, "</python>")
		hasFence := strings.Contains(action, "```")
		if !ok {
			if call != (tools.Call{}) {
				t.Fatalf("no call but %+v", call)
			}
			return
		}
		if !hasTag && !hasFence {
			t.Fatalf("parsed %+v from an action with no markers", call)
		}
		i := strings.Index(action, call.Raw)
		if i < 0 {
			t.Fatalf("Raw %q is not in the action", call.Raw)
		}
		var inner string
		switch {
		case strings.HasPrefix(call.Raw, "<python>") && strings.HasSuffix(call.Raw, "</python>") && len(call.Raw) >= len("<python></python>"):
			inner = call.Raw[len("<python>") : len(call.Raw)-len("</python>")]
			if strings.Contains(inner, "</python>") {
				t.Fatalf("tag match %q is not the shortest", call.Raw)
			}
		case strings.HasPrefix(call.Raw, "```"):
			body := strings.TrimPrefix(strings.TrimPrefix(call.Raw, "```"), "\n")
			if !strings.HasPrefix(body, "python") || !strings.HasSuffix(body, "```") {
				t.Fatalf("fence match %q is malformed", call.Raw)
			}
			inner = body[len("python") : len(body)-3]
			if strings.Contains(inner, "```") {
				t.Fatalf("fence match %q is not the shortest", call.Raw)
			}
		default:
			t.Fatalf("Raw %q is neither a tag nor a fence", call.Raw)
		}
		if want := strings.TrimFunc(inner, pyIsSpace); call.Input != want {
			t.Fatalf("Input %q, want stripped inner %q", call.Input, want)
		}
		// Nothing of either kind ends before the chosen call.
		end := i + len(call.Raw)
		for _, re := range patterns {
			if m := re.FindStringIndex(action); m != nil && m[1] < end {
				t.Fatalf("a call ending at %d precedes the chosen one ending at %d", m[1], end)
			}
		}
	})
}
