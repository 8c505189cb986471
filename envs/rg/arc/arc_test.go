package arc

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

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{})
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

func TestBoardScore(t *testing.T) {
	it := &rg.Item{Answer: "0 1 2\n3 4 5", Data: Grid{{0, 1, 2}, {3, 4, 5}}}
	checkScores(t, scoreBoard, it, []scoreCase{
		{"0 1 2\n3 4 5", 1},
		{"  0 1 2  \n 3 4 5 \n", 1},
		{"Shape: 2x3\n0 1 2\n3 4 5", 1},
		{"0  1 2\r\n3 4 5", 1},
		{"012\n345", 1},
		{"0,1,2\n3,4,5", 1},
		{"[[0, 1, 2], [3, 4, 5]]", 1},
		{"[[0,1,2],\n [3,4,5]]", 1},
		{"0 1 2\n\n3 4 5", 1},
		{"0 1 2\n3 4 6", 0.05},
		{"3 4 5\n0 1 2", 0.05},
		{"0 1 2 3 4 5", 0.05},
		{"", 0.05}, // parse_board reads an empty grid
		{"the grid is 0 1 2", 0},
		{"0 1 2\n3 4 a", 0},
	})
}

func TestBoardFeedback(t *testing.T) {
	it := &rg.Item{Answer: "0 1 2\n3 4 5", Data: Grid{{0, 1, 2}, {3, 4, 5}}}
	for answer, want := range map[string]string{
		"0 1 2\n3 4 6": "1 of its 6 cells are wrong",
		"0 1\n3 4":     "Your grid is 2×2; the output grid is 2×3.",
		"0 1 2\n3":     "ragged",
		"abc":          "not a grid",
	} {
		if got := boardFeedback(answer, it, 0); !strings.Contains(got, want) {
			t.Errorf("feedback on %q: %q, want it to contain %q", answer, got, want)
		}
	}
}
