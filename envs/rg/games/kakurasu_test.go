package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestKakurasuScore(t *testing.T) {
	// Every row and column sums to 3 in two grids: 001/001/110 and
	// 110/110/001. Both must score 1, and nothing else.
	p := &kakurasuPuzzle{rows: 3, cols: 3, rowSums: []int{3, 3, 3}, colSums: []int{3, 3, 3}}
	nodes := 1 << 20
	if k := countKakurasu(3, p.rowSums, p.colSums, 10, &nodes); k < 2 {
		t.Fatalf("the hand-made puzzle has %d solutions, want several", k)
	}
	solutions := 0
	for m := range 1 << 9 {
		grid := make([][]int, 3)
		for i := range grid {
			grid[i] = []int{m >> (3 * i) & 1, m >> (3*i + 1) & 1, m >> (3*i + 2) & 1}
		}
		a := formatInts(grid)
		rs, cs := weightedSums(grid, 3, 3)
		want := kakurasuFault(a, p) == ""
		if want != (pyList(rs) == pyList(p.rowSums) && pyList(cs) == pyList(p.colSums)) {
			t.Fatalf("%q: fault %q", a, kakurasuFault(a, p))
		}
		if want {
			solutions++
		}
	}
	if solutions != 2 {
		t.Fatalf("%d solutions scored 1", solutions)
	}
	checkScores(t, "rg:kakurasu", nil, 1, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"no spaces", ref(func(a string) string { return strings.ReplaceAll(a, " ", "") }), 1},
		{"commas and brackets", ref(func(a string) string { return "[" + strings.ReplaceAll(a, " ", ", ") + "]" }), 1},
		{"blank lines", ref(func(a string) string { return "\n" + strings.ReplaceAll(a, "\n", "\n\n") + "\n" }), 1},
		{"a cell flipped", ref(func(a string) string {
			if a[0] == '1' {
				return "0" + a[1:]
			}
			return "1" + a[1:]
		}), 0},
		{"a row short", ref(func(a string) string { return a[:strings.LastIndex(a, "\n")] }), 0},
		{"prose", fixed("no idea"), 0},
	})
}

func TestKakurasuItems(t *testing.T) {
	r := registry(t)
	unique := 0
	for seed := range uint64(50) {
		_, e := rgtest.Reset(t, r, "rg:kakurasu", nil, seed)
		it := e.Item()
		p := it.Data.(*kakurasuPuzzle)
		if p.rows < 4 || p.rows > 5 || p.cols < 4 || p.cols > 5 {
			t.Fatalf("seed %d: %d x %d", seed, p.rows, p.cols)
		}
		if !strings.Contains(it.Question, pyList(p.rowSums)) || !strings.Contains(it.Question, "Kukurasu") {
			t.Fatalf("question %q", it.Question)
		}
		nodes := 1 << 22
		if countKakurasu(p.cols, p.rowSums, p.colSums, 2, &nodes) == 1 {
			unique++
		}
	}
	if unique < 45 {
		t.Fatalf("%d of 50 default puzzles have a unique solution", unique)
	}
	envtest.OptionErrors(t, r, "rg:kakurasu", []envtest.OptionCase{
		{Options: map[string]any{"min_rows": 2}, Option: "min_rows"},
		{Options: map[string]any{"max_cols": 10}, Option: "max_cols"},
		{Options: map[string]any{"min_rows": 6}, Option: "max_rows"},
		{Options: map[string]any{"min_cols": 6}, Option: "max_cols"},
		{Options: map[string]any{"p_ones": 1.5}, Option: "p_ones"},
		{Options: map[string]any{"max_retries": 0}, Option: "max_retries"},
	})
}
