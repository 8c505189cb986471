package arithmetic

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

var questionNumbers = regexp.MustCompile(`\d+`)

// numbersIn reads the integers a question states, in order.
func numbersIn(q string) []int {
	var out []int
	for _, s := range questionNumbers.FindAllString(q, -1) {
		n, _ := strconv.Atoi(s)
		out = append(out, n)
	}
	return out
}

// gsmChecks recompute some templates' answers from the question's numbers
// alone, as the GSM8K solution would.
var gsmChecks = map[int]func(n []int) int{
	1:  func(n []int) int { return n[3] - n[0] - n[1] - n[2] },
	6:  func(n []int) int { return n[0] * (1 + n[1]) },
	20: func(n []int) int { return n[1] - n[0]*n[2] },
	43: func(n []int) int { return 2*n[0] - n[1] },
	50: func(n []int) int { return n[0]/2 + n[1] },
	58: func(n []int) int { return n[0] * n[1] * n[2] },
	81: func(n []int) int { return n[0] * n[1] * n[2] * 12 },
	88: func(n []int) int { return (n[0] - n[1] - n[2]) / n[1] },
	62: func(n []int) int { return n[0] / (3 * n[1]) },
	84: func(n []int) int { return n[3] * (n[0] + n[1]) },
	94: func(n []int) int { return n[0] * n[1] * (100 + n[2]) * (100 - n[3]) / 10000 },
	96: func(n []int) int { return n[2]*n[0] + n[3]*(2*n[0]-n[1]) },
	54: func(n []int) int { return n[0] - n[1] - n[2] },
	57: func(n []int) int { return 3*n[0] + n[1] + n[2] },
	68: func(n []int) int { return n[0] * (1 + n[1]) * (1 + n[1]) * (1 + n[1]) },
	70: func(n []int) int { return n[0] - n[1] + n[2] - n[3] },
	71: func(n []int) int { return n[0]*n[1] + n[2]*n[3] + n[4]*n[5] },
	73: func(n []int) int { return (2*n[0]+n[2])*n[4] + (2*n[3]-n[1])*n[5] },
	44: func(n []int) int { return n[0]*n[3] + n[1]*n[4] + n[2]*n[5] },
	45: func(n []int) int { return n[2] + n[1] - n[0] },
	48: func(n []int) int { return n[2]*n[0] - n[3]*n[1] },
	49: func(n []int) int { return (n[2]*(100-n[4]) - n[3]*n[0]) / n[1] },
	33: func(n []int) int { return (n[1] + n[0]*n[1]) * 7 },
	36: func(n []int) int { return n[0]*n[1]*n[2]/10000 + (n[0]-n[0]*n[1]/100)/2 },
	39: func(n []int) int { return n[0] - n[1] - n[3] },
	40: func(n []int) int { return 2 * (2*n[0] + n[0]*n[1]/100) },
	41: func(n []int) int { return n[3] - n[3]/2 - n[2] },
	17: func(n []int) int { return n[0] - n[0]/n[2] - n[3]*7*n[4] },
	18: func(n []int) int { return n[0] + n[0]/2 + n[1] },
	28: func(n []int) int { return (n[0]+n[0]*n[1]/100)*n[2]*7 + n[3] },
	29: func(n []int) int { return 100 * (n[1] + n[3]) / (n[0] + n[2]) },
	3:  func(n []int) int { return (n[0] - n[1]) * n[2] * n[3] * n[4] / 60 },
	5:  func(n []int) int { return n[4] - n[1] - n[2] },
	9:  func(n []int) int { return n[0]*n[1] - n[2]*n[3] - n[4]*n[5] },
	13: func(n []int) int { return n[0]/n[1] - n[2]/n[3] },
	12: func(n []int) int { return n[0]*n[2] + n[1]*n[3] },
	23: func(n []int) int { return n[0]*n[1] - n[2] },
	59: func(n []int) int { return n[2] / n[1] * n[0] },
	64: func(n []int) int { return (n[0]*n[1] + n[2]*n[3]) / 12 },
	72: func(n []int) int { return n[2] - 3*n[0] },
	75: func(n []int) int { return n[0]/2 + 3*n[1] },
	83: func(n []int) int { return (n[0] - n[1]) / 2 },
}

func TestGSMSymbolicTemplates(t *testing.T) {
	for _, idx := range gsmPorted {
		for seed := range uint64(50) {
			q, v := gsmTemplates[idx](gsmRand{envs.NewRand(seed)})
			if strings.ContainsAny(q, "{}") || strings.Contains(q, "%!") || v < 0 {
				t.Fatalf("template %d seed %d: %q = %v", idx, seed, q, v)
			}
			if check, ok := gsmChecks[idx]; ok {
				if want := check(numbersIn(q)); float64(want) != v {
					t.Fatalf("template %d: %q is %d, template says %v", idx, q, want, v)
				}
			}
		}
	}
	drawn := map[any]bool{}
	for seed := range uint64(1000) {
		it := item(t, gsmSymbolicTask, gsmSymbolicTask.Defaults, seed)
		drawn[it.Meta["template"]] = true
		if !strings.HasSuffix(it.Question, "? Give the result as your final answer. Do not include units.") &&
			!strings.HasSuffix(it.Question, ". Give the result as your final answer. Do not include units.") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if len(drawn) != len(gsmPorted) {
		t.Fatalf("1000 items drew %d of the %d ported templates", len(drawn), len(gsmPorted))
	}
	// Every template of reasoning-gym's tasks_ok, none of its tasks_need_fix.
	for i := range 100 {
		if _, ok := gsmTemplates[i]; ok == slices.Contains(gsmNeedFix, i) {
			t.Errorf("template %d: ported %v, in tasks_need_fix %v", i, ok, !ok)
		}
	}
}

// gsmNeedFix is reasoning-gym's tasks_need_fix: never drawn.
var gsmNeedFix = []int{32, 35, 37, 61, 63, 65, 74, 76, 77, 79, 86, 87, 90, 97, 98}

func TestGSMFormat(t *testing.T) {
	for v, want := range map[float64]string{12: "12", 12.5: "12.5", 3.25: "3.25", 0.1: "0.1", 1e6: "1000000"} {
		if got := gsmFormat(v); got != want {
			t.Errorf("gsmFormat(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestGSMSymbolicScore(t *testing.T) {
	it := &rg.Item{Answer: "1200", Data: 1200.0}
	checkScores(t, scoreGSM, it, []scoreCase{
		{"1200", 1}, {"1200.0", 1}, {"1,200", 1}, {"$1,200", 1}, {"1200 dollars", 1}, {"The answer is 1200.", 1},
		{"1201", 0.01}, {"120", 0.01}, {"12 00", 0.01}, {"none", 0}, {"", 0},
	})
	checkScores(t, scoreGSM, &rg.Item{Answer: "2.5", Data: 2.5}, []scoreCase{{"2.5", 1}, {"2.50", 1}, {"2", 0.01}})
	checkScores(t, scoreGSM, &rg.Item{Answer: "-3", Data: -3.0}, []scoreCase{{"-3", 1}, {"3", 0.01}})
}
