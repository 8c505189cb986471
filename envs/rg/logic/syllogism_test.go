package logic

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
)

func TestSyllogismScore(t *testing.T) {
	checkScores(t, scoreYesNo, &rg.Item{Answer: "Yes"}, []scoreCase{
		{"Yes", 1}, {"yes", 1}, {"YES.", 1}, {"**Yes**", 1},
		{"No", 0}, {"no", 0}, {"", 0},
		{"Yes, it follows", 3.0 / 15}, // reasoning-gym's containment credit
	})
	checkScores(t, scoreYesNo, &rg.Item{Answer: "No"}, []scoreCase{{"No", 1}, {"no.", 1}, {"Yes", 0}, {"Nope", 0.5}}) // containment again
}

// TestSyllogismRules checks the validity test on the classical moods: the
// valid forms of the first figure and textbook fallacies.
func TestSyllogismRules(t *testing.T) {
	const s, m, p = 0, 1, 2 // minor, middle, major terms
	cases := []struct {
		p1, p2, c statement
		valid     bool
	}{
		// Premise 1 relates S to M, premise 2 M to P, as the generator does.
		{statement{qAll, s, m}, statement{qAll, m, p}, statement{qAll, s, p}, true},     // Barbara
		{statement{qAll, s, m}, statement{qNo, m, p}, statement{qNo, s, p}, true},       // Celarent
		{statement{qSome, s, m}, statement{qAll, m, p}, statement{qSome, s, p}, true},   // Darii
		{statement{qSome, s, m}, statement{qNo, m, p}, statement{qSomeNot, s, p}, true}, // Ferio
		{statement{qAll, s, m}, statement{qAll, m, p}, statement{qNo, s, p}, false},     // negative conclusion from affirmatives
		{statement{qNo, s, m}, statement{qNo, m, p}, statement{qNo, s, p}, false},       // two negatives
		{statement{qSome, s, m}, statement{qSome, m, p}, statement{qSome, s, p}, false}, // two particulars
		{statement{qSome, s, m}, statement{qAll, m, p}, statement{qAll, s, p}, false},   // universal from a particular
		{statement{qAll, s, m}, statement{qAll, m, p}, statement{qAll, s, m}, false},    // conclusion uses the middle
		{statement{qAll, s, m}, statement{qSomeNot, m, p}, statement{qNo, s, p}, false}, // illicit major
		{statement{qAll, m, s}, statement{qAll, m, p}, statement{qAll, s, p}, false},    // illicit minor (S undistributed)
	}
	for _, c := range cases {
		if got := validSyllogism(c.p1, c.p2, c.c); got != c.valid {
			t.Errorf("%v; %v ⇒ %v: valid %v, want %v", c.p1, c.p2, c.c, got, c.valid)
		}
	}
	if !validInversion(statement{qNo, s, p}, statement{qNo, p, s}) || validInversion(statement{qAll, s, p}, statement{qAll, p, s}) ||
		!validInversion(statement{qAll, s, p}, statement{qSome, p, s}) || validInversion(statement{qSomeNot, s, p}, statement{qSomeNot, p, s}) {
		t.Error("conversion rules")
	}
}

func TestSyllogismItems(t *testing.T) {
	o := Syllogism.Defaults
	kinds := map[string]int{}
	answers := map[string]int{}
	for seed := range uint64(300) {
		it := item(t, Syllogism, o, seed)
		kinds[it.Meta["type"].(string)]++
		answers[it.Answer]++
		if !strings.HasPrefix(it.Question, "Consider these statements:\n1. ") || !strings.HasSuffix(it.Question, "?\n(Answer Yes or No)") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if kinds["inversion"] < 50 || kinds["syllogism"] < 150 || answers["Yes"] < 100 || answers["No"] < 50 {
		t.Errorf("300 items: %v, %v", kinds, answers)
	}
	// Only Some … are not allowed: reasoning-gym would fail on inversions.
	o = SyllogismOptions{AllowSomeNot: true, InversionProbability: 1, InvalidRatio: 0.5}
	for seed := range uint64(50) {
		item(t, Syllogism, o, seed)
	}
}

// TestSyllogismMatchesReasoningGym compares validSyllogism with
// reasoning-gym 0.1.23's _is_valid_syllogism over every pair of premises
// and conclusion on three terms, in any order, with any quantifiers:
// testdata/syllogism_valid.txt lists the combinations it calls valid, one
// per line as "q s p" for each statement (quantifier 0–3 as All, No,
// Some, Some … are not; subject and predicate terms 0–2).
func TestSyllogismMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/syllogism_valid.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		want[l] = true
	}
	var pairs [][2]int
	for i := range 3 {
		for j := range 3 {
			if i != j {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	key := func(s statement) string { return fmt.Sprintf("%d%d%d", s.q, s.subj, s.pred) }
	n := 0
	for _, a := range pairs {
		for _, b := range pairs {
			for _, c := range pairs {
				for q := range 64 {
					p1 := statement{quantifier(q / 16), a[0], a[1]}
					p2 := statement{quantifier(q / 4 % 4), b[0], b[1]}
					con := statement{quantifier(q % 4), c[0], c[1]}
					k := key(p1) + " " + key(p2) + " " + key(con)
					if got := validSyllogism(p1, p2, con); got != want[k] {
						t.Errorf("%s: valid %v, reasoning-gym %v", k, got, want[k])
					}
					n++
				}
			}
		}
	}
	if n != 13824 || len(want) != 384 {
		t.Fatalf("%d cases, %d valid in the table", n, len(want))
	}
}
