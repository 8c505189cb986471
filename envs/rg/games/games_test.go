package rggames

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{
		Ceilings: map[string]float64{
			// Three possible answers: a guess is right a third of the time.
			"rg:mahjong_puzzle": 0.45,
			// reasoning-gym credits each right cell: random digits 1-4
			// get a quarter of the cells, 0.9 × 1/4 ≈ 0.23.
			"rg:mini_sudoku": 0.3,
		},
	})
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }

// scoreCase is one answer to an item and the score it must get.
type scoreCase struct {
	name   string
	answer func(it rg.Item) string
	want   float64
}

// checkScores resets id with options and seed and scores every case.
func checkScores(t *testing.T, id string, options map[string]any, seed uint64, cases []scoreCase) rg.Item {
	t.Helper()
	_, e := rgtest.Reset(t, registry(t), id, options, seed)
	it := e.Item()
	for _, c := range cases {
		a := c.answer(it)
		if got := e.Score(a); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %s: Score(%q) = %v, want %v", id, c.name, a, got, c.want)
		}
	}
	return it
}

func fixed(s string) func(rg.Item) string { return func(rg.Item) string { return s } }

func ref(f func(string) string) func(rg.Item) string {
	return func(it rg.Item) string { return f(it.Answer) }
}

func TestNQueensScore(t *testing.T) {
	// seed 0, n=6 with every queen removed: all four solutions of 6-queens are
	// valid, so another one than the reference must score 1.
	opts := map[string]any{"n": 6, "min_remove": 6, "max_remove": 6}
	sols := queenSolutions(6)
	board := func(cols []int) string {
		b := make([][]bool, len(cols))
		for r, c := range cols {
			b[r] = make([]bool, len(cols))
			b[r][c] = true
		}
		return queenBoard(b)
	}
	_, e := rgtest.Reset(t, registry(t), "rg:n_queens", opts, 0)
	ref := e.Item().Answer
	valid := 0
	for _, s := range sols {
		if got := e.Score(board(s)); got != 1 {
			t.Errorf("solution %v scores %v", s, got)
		}
		if board(s) != ref {
			valid++
		}
	}
	if len(sols) != 4 || valid != 3 {
		t.Fatalf("6-queens: %d solutions, %d besides the reference", len(sols), valid)
	}
	attacking := board([]int{0, 1, 2, 3, 4, 5})
	checkScores(t, "rg:n_queens", opts, 0, []scoreCase{
		{"reference", ref2(func(a string) string { return a }), 1},
		{"no spaces", ref2(func(a string) string { return strings.ReplaceAll(a, " ", "") }), 1},
		{"lowercase q, trailing spaces", ref2(func(a string) string { return strings.ReplaceAll(strings.ReplaceAll(a, "Q", "q"), "\n", "  \n") }), 1},
		{"python list: 0.5", ref2(func(a string) string {
			rows := strings.Split(a, "\n")
			for i, r := range rows {
				rows[i] = `["` + strings.ReplaceAll(r, " ", `", "`) + `"]`
			}
			return "[" + strings.Join(rows, ", ") + "]"
		}), 0.5},
		{"queens attack", fixed(attacking), 0},
		{"one queen short", ref2(func(a string) string { return strings.Replace(a, "Q", "_", 1) }), 0},
		{"five rows", ref2(func(a string) string { return a[:strings.LastIndex(a, "\n")] }), 0},
		{"other letters", ref2(func(a string) string { return strings.ReplaceAll(a, "_", ".") }), 0},
	})
	// A given queen must stay where it is.
	opts = map[string]any{"n": 6, "min_remove": 1, "max_remove": 1}
	_, e = rgtest.Reset(t, registry(t), "rg:n_queens", opts, 3)
	for _, s := range sols {
		want := 0.0
		if board(s) == e.Item().Answer {
			want = 1
		}
		if got := e.Score(board(s)); got != want {
			t.Errorf("with 5 queens given, solution %v scores %v, want %v", s, got, want)
		}
	}
}

func ref2(f func(string) string) func(rg.Item) string { return ref(f) }

func TestNQueensOptions(t *testing.T) {
	envtest.OptionErrors(t, registry(t), "rg:n_queens", []envtest.OptionCase{
		{Options: map[string]any{"n": 3}, Option: "n"},
		{Options: map[string]any{"n": 13}, Option: "n"},
		{Options: map[string]any{"min_remove": 0}, Option: "min_remove"},
		{Options: map[string]any{"min_remove": 5, "max_remove": 4}, Option: "max_remove"},
		{Options: map[string]any{"n": 4, "max_remove": 5}, Option: "max_remove"},
	})
}

func TestSudokuScore(t *testing.T) {
	for _, id := range []string{"rg:sudoku", "rg:mini_sudoku"} {
		_, e := rgtest.Reset(t, registry(t), id, nil, 1)
		n := 9
		if id == "rg:mini_sudoku" {
			n = 4
		}
		a := e.Item().Answer
		swapped := []byte(a) // first two cells of row one swapped: two cells wrong
		swapped[0], swapped[2] = swapped[2], swapped[0]
		cells := float64(n * n)
		checkScores(t, id, nil, 1, []scoreCase{
			{"reference", fixed(a), 1},
			{"trailing spaces and blank lines", fixed("\n" + strings.ReplaceAll(a, "\n", "  \n") + "\n\n"), 1},
			{"commas", fixed(strings.ReplaceAll(a, " ", ", ")), 1},
			{"no spaces", fixed(strings.ReplaceAll(a, " ", "")), 1},
			{"two cells wrong", fixed(string(swapped)), 0.9 * (cells - 2) / cells},
			{"two cells wrong, doubled length", fixed(string(swapped) + strings.Repeat("x", len(a))), 0.9 * (cells - 2) / cells / 2},
			{"not a grid", fixed("no idea"), 0},
			{"empty", fixed(""), 0},
		})
	}
}

func TestSudokuPuzzleUnique(t *testing.T) {
	r := registry(t)
	for seed := range uint64(20) {
		for _, id := range []string{"rg:sudoku", "rg:mini_sudoku"} {
			_, e := rgtest.Reset(t, r, id, nil, seed)
			p := e.Item().Meta["puzzle"].(string)
			box := 3
			if id == "rg:mini_sudoku" {
				box = 2
			}
			s := newSudoku(box)
			i := 0
			for _, f := range strings.Fields(p) {
				if f != "_" {
					s.cells[i] = int(f[0] - '0')
				}
				i++
			}
			nodes := 1 << 22
			if got := s.count(2, &nodes); got != 1 {
				t.Fatalf("%s seed %d: %d solutions", id, seed, got)
			}
			if id == "rg:sudoku" && (e.Item().Meta["num_empty"].(int) < 30 || e.Item().Meta["num_empty"].(int) > 50) {
				t.Fatalf("%s seed %d: %v empty", id, seed, e.Item().Meta["num_empty"])
			}
		}
	}
}

func TestSudokuOptions(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, "rg:sudoku", []envtest.OptionCase{
		{Options: map[string]any{"max_empty": 65}, Option: "max_empty"},
		{Options: map[string]any{"min_empty": 40, "max_empty": 35}, Option: "max_empty"},
	})
	envtest.OptionErrors(t, r, "rg:mini_sudoku", []envtest.OptionCase{
		{Options: map[string]any{"max_empty": 13}, Option: "max_empty"},
		{Options: map[string]any{"min_empty": -1}, Option: "min_empty"},
		{Options: map[string]any{"min_empty": 10, "max_empty": 9}, Option: "max_empty"},
	})
}

func TestMahjongScore(t *testing.T) {
	it := checkScores(t, "rg:mahjong_puzzle", nil, 2, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"lower case", ref(strings.ToLower), 1},
		{"quoted", ref(func(a string) string { return `"` + strings.ToUpper(a) + `"` }), 1},
	})
	wrong := "Pass"
	if it.Answer == "Pass" {
		wrong = "Chi"
	}
	checkScores(t, "rg:mahjong_puzzle", nil, 2, []scoreCase{
		{"wrong", fixed(wrong), 0},
		{"in a sentence: len(ref)/len(answer)", fixed("It is " + it.Answer), float64(len(it.Answer)) / float64(len(it.Answer)+6)},
	})
}

func TestMahjongRules(t *testing.T) {
	idx := func(s string) []int {
		out := make([]int, len(s))
		for i, c := range s {
			out[i] = int(c - 'A')
		}
		return out
	}
	for _, c := range []struct {
		hand string
		card byte
		want string
	}{
		{"AABXYZ", 'A', "Peng"},
		{"ABB", 'C', "Chi"}, // reasoning-gym's sorted-window test misses this one
		{"BD", 'C', "Chi"},
		{"DE", 'C', "Chi"},
		{"AC", 'E', "Pass"},
		{"YZ", 'A', "Pass"},
		{"BBCD", 'B', "Peng"}, // Peng before Chi
	} {
		if got := mahjongResult(idx(c.hand), int(c.card-'A')); got != c.want {
			t.Errorf("hand %s + %c = %s, want %s", c.hand, c.card, got, c.want)
		}
	}
	envtest.OptionErrors(t, registry(t), "rg:mahjong_puzzle", []envtest.OptionCase{
		{Options: map[string]any{"min_num_rounds": 0}, Option: "min_num_rounds"},
		{Options: map[string]any{"min_num_rounds": 20, "max_num_rounds": 10}, Option: "max_num_rounds"},
		{Options: map[string]any{"max_num_rounds": 1001}, Option: "max_num_rounds"},
	})
}

func itoa(i int) string { return strconv.Itoa(i) }

func atoi(s string) int { i, _ := strconv.Atoi(s); return i }
