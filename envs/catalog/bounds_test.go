package catalog

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// TestEveryOptionIsBounded walks every registered env id and every option:
// each has a documented range (Register refuses an option without one), and
// a value just outside it is refused by Make with an error naming the env,
// the option and the range. A new option without a range tag fails here.
func TestEveryOptionIsBounded(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		s, err := r.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		defaults := s.Defaults()
		bounds := s.Bounds()
		if len(bounds) != len(defaults) {
			t.Errorf("%s: %d options but %d bounds", id, len(defaults), len(bounds))
		}
		for _, b := range bounds {
			if _, ok := defaults[b.Option]; !ok {
				t.Errorf("%s: bound for unknown option %q", id, b.Option)
			}
			if b.Flag {
				continue
			}
			for _, bad := range outside(b) {
				_, err := r.Make(id, map[string]any{b.Option: bad})
				var oe *envs.OptionError
				if !errors.As(err, &oe) {
					t.Errorf("%s: %s=%v: got %v, want an *OptionError", id, b.Option, bad, err)
					continue
				}
				msg := err.Error()
				if oe.Option != b.Option || !strings.Contains(msg, id) || !strings.Contains(msg, b.String()) {
					t.Errorf("%s: %s=%v: error %q does not name the env, the option and the range %q", id, b.Option, bad, msg, b.String())
				}
			}
		}
	}
}

// outside returns JSON-shaped values just outside b.
func outside(b envs.Bound) []any {
	if b.Option == "page_summary_length" { // a [length, unit] pair
		return []any{[]any{b.Max + 1, "characters"}, []any{b.Min - 1, "characters"}}
	}
	switch {
	case b.HasLen && b.LenUnit == "bytes":
		out := []any{strings.Repeat("x", b.MaxLen+1)}
		if b.MinLen > 0 {
			out = append(out, strings.Repeat("x", b.MinLen-1))
		}
		return out
	case b.HasLen && b.HasRange: // a list of numbers
		ok := make([]any, b.MinLen)
		for i := range ok {
			ok[i] = b.Min
		}
		long := append(append([]any{}, ok...), b.Min)
		for len(long) <= b.MaxLen {
			long = append(long, b.Min)
		}
		high := []any{b.Max + 1}
		if len(ok) > 1 {
			high = append(high, ok[1:]...)
		}
		return []any{long, high}
	case b.HasLen: // a map
		m := map[string]any{}
		for i := range b.MaxLen + 1 {
			m[strings.Repeat("k", i+1)] = 1
		}
		return []any{m}
	}
	return []any{b.Max + 1, b.Min - 1}
}

// TestIssueOptionsRefused: the values that crashed workers by memory.
func TestIssueOptionsRefused(t *testing.T) {
	r := registry(t)
	for _, c := range []struct {
		id, option string
		value      any
		want       string
	}{
		{"game:TowerofHanoi-v0-easy", "num_disks", 100000000, `env game:TowerofHanoi-v0-easy: option "num_disks": got 100000000, want 1 to 20`},
		{"game:Mastermind-v0-hard", "code_length", 50000000, `env game:Mastermind-v0-hard: option "code_length": got 50000000, want 1 to 6`},
		{"game:Minesweeper-v0-easy", "rows", 1 << 40, `option "rows"`},
	} {
		_, err := r.Make(c.id, map[string]any{c.option: c.value})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Make(%s, %s=%v) = %v, want %q", c.id, c.option, c.value, err, c.want)
		}
	}
}
