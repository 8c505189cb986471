package algorithmic

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestBinaryAlternation(t *testing.T) {
	for s, want := range map[string]int{"010": 0, "0100": -1, "111000": 1, "1100": 1, "0": 0, "11": -1, "10101": 0, "00111": 1} {
		if got := alternationSwaps(s); got != want {
			t.Errorf("alternationSwaps(%q) = %d, want %d", s, got, want)
		}
	}
	unsolvable := 0
	for seed := range uint64(100) {
		it := numItem(t, binaryAlternationTask, binaryAlternationTask.Defaults, seed)
		if it.Meta["solvable"].(bool) != (it.Answer != "-1") {
			t.Fatalf("%v: answer %s", it.Meta, it.Answer)
		}
		if it.Answer == "-1" {
			unsolvable++
		}
	}
	if unsolvable < 5 || unsolvable > 40 {
		t.Fatalf("%d of 100 unsolvable, want about 20", unsolvable)
	}
	it := rg.Item{Answer: "-1"}
	numCheck(t, numScoreInt, &it, []numCase{{"-1", 1}, {"-1.0", 1}, {"1", 0}, {"impossible: -1", 2.0 / 14}})
}

func TestBinaryMatrix(t *testing.T) {
	it := rg.Item{Answer: "0 1\n1 2"}
	numCheck(t, binaryMatrixTask.Score, &it, []numCase{
		{"0 1\n1 2", 1},
		{"0  1 \n 1 2\n", 1},
		{"\n0 1\n\n1 2", 1},
		{"[[0, 1], [1, 2]]", 0.1},
		{"[[0,1],[1,2]]", 0.1},
		{"0 1\n1 1", 0},
		{"0 1 1 2", 0},
		{"[[0, 1], [1, 1]]", 0},
		{"", 0},
	})
	m := [][]int{{1, 1, 1}, {1, 0, 1}, {1, 1, 1}}
	d := gridDistances(m, func(x int) bool { return x == 0 }, func(int) bool { return true })
	if got := gridString(d); got != "2 1 2\n1 0 1\n2 1 2" {
		t.Fatalf("distances\n%s", got)
	}
	for seed := range uint64(50) {
		it := numItem(t, binaryMatrixTask, binaryMatrixTask.Defaults, seed)
		m := it.Meta["matrix"].([][]int)
		d := it.Meta["solution"].([][]int)
		// Brute force: the smallest |di|+|dj| to a 0.
		for i := range m {
			for j := range m[i] {
				best := 1 << 30
				for a := range m {
					for b := range m[a] {
						if m[a][b] == 0 {
							best = min(best, numAbs(a-i)+numAbs(b-j))
						}
					}
				}
				if d[i][j] != best {
					t.Fatalf("seed %d cell %d,%d: %d, want %d", seed, i, j, d[i][j], best)
				}
			}
		}
	}
}

func numAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestRotateMatrix(t *testing.T) {
	if got := gridString(gridRot90([][]int{{1, 2}, {3, 4}})); got != "3 1\n4 2" {
		t.Fatalf("rot90:\n%s", got)
	}
	it := numItem(t, rotateMatrixTask, RotateMatrixOptions{MinN: 3, MaxN: 3, MinRotations: 5, MaxRotations: 5}, 1)
	m := it.Meta["matrix"].([][]int)
	if want := gridString(gridRot90(m)); it.Answer != want || !strings.Contains(it.Question, "by 450 degrees clockwise:\n") {
		t.Fatalf("450 degrees: %q, want %q", it.Answer, want)
	}
	numCheck(t, rotateMatrixTask.Score, &rg.Item{Answer: "3 1\n4 2"}, []numCase{
		{"3 1\n4 2", 1}, {"3 1 \n4 2 ", 1}, {"3 1\n4 3", 0}, {"1 2\n3 4", 0}, {"x\n3 1\n4 2", 7.0 / 9},
	})
}

func TestSpiralMatrix(t *testing.T) {
	for _, c := range []struct {
		m    [][]int
		want []int
	}{
		{[][]int{{1, 2}, {3, 4}}, []int{1, 2, 4, 3}},
		{[][]int{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, []int{1, 2, 3, 6, 9, 8, 7, 4, 5}},
		{[][]int{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}, []int{1, 2, 3, 4, 8, 12, 16, 15, 14, 13, 9, 5, 6, 7, 11, 10}},
		{[][]int{{1, 2, 3}, {4, 5, 6}}, []int{1, 2, 3, 6, 5, 4}},
		{[][]int{{1}, {2}, {3}}, []int{1, 2, 3}},
	} {
		if got := spiralOrder(c.m); !slices.Equal(got, c.want) {
			t.Errorf("spiral(%v) = %v, want %v", c.m, got, c.want)
		}
	}
	it := rg.Item{Answer: "1 2 4 3"}
	numCheck(t, spiralMatrixTask.Score, &it, []numCase{
		{"1 2 4 3", 1}, {"1  2 4\n3", 1}, {"[1, 2, 4, 3]", 0.1}, {"1, 2, 4, 3", 0.1}, {"1 2 3 4", 0}, {"", 0},
	})
}

func TestManipulateMatrix(t *testing.T) {
	g := [][]int{{1, 2, 3}, {4, 5, 6}}
	for tr, want := range map[int]string{
		mtHMirror: "4 5 6\n1 2 3",
		mtVMirror: "3 2 1\n6 5 4",
		mtDMirror: "1 4\n2 5\n3 6",
		mtCMirror: "6 3\n5 2\n4 1",
	} {
		got, _ := manipulateOnce(nil, g, tr)
		if gridString(got) != want {
			t.Errorf("transform %d:\n%s\nwant\n%s", tr, gridString(got), want)
		}
	}
	// Only row removals weigh anything: reasoning-gym's loop would spin on
	// a one-row matrix; Quarry draws among what applies.
	o := manipulateMatrixTask.Defaults
	o.WRotate, o.WHMirror, o.WVMirror, o.WDMirror, o.WCMirror, o.WMap, o.WCrop, o.WRemoveEveryNthCol, o.WZeroDivisible = -10, -10, -10, -10, -10, -10, -10, -10, -10
	o.WRemoveEveryNthRow, o.MinTransforms, o.MaxTransforms = 10, 100, 100
	it := numItem(t, manipulateMatrixTask, o, 3)
	if n := len(it.Meta["operations"].([]string)); n != 100 {
		t.Fatalf("%d operations, want 100", n)
	}
	numCheck(t, manipulateMatrixTask.Score, &rg.Item{Answer: "1 2\n3 4"}, []numCase{
		{"1 2\n3 4", 1}, {"1 2 \n 3 4", 1}, {"1 2\n3 5", 0}, {"matrix:\n1 2\n3 4", 7.0 / 15},
	})
	for seed := range uint64(50) {
		it := numItem(t, manipulateMatrixTask, manipulateMatrixTask.Defaults, seed)
		if !strings.Contains(it.Question, "in order:\n- Identity transformation, i.e. no change\n- ") {
			t.Fatalf("question %q", it.Question)
		}
		if len(it.Meta["operations"].([]string)) != it.Meta["num_transforms"].(int) {
			t.Fatal("operations and num_transforms differ")
		}
	}
}

func TestPoolMatrix(t *testing.T) {
	o := PoolMatrixOptions{MinRows: 3, MaxRows: 3, MinCols: 3, MaxCols: 3, MinPoolSize: 2, MaxPoolSize: 2}
	for seed := range uint64(20) {
		it := numItem(t, poolMatrixTask, o, seed)
		m := it.Meta["matrix"].([][]int)
		got := gridTokens(it.Answer)
		if len(got) != 2 || len(got[0]) != 2 {
			t.Fatalf("shape of\n%s", it.Answer)
		}
		if it.Meta["pool_type"] == "max" {
			if want := strconv.Itoa(max(m[0][0], m[0][1], m[1][0], m[1][1])); got[0][0] != want {
				t.Fatalf("max %s, want %s", got[0][0], want)
			}
			if want := strconv.Itoa(m[2][2]); got[1][1] != want {
				t.Fatalf("corner %s, want %s", got[1][1], want)
			}
		} else if want := numPyFloat(numPyRound(float64(m[0][2]+m[1][2])/2, 2)); got[0][1] != want {
			t.Fatalf("average %s, want %s", got[0][1], want)
		}
	}
	it := rg.Item{Answer: "4.5 3.0\n2.33 7.0", Data: [][]float64{{4.5, 3}, {2.33, 7}}}
	numCheck(t, poolMatrixTask.Score, &it, []numCase{
		{"4.5 3.0\n2.33 7.0", 1},
		{"4.50 3\n2.333 7", 1},
		{"4.5 3.0\n2.35 7.0", 1}, // within numpy's rtol 1e-2
		{"4.5 3.0\n2.5 7.0", 0.1},
		{"4.5 3.0", 0},
		{"4.5, 3.0\n2.33, 7.0", 0},
		{"", 0},
	})
}

func TestRottenOranges(t *testing.T) {
	for seed := range uint64(30) {
		it := numItem(t, rottenOrangesTask, rottenOrangesTask.Defaults, seed)
		if want := strconv.Itoa(simulateOranges(it.Meta["matrix"].([][]int))); it.Answer != want {
			t.Fatalf("seed %d: %s, simulation says %s", seed, it.Answer, want)
		}
	}
}

// simulateOranges rots minute by minute, independently of the BFS.
func simulateOranges(m [][]int) int {
	g := make([][]int, len(m))
	for i := range m {
		g[i] = slices.Clone(m[i])
	}
	for minute := 0; ; minute++ {
		var next [][2]int
		fresh := 0
		for i := range g {
			for j := range g[i] {
				if g[i][j] != 1 {
					continue
				}
				fresh++
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					a, b := i+d[0], j+d[1]
					if a >= 0 && a < len(g) && b >= 0 && b < len(g) && g[a][b] == 2 {
						next = append(next, [2]int{i, j})
						break
					}
				}
			}
		}
		if fresh == 0 {
			return minute
		}
		if len(next) == 0 {
			return -1
		}
		for _, c := range next {
			g[c[0]][c[1]] = 2
		}
	}
}

func TestGridOptionErrors(t *testing.T) {
	r := numRegistry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:binary_alternation": {{Options: map[string]any{"min_n": 0}, Option: "min_n"}, {Options: map[string]any{"min_n": 40}, Option: "max_n"}, {Options: map[string]any{"p_solvable": 1.5}, Option: "p_solvable"}},
		"rg:binary_matrix":      {{Options: map[string]any{"p_zero": 0}, Option: "p_zero"}, {Options: map[string]any{"max_n": 101}, Option: "max_n"}, {Options: map[string]any{"min_n": 11}, Option: "max_n"}},
		"rg:rotate_matrix":      {{Options: map[string]any{"min_n": 1}, Option: "min_n"}, {Options: map[string]any{"min_rotations": 11}, Option: "max_rotations"}},
		"rg:spiral_matrix":      {{Options: map[string]any{"min_n": 11}, Option: "max_n"}},
		"rg:manipulate_matrix":  {{Options: map[string]any{"min_rows": 11}, Option: "max_rows"}, {Options: map[string]any{"min_cols": 11}, Option: "max_cols"}, {Options: map[string]any{"min_transforms": 11}, Option: "max_transforms"}, {Options: map[string]any{"w_map": 11}, Option: "w_map"}},
		"rg:pool_matrix":        {{Options: map[string]any{"min_pool_size": 4}, Option: "max_pool_size"}, {Options: map[string]any{"min_cols": 1}, Option: "min_cols"}},
		"rg:rotten_oranges":     {{Options: map[string]any{"p_rotten": 0}, Option: "p_rotten"}, {Options: map[string]any{"p_oranges": 0}, Option: "p_oranges"}, {Options: map[string]any{"min_n": 31}, Option: "max_n"}},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}

func TestPoolFeedback(t *testing.T) {
	it := rg.Item{Answer: "4.5 3.0\n2.33 7.0", Data: [][]float64{{4.5, 3}, {2.33, 7}}}
	for answer, want := range map[string]string{
		"4.50 3\n2.5 7": "Your matrix has the right shape, but 1 of its 4 entries are off by more than 1%.",
		"4.5 3.0":       "Your matrix has 1 rows; the answer has 2.",
	} {
		if got := poolMatrixTask.Feedback(answer, &it, poolMatrixTask.Score(answer, &it)); got != want {
			t.Errorf("feedback(%q) = %q, want %q", answer, got, want)
		}
	}
}
