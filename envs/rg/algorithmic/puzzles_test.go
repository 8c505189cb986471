package algorithmic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestJugs(t *testing.T) {
	p := jugsPuzzle{caps: []int{3, 5, 8}, target: 4}
	sol := jugsSolve(p.caps, p.target)
	if len(sol) != 6 {
		t.Fatalf("3,5,8 → 4 in %d moves (%v), want 6", len(sol), sol)
	}
	it := rg.Item{Data: p}
	score := jugsTask.Score
	good, _ := json.Marshal(sol)
	numCheck(t, score, &it, []numCase{
		{string(good), 1},
		{`["fill B", "pour B->A", "empty A", "pour B->A", "fill B", "pour B->A"]`, 1},
		{`['fill B', 'pour B -> A', 'EMPTY a', 'pour B->A', 'fill B', 'pour B->A']`, 1},
		{`["fill B", "pour B->A", "empty A", "pour B->A", "fill B", "pour B->A", "empty A"]`, 1}, // B still holds 4
		{`["fill B", "pour B->A", "empty A", "pour B->A", "fill B", "pour B->A", "empty A", "empty B"]`, 0.01},
		{`["fill B"]`, 0.01},
		{`[]`, 0.01},
		{`["fill D"]`, 0},
		{`["pour A B"]`, 0},
		{"fill B, pour B->A", 0},
		{"", 0},
	})
	if fb := jugsTask.Feedback(`["fill B"]`, &it, 0.01); fb != "After your moves the jugs hold A:0, B:5, C:0; none holds the target." {
		t.Fatalf("feedback %q", fb)
	}
	for seed := range uint64(30) {
		it := numItem(t, jugsTask, jugsTask.Defaults, seed)
		if it.Meta["min_moves"].(int) < 10 || !strings.Contains(it.Question, "And your target is: ") {
			t.Fatalf("seed %d: %v", seed, it.Meta)
		}
	}
	for _, o := range []JugsOptions{{NumJugs: 3, Difficulty: 30}, {NumJugs: 4, Difficulty: 12}} {
		it := numItem(t, jugsTask, o, 1)
		if got := jugsTask.Score(it.Answer, &it); got != 1 || it.Meta["min_moves"].(int) < o.Difficulty {
			t.Fatalf("%v: %v", o, it.Meta)
		}
	}
	envtest.OptionErrors(t, numRegistry(t), "rg:jugs", []envtest.OptionCase{
		{Options: map[string]any{"num_jugs": 2}, Option: "num_jugs"},
		{Options: map[string]any{"num_jugs": 4, "difficulty": 13}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": 31}, Option: "difficulty"},
	})
}

func TestGraphColor(t *testing.T) {
	g := graphPuzzle{n: 3, colors: 2, edges: [][2]int{{0, 1}, {1, 2}}}
	it := rg.Item{Data: g}
	numCheck(t, graphColorTask.Score, &it, []numCase{
		{`{"0": 1, "1": 2, "2": 1}`, 1},
		{`{"0": 2, "1": 1, "2": 2}`, 1},
		{`{"0":"1","1":"2","2":"1"}`, 1}, // colours as strings
		{`{" 0": 1, "1": 2.0, "2": 1}`, 1},
		{`{"0": 1, "1": 1, "2": 2}`, 0.01},
		{`{"0": 1, "1": 3, "2": 1}`, 0.01},
		{`{"0": 1, "1": 2}`, 0.01},
		{`[1, 2, 1]`, 0},
		{"", 0},
	})
	if fb := graphColorTask.Feedback(`{"0": 1, "1": 1, "2": 2}`, &it, 0.01); !strings.Contains(fb, "0 and 1") {
		t.Fatalf("feedback %q", fb)
	}
	// One colour and dense edges: the greedy colouring fails every draw;
	// edges are removed until it succeeds, in bounded time.
	o := GraphColorOptions{NumColors: 1, MinNumVertices: 100, MaxNumVertices: 100, EdgeProbability: 0.99}
	it = numItem(t, graphColorTask, o, 1)
	if len(it.Data.(graphPuzzle).edges) != 0 || graphColorTask.Score(it.Answer, &it) != 1 {
		t.Fatalf("%d edges left", len(it.Data.(graphPuzzle).edges))
	}
	it = numItem(t, graphColorTask, graphColorTask.Defaults, 3)
	if !strings.Contains(it.Question, "Vertices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\nEdges: [(") || !strings.Contains(it.Question, "Possible colors: [1, 2, 3]\n") {
		t.Fatalf("question %q", it.Question)
	}
	envtest.OptionErrors(t, numRegistry(t), "rg:graph_color", []envtest.OptionCase{
		{Options: map[string]any{"edge_probability": 1}, Option: "edge_probability"},
		{Options: map[string]any{"min_num_vertices": 11}, Option: "max_num_vertices"},
		{Options: map[string]any{"num_colors": 0}, Option: "num_colors"},
	})
}
