package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	good := `{"mcpServers": {
		"github": {"command": "npx", "args": ["-y", "server-github"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
		"search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${SEARCH_KEY}"}, "transport": "http"},
		"local": {"type": "stdio", "command": "./server", "cwd": "/tmp"}
	}}`
	c, err := ParseConfig([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if g := c.Servers["github"]; g.Command != "npx" || len(g.Args) != 2 || g.Env["GITHUB_TOKEN"] != "${GITHUB_TOKEN}" {
		t.Errorf("github: %+v", g)
	}
	if s := c.Servers["search"]; s.URL != "https://example.com/mcp" || s.Headers["Authorization"] != "Bearer ${SEARCH_KEY}" {
		t.Errorf("search: %+v", s)
	}
	if l := c.Servers["local"]; l.Transport != "stdio" || l.Cwd != "/tmp" {
		t.Errorf("local: %+v", l)
	}
	// Config decodes strictly inside a larger document too.
	var spec struct {
		MCP Config `json:"mcp"`
	}
	if err := json.Unmarshal([]byte(`{"mcp": {"mcpServers": {"a": {"url": "http://127.0.0.1/mcp", "header": {}}}}}`), &spec); err == nil ||
		!strings.Contains(err.Error(), "mcpServers.a.header: unknown field") {
		t.Errorf("nested decode: %v", err)
	}

	bad := []struct{ json, err string }{
		{`[]`, "config: want an object, got an array"},
		{`{}`, "mcpServers: missing"},
		{`{"mcpServers": {}, "x": 1}`, `config: unknown field "x"`},
		{`{"mcpServers": {}}`, "mcpServers: no servers"},
		{`{"mcpServers": {"a": {}}}`, "mcpServers.a: want command (stdio) or url"},
		{`{"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}`, "mcpServers.a: command and url are exclusive"},
		{`{"mcpServers": {"a": {"command": "x", "args": ["ok", 3]}}}`, "mcpServers.a.args[1]: want a string, got a number"},
		{`{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`, "mcpServers.a.args: want an array of strings, got a string"},
		{`{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}`, "mcpServers.a.env.K: want a string, got a number"},
		{`{"mcpServers": {"a": {"command": "x", "env": {"K": "${UNCLOSED"}}}}`, "mcpServers.a.env.K: unclosed ${ reference"},
		{`{"mcpServers": {"a": {"command": "x", "env": {"K": "${1BAD}"}}}}`, "mcpServers.a.env.K: reference ${1BAD}: not a valid variable name"},
		{`{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`, "mcpServers.a.headers: only for url servers"},
		{`{"mcpServers": {"a": {"url": "ftp://h/x"}}}`, "mcpServers.a.url: want an http(s) URL"},
		{`{"mcpServers": {"a": {"url": "http://h/", "args": ["x"]}}}`, "mcpServers.a: args, env and cwd are only for command servers"},
		{`{"mcpServers": {"a": {"url": "http://h/", "headers": {"Bad Name": "x"}}}}`, "mcpServers.a.headers.Bad Name: not a valid header name"},
		{`{"mcpServers": {"a": {"url": "http://h/", "transport": "sse"}}}`, "mcpServers.a.transport: sse is not supported"},
		{`{"mcpServers": {"a": {"url": "http://h/", "transport": "stdio"}}}`, "mcpServers.a.transport: stdio needs command"},
		{`{"mcpServers": {"a": {"url": "http://h/", "transport": "http", "type": "stdio"}}}`, `disagrees`},
		{`{"mcpServers": {"a b": {"url": "http://h/"}}}`, "mcpServers.a b: server name must match"},
		{`{"mcpServers": {"a": {"url": "http://h/", "url": "http://i/"}}}`, "mcpServers.a.url: duplicate key"},
		{`{"mcpServers": {"a": {"commnd": "x"}}}`, "mcpServers.a.commnd: unknown field"},
		{`{"mcpServers": {"a": {"url": "http://h/", "headers": {"X": "${QUARRY_MCP_HOME}"}}}}`, "mcpServers.a.headers.X: ${QUARRY_MCP_HOME} is a stdio server's directory"},
	}
	for _, c := range bad {
		if _, err := ParseConfig([]byte(c.json)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s:\n got %v\nwant an error containing %q", c.json, err, c.err)
		}
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "abcdef-123", "SHORT": "1"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var sc secrets
	got, err := expand("Bearer ${TOKEN} $HOME ${SHORT}$", lookup, &sc)
	if err != nil || got != "Bearer abcdef-123 $HOME 1$" {
		t.Fatalf("expand: %q, %v", got, err)
	}
	if r := sc.redact("x abcdef-123 y 1"); r != "x ${TOKEN} y 1" {
		t.Errorf("redact: %q (short values stay, long ones are redacted)", r)
	}
	if _, err := expand("${MISSING}", lookup, &sc); err == nil || err.Error() != "environment variable MISSING is not set" {
		t.Errorf("missing: %v", err)
	}
}

// TestPyDumps checks against outputs of Python 3's json.dumps(json.loads(x)).
func TestPyDumps(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b": 1, "a": [1.0, 1e16, 1.5e-5, 0.0001, 123456789012345678901234567890, -0, -0.0, 1e400, 2.5E+3, 1e15]}`,
			`{"b": 1, "a": [1.0, 1e+16, 1.5e-05, 0.0001, 123456789012345678901234567890, 0, -0.0, Infinity, 2500.0, 1000000000000000.0]}`},
		{`"hé\u00e9 \ud83d\ude00 <&> \u007f\t\u0001"`, `"h\u00e9\u00e9 \ud83d\ude00 <&> \u007f\t\u0001"`},
		{`{"a": 1, "a": 2, "b": null, "c": true}`, `{"a": 2, "b": null, "c": true}`},
		{`{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}`, `{"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}`},
	}
	for _, c := range cases {
		got, err := pyDumps([]byte(c.in))
		if err != nil || got != c.want {
			t.Errorf("pyDumps(%s):\n got %s (%v)\nwant %s", c.in, got, err, c.want)
		}
	}
}

// TestRedactEncodings: a secret is redacted however a tool printed it: as
// is, inside JSON strings (JavaScript's, Go's HTML-safe, Python's ASCII-only,
// escaped twice), with CRLF line ends, or a PEM key one line at a time; the
// whole value wins over its lines.
func TestRedactEncodings(t *testing.T) {
	pem := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----"
	quoted := `pa"ss\wörd<&>`
	var sc secrets
	sc.add("PEM", pem)
	sc.add("PASS", quoted)
	sc.add(HomeVar, "/tmp/quarry-mcp-x-123")
	js := func(v string) string { b, _ := json.Marshal(v); return string(b) } // Go: HTML-safe
	cases := map[string]struct{ in, want string }{
		"raw":           {"key: " + pem + ".", "key: ${PEM}."},
		"json":          {`{"k": ` + js(pem) + `}`, `{"k": "${PEM}"}`},
		"json twice":    {js(`{"k": ` + js(pem) + `}`), js(`{"k": "${PEM}"}`)},
		"crlf":          {strings.ReplaceAll(pem, "\n", "\r\n"), "${PEM}"},
		"one line":      {"line 2 is BKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj only", "line 2 is ${PEM} only"},
		"quotes":        {"p=" + quoted, "p=${PASS}"},
		"quotes js":     {`"p": "pa\"ss\\wörd<&>"`, `"p": "${PASS}"`},
		"quotes go":     {`"p": ` + js(quoted), `"p": "${PASS}"`},
		"quotes python": {`"p": "pa\"ss\\w\u00f6rd<&>"`, `"p": "${PASS}"`},
		"home stays":    {"/tmp/quarry-mcp-x-123/memory.jsonl", "/tmp/quarry-mcp-x-123/memory.jsonl"},
	}
	for name, c := range cases {
		if got := sc.redact(c.in); got != c.want {
			t.Errorf("%s: redact(%q) = %q, want %q", name, c.in, got, c.want)
		}
	}
}
