package rggames

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// knightSequences lists up to limit legal move sequences of length n from
// p's start that end with the knights swapped.
func knightSequences(p *knightPuzzle, n, limit int) [][]knightMv {
	var out [][]knightMv
	var seq []knightMv
	var walk func(w, b uint16, blackTurn bool)
	walk = func(w, b uint16, blackTurn bool) {
		if len(out) >= limit {
			return
		}
		if len(seq) == n {
			if w == p.black && b == p.white {
				out = append(out, append([]knightMv(nil), seq...))
			}
			return
		}
		own, color := w, byte('w')
		if blackTurn {
			own, color = b, 'B'
		}
		for m := own; m != 0; m &= m - 1 {
			from := bits.TrailingZeros16(m)
			for t := p.adj(from) &^ (w | b); t != 0; t &= t - 1 {
				to := bits.TrailingZeros16(t)
				seq = append(seq, knightMv{color: color, from: from, to: to})
				if blackTurn {
					walk(w, b&^(1<<from)|1<<to, false)
				} else {
					walk(w&^(1<<from)|1<<to, b, true)
				}
				seq = seq[:len(seq)-1]
			}
		}
	}
	walk(p.white, p.black, p.blackFirst)
	return out
}

func movesList(ms []knightMv) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = `"` + m.String() + `"`
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func TestKnightSwapScore(t *testing.T) {
	r := registry(t)
	var possible, impossible bool
	for seed := uint64(0); seed < 200 && !(possible && impossible); seed++ {
		_, e := rgtest.Reset(t, r, "rg:knight_swap", nil, seed)
		it := e.Item()
		p := it.Data.(*knightPuzzle)
		if p.optimal == 0 {
			if impossible {
				continue
			}
			impossible = true
			// Impossible on the board as shown: no sequence of up to 14
			// moves swaps the knights.
			for n := 1; n <= 14; n++ {
				if len(knightSequences(p, n, 1)) > 0 {
					t.Fatalf("seed %d: the answer is No but %d moves swap the knights\n%s", seed, n, it.Question)
				}
			}
			checkScores(t, "rg:knight_swap", nil, seed, []scoreCase{
				{"No", fixed("No"), 1}, {"no.", fixed("no."), 1}, {`"NO"`, fixed(`"NO"`), 1},
				{"yes", fixed("Yes"), 0}, {"moves", fixed(`["w,A1,B3"]`), 0},
			})
			continue
		}
		if possible || p.optimal > 6 {
			continue
		}
		possible = true
		a := it.Answer
		first := strings.SplitN(strings.Trim(a, "[]"), ", ", 2)[0]
		var longer [][]knightMv
		extra := 1
		for ; extra <= 4 && len(longer) == 0; extra++ {
			longer = knightSequences(p, p.optimal+extra, 1)
		}
		extra--
		checkScores(t, "rg:knight_swap", nil, seed, []scoreCase{
			{"reference", fixed(a), 1},
			{"single quotes, lowercase", fixed(strings.ToLower(strings.ReplaceAll(a, `"`, "'"))), 1},
			{"unquoted, spaced", fixed(strings.ReplaceAll(strings.ReplaceAll(a, `"`, ""), ",", " , ")), 1},
			{"No", fixed("No"), 0},
			{"first move only", fixed("[" + first + "]"), 0.05},
			{"first move twice", fixed("[" + first + ", " + first + "]"), 0},
			{"prose", fixed("I would move the knights"), 0},
		})
		if len(longer) == 0 {
			t.Fatalf("seed %d: no swap in %d to %d moves", seed, p.optimal+1, p.optimal+4)
		}
		if got, want := e.Score(movesList(longer[0])), float64(p.optimal)/float64(p.optimal+extra); math.Abs(got-want) > 1e-9 {
			t.Errorf("seed %d: a swap %d moves longer scores %v, want %v", seed, extra, got, want)
		}
		// Every optimal sequence scores 1, not only the reference.
		for _, s := range knightSequences(p, p.optimal, 50) {
			if got := e.Score(movesList(s)); got != 1 {
				t.Errorf("seed %d: optimal %s scores %v", seed, movesList(s), got)
			}
		}
	}
	if !possible || !impossible {
		t.Fatalf("200 seeds: a possible puzzle of at most 6 moves %v, an impossible one %v", possible, impossible)
	}
}

func TestKnightSwapItems(t *testing.T) {
	r := registry(t)
	impossible := 0
	for seed := range uint64(100) {
		_, e := rgtest.Reset(t, r, "rg:knight_swap", nil, seed)
		it := e.Item()
		p := it.Data.(*knightPuzzle)
		if n := bits.OnesCount16(p.squares); n < 6 || n > 9 || !p.connected() {
			t.Fatalf("seed %d: %d squares, connected %v", seed, n, p.connected())
		}
		if bits.OnesCount16(p.white) != 2 || bits.OnesCount16(p.black) != 2 || p.white&p.black != 0 {
			t.Fatalf("seed %d: knights %b %b", seed, p.white, p.black)
		}
		if p.optimal == 0 {
			impossible++
		} else if p.optimal < 4 || p.optimal > 20 {
			t.Fatalf("seed %d: %d moves", seed, p.optimal)
		}
		if !strings.Contains(it.Question, it.Meta["board"].(string)) {
			t.Fatalf("question %q", it.Question)
		}
	}
	if impossible < 8 || impossible > 35 {
		t.Fatalf("%d of 100 puzzles impossible, want about 20", impossible)
	}
	envtest.OptionErrors(t, r, "rg:knight_swap", []envtest.OptionCase{
		{Options: map[string]any{"min_nodes": 5}, Option: "min_nodes"},
		{Options: map[string]any{"max_nodes": 13}, Option: "max_nodes"},
		{Options: map[string]any{"min_nodes": 10}, Option: "max_nodes"},
		{Options: map[string]any{"min_pieces": 3}, Option: "max_pieces"},
		{Options: map[string]any{"min_pieces": 4, "max_pieces": 4}, Option: "min_pieces"},
		{Options: map[string]any{"min_steps": 30}, Option: "max_steps"},
		{Options: map[string]any{"impossible_ratio": -0.1}, Option: "impossible_ratio"},
		{Options: map[string]any{"max_attempts": 0}, Option: "max_attempts"},
	})
}

func TestKnightSwapBoard(t *testing.T) {
	p := &knightPuzzle{squares: 1<<0 | 1<<2 | 1<<4 | 1<<9 | 1<<11, white: 1 << 0, black: 1 << 11}
	want := "    A   B   D\n" +
		"   ------------\n" +
		"3 | . |   | B |\n" +
		"   ------------\n" +
		"2 |   | . |   |\n" +
		"   ------------\n" +
		"1 | w |   | . |\n" +
		"   ------------"
	if got := p.boardString(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	_ = rg.Item{}
}
