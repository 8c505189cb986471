package algorithmic

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestCryptarithm(t *testing.T) {
	// SEND + MORE = MONEY has one solution; AB + AB = CD many.
	send := rg.Item{Answer: "D=7,E=5,M=1,N=6,O=0,R=8,S=9,Y=2", Data: cryptPuzzle{
		words: []string{"SEND", "MORE", "MONEY"}, letters: []string{"D", "E", "M", "N", "O", "R", "S", "Y"}}}
	numCheck(t, scoreCryptarithm, &send, []numCase{
		{"D=7,E=5,M=1,N=6,O=0,R=8,S=9,Y=2", 1},
		{"S=9, E=5, N=6, D=7, M=1, O=0, R=8, Y=2", 1}, // any order, spaces
		{"d=7;e=5;m=1;n=6;o=0;r=8;s=9;y=2", 1},
		{"D = 7,\nE = 5, M = 1, N = 6, O = 0, R = 8, S = 9, Y = 2", 1},
		{"D=7,E=5,M=1,N=6,O=0,R=8,S=9,Y=3", 0.3 + 0.7*7/8},
		{"D=0,E=0,M=0,N=0,O=0,R=0,S=0,Y=0", 0.3 + 0.7/8},
		{"D=7,E=5,M=1,N=6,O=0,R=8,S=9,S=2", 0.3},
		{"D=7,E=5,M=1,N=6,O=0,R=8,S=9,Y:2", 0.15},
		{"D=7,E=5", 0.1},
		{"", 0.1},
	})
	ab := rg.Item{Answer: "A=1,B=0,C=2", Data: cryptPuzzle{words: []string{"AB", "AB", "CB"}, letters: []string{"A", "B", "C"}}}
	// 20+20 = 40 is another solution: reasoning-gym's comparison gives it 0.3 + 0.7/3.
	numCheck(t, scoreCryptarithm, &ab, []numCase{{"A=1,B=0,C=2", 1}, {"A=2,B=0,C=4", 1}, {"A=1,B=2,C=4", 0.3 + 0.7/3}, {"A=0,B=0,C=0", 0.3 + 0.7/3}})
	for _, o := range []CryptarithmOptions{cryptarithmTask.Defaults, {MinWords: 10, MaxWords: 10, AllowLeadingZero: true}} {
		for seed := range uint64(50) {
			it := numItem(t, cryptarithmTask, o, seed)
			p := it.Data.(cryptPuzzle)
			m, _ := cryptParse(it.Answer)
			if msg := cryptCheck(p, m); msg != "" {
				t.Fatalf("%v seed %d: reference fails: %s\n%s", o, seed, msg, it.Question)
			}
			if !strings.Contains(it.Question, "\n+ ") || !strings.Contains(it.Question, "satisfies the equation") {
				t.Fatalf("question %q", it.Question)
			}
			if o.AllowLeadingZero != strings.Contains(it.Question, "Leading letters may be zero.") {
				t.Fatalf("rule in %q", it.Question)
			}
		}
	}
	if fb := cryptarithmTask.Feedback("D=7,E=5,M=1,N=6,O=0,R=8,S=9,Y=3", &send, 0); fb != "With your digits the addition does not hold." {
		t.Fatalf("feedback %q", fb)
	}
	envtest.OptionErrors(t, numRegistry(t), "rg:cryptarithm", []envtest.OptionCase{
		{Options: map[string]any{"min_words": 1}, Option: "min_words"},
		{Options: map[string]any{"min_words": 4}, Option: "max_words"},
		{Options: map[string]any{"max_words": 11}, Option: "max_words"},
	})
}
