package logic

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
)

func TestSelfReferenceScore(t *testing.T) {
	checkScores(t, scoreInteger, &rg.Item{Answer: "2"}, []scoreCase{
		{"2", 1}, {"2.0", 1}, {"+2", 1}, {"1", 0}, {"0", 0}, {"", 0}, {"two", 0},
	})
}

// TestSelfReferenceSolutions checks a puzzle solved by hand: "at least 4
// true", "at most 3 false", "exactly 4 true", "exactly 3 false". Unless
// T = 4, statements 3–5 are false and 1 and 2 agree with T ≥ 4, so
// T = 2·[T≥4] + prime(T) + composite(7−T): T = 0 (all false) and T = 1
// (only statement 7: 6 false is composite) hold; T = 4 (statements 1–4)
// holds too. Three solutions.
func TestSelfReferenceSolutions(t *testing.T) {
	p := selfRefPuzzle{a: 4, b: 3, c: 4, d: 3}
	if got := p.solutions(); got != 3 {
		t.Errorf("solutions %d, want 3", got)
	}
	for _, sol := range [][7]bool{
		{},
		{false, false, false, false, false, false, true},
		{true, true, true, true, false, false, false},
	} {
		if !p.consistent(sol) {
			t.Errorf("%v rejected", sol)
		}
	}
	if p.consistent([7]bool{true, true, true, true, false, true, false}) {
		t.Error("an inconsistent assignment accepted")
	}
	counts := map[string]int{}
	for seed := range uint64(300) {
		counts[item(t, SelfReference, SelfReference.Defaults, seed).Answer]++
	}
	if len(counts) < 2 {
		t.Errorf("answers drawn: %v", counts)
	}
}

// TestSelfReferenceMatchesReasoningGym compares the solution counts with
// reasoning-gym 0.1.23's solve_puzzle_dynamic for every a, b, c, d in 0–7
// (testdata/selfref_counts.txt: one digit per puzzle, d varying fastest).
func TestSelfReferenceMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/selfref_counts.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(raw))
	if len(want) != 4096 {
		t.Fatalf("%d counts", len(want))
	}
	i := 0
	for a := range 8 {
		for b := range 8 {
			for c := range 8 {
				for d := range 8 {
					p := selfRefPuzzle{a, b, c, d}
					if got := p.solutions(); strconv.Itoa(got) != want[i:i+1] {
						t.Errorf("%+v: %d solutions, reasoning-gym %s", p, got, want[i:i+1])
					}
					i++
				}
			}
		}
	}
}
