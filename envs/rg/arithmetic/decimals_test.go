package arithmetic

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

func TestDecimalChainSum(t *testing.T) {
	for seed := range uint64(100) {
		it := item(t, decimalChainSumTask, decimalChainSumTask.Defaults, seed)
		f := strings.Fields(it.Meta["expression"].(string))
		sum, _ := parseDecimal(f[0])
		places := 0
		for i, s := range f {
			if i%2 == 1 {
				continue
			}
			_, frac, _ := strings.Cut(s, ".")
			places = max(places, len(frac))
			if frac != "" && frac[0] == '0' {
				t.Fatalf("%s: a fraction's first decimal is never 0 in reasoning-gym", s)
			}
			if i > 0 {
				v, _ := parseDecimal(s)
				if f[i-1] == "+" {
					sum.Add(sum, v)
				} else {
					sum.Sub(sum, v)
				}
			}
		}
		if want := sum.FloatString(places); it.Answer != want {
			t.Fatalf("%v = %s, item says %s", f, want, it.Answer)
		}
	}
	it := &rg.Item{Answer: "19008.9007"}
	checkScores(t, decimalChainSumTask.Score, it, []scoreCase{
		{"19008.9007", 1}, {"19008.90070", 1}, {"19,008.9007", 1}, {"1.90089007e4", 1}, {"+19008.9007", 1},
		{"19008.9", 0}, {"19008.9008", 0}, {"about 19008.9007", 0}, {"", 0},
	})
	whole := item(t, decimalChainSumTask, DecimalChainSumOptions{MinTerms: 2, MaxTerms: 2, MinDigits: 1, MaxDigits: 1, AllowNegation: true}, 7)
	if strings.Contains(whole.Answer, ".") {
		t.Fatalf("no decimal places, yet %s", whole.Answer)
	}
}

func TestDecimalArithmetic(t *testing.T) {
	for seed := range uint64(100) {
		it := item(t, decimalArithmeticTask, decimalArithmeticTask.Defaults, seed)
		expr := it.Meta["expression"].(string)
		if strings.ContainsAny(expr, " ") || !strings.HasSuffix(it.Question, expr+" = ?") {
			t.Fatalf("question %q", it.Question)
		}
		for _, n := range strings.FieldsFunc(expr, func(r rune) bool { return strings.ContainsRune("+-*/()", r) }) {
			_, frac, _ := strings.Cut(n, ".")
			v, _ := parseDecimal(n)
			if len(frac) != 3 || v.Sign() <= 0 || v.Cmp(big.NewRat(10, 1)) > 0 {
				t.Fatalf("operand %s: want 3 decimals, 0 < v ≤ 10", n)
			}
		}
		if digits := strings.TrimLeft(strings.NewReplacer("-", "", ".", "").Replace(it.Answer), "0"); len(digits) > 12 {
			t.Fatalf("%s has more than 12 significant digits", it.Answer)
		}
	}
	// (9.900-3.020)/7.420+6.016 = 6.943223719676549865…
	v, err := evalDecimal("(9.900-3.020)/7.420+6.016")
	if err != nil {
		t.Fatal(err)
	}
	if got := formatRat(roundSig(v, 12)); got != "6.94322371968" {
		t.Fatalf("rounded to %s", got)
	}
	if got := formatRat(roundSig(big.NewRat(125, 1000), 2)); got != "0.12" { // half to even
		t.Fatalf("0.125 to 2 digits: %s", got)
	}
	if got := formatRat(roundSig(big.NewRat(-135, 1000), 2)); got != "-0.14" {
		t.Fatalf("-0.135 to 2 digits: %s", got)
	}
	if _, err := evalDecimal("1.000/(2.000-2.000)"); err != errDivZero {
		t.Fatalf("division by zero: %v", err)
	}
	it := item(t, decimalArithmeticTask, decimalArithmeticTask.Defaults, 0)
	checkScores(t, decimalArithmeticTask.Score, &it, []scoreCase{
		{"6.94322371968", 1},
		{"6.943", 1},  // within 10^-3, reasoning-gym's tolerance
		{"6.9432", 1}, // likewise
		{"6.942", 0},
		{"6.945", 0},
		{"six", 0},
		{"", 0},
	})
}

func TestDecimalArithmeticTolerance(t *testing.T) {
	// A value near 10^13 rounds to 12 digits at the tens; the exact answer
	// still scores 1 (reasoning-gym would give it 0).
	exact := big.NewRat(12345678901234567, 1000)
	it := &rg.Item{Answer: formatRat(roundSig(exact, 12)), Data: decimalArithmeticData{exact: exact, tol: big.NewRat(1, 1000)}}
	if it.Answer != "12345678901200" {
		t.Fatalf("reference %s", it.Answer)
	}
	checkScores(t, decimalArithmeticTask.Score, it, []scoreCase{
		{"12345678901234.567", 1}, {"12345678901200", 1}, {"12345678901234.5", 0}, {"12345678901201", 0},
	})
}

func TestBitwiseArithmetic(t *testing.T) {
	seen := map[string]bool{}
	for seed := range uint64(200) {
		it := item(t, bitwiseArithmeticTask, BitwiseArithmeticOptions{Difficulty: 3}, seed)
		p := it.Meta["problem"].(string)
		for _, op := range []string{" + ", " - ", " * ", " << ", " >> "} {
			if strings.Contains(p, op) {
				seen[op] = true
			}
		}
		v, err := evalHexForTest(p)
		if err != nil || pyHex(v) != it.Answer {
			t.Fatalf("%s = %v (%v), item says %s", p, v, err, it.Answer)
		}
	}
	if len(seen) != 5 {
		t.Fatalf("operators seen: %v", seen)
	}
	// Shifts of negatives floor, as Python's.
	checkScores(t, bitwiseArithmeticTask.Score, &rg.Item{Data: big.NewInt(-3)}, []scoreCase{
		{"-0x3", 1}, {"-0X3", 1}, {"-3", 1}, {"-0b11", 1}, {"-0o3", 1},
		{"0x3", 0}, {"0xfffffffd", 0}, {"-03", 0}, {"three", 0}, {"", 0},
	})
	checkScores(t, bitwiseArithmeticTask.Score, &rg.Item{Data: big.NewInt(0x19a846c98)}, []scoreCase{
		{"0x19a846c98", 1}, {"0x19A846C98", 1}, {"0x1_9a84_6c98", 1}, {"6887337112", 1}, {"+0x19a846c98", 1}, {"0x19a846c99", 0},
	})
	// A shift of a negative floors, as Python's: (0x100 - 0x105) >> 0x1 is -3.
	var b strings.Builder
	if v := hexExpression(envs.NewRand(0), &b, 0); v.Sign() <= 0 {
		t.Fatalf("leaf %v", v)
	}
	if v, err := evalHexForTest("((0x100 - 0x105) >> 0x1)"); err != nil || v.Int64() != -3 {
		t.Fatalf("(-5 >> 1) = %v, %v", v, err)
	}
}

func TestPowerFunction(t *testing.T) {
	it := &rg.Item{Answer: "2311220747938145.5"}
	checkScores(t, powerFunctionTask.Score, it, []scoreCase{
		{"2.31e+15", 1}, {"2.31e15", 1}, {"2.31E+15", 1}, {"2.311e15", 1}, {"2311220747938145.5", 1},
		{"2.31 × 10^15", 1}, {"2.31 \\times 10^{15}", 1}, {"2.31*10^15", 1}, {"2,311,220,747,938,145", 1},
		{"2.32e+15", 0.01}, {"2.31e+14", 0.01}, {"two", 0.01}, {"", 0.01},
	})
	checkScores(t, powerFunctionTask.Score, &rg.Item{Answer: "-1.3877787807814457e-17"}, []scoreCase{
		{"-1.39e-17", 1}, {"-1.39 × 10^-17", 1}, {"1.39e-17", 0.01},
	})
	// Half to even at the third figure: 1.225 → 1.22; 1.235 → 1.24.
	checkScores(t, powerFunctionTask.Score, &rg.Item{Answer: "1.225"}, []scoreCase{{"1.22", 1}, {"1.23", 0.01}})
	for seed := range uint64(100) {
		it := item(t, powerFunctionTask, powerFunctionTask.Defaults, seed)
		if !strings.Contains(it.Question, "Compute ") || !strings.Contains(it.Question, "'e' notation") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if got := pyFloat(1e16); got != "1e+16" {
		t.Fatalf("pyFloat(1e16) = %s", got)
	}
	if got := pyFloat(0.0001); got != "0.0001" {
		t.Fatalf("pyFloat(0.0001) = %s", got)
	}
	if got := pyFloat(0.00001234); got != "1.234e-05" {
		t.Fatalf("pyFloat(1.234e-5) = %s", got)
	}
	if got := pyFloat(-5); got != "-5.0" {
		t.Fatalf("pyFloat(-5) = %s", got)
	}
}

func TestLegCounting(t *testing.T) {
	it := item(t, legCountingTask, LegCountingOptions{MinAnimals: 37, MaxAnimals: 37, MinInstances: 1, MaxInstances: 1}, 0)
	// Every animal once: 0*5 + 2*4 + 4*10 + 5 + 6*11 + 8*2 + 10*3 + 14.
	if it.Answer != "179" || strings.Contains(it.Question, "snakes") {
		t.Fatalf("%s: %q", it.Answer, it.Question)
	}
	it = item(t, legCountingTask, LegCountingOptions{MinAnimals: 1, MaxAnimals: 1, MinInstances: 3, MaxInstances: 3}, 1)
	if !strings.Contains(it.Question, "have 3 ") || !strings.HasSuffix(it.Question, "s?\n") {
		t.Fatalf("%q", it.Question)
	}
	checkScores(t, scoreInteger, &rg.Item{Answer: "1790"}, []scoreCase{{"1790", 1}, {"1,790", 1}, {"1790 legs", 4.0 / 9}, {"1789", 0}})
}

func TestDecimalOptionErrors(t *testing.T) {
	r := taskRegistry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:decimal_chain_sum": {
			{Options: map[string]any{"min_decimal_places": 5}, Option: "max_decimal_places"},
			{Options: map[string]any{"max_decimal_places": 13}, Option: "max_decimal_places"},
			{Options: map[string]any{"min_terms": 7}, Option: "max_terms"},
			{Options: map[string]any{"min_digits": 5}, Option: "max_digits"},
		},
		"rg:decimal_arithmetic": {
			{Options: map[string]any{"precision": 4}, Option: "precision"}, // reasoning-gym: precision > max places + 1
			{Options: map[string]any{"min_num_decimal_places": 4}, Option: "max_num_decimal_places"},
			{Options: map[string]any{"min_terms": 7}, Option: "max_terms"},
			{Options: map[string]any{"precision": 41}, Option: "precision"},
		},
		"rg:bitwise_arithmetic": {
			{Options: map[string]any{"difficulty": 0}, Option: "difficulty"},
			{Options: map[string]any{"difficulty": 11}, Option: "difficulty"},
		},
		"rg:power_function": {
			{Options: map[string]any{"min_base": 5, "max_base": 4}, Option: "max_base"},
			{Options: map[string]any{"min_exponent": 9}, Option: "max_exponent"},
			{Options: map[string]any{"max_exponent": 51}, Option: "max_exponent"},
			{Options: map[string]any{"max_base": 1e7}, Option: "max_base"},
		},
		"rg:leg_counting": {
			{Options: map[string]any{"max_animals": 38}, Option: "max_animals"},
			{Options: map[string]any{"min_animals": 11}, Option: "max_animals"},
			{Options: map[string]any{"min_instances": 16}, Option: "max_instances"},
			{Options: map[string]any{"min_instances": 0}, Option: "min_instances"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}

// evalHexForTest evaluates a fully parenthesised hex expression the way the
// generator's values are computed, independently of the generator.
func evalHexForTest(s string) (*big.Int, error) {
	f := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s))
	var stack []*big.Int
	var ops []string
	for _, tok := range f {
		switch tok {
		case "(":
		case "+", "-", "*", "<<", ">>":
			ops = append(ops, tok)
		case ")":
			r, l := stack[len(stack)-1], stack[len(stack)-2]
			stack = stack[:len(stack)-2]
			op := ops[len(ops)-1]
			ops = ops[:len(ops)-1]
			v := new(big.Int)
			switch op {
			case "+":
				v.Add(l, r)
			case "-":
				v.Sub(l, r)
			case "*":
				v.Mul(l, r)
			case "<<":
				v.Lsh(l, uint(r.Int64()))
			case ">>":
				v.Rsh(l, uint(r.Int64()))
			}
			stack = append(stack, v)
		default:
			v, ok := new(big.Int).SetString(tok, 0)
			if !ok {
				return nil, errors.New("bad literal " + tok)
			}
			stack = append(stack, v)
		}
	}
	return stack[0], nil
}
