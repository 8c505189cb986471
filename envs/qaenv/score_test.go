package qaenv

import (
	"math"
	"reflect"
	"testing"
)

// The expected values are Python's: GEM's normalize_answer run on CPython
// 3 over the same inputs.
func TestNormalizeMatchesGEM(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The Eiffel Tower", "eiffel tower"},
		{"  Paris  ", "paris"},
		{"a an the", ""},
		{"An apple a day", "apple day"},
		{"the.", ""},
		{"(the) end", "end"},
		{"t.he", ""},
		{"Jean-Luc Picard", "jeanluc picard"},
		{"U.S.A.", "usa"},
		{"th\u00e9a", "th\u00e9a"},
		{"\u00e9a b", "\u00e9a b"},
		{"a\u20ac", "\u20ac"},
		{"x a\u20acb", "x \u20acb"},
		{"\u20acthe\u20ac", "\u20ac \u20ac"},
		{"The  \t\n quick\u00a0brown", "quick brown"},
		{"x\u001cy", "x y"},
		{"na\u00efve caf\u00e9", "na\u00efve caf\u00e9"},
		{"1,000,000", "1000000"},
		{"the_end", "theend"},
		{"THE END", "end"},
		{"\u0395\u03bb\u03bb\u03ac\u03b4\u03b1", "\u03b5\u03bb\u03bb\u03ac\u03b4\u03b1"},
		{"another", "another"},
		{"Anna", "anna"},
		{"a-b", "ab"},
		{"a_b", "ab"},
		{"rock 'n' roll", "rock n roll"},
		{"", ""},
		{"   ", ""},
		{"the the the", ""},
		{"50%", "50"},
		{"a\u0301b", "\u0301b"},
		{"\u03a9mega the", "\u03c9mega"},
		{"\u1e9e", "\u00df"},
		{"at the end.", "at end"},
		{"don't", "dont"},
		{"x\u2013y", "x\u2013y"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExactMatch(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		golds  []string
		want   bool
	}{
		{"same", "Paris", []string{"Paris"}, true},
		{"wrong", "London", []string{"Paris"}, false},
		{"case", "paris", []string{"Paris"}, true},
		{"whitespace", "  Paris \n", []string{"Paris"}, true},
		{"article in answer", "The Beatles", []string{"Beatles"}, true},
		{"article in gold", "Beatles", []string{"the Beatles"}, true},
		{"punctuation", "U.S.A.", []string{"USA"}, true},
		{"hyphen deleted, not spaced", "Jean Luc", []string{"Jean-Luc"}, false},
		{"any gold of a list", "Berlin", []string{"Paris", "Berlin", "Rome"}, true},
		{"none of a list", "Madrid", []string{"Paris", "Berlin", "Rome"}, false},
		{"integer gold as text", "42", []string{"42", "some other answer"}, true},
		{"near integer", "43", []string{"42"}, false},
		{"extra word", "Paris France", []string{"Paris"}, false},
		{"no golds", "Paris", nil, false},
		{"both reduce to nothing", "the", []string{"a"}, true},
	}
	for _, tt := range tests {
		if got := ExactMatch(tt.answer, tt.golds); got != tt.want {
			t.Errorf("%s: ExactMatch(%q, %q) = %v, want %v", tt.name, tt.answer, tt.golds, got, tt.want)
		}
	}
}

func TestF1(t *testing.T) {
	tests := []struct {
		name   string
		answer string
		golds  []string
		want   float64
	}{
		{"exact", "Kovkraend Teshek", []string{"Kovkraend Teshek"}, 1},
		{"exact after normalising", "the kovkraend teshek.", []string{"Kovkraend Teshek"}, 1},
		{"disjoint", "Paris", []string{"Kovkraend Teshek"}, 0},
		// 1 shared token: precision 1/1, recall 1/2.
		{"half the gold", "Teshek", []string{"Kovkraend Teshek"}, 2.0 / 3},
		// 2 shared of 3 predicted ("the" goes) and 2 gold: precision 2/3,
		// recall 1.
		{"answer too long", "Kovkraend Teshek the potter", []string{"Kovkraend Teshek"}, 0.8},
		// Tokens are a multiset: "river river" shares one "river".
		{"repeated token counted once", "river river", []string{"Skeithow river"}, 0.5},
		{"best gold wins", "Skeithow", []string{"Skeithow river", "Skeithow"}, 1},
		{"best gold wins, partial", "River", []string{"Mirkis", "Skeithow river"}, 2.0 / 3},
		{"articles do not count", "a river", []string{"the Skeithow river"}, 2.0 / 3},
		{"empty answer", "", []string{"Paris"}, 0},
		{"both empty", "the", []string{"an"}, 1},
		{"no golds", "Paris", nil, 0},
	}
	for _, tt := range tests {
		if got := F1(tt.answer, tt.golds); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: F1(%q, %q) = %v, want %v", tt.name, tt.answer, tt.golds, got, tt.want)
		}
	}
}

func TestLastTagged(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"one", "<think>hm</think><answer>Paris</answer>", "Paris", true},
		{"trimmed", "<answer>\n  Paris \t</answer>", "Paris", true},
		{"last wins", "<answer>London</answer> no, <answer>Paris</answer>", "Paris", true},
		{"last wins over a later unclosed tag", "<answer>Paris</answer> <answer>London", "Paris", true},
		{"multiline", "<answer>Kovkraend\nTeshek</answer>", "Kovkraend\nTeshek", true},
		{"empty", "<answer></answer>", "", true},
		// Python's <answer>(.*?)</answer>: the shortest match from the first
		// opening tag, so a nested opening tag is part of the answer.
		{"nested opening tag", "<answer>a <answer>b</answer>", "a <answer>b", true},
		{"missing", "The answer is Paris.", "", false},
		{"unclosed", "<answer>Paris", "", false},
		{"closing only", "Paris</answer>", "", false},
		{"boxed is not a tag", `\boxed{Paris}`, "", false},
		{"upper case tag", "<ANSWER>Paris</ANSWER>", "", false},
	}
	for _, tt := range tests {
		got, ok := lastTagged(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: lastTagged(%q) = %q, %v; want %q, %v", tt.name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestGolds(t *testing.T) {
	tests := []struct {
		in      any
		want    []string
		wantErr bool
	}{
		{"Paris", []string{"Paris"}, false},
		{[]any{"Paris", "Paris, France"}, []string{"Paris", "Paris, France"}, false},
		{[]any{"x", int64(42)}, []string{"x", "42"}, false},
		{int64(1590), []string{"1590"}, false},
		{2.0, []string{"2.0"}, false}, // Python's str(2.0)
		{2.5, []string{"2.5"}, false},
		{true, []string{"True"}, false},
		{false, []string{"False"}, false},
		{[]string{"a"}, []string{"a"}, false},
		{nil, nil, true},
		{[]any{}, nil, true},
		{[]any{"a", nil}, nil, true},
		{map[string]any{"a": 1}, nil, true},
	}
	for _, tt := range tests {
		got, err := golds(tt.in)
		if (err != nil) != tt.wantErr || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("golds(%#v) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"The Eiffel Tower", "t.he", "a\u0301b", "x\u001cy", "\xff the"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(n) != n {
			t.Fatalf("Normalize is not idempotent on %q: %q then %q", s, n, Normalize(n))
		}
		if !ExactMatch(s, []string{n}) || F1(s, []string{s}) != 1 {
			t.Fatalf("%q does not match itself", s)
		}
	})
}
