package wordgrid

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSize(t *testing.T) {
	// Python's round() takes halves to even: round(4.5) = 4, round(7.5) = 8.
	for longest, want := range map[int]int{3: 4, 4: 6, 5: 8, 6: 9, 7: 10, 8: 12, 9: 14, 10: 15} {
		if got := Size(longest); got != want {
			t.Errorf("Size(%d) = %d, want %d", longest, got, want)
		}
	}
}

func TestPick(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]int, 7)
	for range 100 {
		got := Pick(rng, buf, 5, 6)
		if len(got) != 5 {
			t.Fatalf("Pick gave %d indices, want 5", len(got))
		}
		sorted := slices.Sorted(slices.Values(got))
		if len(slices.Compact(slices.Clone(sorted))) != 5 || sorted[0] < 0 || sorted[4] >= 6 {
			t.Fatalf("Pick = %v, want 5 distinct indices below 6", got)
		}
	}
}
