package arc

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
)

func TestArcAGIData(t *testing.T) {
	ts := loadARC()
	if ts.err != nil {
		t.Fatal(ts.err)
	}
	if len(ts.train) != 400 || len(ts.eval) != 400 {
		t.Fatalf("%d training and %d evaluation tasks, want 400 each", len(ts.train), len(ts.eval))
	}
	for _, task := range append(ts.train, ts.eval...) {
		for _, p := range append(task.Train, task.Test...) {
			for _, g := range []Grid{p.Input, p.Output} {
				if len(g) == 0 || len(g) > 30 || !rectangular(g) || len(g[0]) == 0 || len(g[0]) > 30 {
					t.Fatalf("%s: a grid of shape %s", task.ID, shape(g))
				}
			}
		}
	}
	if ts.train[0].ID != "007bbfb7" {
		t.Errorf("first training task %s", ts.train[0].ID)
	}
}

func TestAugmentations(t *testing.T) {
	g := Grid{{1, 2, 3}, {4, 5, 6}}
	for name, c := range map[string]struct {
		f    transform
		want string
	}{
		"rot90":   {rot90, "4 1\n5 2\n6 3"},
		"rot180":  {rot180, "6 5 4\n3 2 1"},
		"rot270":  {rot270, "3 6\n2 5\n1 4"},
		"hmirror": {hmirror, "4 5 6\n1 2 3"},
		"vmirror": {vmirror, "3 2 1\n6 5 4"},
		"dmirror": {dmirror, "1 4\n2 5\n3 6"},
		"cmirror": {cmirror, "6 3\n5 2\n4 1"},
	} {
		if got := formatBoard(c.f(g)); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, c.want)
		}
	}
}

// TestArcAGIItems: with no augmentation and no shuffling the question is
// the task's own boards; the defaults recolour.
func TestArcAGIItems(t *testing.T) {
	plain := ArcAGIOptions{UseTrain: true}
	ts := loadARC()
	for seed := range uint64(20) {
		it := item(t, arcAGITask, plain, seed)
		var task *arcTask
		for _, x := range ts.train {
			if x.ID == it.Meta["task_id"] {
				task = x
			}
		}
		if task == nil {
			t.Fatalf("task %v is not a training task", it.Meta["task_id"])
		}
		if it.Answer != formatBoard(task.Test[0].Output) {
			t.Fatalf("%s: answer\n%s", task.ID, it.Answer)
		}
		if !strings.Contains(it.Question, formatPair(1, task.Train[0].Input, task.Train[0].Output)) ||
			!strings.HasSuffix(it.Question, "Input:\n"+formatBoard(task.Test[0].Input)+"\n") {
			t.Fatalf("%s: question\n%s", task.ID, it.Question)
		}
	}
	o := arcAGITask.Defaults
	o.UseTrain = false
	for seed := range uint64(20) {
		it := item(t, arcAGITask, o, seed)
		if it.Meta["split"] != "evaluation" {
			t.Fatalf("use_train false drew a %v task", it.Meta["split"])
		}
	}
}

func TestArcAGIOptions(t *testing.T) {
	r := registry(t)
	for opts, want := range map[string]map[string]any{
		"use_eval":          {"use_train": false, "use_eval": false},
		"rotations":         {"rotations": []any{"45"}},
		"mirrors_weights":   {"mirrors": []any{"vertical"}},
		"rotations_weights": {"rotations_weights": []any{0, 0, 0, 0}},
	} {
		_, err := r.Make("rg:arc_agi", want)
		if err == nil || !strings.Contains(err.Error(), opts) {
			t.Errorf("options %v: %v, want an error naming %s", want, err, opts)
		}
	}
	envtest.Make(t, r, "rg:arc_agi", map[string]any{"rotations": []any{}, "mirrors": []any{"diagonal"}, "mirrors_weights": []any{0, 1}})
}
