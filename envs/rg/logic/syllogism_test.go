package logic

import (
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
