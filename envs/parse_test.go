package envs

import (
	"regexp"
	"testing"
)

func TestLastBoxed(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`answer \boxed{42}`, "42", true},
		{`\boxed{1} then \boxed{2}`, "2", true},
		{`\boxed{\frac{1}{2}}`, `\frac{1}{2}`, true},
		{`\boxed{}`, "", true},
		{`no box`, "", false},
		{`\boxed{unclosed`, "", false},
		{`\fbox{7}`, "", false}, // GEM finds \fbox but remove_boxed rejects it
		{`\boxed 5`, "", false},
		{`\boxed{a} \boxed{b{c}}`, "b{c}", true},
	}
	for _, tt := range tests {
		got, ok := LastBoxed(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LastBoxed(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLastMatch(t *testing.T) {
	re := regexp.MustCompile(`\\boxed\{(\d+)\}`)
	if m := LastMatch(re, `\boxed{3} and \boxed{x} and \boxed{7} \boxed{y}`); m == nil || m[1] != "7" {
		t.Fatalf("LastMatch = %v, want last numeric box 7", m)
	}
	if m := LastMatch(re, "nothing"); m != nil {
		t.Fatalf("LastMatch on no match = %v, want nil", m)
	}
}

func FuzzLastBoxed(f *testing.F) {
	for _, s := range []string{`\boxed{1}`, `\boxed{{}}`, `}{\boxed`, `\fbox{\boxed{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := LastBoxed(s)
		if !ok && got != "" {
			t.Fatalf("not ok but content %q", got)
		}
		if ok && len(got) > len(s) {
			t.Fatalf("content longer than input")
		}
	})
}
