package envs

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Every option of every env declares its range in its struct tag, so a
// spec cannot ask a worker for a board, a code or a puzzle that exhausts its
// memory or time (`num_disks: 100000000` once did, and resuming the job
// crashed the next worker too). The registry enforces the tags on every
// Make — at submission, in ValidateJob and on every worker that rebuilds an
// env — and Register refuses an options struct with an option that has no
// range, so a new option cannot ship without one.
//
//	NumDisks *int    `json:"num_disks" range:"1,20"`   // a number (null allowed for pointers)
//	Dataset  string  `json:"dataset" len:"1,4096"`    // a string's bytes, a list's or a map's entries
//	DimRoom  []int   `json:"dim_room" len:"2,2" range:"5,10"` // a list's length and each element
//
// A bool needs no tag. A type that is neither a number nor has a length
// (wikigame's [length, unit] pair) implements Bounded to expose the number
// its range tag bounds.

// Bounded is implemented by option types whose range tag bounds one number
// derived from the value.
type Bounded interface {
	BoundValue() float64
}

// Bound is the documented range of one option.
type Bound struct {
	Option string
	// Min and Max bound the value (numbers, each element of a list of
	// numbers, a Bounded's number); HasRange says they apply.
	Min, Max float64
	HasRange bool
	// MinLen and MaxLen bound a string's bytes or a list's or map's
	// entries (LenUnit); HasLen says they apply.
	MinLen, MaxLen int
	LenUnit        string
	HasLen         bool
	// Flag marks a bool, which needs no range.
	Flag bool
}

// String describes the range for errors and docs: "1 to 20",
// "1 to 4096 bytes", "2 entries, each 5 to 10", "true or false".
func (b Bound) String() string {
	var parts []string
	if b.HasLen {
		unit := b.LenUnit
		if b.MinLen == b.MaxLen {
			parts = append(parts, fmt.Sprintf("%d %s", b.MinLen, unit))
		} else {
			parts = append(parts, fmt.Sprintf("%d to %d %s", b.MinLen, b.MaxLen, unit))
		}
	}
	if b.HasRange {
		r := fmt.Sprintf("%s to %s", num(b.Min), num(b.Max))
		if b.HasLen {
			r = "each " + r
		}
		parts = append(parts, r)
	}
	if b.Flag {
		parts = append(parts, "true or false")
	}
	return strings.Join(parts, ", ")
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// optionBounds reads the range tags of an options struct. Every exported
// option must have one (bools excepted): an error names the first without.
func optionBounds(def any) ([]Bound, error) {
	t := reflect.TypeOf(def)
	if t == nil || t.Kind() != reflect.Struct {
		return nil, nil
	}
	var out []Bound
	for f := range t.Fields() {
		name, ok := optionName(f)
		if !ok {
			continue
		}
		b, err := fieldBound(name, f)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func optionName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch name {
	case "-":
		return "", false
	case "":
		name = f.Name
	}
	return name, true
}

func fieldBound(name string, f reflect.StructField) (Bound, error) {
	b := Bound{Option: name}
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if r, ok := f.Tag.Lookup("range"); ok {
		lo, hi, err := parsePair(r, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) })
		if err != nil {
			return b, fmt.Errorf("option %q: range tag %q: %w", name, r, err)
		}
		b.Min, b.Max, b.HasRange = lo, hi, true
	}
	if l, ok := f.Tag.Lookup("len"); ok {
		lo, hi, err := parsePair(l, strconv.Atoi)
		if err != nil {
			return b, fmt.Errorf("option %q: len tag %q: %w", name, l, err)
		}
		b.MinLen, b.MaxLen, b.HasLen = lo, hi, true
		b.LenUnit = "entries"
		if t.Kind() == reflect.String {
			b.LenUnit = "bytes"
		}
	}
	elem := t
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		elem = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Bool:
		b.Flag = true
		return b, nil
	case t.Implements(boundedType) || reflect.PointerTo(t).Implements(boundedType):
		if !b.HasRange {
			return b, fmt.Errorf("option %q has no range tag (see envs.Bounded)", name)
		}
	case isNumber(t.Kind()):
		if !b.HasRange {
			return b, fmt.Errorf("option %q has no range tag, e.g. `range:\"1,100\"`", name)
		}
	case t.Kind() == reflect.String, t.Kind() == reflect.Map, t.Kind() == reflect.Slice, t.Kind() == reflect.Array:
		if !b.HasLen {
			return b, fmt.Errorf("option %q has no len tag, e.g. `len:\"1,4096\"`", name)
		}
		if b.HasRange && !isNumber(elem.Kind()) {
			return b, fmt.Errorf("option %q: a range tag needs a list of numbers", name)
		}
		if isNumber(elem.Kind()) && !b.HasRange {
			return b, fmt.Errorf("option %q has no range tag for its elements", name)
		}
	default:
		return b, fmt.Errorf("option %q: type %s cannot be bounded by a tag (implement envs.Bounded)", name, t)
	}
	return b, nil
}

func parsePair[T int | float64](s string, parse func(string) (T, error)) (T, T, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, fmt.Errorf(`want "min,max"`)
	}
	lo, err := parse(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, err
	}
	hi, err := parse(strings.TrimSpace(b))
	if err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("min %v exceeds max %v", lo, hi)
	}
	return lo, hi, nil
}

var boundedType = reflect.TypeFor[Bounded]()

func isNumber(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// checkBounds returns an *OptionError (without Env) naming the first option
// of opts, an options struct, outside its bound. A null pointer is not
// checked: it means "drawn per episode" and the env's own draws are bounded.
func checkBounds(opts any, bounds []Bound) *OptionError {
	v := reflect.ValueOf(opts)
	t := v.Type()
	byName := make(map[string]Bound, len(bounds))
	for _, b := range bounds {
		byName[b.Option] = b
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name, ok := optionName(f)
		if !ok {
			continue
		}
		if err := checkValue(byName[name], v.Field(i)); err != nil {
			return &OptionError{Option: name, Reason: err.Error()}
		}
	}
	return nil
}

func checkValue(b Bound, v reflect.Value) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	want := func() string { return "want " + b.String() }
	if b.HasLen {
		switch v.Kind() {
		case reflect.Slice, reflect.Map:
			if v.IsNil() {
				break // null: the env's default or draw
			}
			fallthrough
		case reflect.String, reflect.Array:
			if n := v.Len(); n < b.MinLen || n > b.MaxLen {
				return fmt.Errorf("got %d %s, %s", n, b.LenUnit, want())
			}
		}
	}
	if !b.HasRange {
		return nil
	}
	if bv, ok := v.Interface().(Bounded); ok {
		return inRange(bv.BoundValue(), b, want)
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := inRange(number(v.Index(i)), b, want); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
		return nil
	}
	return inRange(number(v), b, want)
}

func inRange(x float64, b Bound, want func() string) error {
	if math.IsNaN(x) || x < b.Min || x > b.Max {
		return fmt.Errorf("got %s, %s", num(x), want())
	}
	return nil
}

func number(v reflect.Value) float64 {
	switch {
	case v.CanInt():
		return float64(v.Int())
	case v.CanUint():
		return float64(v.Uint())
	case v.CanFloat():
		return v.Float()
	}
	return math.NaN()
}
