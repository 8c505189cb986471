package logic

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
)

func TestCircuitScore(t *testing.T) {
	checkScores(t, scoreBit, &rg.Item{Answer: "1"}, []scoreCase{
		{"1", 1}, {"1.", 1}, {"**1**", 1}, {"1.0", 1}, {"true", 1}, {"True", 1},
		{"0", 0}, {"false", 0}, {"", 0}, {"10", 0}, {"the output is 1", 0},
	})
	checkScores(t, scoreBit, &rg.Item{Answer: "0"}, []scoreCase{{"0", 1}, {"False", 1}, {"1", 0}})
}

// TestCircuitMatchesReasoningGym draws circuits reasoning-gym 0.1.23
// generated (testdata/circuit_logic.json: its question, answer, terms,
// gates and assignments for eight configurations) and compares the whole
// question byte for byte.
func TestCircuitMatchesReasoningGym(t *testing.T) {
	raw, err := os.ReadFile("testdata/circuit_logic.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		NegProb     float64        `json:"neg_prob"`
		Question    string         `json:"question"`
		Answer      string         `json:"answer"`
		Terms       []string       `json:"terms"`
		Ops         []string       `json:"ops"`
		Final       string         `json:"final"`
		Assignments map[string]int `json:"assignments"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	gateNamed := func(gates []gate, name string) gate {
		for _, g := range gates {
			if g.name == name {
				return g
			}
		}
		t.Fatalf("no gate %s", name)
		return gate{}
	}
	for i, c := range cases {
		var terms []term
		y := 0
		for j, s := range c.Terms {
			g := gateNamed(termGates, c.Ops[j])
			var lits []literal
			for _, p := range strings.Split(s, g.sym) {
				lits = append(lits, literal{name: strings.TrimSuffix(p, "'"), y: y, neg: strings.HasSuffix(p, "'")})
				y++
			}
			y++
			terms = append(terms, term{gate: g, inputs: lits})
		}
		it := circuitItem(terms, gateNamed(finalGates, c.Final), c.Assignments, c.NegProb)
		if it.Question != c.Question {
			t.Errorf("case %d: question differs:\n%s\nreasoning-gym:\n%s", i, it.Question, c.Question)
		}
		if it.Answer != c.Answer {
			t.Errorf("case %d: answer %s, reasoning-gym %s", i, it.Answer, c.Answer)
		}
	}
}
