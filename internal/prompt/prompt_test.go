package prompt

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	want := []string{"code", "general", "no", "qwen3_game", "qwen3_general"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		tm, err := Lookup(n)
		if err != nil || tm.Name() != n {
			t.Fatalf("Lookup(%q) = %v, %v", n, tm.Name(), err)
		}
	}
}

func TestLookupSuggests(t *testing.T) {
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"qwen3-game", []string{"qwen3_game"}},
		{"Qwen3_General", []string{"qwen3_general"}},
		{"qwen3", []string{"qwen3_game", "qwen3_general"}},
		{"na", []string{"no"}}, // train_verl.py's name for "no"
		{"chatml", nil},
	} {
		_, err := Lookup(tc.name)
		var u *UnknownTemplateError
		if !errors.As(err, &u) {
			t.Fatalf("Lookup(%q): %v, want *UnknownTemplateError", tc.name, err)
		}
		if !slices.Equal(u.Suggestions, tc.want) {
			t.Errorf("Lookup(%q) suggests %v, want %v", tc.name, u.Suggestions, tc.want)
		}
		if len(tc.want) > 0 && !strings.Contains(err.Error(), "did you mean "+tc.want[0]) {
			t.Errorf("Lookup(%q): %q lacks the suggestion", tc.name, err)
		}
		if len(tc.want) == 0 && !strings.Contains(err.Error(), strings.Join(Names(), ", ")) {
			t.Errorf("Lookup(%q): %q does not list the templates", tc.name, err)
		}
	}
}

func TestParseGoodFile(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "user.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tm.Render(Input{Observation: "Guess.", SystemPrompt: "Be brief.", Turn: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nTurn 2: Guess.<|im_end|>\n<|im_start|>assistant\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	got, err = tm.Render(Input{Observation: "Guess."})
	if err != nil {
		t.Fatal(err)
	}
	if want := "<|im_start|>user\nTurn 0: Guess.<|im_end|>\n<|im_start|>assistant\n"; got != want {
		t.Fatalf("without a system prompt: got %q\nwant %q", got, want)
	}
	if _, err := tm.Continuation(WrapperConcatWithAction, "a", "b"); !errors.Is(err, ErrNoContinuation) {
		t.Fatalf("a template with text after the observation must not extend: %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", " \n", "empty"},
		{"syntax", "{{.Observation", "unclosed action"},
		{"unknown field", "Q: {{.Observation}}\n{{.Obs}}", "template_file:2:2: unknown field .Obs; the fields are .Observation, .SystemPrompt, .Turn (did you mean .Observation?)"},
		{"unknown field in if", "{{if .Done}}x{{end}}{{.Observation}}", "unknown field .Done"},
		{"unknown root field", "{{$.Prompt}}{{.Observation}}", "unknown field .Prompt"},
		{"unknown field in pipe", `{{printf "%s" .observation}}`, "unknown field .observation"},
		{"no observation", "{{.SystemPrompt}} hello", "never uses {{.Observation}}"},
		{"range", "{{range 3}}{{end}}{{.Observation}}", "range is not supported"},
		{"define", `{{define "x"}}a{{end}}{{.Observation}}`, "{{define}} and {{block}} are not supported"},
		{"template call", `{{template "x"}}{{.Observation}}`, "{{template}} is not supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want an error containing %q", tc.text, err, tc.want)
			}
		})
	}
}

// TestRenderErrors: a template that parses but fails on its input is an
// error from Render, never a panic.
func TestRenderErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"index out of range", "{{index .Observation 100}}", "index out of range"},
		{"len of int", "{{.Observation}}{{len .Turn}}", "len of type int"},
		{"field of string", "{{with .Observation}}{{.}}{{end}}{{slice .Observation 5 2}}", "invalid slice index"},
		{"too long", `{{.Observation}}{{printf "%999999d" 1}}{{printf "%999999d" 2}}`, "prompt longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm, err := Parse(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			out, err := tm.Render(Input{Observation: "short", Turn: 1})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Render = %q, %v; want an error containing %q", out, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "render template_file: ") {
				t.Errorf("error %q lacks its context", err)
			}
		})
	}
}

func TestZeroTemplate(t *testing.T) {
	if _, err := (Template{}).Render(Input{Observation: "x"}); err == nil {
		t.Fatal("zero Template rendered")
	}
}

func TestContinuationRules(t *testing.T) {
	no, _ := Lookup("no")
	game, _ := Lookup("qwen3_game")
	suffixed, err := Parse("{{.Observation}}\nAnswer:")
	if err != nil {
		t.Fatal(err)
	}
	turned, err := Parse("Turn {{.Turn}}\n{{.Observation}}")
	if err != nil {
		t.Fatal(err)
	}
	piped, err := Parse(`Fixed.{{.Observation | printf "%s"}}`)
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := Parse("{{/* GEM's no, framed */}}{{.SystemPrompt}}Fixed.\n{{- .Observation}}")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tm       Template
		wrapper  string
		extends  bool
		errSubst string
	}{
		{no, WrapperConcatWithAction, true, ""},
		{no, WrapperConcatChatOnReset, true, ""},
		{fixed, WrapperConcatWithAction, true, ""},
		{no, WrapperConcat, false, "does not show the model's responses"},
		{no, WrapperConcatChat, false, "chat template"},
		{game, WrapperConcatWithAction, false, "puts text after the observation"},
		{suffixed, WrapperConcatWithAction, false, "puts text after the observation"},
		{turned, WrapperConcatWithAction, false, "puts text after the observation"},
		{piped, WrapperConcatWithAction, false, "puts text after the observation"},
		{no, WrapperChat, false, "chat template"},
		{no, WrapperLast, false, "only the newest observation"},
		{no, "concat-chat", false, "unknown observation wrapper"},
	} {
		cont, err := tc.tm.Continuation(tc.wrapper, "resp", "obs")
		if tc.extends {
			if err != nil || cont != "\nobs\n" {
				t.Errorf("%s+%s: %q, %v; want \"\\nobs\\n\"", tc.tm.Name(), tc.wrapper, cont, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.errSubst) {
			t.Errorf("%s+%s: %v, want an error containing %q", tc.tm.Name(), tc.wrapper, err, tc.errSubst)
		}
		if tc.wrapper == "concat-chat" && errors.Is(err, ErrNoContinuation) {
			t.Errorf("an unknown wrapper is a spec error, not ErrNoContinuation")
		}
	}
	if cont, _ := no.Continuation(WrapperConcatWithAction, "ends in newline\n", ""); cont != "" {
		t.Errorf("continuation after a newline-terminated response and empty observation = %q, want empty", cont)
	}
}

// FuzzParse: no template text makes Parse or Render panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"{{.Observation}}", "{{if .Turn}}{{.SystemPrompt}}{{end}}{{.Observation}}", "{{index .Observation 9}}", "{{.X.Y}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tm, err := Parse(text)
		if err != nil {
			return
		}
		_, _ = tm.Render(Input{Observation: "obs", SystemPrompt: "sys", Turn: 1})
	})
}

func TestResolve(t *testing.T) {
	tm, err := Resolve("qwen3_game", "")
	if err != nil || tm.Name() != "qwen3_game" || !strings.Contains(tm.Source(), "train_oat.py apply_qwen3_game_template") {
		t.Fatalf("Resolve(qwen3_game) = %q %q, %v", tm.Name(), tm.Source(), err)
	}
	tm, err = Resolve("", "Q: {{.Observation}}")
	if err != nil || tm.Source() != UserTemplateName {
		t.Fatalf("Resolve(text) = %q, %v", tm.Source(), err)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"qwen3_gam", "", "policy.openai.template: unknown prompt template \"qwen3_gam\"; did you mean qwen3_game?"},
		{"", "{{.Obs}}", "policy.openai.template_file: parse template_file: template_file:1:2: unknown field .Obs"},
		{"no", "{{.Observation}}", "not both"},
		{"", "", "required with api: completions"},
	} {
		if _, err := Resolve(tc.name, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%q, %q) = %v, want %q", tc.name, tc.text, err, tc.want)
		}
	}
}
