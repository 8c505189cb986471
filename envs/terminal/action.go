package terminal

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// Action is one parsed agent action.
type Action struct {
	// Kind is ActionBash or ActionFinish.
	Kind string
	// Cmd is the bash command (ActionBash).
	Cmd string
	// Timeout is the command's timeout_secs; 0 means the task's default.
	Timeout float64
	// EndAfterSuccess ends the episode when the command exits 0 (GEM's
	// prompt documents end_after_cmd_success: "equal to finish").
	EndAfterSuccess bool
	// Message is finish's message, if any.
	Message string
	// Text is the part of the response that held the action (GEM's
	// parsed_action: everything up to the end of the first tag).
	Text string
}

// Action kinds.
const (
	ActionBash   = "bash"
	ActionFinish = "finish"
)

// ParseError is a response the env could not take as an action. Fatal
// errors end the episode, as GEM's DockerEnv does when a response has no
// tag or an unknown one; a body that is not a valid YAML mapping (GEM's
// "Action parsing error") does not.
type ParseError struct {
	Reason string
	Fatal  bool
}

func (e *ParseError) Error() string { return e.Reason }

// toolCallPattern is a native tool call as Quarry records it in the action
// (docs/tools.md, "Native tool calling"): a Hermes block.
var toolCallPattern = regexp.MustCompile(`<tool_call>\s*(\{[\s\S]*?\})\s*</tool_call>`)

// ParseAction reads an agent's response as GEM's DockerEnv does: the first
// <tag>body</tag> whose closing tag matches; tag bash or finish; the body
// a YAML mapping (bash: cmd, timeout_secs; finish: message). A native tool
// call (<tool_call>{"name": "bash", "arguments": {"cmd": …}}</tool_call>)
// is read the same way when it comes first.
func ParseAction(response string) (Action, error) {
	tag := firstTag(response)
	call := toolCallPattern.FindStringSubmatchIndex(response)
	if call != nil && (tag == nil || call[0] <= tag[0]) {
		return parseToolCall(response[call[2]:call[3]], response[:call[1]])
	}
	if tag == nil {
		return Action{}, &ParseError{Reason: "no action found: wrap a command in <bash>...</bash> or end with <finish>...</finish>", Fatal: true}
	}
	name, body := response[tag[2]:tag[3]], response[tag[4]:tag[5]]
	text := response[:tag[1]]
	if name != ActionBash && name != ActionFinish {
		return Action{}, &ParseError{Reason: fmt.Sprintf("unknown action <%s>: the actions are <bash> and <finish>", name), Fatal: true}
	}
	var data any
	if err := yaml.Unmarshal([]byte(strings.TrimSpace(body)), &data); err != nil {
		return Action{}, &ParseError{Reason: "Action parsing error. " + firstLine(err.Error())}
	}
	if name == ActionFinish {
		a := Action{Kind: ActionFinish, Text: text}
		if m, ok := data.(map[string]any); ok {
			a.Message, _ = m["message"].(string)
		} else if s, ok := data.(string); ok {
			a.Message = s
		}
		return a, nil
	}
	m, ok := data.(map[string]any)
	if !ok {
		return Action{}, &ParseError{Reason: "Action parsing error. The body of <bash> must be a YAML mapping, e.g. cmd: 'ls -la'"}
	}
	a, err := bashArgs(m)
	if err != nil {
		return Action{}, err
	}
	a.Text = text
	return a, nil
}

// firstTag finds GEM's first match of <(\w+)>…</\1> (Go's regexp has no
// backreferences): the earliest opening tag whose name is closed later.
func firstTag(s string) []int {
	for off := 0; off < len(s); {
		loc := openTag.FindStringSubmatchIndex(s[off:])
		if loc == nil {
			return nil
		}
		name := s[off+loc[2] : off+loc[3]]
		bodyStart := off + loc[1]
		if end := strings.Index(s[bodyStart:], "</"+name+">"); end >= 0 {
			closeAt := bodyStart + end
			return []int{off + loc[0], closeAt + len(name) + 3, off + loc[2], off + loc[3], bodyStart, closeAt}
		}
		off += loc[0] + 1
	}
	return nil
}

var openTag = regexp.MustCompile(`<(\w+)>`)

func bashArgs(m map[string]any) (Action, error) {
	cmd, _ := m["cmd"].(string)
	if strings.TrimSpace(cmd) == "" {
		return Action{}, &ParseError{Reason: "Action parsing error. <bash> needs a non-empty cmd, e.g. cmd: 'ls -la'"}
	}
	a := Action{Kind: ActionBash, Cmd: cmd}
	if v, ok := m["end_after_cmd_success"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return Action{}, &ParseError{Reason: fmt.Sprintf("Action parsing error. end_after_cmd_success must be true or false, got %v", v)}
		}
		a.EndAfterSuccess = b
	}
	if v, ok := m["timeout_secs"]; ok && v != nil {
		f, ok := number(v)
		if !ok || f <= 0 || math.IsNaN(f) || math.IsInf(f, 0) {
			return Action{}, &ParseError{Reason: fmt.Sprintf("Action parsing error. timeout_secs must be a positive number of seconds, got %v", v)}
		}
		a.Timeout = f
	}
	return a, nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case uint64:
		return float64(x), true
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func parseToolCall(body, text string) (Action, error) {
	var call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(body), &call); err != nil {
		return Action{}, &ParseError{Reason: "Action parsing error. The tool call is not valid JSON: " + firstLine(err.Error())}
	}
	var args map[string]any
	if len(call.Arguments) > 0 {
		raw := call.Arguments
		var s string
		if json.Unmarshal(raw, &s) == nil { // arguments sent as a JSON string
			raw = []byte(s)
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.UseNumber()
		if err := d.Decode(&args); err != nil {
			return Action{}, &ParseError{Reason: "Action parsing error. The tool call's arguments are not a JSON object: " + firstLine(err.Error())}
		}
	}
	switch call.Name {
	case ActionBash:
		a, err := bashArgs(args)
		a.Text = text
		return a, err
	case ActionFinish:
		msg, _ := args["message"].(string)
		return Action{Kind: ActionFinish, Message: msg, Text: text}, nil
	}
	return Action{}, &ParseError{Reason: fmt.Sprintf("unknown tool %q: the tools are bash and finish", call.Name), Fatal: true}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// BashAction formats a command as GEM's prompt shows it: a <bash> block
// whose body is YAML, cmd single-quoted (the prompt's advice) or, when it
// spans lines, a literal block scalar — whichever reads back unchanged —
// else a double-quoted string with JSON's escapes (which YAML shares; < and
// > escaped, so a "</bash>" inside the command cannot close the block).
func BashAction(cmd string, timeoutSecs int) string {
	tail := ""
	if timeoutSecs > 0 {
		tail = "timeout_secs: " + strconv.Itoa(timeoutSecs) + "\n"
	}
	readsBack := func(action string) bool {
		a, err := ParseAction(action)
		return err == nil && a.Cmd == cmd
	}
	if !strings.Contains(cmd, "</bash>") {
		if !strings.Contains(cmd, "\n") {
			action := "<bash>\ncmd: '" + strings.ReplaceAll(cmd, "'", "''") + "'\n" + tail + "</bash>"
			if readsBack(action) {
				return action
			}
		} else if b, err := yaml.MarshalWithOptions(map[string]any{"cmd": cmd}, yaml.UseLiteralStyleIfMultiline(true)); err == nil {
			action := "<bash>\n" + string(b) + tail + "</bash>"
			if readsBack(action) {
				return action
			}
		}
	}
	q, _ := json.Marshal(cmd) // a string always marshals
	return "<bash>\ncmd: " + string(q) + "\n" + tail + "</bash>"
}

// FinishAction is the finish action with a message.
func FinishAction(message string) string {
	b, err := yaml.Marshal(map[string]any{"message": message})
	if err != nil {
		panic(err)
	}
	return "<finish>\n" + string(b) + "</finish>"
}

// ToolSchemas are the JSON schemas of the env's actions as OpenAI function
// tools, for native tool calling: bash(cmd, timeout_secs) and
// finish(message). A call arrives in the action as a <tool_call> block.
func ToolSchemas() []map[string]any {
	return []map[string]any{
		{"type": "function", "function": map[string]any{
			"name":        ActionBash,
			"description": "Run a bash command in the task's Linux sandbox and return its output.",
			"parameters": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"cmd":          map[string]any{"type": "string", "description": "the command"},
					"timeout_secs": map[string]any{"type": "number", "description": "seconds before the command is killed (default 30)"},
				},
				"required": []string{"cmd"},
			},
		}},
		{"type": "function", "function": map[string]any{
			"name":        ActionFinish,
			"description": "End the task; the tests then run.",
			"parameters": map[string]any{
				"type":       "object",
				"properties": map[string]any{"message": map[string]any{"type": "string"}},
			},
		}},
	}
}
