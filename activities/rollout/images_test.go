package rollout

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// A conversation with images grows by deltas as a text one does: a request
// that repeats the earlier messages, images and all, adds only its new
// messages; one whose image changed is a new segment. Deltas hold images by
// reference.
func TestConversationWithImages(t *testing.T) {
	a := envs.Image{MIME: "image/png", Data: []byte("\x89PNG first")}
	b := envs.Image{MIME: "image/png", Data: []byte("\x89PNG second")}
	question := func(im envs.Image) envs.Message {
		return envs.Message{Role: "user", Parts: envs.ImageParts("<image>Find x.", []envs.Image{im})}
	}
	var c Conversation
	first := envs.Prompt{Messages: []envs.Message{question(a)}}
	delta, seg, err := c.Peek(first)
	if err != nil || seg != 0 || !strings.Contains(delta, a.Ref().SHA256) || strings.Contains(delta, "first") {
		t.Fatalf("first delta %s (segment %d, %v): want the question with its image by reference", delta, seg, err)
	}
	c.Commit(first, `\boxed{3}`)
	next := envs.Prompt{Messages: []envs.Message{question(a), {Role: "assistant", Content: `\boxed{3}`}, {Role: "user", Content: "Again?"}}}
	if delta, seg, _ := c.Peek(next); seg != 0 || delta != `[{"role":"user","content":"Again?"}]` {
		t.Fatalf("delta %s (segment %d), want only the new message", delta, seg)
	}
	next.Messages[0] = question(b)
	if delta, seg, _ := c.Peek(next); seg != 1 || !strings.Contains(delta, b.Ref().SHA256) {
		t.Fatalf("delta %s (segment %d): a changed image must start a new segment", delta, seg)
	}
}
