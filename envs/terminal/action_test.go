package terminal

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAction(t *testing.T) {
	for _, c := range []struct {
		in      string
		kind    string
		cmd     string
		timeout float64
		fatal   bool // a fatal ParseError
		soft    bool // a non-fatal ParseError
	}{
		{in: "<bash>\ncmd: 'ls -la'\n</bash>", kind: ActionBash, cmd: "ls -la"},
		{in: "I'll look.\n<bash>\ncmd: 'echo $HOME'\ntimeout_secs: 120\n</bash> then more", kind: ActionBash, cmd: "echo $HOME", timeout: 120},
		{in: "<bash>\ncmd: |\n  cd /app\n  make\ntimeout_secs: 2.5\n</bash>", kind: ActionBash, cmd: "cd /app\nmake\n", timeout: 2.5},
		{in: "<bash>\ncmd: make\nblock: true\nend_after_cmd_success: true\n</bash>", kind: ActionBash, cmd: "make"},
		{in: "<bash>\ncmd: make\nend_after_cmd_success: maybe\n</bash>", soft: true},
		{in: "<finish>\nmessage: \"done\"\n</finish>", kind: ActionFinish},
		{in: "<finish>all done</finish>", kind: ActionFinish},
		{in: "<finish></finish>", kind: ActionFinish},
		// GEM takes the first matched pair: an unclosed tag before it is skipped.
		{in: "<think>hmm <bash>\ncmd: pwd\n</bash>", kind: ActionBash, cmd: "pwd"},
		{in: "<bash>\ncmd: pwd\n</bash><finish></finish>", kind: ActionBash, cmd: "pwd"},
		{in: "<think>plan</think><bash>\ncmd: pwd\n</bash>", fatal: true}, // GEM: the first tag is think
		{in: "no tags at all", fatal: true},
		{in: "", fatal: true},
		{in: "<python>print(1)</python>", fatal: true},
		{in: "<bash>\ncmd: [unclosed\n</bash>", soft: true},
		{in: "<bash>just a string</bash>", soft: true},
		{in: "<bash>\ntimeout_secs: 3\n</bash>", soft: true},
		{in: "<bash>\ncmd: ls\ntimeout_secs: -1\n</bash>", soft: true},
		{in: "<bash>\ncmd: ls\ntimeout_secs: soon\n</bash>", soft: true},
		// Native tool calls, as Quarry records them.
		{in: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"cmd\": \"ls /\", \"timeout_secs\": 5}}\n</tool_call>", kind: ActionBash, cmd: "ls /", timeout: 5},
		{in: "<tool_call>{\"name\": \"bash\", \"arguments\": \"{\\\"cmd\\\": \\\"pwd\\\"}\"}</tool_call>", kind: ActionBash, cmd: "pwd"},
		{in: "<tool_call>{\"name\": \"finish\", \"arguments\": {}}</tool_call>", kind: ActionFinish},
		{in: "<tool_call>{\"name\": \"python\", \"arguments\": {}}</tool_call>", fatal: true},
		{in: "<tool_call>{\"name\": \"bash\", \"arguments\": {\"cmd\": \"\"}}</tool_call>", soft: true},
	} {
		a, err := ParseAction(c.in)
		var perr *ParseError
		switch {
		case c.fatal || c.soft:
			if !errors.As(err, &perr) || perr.Fatal != c.fatal {
				t.Errorf("ParseAction(%q) = %+v, %v; want a ParseError, fatal %v", c.in, a, err, c.fatal)
			}
		case err != nil:
			t.Errorf("ParseAction(%q): %v", c.in, err)
		case a.Kind != c.kind || a.Cmd != c.cmd || a.Timeout != c.timeout:
			t.Errorf("ParseAction(%q) = %+v, want kind %s cmd %q timeout %v", c.in, a, c.kind, c.cmd, c.timeout)
		case !strings.HasPrefix(c.in, a.Text):
			t.Errorf("ParseAction(%q): Text %q is not a prefix of the response", c.in, a.Text)
		}
	}
}

// The env's own formatting of actions parses back to the same command.
func TestBashActionRoundTrip(t *testing.T) {
	for _, cmd := range []string{"ls -la", "echo $HOME 'q' \"d\"", "cat > f <<'EOF'\na: b\n\n- c\nEOF", "  x  ", "#!", "a\tb", "é ✓"} {
		a, err := ParseAction(BashAction(cmd, 7))
		if err != nil || a.Cmd != cmd || a.Timeout != 7 {
			t.Errorf("BashAction(%q) parsed back as %+v, %v", cmd, a, err)
		}
	}
}

// FuzzParseAction: any response parses or yields a ParseError, never
// panics; a parsed bash action has a command and a sane timeout; and any
// command survives BashAction's formatting.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{
		"<bash>\ncmd: 'ls'\n</bash>", "<finish>x</finish>", "<bash>cmd: [</bash>", "<tool_call>{\"name\":\"bash\",\"arguments\":{\"cmd\":\"ls\"}}</tool_call>",
		"<a><b></b></a>", "<bash>\ncmd: &a x\nt: *a\n</bash>", "<bash>\ncmd: !!binary aGk=\n</bash>", "\x00<bash>\xff</bash>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		var perr *ParseError
		if err != nil {
			if !errors.As(err, &perr) || perr.Reason == "" {
				t.Fatalf("ParseAction(%q): %v is not a ParseError with a reason", s, err)
			}
			return
		}
		switch a.Kind {
		case ActionBash:
			if strings.TrimSpace(a.Cmd) == "" || a.Timeout < 0 {
				t.Fatalf("ParseAction(%q) = %+v", s, a)
			}
		case ActionFinish:
		default:
			t.Fatalf("ParseAction(%q): kind %q", s, a.Kind)
		}
		if !strings.HasPrefix(s, a.Text) {
			t.Fatalf("ParseAction(%q): Text %q is not a prefix", s, a.Text)
		}
		if strings.TrimSpace(s) != "" && utf8.ValidString(s) {
			back, err := ParseAction(BashAction(s, 0))
			if err != nil || back.Cmd != s {
				t.Fatalf("BashAction(%q) parsed back as %+v, %v", s, back, err)
			}
		}
	})
}
