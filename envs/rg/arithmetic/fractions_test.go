package arithmetic

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestFractionSimplificationItems(t *testing.T) {
	styles := map[string]bool{}
	for seed := range uint64(200) {
		it := item(t, fractionSimplificationTask, fractionSimplificationTask.Defaults, seed)
		f := it.Data.(fraction)
		if gcd64(int64(f.simpleNum), int64(f.simpleDen)) != 1 || f.simpleNum > f.simpleDen {
			t.Fatalf("%d/%d is not reduced with the numerator smaller", f.simpleNum, f.simpleDen)
		}
		if f.num*f.simpleDen != f.den*f.simpleNum || f.num%f.simpleNum != 0 {
			t.Fatalf("%d/%d does not reduce to %d/%d", f.num, f.den, f.simpleNum, f.simpleDen)
		}
		style := it.Meta["style"].(string)
		styles[style] = true
		if !strings.Contains(it.Question, formatFraction(f.num, f.den, style)) || it.Answer != formatFraction(f.simpleNum, f.simpleDen, style) {
			t.Fatalf("style %s: %q answered %q", style, it.Question, it.Answer)
		}
	}
	if len(styles) != len(fractionStyles) {
		t.Fatalf("styles drawn: %v", styles)
	}
	o := fractionSimplificationTask.Defaults
	o.Styles = []string{"latex_dfrac"}
	if it := item(t, fractionSimplificationTask, o, 3); !strings.HasPrefix(it.Answer, `$\dfrac{`) {
		t.Fatalf("styles [latex_dfrac] gave %q", it.Answer)
	}
}

func TestFractionSimplificationScore(t *testing.T) {
	it := &rg.Item{Answer: `$\frac{3}{4}$`, Data: fraction{num: 36, den: 48, simpleNum: 3, simpleDen: 4}}
	checkScores(t, scoreFraction, it, []scoreCase{
		{`$\frac{3}{4}$`, 1},
		{`\frac{3}{4}`, 1},
		{`\dfrac{3}{4}`, 1},
		{`\tfrac{3}{4}`, 1},
		{`\frac 3 4`, 0.01},
		{"3/4", 1},
		{" 3 / 4 ", 1},
		{"$3/4$", 1},
		{"6/8", 0.05},
		{"36/50", 0.1}, // the question's numerator
		{"1/48", 0.1},  // the question's denominator
		{"4/3", 0.05},
		{"0.75", 0.01},
		{"", 0.01},
	})
}

func TestFractionSimplificationOptionErrors(t *testing.T) {
	envtest.OptionErrors(t, taskRegistry(t), "rg:fraction_simplification", []envtest.OptionCase{
		{Options: map[string]any{"min_value": 1000}, Option: "max_value"},
		{Options: map[string]any{"min_factor": 101}, Option: "max_factor"},
		{Options: map[string]any{"min_factor": 0}, Option: "min_factor"},
		{Options: map[string]any{"styles": []any{"mixed"}}, Option: "styles"},
		{Options: map[string]any{"styles": []any{}}, Option: "styles"},
	})
}
