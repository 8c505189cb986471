package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestRushHourData(t *testing.T) {
	ps := rushPuzzles()
	if len(ps) != 18068 {
		t.Fatalf("%d puzzles, want 18068", len(ps))
	}
	// The solver's fewest moves agree with the data's, on puzzles across
	// the range (every 97th, and the hardest).
	for i := 0; i < len(ps); i += 97 {
		checkRushPuzzle(t, ps[i])
	}
	checkRushPuzzle(t, ps[len(ps)-1])
}

func checkRushPuzzle(t *testing.T, p rushPuzzle) {
	t.Helper()
	b, err := parseRush(p.board)
	if err != nil {
		t.Fatal(err)
	}
	path := solveRush(b)
	if len(path) != p.moves {
		t.Fatalf("%s: solved in %d moves, the data says %d", p.board, len(path), p.moves)
	}
	if !replayRush(b, strings.Join(path, " ")).solved() {
		t.Fatalf("%s: %v does not solve it", p.board, path)
	}
}

func TestRushHourScore(t *testing.T) {
	// Two moves: B down out of the way, then A to the exit.
	//   ....B.
	//   ....B.
	//   AA..B.
	b, err := parseRush("ooooBoooooBoAAooBooooooooooooooooooo")
	if err != nil {
		t.Fatal(err)
	}
	if want := "....B.\n....B.\nAA..B.\n......\n......\n......\n"; b.String() != want {
		t.Fatalf("board:\n%s", b)
	}
	score := func(a string) float64 {
		switch {
		case a == "":
			return 0
		case replayRush(b, a).solved():
			return 1
		}
		return 0.01
	}
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{"B+3 A+4", 1},
		{"B+4 A+4", 1},         // B stops at the bottom edge
		{"b+3 a+4", 1},         // lower case
		{"B + 3, A + 4", 1},    // spaces and commas
		{"B+5 A+9", 1},         // slides stop at the edge
		{"B+1 B+2 A+1 A+3", 1}, // in more moves
		{"A+4 B+3", 0.01},      // A is blocked, then B moves
		{"B+3 A+3", 0.01},      // one short
		{"B+3 A+4 A-1", 0.01},  // past the exit and back
		{"C+1 A+4", 0.01},      // no vehicle C: skipped
		{"x+1", 0.01},
		{"", 0},
	} {
		if got := score(c.answer); got != c.want {
			t.Errorf("%q scores %v, want %v", c.answer, got, c.want)
		}
	}
	_, e := rgtest.Reset(t, registry(t), "rg:rush_hour", map[string]any{"min_moves": 10, "max_moves": 10}, 3)
	a := e.Item().Answer
	if n := len(strings.Fields(a)); n != 10 || e.Item().Meta["min_moves"] != 10 {
		t.Fatalf("a 10-move puzzle answered in %d moves: %s", n, a)
	}
	if got := e.Score(strings.ToLower(a)); got != 1 {
		t.Fatalf("lower-case reference scores %v", got)
	}
	if got := e.Score(a[:strings.LastIndex(a, " ")]); got != 0.01 {
		t.Fatalf("reference less its last move scores %v", got)
	}
}

func TestRushHourOptions(t *testing.T) {
	envtest.OptionErrors(t, registry(t), "rg:rush_hour", []envtest.OptionCase{
		{Options: map[string]any{"min_moves": 0}, Option: "min_moves"},
		{Options: map[string]any{"min_moves": 61, "max_moves": 70}, Option: "min_moves"},
		{Options: map[string]any{"min_moves": 20, "max_moves": 10}, Option: "max_moves"},
		{Options: map[string]any{"min_moves": 56, "max_moves": 57}, Option: "min_moves"},
		{Options: map[string]any{"max_moves": 101}, Option: "max_moves"},
	})
}
