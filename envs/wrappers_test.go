package envs

import (
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
			{"user", "P:Rules.\nGo."}, {"assistant", `\boxed{3}`}, {"user", "Too low.\nAgain?"},
			{"assistant", "<python>2+2</python>"}, {"tool", "result: 4\nNext?"},
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

// concat_with_action echoes the env's parsed actions (GEM); chat keeps what
// the model actually said.
func TestParsedActions(t *testing.T) {
	h := History{
		Observations:  []Observation{{Text: "Rules."}, {Text: "Low."}},
		Actions:       []string{"I think \\boxed{5}"},
		ParsedActions: []string{"\\boxed{5}"},
	}
	text, _ := WrapConcatWithAction.Render(h, 0)
	chat, _ := WrapChat.Render(h, 0)
	if text.Text != "Rules.\n\\boxed{5}\nLow.\n" {
		t.Fatalf("concat_with_action %q", text.Text)
	}
	if chat.Messages[1].Content != "I think \\boxed{5}" {
		t.Fatalf("chat assistant message %q", chat.Messages[1].Content)
	}
}
