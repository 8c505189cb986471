package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// entry is one tool as the agent sees it.
type entry struct {
	name       string // as the agent calls it: "<server>_<tool>" with several servers
	server     string
	tool       string // the server's own name
	funcDef    string // {"type": "function", ...} as GEM's json.dumps prints it
	wrapResult bool   // fastmcp wraps a scalar result as {"result": x}
}

// catalog is the tools of every configured server, sorted by name as GEM
// lists them.
type catalog struct {
	entries []entry
	byName  map[string]int
}

func (c *catalog) lookup(name string) (entry, bool) {
	i, ok := c.byName[name]
	if !ok {
		return entry{}, false
	}
	return c.entries[i], true
}

// names lists the tool names, for GEM's "not found" message.
func (c *catalog) names() string {
	ns := make([]string, len(c.entries))
	for i, e := range c.entries {
		ns[i] = e.name
	}
	return strings.Join(ns, ", ")
}

// listedTool is a server's tool with its input schema as the server sent it
// (raw, so key order survives) when the transport could capture it.
type listedTool struct {
	tool      *gomcp.Tool
	rawSchema json.RawMessage
}

// newCatalog names and renders the listed tools. multi is true when the
// config has more than one server: names are then prefixed with the server
// name and descriptions with "[server] ", as fastmcp and GEM do.
func newCatalog(listed map[string][]listedTool, multi bool) (*catalog, error) {
	c := &catalog{byName: map[string]int{}}
	for _, server := range sortedKeys(listed) {
		for _, lt := range listed[server] {
			e := entry{name: lt.tool.Name, server: server, tool: lt.tool.Name}
			desc := lt.tool.Description
			if multi {
				e.name = server + "_" + lt.tool.Name
				if desc != "" {
					desc = "[" + server + "] " + desc
				} else {
					desc = "[" + server + "] Tool from " + server + " server"
				}
			}
			if strings.ContainsAny(e.name, "<>") {
				return nil, fmt.Errorf("server %s: tool name %q contains < or >, which the call format cannot carry", server, lt.tool.Name)
			}
			if _, dup := c.byName[e.name]; dup {
				return nil, fmt.Errorf("server %s: tool name %q is listed twice", server, e.name)
			}
			schema, err := schemaText(lt)
			if err != nil {
				return nil, fmt.Errorf("server %s: tool %s: input schema: %w", server, lt.tool.Name, err)
			}
			var b strings.Builder
			b.WriteString(`{"type": "function", "function": {"name": `)
			writePyJSONString(&b, e.name)
			b.WriteString(`, "description": `)
			writePyJSONString(&b, desc)
			b.WriteString(`, "parameters": `)
			b.WriteString(schema)
			b.WriteString("}}")
			e.funcDef = b.String()
			if m, ok := lt.tool.OutputSchema.(map[string]any); ok && m["x-fastmcp-wrap-result"] == true {
				e.wrapResult = true
			}
			c.byName[e.name] = -1
			c.entries = append(c.entries, e)
		}
	}
	slices.SortFunc(c.entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for i, e := range c.entries {
		c.byName[e.name] = i
	}
	return c, nil
}

// schemaText renders a tool's input schema as GEM's json.dumps does. A
// missing schema becomes GEM's default {"type": "object", "properties": {}}.
func schemaText(lt listedTool) (string, error) {
	raw := lt.rawSchema
	if raw == nil {
		if lt.tool.InputSchema == nil {
			return `{"type": "object", "properties": {}}`, nil
		}
		var err error
		// Without the raw bytes the SDK's map has lost the server's key
		// order; encoding/json sorts the keys instead.
		if raw, err = json.Marshal(lt.tool.InputSchema); err != nil {
			return "", err
		}
	}
	if string(raw) == "null" {
		return `{"type": "object", "properties": {}}`, nil
	}
	return pyDumps(raw)
}

// instructions is GEM's MCPTool.instruction_string, word for word.
func (c *catalog) instructions() string {
	defs := make([]string, len(c.entries))
	for i, e := range c.entries {
		defs[i] = e.funcDef
	}
	return instructionsHead + "<tools>\n" + strings.Join(defs, "\n") + "\n</tools>"
}

const instructionsHead = "# Tool-Use Instructions\n\n" +
	"In this environment you have access to a set of tools you can use to answer the user's question.\n\n" +
	"You only have access to the tools provided below. You can only use one tool per message, and will receive the result of that tool in the user's next response. You use tools step-by-step to accomplish a given task, with each tool-use informed by the result of the previous tool-use.\n\n" +
	"Tool-use is formatted using XML-style tags. The tool-use is enclosed in <tool_call></tool_call> and each parameter is similarly enclosed within its own set of tags.\n\n" +
	"## Parameters\n" +
	"- tool_name: (required) The name of the tool to execute\n" +
	"- arguments: (required) A JSON object containing the tool's input parameters, following the tool's input schema. Quotes within strings must be properly escaped. Ensure the JSON is valid.\n\n" +
	"## Usage Example\n" +
	"<tool_call>\n" +
	"<tool_name>tool_name_here</tool_name>\n" +
	"<arguments>\n" +
	"{\n" +
	"  \"param1\": \"value1\",\n" +
	"  \"param2\": \"value2 \\\"escaped string\\\"\"\n" +
	"}\n" +
	"</arguments>\n" +
	"</tool_call>\n\n" +
	"## Available Tools\n" +
	"Here are the functions available within <tools></tools> XML tags:\n\n"
