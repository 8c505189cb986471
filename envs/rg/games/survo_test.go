package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestSurvoScore(t *testing.T) {
	// 1 2 | 3 ; 2 1 | 3 ; 3 3 | 6 with all four inner cells blank: the
	// swapped filling 2 1 / 1 2 is also valid.
	p := &survoPuzzle{n: 3, puzzle: [][]int{{0, 0, 3}, {0, 0, 3}, {3, 3, 6}}, numbers: []int{1, 2, 2, 1}}
	for _, c := range []struct {
		answer string
		ok     bool
	}{
		{"1 2 3\n2 1 3\n3 3 6", true},
		{"2 1 3\n1 2 3\n3 3 6", true},
		{"[[2, 1, 3], [1, 2, 3], [3, 3, 6]]", false}, // one line: one row
		{"[2, 1, 3]\n[1, 2, 3]\n[3, 3, 6]", true},
		{"| 2 | 1 | 3 |\n| 1 | 2 | 3 |\n| 3 | 3 | 6 |", true},
		{"0 3 3\n3 0 3\n3 3 6", false}, // numbers not given
		{"1 1 3\n2 2 3\n3 3 6", false}, // sums broken
		{"1 2 3\n2 1 3\n3 3 7", false}, // a given cell changed
		{"1 2 3\n2 1 3", false},
		{"", false},
	} {
		if got := survoFault(c.answer, p) == ""; got != c.ok {
			t.Errorf("%q: ok %v, want %v (%s)", c.answer, got, c.ok, survoFault(c.answer, p))
		}
	}
	checkScores(t, "rg:survo", nil, 4, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"commas", ref(func(a string) string { return strings.ReplaceAll(a, " ", ", ") }), 1},
		{"blank lines and labels", ref(func(a string) string { return "matrix:\n\n" + strings.ReplaceAll(a, "\n", " row\n") }), 1},
		{"the puzzle unfilled", func(it rg.Item) string { return formatInts(it.Data.(*survoPuzzle).puzzle) }, 0},
	})
}

func TestSurvoItems(t *testing.T) {
	r := registry(t)
	for seed := range uint64(50) {
		_, e := rgtest.Reset(t, r, "rg:survo", nil, seed)
		it := e.Item()
		p := it.Data.(*survoPuzzle)
		zeros := 0
		for _, row := range p.puzzle {
			for _, v := range row {
				if v == 0 {
					zeros++
				}
			}
		}
		if p.n < 4 || p.n > 5 || zeros != len(p.numbers) || zeros < 3 || zeros > 5 {
			t.Fatalf("seed %d: n %d, %d blanks, numbers %v", seed, p.n, zeros, p.numbers)
		}
		if !strings.Contains(it.Question, pyList(p.numbers)) || !strings.Contains(it.Question, formatInts(p.puzzle)) {
			t.Fatalf("question %q", it.Question)
		}
	}
	envtest.OptionErrors(t, r, "rg:survo", []envtest.OptionCase{
		{Options: map[string]any{"min_board_size": 3}, Option: "min_board_size"},
		{Options: map[string]any{"min_board_size": 6}, Option: "max_board_size"},
		{Options: map[string]any{"min_empty": 0}, Option: "min_empty"},
		{Options: map[string]any{"min_empty": 6}, Option: "max_empty"},
		{Options: map[string]any{"max_empty": 10}, Option: "max_empty"}, // 9 inner cells at size 4
		{Options: map[string]any{"min_num": 9}, Option: "max_num"},
	})
}
