package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestPuzzle24Score(t *testing.T) {
	// 4 4 6 10: 4*6*(10-4)/6 is not allowed (6 twice); 4*(10-4)... uses
	// numbers once each in several ways.
	it := &rg.Item{Data: []int{4, 4, 6, 10}}
	for _, c := range []struct {
		answer string
		want   float64
	}{
		{"(10 - 4)*4 + 6 - 6", 0.01}, // 6 twice, one 4 short
		{"(10 - 6)*4 + 4*2", 0.01},   // a number not given
		{"(10 - 6)*(4 + 4) - 8", 0.01},
		{"4*(10 - 6) + 4", 0.01}, // 20
		{"(10-6)*4+4", 0.01},
		{"10 + 6 + 4 + 4", 1},
		{"4 + 4 + 6 + 10", 1},
		{"(4 + 4)\\times(10 - 6) - 6", 0.01}, // five numbers
		{"4 × 6 × (10 − 4) ÷ 6", 0.01},       // 6 twice
		{"\\left(10 + 6\\right) + 4 + 4 = 24", 1},
		{"[10 + 6] + {4 + 4}", 1},
		{"4 + 4 + 6 + 10.5", 0.01},
		{"4 + 4 + 6 + 10 + 0", 0.01},
		{"4 / (4 - 4) + 6 + 10", 0.01},
		{"24", 0.01},
		{"", 0.01},
		{strings.Repeat("(", 100) + "4+4+6+10" + strings.Repeat(")", 100), 0.01},
	} {
		got := 1.0
		if puzzle24Fault(c.answer, it.Data.([]int)) != "" {
			got = 0.01
		}
		if got != c.want {
			t.Errorf("%q scores %v, want %v (%s)", c.answer, got, c.want, puzzle24Fault(c.answer, it.Data.([]int)))
		}
	}
	// Fractions along the way are exact: 8/(3-8/3) = 24.
	if f := puzzle24Fault("8/(3-8/3)", []int{8, 3, 8, 3}); f != "" {
		t.Errorf("8/(3-8/3): %s", f)
	}
	checkScores(t, "rg:puzzle24", nil, 5, []scoreCase{
		{"reference", ref(func(a string) string { return a }), 1},
		{"reference without spaces", ref(func(a string) string { return strings.ReplaceAll(a, " ", "") }), 1},
		{"reference plus 1", ref(func(a string) string { return "(" + a + ") + 1" }), 0.01},
		{"prose", fixed("I cannot do it"), 0.01},
	})
}

func TestPuzzle24Items(t *testing.T) {
	r := registry(t)
	for _, o := range []map[string]any{nil, {"operators": []string{"*", "/"}, "min_value": 2, "max_value": 4}, {"min_value": 6, "max_value": 6}} {
		for seed := range uint64(50) {
			_, e := rgtest.Reset(t, r, "rg:puzzle24", o, seed)
			it := e.Item()
			nums := it.Data.([]int)
			lo, hi := 1, 10
			if o != nil {
				lo, hi = o["min_value"].(int), o["max_value"].(int)
			}
			for _, n := range nums {
				if n < lo || n > hi {
					t.Fatalf("options %v seed %d: %v outside %d..%d", o, seed, nums, lo, hi)
				}
			}
			if f := puzzle24Fault(it.Answer, nums); f != "" || len(nums) != 4 {
				t.Fatalf("options %v seed %d: reference %q: %s", o, seed, it.Answer, f)
			}
			if !strings.HasPrefix(it.Question, "Make 24 using "+joinInts(nums)+". ") {
				t.Fatalf("question %q", it.Question)
			}
		}
	}
	envtest.OptionErrors(t, r, "rg:puzzle24", []envtest.OptionCase{
		{Options: map[string]any{"min_value": 0}, Option: "min_value"},
		{Options: map[string]any{"max_value": 11}, Option: "max_value"},
		{Options: map[string]any{"min_value": 5, "max_value": 4}, Option: "max_value"},
		{Options: map[string]any{"operators": []string{}}, Option: "operators"},
		{Options: map[string]any{"operators": []string{"^"}}, Option: "operators"},
		// Four 7s make 24 with no chain: 7+7+7+7 = 28, 7*7-7-7 = 35, ….
		{Options: map[string]any{"min_value": 7, "max_value": 7}, Option: "operators"},
		{Options: map[string]any{"operators": []string{"+"}, "min_value": 1, "max_value": 5}, Option: "operators"},
	})
}
