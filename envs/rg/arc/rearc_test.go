package arc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

func validGrid(g Grid) error {
	if len(g) == 0 || len(g) > 30 || !rectangular(g) || len(g[0]) == 0 || len(g[0]) > 30 {
		return fmt.Errorf("shape %s", shape(g))
	}
	for _, row := range g {
		for _, c := range row {
			if c < 0 || c > 9 {
				return fmt.Errorf("colour %d", c)
			}
		}
	}
	return nil
}

// TestRearcGenerators: every ported generator makes valid ARC grids (at
// most 30×30, colours 0..9) at the lowest, the highest and random
// difficulties.
func TestRearcGenerators(t *testing.T) {
	if len(rearcGens) < 400 {
		t.Fatalf("%d generators ported, want at least 400", len(rearcGens))
	}
	seen := map[string]bool{}
	for _, e := range rearcGens {
		if seen[e.id] {
			t.Fatalf("%s twice", e.id)
		}
		seen[e.id] = true
		for _, d := range [][2]float64{{0, 0}, {1, 1}, {0, 1}, {0, 0.2}} {
			rng := envs.NewRand(uint64(len(e.id)))
			for range 30 {
				in, out, err := drawRearc(e, &gen{rng: rng, lb: d[0], ub: d[1]})
				if err != nil {
					t.Fatal(err)
				}
				if err := validGrid(in); err != nil {
					t.Fatalf("%s difficulty %v: input %v", e.id, d, err)
				}
				if err := validGrid(out); err != nil {
					t.Fatalf("%s difficulty %v: output %v", e.id, d, err)
				}
			}
		}
	}
}

// TestRearcRules checks some generators' outputs against their ARC rule,
// computed independently.
func TestRearcRules(t *testing.T) {
	byID := map[string]rearcGen{}
	for _, e := range rearcGens {
		byID[e.id] = e.gen
	}
	g := &gen{rng: envs.NewRand(3), lb: 0, ub: 1}
	for range 50 {
		in, out := byID["6150a2bd"](g)
		h, w := dims(in)
		for i := range h {
			for j := range w {
				if out[h-1-i][w-1-j] != in[i][j] {
					t.Fatalf("6150a2bd: not a half turn")
				}
			}
		}
		in, out = byID["c59eb873"](g)
		if len(out) != 2*len(in) || out[2*len(in)-1][0] != in[len(in)-1][0] {
			t.Fatalf("c59eb873: not upscaled by 2")
		}
		in, out = byID["d631b094"](g)
		n := 0
		for _, row := range in {
			for _, c := range row {
				if c != 0 {
					n++
				}
			}
		}
		if len(out) != 1 || len(out[0]) != n {
			t.Fatalf("d631b094: %d coloured cells, output %s", n, shape(out))
		}
		in, out = byID["67385a82"](g)
		for _, o := range objects(in) {
			if o.color == 0 {
				continue
			}
			want := 8
			if len(o.cells) == 1 {
				want = o.color
			}
			for _, p := range o.cells {
				if out[p.i][p.j] != want {
					t.Fatalf("67385a82: an object of %d cells became %d", len(o.cells), out[p.i][p.j])
				}
			}
		}
	}
}

func TestDSL(t *testing.T) {
	if got := connect(pt{0, 3}, pt{3, 0}); fmt.Sprint(got) != "[{0 3} {1 2} {2 1} {3 0}]" {
		t.Errorf("anti-diagonal connect: %v", got)
	}
	if got := connect(pt{0, 0}, pt{1, 2}); len(got) != 0 {
		t.Errorf("a bent line connects: %v", got)
	}
	if got := len(objects(Grid{{1, 1, 0}, {0, 1, 0}, {2, 0, 1}})); got != 6 {
		t.Errorf("%d objects, want 6", got)
	}
	g := &gen{rng: envs.NewRand(1), lb: 0.5, ub: 0.5}
	if x := g.unif(0, 5); x != 2 { // round(2.5) is 2 in Python
		t.Errorf("unifint at 0.5 over 0..5: %d", x)
	}
	if got := crop(Grid{{1, 2}, {3, 4}}, 0, 0, 3, 3); formatBoard(got) != "1 2\n3 4" {
		t.Errorf("crop past the edge: %v", got)
	}
	// 2x2 grid, one colour each: 4 pixels+4 pixels, 4 colours, 1 object a cell.
	if p := psoDifficulty(Grid{{1, 2}, {3, 4}}, Grid{{1, 2}, {3, 4}}); p != (8.0/1800+0.4+1)/3 {
		t.Errorf("pso %v", p)
	}
}

// TestRearcPSO: the drawn test pair falls inside its PSO range, for each
// of the default ranges.
func TestRearcPSO(t *testing.T) {
	for k, r := range rearcTask.Defaults.PSODifficultyRanges {
		o := rearcTask.Defaults
		o.PSODifficultyWeights = make([]float64, len(o.PSODifficultyRanges))
		o.PSODifficultyWeights[k] = 1
		for seed := range uint64(10) {
			it := item(t, rearcTask, o, seed)
			if p := it.Meta["pso"].(float64); p < r[0] || p > r[1] {
				t.Errorf("range %v seed %d: pso %v", r, seed, p)
			}
		}
	}
}

func TestRearcQuestion(t *testing.T) {
	o := rearcTask.Defaults
	o.MinExamples, o.MaxExamples = 4, 4
	it := item(t, rearcTask, o, 9)
	if !strings.Contains(it.Question, "Example 4:\n\nInput:\n") || strings.Contains(it.Question, "Example 5:") ||
		!strings.Contains(it.Question, "\nBelow is a test input grid. Predict the corresponding output grid by applying the rule you found.\nYour final answer should just be the text output grid itself.\n\nInput:\n") {
		t.Errorf("question:\n%s", it.Question)
	}
	r := registry(t)
	for opt, o := range map[string]map[string]any{
		"max_examples":           {"min_examples": 5, "max_examples": 4},
		"diff_ub":                {"diff_lb": 0.5, "diff_ub": 0.4},
		"rng_difficulty_ranges":  {"rng_difficulty_ranges": []any{[]any{0.5, 0.2}}, "rng_difficulty_weights": []any{1}},
		"pso_difficulty_weights": {"pso_difficulty_weights": []any{1, 2}},
	} {
		if _, err := r.Make("rg:rearc", o); err == nil || !strings.Contains(err.Error(), opt) {
			t.Errorf("options %v: %v, want an error naming %s", o, err, opt)
		}
	}
}

// TestRearcFunctions: for the generators whose output is a function of the
// input alone, the output is that function (written here independently of
// the generators).
func TestRearcFunctions(t *testing.T) {
	recolour := func(m map[int]int) func(Grid) Grid {
		return func(in Grid) Grid {
			h, w := dims(in)
			return build(h, w, func(i, j int) int {
				if c, ok := m[in[i][j]]; ok {
					return c
				}
				return in[i][j]
			})
		}
	}
	transpose := func(in Grid) Grid {
		h, w := dims(in)
		return build(w, h, func(i, j int) int { return in[j][i] })
	}
	tile := func(in Grid, n, m int) Grid {
		h, w := dims(in)
		return build(h*n, w*m, func(i, j int) int { return in[i%h][j%w] })
	}
	rules := map[string]func(Grid) Grid{
		"74dd1130": transpose,
		"68b16354": func(in Grid) Grid {
			h, w := dims(in)
			return build(h, w, func(i, j int) int { return in[h-1-i][j] })
		},
		"9172f3a0": func(in Grid) Grid {
			h, w := dims(in)
			return build(3*h, 3*w, func(i, j int) int { return in[i/3][j/3] })
		},
		"a416b8f3": func(in Grid) Grid { return tile(in, 1, 2) },
		"d10ecb37": func(in Grid) Grid { return Grid{in[0][:2], in[1][:2]} },
		"0d3d703e": recolour(map[int]int{1: 5, 2: 6, 3: 4, 4: 3, 5: 1, 6: 2, 8: 9, 9: 8}),
		"c8f0f002": recolour(map[int]int{7: 5}),
		"b1948b0a": recolour(map[int]int{6: 2}),
		"d511f180": recolour(map[int]int{5: 8, 8: 5}),
		"2dee498d": func(in Grid) Grid { return crop(in, 0, 0, len(in), len(in[0])/3) },
	}
	byID := map[string]rearcGen{}
	for _, e := range rearcGens {
		byID[e.id] = e.gen
	}
	for id, rule := range rules {
		g := &gen{rng: envs.NewRand(11), lb: 0, ub: 1}
		for range 40 {
			in, out := byID[id](g)
			if want := rule(in); !equalGrids(out, want) {
				t.Fatalf("%s: input\n%s\noutput\n%s\nwant\n%s", id, formatBoard(in), formatBoard(out), formatBoard(want))
			}
		}
	}
	// 7b7f7511: the input is the output doubled along one side.
	g := &gen{rng: envs.NewRand(12), lb: 0, ub: 1}
	for range 40 {
		in, out := byID["7b7f7511"](g)
		if !equalGrids(in, tile(out, 1, 2)) && !equalGrids(in, tile(out, 2, 1)) {
			t.Fatalf("7b7f7511: input\n%s\noutput\n%s", formatBoard(in), formatBoard(out))
		}
	}
}
