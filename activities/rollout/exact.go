package rollout

import (
	"context"
	"fmt"
	"slices"

	"github.com/quarry-rl/quarry/envs"
)

// Tokenizer tokenises text the way the serving engine does (its /tokenize):
// plain text, or chat messages through the model's chat template.
type Tokenizer interface {
	Text(ctx context.Context, text string, special bool) ([]int32, error)
	Chat(ctx context.Context, msgs []envs.Message, generationPrompt bool) ([]int32, error)
	// Closing is what the chat template writes after an assistant message's
	// content (ChatML: <|im_end|> and a newline); Opening is the rendering of
	// the one-message conversation [assistant: "x"] that added messages are
	// tokenised after (AddedChat strips it).
	Closing(ctx context.Context) ([]int32, error)
	Opening(ctx context.Context) ([]int32, error)
}

// ExactPrompt is the next request's prompt as token ids in token-in/token-out
// mode (docs/tokens.md). Earlier turns' ids are reused exactly as sent and
// served; only what the next request adds is tokenised:
// in the chat form: the messages added since the last response, through the
// chat template (after the template's closing of that response, which the
// served ids may lack). A text prompt (api: completions), or a chat prompt
// that does not extend the last one (a wrapper that re-renders the
// history), is tokenised whole once: a new segment, unless its ids happen
// to extend the last ones.
func (s *Session) ExactPrompt(ctx context.Context, tk Tokenizer, chat bool) ([]int32, error) {
	if s.frameErr != nil {
		return nil, fmt.Errorf("prompt: %w", s.frameErr)
	}
	msgs := messages(s.prompt)
	add, segment := s.conv.diff(msgs)
	extends := s.Turn > 0 && len(s.tokens) > 0 && segment == s.segment && len(add) > 0
	switch {
	case chat && extends:
		return s.extendChat(ctx, tk, add)
	case chat:
		return tk.Chat(ctx, msgs, true)
	}
	return tk.Text(ctx, s.prompt.Text, true)
}

// extendChat appends the template's closing of the last response (what the
// served ids lack of it) and the added messages with the generation prompt.
func (s *Session) extendChat(ctx context.Context, tk Tokenizer, add []envs.Message) ([]int32, error) {
	closing, err := tk.Closing(ctx)
	if err != nil {
		return nil, err
	}
	// The served response may end with the first tokens of the closing
	// (vLLM includes the end-of-turn token it stopped on).
	bridge := closing
	for k := len(closing); k > 0; k-- {
		if hasSuffix(s.tokens, closing[:k]) {
			bridge = closing[k:]
			break
		}
	}
	base, err := tk.Opening(ctx)
	if err != nil {
		return nil, err
	}
	full, err := tk.Chat(ctx, append([]envs.Message{OpeningMessage}, add...), true)
	if err != nil {
		return nil, err
	}
	if len(full) < len(base) || !slices.Equal(full[:len(base)], base) {
		return nil, fmt.Errorf("the chat template does not render messages one after another (its rendering of an added message changes what precedes it); token-in/token-out needs one that does")
	}
	out := slices.Clone(s.tokens)
	out = append(out, bridge...)
	return append(out, full[len(base):]...), nil
}

// OpeningMessage is the conversation added messages are tokenised after.
var OpeningMessage = envs.Message{Role: "assistant", Content: "x"}

func hasSuffix(s, suffix []int32) bool {
	return len(s) >= len(suffix) && slices.Equal(s[len(s)-len(suffix):], suffix)
}
