package activities

import (
	"context"
	"fmt"
	"slices"

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
}

func (t poolTokenizer) template(ctx context.Context) (chatShape, error) {
	t.ts.mu.Lock()
	c, ok := t.ts.shapes[t.pool]
	t.ts.mu.Unlock()
	if ok {
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
	c = chatShape{opening: msg, closing: slices.Clone(msg[end:])}
	t.ts.mu.Lock()
	if t.ts.shapes == nil {
		t.ts.shapes = map[*inference.Pool]chatShape{}
	}
	t.ts.shapes[t.pool] = c
	t.ts.mu.Unlock()
	return c, nil
}
