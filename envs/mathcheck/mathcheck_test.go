package mathcheck

import (
	"testing"
)

func TestEquivalentTable(t *testing.T) {
	total := 0
	for _, g := range table {
		t.Run(g.group, func(t *testing.T) {
			for _, c := range g.cases {
				total++
				if got := Equivalent(c.pred, c.gold); got != c.want {
					t.Errorf("Equivalent(%q, %q) = %v, want %v (%s); normalised %q vs %q",
						c.pred, c.gold, got, c.want, c.why, Normalize(c.pred), Normalize(c.gold))
				}
				if got := Equivalent(c.gold, c.pred); got != c.want {
					t.Errorf("Equivalent(%q, %q) [swapped] = %v, want %v (%s)", c.gold, c.pred, got, c.want, c.why)
				}
			}
		})
	}
	if total < 300 {
		t.Errorf("table has %d cases, want at least 300", total)
	}
	t.Logf("%d cases", total)
}
