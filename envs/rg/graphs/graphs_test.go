package graphs

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

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// ceilings raise the random policy's allowed mean where a guess can hit.
var ceilings = map[string]float64{}

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{Ceilings: ceilings})
}

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

func TestLargestIsland(t *testing.T) {
	grid := [][]int{
		{1, 1, 0, 0},
		{0, 1, 0, 1},
		{1, 0, 0, 1},
		{1, 1, 1, 1},
	}
	if got := largestIsland(grid); got != 7 {
		t.Fatalf("largest island %d, want 7", got)
	}
	if got := largestIsland([][]int{{0, 0}}); got != 0 {
		t.Fatalf("no island: %d", got)
	}
	it := item(t, LargestIsland, LargestIsland.Defaults, 3)
	if !strings.HasPrefix(it.Question, "You are given the following ") || !strings.Contains(it.Question, "Return the maximum area of an island in grid.") {
		t.Fatalf("question %q", it.Question)
	}
	// Every island's cells are 1 and the answer is what the grid holds.
	g := it.Meta["grid"].([][]int)
	if want := largestIsland(g); it.Answer != strconv.Itoa(want) {
		t.Fatalf("answer %s, grid says %d", it.Answer, want)
	}
	checkScores(t, scoreInteger, &rg.Item{Answer: "12"}, []scoreCase{
		{"12", 1}, {"12.0", 1}, {"+12", 1}, {" 12 ", 1},
		{"13", 0}, {"0", 0}, {"area 12", 2.0 / 7}, {"", 0},
	})
}

func TestShortestPath(t *testing.T) {
	g := &pathGrid{cells: [][]byte{
		[]byte("*OO"),
		[]byte("XXO"),
		[]byte("#OO"),
	}, start: [2]int{0, 0}, end: [2]int{2, 0}}
	p := g.shortest()
	if strings.Join(p, " ") != "right right down down left left" {
		t.Fatalf("shortest %v", p)
	}
	it := &rg.Item{Answer: strings.Join(p, " "), Data: g}
	checkScores(t, scorePath, it, []scoreCase{
		{"right right down down left left", 1},
		{"Right, Right, Down, Down, Left, Left", 1},
		{"right → right → down → down → left → left", 1},
		{"right left right right down down left left", 0.5}, // valid, longer
		{"down down", 0},        // blocked
		{"right right down", 0}, // does not end on #
		{"up", 0},               // off the grid
		{"infeasible", 0},
		{"", 0},
		{"right right down down left left please", 0},
	})
	blocked := &pathGrid{cells: [][]byte{[]byte("*X#")}, start: [2]int{0, 0}, end: [2]int{0, 2}}
	if blocked.shortest() != nil {
		t.Fatal("a path through X")
	}
	checkScores(t, scorePath, &rg.Item{Answer: "infeasible", Data: blocked}, []scoreCase{
		{"infeasible", 1}, {"Infeasible", 1}, {"right right", 0}, {"", 0},
	})
	// Items agree with an independent check: the answer is a valid path of
	// BFS length or infeasible.
	for seed := range uint64(50) {
		it := item(t, ShortestPath, ShortestPath.Defaults, seed)
		g := it.Data.(*pathGrid)
		if it.Answer == "infeasible" {
			continue
		}
		steps, ok := parseMoves(it.Answer)
		if !ok || g.walk(steps) != walkEnd {
			t.Fatalf("seed %d: reference %q is not a valid path", seed, it.Answer)
		}
		if d := manhattan(g.start, g.end); len(steps) < d {
			t.Fatalf("seed %d: %d moves, shorter than distance %d", seed, len(steps), d)
		}
	}
}

func manhattan(a, b [2]int) int {
	d := 0
	for i := range a {
		if a[i] > b[i] {
			d += a[i] - b[i]
		} else {
			d += b[i] - a[i]
		}
	}
	return d
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:largest_island": {
			{Options: map[string]any{"min_rows": 11}, Option: "max_rows"},
			{Options: map[string]any{"min_num_islands": 6}, Option: "max_num_islands"},
			{Options: map[string]any{"max_island_size": 1001}, Option: "max_island_size"},
		},
		"rg:shortest_path": {
			{Options: map[string]any{"min_rows": 9}, Option: "max_rows"},
			{Options: map[string]any{"min_rows": 1, "min_cols": 1}, Option: "min_cols"},
			{Options: map[string]any{"p_blocked": 1.5}, Option: "p_blocked"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}
