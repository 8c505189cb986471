package schema

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// ToolsSpec gives a job's agents tools (GEM's ToolEnvWrapper): a GEM preset
// (python_tool, search_tool and their _no_int_reward forms) and/or the tools
// themselves, with the reward rule and budget. Only the openai policy calls
// tools. Tool turns do not spend an env's own turn budget; the job's
// max_turns counts every turn.
type ToolsSpec struct {
	// Preset names a GEM wrapper preset: it selects its tool and fills the
	// rewards and max_tool_uses left unset.
	Preset string          `json:"preset,omitempty"`
	Python *PythonToolSpec `json:"python,omitempty"`
	Search *SearchToolSpec `json:"search,omitempty"`
	// MCP is a document in the common mcpServers shape
	// ({"mcpServers": {"name": {"command": …} | {"url": …}}}); values may
	// reference worker environment variables as ${NAME}, so secrets stay out
	// of the spec.
	MCP map[string]any `json:"mcp,omitempty"`

	ToolReward        *float64 `json:"tool_reward,omitempty"`
	ToolSuccessReward *float64 `json:"tool_success_reward,omitempty"`
	ToolErrorReward   *float64 `json:"tool_error_reward,omitempty"`
	// MaxToolUses caps tool turns per episode (default 10, GEM's; a
	// preset's 5). 0 means no tool turns (GEM); -1 no cap (GEM's None; YAML
	// null is "unset" here).
	MaxToolUses *int `json:"max_tool_uses,omitempty"`
	// Calling is how the agent calls tools: "text" (default), tags in the
	// response parsed as GEM does; or "native": the tools go to the endpoint
	// as OpenAI function tools and the model answers with tool_calls (a
	// server with a tool-call parser, e.g. vLLM's --tool-call-parser hermes;
	// needs the chat wrapper).
	Calling string `json:"calling,omitempty"`
}

// Tool calling modes.
const (
	CallingText   = "text"
	CallingNative = "native"
)

// PythonToolSpec configures the sandboxed Python tool.
type PythonToolSpec struct {
	// Timeout of one execution (default 10s).
	Timeout Duration `json:"timeout,omitempty"`
	// KeepErrorLastLine shows only the last line of stderr (GEM's option).
	KeepErrorLastLine bool `json:"keep_error_last_line,omitempty"`
	// NoBlocklist runs code that GEM's default sandbox type refuses
	// (import subprocess, os.system, sys.exit, …; tools/python.Blocked),
	// which is otherwise a failed call, as in GEM.
	NoBlocklist bool `json:"no_blocklist,omitempty"`
}

// SearchToolSpec points the search tool at a /retrieve server.
type SearchToolSpec struct {
	// URL of the retrieval endpoint, e.g. http://127.0.0.1:8000/retrieve.
	URL     string   `json:"url"`
	TopK    int      `json:"topk,omitempty"`
	Timeout Duration `json:"timeout,omitempty"`
}

// ToolPreset is one of GEM's wrapper presets.
type ToolPreset struct {
	Tool                          string
	ToolReward, ToolSuccessReward float64
	MaxToolUses                   int
	KeepErrorLastLine             bool
}

// ToolPresets are GEM's presets (gem/wrappers/wrapper_factory.py).
var ToolPresets = map[string]ToolPreset{
	"python_tool":                               {Tool: "python", ToolReward: 0.05, ToolSuccessReward: 0.25, MaxToolUses: 5},
	"python_tool_no_int_reward":                 {Tool: "python", MaxToolUses: 5},
	"python_tool_no_int_reward_last_line_error": {Tool: "python", MaxToolUses: 5, KeepErrorLastLine: true},
	"search_tool":                               {Tool: "search", ToolReward: 0.3, MaxToolUses: 5},
	"search_tool_no_int_reward":                 {Tool: "search", MaxToolUses: 5},
}

// DefaultMaxToolUses is GEM's ToolEnvWrapper default.
const DefaultMaxToolUses = 10

func (t *ToolsSpec) withDefaults() {
	// Copy what is filled in, so the caller's spec is left as it was.
	if t.Python != nil {
		py := *t.Python
		t.Python = &py
	}
	if t.Search != nil {
		s := *t.Search
		t.Search = &s
	}
	p, ok := ToolPresets[t.Preset]
	if ok {
		switch p.Tool {
		case "python":
			if t.Python == nil {
				t.Python = &PythonToolSpec{}
			}
			t.Python.KeepErrorLastLine = t.Python.KeepErrorLastLine || p.KeepErrorLastLine
		case "search":
			if t.Search == nil {
				t.Search = &SearchToolSpec{}
			}
		}
	}
	set := func(f **float64, v float64) {
		if *f == nil {
			*f = &v
		}
	}
	set(&t.ToolReward, p.ToolReward)
	set(&t.ToolSuccessReward, p.ToolSuccessReward)
	set(&t.ToolErrorReward, 0)
	if t.MaxToolUses == nil {
		n := DefaultMaxToolUses
		if ok {
			n = p.MaxToolUses
		}
		t.MaxToolUses = &n
	}
	if t.Calling == "" {
		t.Calling = CallingText
	}
	if py := t.Python; py != nil && py.Timeout == 0 {
		py.Timeout = Duration(DefaultPythonTimeout)
	}
	if s := t.Search; s != nil {
		if s.TopK == 0 {
			s.TopK = 3
		}
		if s.Timeout == 0 {
			s.Timeout = Duration(DefaultSearchTimeout)
		}
	}
}

// Names lists the job's tools in the order they are tried on an action.
func (t *ToolsSpec) Names() []string {
	var out []string
	if t.Python != nil {
		out = append(out, "python")
	}
	if t.Search != nil {
		out = append(out, "search")
	}
	if t.MCP != nil {
		out = append(out, "mcp")
	}
	return out
}

func (t *ToolsSpec) validate(policy, wrapper string, add func(path, format string, args ...any)) {
	switch t.Calling {
	case CallingText:
	case CallingNative:
		if wrapper != "chat" {
			add("tools.calling", "native tool calling needs wrapper: chat (the wrapper is %s)", wrapper)
		}
	default:
		add("tools.calling", "%q: want text or native", t.Calling)
	}
	if policy != PolicyOpenAI {
		add("tools", "only the openai policy calls tools (policy.kind is %s)", policy)
	}
	if t.Preset != "" {
		if _, ok := ToolPresets[t.Preset]; !ok {
			names := make([]string, 0, len(ToolPresets))
			for n := range ToolPresets {
				names = append(names, n)
			}
			slices.Sort(names)
			add("tools.preset", "%q: want one of %s", t.Preset, strings.Join(names, ", "))
		}
	}
	if len(t.Names()) == 0 {
		add("tools", "no tool: give a preset (python_tool, search_tool, …) or python, search or mcp")
	}
	if py := t.Python; py != nil && py.Timeout <= 0 {
		add("tools.python.timeout", "want a positive duration such as 10s")
	}
	if s := t.Search; s != nil {
		if u, err := url.Parse(s.URL); s.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("tools.search.url", "%q: want the retrieval server's http(s) URL, e.g. http://127.0.0.1:8000/retrieve (serve one with `quarry retrieve serve`)", s.URL)
		}
		if s.TopK < 1 || s.TopK > 100 {
			add("tools.search.topk", "%d: want 1 to 100", s.TopK)
		}
		if s.Timeout <= 0 {
			add("tools.search.timeout", "want a positive duration such as 5s")
		}
	}
	if t.MCP != nil {
		if _, ok := t.MCP["mcpServers"]; !ok {
			add("tools.mcp", `want an mcpServers document: {"mcpServers": {"name": {"command": "…", "args": […]}}}`)
		}
	}
	if t.MaxToolUses != nil && *t.MaxToolUses < -1 {
		add("tools.max_tool_uses", "%d: want a cap of 1 or more, 0 (no tool turns) or -1 (no cap)", *t.MaxToolUses)
	}
	if r := t.ToolErrorReward; r != nil && *r != 0 {
		if *r > 0 {
			add("tools.tool_error_reward", "%v: must be negative", *r)
		}
		if (t.ToolReward != nil && *t.ToolReward != 0) || (t.ToolSuccessReward != nil && *t.ToolSuccessReward != 0) {
			add("tools.tool_error_reward", "cannot be combined with tool_reward or tool_success_reward (GEM's rule)")
		}
	}
}

// MCPConfig is the MCP document as JSON, for tools/mcp.ParseConfig.
func (t *ToolsSpec) MCPConfig() ([]byte, error) { return json.Marshal(t.MCP) }
