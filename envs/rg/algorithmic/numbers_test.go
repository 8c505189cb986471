package algorithmic

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// numCeilings raise the random policy's allowed mean where a guess can hit.
var numCeilings = map[string]float64{
	"rg:game_of_life_halting": 0.6,
	// A random colouring of 10 vertices and about 4.5 edges in 3 colours
	// is valid about (1-0.1/3)^45 ≈ 22% of the time.
	"rg:graph_color": 0.35,
	// reasoning-gym gives any mapping with the right letters 0.3, plus 0.7
	// per right digit: a random one scores about 0.37.
	"rg:cryptarithm": 0.45,
}

// numMinDistinct lowers the distinct-question count for small spaces.
var numMinDistinct = map[string]int{}

func numRegistry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, registerNumbers) }

func TestNumbersSuite(t *testing.T) {
	rgtest.Run(t, numRegistry(t), rgtest.Config{Ceilings: numCeilings, MinDistinct: numMinDistinct})
}

type numCase struct {
	answer string
	want   float64
}

func numCheck(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []numCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

func numItem[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestNumPyFloat(t *testing.T) {
	for x, want := range map[float64]string{12: "12.0", -3.25: "-3.25", 0.00001: "1e-05", 0.0001: "0.0001", 100: "100.0", 1e16: "1e+16"} {
		if got := numPyFloat(x); got != want {
			t.Errorf("numPyFloat(%v) = %q, want %q", x, got, want)
		}
	}
}

func TestNumberSorting(t *testing.T) {
	it := rg.Item{Answer: "['-1.5', '2.0', '10.25']", Data: sortingData{ascending: true, sorted: []float64{-1.5, 2, 10.25}}}
	numCheck(t, numberSortingTask.Score, &it, []numCase{
		{"['-1.5', '2.0', '10.25']", 1},
		{`["-1.5","2","10.25"]`, 1},
		{"[-1.5, 2, 10.25]", 1},
		{"-1.5, 2, 10.25", 1},
		{"['-1.5', '2.4', '10.25']", 1}, // reasoning-gym's tolerance of 1
		{"['-1.5', '3.5', '10.25']", 0},
		{"['10.25', '2.0', '-1.5']", 0}, // the wrong direction
		{"['-1.5', '2.0']", 0},
		{"['-1.5', 'two', '10.25']", 0},
		{"", 0},
	})
	for seed := range uint64(50) {
		it := numItem(t, numberSortingTask, numberSortingTask.Defaults, seed)
		d := it.Data.(sortingData)
		if !strings.Contains(it.Question, numDirection(d.ascending)+" order: ") || !strings.Contains(it.Question, "['-69', '-13'") {
			t.Fatalf("question %q", it.Question)
		}
		for i := 1; i < len(d.sorted); i++ {
			if d.ascending == (d.sorted[i] < d.sorted[i-1]) && d.sorted[i] != d.sorted[i-1] {
				t.Fatalf("%v not sorted %v", d.sorted, numDirection(d.ascending))
			}
		}
	}
}

func numDirection(asc bool) string {
	if asc {
		return "ascending"
	}
	return "descending"
}

func TestNumberFiltering(t *testing.T) {
	it := rg.Item{Answer: "['1.50', '-2']", Data: []string{"1.50", "-2"}}
	numCheck(t, numberFilteringTask.Score, &it, []numCase{
		{"['1.50', '-2']", 1},
		{"[1.5, -2.0]", 1},
		{`["1.50","-2"]`, 1},
		{"1.50, -2", 1},
		{"['-2', '1.50']", 0}, // order kept
		{"['1.50']", 0},
		{"x ['1.50', '-2']", 14.0 / 16},
	})
	empty := rg.Item{Answer: "[]", Data: []string{}}
	numCheck(t, numberFilteringTask.Score, &empty, []numCase{{"[]", 1}, {"[ ]", 1}, {"", 0}, {"['1']", 0}})
	// Independent check of the rule on generated items.
	for seed := range uint64(100) {
		it := numItem(t, numberFilteringTask, numberFilteringTask.Defaults, seed)
		f, _ := strconv.ParseFloat(it.Meta["filter_value"].(string), 64)
		op := it.Meta["operation"].(string)
		var want []string
		for _, s := range it.Meta["original_numbers"].([]string) {
			v, _ := strconv.ParseFloat(s, 64)
			keep := map[string]bool{"keep_larger": v > f, "keep_smaller": v < f, "remove_larger": v <= f, "remove_smaller": v >= f}[op]
			if keep {
				want = append(want, s)
			}
		}
		if got := it.Data.([]string); len(got) != len(want) {
			t.Fatalf("%s %v: got %v, want %v", op, f, got, want)
		}
		if !strings.HasPrefix(it.Question, strings.ToUpper(op[:1])+op[1:strings.Index(op, "_")]+" all numbers ") {
			t.Fatalf("question %q for %s", it.Question, op)
		}
	}
}

func TestBaseConversion(t *testing.T) {
	it := rg.Item{Answer: "ff", Data: baseData{value: 255, base: 16}}
	numCheck(t, baseConversionTask.Score, &it, []numCase{
		{"ff", 1}, {"FF", 1}, {"0xff", 1}, {"00ff", 1},
		{"fe", 0}, {"255", 0}, {"-ff", 2.0 / 3}, {"answer: ff", 2.0 / 10},
	})
	bin := rg.Item{Answer: "101", Data: baseData{value: 5, base: 2}}
	numCheck(t, baseConversionTask.Score, &bin, []numCase{{"0b101", 1}, {"101", 1}, {"5", 0}, {"0x101", 3.0 / 5}})
	for seed := range uint64(100) {
		it := numItem(t, baseConversionTask, BaseConversionOptions{MinBase: 2, MaxBase: 36, MinValue: 0, MaxValue: 1 << 40}, seed)
		m := it.Meta
		src, dst := m["source_base"].(int), m["target_base"].(int)
		if src == dst {
			t.Fatalf("same base %d", src)
		}
		v, err := strconv.ParseInt(m["source_repr"].(string), src, 64)
		if err != nil || v != m["decimal_value"].(int64) || !strings.Contains(it.Question, "number "+m["source_repr"].(string)+" to "+baseName(dst)+"\n") {
			t.Fatalf("%v: %q", m, it.Question)
		}
	}
}

func TestCountPrimes(t *testing.T) {
	for _, c := range []struct{ lo, hi, want int }{{1, 1, 0}, {1, 10, 4}, {2, 2, 1}, {10, 30, 6}, {1, 10000, 1229}, {7919, 7919, 1}} {
		if got := countPrimes(c.lo, c.hi); got != c.want {
			t.Errorf("countPrimes(%d, %d) = %d, want %d", c.lo, c.hi, got, c.want)
		}
	}
	it := rg.Item{Answer: "1229"}
	numCheck(t, numScoreInt, &it, []numCase{{"1229", 1}, {"1,229", 1}, {"1229.0", 1}, {"+1229", 1}, {"1228", 0}, {"12290", 0.8}, {"", 0}})
}

func TestNumbersOptionErrors(t *testing.T) {
	r := numRegistry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:number_sorting": {
			{Options: map[string]any{"min_numbers": 0}, Option: "min_numbers"},
			{Options: map[string]any{"min_numbers": 11}, Option: "max_numbers"},
			{Options: map[string]any{"min_decimals": 3}, Option: "max_decimals"},
			{Options: map[string]any{"min_value": 100}, Option: "max_value"},
			{Options: map[string]any{"max_numbers": 1001}, Option: "max_numbers"},
		},
		"rg:number_filtering": {
			{Options: map[string]any{"max_decimals": 9}, Option: "max_decimals"},
			{Options: map[string]any{"max_value": -200}, Option: "max_value"},
		},
		"rg:base_conversion": {
			{Options: map[string]any{"min_base": 1}, Option: "min_base"},
			{Options: map[string]any{"max_base": 37}, Option: "max_base"},
			{Options: map[string]any{"min_base": 16}, Option: "max_base"},
			{Options: map[string]any{"min_value": 1000}, Option: "max_value"},
		},
		"rg:count_primes": {
			{Options: map[string]any{"min_n": 0}, Option: "min_n"},
			{Options: map[string]any{"min_n": 20000}, Option: "max_n"},
			{Options: map[string]any{"max_n": 10000001}, Option: "max_n"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}

func BenchmarkNumbersItems(b *testing.B) { rgtest.BenchmarkItems(b, numRegistry(b)) }
