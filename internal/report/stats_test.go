package report

import (
	"slices"
	"testing"
)

func TestHistogram(t *testing.T) {
	for _, tt := range []struct {
		name string
		xs   []int64
		want Histogram
	}{
		{"empty", nil, Histogram{}},
		{"one value", []int64{5, 5}, Histogram{Lo: 5, Width: 1, Counts: []int64{2}}},
		{"one bin per value, gaps kept", []int64{1, 3, 3}, Histogram{Lo: 1, Width: 1, Counts: []int64{1, 0, 2}}},
		{"40 values: still width 1", []int64{0, 39}, Histogram{Lo: 0, Width: 1, Counts: append(append([]int64{1}, make([]int64, 38)...), 1)}},
		{"41 values: width 2", []int64{0, 40}, Histogram{Lo: 0, Width: 2, Counts: append(append([]int64{1}, make([]int64, 19)...), 1)}},
		{"wide", []int64{100, 500, 899}, Histogram{Lo: 100, Width: 20, Counts: func() []int64 {
			c := make([]int64, 40)
			c[0], c[20], c[39] = 1, 1, 1
			return c
		}()}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := histogram(tt.xs)
			if got.Lo != tt.want.Lo || got.Width != tt.want.Width || !slices.Equal(got.Counts, tt.want.Counts) {
				t.Fatalf("histogram(%v) = %+v, want %+v", tt.xs, got, tt.want)
			}
			if len(got.Counts) > maxBins {
				t.Fatalf("%d bins", len(got.Counts))
			}
		})
	}
}

// quantile interpolates as numpy and DuckDB's quantile_cont do.
func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 4, 8}
	for _, tt := range []struct{ q, want float64 }{{0, 1}, {0.5, 3}, {1, 8}, {0.9, 6.8}, {0.25, 1.75}} {
		if got := quantile(xs, tt.q); got < tt.want-1e-12 || got > tt.want+1e-12 {
			t.Errorf("quantile(%v, %v) = %v, want %v", xs, tt.q, got, tt.want)
		}
	}
	if quantile(nil, 0.5) != 0 || quantile([]float64{7}, 0.99) != 7 {
		t.Error("quantile of no or one value")
	}
}
