package activities

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

const geometry = `envs: [{id: math:Geometry3K, options: {dataset: sample}}]`

// An image env's question reaches the endpoint as OpenAI content parts:
// the row's image as a data URL of its very bytes, then the text, after
// the system prompt; the turn log records the image by reference only.
func TestGenerateSendsImageParts(t *testing.T) {
	srv := openaitest.Start(t)
	s := spec(t, `{job: img, `+geometry+`, tasks: 1, policy: {kind: openai, openai: {endpoints: ['`+
		srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`, system_prompt: "Solve it."}}}`)
	a := newActivities(t)
	a.turns().poolOptions = []inference.Option{inference.WithBackoff(time.Millisecond, 10*time.Millisecond)}
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	g := &generateEnv{a: a, env: (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment(), ep: EpisodeRef{Spec: s, Env: plans[0], Slot: s.BatchSlots(0)[0]}}
	g.env.RegisterActivity(a.Generate)
	rec, err := g.run(t, GenerateInput{})
	if err != nil {
		t.Fatal(err)
	}

	env, err := a.Envs.Make("math:Geometry3K", map[string]any{"dataset": "sample"})
	if err != nil {
		t.Fatal(err)
	}
	question, info, err := envs.ResetTask(env, plans[0].Row(s.Seed, g.ep.Slot.Task), 0)
	if err != nil || len(info.Images) != 1 {
		t.Fatalf("row: %d images, %v", len(info.Images), err)
	}
	chats := srv.ChatRecords()
	if len(chats) != 1 {
		t.Fatalf("%d chat requests", len(chats))
	}
	body, err := chats[0].JSON()
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("messages %v, want the system prompt and the question", body["messages"])
	}
	user, _ := msgs[1].(map[string]any)
	parts, _ := user["content"].([]any)
	if user["role"] != "user" || len(parts) != 2 {
		t.Fatalf("question message %v, want an image part and a text part", user)
	}
	img, _ := parts[0].(map[string]any)
	url, _ := img["image_url"].(map[string]any)["url"].(string)
	data, ok := strings.CutPrefix(url, "data:image/png;base64,")
	raw, err := base64.StdEncoding.DecodeString(data)
	if img["type"] != "image_url" || !ok || err != nil || !bytes.Equal(raw, info.Images[0].Data) {
		t.Fatalf("image part %.80v: want a PNG data URL of the row's image (%v)", img, err)
	}
	text, _ := parts[1].(map[string]any)
	if text["type"] != "text" || "<image>"+text["text"].(string) != question {
		t.Fatalf("text part %v, want the question after its <image> marker (%q)", text, question)
	}
	ref := info.Images[0].Ref()
	if strings.Contains(rec.PromptDelta, data[:40]) || !strings.Contains(rec.PromptDelta, ref.SHA256) ||
		!strings.Contains(rec.PromptDelta, `"type":"image"`) {
		t.Fatalf("prompt_delta %.300s: want the image by reference (sha256 %s), no bytes", rec.PromptDelta, ref.SHA256)
	}
}

// An image env refuses, naming the field, what cannot carry its images:
// api: completions, tokens: exact and concat_chat_on_reset; api: chat with
// a text wrapper is accepted.
func TestImageEnvRefusesTextOnlyPolicies(t *testing.T) {
	a := newActivities(t)
	policy := `policy: {kind: openai, openai: {endpoints: ['http://127.0.0.1:1/v1'], model: m`
	for _, tt := range []struct{ extra, wrapper, field string }{
		{extra: `, api: completions, template: qwen3_general`, wrapper: `wrapper: last, `, field: "policy.openai.api"},
		{extra: `, tokens: exact`, field: "policy.openai.tokens"},
		{wrapper: `wrapper: concat_chat_on_reset, `, field: "wrapper"},
		{wrapper: `wrapper: concat, `},
	} {
		s := spec(t, `{job: img, `+tt.wrapper+geometry+`, tasks: 1, `+policy+tt.extra+`}}}`)
		_, err := ResolveEnvs(a.Envs, s)
		if tt.field == "" {
			if err != nil {
				t.Errorf("%s%s: %v", tt.wrapper, tt.extra, err)
			}
			continue
		}
		se, ok := err.(schema.SpecError)
		if !ok || len(se) != 1 || se[0].Path != tt.field || !strings.Contains(se[0].Problem, "math:Geometry3K shows images") {
			t.Errorf("%s%s: %v, want one error naming %s", tt.wrapper, tt.extra, err, tt.field)
		}
	}
}
