package retail

import (
	"bytes"
	"encoding/json"
	"strings"
)

const (
	openTag  = "<tool_call>"
	closeTag = "</tool_call>"
)

// callHelp is shown with a malformed call so the assistant can correct it.
const callHelp = `write <tool_call>{"name": NAME, "arguments": {...}}</tool_call> or ` +
	`<tool_call><tool_name>NAME</tool_name><arguments>{...}</arguments></tool_call>`

// action is an assistant's action as the env reads it: a tool call, a
// malformed call, or a message to the customer.
type action struct {
	call    *Call
	callErr string // the action holds a tool call that cannot be read
	message string // the text to the customer when there is no call
}

// parseAction reads the assistant's action. A <tool_call> block makes it a
// tool turn (one call per turn, the first block; text around it is not sent
// to the customer, as tau-bench's policy asks for either a call or a
// message); two bodies are read: the Hermes/Qwen form that native calls are
// recorded in, {"name": …, "arguments": {…}} (arguments may be a string
// holding the object), and GEM's <tool_name>…</tool_name><arguments>…</arguments>.
// An opening tag without a closing one is a call when a whole call follows
// it to the end (a stop string the server dropped), else a malformed call,
// never a message: the customer must not see half a call. Anything else is
// a message.
func parseAction(s string) action {
	start := strings.Index(s, openTag)
	if start < 0 {
		return action{message: strings.TrimSpace(s)}
	}
	var body string
	if end := strings.Index(s[start:], closeTag); end >= 0 {
		body = strings.TrimSpace(s[start+len(openTag) : start+end])
	} else {
		// Generation stopped at the closing tag and the server dropped it
		// (OpenAI's stop strings are not returned): a whole call up to the
		// end of the reply is still a call.
		body = strings.TrimSpace(s[start+len(openTag):])
		if c, err := parseBody(body); err == "" {
			return action{call: &c}
		}
		return action{callErr: "unterminated <tool_call>; " + callHelp}
	}
	c, err := parseBody(body)
	if err != "" {
		return action{callErr: err}
	}
	return action{call: &c}
}

func parseBody(body string) (Call, string) {
	switch {
	case strings.HasPrefix(body, "{"):
		return parseHermes(body)
	case strings.HasPrefix(body, "<tool_name>"):
		return parseTagged(body)
	}
	return Call{}, "unreadable tool call; " + callHelp
}

func parseHermes(body string) (Call, string) {
	var raw struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(&raw); err != nil {
		return Call{}, "tool call is not valid JSON; " + callHelp
	}
	if strings.TrimSpace(body[dec.InputOffset():]) != "" {
		return Call{}, "text after the tool call's JSON object; " + callHelp
	}
	if raw.Name == nil || strings.TrimSpace(*raw.Name) == "" {
		return Call{}, `tool call without a "name"; ` + callHelp
	}
	a := bytes.TrimSpace(raw.Arguments)
	if len(a) > 0 && a[0] == '"' {
		var s string
		if json.Unmarshal(a, &s) == nil {
			a = []byte(strings.TrimSpace(s))
		}
	}
	if len(a) > 0 && !json.Valid(a) {
		return Call{}, "the tool call's arguments are not valid JSON; " + callHelp
	}
	return Call{Name: strings.TrimSpace(*raw.Name), Args: compact(a)}, ""
}

func parseTagged(body string) (Call, string) {
	rest := strings.TrimPrefix(body, "<tool_name>")
	name, rest, ok := strings.Cut(rest, "</tool_name>")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.Contains(name, "<") {
		return Call{}, "unreadable tool name; " + callHelp
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return Call{Name: name, Args: json.RawMessage("{}")}, ""
	}
	if !strings.HasPrefix(rest, "<arguments>") || !strings.HasSuffix(rest, "</arguments>") {
		return Call{}, "unreadable arguments; " + callHelp
	}
	a := bytes.TrimSpace([]byte(rest[len("<arguments>") : len(rest)-len("</arguments>")]))
	if len(a) > 0 && !json.Valid(a) {
		return Call{}, "the tool call's arguments are not valid JSON; " + callHelp
	}
	return Call{Name: name, Args: compact(a)}, ""
}

// compact returns valid JSON compacted ({} when empty), with <, > and &
// escaped as Go's encoder does, so a call's text can never hold a tag.
func compact(a []byte) json.RawMessage {
	var b bytes.Buffer
	if len(a) == 0 || json.Compact(&b, a) != nil {
		return json.RawMessage("{}")
	}
	var out bytes.Buffer
	json.HTMLEscape(&out, b.Bytes())
	return out.Bytes()
}
