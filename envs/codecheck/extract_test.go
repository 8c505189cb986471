package codecheck

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

func TestLastCodeBlock(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		code, lang string
		ok         bool
	}{
		{"python", "Here:\n```python\nprint(1)\n```\n", "print(1)", "python", true},
		{"py", "```py\nx = 1\nprint(x)\n```", "x = 1\nprint(x)", "py", true},
		{"bare", "```\nprint(2)\n```", "print(2)", "", true},
		{"other language counts", "```cpp\nint main(){}\n```", "int main(){}", "cpp", true},
		{"python3 tag", "```python3\nprint(3)\n```", "print(3)", "python3", true},
		{"last of several", "```python\nprint(1)\n```\ntext\n```python\nprint(2)\n```\nbye", "print(2)", "python", true},
		{"no block", "I think the answer is 42.", "", "", false},
		{"unclosed", "```python\nprint(1)\n", "", "", false},
		{"space before tag", "``` python\nprint(1)\n```", "", "", false},
		{"c++ tag", "```c++\nint x;\n```", "", "", false},
		{"no newline after fence", "```print(1)```", "", "", false},
		{"empty block", "```\n```", "", "", true},
		{"strip", "```python\n\n   print(1)  \n\n```", "print(1)", "python", true},
		{"inline fence closes", "```python\nprint('```')\n```", "print('", "python", true},
		{"unicode tag", "```питон\nprint(1)\n```", "print(1)", "питон", true},
		// The closing fence of an unmatched opener starts a block of its own.
		{"stray pairing", "``` x\nA\n```\nB\n```", "B", "", true},
		{"python strip chars", "```\n\x1cprint(1)\u3000\n```", "print(1)", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, lang, ok := LastCodeBlock(tc.in)
			if code != tc.code || lang != tc.lang || ok != tc.ok {
				t.Errorf("LastCodeBlock(%q) = %q, %q, %v; want %q, %q, %v", tc.in, code, lang, ok, tc.code, tc.lang, tc.ok)
			}
		})
	}
}

// pythonEval runs a Python script on the host that reads a JSON value on
// stdin and prints a JSON value: the differential tests compare this
// package with the Python code GEM runs.
func pythonEval(t *testing.T, script string, in, out any) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Stdin = strings.NewReader(string(b))
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v (Debian's /usr/bin/python3 is required)", err)
	}
	if err := json.Unmarshal(got, out); err != nil {
		t.Fatalf("decode python output: %v", err)
	}
}

// gemExtract is GEM's extract_code_from_model plus the language group.
const gemExtract = `
import json, re, sys
out = []
for s in json.load(sys.stdin):
    blocks = re.findall(r"` + "```" + `(?:\w+)?\n(.*?)` + "```" + `", s, re.DOTALL)
    out.append(None if not blocks else blocks[-1].strip())
print(json.dumps(out))
`

// TestLastCodeBlockMatchesGEM compares with GEM's regex on random responses
// built from fences, tags, newlines, spaces and odd characters.
func TestLastCodeBlockMatchesGEM(t *testing.T) {
	pieces := []string{"```", "```", "```python", "```py", "``` ", "``", "`", "\n", "\n", " ", "print(1)", "x", "c++", "питон",
		"\x1c", "\u3000", "\u00a0", "\r", "\t", "²", "_", "é", "🙂"}
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs []string
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	var want []*string
	pythonEval(t, gemExtract, inputs, &want)
	for i, in := range inputs {
		code, _, ok := LastCodeBlock(in)
		switch {
		case want[i] == nil && ok:
			t.Errorf("LastCodeBlock(%q) = %q, ok; GEM finds no block", in, code)
		case want[i] != nil && !ok:
			t.Errorf("LastCodeBlock(%q) found no block; GEM finds %q", in, *want[i])
		case want[i] != nil && code != *want[i]:
			t.Errorf("LastCodeBlock(%q) = %q; GEM %q", in, code, *want[i])
		}
	}
}

func FuzzLastCodeBlock(f *testing.F) {
	f.Add("```python\nprint(1)\n```")
	f.Add("``` x\nA\n```\nB\n```")
	f.Add("```\n```")
	f.Fuzz(func(t *testing.T, s string) {
		code, lang, ok := LastCodeBlock(s)
		if !ok {
			if code != "" || lang != "" {
				t.Fatalf("no block but code %q lang %q", code, lang)
			}
			return
		}
		if !strings.Contains(s, code) || !strings.Contains(s, "```"+lang+"\n") {
			t.Fatalf("LastCodeBlock(%q) = %q, %q: not from the input", s, code, lang)
		}
		if pyStrip(code) != code {
			t.Fatalf("code %q not stripped", code)
		}
	})
}
