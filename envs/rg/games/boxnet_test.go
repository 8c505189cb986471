package rggames

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestBoxnetScore(t *testing.T) {
	// 1 × 3: a red box at the left, its target at the right; a blue box
	// and its target in the middle.
	b := &boxnet{rows: 1, cols: 3, squares: [][]string{{"box_red"}, {"box_blue", "target_blue"}, {"target_red"}}}
	if got := b.state(); !strings.HasPrefix(got, "Agent[0.5, 0.5]: I am in square[0.5, 0.5], I can observe ['box_red'], I can do ['move(box_red, square[0.5, 1.5])']\n") ||
		!strings.Contains(got, "I can observe ['box_blue', 'target_blue'], I can do ['move(box_blue, square[0.5, 0.5])', 'move(box_blue, square[0.5, 2.5])', 'move(box_blue, target_blue)']\n") {
		t.Fatalf("state:\n%s", got)
	}
	for _, c := range []struct {
		name, answer string
		want         float64
	}{
		{"reference", planBoxnet(b), 1},
		{"two steps in parallel", `[{"Agent[0.5, 0.5]":"move(box_red, square[0.5, 1.5])", "Agent[0.5, 1.5]":"move(box_blue, target_blue)"}, {"Agent[0.5, 1.5]":"move(box_red, square[0.5, 2.5])"}, {"Agent[0.5, 2.5]":"move(box_red, target_red)"}]`, 1},
		{"moved box acted on in the same step", `[{"Agent[0.5, 0.5]":"move(box_red, square[0.5, 1.5])", "Agent[0.5, 1.5]":"move(box_red, square[0.5, 2.5])", "Agent[0.5, 2.5]":"move(box_red, target_red)"}, {"Agent[0.5,1.5]":"move(box_blue,target_blue)"}]`, 1},
		{"code fence", "```json\n[{\"Agent[0.5, 1.5]\":\"move(box_blue, target_blue)\"}]\n```", 0.5},
		{"one step without its list", `{"Agent[0.5, 1.5]":"move(box_blue, target_blue)"}`, 0.5},
		{"not adjacent", `[{"Agent[0.5, 0.5]":"move(box_red, square[0.5, 2.5])"}, {"Agent[0.5, 2.5]":"move(box_red, target_red)"}]`, 0.05},
		{"off the field", `[{"Agent[0.5, 2.5]":"move(box_red, square[0.5, 3.5])"}, {"Agent[1.5, 0.5]":"move(box_red, target_red)"}]`, 0.05},
		{"wrong target", `[{"Agent[0.5, 1.5]":"move(box_blue, target_red)"}]`, 0.05},
		{"targets do not move", `[{"Agent[0.5, 2.5]":"move(target_red, square[0.5, 1.5])"}, {"Agent[0.5, 1.5]":"move(box_red, square[0.5, 0.5])"}]`, 0.05},
		{"repeated agent: the last action", `[{"Agent[0.5, 1.5]":"move(box_blue, target_blue)", "Agent[0.5,1.5]":"move(box_blue, square[0.5, 2.5])"}]`, 0.05},
		{"empty plan", `[]`, 0.05},
		{"not JSON", `move(box_blue, target_blue)`, 0},
		{"a number", `42`, 0},
	} {
		if got, _ := scoreBoxnet(c.answer, b); got != c.want {
			t.Errorf("%s: Score(%s) = %v, want %v", c.name, c.answer, got, c.want)
		}
	}
	r := registry(t)
	for seed := range uint64(30) {
		_, e := rgtest.Reset(t, r, "rg:boxnet", map[string]any{"max_box_num": 3, "max_row_num": 5, "colour_list": []string{"red", "dark_blue"}}, seed)
		if got := e.Score(e.Item().Answer); got != 1 {
			t.Fatalf("seed %d: plan scores %v\n%s", seed, got, e.Item().Answer)
		}
	}
}

func TestBoxnetOptions(t *testing.T) {
	envtest.OptionErrors(t, registry(t), "rg:boxnet", []envtest.OptionCase{
		{Options: map[string]any{"min_row_num": 0}, Option: "min_row_num"},
		{Options: map[string]any{"max_column_num": 11}, Option: "max_column_num"},
		{Options: map[string]any{"min_row_num": 3, "max_row_num": 2}, Option: "max_row_num"},
		{Options: map[string]any{"min_column_num": 4, "max_column_num": 3}, Option: "max_column_num"},
		{Options: map[string]any{"min_box_num": 2, "max_box_num": 1}, Option: "max_box_num"},
		{Options: map[string]any{"colour_list": []string{}}, Option: "colour_list"},
		{Options: map[string]any{"colour_list": []string{"light red"}}, Option: "colour_list"},
	})
}
