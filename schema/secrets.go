package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A spec is stored in Temporal's history and copied into every workflow
// and activity input, so it must carry no secret. checkSecrets refuses the
// places a secret is written by mistake:
//   - any URL anywhere in the spec (endpoints, tools.search.url, MCP urls,
//     output, dataset paths in env options) with userinfo or a key-like
//     query parameter (key, api_key, token, sig, X-Amz-Signature, …);
//   - key-like fields at any depth of policy.openai.extra_body: Quarry sends
//     extra_body as written (it expands no ${VAR} there), so a key belongs in
//     api_key_env;
//   - MCP servers' env and headers values that are not ${VAR} references,
//     and args such as --token=… with a literal value.

// keyWords are the words whose presence as a name's last word marks it as
// key-like: "api_key", "x-api-key", "accessToken", "client_secret". The last
// word only, so vLLM's return_token_ids or max_tokens are not.
var keyWords = []string{
	"key", "apikey", "token", "secret", "password", "passwd", "pwd", "passphrase",
	"authorization", "auth", "credential", "credentials", "signature", "sig", "cookie", "bearer",
}

// notSecrets are well-known names that end in a key word and hold none:
// OpenAI's prompt cache key, tokenizer special tokens.
var notSecrets = []string{"prompt_cache_key", "bos_token", "eos_token", "pad_token", "unk_token", "sep_token", "cls_token", "mask_token"}

// keyLike reports whether a field, header, flag or query parameter name
// looks like it holds a secret.
func keyLike(name string) bool {
	low := strings.ToLower(name)
	if slices.Contains(notSecrets, low) {
		return false
	}
	if strings.HasPrefix(low, "x-amz-") || strings.HasPrefix(low, "x-goog-") {
		return true // presigned S3/GCS URLs
	}
	words := splitWords(name)
	if len(words) == 0 {
		return false
	}
	return slices.Contains(keyWords, words[len(words)-1])
}

// splitWords splits snake, kebab and camel case into lower-case words.
func splitWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(runes[i-1]):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

var envRefRE = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

func (s JobSpec) checkSecrets(add func(path, format string, args ...any)) {
	walk(normalize(s), "", func(path string, v any) {
		if str, ok := v.(string); ok && strings.Contains(str, "://") {
			checkURL(path, str, add)
		}
	})
	if o := s.Policy.OpenAI; o != nil {
		body, _ := normalize(o.ExtraBody).(map[string]any)
		walkKeys(body, "policy.openai.extra_body", func(path, key string, v any) {
			switch v.(type) {
			case map[string]any, []any, nil:
				return // a structure (a JSON schema's properties, say) holds no secret itself
			}
			if keyLike(key) {
				add(path, "looks like a credential; extra_body is sent as written and stored in the job's workflow history (Quarry expands no ${VAR} in it): export the key on the workers and set policy.openai.api_key_env to the variable's name, or rename the field if it is no secret")
			}
		})
	}
	if s.Tools != nil {
		mcp, _ := normalize(s.Tools.MCP).(map[string]any)
		checkMCPSecrets(mcp, add)
	}
}

// normalize gives a decoded document the shapes of encoding/json
// (map[string]any, []any, float64), whatever decoded it.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// checkURL refuses credentials in a URL: userinfo, or a key-like query
// parameter.
func checkURL(path, raw string, add func(path, format string, args ...any)) {
	u, err := url.Parse(raw)
	if err != nil {
		return // not a URL: the field's own check reports it
	}
	how := "name an environment variable the worker reads instead (api_key_env for endpoints, ${VAR} in MCP headers, HF_TOKEN or the AWS credential chain for datasets and S3)"
	if u.User != nil {
		add(path, "credentials in the URL are not allowed (the spec is stored in workflow history): remove %q@ and %s", u.User.Username()+":…", how)
	}
	for _, k := range sortedKeys(u.Query()) {
		if keyLike(k) {
			add(path, "query parameter %q looks like a credential (the spec is stored in workflow history): remove it and %s", k, how)
		}
	}
}

// checkMCPSecrets refuses literal env and headers values and literal
// key-like args of the MCP servers.
func checkMCPSecrets(mcp map[string]any, add func(path, format string, args ...any)) {
	servers, _ := mcp["mcpServers"].(map[string]any)
	for _, name := range sortedKeys(servers) {
		srv, _ := servers[name].(map[string]any)
		base := "tools.mcp.mcpServers." + name
		for _, field := range []string{"env", "headers"} {
			m, _ := srv[field].(map[string]any)
			for _, k := range sortedKeys(m) {
				if v, ok := m[k].(string); ok && !envRefRE.MatchString(v) {
					add(base+"."+field+"."+k, "a literal value would be stored in workflow history: write a ${NAME} reference (e.g. %q) and export NAME on the workers", literalHint(field, k))
				}
			}
		}
		args, _ := srv["args"].([]any)
		for i, a := range args {
			arg, _ := a.(string)
			flag, val, hasVal := strings.Cut(arg, "=")
			if !strings.HasPrefix(flag, "-") || !keyLike(strings.TrimLeft(flag, "-")) {
				continue
			}
			if !hasVal && i+1 < len(args) {
				val, _ = args[i+1].(string)
				hasVal = true
			}
			if hasVal && val != "" && !envRefRE.MatchString(val) {
				add(fmt.Sprintf("%s.args[%d]", base, i), "%s takes a secret: pass it through env as a ${NAME} reference instead of a literal argument (the spec is stored in workflow history)", flag)
			}
		}
	}
}

func literalHint(field, key string) string {
	if field == "headers" && strings.EqualFold(key, "authorization") {
		return "Bearer ${GITHUB_TOKEN}"
	}
	return "${" + strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, key)) + "}"
}

// walk calls f on every value of a JSON tree with its spec path
// ("envs[0].options.dataset").
func walk(v any, path string, f func(path string, v any)) {
	f(path, v)
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			walk(t[k], join(path, k), f)
		}
	case []any:
		for i, e := range t {
			walk(e, path+"["+strconv.Itoa(i)+"]", f)
		}
	}
}

// walkKeys calls f on every map key at any depth of m.
func walkKeys(m map[string]any, path string, f func(path, key string, v any)) {
	walk(m, path, func(p string, v any) {
		if mm, ok := v.(map[string]any); ok {
			for _, k := range sortedKeys(mm) {
				f(join(p, k), k, mm[k])
			}
		}
	})
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
