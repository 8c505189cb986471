package envs

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
)

func history() History {
	return History{
		Observations: []Observation{{Text: "Rules.", Prefix: "P:", Suffix: "Go."}, {Text: "Too low.\n", Suffix: "Again?"}, {Text: "result: 4", FromTool: true, Suffix: "Next?"}},
		Actions:      []string{`\boxed{3}`, "<python>2+2</python>"},
		Info:         Info{Prefix: "P:", Suffix: "Next?"},
	}
}

func TestRender(t *testing.T) {
	h := history()
	tests := []struct {
		w    Wrapper
		max  int
		want Prompt
	}{
		{WrapLast, 0, Prompt{Text: "P:result: 4\nNext?"}},
		{WrapConcat, 0, Prompt{Text: "P:Rules.\nToo low.\nresult: 4\nNext?"}},
		{WrapConcatWithAction, 0, Prompt{Text: "P:Rules.\n\\boxed{3}\nToo low.\n<python>2+2</python>\nresult: 4\nNext?"}},
		{WrapConcatWithAction, 1, Prompt{Text: "P:Too low.\n<python>2+2</python>\nresult: 4\nNext?"}},
		{WrapChat, 0, Prompt{Messages: []Message{
			{Role: "user", Content: "P:Rules.\nGo."}, {Role: "assistant", Content: `\boxed{3}`}, {Role: "user", Content: "Too low.\nAgain?"},
			{Role: "assistant", Content: "<python>2+2</python>"}, {Role: "tool", Content: "result: 4\nNext?"},
		}}},
	}
	for _, tt := range tests {
		got, err := tt.w.Render(h, tt.max)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s max=%d:\n got %#v\nwant %#v", tt.w, tt.max, got, tt.want)
		}
	}
	if _, err := WrapConcat.Render(History{Observations: []Observation{{}}, Actions: []string{"a"}}, 0); err == nil {
		t.Error("inconsistent history accepted")
	}
}

func TestParseWrapper(t *testing.T) {
	if w, err := ParseWrapper("concat_chat"); err != nil || w != WrapChat {
		t.Fatalf("concat_chat = %q, %v", w, err)
	}
	if _, err := ParseWrapper("chatty"); err == nil {
		t.Fatal("unknown wrapper accepted")
	}
}

// Chat prompts only grow at the end: each request extends the previous
// request and its response, whatever the frames say.
func TestChatIsAppendOnly(t *testing.T) {
	h := history()
	prev, _ := WrapChat.Render(History{Observations: h.Observations[:2], Actions: h.Actions[:1], Info: h.Info}, 0)
	cur, _ := WrapChat.Render(h, 0)
	if !reflect.DeepEqual(cur.Messages[:len(prev.Messages)], prev.Messages) {
		t.Fatalf("chat history rewritten:\n%v\n%v", prev.Messages, cur.Messages)
	}
}

// concat_with_action shows the model's whole response on an env step, even
// when the env parsed a \boxed{} out of it (GEM's observation wrapper uses the
// raw action: no GEM game sets parsed_action), and on a tool turn the
// response up to the end of the call, thinking included (GEM's python and
// search tools' parsed_action); chat keeps what the model said.
func TestConcatWithActionShowsResponses(t *testing.T) {
	e := NewEpisode(&scripted{}, WrapConcatWithAction, 0)
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	step := "I think \\boxed{5}"
	if _, _, err := e.Record(step, StepResult{Observation: "Low.", Info: Info{ParsedAction: "\\boxed{5}"}}); err != nil {
		t.Fatal(err)
	}
	call := "<python>print(2+2)</python>"
	tool := "Let me compute. " + call + " and more text"
	p, _, err := e.Record(tool, StepResult{Observation: "Code execution result: 4\n", Info: Info{ParsedAction: "Let me compute. " + call, UseTool: true}})
	if err != nil {
		t.Fatal(err)
	}
	want := "Rules.\nI think \\boxed{5}\nLow.\nLet me compute. <python>print(2+2)</python>\nCode execution result: 4\n"
	if p.Text != want {
		t.Fatalf("concat_with_action\n got %q\nwant %q", p.Text, want)
	}
	chat, _ := WrapChat.Render(e.History(), 0)
	if chat.Messages[1].Content != step || chat.Messages[3].Content != tool {
		t.Fatalf("chat assistant messages %q, %q", chat.Messages[1].Content, chat.Messages[3].Content)
	}
}

// scripted is an env whose steps the test records itself.
type scripted struct{}

func (*scripted) Reset(uint64) (string, Info, error)   { return "Rules.", Info{}, nil }
func (*scripted) Step(string) (StepResult, error)      { return StepResult{}, nil }
func (*scripted) SampleRandomAction(*rand.Rand) string { return "" }

// concat_chat_on_reset is GEM's concat_with_action whose reset observation
// went through the tokenizer's chat template (one user message, generation
// prompt); the frame of the latest info wraps the whole text, after the
// generation prompt, as in GEM. Without a template it is an error.
func TestConcatChatOnReset(t *testing.T) {
	w, err := ParseWrapper("concat_chat_on_reset")
	if err != nil || w != WrapConcatChatOnReset {
		t.Fatalf("ParseWrapper: %v %v", w, err)
	}
	qwen := func(s string) string { return "<|im_start|>user\n" + s + "<|im_end|>\n<|im_start|>assistant\n" }
	e := NewEpisode(&scripted{}, w, 0, WithChatTemplate(qwen))
	p, _, err := e.Reset(1)
	if err != nil || p.Text != "<|im_start|>user\nRules.<|im_end|>\n<|im_start|>assistant\n" {
		t.Fatalf("reset prompt %q %v", p.Text, err)
	}
	p, _, err = e.Record("Hmm. \\boxed{5}", StepResult{Observation: "Too low.", Info: Info{ParsedAction: "\\boxed{5}", Suffix: "Next?"}})
	want := "<|im_start|>user\nRules.<|im_end|>\n<|im_start|>assistant\nHmm. \\boxed{5}\nToo low.\nNext?"
	if err != nil || p.Text != want {
		t.Fatalf("prompt\n got %q\nwant %q (%v)", p.Text, want, err)
	}
	// GEM templates the reset observation in its history queue: once
	// max_history drops it, it is gone.
	h := e.History()
	p, err = w.Render(History{Observations: append(h.Observations, Observation{Text: "Too high."}), Actions: append(h.Actions, "\\boxed{4}"),
		ChatTemplate: qwen}, 1)
	if err != nil || p.Text != "Too low.\n\\boxed{4}\nToo high.\n" {
		t.Fatalf("max_history 1: %q %v", p.Text, err)
	}
	if _, _, err := NewEpisode(&scripted{}, w, 0).Reset(1); !errors.Is(err, ErrNoChatTemplate) {
		t.Fatalf("no template: %v", err)
	}
}
