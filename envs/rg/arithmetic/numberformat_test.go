package arithmetic

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestNumberFormatItems(t *testing.T) {
	for seed := range uint64(100) {
		it := item(t, numberFormatTask, numberFormatTask.Defaults, seed)
		cands := it.Meta["candidates"].([]float64)
		shown := it.Meta["formatted_candidates"].([]string)
		want := cands[0]
		for i, c := range cands {
			// Every notation reads back as its candidate ("{:f}" keeps 6
			// decimals).
			v, err := strconv.ParseFloat(strings.ReplaceAll(shown[i], ",", ""), 64)
			if err != nil || math.Abs(v-c) > 1e-6 {
				t.Fatalf("%q reads %v, want %v", shown[i], v, c)
			}
			if it.Meta["size"] == "largest" && c > want || it.Meta["size"] == "smallest" && c < want {
				want = c
			}
		}
		if it.Data.(float64) != want || !strings.Contains(it.Question, "pick the "+it.Meta["size"].(string)+" number") {
			t.Fatalf("%s: answer %s, want %v", it.Question, it.Answer, want)
		}
	}
	it := item(t, numberFormatTask, NumberFormatOptions{MinNumCandidates: 3, MaxNumCandidates: 3, MinN: 1000, MaxN: 1001, MaxDelta: 10}, 1)
	if n := len(strings.Fields(it.Question[strings.LastIndex(it.Question, ":")+1:])); n != 3 {
		t.Fatalf("%d candidates shown, want 3: %s", n, it.Question)
	}
}

func TestNumberFormatScore(t *testing.T) {
	it := &rg.Item{Answer: "1234567.125", Data: 1234567.125}
	checkScores(t, scoreNumberFormat, it, []scoreCase{
		{"1234567.125", 1},
		{"1,234,567.125", 1},
		{"1 234 567.125", 1},
		{"1.234567125000000e+06", 1},
		{"1234567.13", 1}, // within reasoning-gym's 0.01
		{"1234567.14", 0},
		{"1234568", 0},
		{"largest", 0},
		{"", 0},
	})
}

func TestNumberFormatOptionErrors(t *testing.T) {
	envtest.OptionErrors(t, taskRegistry(t), "rg:number_format", []envtest.OptionCase{
		{Options: map[string]any{"min_num_candidates": 1}, Option: "min_num_candidates"},
		{Options: map[string]any{"min_num_candidates": 6}, Option: "max_num_candidates"},
		{Options: map[string]any{"min_n": 1e9}, Option: "max_n"},
		{Options: map[string]any{"max_delta": 0}, Option: "max_delta"},
		{Options: map[string]any{"max_n": 1e13}, Option: "max_n"},
	})
}
