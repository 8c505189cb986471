package logic

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
)

// propositionalItem builds an item over premises written in reasoning-gym's
// notation.
func propositionalItem(t *testing.T, vars int, premises ...string) *rg.Item {
	t.Helper()
	var fs []*formula
	for _, p := range premises {
		f, ok := parseFormula(p, vars)
		if !ok {
			t.Fatalf("premise %q does not parse", p)
		}
		fs = append(fs, f)
	}
	names := []string{"P", "Q", "R", "S"}[:vars]
	return &rg.Item{Data: &propositionalData{vars: vars, models: models(fs, vars)}, Meta: map[string]any{"variables": names}}
}

func TestPropositionalScore(t *testing.T) {
	it := propositionalItem(t, 3, "(P → Q)", "P", "(R ∨ ¬R)")
	checkScores(t, scorePropositional, it, []scoreCase{
		{"(P ∧ Q)", 1},
		{"P ∧ Q", 1},
		{"Q ∧ P", 1},
		{"(Q∧P)", 1},
		{"P & Q", 1},
		{"P && Q", 1},
		{"P \\land Q", 1},
		{"P \\wedge Q", 1},
		{"\\left(P \\land Q\\right)", 1},
		{"(P ∨ R)", 1},
		{"P | R", 1},
		{"¬P → Q", 1},
		{"~P -> Q", 1},
		{"\\neg P \\to Q", 1},
		{"(Q ↔ P)", 1},
		{"Q <-> P", 1},
		{"P \\iff Q", 1},
		{"¬¬Q ∧ P", 1},
		{"Q", 0.25},        // a bare variable is trivial
		{"(R ∨ ¬R)", 0.25}, // a tautology
		{"R | ~R", 0.25},   // the same, in ASCII
		{"R", 0.05},        // does not follow
		{"(P ∧ ¬Q)", 0.05}, // contradicts the premises
		{"P ∧ R", 0.05},    //
		{"(P ∧ T)", 0},     // T is not a variable
		{"(P ∧ Q", 0},      // unbalanced
		{"P Q", 0},         // no connective
		{"", 0},            //
		{"P and Q", 0},     // words are not connectives
		{"Q ∧ ∧ P", 0},     //
		{"((P)) ∧ [Q]", 1}, // any brackets
		{"P → Q → Q", 1},   // (P → Q) → Q, as reasoning-gym groups it
		{"Q ∨ P ∧ ¬P", 1},  // ∧ binds tighter: Q ∨ (P ∧ ¬P)
		{"(Q ∨ P) ∧ ¬P", 0.05},
	})
}

// TestPropositionalParse: the parser reads what String writes, with
// reasoning-gym's binding.
func TestPropositionalParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"P ∧ Q ∨ R", "((P ∧ Q) ∨ R)"},
		{"P ∨ Q ∧ R", "(P ∨ (Q ∧ R))"},
		{"P → Q ↔ R", "((P → Q) ↔ R)"},
		{"¬P ∧ Q", "(¬P ∧ Q)"},
		{"¬(P ∧ Q)", "¬(P ∧ Q)"},
		{"P ∧ Q ∧ R", "((P ∧ Q) ∧ R)"},
		{"P → Q → R", "((P → Q) → R)"},
	} {
		f, ok := parseFormula(c.in, 3)
		if !ok || f.String() != c.want {
			t.Errorf("parse %q = %v, want %s", c.in, f, c.want)
		}
	}
}

func TestPropositionalItems(t *testing.T) {
	o := PropositionalLogic.Defaults
	for seed := range uint64(200) {
		it := item(t, PropositionalLogic, o, seed)
		premises := it.Meta["premises"].([]string)
		// The layout: numbered premises each followed by "\n.".
		var want strings.Builder
		for i, p := range premises {
			want.WriteString(string(rune('1'+i)) + ". " + p + "\n.")
		}
		if !strings.HasPrefix(it.Question, propositionalPreamble+"Given:\n") || !strings.Contains(it.Question, want.String()+"What can we conclude") {
			t.Fatalf("question %q", it.Question)
		}
		// Re-check the answer by brute force over the premises as written.
		vars := len(it.Meta["variables"].([]string))
		var fs []*formula
		for _, p := range premises {
			f, ok := parseFormula(p, vars)
			if !ok || f.String() != p {
				t.Fatalf("premise %q does not round-trip", p)
			}
			fs = append(fs, f)
		}
		c, _ := parseFormula(it.Answer, vars)
		for a := range uint(1) << vars {
			all := true
			for _, f := range fs {
				all = all && f.eval(a)
			}
			if all && !c.eval(a) {
				t.Fatalf("seed %d: %s does not follow from %v", seed, it.Answer, premises)
			}
		}
		if trivial(c, vars) {
			t.Fatalf("seed %d: trivial answer %s", seed, it.Answer)
		}
	}
}

func TestPropositionalFeedback(t *testing.T) {
	it := propositionalItem(t, 2, "(P ∧ Q)")
	for answer, want := range map[string]string{"P ∨": "not a well-formed", "¬P": "does not follow", "P": "trivial"} {
		if got := propositionalFeedback(answer, it, 0); !strings.Contains(got, want) {
			t.Errorf("feedback for %q: %q", answer, got)
		}
	}
}

// TestPropositionalMatchesReasoningGym scores answers as reasoning-gym
// 0.1.23's score_answer did (testdata/propositional_logic.json: 60 of its
// items, each with its example answer, random formulas in its notation
// with outer parentheses or spaces dropped, tautologies, contradictions,
// unparenthesised chains and a foreign letter).
func TestPropositionalMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/propositional_logic.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Premises  []string `json:"premises"`
		Variables []string `json:"variables"`
		Answers   []struct {
			Answer string  `json:"answer"`
			Score  float64 `json:"score"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		vars := len(c.Variables)
		var fs []*formula
		for _, p := range c.Premises {
			f, ok := parseFormula(p, vars)
			if !ok {
				t.Fatalf("premise %q does not parse", p)
			}
			fs = append(fs, f)
		}
		it := &rg.Item{Data: &propositionalData{vars: vars, models: models(fs, vars)}}
		for _, a := range c.Answers {
			if got := scorePropositional(a.Answer, it); got != a.Score {
				t.Errorf("premises %v: %q scores %v, reasoning-gym %v", c.Premises, a.Answer, got, a.Score)
			}
			n++
		}
	}
	if n != 720 {
		t.Fatalf("%d answers", n)
	}
}
