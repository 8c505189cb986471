package activities

import (
	"context"
	"fmt"
	"slices"

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
// content, learnt once per pool: a one-message conversation tokenised, less
// its content.
func (t poolTokenizer) Closing(ctx context.Context) ([]int32, error) {
	t.ts.mu.Lock()
	c, ok := t.ts.closing[t.pool]
	t.ts.mu.Unlock()
	if ok {
		return c, nil
	}
	const content = "x"
	msg, err := t.Chat(ctx, []envs.Message{{Role: "assistant", Content: content}}, false)
	if err != nil {
		return nil, err
	}
	ids, err := t.Text(ctx, content, false)
	if err != nil {
		return nil, err
	}
	end := -1
	for i := len(msg) - len(ids); i >= 0; i-- {
		if slices.Equal(msg[i:i+len(ids)], ids) {
			end = i + len(ids)
			break
		}
	}
	if end < 0 || len(ids) == 0 {
		return nil, fmt.Errorf("the chat template's rendering of an assistant message does not contain its content's tokens; token-in/token-out cannot tell where a response ends")
	}
	c = slices.Clone(msg[end:])
	t.ts.mu.Lock()
	if t.ts.closing == nil {
		t.ts.closing = map[*inference.Pool][]int32{}
	}
	t.ts.closing[t.pool] = c
	t.ts.mu.Unlock()
	return c, nil
}
