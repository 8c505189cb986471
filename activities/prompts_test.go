package activities

import (
	"encoding/json"
	"testing"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

// system_prompt goes first in every chat request, and the turn's recorded
// prompt delta holds it, so the dataset says what the model was shown.
func TestSystemPromptLeadsTheChat(t *testing.T) {
	srv := openaitest.Start(t)
	g := newGenerateEnv(t, srv, `system_prompt: "You are a careful player.", `+tokensAsked)
	rec, err := g.run(t, GenerateInput{})
	if err != nil {
		t.Fatal(err)
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
	if len(msgs) < 2 {
		t.Fatalf("messages %v", body["messages"])
	}
	first, _ := msgs[0].(map[string]any)
	if first["role"] != "system" || first["content"] != "You are a careful player." {
		t.Errorf("first message %v, want the system prompt", first)
	}
	var delta []map[string]string
	if err := json.Unmarshal([]byte(rec.PromptDelta), &delta); err != nil || len(delta) < 2 || delta[0]["role"] != "system" {
		t.Errorf("prompt_delta %q: want the system message first", rec.PromptDelta)
	}
}
