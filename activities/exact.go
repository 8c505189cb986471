package activities

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/inference"
)

// poolTokenizer tokenises through an endpoint's /tokenize for
// token-in/token-out (docs/tokens.md), routed like the episode's
// generations so the server that generates tokenises.
type poolTokenizer struct {
	pool     *inference.Pool
	affinity string
	ts       *turnState
}

func (t poolTokenizer) Text(ctx context.Context, text string, special bool) ([]int32, error) {
	return t.pool.Tokenize(ctx, inference.TokenizeRequest{Text: text, AddSpecialTokens: special, Affinity: t.affinity})
}

func (t poolTokenizer) Chat(ctx context.Context, msgs []envs.Message, generationPrompt bool) ([]int32, error) {
	req := inference.TokenizeRequest{AddGenerationPrompt: generationPrompt, Affinity: t.affinity}
	for _, m := range msgs {
		req.Messages = append(req.Messages, inference.Message{Role: m.Role, Content: m.Content})
	}
	return t.pool.Tokenize(ctx, req)
}

// Closing is what the chat template writes after an assistant message's
// content, learnt once per pool: the opening conversation tokenised, less
// its content.
func (t poolTokenizer) Closing(ctx context.Context) ([]int32, error) {
	c, err := t.template(ctx)
	return c.closing, err
}

// Opening is rollout.OpeningMessage through the chat template, learnt once
// per pool.
func (t poolTokenizer) Opening(ctx context.Context) ([]int32, error) {
	c, err := t.template(ctx)
	return c.opening, err
}

// chatShape is what token-in/token-out learns of a pool's chat template.
type chatShape struct {
	opening, closing []int32
	// userHead and userTail surround a user message's text, generation
	// prompt included (ChatTemplate).
	userHead, userTail string
}

func (t poolTokenizer) template(ctx context.Context) (chatShape, error) {
	t.ts.mu.Lock()
	c, ok := t.ts.shapes[t.pool]
	t.ts.mu.Unlock()
	if ok && c.opening != nil {
		return c, nil
	}
	msg, err := t.Chat(ctx, []envs.Message{rollout.OpeningMessage}, false)
	if err != nil {
		return chatShape{}, err
	}
	ids, err := t.Text(ctx, rollout.OpeningMessage.Content, false)
	if err != nil {
		return chatShape{}, err
	}
	end := -1
	for i := len(msg) - len(ids); i >= 0 && len(ids) > 0; i-- {
		if slices.Equal(msg[i:i+len(ids)], ids) {
			end = i + len(ids)
			break
		}
	}
	if end < 0 {
		return chatShape{}, fmt.Errorf("the chat template's rendering of an assistant message does not contain its content's tokens; token-in/token-out cannot tell where a response ends")
	}
	t.ts.mu.Lock()
	if t.ts.shapes == nil {
		t.ts.shapes = map[*inference.Pool]chatShape{}
	}
	c = t.ts.shapes[t.pool]
	c.opening, c.closing = msg, slices.Clone(msg[end:])
	t.ts.shapes[t.pool] = c
	t.ts.mu.Unlock()
	return c, nil
}

// chatMarker stands for the observation in the conversation rendered to
// learn the chat template's text around a user message.
const chatMarker = "QUARRY-OBSERVATION-7f3a"

// ChatTemplate is the served model's chat template around one user message
// with the generation prompt, as text (concat_chat_on_reset): a marker
// conversation is tokenised and detokenised by the server once per pool,
// and split at the marker.
func (t poolTokenizer) ChatTemplate(ctx context.Context) (envs.ChatTemplate, error) {
	t.ts.mu.Lock()
	c, ok := t.ts.shapes[t.pool]
	t.ts.mu.Unlock()
	if !ok || c.userHead == "" {
		ids, err := t.Chat(ctx, []envs.Message{{Role: "user", Content: chatMarker}}, true)
		if err != nil {
			return nil, err
		}
		text, err := t.pool.Detokenize(ctx, ids, t.affinity)
		if err != nil {
			return nil, err
		}
		head, tail, found := strings.Cut(text, chatMarker)
		if !found {
			return nil, fmt.Errorf("the served chat template's rendering of a user message does not contain the message (%q)", text)
		}
		t.ts.mu.Lock()
		if t.ts.shapes == nil {
			t.ts.shapes = map[*inference.Pool]chatShape{}
		}
		c = t.ts.shapes[t.pool]
		c.userHead, c.userTail = head, tail
		t.ts.shapes[t.pool] = c
		t.ts.mu.Unlock()
	}
	return func(text string) string { return c.userHead + text + c.userTail }, nil
}
