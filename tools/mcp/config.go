package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Config lists the MCP servers a tool connects to, in the common
// `{"mcpServers": {...}}` shape used by Claude Desktop, Cursor, fastmcp and
// GEM. Decoding it (json.Unmarshal or ParseConfig) is strict: an unknown
// key or a value of the wrong type is an error naming its field path.
type Config struct {
	// Servers maps a server name to how to reach it. With more than one
	// server, the agent sees each tool as "<server>_<tool>", as fastmcp (and
	// so GEM) names them.
	Servers map[string]Server `json:"mcpServers"`
}

// Server is one MCP server: a command run over stdio, or a streamable HTTP
// URL. Values of Env and Headers may reference the worker's environment as
// ${NAME}; references are resolved each time a connection is made, so the
// secret never appears in a job spec, and resolved values are redacted from
// errors and observations.
type Server struct {
	// Command and Args start a stdio server, as an unprivileged user in a
	// directory of its own for the session (${QUARRY_MCP_HOME}, see
	// HomeVar). The process gets only PATH, HOME and TMPDIR plus Env.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the stdio server's working directory; empty means its home.
	Cwd string `json:"cwd,omitempty"`
	// URL is a streamable HTTP endpoint (http or https).
	URL string `json:"url,omitempty"`
	// Headers are added to every HTTP request.
	Headers map[string]string `json:"headers,omitempty"`
	// Transport is "stdio", "http" or "streamable-http"; it is inferred from
	// Command or URL when empty. The key may also be spelled "type".
	Transport string `json:"transport,omitempty"`
}

// stdio reports whether the server is run as a subprocess.
func (s Server) stdio() bool { return s.Command != "" }

var (
	serverNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	envNameRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headerNameRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// ParseConfig decodes and validates a Config strictly.
func ParseConfig(data []byte) (Config, error) {
	var c Config
	if err := c.UnmarshalJSON(data); err != nil {
		return Config{}, err
	}
	return c, nil
}

// UnmarshalJSON decodes strictly and validates; errors name the field path
// (e.g. `mcpServers.github.args[1]`).
func (c *Config) UnmarshalJSON(data []byte) error {
	top, err := decodeObject(data, "config")
	if err != nil {
		return err
	}
	var out Config
	for _, k := range sortedKeys(top) {
		if k != "mcpServers" {
			return fmt.Errorf("config: unknown field %q (want mcpServers)", k)
		}
	}
	raw, ok := top["mcpServers"]
	if !ok {
		return errors.New("mcpServers: missing")
	}
	servers, err := decodeObject(raw, "mcpServers")
	if err != nil {
		return err
	}
	out.Servers = make(map[string]Server, len(servers))
	for _, name := range sortedKeys(servers) {
		s, err := decodeServer(servers[name], "mcpServers."+name)
		if err != nil {
			return err
		}
		out.Servers[name] = s
	}
	if err := out.Validate(); err != nil {
		return err
	}
	*c = out
	return nil
}

func decodeServer(data []byte, path string) (Server, error) {
	fields, err := decodeObject(data, path)
	if err != nil {
		return Server{}, err
	}
	var s Server
	for _, k := range sortedKeys(fields) {
		raw, p := fields[k], path+"."+k
		switch k {
		case "command":
			err = decodeString(raw, p, &s.Command)
		case "args":
			s.Args, err = decodeStrings(raw, p)
		case "env":
			s.Env, err = decodeStringMap(raw, p)
		case "cwd":
			err = decodeString(raw, p, &s.Cwd)
		case "url":
			err = decodeString(raw, p, &s.URL)
		case "headers":
			s.Headers, err = decodeStringMap(raw, p)
		case "transport", "type":
			var t string
			if err = decodeString(raw, p, &t); err == nil {
				if s.Transport != "" && s.Transport != t {
					err = fmt.Errorf("%s: %q disagrees with %q", p, t, s.Transport)
				}
				s.Transport = t
			}
		default:
			err = fmt.Errorf("%s: unknown field (want command, args, env, cwd, url, headers, transport)", p)
		}
		if err != nil {
			return Server{}, err
		}
	}
	return s, nil
}

// Validate checks a Config built in Go (decoding validates already).
func (c Config) Validate() error {
	if len(c.Servers) == 0 {
		return errors.New("mcpServers: no servers")
	}
	for _, name := range sortedKeys(c.Servers) {
		if !serverNameRE.MatchString(name) {
			return fmt.Errorf("mcpServers.%s: server name must match %s", name, serverNameRE)
		}
		if err := c.Servers[name].validate("mcpServers." + name); err != nil {
			return err
		}
	}
	return nil
}

func (s Server) validate(path string) error {
	switch {
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("%s: want command (stdio) or url (streamable HTTP)", path)
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("%s: command and url are exclusive", path)
	}
	switch s.Transport {
	case "":
	case "stdio":
		if !s.stdio() {
			return fmt.Errorf("%s.transport: stdio needs command", path)
		}
	case "http", "streamable-http", "streamableHttp":
		if s.stdio() {
			return fmt.Errorf("%s.transport: %s needs url", path, s.Transport)
		}
	case "sse":
		return fmt.Errorf("%s.transport: sse is not supported (use streamable HTTP)", path)
	default:
		return fmt.Errorf("%s.transport: %q unknown (want stdio, http or streamable-http)", path, s.Transport)
	}
	if s.stdio() {
		if len(s.Headers) > 0 {
			return fmt.Errorf("%s.headers: only for url servers", path)
		}
		for _, k := range sortedKeys(s.Env) {
			if !envNameRE.MatchString(k) {
				return fmt.Errorf("%s.env.%s: not a valid variable name", path, k)
			}
			if err := checkRefs(s.Env[k]); err != nil {
				return fmt.Errorf("%s.env.%s: %w", path, k, err)
			}
		}
		return nil
	}
	if len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
		return fmt.Errorf("%s: args, env and cwd are only for command servers", path)
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s.url: want an http(s) URL with a host", path)
	}
	for _, k := range sortedKeys(s.Headers) {
		if !headerNameRE.MatchString(k) {
			return fmt.Errorf("%s.headers.%s: not a valid header name", path, k)
		}
		if err := checkRefs(s.Headers[k]); err != nil {
			return fmt.Errorf("%s.headers.%s: %w", path, k, err)
		}
		if strings.Contains(s.Headers[k], "${"+HomeVar+"}") {
			return fmt.Errorf("%s.headers.%s: ${%s} is a stdio server's directory; a url server has none", path, k, HomeVar)
		}
	}
	return nil
}

// decodeObject decodes one JSON object into its raw members, rejecting
// duplicate keys (which encoding/json would silently merge).
func decodeObject(data []byte, path string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%s: want an object, got %s", path, jsonKind(data))
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		key := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", path, key, err)
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s.%s: duplicate key", path, key)
		}
		out[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("%s: trailing data after the object", path)
	}
	return out, nil
}

func decodeString(raw json.RawMessage, path string, dst *string) error {
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%s: want a string, got %s", path, jsonKind(raw))
	}
	return nil
}

func decodeStrings(raw json.RawMessage, path string) ([]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("%s: want an array of strings, got %s", path, jsonKind(raw))
	}
	out := make([]string, len(items))
	for i, it := range items {
		if err := decodeString(it, fmt.Sprintf("%s[%d]", path, i), &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeStringMap(raw json.RawMessage, path string) (map[string]string, error) {
	fields, err := decodeObject(raw, path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(fields))
	for k, v := range fields {
		var s string
		if err := decodeString(v, path+"."+k, &s); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// jsonKind names the JSON type of a value for error messages.
func jsonKind(raw []byte) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// minSecretLen is the shortest resolved value treated as a secret: shorter
// values (a "1" flag) would garble every observation they were redacted from.
const minSecretLen = 6

// secrets remembers resolved ${NAME} values so they can be redacted.
type secrets struct {
	pairs    []string // encoded value, replacement, ... longest first
	replacer *strings.Replacer
}

// redact replaces every known secret value in s, in every encoding a tool
// is likely to print it in, by its reference.
func (sc *secrets) redact(s string) string {
	if sc == nil || len(sc.pairs) == 0 {
		return s
	}
	if sc.replacer == nil {
		sc.replacer = strings.NewReplacer(sc.pairs...)
	}
	return sc.replacer.Replace(s)
}

// add records a resolved value. ${QUARRY_MCP_HOME} is a path, not a secret.
func (sc *secrets) add(name, value string) {
	if name == HomeVar || len(value) < minSecretLen {
		return
	}
	ref := "${" + name + "}"
	for _, enc := range encodings(value) {
		if !slices.Contains(sc.pairs, enc) {
			sc.pairs = append(sc.pairs, enc, ref)
		}
	}
	// strings.Replacer tries the old strings in argument order at each
	// position: longest first, so a whole value wins over one of its lines.
	type pair struct{ old, ref string }
	ps := make([]pair, 0, len(sc.pairs)/2)
	for i := 0; i < len(sc.pairs); i += 2 {
		ps = append(ps, pair{sc.pairs[i], sc.pairs[i+1]})
	}
	slices.SortStableFunc(ps, func(a, b pair) int { return len(b.old) - len(a.old) })
	sc.pairs = sc.pairs[:0]
	for _, p := range ps {
		sc.pairs = append(sc.pairs, p.old, p.ref)
	}
	sc.replacer = nil
}

// encodings are the forms a value takes in a tool's output: as is; inside a
// JSON string (JavaScript's JSON.stringify, Go's HTML-safe encoding,
// Python's ensure_ascii), once or twice (JSON text inside a JSON string);
// with CRLF line ends; and, for a multi-line value such as a PEM key, each
// of its lines long enough to be a secret on its own.
func encodings(v string) []string {
	out := []string{v}
	addEnc := func(s string) {
		if len(s) >= minSecretLen && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	js := jsonInner(v, false)
	addEnc(js)
	addEnc(jsonInner(js, false))
	addEnc(jsonInner(v, true))
	addEnc(asciiJSONInner(v))
	if strings.Contains(v, "\n") {
		crlf := strings.ReplaceAll(strings.ReplaceAll(v, "\r\n", "\n"), "\n", "\r\n")
		addEnc(crlf)
		addEnc(jsonInner(crlf, false))
		for _, line := range strings.Split(v, "\n") {
			line = strings.TrimSpace(line)
			addEnc(line)
			addEnc(jsonInner(line, false))
		}
	}
	return out
}

// jsonInner is v as a JSON string without its quotes.
func jsonInner(v string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(v) // a string always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// asciiJSONInner is v as Python's json.dumps (ensure_ascii) writes it,
// without the quotes: non-ASCII as \uXXXX, surrogate pairs beyond the BMP.
func asciiJSONInner(v string) string {
	var b strings.Builder
	for _, r := range jsonInner(v, false) {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, "\\u%04x\\u%04x", 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// checkRefs validates the ${NAME} references in s without resolving them.
func checkRefs(s string) error {
	_, err := expand(s, func(string) (string, bool) { return "", true }, nil)
	return err
}

// expand resolves ${NAME} references in s with lookup, recording resolved
// values in sc. A "$" not followed by "{" is literal.
func expand(s string, lookup func(string) (string, bool), sc *secrets) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed ${ reference")
		}
		name := s[i+2 : i+j]
		if !envNameRE.MatchString(name) {
			return "", fmt.Errorf("reference ${%s}: not a valid variable name", name)
		}
		v, ok := lookup(name)
		if !ok {
			return "", fmt.Errorf("environment variable %s is not set", name)
		}
		if sc != nil {
			sc.add(name, v)
		}
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// redactedError is an error whose message has had secrets removed; it still
// unwraps to the original so callers can branch on it.
type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// wrap returns err with prefix and its message redacted.
func (sc *secrets) wrap(prefix string, err error) error {
	return redactedError{msg: prefix + sc.redact(err.Error()), err: err}
}
