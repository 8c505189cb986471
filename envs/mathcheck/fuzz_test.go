package mathcheck

import (
	"strings"
	"testing"
	"time"
)

// FuzzEquivalent checks that no input panics, every call is bounded in time,
// the verdict is symmetric and an answer with content equals itself.
func FuzzEquivalent(f *testing.F) {
	for _, g := range table {
		for _, c := range g.cases {
			f.Add(c.pred, c.gold)
		}
	}
	for _, a := range adversarial() {
		f.Add(a, "1")
	}
	f.Fuzz(func(t *testing.T, pred, gold string) {
		start := time.Now()
		ab := Equivalent(pred, gold)
		ba := Equivalent(gold, pred)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
		if ab != ba {
			t.Errorf("asymmetric: Equivalent(%q, %q) = %v but swapped %v", pred, gold, ab, ba)
		}
		p := strings.TrimSpace(pred)
		if p != "" && len(p) <= 2048 && Normalize(pred) != "" && !Equivalent(pred, pred) {
			t.Errorf("Equivalent(%q, itself) = false", pred)
		}
		Normalize(pred)
		Score(pred, gold)
	})
}
