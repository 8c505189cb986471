package rggames

import (
	"math/big"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestCountdownScore(t *testing.T) {
	it := &rg.Item{Data: &countdownPuzzle{nums: []int{25, 50, 75, 100, 3, 6}, target: big.NewRat(952, 1)}}
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{"((100 + 6) * 3 * 75 - 50) / 25", 1},
		{"(((100+6)*3*75)-50)/25", 1},
		{"((100 + 6) × 3 × 75 − 50) ÷ 25", 1},
		{`\left((100 + 6) \times 3 \times 75 - 50\right) \div 25`, 1},
		{"[(100 + 6) * 3 * 75 - 50] / 25 = 952", 1},
		{"(100 + 6) * 3 * 75 - 50 / 25", 0.05},       // another value
		{"((100 + 6) * 3 * 75 - 50) / 25 + 0", 0.05}, // a number not given
		{"(100 + 6) * 3 * 75", 0.05},                 // numbers missing
		{"952", 0.05},
		{"100 + 6 +", 0.01},
		{"50 / (25 - 25)", 0.01},
		{"the answer is 952", 0.01},
		{"", 0.01},
	} {
		if got := scoreCountdown(c.answer, it); got != c.want {
			t.Errorf("%q scores %v, want %v", c.answer, got, c.want)
		}
	}
	checkScores(t, "rg:countdown", nil, 3, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"no spaces", ref(func(a string) string { return strings.ReplaceAll(a, " ", "") }), 1},
		{"in parentheses", ref(func(a string) string { return "(" + a + ")" }), 1},
		{"off by one", ref(func(a string) string { return "(" + a + ")*1" }), 0.05},
	})
}

func TestCountdownItems(t *testing.T) {
	r := registry(t)
	for _, o := range []map[string]any{
		nil,
		{"min_numbers": 3, "max_numbers": 3, "min_target": 10, "max_target": 20, "shuffle": false},
		{"operators": []string{"*", "/"}, "min_value": 2, "max_value": 9},
	} {
		for seed := range uint64(50) {
			_, e := rgtest.Reset(t, r, "rg:countdown", o, seed)
			it := e.Item()
			p := it.Data.(*countdownPuzzle)
			got, err := readExpr(it.Answer)
			if err != nil || got.value.Cmp(p.target) != 0 || !sameNumbers(got.nums, p.nums) {
				t.Fatalf("options %v seed %d: reference %q = %v (%v), target %v, numbers %v", o, seed, it.Answer, got.value, err, p.target, p.nums)
			}
			if o == nil {
				if len(p.nums) < 4 || len(p.nums) > 6 || p.target.Cmp(big.NewRat(100, 1)) < 0 || p.target.Cmp(big.NewRat(999, 1)) > 0 {
					t.Fatalf("seed %d: %d numbers, target %v", seed, len(p.nums), p.target)
				}
			}
			if o != nil && o["shuffle"] == false && got.nums[0] != p.nums[0] {
				t.Fatalf("shuffle off: question's numbers %v, expression %q", p.nums, it.Answer)
			}
			if !strings.Contains(it.Question, joinInts(p.nums)) || !strings.Contains(it.Question, p.target.RatString()) {
				t.Fatalf("question %q", it.Question)
			}
		}
	}
	envtest.OptionErrors(t, r, "rg:countdown", []envtest.OptionCase{
		{Options: map[string]any{"min_numbers": 1}, Option: "min_numbers"},
		{Options: map[string]any{"min_numbers": 7}, Option: "max_numbers"},
		{Options: map[string]any{"min_value": 0}, Option: "min_value"},
		{Options: map[string]any{"min_value": 200}, Option: "max_value"},
		{Options: map[string]any{"max_target": 50}, Option: "max_target"},
		{Options: map[string]any{"operators": []string{"%"}}, Option: "operators"},
		{Options: map[string]any{"max_target": 1000001}, Option: "max_target"},
	})
}

func TestChainString(t *testing.T) {
	for _, c := range []struct {
		c    chain
		want string
	}{
		{chain{[]int{3, 5, 7, 2, 1}, []byte("+*/-")}, "(3 + 5)*7/2 - 1"},
		{chain{[]int{3, 5, 7}, []byte("*+")}, "3*5 + 7"},
		{chain{[]int{3, 5, 7, 2}, []byte("-*-")}, "(3 - 5)*7 - 2"},
		{chain{[]int{3, 5, 7, 2}, []byte("+*+")}, "(3 + 5)*7 + 2"},
		{chain{[]int{3, 5, 7, 2}, []byte("-*/")}, "(3 - 5)*7/2"},
		{chain{[]int{3, 5, 7, 2}, []byte("--*")}, "(3 - 5 - 7)*2"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%v: %q, want %q", c.c, got, c.want)
		}
	}
}
