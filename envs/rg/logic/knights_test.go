package logic

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestKnightsScore(t *testing.T) {
	it := &rg.Item{Data: &kkData{names: []string{"Emma", "Liam", "Ava"}, roles: []string{"knight", "knave", "knave"}}}
	checkScores(t, scoreKnights, it, []scoreCase{
		{"Emma is a knight, Liam is a knave, and Ava is a knave.", 1},
		{"Liam is a knave, Ava is a knave, Emma is a knight", 1},
		{"emma is a KNIGHT; liam: knave; ava: knave", 1},
		{"Emma is a knight and Liam and Ava are knaves", 1},
		{"Emma is definitely a knight, Liam is a knave, Ava is a knave", 1},
		{"Emma is a knight, Liam is not a knight, Ava is not a knight", 1},
		{"Emma (knight), Liam (knave), Ava (knave)", 1},
		{"Emma is a knight, Liam is a knight, and Ava is a knave.", 0.3 + 0.7*2/3},
		{"Emma is a knave, Liam is a knight, and Ava is a knave.", 0.3 + 0.7/3},
		{"Emma is a knave, Liam is a knight, and Ava is a knight.", 0},
		{"Emma is a knight, Liam is a knave", 0}, // a name missing
		{"Emma is a hero, Liam is a villain, Ava is a villain", 0},
		{"", 0},
		{"knight knave knave", 0},
	})
	heroes := &rg.Item{Data: &kkData{names: []string{"Noah", "Mia"}, roles: []string{"hero", "hero"}}}
	checkScores(t, scoreKnights, heroes, []scoreCase{
		{"Noah is a hero, and Mia is a hero.", 1}, {"Noah and Mia are heroes", 1}, {"Noah's a hero and Mia's a hero", 1},
		{"Noah is not a villain, Mia is a villain", 0.65},
	})
}

// TestKnightsItems checks each puzzle's solution by brute force and the
// wording's frame.
func TestKnightsItems(t *testing.T) {
	for _, o := range []KnightsOptions{KnightsKnaves.Defaults, {NPeople: 4, DepthConstraint: 4, WidthConstraint: 3}, {NPeople: 1, DepthConstraint: 2, WidthConstraint: 2}} {
		for seed := range uint64(100) {
			rng := envs.NewRand(seed)
			it, _ := generateKnights(rng, o)
			if !strings.HasPrefix(it.Question, "A very special island is inhabited only by ") ||
				!strings.Contains(it.Question, " always tell the truth, and ") || !strings.Contains(it.Question, `(Format your answer like: "`) {
				t.Fatalf("question %q", it.Question)
			}
			if got := scoreKnights(it.Answer, &it); got != 1 {
				t.Fatalf("answer %q scores %v", it.Answer, got)
			}
			names := it.Meta["names"].([]string)
			if len(names) != o.NPeople {
				t.Fatalf("%d names", len(names))
			}
		}
	}
}

func TestKnightsSolutions(t *testing.T) {
	k := &kkSampler{rng: envs.NewRand(1), n: 4, depth: 3, width: 3}
	for range 200 {
		statements := make([]*kStatement, 4)
		for i := range statements {
			statements[i] = k.statement(i, 3)
		}
		sols := kkSolutions(statements)
		for _, a := range sols {
			knight := []bool{a&1 == 1, a&2 == 2, a&4 == 4, a&8 == 8}
			for i, s := range statements {
				if s.holds(knight) != knight[i] {
					t.Fatalf("solution %b breaks statement %d", a, i)
				}
			}
		}
	}
	// The fallback's statements have exactly the planted solution.
	for _, knight := range [][]bool{{true}, {false}, {true, false}, {false, false, true, true, false}} {
		sols := kkSolutions(pinned(knight))
		var want uint
		for i, k := range knight {
			if k {
				want |= 1 << i
			}
		}
		if len(sols) != 1 || sols[0] != want {
			t.Errorf("pinned %v: solutions %v", knight, sols)
		}
	}
}

func TestKnightsWording(t *testing.T) {
	names := []string{"Emma", "Liam"}
	pair := kkPairs[0]
	p := func(kind, person int) *kStatement { return &kStatement{kind: kind, person: person} }
	for _, c := range []struct {
		s    *kStatement
		want string
	}{
		{p(kTruth, 1), "Liam is a knight"},
		{&kStatement{kind: kNot, subs: []*kStatement{p(kTruth, 1)}}, "Liam is a knave"},
		{&kStatement{kind: kNot, subs: []*kStatement{{kind: kAnd, subs: []*kStatement{p(kTruth, 0), p(kLie, 1)}}}}, "it is not the case that (Emma is a knight and Liam is a knave)"},
		{&kStatement{kind: kImplies, subs: []*kStatement{p(kLie, 1), {kind: kOr, subs: []*kStatement{p(kTruth, 0), p(kTruth, 1)}}}}, "if Liam is a knave then (Emma is a knight or Liam is a knight)"},
		{&kStatement{kind: kIff, subs: []*kStatement{p(kTruth, 0), p(kLie, 1)}}, "Emma is a knight if and only if Liam is a knave"},
	} {
		if got := kkSay(names, pair, c.s); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestKnightsMatchesReasoningGym scores answers in reasoning-gym's own
// format as its score_answer did (testdata/knights_knaves.json: 80
// puzzles' solutions with reordered, partly flipped, incomplete, inverted
// and upper-cased answers).
func TestKnightsMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/knights_knaves.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Names   []string `json:"names"`
		Roles   []string `json:"roles"`
		Answers []struct {
			Answer string  `json:"answer"`
			Score  float64 `json:"score"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		it := &rg.Item{Data: &kkData{names: c.Names, roles: c.Roles}}
		for _, a := range c.Answers {
			if got := scoreKnights(a.Answer, it); math.Abs(got-a.Score) > 1e-9 {
				t.Errorf("%q scores %v, reasoning-gym %v", a.Answer, got, a.Score)
			}
			n++
		}
	}
	if n != 640 {
		t.Fatalf("%d answers", n)
	}
}

// TestKnightsWordingMatchesReasoningGym words 200 random statements as
// reasoning-gym 0.1.23's _format_statement did
// (testdata/knights_knaves_wording.json: its statement tuples, as JSON
// arrays, and texts for the names Emma, Liam, Ava).
func TestKnightsWordingMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/knights_knaves_wording.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Pair      [2]string `json:"pair"`
		Statement any       `json:"statement"`
		Text      string    `json:"text"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{"telling-truth": kTruth, "lying": kLie, "not": kNot, "and": kAnd, "or": kOr, "->": kImplies, "<=>": kIff}
	var convert func(v any) *kStatement
	convert = func(v any) *kStatement {
		a := v.([]any)
		s := &kStatement{kind: kinds[a[0].(string)]}
		if s.primitive() {
			s.person = int(a[1].(float64))
			return s
		}
		for _, x := range a[1:] {
			s.subs = append(s.subs, convert(x))
		}
		return s
	}
	for _, c := range cases {
		if got := kkSay([]string{"Emma", "Liam", "Ava"}, c.Pair, convert(c.Statement)); got != c.Text {
			t.Errorf("got %q\nreasoning-gym %q", got, c.Text)
		}
	}
	if len(cases) != 200 {
		t.Fatalf("%d cases", len(cases))
	}
}
