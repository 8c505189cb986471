package rggames

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// futoshikiValid checks a grid against the rules: a Latin square obeying
// every sign.
func futoshikiValid(n int, cells []int, rels []futRel) bool {
	for r := range n {
		var row, col uint
		for c := range n {
			row |= 1 << cells[r*n+c]
			col |= 1 << cells[c*n+r]
		}
		if row != uint(1)<<(n+1)-2 || col != uint(1)<<(n+1)-2 {
			return false
		}
	}
	for _, rel := range rels {
		if (cells[rel.a] < cells[rel.b]) != rel.less {
			return false
		}
	}
	return true
}

func TestFutoshikiItems(t *testing.T) {
	r := registry(t)
	for _, o := range []map[string]any{nil, {"min_board_size": 9, "min_difficulty": 3}, {"max_board_size": 4, "max_difficulty": 0}} {
		for seed := range uint64(20) {
			start := time.Now()
			_, e := rgtest.Reset(t, r, "rg:futoshiki", o, seed)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("options %v seed %d took %v", o, seed, d)
			}
			it := e.Item()
			d := it.Data.(*futoshikiItem)
			puzzle := it.Meta["puzzle"].(string)
			// Read the puzzle back: its signs and clues.
			var rels []futRel
			for _, c := range it.Meta["constraints"].([][5]any) {
				a, b := c[0].(int)*d.n+c[1].(int), c[2].(int)*d.n+c[3].(int)
				rels = append(rels, futRel{a: a, b: b, less: c[4] == "<"})
			}
			if !futoshikiValid(d.n, d.solution, rels) {
				t.Fatalf("options %v seed %d: the solution breaks the rules\n%s", o, seed, it.Answer)
			}
			f := newFutoshiki(d.n, rels)
			lines := strings.Split(puzzle, "\n")
			if len(lines) != 2*d.n-1 {
				t.Fatalf("puzzle has %d lines", len(lines))
			}
			for row := range d.n {
				for c := range d.n { // cells 4 bytes apart: "1 < 2   3"
					if tok := lines[2*row][4*c]; tok != '_' {
						f.set(row*d.n+c, int(tok-'0'))
					}
				}
			}
			nodes := 1 << 24
			if k := f.count(2, &nodes); k != 1 {
				t.Fatalf("options %v seed %d: %d solutions\n%s", o, seed, k, puzzle)
			}
			if !strings.Contains(it.Question, puzzle) || !strings.Contains(it.Question, "from 1 to "+itoa(d.n)+" exactly once") {
				t.Fatalf("question %q", it.Question)
			}
		}
	}
	envtest.OptionErrors(t, r, "rg:futoshiki", []envtest.OptionCase{
		{Options: map[string]any{"min_board_size": 3}, Option: "min_board_size"},
		{Options: map[string]any{"max_board_size": 10}, Option: "max_board_size"},
		{Options: map[string]any{"min_board_size": 6, "max_board_size": 5}, Option: "max_board_size"},
		{Options: map[string]any{"max_difficulty": 4}, Option: "max_difficulty"},
		{Options: map[string]any{"min_difficulty": 2, "max_difficulty": 1}, Option: "max_difficulty"},
	})
}

func TestFutoshikiString(t *testing.T) {
	// 2 < 1 is no solution, only a layout: signs between cells, ∧ and ∨
	// under them.
	rels := []futRel{{a: 0, b: 1, less: true}, {a: 1, b: 5, less: false}, {a: 2, b: 6, less: true}}
	cells := []int{1, 2, 3, 4, 2, 1, 4, 3, 3, 4, 1, 2, 4, 3, 2, 1}
	want := "1 < 2   3   4\n    \u2228   \u2227    \n2   1   4   3\n             \n3   4   1   2\n             \n4   3   2   1"
	if got := futoshikiString(4, cells, rels); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestFutoshikiScore(t *testing.T) {
	opts := map[string]any{"min_board_size": 5, "max_board_size": 5}
	_, e := rgtest.Reset(t, registry(t), "rg:futoshiki", opts, 2)
	a := e.Item().Answer
	digits := func(s string) string {
		var rows []string
		for _, l := range strings.Split(s, "\n") {
			var d []string
			for _, c := range l {
				if c >= '1' && c <= '9' {
					d = append(d, string(c))
				}
			}
			if len(d) > 0 {
				rows = append(rows, strings.Join(d, " "))
			}
		}
		return strings.Join(rows, "\n")
	}
	plain := digits(a)
	swapped := []byte(plain) // the first two cells swapped
	swapped[0], swapped[2] = swapped[2], swapped[0]
	checkScores(t, "rg:futoshiki", opts, 2, []scoreCase{
		{"reference", fixed(a), 1},
		{"trailing spaces", fixed(strings.ReplaceAll(a, "\n", "  \n") + "\n"), 1},
		{"digits only", fixed(plain), 1},
		{"commas", fixed(strings.ReplaceAll(plain, " ", ", ")), 1},
		{"two cells wrong", fixed(string(swapped)), 0.9 * 23 / 25},
		{"two cells wrong, longer than the reference", fixed(string(swapped) + strings.Repeat(" ", len([]rune(a)))), 0.9 * 23 / 25 * float64(len([]rune(a))) / float64(len([]rune(a))+len(swapped))},
		{"no grid", fixed("I give up"), 0},
	})
}
