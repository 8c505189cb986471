package arc

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestArc1DScore(t *testing.T) {
	it := &rg.Item{Answer: "0 0 3 3 0", Data: Grid{{0, 0, 3, 3, 0}}}
	checkScores(t, score1D, it, []scoreCase{
		{"0 0 3 3 0", 1},
		{"0,0,3,3,0", 1},
		{"[0, 0, 3, 3, 0]", 1},
		{"00330", 1},
		{"0  0 3 3  0", 1},
		{"0 0 3 3 1", 0},
		{"0 0 3 3", 0},
		{"Output: 0 0 3 3 0", 9.0 / 17}, // reasoning-gym's containment credit
		{"", 0},
	})
}

// TestArc1DTasks: every named generator is reasoning-gym's table entry,
// draws rows of the asked size at the smallest and largest sizes, and
// keeps colours in 0..9.
func TestArc1DTasks(t *testing.T) {
	if len(tasks1D) != 70 {
		t.Fatalf("%d tasks, ARC_1D_TASKS has 70", len(tasks1D))
	}
	seen := map[string]bool{}
	for _, task := range tasks1D {
		if seen[task.name] {
			t.Fatalf("%s twice", task.name)
		}
		seen[task.name] = true
		for _, size := range []int{8, 9, 10, 30, 200} {
			rng := envs.NewRand(uint64(size))
			for range 50 {
				p, err := draw1D(rng, task, size)
				if err != nil {
					t.Fatal(err)
				}
				if len(p.in) != size || len(p.out) != size {
					t.Fatalf("%s size %d: rows of %d and %d", task.name, size, len(p.in), len(p.out))
				}
				for i := range size {
					if p.in[i] < 0 || p.in[i] > 9 || p.out[i] < 0 || p.out[i] > 9 {
						t.Fatalf("%s: colour out of range: %v -> %v", task.name, p.in, p.out)
					}
				}
			}
		}
	}
	for _, name := range []string{"move_3pix_colorful_wrapped_left", "gravity_weighted_colors_left", "block_touch_dot_4pix", "two_points_and_fill_inv", "mark_size_two_blocks"} {
		if !seen[name] {
			t.Errorf("%s missing", name)
		}
	}
}

// TestArc1DRules checks a few generators' rules independently.
func TestArc1DRules(t *testing.T) {
	byName := map[string]gen1D{}
	for _, task := range tasks1D {
		byName[task.name] = task.gen
	}
	rng := envs.NewRand(1)
	for range 200 {
		p, _ := byName["gravity_left"](rng, 20)
		// Mirrored gravity: non-zero cells packed at the right, in order.
		var nz []int
		for _, c := range p.in {
			if c != 0 {
				nz = append(nz, c)
			}
		}
		want := append(make([]int, 20-len(nz)), nz...)
		if joinRow(p.out) != joinRow(want) {
			t.Fatalf("gravity_left %v -> %v, want %v", p.in, p.out, want)
		}
		p, _ = byName["move_2pix_solid_right"](rng, 20)
		if joinRow(p.out) != joinRow(append([]int{0, 0}, p.in[:18]...)) {
			t.Fatalf("move_2pix_solid_right %v -> %v", p.in, p.out)
		}
		if p, ok := byName["two_points_and_fill_inv"](rng, 20); ok && count(p.in, 0) > count(p.out, 0) {
			t.Fatalf("two_points_and_fill_inv should empty the span: %v -> %v", p.in, p.out)
		}
	}
}

func TestArc1DQuestion(t *testing.T) {
	it := item(t, arc1DTask, Arc1DOptions{MinSize: 12, MaxSize: 12, NumTrain: 2}, 5)
	for _, want := range []string{
		"Find the common rule that maps an input grid to an output grid, given the examples below.\n\nExample 1:\nInput:  ",
		"\nOutput: ", "\n\nExample 2:\n",
		"Your final answer should be just the test output grid itself.\n\nInput:\n",
	} {
		if !strings.Contains(it.Question, want) {
			t.Errorf("question lacks %q:\n%s", want, it.Question)
		}
	}
	if strings.Contains(it.Question, "Example 3:") || len(strings.Fields(it.Answer)) != 12 {
		t.Errorf("question %q answer %q", it.Question, it.Answer)
	}
}
