package induction

import (
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// acre's answers are one of three words.
var ceilings = map[string]float64{"rg:acre": 0.45}

func TestSuite(t *testing.T) { rgtest.Run(t, registry(t), rgtest.Config{Ceilings: ceilings}) }

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }

type scoreCase struct {
	answer string
	want   float64
}

func checkScores(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

func item[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestListRules(t *testing.T) {
	in := []int{26, 88, 60, 1, 17, 4, 5, 12}
	for _, c := range []struct{ got, want string }{
		{pyList(reversed(in)), "[12, 5, 4, 17, 1, 60, 88, 26]"},
		{pyList([]int{sumBelow30(in)}), "[65]"},
		{pyList(sorted(in, false)), "[1, 4, 5, 12, 17, 26, 60, 88]"},
		{pyList(sorted(in, true)), "[88, 60, 26, 17, 12, 5, 4, 1]"},
	} {
		if c.got != c.want {
			t.Errorf("%s, want %s", c.got, c.want)
		}
	}
	if sumBelow30([]int{5, 5, 29, 30}) != 34 {
		t.Error("sumBelow30 counts a repeated value once and stops below 30")
	}
	// Each rule's outputs follow from its inputs.
	rng := envs.NewRand(1)
	for k, rule := range listRules {
		for i := range pairsPerTask {
			in, out := rule(rng, i)
			if !ruleHolds(k, i, in, out) {
				t.Fatalf("rule %d pair %d: %v → %v", k, i, in, out)
			}
		}
	}
}

// ruleHolds is an independent statement of each of reasoning-gym's rules.
func ruleHolds(k, i int, in, out []int) bool {
	eq := func(w []int) bool { return pyList(w) == pyList(out) }
	sum := 0
	for _, v := range in {
		sum += v
	}
	switch k {
	case 0:
		return eq(in)
	case 1:
		return eq([]int{in[2]})
	case 4:
		n := strings.Count(" "+strings.Trim(pyList(in), "[]")+",", " 5,")
		return eq([]int{n}) && (i%2 == 1 || n >= 1)
	case 5:
		var w []int
		for j := 0; j+1 < len(in); j++ {
			if in[j+1]%2 == 0 {
				w = append(w, in[j])
			}
		}
		return pyList(w) == pyList(out)
	case 6:
		for j := range in {
			if out[j] != in[j]+j {
				return false
			}
		}
		return len(in) == len(out)
	case 7:
		return eq([]int{in[in[len(in)-1]]})
	case 8:
		return eq([]int{len(in)})
	case 9:
		return eq([]int{sum})
	case 12:
		return len(out) == len(in) && out[0] == in[0]+1 && out[len(out)-1] == in[len(in)-1]+1
	case 13:
		return (i%2 == 0) == eq([]int{1})
	case 14:
		return len(in) == 1 && in[0]%5 == 0 && eq([]int{map[bool]int{true: 1, false: 0}[in[0]%10 == 0]})
	case 15:
		for j := 1; j < len(in); j++ {
			if in[j] != 2*in[j-1] {
				return false
			}
		}
		return eq([]int{2 * in[len(in)-1]})
	case 16:
		return len(in) == 1 && eq([]int{2*in[0] - 4})
	}
	return true // 2, 3, 10, 11: checked above
}

func TestListFunctions(t *testing.T) {
	rules := map[int]bool{}
	for seed := range uint64(200) {
		it := item(t, ListFunctions, ListFunctionsOptions{}, seed)
		rules[it.Meta["task"].(int)] = true
		if !strings.HasPrefix(it.Question, "You are an expert at inductive reasoning.") || !strings.Contains(it.Question, "Examples:\nInput 1: [") || !strings.HasSuffix(it.Question, "Output:\n") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if len(rules) != len(listRules) {
		t.Fatalf("200 items drew %d of %d rules", len(rules), len(listRules))
	}
	checkScores(t, scoreList, &rg.Item{Answer: "[1, 22, 3]"}, []scoreCase{
		{"[1, 22, 3]", 1}, {"[1,22,3]", 1}, {"1, 22, 3", 1}, {"[ 1 22 3 ]", 1},
		{"[1, 22]", 0}, {"[3, 22, 1]", 0}, {"output [1, 22, 3]", 10.0 / 17}, {"", 0},
	})
	checkScores(t, scoreList, &rg.Item{Answer: "[]"}, []scoreCase{{"[]", 1}, {"[ ]", 1}, {"", 0}, {"[0]", 0}})
}

// inferLabel is reasoning-gym's check_blickets and check_labels, read from
// the views alone: objects in an off view are not blickets; an on view's
// one object outside those is a blicket; an on view without a known
// blicket makes its other objects a set that turns the light on.
func inferLabel(views []view, objects []int) int {
	var non, blickets []int
	for _, v := range views {
		if v.light == "off" {
			non = appendNew(non, v.objects...)
		}
	}
	for _, v := range views {
		if d := minus(sortedSet(v.objects), non); v.light == "on" && len(d) == 1 {
			blickets = appendNew(blickets, d...)
		}
	}
	var sets [][]int
	for _, v := range views {
		if d := minus(sortedSet(v.objects), non); v.light == "on" && len(intersect(d, blickets)) == 0 {
			sets = append(sets, d)
		}
	}
	d := minus(sortedSet(objects), non)
	switch {
	case len(d) == 0:
		return labelOff
	case len(intersect(d, blickets)) > 0:
		return labelOn
	}
	for _, s := range sets {
		if len(minus(s, d)) == 0 {
			return labelOn
		}
	}
	return labelUndetermined
}

func TestACRELabels(t *testing.T) {
	labels := map[int]int{}
	for seed := range uint64(300) {
		rng := envs.NewRand(seed)
		views, qs, ok := drawACRE(rng, seed%2 == 0)
		if !ok {
			continue
		}
		if len(views) != 6 || len(qs) != 4 {
			t.Fatalf("seed %d: %d views, %d questions", seed, len(views), len(qs))
		}
		for _, q := range qs {
			if got := inferLabel(views, q.objects); got != q.label {
				t.Fatalf("seed %d: %v %s: label %s, the views say %s\nviews %v", seed, q.objects, q.kind, labelText[q.label], labelText[got], views)
			}
			labels[q.label]++
		}
	}
	for l := range labelText {
		if labels[l] < 50 {
			t.Fatalf("labels %v: want each of the three often", labels)
		}
	}
}

func TestACRE(t *testing.T) {
	if len(acreObjects) != 48 || acreObjects[0] != "gray rubber cube" {
		t.Fatalf("%d objects, the first %q", len(acreObjects), acreObjects[0])
	}
	it := item(t, ACRE, ACRE.Defaults, 1)
	if !strings.Contains(it.Question, "Previous experimental results:\n") || !strings.Contains(it.Question, " → on") ||
		!strings.HasSuffix(it.Question, "What is the detector light status?") {
		t.Fatalf("question %q", it.Question)
	}
	score := ACRE.Score
	checkScores(t, score, &rg.Item{Answer: "undetermined"}, []scoreCase{
		{"undetermined", 1}, {"Undetermined", 1}, {"undetermined.", 1}, {`"undetermined"`, 1},
		{"on", 0}, {"off", 0}, {"it is undetermined", 12.0 / 18}, {"", 0},
	})
}
