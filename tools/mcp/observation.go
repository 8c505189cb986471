package mcp

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// GEM's observation texts (gem/tools/mcp_tool.py).
const (
	noOutput      = "Tool execution completed with no output"
	errorPrefix   = "[Tool execution error: "  // the server flagged the result (isError)
	failurePrefix = "[Tool execution failed: " // the call itself failed (timeout, lost connection, JSON-RPC error)
)

// formatResult turns a tools/call result into what the agent sees, as GEM
// does: an isError result is "[Tool execution error: <texts joined by
// spaces>]"; otherwise structured content wins (a fastmcp-wrapped scalar is
// unwrapped), then the content blocks joined by newlines, then "Tool
// execution completed with no output".
func formatResult(res *gomcp.CallToolResult, wrapResult bool) (text string, isError bool) {
	if res.IsError {
		parts := make([]string, len(res.Content))
		for i, c := range res.Content {
			if t, ok := c.(*gomcp.TextContent); ok {
				parts[i] = t.Text
			} else {
				parts[i] = contentJSON(c)
			}
		}
		return errorPrefix + strings.Join(parts, " ") + "]", true
	}
	if s, ok := structuredText(res.StructuredContent, wrapResult); ok {
		return s, false
	}
	if len(res.Content) == 0 {
		return noOutput, false
	}
	parts := make([]string, len(res.Content))
	for i, c := range res.Content {
		parts[i] = contentText(c)
	}
	return strings.Join(parts, "\n"), false
}

// structuredText is GEM's str(result.data): fastmcp sets data only for
// truthy structured content, unwrapping {"result": x} for its own wrapped
// scalars. Strings print bare and other scalars as Python prints them;
// objects and arrays print as JSON where GEM would print a Python repr.
func structuredText(sc any, wrapResult bool) (string, bool) {
	if sc == nil {
		return "", false
	}
	raw, err := json.Marshal(sc)
	if err != nil {
		return "", false
	}
	v, err := parsePy(raw)
	if err != nil || !v.truthy() {
		return "", false
	}
	if wrapResult {
		v = v.field("result")
		if v == nil || v.kind == 'z' {
			return "", false
		}
	}
	return v.pyStr(), true
}

// contentText is one content block as GEM prints it: text as is, binary
// blocks by the size of their base64 data; other blocks (resources, links)
// as JSON where GEM would print a pydantic repr.
func contentText(c gomcp.Content) string {
	switch c := c.(type) {
	case *gomcp.TextContent:
		return c.Text
	case *gomcp.ImageContent:
		return binaryText(c.Data)
	case *gomcp.AudioContent:
		return binaryText(c.Data)
	case *gomcp.EmbeddedResource:
		if c.Resource != nil && c.Resource.Text != "" {
			return c.Resource.Text
		}
		if c.Resource != nil && c.Resource.Blob != nil {
			return binaryText(c.Resource.Blob)
		}
	}
	return contentJSON(c)
}

func binaryText(data []byte) string {
	return "Binary data: " + strconv.Itoa(base64.StdEncoding.EncodedLen(len(data))) + " bytes"
}

func contentJSON(c gomcp.Content) string {
	raw, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	s, err := pyDumps(raw)
	if err != nil {
		return string(raw)
	}
	return s
}
