package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocTemplatesMatchGEM parses every "~~~tmpl NAME" block of
// docs/prompts.md as a user template and checks it renders exactly as the
// built-in NAME, so the page shows GEM's bytes.
func TestDocTemplatesMatchGEM(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "prompts.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlocks(string(doc))
	c, _ := loadGolden(t)
	// The page's code recipe for a Qwen chat model: GEM's code text as one
	// ChatML user message with the generation prompt.
	if text, ok := blocks["code+chatml"]; !ok {
		t.Error("docs/prompts.md has no ~~~tmpl code+chatml block")
	} else if user, err := Parse(text); err != nil {
		t.Errorf("code+chatml: %v", err)
	} else {
		code, _ := Lookup("code")
		want, _ := code.Render(Input{Observation: "Q?"})
		want = "<|im_start|>user\n" + want + "<|im_end|>\n<|im_start|>assistant\n"
		if got, err := user.Render(Input{Observation: "Q?"}); err != nil || got != want {
			t.Errorf("code+chatml: got %q, %v\nwant %q", got, err, want)
		}
	}
	for _, name := range Names() {
		text, ok := blocks[name]
		if !ok {
			t.Errorf("docs/prompts.md has no ~~~tmpl %s block", name)
			continue
		}
		user, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		builtin, _ := Lookup(name)
		for _, tc := range c.Templates {
			in := Input{Observation: tc.Observation}
			want, _ := builtin.Render(in)
			got, err := user.Render(in)
			if err != nil || got != want {
				t.Errorf("docs block %s on %q:\n got %q, %v\nwant %q", name, tc.Observation, got, err, want)
			}
		}
	}
}

// docBlocks returns the "~~~tmpl NAME" fenced blocks by name, without the
// newline before the closing fence.
func docBlocks(doc string) map[string]string {
	blocks := map[string]string{}
	rest := doc
	for {
		i := strings.Index(rest, "\n~~~tmpl ")
		if i < 0 {
			return blocks
		}
		rest = rest[i+len("\n~~~tmpl "):]
		nl := strings.IndexByte(rest, '\n')
		name := rest[:nl]
		rest = rest[nl+1:]
		end := strings.Index(rest, "\n~~~\n")
		if end < 0 {
			return blocks
		}
		blocks[name] = rest[:end]
		rest = rest[end:]
	}
}
