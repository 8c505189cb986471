package prompt

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from GEM's Python (testdata/gem/run.py)")

// cases are the inputs of testdata/cases.json; golden is what GEM's own
// Python makes of them (testdata/golden.json, written by gem/run.py).
type cases struct {
	Templates []struct {
		Template    string `json:"template"`
		Observation string `json:"observation"`
	} `json:"templates"`
	Episodes []struct {
		Wrapper      string   `json:"wrapper"`
		Template     string   `json:"template"`
		Observations []string `json:"observations"`
		Actions      []string `json:"actions"`
		Suffixes     []string `json:"suffixes"`
	} `json:"episodes"`
}

type golden struct {
	Templates []string   `json:"templates"`
	Episodes  [][]string `json:"episodes"`
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func loadGolden(t *testing.T) (cases, golden) {
	t.Helper()
	var c cases
	var g golden
	readJSON(t, filepath.Join("testdata", "cases.json"), &c)
	readJSON(t, filepath.Join("testdata", "golden.json"), &g)
	if len(g.Templates) != len(c.Templates) || len(g.Episodes) != len(c.Episodes) {
		t.Fatalf("golden.json is stale for cases.json; run go test ./internal/prompt -run GEMsPython -update")
	}
	return c, g
}

// TestGoldenIsGEMsPython runs GEM's template functions and observation
// wrapper (copied verbatim into testdata/gem) with Debian's python3 and
// checks golden.json is exactly their output.
func TestGoldenIsGEMsPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to run GEM's templates (installed by scripts/deps/bubblewrap.sh): %v", err)
	}
	in, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), python, filepath.Join("testdata", "gem", "run.py"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run GEM's templates: %v\n%s", err, stderr.String())
	}
	if *update {
		if err := os.WriteFile(filepath.Join("testdata", "golden.json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var fromPython, committed golden
	if err := json.Unmarshal(out, &fromPython); err != nil {
		t.Fatalf("GEM's output: %v", err)
	}
	readJSON(t, filepath.Join("testdata", "golden.json"), &committed)
	if !reflect.DeepEqual(fromPython, committed) {
		t.Fatal("testdata/golden.json differs from what GEM's Python produces; rerun with -update and review the diff")
	}
}

// TestGEMTemplatesByteForByte renders every GEM template on fixed
// observations and compares with GEM's bytes.
func TestGEMTemplatesByteForByte(t *testing.T) {
	c, g := loadGolden(t)
	seen := map[string]bool{}
	for i, tc := range c.Templates {
		tm, err := Lookup(tc.Template)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.Render(Input{Observation: tc.Observation, SystemPrompt: "ignored", Turn: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got != g.Templates[i] {
			t.Errorf("%s(%q):\n got %q\nwant %q", tc.Template, tc.Observation, got, g.Templates[i])
		}
		seen[tc.Template] = true
	}
	for _, name := range Names() {
		if !seen[name] {
			t.Errorf("template %s has no golden case in testdata/cases.json", name)
		}
	}
}

// TestQwen3GameBytes pins the game recipe's prompt independently of the
// golden files, written out by hand from train_oat.py.
func TestQwen3GameBytes(t *testing.T) {
	tm, err := Lookup("qwen3_game")
	if err != nil {
		t.Fatal(err)
	}
	got, err := tm.Render(Input{Observation: "Guess a number.\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := "<|im_start|>user\n" +
		"You are playing language games. Make valid actions to win.\n" +
		"Observation: Guess a number.\n" +
		"\n" +
		`Please reason step by step, and put your final answer within \boxed{}.<|im_end|>` + "\n" +
		"<|im_start|>assistant\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// TestContinuationAgainstGEMWrappers replays GEM's observation wrappers
// (golden episodes) and checks Continuation's claim on every turn: where it
// gives a text, GEM's next prompt is the last prompt + response + that text;
// where it refuses, GEM's next prompt indeed does not extend the last one.
func TestContinuationAgainstGEMWrappers(t *testing.T) {
	c, g := loadGolden(t)
	var extended, refused int
	for i, e := range c.Episodes {
		tm, err := Lookup(e.Template)
		if err != nil {
			t.Fatal(err)
		}
		prompts := g.Episodes[i]
		for turn, a := range e.Actions {
			next, prefix := prompts[turn+1], prompts[turn]+a
			framed := len(e.Suffixes) > 0 && e.Suffixes[turn] != ""
			cont, err := tm.Continuation(e.Wrapper, a, e.Observations[turn+1])
			switch {
			case errors.Is(err, ErrNoContinuation):
				refused++
				// (An empty response extends anything concat builds.)
				if a != "" && strings.HasPrefix(next, prefix) {
					t.Errorf("episode %d (%s+%s) turn %d: refused, but GEM's next prompt extends the last", i, e.Template, e.Wrapper, turn)
				}
			case err != nil:
				t.Fatal(err)
			case framed:
				// Documented limit: a suffix on turn t breaks the extension.
				if next == prefix+cont {
					t.Errorf("episode %d turn %d: a suffixed prompt extended; update the Continuation doc", i, turn)
				}
			default:
				extended++
				if next != prefix+cont {
					t.Errorf("episode %d (%s+%s) turn %d:\n got %q\nwant %q", i, e.Template, e.Wrapper, turn, prefix+cont, next)
				}
			}
		}
	}
	if extended == 0 || refused == 0 {
		t.Fatalf("cases.json must exercise both: %d extended, %d refused", extended, refused)
	}
}

// TestUserTemplateContinuation checks a user template made of fixed text and
// a final {{.Observation}} extends like GEM's "no" template, using GEM's
// concat_with_action prompts as the wrapped observations.
func TestUserTemplateContinuation(t *testing.T) {
	c, g := loadGolden(t)
	tm, err := Parse("{{.SystemPrompt}}\nYou play games.\n{{.Observation}}")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, e := range c.Episodes {
		if e.Template != "no" || e.Wrapper != WrapperConcatWithAction || len(e.Suffixes) > 0 {
			continue
		}
		for turn, a := range e.Actions {
			cur, err := tm.Render(Input{Observation: g.Episodes[i][turn], SystemPrompt: "S", Turn: turn})
			if err != nil {
				t.Fatal(err)
			}
			next, err := tm.Render(Input{Observation: g.Episodes[i][turn+1], SystemPrompt: "S", Turn: turn + 1})
			if err != nil {
				t.Fatal(err)
			}
			cont, err := tm.Continuation(e.Wrapper, a, e.Observations[turn+1])
			if err != nil {
				t.Fatal(err)
			}
			if next != cur+a+cont {
				t.Errorf("turn %d: got %q, want %q", turn, cur+a+cont, next)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no concat_with_action episode in cases.json")
	}
}
