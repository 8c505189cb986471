package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

const (
	openTag  = "<tool_call>"
	closeTag = "</tool_call>"
)

// callFormatHelp is appended to a malformed call's error so the agent can
// correct itself.
const callFormatHelp = `expected <tool_call><tool_name>NAME</tool_name><arguments>{...}</arguments></tool_call> ` +
	`or <tool_call>{"name": NAME, "arguments": {...}}</tool_call>`

// parsed is one <tool_call> block found in an action.
type parsed struct {
	name string // the tool name as written (trimmed)
	args string // compact JSON object
	raw  string // the block, tags included
	err  string // why the block is malformed; name/args may be partial
}

// parseAction finds the first complete <tool_call>…</tool_call> block. A
// block without its closing tag is not a call (as in GEM, whose pattern needs
// it): a generation cut off mid-call reaches the environment instead.
//
// Two bodies are accepted: GEM's
//
//	<tool_name>NAME</tool_name><arguments>{...}</arguments>
//
// and the Hermes/Qwen chat-template form {"name": NAME, "arguments": {...}}.
func parseAction(action string) (parsed, bool) {
	first := strings.Index(action, openTag)
	if first < 0 {
		return parsed{}, false
	}
	end := strings.Index(action[first:], closeTag)
	if end < 0 {
		return parsed{}, false
	}
	end += first
	// As GEM's regex does, a stray <tool_call> before the real one is skipped:
	// the block starts at the last opening tag before the first closing tag.
	start := first + strings.LastIndex(action[first:end], openTag)
	p := parsed{raw: action[start : end+len(closeTag)]}
	body := strings.TrimSpace(action[start+len(openTag) : end])
	switch {
	case strings.HasPrefix(body, "<tool_name>"):
		p.name, p.args, p.err = parseTagged(body)
	case strings.HasPrefix(body, "{"):
		p.name, p.args, p.err = parseHermes(body)
	default:
		p.err = "Invalid tool call: " + callFormatHelp
	}
	return p, true
}

// parseTagged parses GEM's <tool_name>…</tool_name><arguments>…</arguments>.
func parseTagged(body string) (name, args, errMsg string) {
	rest := strings.TrimPrefix(body, "<tool_name>")
	n, rest, ok := strings.Cut(rest, "</tool_name>")
	name = strings.TrimSpace(n)
	if !ok || name == "" || strings.Contains(n, "<") {
		return name, "", "Invalid tool call: " + callFormatHelp
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "<arguments>") || !strings.HasSuffix(rest, "</arguments>") {
		return name, "", "Invalid tool call: " + callFormatHelp
	}
	a := rest[len("<arguments>") : len(rest)-len("</arguments>")]
	args, err := argumentsObject([]byte(a))
	if err != "" {
		return name, "", fmt.Sprintf("Invalid arguments for tool '%s': %s", name, err)
	}
	return name, args, ""
}

// parseHermes parses {"name": …, "arguments": {…}}; "arguments" may also be a
// string holding the JSON object, as some models emit it.
func parseHermes(body string) (name, args, errMsg string) {
	var call struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(&call); err != nil {
		return "", "", fmt.Sprintf("Invalid tool call: not valid JSON (%v); %s", err, callFormatHelp)
	}
	if strings.TrimSpace(body[dec.InputOffset():]) != "" {
		return "", "", "Invalid tool call: text after the JSON object; " + callFormatHelp
	}
	if call.Name == nil || strings.TrimSpace(*call.Name) == "" {
		return "", "", `Invalid tool call: missing "name"; ` + callFormatHelp
	}
	name = strings.TrimSpace(*call.Name)
	a := bytes.TrimSpace(call.Arguments)
	if len(a) > 0 && a[0] == '"' {
		var s string
		if err := json.Unmarshal(a, &s); err == nil {
			a = []byte(s)
		}
	}
	if string(a) == "null" {
		a = nil
	}
	args, err := argumentsObject(a)
	if err != "" {
		return name, "", fmt.Sprintf("Invalid arguments for tool '%s': %s", name, err)
	}
	return name, args, ""
}

// argumentsObject checks that raw is one JSON object (empty means {}) and
// returns it compacted.
func argumentsObject(raw []byte) (string, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "{}", ""
	}
	if raw[0] != '{' {
		return "", fmt.Sprintf("arguments must be a JSON object, got %s", jsonKind(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var obj json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return "", fmt.Sprintf("invalid JSON: %v", err)
	}
	if len(bytes.TrimSpace(raw[dec.InputOffset():])) != 0 {
		return "", "invalid JSON: text after the object"
	}
	var b bytes.Buffer
	if err := json.Compact(&b, obj); err != nil {
		return "", fmt.Sprintf("invalid JSON: %v", err)
	}
	return b.String(), ""
}
