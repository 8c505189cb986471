package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/quarry-rl/quarry/internal/pyfmt"
)

// GEM builds its prompt with Python's json.dumps and shows structured
// results with str(). The functions here reproduce those defaults on JSON
// received from a server, so a prompt built by Quarry is byte-identical to
// GEM's: ", " and ": " separators, ensure_ascii escapes, object keys in the
// order the server sent them (a repeated key keeps its first position and its
// last value, as a Python dict does), integers kept exact and floats printed
// as Python's repr.

// pyValue is a decoded JSON value that remembers key order.
type pyValue struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	str  string
	num  json.Number
	b    bool
	keys []string
	vals []*pyValue // object values (by key index) or array items
}

// parsePy decodes one JSON value, keeping key order.
func parsePy(raw []byte) (*pyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parsePyValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func parsePyValue(dec *json.Decoder) (*pyValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			v := &pyValue{kind: 'o'}
			index := map[string]int{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key := kt.(string)
				item, err := parsePyValue(dec)
				if err != nil {
					return nil, err
				}
				if i, ok := index[key]; ok {
					v.vals[i] = item
					continue
				}
				index[key] = len(v.keys)
				v.keys = append(v.keys, key)
				v.vals = append(v.vals, item)
			}
			_, err := dec.Token()
			return v, err
		case '[':
			v := &pyValue{kind: 'a'}
			for dec.More() {
				item, err := parsePyValue(dec)
				if err != nil {
					return nil, err
				}
				v.vals = append(v.vals, item)
			}
			_, err := dec.Token()
			return v, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	case string:
		return &pyValue{kind: 's', str: t}, nil
	case json.Number:
		return &pyValue{kind: 'n', num: t}, nil
	case bool:
		return &pyValue{kind: 'b', b: t}, nil
	case nil:
		return &pyValue{kind: 'z'}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// pyDumps formats raw JSON as Python's json.dumps(json.loads(raw)) would.
func pyDumps(raw []byte) (string, error) {
	v, err := parsePy(raw)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	v.dump(&b)
	return b.String(), nil
}

func (v *pyValue) dump(b *strings.Builder) {
	switch v.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyJSONString(b, k)
			b.WriteString(": ")
			v.vals[i].dump(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, it := range v.vals {
			if i > 0 {
				b.WriteString(", ")
			}
			it.dump(b)
		}
		b.WriteByte(']')
	case 's':
		writePyJSONString(b, v.str)
	case 'n':
		b.WriteString(pyNumber(v.num))
	case 'b':
		if v.b {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		b.WriteString("null")
	}
}

// truthy reports Python's bool() of the decoded value: empty containers,
// empty strings, zero, false and null are false.
func (v *pyValue) truthy() bool {
	switch v.kind {
	case 'o', 'a':
		return len(v.vals) > 0
	case 's':
		return v.str != ""
	case 'n':
		f, err := strconv.ParseFloat(string(v.num), 64)
		return err != nil || f != 0
	case 'b':
		return v.b
	}
	return false
}

// pyStr is Python's str() of a decoded scalar, and json.dumps of a container
// (where GEM's str() would print a Python repr, Quarry prints JSON).
func (v *pyValue) pyStr() string {
	switch v.kind {
	case 's':
		return v.str
	case 'n':
		return pyNumber(v.num)
	case 'b':
		if v.b {
			return "True"
		}
		return "False"
	case 'z':
		return "None"
	}
	var b strings.Builder
	v.dump(&b)
	return b.String()
}

// field returns an object member, or nil.
func (v *pyValue) field(key string) *pyValue {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// writePyJSONString writes s as json.dumps does with ensure_ascii=True:
// everything outside printable ASCII is a \uXXXX escape (lowercase hex,
// surrogate pairs above the BMP).
func writePyJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	u := func(r rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12&0xf])
		b.WriteByte(hex[r>>8&0xf])
		b.WriteByte(hex[r>>4&0xf])
		b.WriteByte(hex[r&0xf])
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r <= 0x7e:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			u(r1)
			u(r2)
		default:
			u(r)
		}
	}
	b.WriteByte('"')
}

// pyNumber prints a JSON number as Python does after json.loads: an integer
// literal stays an exact int, anything else becomes a float printed by repr.
func pyNumber(n json.Number) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if strings.TrimLeft(s, "-0") == "" {
			return "0" // -0 is the int 0
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	return pyFloatRepr(f)
}

// pyFloatRepr is Python's repr(float): the shortest round-tripping digits,
// positional for exponents in [-4, 16), scientific otherwise.
func pyFloatRepr(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	return pyfmt.Float(f)
}
