package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestSokobanReplay(t *testing.T) {
	// One box left of its goal, the player behind it:
	//   + + + + + +
	//   + * @ - X +
	//   + - - - - +
	//   + + + + + +
	b := &sokoban{w: 6, h: 4, cells: []byte("+++++++*@-X++----+++++++")}
	if !strings.Contains(b.String(), "+ * @ - X +  \n") || !strings.HasSuffix(b.String(), "  \n\n") {
		t.Fatalf("board:\n%s", b)
	}
	for _, c := range []struct {
		answer string
		left   int
	}{
		{"RR", 0},
		{"rr", 0},   // lower case: reasoning-gym skips it, Quarry reads it
		{"R, R", 0}, // other characters are skipped
		{"RRR", 0},  // the box stops at the wall
		{"RRL", 0},  // walking away leaves it on the goal
		{"LURR", 0}, // moves into walls do nothing
		{"R", 1},
		{"DRRUR", 1}, // round the box: never pushes it
		{"", 1},
	} {
		if left, total := replaySokoban(b, c.answer); left != c.left || total != 1 {
			t.Errorf("%q leaves %d of %d boxes off a goal, want %d of 1", c.answer, left, total, c.left)
		}
	}
	if string(b.cells) != "+++++++*@-X++----+++++++" {
		t.Fatal("replay changed the puzzle")
	}
}

func TestSokobanScore(t *testing.T) {
	r := registry(t)
	for seed := range uint64(20) {
		_, e := rgtest.Reset(t, r, "rg:sokoban", nil, seed)
		it := e.Item()
		a := it.Answer
		s := it.Data.(*sokoban)
		if strings.Count(string(s.cells), "@") < 1 || len(a) > 80 {
			t.Fatalf("seed %d: %d boxes off a goal, a %d move answer", seed, strings.Count(string(s.cells), "@"), len(a))
		}
		for _, c := range []struct {
			name   string
			answer string
			want   float64
		}{
			{"reference", a, 1},
			{"lower case", strings.ToLower(a), 1},
			{"spaced", strings.Join(strings.Split(a, ""), " "), 1},
			{"one move short", a[:len(a)-1], 0},
			{"prose", "push the boxes", 0},
		} {
			if got := e.Score(c.answer); got != c.want {
				t.Errorf("seed %d %s: Score(%q) = %v, want %v", seed, c.name, c.answer, got, c.want)
			}
		}
	}
}

func TestSokobanWalkSolves(t *testing.T) {
	// The reverse game's walk, undone, is a solution: the fallback answer.
	for seed := range uint64(50) {
		s, path := sokobanWalk(envs.NewRand(seed), 9, 7, 5)
		if strings.Count(string(s.cells), "@") == 0 {
			continue
		}
		if left, _ := replaySokoban(s, path); left != 0 {
			t.Fatalf("seed %d: the undone walk leaves %d boxes off\n%s%s", seed, left, s, path)
		}
	}
	// max_depth 2 rejects almost every board: the fallback answers.
	_, e := rgtest.Reset(t, registry(t), "rg:sokoban", map[string]any{"max_depth": 2}, 1)
	if e.Score(e.Item().Answer) != 1 {
		t.Fatal("fallback answer does not solve")
	}
}

func TestSokobanOptions(t *testing.T) {
	envtest.OptionErrors(t, registry(t), "rg:sokoban", []envtest.OptionCase{
		{Options: map[string]any{"min_w": 4}, Option: "min_w"},
		{Options: map[string]any{"max_h": 21}, Option: "max_h"},
		{Options: map[string]any{"max_depth": 1}, Option: "max_depth"},
		{Options: map[string]any{"min_w": 9, "max_w": 8}, Option: "max_w"},
		{Options: map[string]any{"min_h": 9, "max_h": 8}, Option: "max_h"},
		{Options: map[string]any{"min_boxes": 5, "max_boxes": 4}, Option: "max_boxes"},
		{Options: map[string]any{"min_w": 5, "min_h": 5, "max_boxes": 8}, Option: "max_boxes"},
	})
}
