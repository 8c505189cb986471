package dataset

import (
	"slices"
	"testing"
)

func TestIndexBijectionPerEpoch(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64, 1000, 100003} {
		for _, seed := range []uint64{0, 42} {
			var prev []int
			for epoch := range 3 {
				seen := make([]bool, n)
				order := make([]int, n)
				for i := range n {
					r := Index(seed, n, epoch*n+i)
					if r < 0 || r >= n {
						t.Fatalf("n=%d seed=%d task=%d: row %d out of range", n, seed, epoch*n+i, r)
					}
					if seen[r] {
						t.Fatalf("n=%d seed=%d epoch=%d: row %d visited twice", n, seed, epoch, r)
					}
					seen[r] = true
					order[i] = r
				}
				if n >= 7 && prev != nil && slices.Equal(prev, order) {
					t.Errorf("n=%d seed=%d: epoch %d repeats the previous order", n, seed, epoch)
				}
				prev = order
			}
		}
	}
}

func TestIndexShuffles(t *testing.T) {
	const n = 1000
	fixed, sameAsOtherSeed := 0, 0
	for i := range n {
		if Index(7, n, i) == i {
			fixed++
		}
		if Index(7, n, i) == Index(8, n, i) {
			sameAsOtherSeed++
		}
	}
	// A uniform shuffle has one fixed point on average.
	if fixed > 10 || sameAsOtherSeed > 10 {
		t.Errorf("order looks unshuffled: %d fixed points, %d agreements with another seed", fixed, sameAsOtherSeed)
	}
}

// TestIndexGolden freezes the order: it is part of the data contract, since
// an env version promises which task gets which row.
func TestIndexGolden(t *testing.T) {
	cases := []struct {
		seed       uint64
		n, task, w int
	}{
		{0, 7, 0, 3},
		{0, 7, 6, 0},
		{42, 7, 7, 2},
		{42, 1000, 0, 658},
		{42, 1000, 999, 151},
		{42, 1000, 1000, 385},
		{1, 100003, 12345, 16933},
		{1099511627776, 100003, 250000, 27539},
		{3, 2, 0, 1},
		{3, 2, 3, 0},
	}
	for _, c := range cases {
		for range 2 { // stable across calls
			if got := Index(c.seed, c.n, c.task); got != c.w {
				t.Errorf("Index(%d, %d, %d) = %d, want %d", c.seed, c.n, c.task, got, c.w)
			}
		}
	}
}

func TestIndexPanics(t *testing.T) {
	for _, c := range []struct{ n, task int }{{0, 0}, {-1, 0}, {5, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Index(_, %d, %d) did not panic", c.n, c.task)
				}
			}()
			Index(1, c.n, c.task)
		}()
	}
}

func BenchmarkIndex(b *testing.B) {
	b.ReportAllocs()
	for i := range b.N {
		Index(42, 100003, i)
	}
}
