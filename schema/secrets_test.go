package schema

import (
	"strings"
	"testing"
)

func TestInlineSecretsRefused(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mutate func(*JobSpec)
		path   string
		want   string
	}{
		{"extra_body key", func(s *JobSpec) { s.Policy.OpenAI.ExtraBody = map[string]any{"api_key": "sk-live"} }, "policy.openai.extra_body.api_key", "api_key_env"},
		{"extra_body nested token", func(s *JobSpec) {
			s.Policy.OpenAI.ExtraBody = map[string]any{"auth": map[string]any{"token": "abc"}}
		}, "policy.openai.extra_body.auth.token", "looks like a credential"},
		{"extra_body camel case", func(s *JobSpec) { s.Policy.OpenAI.ExtraBody = map[string]any{"accessToken": "abc"} }, "policy.openai.extra_body.accessToken", "api_key_env"},
		{"extra_body authorization", func(s *JobSpec) {
			s.Policy.OpenAI.ExtraBody = map[string]any{"headers": []any{map[string]any{"Authorization": "Bearer x"}}}
		}, "policy.openai.extra_body.headers[0].Authorization", "api_key_env"},
		{"endpoint query key", func(s *JobSpec) { s.Policy.OpenAI.Endpoints = []string{"https://h/v1?api_key=sk-live"} }, "policy.openai.endpoints[0]", `query parameter "api_key"`},
		{"endpoint userinfo", func(s *JobSpec) { s.Policy.OpenAI.Endpoints = []string{"https://me:pw@h/v1"} }, "policy.openai.endpoints[0]", "credentials in the URL"},
		{"search url token", func(s *JobSpec) {
			s.Tools = &ToolsSpec{Search: &SearchToolSpec{URL: "http://127.0.0.1:8000/retrieve?token=t"}}
			s.Tools.withDefaults()
		}, "tools.search.url", `query parameter "token"`},
		{"s3 presigned", func(s *JobSpec) { s.Output = "s3://bucket/runs?X-Amz-Signature=abc" }, "output", `"X-Amz-Signature"`},
		{"s3 userinfo", func(s *JobSpec) { s.Output = "s3://AKIA:secret@bucket/runs" }, "output", "credentials in the URL"},
		{"dataset url", func(s *JobSpec) {
			s.Envs[0].Options = map[string]any{"dataset": "https://example.com/d.jsonl?sig=abc"}
		}, "envs[0].options.dataset", `query parameter "sig"`},
		{"mcp url", func(s *JobSpec) {
			s.Tools = &ToolsSpec{MCP: map[string]any{"mcpServers": map[string]any{"gh": map[string]any{"url": "https://api/mcp?access_token=x"}}}}
			s.Tools.withDefaults()
		}, "tools.mcp.mcpServers.gh.url", `"access_token"`},
		{"mcp literal header", func(s *JobSpec) {
			s.Tools = &ToolsSpec{MCP: map[string]any{"mcpServers": map[string]any{"gh": map[string]any{"url": "https://api/mcp", "headers": map[string]any{"Authorization": "Bearer ghp_x"}}}}}
			s.Tools.withDefaults()
		}, "tools.mcp.mcpServers.gh.headers.Authorization", "Bearer ${GITHUB_TOKEN}"},
		{"mcp literal env", func(s *JobSpec) {
			s.Tools = &ToolsSpec{MCP: map[string]any{"mcpServers": map[string]any{"fs": map[string]any{"command": "node", "env": map[string]any{"GITHUB_TOKEN": "ghp_x"}}}}}
			s.Tools.withDefaults()
		}, "tools.mcp.mcpServers.fs.env.GITHUB_TOKEN", "${GITHUB_TOKEN}"},
		{"mcp literal arg", func(s *JobSpec) {
			s.Tools = &ToolsSpec{MCP: map[string]any{"mcpServers": map[string]any{"fs": map[string]any{"command": "node", "args": []any{"server.js", "--api-key", "abc"}}}}}
			s.Tools.withDefaults()
		}, "tools.mcp.mcpServers.fs.args[1]", "--api-key takes a secret"},
	} {
		s := goodSpec(t)
		tt.mutate(&s)
		err := s.Validate()
		wantField(t, err, tt.path, tt.want)
		for _, secret := range []string{"sk-live", "ghp_x", "pw@"} {
			if err != nil && strings.Contains(err.Error(), secret) {
				t.Errorf("%s: the error echoes the secret: %v", tt.name, err)
			}
		}
	}
}

func TestReferencesAndLookalikesAccepted(t *testing.T) {
	s := goodSpec(t)
	s.Policy.OpenAI.ExtraBody = map[string]any{
		"return_token_ids": true, "max_tokens": 5, "top_k": 20, "skip_special_tokens": false,
		"guided_json": map[string]any{"properties": map[string]any{"password": map[string]any{"type": "string"}}},
	}
	s.Tools = &ToolsSpec{MCP: map[string]any{"mcpServers": map[string]any{
		"gh": map[string]any{"url": "https://api/mcp?page=2", "headers": map[string]any{"Authorization": "Bearer ${GITHUB_TOKEN}"}},
		"fs": map[string]any{"command": "node", "args": []any{"--token", "${FS_TOKEN}", "--verbose"}, "env": map[string]any{"TOKEN": "${FS_TOKEN}"}},
	}}}
	s.Tools.withDefaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestKeyLike(t *testing.T) {
	for name, want := range map[string]bool{
		"api_key": true, "x-api-key": true, "apiKey": true, "token": true, "access_token": true, "client_secret": true,
		"Authorization": true, "password": true, "X-Amz-Credential": true, "sig": true,
		"return_token_ids": false, "max_tokens": false, "top_k": false, "stop_token_ids": false, "model": false, "keys_to_sort": false,
		"prompt_cache_key": false, "eos_token": false,
	} {
		if got := keyLike(name); got != want {
			t.Errorf("keyLike(%q) = %v, want %v", name, got, want)
		}
	}
}
