package prompt

import (
	"errors"
	"fmt"
	"strings"
)

// GEM's observation wrappers (gem/wrappers/wrapper_factory.py), by the name a
// spec gives them, and Quarry's own: last, and chat (Quarry's concat_chat,
// templated by the server).
const (
	WrapperLast              = "last"
	WrapperChat              = "chat"
	WrapperConcat            = "concat"
	WrapperConcatWithAction  = "concat_with_action"
	WrapperConcatChat        = "concat_chat"
	WrapperConcatChatOnReset = "concat_chat_on_reset"
)

// ErrNoContinuation means the prompt of turn t+1 does not begin with the
// prompt of turn t followed by turn t's response, so a token-in/token-out
// caller must send the new prompt whole.
var ErrNoContinuation = errors.New("the next prompt does not extend the last prompt and its response")

// Continuation returns the text that follows turn t's response to give the
// prompt of turn t+1, for this template under the named GEM observation
// wrapper: prompt(t+1) == prompt(t) + response + Continuation(response,
// observation), where observation is the env's new raw observation.
//
// It exists only when the wrapper shows responses and raw text
// (concat_with_action, concat_chat_on_reset) and the template is fixed text
// ending in the bare observation (GEM's "no", or a user template such as
// "…{{.Observation}}"). It holds only while the env frames neither turn with
// a suffix and keeps the same prefix (GEM's games set a suffix every turn),
// and only for the response exactly as the wrapper records it (GEM: the
// whole response text, without the stop string). Otherwise the error is
// ErrNoContinuation, wrapped with the reason.
func (t Template) Continuation(wrapper, response, observation string) (string, error) {
	if err := t.extends(wrapper); err != nil {
		return "", err
	}
	// GEM's ObservationWrapper.observation: each history item is passed
	// through maybe_add_new_line, the response and then the observation.
	var b strings.Builder
	if response != "" && !strings.HasSuffix(response, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(maybeAddNewline(observation))
	return b.String(), nil
}

// extends explains why the template under wrapper is not prefix-extending,
// or returns nil when it is.
func (t Template) extends(wrapper string) error {
	switch wrapper {
	case WrapperConcat:
		return fmt.Errorf("%w: concat does not show the model's responses", ErrNoContinuation)
	case WrapperLast:
		return fmt.Errorf("%w: last shows only the newest observation", ErrNoContinuation)
	case WrapperConcatChat, WrapperChat:
		return fmt.Errorf("%w: concat_chat re-renders the history with the tokenizer's chat template (Qwen3's drops earlier <think> blocks)", ErrNoContinuation)
	case WrapperConcatWithAction, WrapperConcatChatOnReset:
	default:
		return fmt.Errorf("unknown observation wrapper %q: want %s, %s, %s, %s, %s or %s", wrapper, WrapperLast,
			WrapperConcat, WrapperConcatWithAction, WrapperConcatChat, WrapperConcatChatOnReset, WrapperChat)
	}
	if !t.appendable {
		return fmt.Errorf("%w: template %s puts text after the observation, which moves on every turn", ErrNoContinuation, t.name)
	}
	return nil
}

// maybeAddNewline is GEM's maybe_add_new_line.
func maybeAddNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
