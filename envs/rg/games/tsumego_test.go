package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestTsumegoScore(t *testing.T) {
	// Two white groups in atari on a 5 × 5 board: three stones whose last
	// liberty is B2, one stone whose last liberty is D1.
	rows := []string{
		".XX..",
		"XOOX.",
		"XOX..",
		"....X",
		"....O",
	}
	b := &goBoard{n: 5, cells: []byte(strings.Join(rows, "")), ko: -1}
	if want := "   A B C D E\n 5 . X X . .\n 4 X O O X .\n 3 X O X . .\n 2 . . . . X\n 1 . . . . O"; b.String() != want {
		t.Fatalf("board:\n%s", b)
	}
	it := &rg.Item{Answer: "B2", Data: &tsumegoItem{board: b, take: 3}}
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{"B2", 1},
		{"b2", 1},
		{" B 2 ", 1},
		{"The key move is B2", 2.0 / 18},
		{"D1", 0.05}, // captures one stone, fewer than the key move
		{"E4", 0.05}, // captures nothing
		{"B4", 0.05}, // occupied
		{"Z9", 0.05}, // off the board, but letter-number
		{"pass", 0.01},
		{"", 0},
	} {
		if got := scoreTsumego(c.answer, it); got != c.want {
			t.Errorf("Score(%q) = %v, want %v", c.answer, got, c.want)
		}
	}
	// Another move taking as many stones scores 1 too.
	it.Data.(*tsumegoItem).take = 1
	if got := scoreTsumego("D1", it); got != 1 {
		t.Errorf("D1 taking as many as the key move scores %v", got)
	}

	r := registry(t)
	for seed := range uint64(40) {
		_, e := rgtest.Reset(t, r, "rg:tsumego", nil, seed)
		ti := e.Item().Data.(*tsumegoItem)
		p, ok := ti.board.point(e.Item().Answer)
		if !ok {
			t.Fatalf("seed %d: answer %q is not a point", seed, e.Item().Answer)
		}
		if n, legal := ti.board.captures(p); !legal || n < 3 {
			t.Fatalf("seed %d: key move %s captures %d (legal %v)", seed, e.Item().Answer, n, legal)
		}
		if !strings.Contains(e.Item().Question, ti.board.String()) {
			t.Fatalf("seed %d: the board is not in the question", seed)
		}
	}
}

func TestGoRules(t *testing.T) {
	// Suicide is illegal; a capture that leaves the stone one liberty is not
	// suicide; a single-stone capture sets the ko point.
	b := &goBoard{n: 5, ko: -1, cells: []byte(strings.Join([]string{
		".O...",
		"O.O..",
		".O...",
		".....",
		".....",
	}, ""))}
	if _, ok := b.clone().play(6, 'X'); ok {
		t.Fatal("suicide at B4 allowed")
	}
	k := &goBoard{n: 5, ko: -1, cells: []byte(strings.Join([]string{
		".XO..",
		"XO.O.",
		".XO..",
		".....",
		".....",
	}, ""))}
	n, ok := k.play(7, 'X')
	if !ok || n != 1 || k.ko != 6 {
		t.Fatalf("ko capture: captured %d ok %v ko %d", n, ok, k.ko)
	}
	if _, ok := k.play(6, 'O'); ok {
		t.Fatal("immediate ko recapture allowed")
	}
}

func TestTsumegoOptions(t *testing.T) {
	envtest.OptionErrors(t, registry(t), "rg:tsumego", []envtest.OptionCase{
		{Options: map[string]any{"min_board_size": 4}, Option: "min_board_size"},
		{Options: map[string]any{"max_board_size": 20}, Option: "max_board_size"},
		{Options: map[string]any{"min_board_size": 12, "max_board_size": 11}, Option: "max_board_size"},
		{Options: map[string]any{"max_stones": 4}, Option: "max_stones"},
		{Options: map[string]any{"min_board_size": 5, "max_stones": 13}, Option: "max_stones"},
	})
}
