package search_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/search"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, action string
		ok           bool
		input, raw   string
	}{
		{"plain", "<search>capital of France</search>", true, "capital of France", "<search>capital of France</search>"},
		{"with thinking and trailing text", "<think>need facts</think><search>lattice loom</search> then more", true, "lattice loom", "<search>lattice loom</search>"},
		{"first of two wins", "```<search>First query</search> ... <search>Second query</search>```", true, "First query", "<search>First query</search>"},
		{"whitespace stripped", "<search>  \n\t spaced out \r\n </search>", true, "spaced out", "<search>  \n\t spaced out \r\n </search>"},
		{"python strip includes information separators", "<search>\x1cq\x1f\u00a0\u2028</search>", true, "q", "<search>\x1cq\x1f\u00a0\u2028</search>"},
		{"inner whitespace kept", "<search>a\n\nb</search>", true, "a\n\nb", "<search>a\n\nb</search>"},
		{"empty query is still a call", "<search></search>", true, "", "<search></search>"},
		{"blank query is still a call", "<search>   </search>", true, "", "<search>   </search>"},
		{"nested opening tag is text", "<search>a <search>b</search>", true, "a <search>b", "<search>a <search>b</search>"},
		{"close before open is skipped", "</search> x <search>q</search>", true, "q", "<search>q</search>"},
		{"no tags", "Dummy action", false, "", ""},
		{"unclosed", "<search>never closed", false, "", ""},
		{"only close", "q</search>", false, "", ""},
		{"case sensitive", "<SEARCH>q</SEARCH>", false, "", ""},
		{"spaced tag", "< search>q</search>", false, "", ""},
		{"answer is not search", "<answer>Paris</answer>", false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, ok := search.Parse(tc.action)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			want := tools.Call{}
			if tc.ok {
				// Shown is GEM's parsed_action: the action up to the end of the call.
				want = tools.Call{Tool: "search", Input: tc.input, Raw: tc.raw, Shown: tc.action[:strings.Index(tc.action, tc.raw)+len(tc.raw)]}
			}
			if call != want {
				t.Errorf("Parse = %+v, want %+v", call, want)
			}
		})
	}
}

// gemPattern is GEM's regex; Python's re with DOTALL matches as Go's (?s).
var gemPattern = regexp.MustCompile(`(?s)<search>(.*?)</search>`)

// pyStrip is Python's str.strip(): whitespace per str.isspace.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0xa0, 0x1680,
			0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// FuzzParse checks Parse against GEM's regex and Python's strip.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"<search>q</search>", "<search></search>", "x<search> a </search><search>b</search>",
		"<search>unclosed", "</search><search>q</search>", "<search>\x1c\u3000q\u2029</search>",
		"<sear<search>ch>q</search>", "<search>q</sear</search>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, action string) {
		if !utf8.ValidString(action) {
			return // agent text is decoded UTF-8, as Python's str is
		}
		call, ok := search.Parse(action)
		m := gemPattern.FindStringSubmatchIndex(action)
		if ok != (m != nil) {
			t.Fatalf("Parse(%q) ok = %v, GEM's regex matched = %v", action, ok, m != nil)
		}
		if !ok {
			return
		}
		if want := pyStrip(action[m[2]:m[3]]); call.Input != want {
			t.Errorf("Parse(%q).Input = %q, want %q", action, call.Input, want)
		}
		if want := action[m[0]:m[1]]; call.Raw != want {
			t.Errorf("Parse(%q).Raw = %q, want %q", action, call.Raw, want)
		}
		if call.Tool != "search" || call.Err != "" {
			t.Errorf("Parse(%q) = %+v", action, call)
		}
	})
}

func TestFormatPassagesAsGEM(t *testing.T) {
	got := search.FormatPassages([]string{
		"\"Vethmere\"\nVethmere is a mining town.\nIt has two lines.",
		"no newline at all",
		"\"Empty body\"\n",
	})
	want := "Doc 1(Title: \"Vethmere\") Vethmere is a mining town.\nIt has two lines.\n" +
		"Doc 2(Title: no newline at all) \n" +
		"Doc 3(Title: \"Empty body\") \n"
	if got != want {
		t.Errorf("FormatPassages =\n%q\nwant\n%q", got, want)
	}
	if got := search.FormatPassages(nil); got != "" {
		t.Errorf("no passages = %q, want empty", got)
	}
}

func ExampleParse() {
	call, ok := search.Parse("<think>I need the founder.</think> <search> Who founded Vethmere? </search>")
	fmt.Println(ok)
	fmt.Printf("%q\n", call.Input)
	// Output:
	// true
	// "Who founded Vethmere?"
}

func ExampleFormatPassages() {
	fmt.Print(search.FormatPassages([]string{"\"Vethmere\"\nVethmere is a mining town."}))
	// Output:
	// Doc 1(Title: "Vethmere") Vethmere is a mining town.
}
