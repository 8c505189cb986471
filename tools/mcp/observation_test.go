package mcp

import (
	"testing"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestFormatResult(t *testing.T) {
	txt := func(s string) gomcp.Content { return &gomcp.TextContent{Text: s} }
	cases := []struct {
		name  string
		res   gomcp.CallToolResult
		wrap  bool
		want  string
		isErr bool
	}{
		{"texts joined by newlines", gomcp.CallToolResult{Content: []gomcp.Content{txt("a"), txt("b")}}, false, "a\nb", false},
		{"no output", gomcp.CallToolResult{}, false, "Tool execution completed with no output", false},
		{"error texts joined by spaces", gomcp.CallToolResult{IsError: true, Content: []gomcp.Content{txt("bad"), txt("input")}}, false, "[Tool execution error: bad input]", true},
		{"structured wins", gomcp.CallToolResult{Content: []gomcp.Content{txt("ignored")}, StructuredContent: map[string]any{"k": "v"}}, false, `{"k": "v"}`, false},
		{"empty structured falls back", gomcp.CallToolResult{Content: []gomcp.Content{txt("shown")}, StructuredContent: map[string]any{}}, false, "shown", false},
		{"fastmcp wrapped string", gomcp.CallToolResult{Content: []gomcp.Content{txt("x")}, StructuredContent: map[string]any{"result": "plain"}}, true, "plain", false},
		{"fastmcp wrapped bool", gomcp.CallToolResult{Content: []gomcp.Content{txt("x")}, StructuredContent: map[string]any{"result": true}}, true, "True", false},
		{"fastmcp wrapped null", gomcp.CallToolResult{Content: []gomcp.Content{txt("x")}, StructuredContent: map[string]any{"result": nil}}, true, "x", false},
		{"image", gomcp.CallToolResult{Content: []gomcp.Content{&gomcp.ImageContent{Data: []byte("12345"), MIMEType: "image/png"}}}, false, "Binary data: 8 bytes", false},
		{"embedded text resource", gomcp.CallToolResult{Content: []gomcp.Content{&gomcp.EmbeddedResource{Resource: &gomcp.ResourceContents{URI: "file:///a", Text: "body"}}}}, false, "body", false},
	}
	for _, c := range cases {
		got, isErr := formatResult(&c.res, c.wrap)
		if got != c.want || isErr != c.isErr {
			t.Errorf("%s: got %q (%v), want %q (%v)", c.name, got, isErr, c.want, c.isErr)
		}
	}
}
