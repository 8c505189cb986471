package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestHanoiScore(t *testing.T) {
	opts := map[string]any{"min_disks": 4, "max_disks": 4, "min_pegs": 4, "max_pegs": 4}
	_, e := rgtest.Reset(t, registry(t), "rg:tower_of_hanoi", opts, 0)
	p := e.Item().Data.(*hanoiPuzzle)
	// The same algorithm with the spare pegs taken in the other order: a
	// different solution of the same length.
	h := &hanoiSolver{pegs: map[int][]int{}, memo: map[[2]int]int{}}
	for d := p.disks; d >= 1; d-- {
		h.pegs[p.start] = append(h.pegs[p.start], d)
	}
	var aux []int
	for q := p.pegs; q >= 1; q-- {
		if q != p.start && q != p.target {
			aux = append(aux, q)
		}
	}
	h.move(p.disks, p.start, p.target, aux)
	other := strings.Join(h.moves, "\n")
	if other == e.Item().Answer || len(h.moves) != p.optimal {
		t.Fatalf("the other solution is the reference or not optimal:\n%s", other)
	}
	first := strings.SplitN(e.Item().Answer, "\n", 2)[0]
	// Moving the top disk away and back first: legal, two moves longer.
	back := hanoiMove.FindStringSubmatch(first)
	undo := "Move disk " + back[1] + " from Peg " + back[3] + " to Peg " + back[2]
	longer := first + "\n" + undo + "\n" + e.Item().Answer
	checkScores(t, "rg:tower_of_hanoi", opts, 0, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"another optimal solution", fixed(other), 1},
		{"numbered, lower case, full stops", ref(func(a string) string {
			ls := strings.Split(strings.ToLower(a), "\n")
			for i := range ls {
				ls[i] = "  " + string(rune('1'+i%9)) + ". " + ls[i] + "."
			}
			return strings.Join(ls, "\n")
		}), 1},
		{"blank lines", ref(func(a string) string { return strings.ReplaceAll(a, "\n", "\n\n") }), 1},
		{"two moves longer: optimal/len", fixed(longer), float64(p.optimal) / float64(p.optimal+2)},
		{"legal but unfinished: 0.05", fixed(first), 0.05},
		{"illegal move", fixed(undo), 0},
		{"prose", fixed("I would move the disks"), 0},
	})
	envtest.OptionErrors(t, registry(t), "rg:tower_of_hanoi", []envtest.OptionCase{
		{Options: map[string]any{"min_disks": 0}, Option: "min_disks"},
		{Options: map[string]any{"max_disks": 13}, Option: "max_disks"},
		{Options: map[string]any{"min_pegs": 2}, Option: "min_pegs"},
		{Options: map[string]any{"min_disks": 5, "max_disks": 4}, Option: "max_disks"},
		{Options: map[string]any{"min_pegs": 5}, Option: "max_pegs"},
	})
}

func TestHanoiFrameStewart(t *testing.T) {
	// Known Frame-Stewart numbers: 4 pegs 1..8 disks.
	want := []int{1, 3, 5, 9, 13, 17, 25, 33}
	h := &hanoiSolver{memo: map[[2]int]int{}}
	for n, w := range want {
		if got := h.cost(n+1, 4); got != w {
			t.Errorf("T(%d, 4) = %d, want %d", n+1, got, w)
		}
	}
}

func TestMaze(t *testing.T) {
	_, e := rgtest.Reset(t, registry(t), "rg:maze", nil, 4)
	a := e.Item().Answer
	checkScores(t, "rg:maze", nil, 4, []scoreCase{
		{"reference", fixed(a), 1},
		{"decimal", fixed(a + ".0"), 1},
		{"words: len(ref)/len(answer)", fixed(a + " steps"), float64(len(a)) / float64(len(a)+6)},
		{"one more", fixed(itoa(1 + atoi(a))), 0},
	})
	// Serpentine fallback: distances only a winding path reaches.
	r := registry(t)
	for seed := range uint64(5) {
		_, e := rgtest.Reset(t, r, "rg:maze", map[string]any{"min_dist": 30, "max_dist": 30, "min_grid_size": 10, "max_grid_size": 10}, seed)
		if e.Item().Answer != "30" {
			t.Fatalf("seed %d: answer %s", seed, e.Item().Answer)
		}
		checkMazeDistance(t, e.Item())
	}
	for seed := range uint64(30) {
		_, e := rgtest.Reset(t, r, "rg:maze", nil, seed)
		checkMazeDistance(t, e.Item())
	}
	envtest.OptionErrors(t, r, "rg:maze", []envtest.OptionCase{
		{Options: map[string]any{"min_grid_size": 3}, Option: "min_grid_size"},
		{Options: map[string]any{"min_dist": 0}, Option: "min_dist"},
		{Options: map[string]any{"min_dist": 9, "max_dist": 8}, Option: "max_dist"},
		{Options: map[string]any{"min_grid_size": 9, "max_grid_size": 8}, Option: "max_grid_size"},
		{Options: map[string]any{"min_dist": 11, "max_dist": 20, "min_grid_size": 5, "max_grid_size": 5}, Option: "min_dist"},
	})
}

// checkMazeDistance solves the question's maze again from its text.
func checkMazeDistance(t *testing.T, it rg.Item) {
	t.Helper()
	q := it.Question
	start, goal := q[len("Navigate from '")], q[strings.Index(q, "' (start) to '")+len("' (start) to '")]
	wall := q[strings.Index(q, "Legend: '")+len("Legend: '")]
	body := q[strings.Index(q, "```\n")+4 : strings.LastIndex(q, "\n```")]
	var grid [][]byte
	var s, g [2]int
	for r, row := range strings.Split(body, "\n") {
		grid = append(grid, []byte(row))
		if c := strings.IndexByte(row, start); c >= 0 {
			s = [2]int{r, c}
		}
		if c := strings.IndexByte(row, goal); c >= 0 {
			g = [2]int{r, c}
		}
	}
	if d := mazeBFS(grid, s, g, wall); it.Answer != itoa(d) {
		t.Fatalf("maze distance %d, answer %s\n%s", d, it.Answer, body)
	}
}
