package codecheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quarry-rl/quarry/internal/pyfmt"
)

// DefaultMaxTests is how many tests GEM runs per problem (CodeEnv's
// max_tests).
const DefaultMaxTests = 12

// Test is one stdin/stdout case.
type Test struct {
	Input, Output string
}

// SelectTests returns at most max tests (DefaultMaxTests when max <= 0): all
// of them in their own order when they fit, otherwise the max with the
// longest inputs, longest first, ties kept in dataset order — GEM's
// sorted(range(n), key=len(input), reverse=True)[:max], Python's reverse sort
// being stable. Length is counted in characters (runes), as Python's len
// does. The result is a new slice; tests is not modified.
//
// Deviation: GEM takes len() of the raw dataset value, which for an input
// stored as a list of lines is the number of lines; here every input is
// already joined into text, so such inputs rank by their characters.
func SelectTests(tests []Test, max int) []Test {
	if max <= 0 {
		max = DefaultMaxTests
	}
	if len(tests) <= max {
		return slices.Clone(tests)
	}
	type ranked struct {
		n int
		t Test
	}
	rs := make([]ranked, len(tests))
	for i, t := range tests {
		rs[i] = ranked{utf8.RuneCountInString(t.Input), t}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return b.n - a.n })
	out := make([]Test, max)
	for i := range out {
		out[i] = rs[i].t
	}
	return out
}

// ErrTestFormat is wrapped by ParseTests' errors: the value is not in a test
// format this package knows.
var ErrTestFormat = errors.New("unrecognised test format")

// ParseTests reads the tests of a dataset row in any of the formats the three
// datasets use. v is either JSON text (string, []byte, json.RawMessage) or an
// already decoded value (map[string]any, []any, or any typed Go value that
// marshals to one of the shapes below):
//
//   - GEM's "tests" column and TACO/APPS "input_output":
//     {"inputs": [...], "outputs": [...]} (an "fn_name" key is ignored, as
//     GEM ignores it: such tests are fed to stdin like any other);
//   - one CodeContests test group: {"input": [...], "output": [...]};
//   - a CodeContests row: an object holding any of "public_tests",
//     "private_tests", "generated_tests" (each a group as above), read in that
//     order;
//   - PrimeIntellect verification_info: {"test_cases": [...]} or a bare list of
//     {"input": ..., "output": ...} objects ("type", when present, must be
//     "stdin_stdout"). GEM itself raises NotImplementedError on list-shaped
//     tests; they are accepted here for the raw datasets.
//
// An input or output is either text, used as is, or a list whose items are
// joined with "\n" after Python's str() (GEM's _parse_test): numbers as Python
// prints them, true/false/null as True/False/None. The order of the dataset is
// kept. A value decoded by encoding/json into float64 has lost whether it
// was written 5 or 5.0 and prints as an int when integral; pass the JSON text
// for Python's exact str(). Inputs and outputs of different counts, or values of other kinds,
// are errors wrapping ErrTestFormat.
func ParseTests(v any) ([]Test, error) {
	val, err := normalize(v)
	if err != nil {
		return nil, err
	}
	switch x := val.(type) {
	case []any:
		return parseCaseList(x)
	case map[string]any:
		if _, ok := x["inputs"]; ok {
			return parseColumns(x, "inputs", "outputs")
		}
		if _, ok := x["input"]; ok {
			return parseColumns(x, "input", "output")
		}
		if tc, ok := x["test_cases"]; ok {
			list, ok := tc.([]any)
			if !ok {
				return nil, fmt.Errorf("parse tests: test_cases is %s, want a list: %w", kind(tc), ErrTestFormat)
			}
			return parseCaseList(list)
		}
		var out []Test
		found := false
		for _, key := range []string{"public_tests", "private_tests", "generated_tests"} {
			g, ok := x[key]
			if !ok || g == nil {
				continue
			}
			found = true
			gm, ok := g.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("parse tests: %s is %s, want an object: %w", key, kind(g), ErrTestFormat)
			}
			ts, err := parseColumns(gm, "input", "output")
			if err != nil {
				return nil, fmt.Errorf("parse tests: %s: %w", key, err)
			}
			out = append(out, ts...)
		}
		if found {
			return out, nil
		}
		return nil, fmt.Errorf("parse tests: object has none of inputs, input, test_cases, public_tests, private_tests, generated_tests: %w", ErrTestFormat)
	default:
		return nil, fmt.Errorf("parse tests: got %s, want an object or a list: %w", kind(val), ErrTestFormat)
	}
}

// normalize turns v into the values encoding/json decodes to (with
// json.Number for numbers, so integers and floats print as Python would).
func normalize(v any) (any, error) {
	var raw []byte
	switch x := v.(type) {
	case string:
		raw = []byte(x)
	case []byte:
		raw = x
	case json.RawMessage:
		raw = x
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("parse tests: encode %T: %w", v, err)
		}
		raw = b
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("parse tests: decode JSON: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("parse tests: trailing data after JSON value: %w", ErrTestFormat)
	}
	return out, nil
}

func parseColumns(m map[string]any, inKey, outKey string) ([]Test, error) {
	ins, ok := m[inKey].([]any)
	if !ok {
		return nil, fmt.Errorf("parse tests: %q is %s, want a list: %w", inKey, kind(m[inKey]), ErrTestFormat)
	}
	outs, ok := m[outKey].([]any)
	if !ok {
		return nil, fmt.Errorf("parse tests: %q is %s, want a list: %w", outKey, kind(m[outKey]), ErrTestFormat)
	}
	if len(ins) != len(outs) {
		return nil, fmt.Errorf("parse tests: %d %s but %d %s: %w", len(ins), inKey, len(outs), outKey, ErrTestFormat)
	}
	tests := make([]Test, len(ins))
	for i := range ins {
		in, err := testText(ins[i])
		if err != nil {
			return nil, fmt.Errorf("parse tests: %s[%d]: %w", inKey, i, err)
		}
		out, err := testText(outs[i])
		if err != nil {
			return nil, fmt.Errorf("parse tests: %s[%d]: %w", outKey, i, err)
		}
		tests[i] = Test{Input: in, Output: out}
	}
	return tests, nil
}

func parseCaseList(list []any) ([]Test, error) {
	tests := make([]Test, len(list))
	for i, c := range list {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("parse tests: case %d is %s, want an object: %w", i, kind(c), ErrTestFormat)
		}
		if typ, ok := m["type"]; ok && typ != "stdin_stdout" {
			return nil, fmt.Errorf("parse tests: case %d has type %v, want stdin_stdout: %w", i, typ, ErrTestFormat)
		}
		in, err := testText(m["input"])
		if err != nil {
			return nil, fmt.Errorf("parse tests: case %d input: %w", i, err)
		}
		out, err := testText(m["output"])
		if err != nil {
			return nil, fmt.Errorf("parse tests: case %d output: %w", i, err)
		}
		tests[i] = Test{Input: in, Output: out}
	}
	return tests, nil
}

// testText is GEM's _parse_test: text as is, a list joined by "\n" after
// str() of each item. GEM turns anything else into None and then crashes or
// feeds no stdin; here it is an error.
func testText(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyStr(e)
		}
		return strings.Join(parts, "\n"), nil
	default:
		return "", fmt.Errorf("got %s, want text or a list: %w", kind(v), ErrTestFormat)
	}
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null (or missing)"
	case string:
		return "text"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// pyStr is Python's str() of a value json.loads produced.
func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyRepr is Python's repr() of a value json.loads produced (dict keys in the
// JSON's order are not known after decoding into a map; they come sorted).
func pyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return pyNumber(string(x))
	case string:
		return pyStrRepr(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyStrRepr(k) + ": " + pyRepr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// pyNumber prints a JSON number literal as Python's str() of what json.loads
// makes of it: an int when the literal has no fraction or exponent, else a
// float in Python's shortest round-trip form.
func pyNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		neg := strings.HasPrefix(lit, "-")
		digits := strings.TrimLeft(strings.TrimPrefix(lit, "-"), "0")
		if digits == "" {
			return "0"
		}
		if neg {
			return "-" + digits
		}
		return digits
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return lit
	}
	return pyFloat(f)
}

// pyFloat is Python's repr(float): the shortest digits that round-trip,
// positional for exponents -4 ≤ e < 16, scientific otherwise.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return pyfmt.Float(f)
}

// pyStrRepr is Python's repr(str): single quotes unless the text holds a
// single quote and no double quote; backslash escapes for quotes,
// backslashes, \t \n \r and other non-printable characters.
func pyStrRepr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || strconv.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
