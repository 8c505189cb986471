package envs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Wrapper names how an episode's history becomes the next prompt. Wrappers
// are pure functions of the raw history (observations, actions, latest info),
// so any worker can rebuild a prompt from the turn log; nothing is hidden in
// wrapper state as in GEM's stateful ObservationWrapper.
type Wrapper string

const (
	// WrapLast shows only the latest observation, framed by the latest
	// info's prefix and suffix.
	WrapLast Wrapper = "last"
	// WrapConcat concatenates every observation (GEM "concat").
	WrapConcat Wrapper = "concat"
	// WrapConcatWithAction interleaves observations and actions (GEM
	// "concat_with_action"): each action as GEM's observation wrapper shows
	// it (History.ShownActions).
	WrapConcatWithAction Wrapper = "concat_with_action"
	// WrapConcatChatOnReset is concat_with_action whose first observation
	// went through the model's chat template as one user message with the
	// generation prompt (GEM "concat_chat_on_reset"); it needs the episode's
	// ChatTemplate.
	WrapConcatChatOnReset Wrapper = "concat_chat_on_reset"
	// WrapChat produces a message list — user/tool observations and assistant
	// actions — for the inference server to template (GEM "concat_chat",
	// which applies the tokenizer's template client-side instead).
	WrapChat Wrapper = "chat"
)

// Wrappers lists the wrapper names in a stable order.
var Wrappers = []Wrapper{WrapLast, WrapConcat, WrapConcatWithAction, WrapConcatChatOnReset, WrapChat}

// ChatTemplate renders one user message as the model's chat template does,
// with the generation prompt: GEM's tokenizer.apply_chat_template([{"role":
// "user", "content": text}], tokenize=False, add_generation_prompt=True).
type ChatTemplate func(text string) string

// ErrNoChatTemplate means concat_chat_on_reset was asked to render without
// the model's chat template.
var ErrNoChatTemplate = errors.New("wrapper concat_chat_on_reset needs the model's chat template (GEM takes it from the tokenizer); none was given")

// ParseWrapper accepts a wrapper name, including GEM's "concat_chat" for chat.
func ParseWrapper(s string) (Wrapper, error) {
	if s == "concat_chat" {
		return WrapChat, nil
	}
	if slices.Contains(Wrappers, Wrapper(s)) {
		return Wrapper(s), nil
	}
	names := make([]string, len(Wrappers))
	for i, w := range Wrappers {
		names[i] = string(w)
	}
	return "", fmt.Errorf("unknown observation wrapper %q; allowed: %s", s, strings.Join(names, ", "))
}

// Observation is one entry of an episode's observation history, with the
// frame (prefix, suffix) the env gave alongside it.
type Observation struct {
	Text     string `json:"text"`
	FromTool bool   `json:"from_tool,omitempty"`
	Prefix   string `json:"prefix,omitempty"`
	Suffix   string `json:"suffix,omitempty"`
	// Images are the pictures shown with the text (Info.Images).
	Images []Image `json:"images,omitempty"`
}

// History is everything a wrapper may look at: the reset observation, then
// one observation per step, the actions between them, and the latest info.
// len(Actions) == len(Observations)-1.
type History struct {
	Observations []Observation `json:"observations"`
	Actions      []string      `json:"actions"`
	// ShownActions are the actions as GEM's observation wrapper shows them
	// (ShownAction); when set, concat_with_action shows them. chat always
	// shows the raw actions: they are what the model said, and the
	// conversation must be the one it saw.
	ShownActions []string `json:"shown_actions,omitempty"`
	Info         Info     `json:"info"`
	// ChatTemplate formats the reset observation for concat_chat_on_reset.
	ChatTemplate ChatTemplate `json:"-"`
}

// Message is one chat message. Its JSON is {"role", "content"}, content a
// string, or the list of Parts when the message shows images.
type Message struct {
	Role    string
	Content string
	// Parts, when set, are the content instead of Content: text and
	// images (an observation with Images, see ImageParts).
	Parts []Part
}

// Prompt is a rendered history: Text for completion-style wrappers, Messages
// for chat.
type Prompt struct {
	Text     string
	Messages []Message
	// Images are the pictures of the observations Text shows, in order: a
	// chat request sends Text with them as one user message (Chat).
	Images []Image
}

// String renders the prompt for a terminal or a log.
func (p Prompt) String() string {
	if p.Messages == nil {
		if n := len(p.Images); n > 0 {
			return fmt.Sprintf("%s(%d image(s))\n", withNewline(p.Text), n)
		}
		return p.Text
	}
	var b strings.Builder
	for _, m := range p.Messages {
		fmt.Fprintf(&b, "[%s]\n%s\n", m.Role, m.Text())
		if n := m.Images(); n > 0 {
			fmt.Fprintf(&b, "(%d image(s))\n", n)
		}
	}
	return b.String()
}

// Render turns h into a prompt. maxHistory > 0 keeps only the last
// maxHistory actions and the observations around them, as GEM's
// max_history_length does; 0 keeps everything.
func (w Wrapper) Render(h History, maxHistory int) (Prompt, error) {
	if len(h.Observations) == 0 {
		return Prompt{}, fmt.Errorf("render %s: empty history", w)
	}
	if len(h.Actions) != len(h.Observations)-1 {
		return Prompt{}, fmt.Errorf("render %s: %d observations need %d actions, have %d",
			w, len(h.Observations), len(h.Observations)-1, len(h.Actions))
	}
	obs, acts := h.Observations, h.Actions
	if (w == WrapConcatWithAction || w == WrapConcatChatOnReset) && len(h.ShownActions) == len(h.Actions) {
		acts = h.ShownActions
	}
	if maxHistory > 0 && len(acts) > maxHistory {
		acts = acts[len(acts)-maxHistory:]
		obs = obs[len(obs)-maxHistory-1:]
	}
	last := obs[len(obs)-1]
	switch w {
	case WrapLast:
		return Prompt{Text: h.Info.Prefix + withNewline(last.Text) + h.Info.Suffix, Images: last.Images}, nil
	case WrapConcat:
		var b strings.Builder
		for _, o := range obs {
			b.WriteString(withNewline(o.Text))
		}
		return Prompt{Text: h.Info.Prefix + b.String() + h.Info.Suffix, Images: imagesOf(obs)}, nil
	case WrapConcatWithAction, WrapConcatChatOnReset:
		texts := make([]string, len(obs))
		for i, o := range obs {
			texts[i] = o.Text
		}
		// GEM templates the reset observation as it enters its history, so
		// it is gone once max_history drops it.
		if w == WrapConcatChatOnReset && len(obs) == len(h.Observations) {
			if h.ChatTemplate == nil {
				return Prompt{}, ErrNoChatTemplate
			}
			texts[0] = h.ChatTemplate(texts[0])
		}
		var b strings.Builder
		for i, a := range acts {
			b.WriteString(withNewline(texts[i]))
			b.WriteString(withNewline(a))
		}
		b.WriteString(withNewline(texts[len(texts)-1]))
		return Prompt{Text: h.Info.Prefix + b.String() + h.Info.Suffix, Images: imagesOf(obs)}, nil
	case WrapChat:
		// Each observation message keeps the frame it was shown with, so
		// the conversation only ever grows at the end: every request
		// extends the previous one (prefix caches stay warm, the episode is
		// one token sequence, prompt deltas stay small). GEM instead
		// appends only the latest suffix, after the generation prompt.
		msgs := make([]Message, 0, 2*len(acts)+1)
		for i, a := range acts {
			msgs = append(msgs, observationMessage(obs[i]), Message{Role: "assistant", Content: a})
		}
		msgs = append(msgs, observationMessage(last))
		return Prompt{Messages: msgs}, nil
	}
	return Prompt{}, fmt.Errorf("render: unknown wrapper %q", string(w))
}

func observationMessage(o Observation) Message {
	content := o.Prefix + o.Text
	if o.Suffix != "" {
		content = withNewline(content) + o.Suffix
	}
	m := Message{Role: "user", Content: content}
	if o.FromTool {
		m.Role = "tool"
	}
	if len(o.Images) > 0 {
		m.Content, m.Parts = "", ImageParts(content, o.Images)
	}
	return m
}

// imagesOf is the images of obs in order (nil when none has any).
func imagesOf(obs []Observation) []Image {
	var out []Image
	for _, o := range obs {
		out = append(out, o.Images...)
	}
	return out
}

// ShownAction is an action as GEM's observation wrapper records it: its
// info's parsed_action when set, else the action. No GEM game sets one, so
// an env step shows the model's whole response (an env's Info.ParsedAction
// is not shown); a tool turn's is its tool's parsed_action (tools.Call.
// Shown): the response up to the end of the call, thinking included, for
// python and search, the call alone for MCP.
func ShownAction(action string, info Info) string {
	if !info.UseTool || info.ParsedAction == "" {
		return action
	}
	return info.ParsedAction
}

// withNewline ends non-empty text with a newline (GEM's maybe_add_new_line).
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
