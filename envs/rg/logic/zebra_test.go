package logic

import (
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestZebraScore(t *testing.T) {
	score := Zebra.Score
	checkScores(t, score, &rg.Item{Answer: "arnold"}, []scoreCase{
		{"arnold", 1}, {"Arnold", 1}, {"ARNOLD", 1}, {"Arnold.", 1}, {"**Arnold**", 1}, {"Arn\nold", 1},
		{"Eric", 0}, {"", 0}, {"Arnold and Eric", 0},
	})
}

// holds checks a clue against an assignment, independently of the
// solver's propagation.
func (p *zebraPuzzle) holds(c zclue, house [][]int) bool {
	hx := house[c.x.k][c.x.a]
	switch c.kind {
	case clueFoundAt:
		return hx == c.house
	case clueSameHouse:
		return hx == house[c.y.k][c.y.a]
	case clueConsecutive:
		return house[c.y.k][c.y.a] == hx+1
	}
	d := house[c.y.k][c.y.a] - hx
	return d == 1 || d == -1
}

// bruteSolutions counts, by enumerating every permutation of every kind,
// the assignments satisfying the clues.
func (p *zebraPuzzle) bruteSolutions(clues []zclue) int {
	var perms [][]int
	var permute func(a []int, i int)
	permute = func(a []int, i int) {
		if i == len(a) {
			perms = append(perms, append([]int(nil), a...))
			return
		}
		for j := i; j < len(a); j++ {
			a[i], a[j] = a[j], a[i]
			permute(a, i+1)
			a[i], a[j] = a[j], a[i]
		}
	}
	base := make([]int, p.houses)
	for i := range base {
		base[i] = i
	}
	permute(base, 0)
	house := make([][]int, len(p.kinds))
	n := 0
	var rec func(k int)
	rec = func(k int) {
		if k == len(p.kinds) {
			for _, c := range clues {
				if !p.holds(c, house) {
					return
				}
			}
			n++
			return
		}
		for _, pm := range perms {
			house[k] = pm
			rec(k + 1)
		}
	}
	rec(0)
	return n
}

// TestZebraSolver compares the solver's counts with brute force on small
// puzzles, for the reduced clue sets and for random subsets of all clues.
func TestZebraSolver(t *testing.T) {
	for seed := range uint64(30) {
		rng := envs.NewRand(seed)
		p := newZebraPuzzle(rng, 3, 3)
		all := p.allClues(rng)
		for _, c := range all {
			if !p.holds(c, p.house) {
				t.Fatalf("clue %q is false in the solution", p.text(c))
			}
		}
		for range 5 {
			var sub []zclue
			for _, c := range all {
				if rng.IntN(8) == 0 {
					sub = append(sub, c)
				}
			}
			if got, want := p.solutions(sub, 1000), p.bruteSolutions(sub); got != min(want, 1000) {
				t.Fatalf("seed %d: solver counts %d, brute force %d", seed, got, want)
			}
		}
		reduced := p.reduce(rng, all)
		if n := p.bruteSolutions(reduced); n != 1 {
			t.Fatalf("seed %d: reduced clues allow %d solutions", seed, n)
		}
		// Minimal: every clue is needed.
		for i := range reduced {
			rest := append(append([]zclue(nil), reduced[:i]...), reduced[i+1:]...)
			if p.bruteSolutions(rest) == 1 {
				t.Fatalf("seed %d: clue %q is redundant", seed, p.text(reduced[i]))
			}
		}
	}
}

func TestZebraItems(t *testing.T) {
	it := item(t, Zebra, Zebra.Defaults, 1)
	if !strings.HasPrefix(it.Question, "This is a logic puzzle. There are 4 houses (numbered 1 on the left, 4 on the right)") ||
		!strings.Contains(it.Question, " - Each person has a unique name: ") ||
		!strings.HasSuffix(it.Question, "\nWhat is Name of the person who lives in House 1?? Provide only the name of the person as your final answer.") {
		t.Fatalf("question %q", it.Question)
	}
	// Names are the first four by phrase: Alice, Arnold, Bob, Carol.
	if !strings.Contains("alice arnold bob carol", it.Answer) {
		t.Errorf("answer %q", it.Answer)
	}
	start := time.Now()
	for seed := range uint64(3) {
		item(t, Zebra, ZebraOptions{NumPeople: 7, NumCharacteristics: 7}, seed)
	}
	t.Logf("7×7: %v per item", time.Since(start)/3)
}
