package geometry

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestSuite(t *testing.T) { rgtest.Run(t, registry(t), rgtest.Config{}) }

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

func TestSimpleGeometry(t *testing.T) {
	for seed := range uint64(100) {
		it := item(t, SimpleGeometry, SimpleGeometry.Defaults, seed)
		n := it.Meta["n_sides"].(int)
		angles := it.Meta["known_angles"].([]int)
		sum := 0
		for _, a := range angles {
			if a < 10 || a > 170 {
				t.Fatalf("angle %d out of range", a)
			}
			sum += a
		}
		if len(angles) != n-1 || it.Answer != itoa(180*(n-2)-sum) || 180*(n-2)-sum <= 0 {
			t.Fatalf("seed %d: %d sides, angles %v, answer %s", seed, n, angles, it.Answer)
		}
		if !strings.Contains(it.Question, "Return only the angle as your answer.Do not give the units in your answer.") {
			t.Fatalf("question %q", it.Question)
		}
	}
	// Where 100 draws rarely succeed, the fallback still gives valid angles.
	o := SimpleOptions{MinSides: 3, MaxSides: 3, MinAngle: 89, MaxAngle: 179}
	for seed := range uint64(20) {
		it := item(t, SimpleGeometry, o, seed)
		if it.Answer[0] == '-' || it.Answer == "0" {
			t.Fatalf("missing angle %s", it.Answer)
		}
	}
	checkScores(t, scoreAngle, &rg.Item{Answer: "120"}, []scoreCase{
		{"120", 1}, {"120.0", 1}, {"120°", 1}, {"120 degrees", 1}, {"120.0°", 1},
		{"121", 0}, {"-120", 0}, {"angle 120", 3.0 / 9}, {"", 0},
	})
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestOrthocenter(t *testing.T) {
	// A right angle at A: the orthocenter is A.
	x, y := orthocenter(point{0, 0}, point{4, 0}, point{0, 3})
	if ratString(x) != "0" || ratString(y) != "0" {
		t.Fatalf("orthocenter %s, %s", x, y)
	}
	// Independent check on drawn triangles: H−A ⟂ BC, H−B ⟂ CA, H−C ⟂ AB.
	for seed := range uint64(50) {
		it := item(t, AdvancedGeometry, AdvancedOptions{MinCoord: -10, MaxCoord: 10, TaskTypes: []string{"orthocenter"}}, seed)
		d := it.Data.(*triangle)
		var p [3]point
		for i, k := range []string{"A", "B", "C"} {
			var a, b int64
			if _, err := fmt.Sscanf(it.Meta[k].(string), "(%d, %d)", &a, &b); err != nil {
				t.Fatal(err)
			}
			p[i] = point{a, b}
		}
		hx, _ := d.x.Float64()
		hy, _ := d.y.Float64()
		for i := range 3 {
			v, w, u := p[i], p[(i+1)%3], p[(i+2)%3]
			dot := (hx-float64(v.x))*float64(u.x-w.x) + (hy-float64(v.y))*float64(u.y-w.y)
			if math.Abs(dot) > 1e-6 {
				t.Fatalf("seed %d: %v: H=(%v, %v) not on the altitude from %v", seed, p, hx, hy, v)
			}
		}
		if !strings.HasPrefix(it.Question, "Given triangle ABC with coordinates A=(") && !strings.HasPrefix(it.Question, "For triangle with vertices A=(") {
			t.Fatalf("question %q", it.Question)
		}
	}
	x, y = orthocenter(point{0, 0}, point{3, 0}, point{1, 2}) // H = (1, 1)
	it := &rg.Item{Answer: "(1.000, 1.000)", Data: &triangle{task: "orthocenter", x: x, y: y}}
	checkScores(t, scoreAdvanced, it, []scoreCase{
		{"(1.000, 1.000)", 1}, {"(1, 1)", 1}, {"1, 1", 1}, {"[1.0, 1.0]", 1}, {"(1.0004, 0.9996)", 1},
		{"(1.01, 1)", 0.01}, {"(1, 2)", 0.01}, {"one", 0.01}, {"", 0.01},
	})
	x, y = orthocenter(point{0, 0}, point{3, 0}, point{1, 3}) // H = (1, 2/3)
	it = &rg.Item{Answer: "(1.000, 0.667)", Data: &triangle{task: "orthocenter", x: x, y: y}}
	checkScores(t, scoreAdvanced, it, []scoreCase{{"(1, 2/3)", 1}, {"(1.000, 0.667)", 1}, {"(1, 0.67)", 0.01}})
}

func TestIncircleAndAngle(t *testing.T) {
	// The 3-4-5 right triangle has inradius 1 and a right angle at B.
	a, b, c := point{0, 3}, point{0, 0}, point{4, 0}
	if r := inradius(a, b, c); math.Abs(r-1) > 1e-12 {
		t.Fatalf("inradius %v", r)
	}
	if g := angleAt(a, b, c); math.Abs(g-90) > 1e-12 {
		t.Fatalf("angle %v", g)
	}
	if g := angleAt(point{1, 1}, point{0, 0}, point{1, 0}); math.Abs(g-45) > 1e-12 {
		t.Fatalf("angle %v", g)
	}
	r := inradius(point{0, 0}, point{2, 0}, point{0, 2}) // 2 - sqrt(2) = 0.5858
	it := &rg.Item{Answer: "0.586", Data: &triangle{task: "incircle_radius", value: r}}
	checkScores(t, scoreAdvanced, it, []scoreCase{
		{"0.586", 1}, {"0.5858", 1}, {".586", 1}, {"0.59", 0.5}, {"0.6", 0.05}, {"2 - sqrt(2)", 0.01}, {"", 0.01},
	})
	it = &rg.Item{Answer: "45.00°", Data: &triangle{task: "angle_measure", value: 45}}
	checkScores(t, scoreAdvanced, it, []scoreCase{
		{"45.00°", 1}, {"45", 1}, {"45°", 1}, {"45.00 degrees", 1}, {"45.004", 1},
		{"45.1", 0.05}, {"135°", 0.05}, {"forty-five", 0.01}, {"", 0.01},
	})
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:simple_geometry": {
			{Options: map[string]any{"min_sides": 7}, Option: "max_sides"},
			{Options: map[string]any{"min_angle": 171}, Option: "max_angle"},
			{Options: map[string]any{"min_angle": 90}, Option: "min_angle"}, // two 90° angles fill a triangle
			{Options: map[string]any{"max_angle": 180}, Option: "max_angle"},
		},
		"rg:advanced_geometry": {
			{Options: map[string]any{"min_coord": 10}, Option: "max_coord"},
			{Options: map[string]any{"task_types": []any{"area"}}, Option: "task_types"},
			{Options: map[string]any{"task_types": []any{}}, Option: "task_types"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}
