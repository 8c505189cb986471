package arithmetic

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// ceilings raise the random policy's allowed mean where reasoning-gym's
// partial credit or a few choices reward a well-formed guess.
var ceilings = map[string]float64{
	// Credit falls linearly to 0 at the largest difference: a duration
	// drawn from the same range earns about 2/3.
	"rg:time_intervals": 0.7,
	// A weekday name earns 0.1, a yes/no guess is right half the time,
	// and counts earn exp(-5 × relative error).
	"rg:calendar_arithmetic": 0.35,
}

// taskRegistry holds the rg.Task ids (rg:basic_arithmetic is a standalone
// env with its own tests).
func taskRegistry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, registerTasks) }

func TestSuite(t *testing.T) {
	rgtest.Run(t, taskRegistry(t), rgtest.Config{Ceilings: ceilings})
}

// taskNames are the family's reasoning-gym datasets besides basic_arithmetic.
var taskNames = []string{
	"chain_sum", "count_bits", "gcd", "lcm", "prime_factorization", "products",
	"decimal_chain_sum", "decimal_arithmetic", "bitwise_arithmetic", "power_function", "leg_counting",
	"number_format", "fraction_simplification", "time_intervals",
	"calendar_arithmetic", "dice", "gsm_symbolic",
}

// TestRegister: Register adds basic_arithmetic and every task, with the
// retry variant exactly where documented.
func TestRegister(t *testing.T) {
	r := registry(t)
	noRetry := map[string]bool{"calendar_arithmetic": true, "number_format": true}
	if _, err := r.Lookup(ID); err != nil {
		t.Error(err)
	}
	for _, name := range taskNames {
		if _, err := r.Lookup(rg.ID(name)); err != nil {
			t.Error(err)
		}
		_, err := r.Lookup(rg.ID(name) + rg.RetrySuffix)
		if (err == nil) == noRetry[name] {
			t.Errorf("%s: retry variant registered: %v, want %v", name, err == nil, !noRetry[name])
		}
	}
	if n := len(r.IDs()); n != 1+2*len(taskNames)-len(noRetry)+countMissing(taskNames, noRetry) {
		t.Errorf("%d ids registered", n)
	}
}

func countMissing(names []string, set map[string]bool) int {
	n := len(set)
	for _, name := range names {
		if set[name] {
			n--
		}
	}
	return n
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, taskRegistry(b)) }

type scoreCase struct {
	answer string
	want   float64
}

// checkScores grades each answer against it with score.
func checkScores(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

// item generates the task's item for seed with options o.
func item[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestChainSumScore(t *testing.T) {
	it := &rg.Item{Answer: "-1234"}
	checkScores(t, scoreDecimal, it, []scoreCase{
		{"-1234", 1},
		{"-1,234", 1},
		{"-1 234", 1},
		{"-1234.0", 1},
		{"-01234.00", 1},
		{"-1.234e3", 1},
		{"1234", 0},
		{"-1235", 0},
		{"x = -1234", 5.0 / 9}, // reasoning-gym's containment credit
		{"", 0},
		{"1e99999999", 0}, // a huge exponent is refused, not computed
	})
	checkScores(t, scoreDecimal, &rg.Item{Answer: "1000"}, []scoreCase{{"+1,000", 1}, {"1000.000", 1}, {"100", 0}})
}

func TestChainSumItems(t *testing.T) {
	o := chainSumTask.Defaults
	o.AllowNegation = true
	negatives := 0
	for seed := range uint64(100) {
		it := item(t, chainSumTask, o, seed)
		expr := it.Meta["expression"].(string)
		// An independent evaluation: fields alternate operand, operator.
		f := strings.Fields(expr)
		sum, _ := new(big.Int).SetString(f[0], 10)
		for i := 1; i+1 < len(f); i += 2 {
			v, _ := new(big.Int).SetString(f[i+1], 10)
			if f[i] == "+" {
				sum.Add(sum, v)
			} else {
				sum.Sub(sum, v)
			}
		}
		if sum.String() != it.Answer {
			t.Fatalf("%s = %s, item says %s", expr, sum, it.Answer)
		}
		if strings.Contains(expr, "-") && strings.Contains(" "+expr, " -") {
			negatives++
		}
		if !strings.HasPrefix(it.Question, "State the final answer to the following arithmetic problem: ") || !strings.HasSuffix(it.Question, " =") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if negatives == 0 {
		t.Fatal("allow_negation drew no negative operand in 100 items")
	}
}

func TestProductsItems(t *testing.T) {
	o := productsTask.Defaults
	o.MinTerms, o.MaxTerms, o.MinDigits, o.MaxDigits = 3, 3, 18, 18
	it := item(t, productsTask, o, 4)
	f := strings.Split(it.Meta["expression"].(string), " * ")
	p := big.NewInt(1)
	for _, s := range f {
		v, _ := new(big.Int).SetString(s, 10)
		if len(s) != 18 {
			t.Fatalf("operand %s has %d digits, want 18", s, len(s))
		}
		p.Mul(p, v)
	}
	if len(f) != 3 || p.String() != it.Answer {
		t.Fatalf("%v: product %s, item says %s", f, p, it.Answer)
	}
	checkScores(t, scoreDecimal, &rg.Item{Answer: "123456"}, []scoreCase{{"123,456", 1}, {"123456.0", 1}, {"123457", 0}, {"1234567", 6.0 / 7}})
}

func TestIntegerScores(t *testing.T) {
	it := &rg.Item{Answer: "12"}
	checkScores(t, scoreInteger, it, []scoreCase{
		{"12", 1}, {"12.0", 1}, {"+12", 1}, {"1.2e1", 1},
		{"13", 0}, {"-12", 2.0 / 3}, {"GCD = 12", 2.0 / 8}, {"twelve", 0}, {"", 0},
	})
	checkScores(t, scoreInteger, &rg.Item{Answer: "1234567"}, []scoreCase{{"1,234,567", 1}, {"1 234 567", 1}, {"1234568", 0}})
}

func TestGCDItems(t *testing.T) {
	big1 := 0
	for seed := range uint64(200) {
		it := item(t, gcdTask, gcdTask.Defaults, seed)
		nums := it.Meta["numbers"].([]int64)
		g, _ := strconv.ParseInt(it.Answer, 10, 64)
		for _, n := range nums {
			if n%g != 0 || n < 1 || n > 1000 {
				t.Fatalf("%v: %d", nums, g)
			}
		}
		// No larger common divisor.
		for d := g + 1; d <= nums[0]; d++ {
			if nums[0]%d == 0 && nums[1]%d == 0 {
				t.Fatalf("%v: %d divides both, above %d", nums, d, g)
			}
		}
		if g > 1 {
			big1++
		}
	}
	// Three draws for a GCD above 1: about 1-(0.39)^3 of items.
	if big1 < 150 {
		t.Fatalf("%d of 200 items have a GCD above 1, want most", big1)
	}
}

func TestLCMItems(t *testing.T) {
	o := lcmTask.Defaults
	o.MinNumbers, o.MaxNumbers, o.MaxValue = 20, 20, 1000000
	it := item(t, lcmTask, o, 1)
	l, _ := new(big.Int).SetString(it.Answer, 10)
	for _, n := range it.Meta["numbers"].([]int64) {
		if new(big.Int).Mod(l, big.NewInt(n)).Sign() != 0 {
			t.Fatalf("%d does not divide %s", n, l)
		}
		// Minimal: l/p for each prime p of l is not a common multiple of all.
	}
	it = item(t, lcmTask, lcmTask.Defaults, 3)
	nums := it.Meta["numbers"].([]int64)
	want := nums[0] / gcd64(nums[0], nums[1]) * nums[1]
	if it.Answer != strconv.FormatInt(want, 10) {
		t.Fatalf("lcm%v = %s, want %d", nums, it.Answer, want)
	}
}

func TestCountBits(t *testing.T) {
	it := item(t, countBitsTask, CountBitsOptions{MinN: 255, MaxN: 255}, 0)
	if it.Answer != "8" || !strings.Contains(it.Question, "number 255?") {
		t.Fatalf("%q %q", it.Question, it.Answer)
	}
	it = item(t, countBitsTask, CountBitsOptions{MinN: 1 << 49, MaxN: 1 << 49}, 0)
	if it.Answer != "1" {
		t.Fatalf("2^49 has %s bits", it.Answer)
	}
}

func TestPrimeFactorization(t *testing.T) {
	it := item(t, primeFactorizationTask, PrimeFactorizationOptions{MinValue: 360, MaxValue: 360}, 0)
	if it.Answer != "2 × 2 × 2 × 3 × 3 × 5" {
		t.Fatalf("360 = %s", it.Answer)
	}
	checkScores(t, scorePrimeFactors, &it, []scoreCase{
		{"2 × 2 × 2 × 3 × 3 × 5", 1},
		{"2×2×2×3×3×5", 1},
		{"5 × 3 × 2 × 3 × 2 × 2", 1}, // order does not matter
		{"2^3 × 3^2 × 5", 1},
		{"2 * 2 * 2 * 3 * 3 * 5", 1},
		{`2 \times 2 \times 2 \times 3 \times 3 \times 5`, 1},
		{"2 x 2 x 2 x 3 x 3 x 5", 1},
		{"4 × 2 × 9 × 5", 0.5}, // the product, not all prime
		{"2 × 3 × 5", 0.01},
		{"", 0.01},
		{"two", 0},
	})
	it = item(t, primeFactorizationTask, PrimeFactorizationOptions{MinValue: 999999999989, MaxValue: 999999999989}, 0)
	if it.Answer != "999999999989" {
		t.Fatalf("a prime factors as %s", it.Answer)
	}
}

func TestTaskOptionErrors(t *testing.T) {
	r := taskRegistry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:chain_sum": {
			{Options: map[string]any{"min_terms": 5, "max_terms": 4}, Option: "max_terms"},
			{Options: map[string]any{"min_digits": 3, "max_digits": 2}, Option: "max_digits"},
			{Options: map[string]any{"max_terms": 101}, Option: "max_terms"},
			{Options: map[string]any{"min_digits": 0}, Option: "min_digits"},
			{Options: map[string]any{"max_digits": 19}, Option: "max_digits"},
		},
		"rg:products": {
			{Options: map[string]any{"min_terms": 3}, Option: "max_terms"},
			{Options: map[string]any{"min_terms": 0}, Option: "min_terms"},
		},
		"rg:gcd": {
			{Options: map[string]any{"min_numbers": 1}, Option: "min_numbers"},
			{Options: map[string]any{"min_numbers": 3}, Option: "max_numbers"},
			{Options: map[string]any{"min_value": 1000}, Option: "max_value"}, // reasoning-gym: max_value > min_value
			{Options: map[string]any{"max_value": 2000000000}, Option: "max_value"},
		},
		"rg:lcm": {
			{Options: map[string]any{"max_numbers": 21}, Option: "max_numbers"},
			{Options: map[string]any{"min_value": 0}, Option: "min_value"},
			{Options: map[string]any{"min_value": 100}, Option: "max_value"},
		},
		"rg:count_bits": {
			{Options: map[string]any{"min_n": 0}, Option: "min_n"},
			{Options: map[string]any{"min_n": 10, "max_n": 9}, Option: "max_n"},
		},
		"rg:prime_factorization": {
			{Options: map[string]any{"min_value": 1}, Option: "min_value"},
			{Options: map[string]any{"min_value": 10, "max_value": 9}, Option: "max_value"},
			{Options: map[string]any{"max_value": 1000000000001}, Option: "max_value"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}
