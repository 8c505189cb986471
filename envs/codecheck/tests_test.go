package codecheck

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestSelectTests(t *testing.T) {
	mk := func(ins ...string) []Test {
		ts := make([]Test, len(ins))
		for i, in := range ins {
			ts[i] = Test{Input: in, Output: strconv.Itoa(i)}
		}
		return ts
	}
	// Fewer than max: all, in order.
	few := mk("a", "bbb", "cc")
	if got := SelectTests(few, 0); !reflect.DeepEqual(got, few) {
		t.Errorf("SelectTests(3 tests) = %v, want them unchanged", got)
	}
	// Longest first, ties in dataset order, runes not bytes.
	ts := mk("aa", "b", "cc", "ééé", "dddd", "e", "ff")
	got := SelectTests(ts, 4)
	var outs []string
	for _, g := range got {
		outs = append(outs, g.Output)
	}
	if want := []string{"4", "3", "0", "2"}; !reflect.DeepEqual(outs, want) {
		t.Errorf("SelectTests order = %v, want %v", outs, want)
	}
	if ts[0].Output != "0" || ts[4].Output != "4" {
		t.Errorf("SelectTests modified its input: %v", ts)
	}
}

// TestSelectTestsMatchesGEM compares with GEM's sorted(..., reverse=True)[:12].
func TestSelectTestsMatchesGEM(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cases [][]string
	for range 200 {
		n := rng.IntN(30)
		ins := make([]string, n)
		for i := range ins {
			ins[i] = strings.Repeat("x", rng.IntN(6)) + strings.Repeat("é", rng.IntN(2))
		}
		cases = append(cases, ins)
	}
	var want [][]int
	pythonEval(t, `
import json, sys
out = []
for ins in json.load(sys.stdin):
    idx = list(range(len(ins)))
    if len(ins) > 12:
        idx = sorted(idx, key=lambda i: len(ins[i]), reverse=True)[:12]
    out.append(idx)
print(json.dumps(out))
`, cases, &want)
	for c, ins := range cases {
		ts := make([]Test, len(ins))
		for i, in := range ins {
			ts[i] = Test{Input: in, Output: strconv.Itoa(i)}
		}
		got := SelectTests(ts, DefaultMaxTests)
		idx := make([]int, len(got))
		for i, g := range got {
			idx[i], _ = strconv.Atoi(g.Output)
		}
		if !reflect.DeepEqual(idx, want[c]) && !(len(idx) == 0 && len(want[c]) == 0) {
			t.Errorf("case %d %q: SelectTests picked %v, GEM %v", c, ins, idx, want[c])
		}
	}
}

func TestParseTests(t *testing.T) {
	gemJSON := `{"inputs": ["1 2\n", ["3", 4, 5.0, true, null]], "outputs": ["3\n", "12"]}`
	gemWant := []Test{{"1 2\n", "3\n"}, {"3\n4\n5.0\nTrue\nNone", "12"}}
	var gemDecoded map[string]any
	if err := json.Unmarshal([]byte(gemJSON), &gemDecoded); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   any
		want []Test
	}{
		{"GEM/TACO JSON text", gemJSON, gemWant},
		{"GEM/TACO bytes", []byte(gemJSON), gemWant},
		// Go's decoder makes every number a float64: an integral one prints
		// as an int, unlike Python's 5.0.
		{"GEM/TACO decoded", gemDecoded, []Test{{"1 2\n", "3\n"}, {"3\n4\n5\nTrue\nNone", "12"}}},
		{"TACO with fn_name", `{"fn_name": "f", "inputs": [[1, 2]], "outputs": [[3]]}`, []Test{{"1\n2", "3"}}},
		{"typed Go value", map[string][]string{"inputs": {"a"}, "outputs": {"b"}}, []Test{{"a", "b"}}},
		{"CodeContests group", map[string]any{"input": []any{"5\n"}, "output": []any{"25\n"}}, []Test{{"5\n", "25\n"}}},
		{"CodeContests row", map[string]any{
			"name":            "x",
			"public_tests":    map[string]any{"input": []any{"p"}, "output": []any{"P"}},
			"private_tests":   map[string]any{"input": []any{"q"}, "output": []any{"Q"}},
			"generated_tests": map[string]any{"input": []any{"g1", "g2"}, "output": []any{"G1", "G2"}},
		}, []Test{{"p", "P"}, {"q", "Q"}, {"g1", "G1"}, {"g2", "G2"}}},
		{"CodeContests row, some groups", `{"public_tests": {"input": ["p"], "output": ["P"]}, "private_tests": null}`, []Test{{"p", "P"}}},
		{"PrimeIntellect verification_info", `{"language": "python", "test_cases": [{"type": "stdin_stdout", "input": "1\n", "output": "2\n"}]}`, []Test{{"1\n", "2\n"}}},
		{"list of cases", []any{map[string]any{"input": "a", "output": "b"}}, []Test{{"a", "b"}}},
		{"empty", `{"inputs": [], "outputs": []}`, []Test{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseTests(tc.in)
			if err != nil {
				t.Fatalf("ParseTests: %v", err)
			}
			if len(got) != len(tc.want) || (len(got) > 0 && !reflect.DeepEqual(got, tc.want)) {
				t.Errorf("ParseTests = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseTestsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"not JSON", `{"inputs": [`, "decode JSON"},
		{"counts differ", `{"inputs": ["a", "b"], "outputs": ["a"]}`, "2 inputs but 1 outputs"},
		{"number input", `{"inputs": [3], "outputs": ["3"]}`, "inputs[0]"},
		{"unknown object", `{"foo": 1}`, "none of inputs"},
		{"scalar", `42`, "want an object or a list"},
		{"function test case", `{"test_cases": [{"type": "function_call", "input": "a", "output": "b"}]}`, "want stdin_stdout"},
		{"bad group", `{"public_tests": [1]}`, "public_tests"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTests(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseTests error = %v, want one containing %q", err, tc.want)
			}
			if tc.name != "not JSON" && !errors.Is(err, ErrTestFormat) {
				t.Errorf("error %v does not wrap ErrTestFormat", err)
			}
		})
	}
}

// TestListInputsMatchGEM compares GEM's _parse_test on list-valued inputs
// (json.loads, then "\n".join(map(str, x))) with ParseTests.
func TestListInputsMatchGEM(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	items := []string{`0`, `-0`, `17`, `-3`, `123456789012345678901234567890`, `true`, `false`, `null`, `"a b"`, `"it's"`,
		`"say \"hi\""`, `"tab\t"`, `"é"`, `[1, "x", [2.5]]`, `{"k": 1}`, `1e5`, `1E-7`, `0.1`, `2.50`, `-0.0`, `1e300`, `123.456e10`}
	for range 300 {
		f := math.Float64frombits(rng.Uint64())
		if !math.IsInf(f, 0) && !math.IsNaN(f) {
			items = append(items, strconv.FormatFloat(f, 'g', -1, 64))
		}
		items = append(items, strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)), 'g', -1, 64))
	}
	var docs []string
	for _, it := range items {
		docs = append(docs, `{"inputs": [[`+it+`, "z"]], "outputs": ["x"]}`)
	}
	var want []string
	pythonEval(t, `
import json, sys
print(json.dumps(["\n".join(map(str, json.loads(d)["inputs"][0])) for d in json.load(sys.stdin)]))
`, docs, &want)
	for i, d := range docs {
		got, err := ParseTests(d)
		if err != nil {
			t.Fatalf("ParseTests(%s): %v", d, err)
		}
		if got[0].Input != want[i] {
			t.Errorf("ParseTests(%s) input = %q, GEM %q", d, got[0].Input, want[i])
		}
	}
}
