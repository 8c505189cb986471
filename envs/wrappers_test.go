package envs

import (
	"reflect"
	"testing"
)

func history() History {
	return History{
		Observations: []Observation{{Text: "Rules."}, {Text: "Too low.\n"}, {Text: "result: 4", FromTool: true}},
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
			{"user", "P:Rules."}, {"assistant", `\boxed{3}`}, {"user", "Too low.\n"},
			{"assistant", "<python>2+2</python>"}, {"tool", "result: 4Next?"},
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
