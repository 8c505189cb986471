package arithmetic

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// BitwiseArithmeticOptions are reasoning-gym's BitwiseArithmeticConfig:
// difficulty is the expression's nesting depth, 1..10 as reasoning-gym
// validates.
type BitwiseArithmeticOptions struct {
	Difficulty int `json:"difficulty" range:"1,10"`
}

var bitwiseArithmeticTask = rg.Task[BitwiseArithmeticOptions]{
	Name:        "bitwise_arithmetic",
	Description: "reasoning-gym bitwise_arithmetic: evaluate a nested + - * << >> expression of hexadecimal numbers (signed, arbitrary width); answer in hex.",
	Revision:    1,
	Defaults:    BitwiseArithmeticOptions{Difficulty: 2},
	Generate: func(rng *rand.Rand, o BitwiseArithmeticOptions) (rg.Item, error) {
		var b strings.Builder
		v := hexExpression(rng, &b, o.Difficulty)
		return rg.Item{
			Question: "Please solve this problem. Assume there is arbitrary bit depth and that there are signed integers. If the answer is negative, reply as a negative value (ex., -0x3), not the two's-compliment form. Reply only with the final hexidecimal value.\n" + b.String(),
			Answer:   pyHex(v),
			Data:     v,
			Meta:     map[string]any{"problem": b.String(), "difficulty": o.Difficulty},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym: int(answer, 0) equals the value (hex, decimal,
		// 0b, 0o; sign; case-insensitive).
		x, ok := pyInt(answer)
		if ok && x.Cmp(it.Data.(*big.Int)) == 0 {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return pyHex(big.NewInt(rng.Int64N(1<<32) - 1<<31))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		x, ok := pyInt(answer)
		switch {
		case !ok:
			return "Your answer is not an integer literal (use hexadecimal such as 0x1f or -0x3)."
		case x.Cmp(it.Data.(*big.Int)) > 0:
			return "Your answer is too high."
		}
		return "Your answer is too low."
	},
}

// hexExpression writes reasoning-gym's expression of depth at most depth and
// returns its value: a leaf is 0x100..0xffff; an inner node (a leaf instead
// with probability 1/100) is (left op right) with op among + - * << >>, a
// shift's right operand 0x0..0x3.
func hexExpression(rng *rand.Rand, b *strings.Builder, depth int) *big.Int {
	if depth <= 0 || rng.IntN(100) == 0 {
		v := randInt64(rng, 0x100, 0xffff)
		b.WriteString("0x" + strconv.FormatInt(v, 16))
		return big.NewInt(v)
	}
	op := []string{"+", "-", "*", "<<", ">>"}[rng.IntN(5)]
	b.WriteByte('(')
	l := hexExpression(rng, b, depth-1)
	b.WriteString(" " + op + " ")
	var r *big.Int
	if op == "<<" || op == ">>" {
		s := rng.IntN(4)
		b.WriteString("0x" + strconv.Itoa(s))
		r = big.NewInt(int64(s))
	} else {
		r = hexExpression(rng, b, depth-1)
	}
	b.WriteByte(')')
	switch op {
	case "+":
		return l.Add(l, r)
	case "-":
		return l.Sub(l, r)
	case "*":
		return l.Mul(l, r)
	case "<<":
		return l.Lsh(l, uint(r.Int64()))
	}
	return l.Rsh(l, uint(r.Int64())) // floor, as Python's >> on negatives
}

// pyHex is Python's hex(): "0x1f", "-0x3".
func pyHex(v *big.Int) string {
	if v.Sign() < 0 {
		return "-0x" + new(big.Int).Neg(v).Text(16)
	}
	return "0x" + v.Text(16)
}

// pyInt is Python's int(s, 0): an optional sign, then a 0x/0o/0b prefixed
// or a decimal literal (no leading zeros), underscores between digits.
func pyInt(s string) (*big.Int, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 0 || len(s) > maxAnswerLen {
		return nil, false
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return nil, false
	}
	l := strings.ToLower(body)
	if !strings.HasPrefix(l, "0x") && !strings.HasPrefix(l, "0o") && !strings.HasPrefix(l, "0b") &&
		len(strings.Trim(body, "0_")) > 0 && body[0] == '0' {
		return nil, false // "017": Python refuses; Go would read octal
	}
	v, ok := new(big.Int).SetString(s, 0)
	return v, ok
}

// PowerFunctionOptions are reasoning-gym's PowerFunctionConfig. reasoning-gym
// leaves them open; Quarry bounds |base| ≤ 10^6 and exponents to 0..50 so
// every power is a finite float64.
type PowerFunctionOptions struct {
	MinBase     float64 `json:"min_base" range:"-1000000,1000000"`
	MaxBase     float64 `json:"max_base" range:"-1000000,1000000"`
	MinExponent int     `json:"min_exponent" range:"0,50"`
	MaxExponent int     `json:"max_exponent" range:"0,50"`
}

// Validate checks min ≤ max (reasoning-gym's draws need it).
func (o PowerFunctionOptions) Validate() error {
	switch {
	case o.MaxBase < o.MinBase:
		return &envs.OptionError{Option: "max_base", Reason: fmt.Sprintf("%v is below min_base %v", o.MaxBase, o.MinBase)}
	case o.MaxExponent < o.MinExponent:
		return below("max_exponent", o.MaxExponent, "min_exponent", o.MinExponent)
	}
	return nil
}

var powerFunctionTask = rg.Task[PowerFunctionOptions]{
	Name:        "power_function",
	Description: "reasoning-gym power_function: compute base^exponent to 3 significant figures in e notation.",
	Revision:    1,
	Defaults:    PowerFunctionOptions{MinBase: -1e3, MaxBase: 1e3, MinExponent: 0, MaxExponent: 8},
	Generate: func(rng *rand.Rand, o PowerFunctionOptions) (rg.Item, error) {
		base := math.Round((o.MinBase+rng.Float64()*(o.MaxBase-o.MinBase))*1e4) / 1e4
		exp := rg.Between(rng, o.MinExponent, o.MaxExponent)
		if rng.IntN(2) == 0 {
			exp = -exp
		}
		if base == 0 && exp < 0 {
			exp = -exp // 0^-n has no value (reasoning-gym raises)
		}
		ans := math.Pow(base, float64(exp))
		return rg.Item{
			Question: fmt.Sprintf("Your task is to compute an exponentiation of a number.\n\nCompute %s^%d. Return your final answer correct to 3 significant figures.\nProvide your answer in scientific notation using 'e' notation (e.g., 1.23e+4).\n", pyFloat(base), exp),
			Answer:   pyFloat(ans),
			Meta:     map[string]any{"base": base, "exponent": exp, "solution": ans},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym: both rounded to 3 significant figures and equal
		// scores 1, any other answer 0.01.
		x, ok := parseScientific(answer)
		if !ok {
			return 0.01
		}
		y, _ := parseDecimal(it.Answer)
		if roundSig(x, 3).Cmp(roundSig(y, 3)) == 0 {
			return 1
		}
		return 0.01
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return fmt.Sprintf("%.2fe%+d", 1+rng.Float64()*9, rng.IntN(49)-24)
	},
	Retry:    true,
	Feedback: numericFeedback,
}

var timesTen = regexp.MustCompile(`^([+-]?[\d.,]+)\s*(?:×|\*|x|\\times|\\cdot|·)\s*10\s*\^\s*\{?\s*([+-−]?\d+)\s*\}?$`)

// parseScientific reads a decimal ("1.23e+4", "12300", "1.23E4") and also
// "1.23 × 10^4" (and "*", "x", \times, braces), which reasoning-gym's
// Decimal does not.
func parseScientific(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(strings.ReplaceAll(s, "$", ""))
	if m := timesTen.FindStringSubmatch(s); m != nil {
		s = m[1] + "e" + strings.ReplaceAll(m[2], "−", "-")
	}
	return parseNumber(s)
}

// animals are reasoning-gym's leg_counting animals and their legs.
var animals = []struct {
	name string
	legs int
}{
	{"snake", 0}, {"sea slug", 0}, {"jellyfish", 0}, {"flatworm", 0}, {"leech", 0},
	{"chicken", 2}, {"bird", 2}, {"human", 2}, {"duck", 2},
	{"dog", 4}, {"cat", 4}, {"cow", 4}, {"horse", 4}, {"lion", 4}, {"elephant", 4},
	{"giraffe", 4}, {"tiger", 4}, {"deer", 4}, {"sheep", 4},
	{"starfish", 5},
	{"insect", 6}, {"ant", 6}, {"butterfly", 6}, {"beetle", 6}, {"bee", 6}, {"wasp", 6},
	{"grasshopper", 6}, {"cricket", 6}, {"cockroach", 6}, {"praying mantis", 6}, {"firefly", 6},
	{"spider", 8}, {"scorpion", 8},
	{"crab", 10}, {"lobster", 10}, {"shrimp", 10},
	{"woodlouse", 14},
}

// LegCountingOptions are reasoning-gym's LegCountingConfig. Quarry caps the
// instances at 10^6 (reasoning-gym: open).
type LegCountingOptions struct {
	MinAnimals   int `json:"min_animals" range:"1,37"`
	MaxAnimals   int `json:"max_animals" range:"1,37"`
	MinInstances int `json:"min_instances" range:"1,1000000"`
	MaxInstances int `json:"max_instances" range:"1,1000000"`
}

// Validate checks min ≤ max; max_animals ≤ 37 (the animals there are) is the
// range.
func (o LegCountingOptions) Validate() error {
	switch {
	case o.MaxAnimals < o.MinAnimals:
		return below("max_animals", o.MaxAnimals, "min_animals", o.MinAnimals)
	case o.MaxInstances < o.MinInstances:
		return below("max_instances", o.MaxInstances, "min_instances", o.MinInstances)
	}
	return nil
}

var legCountingTask = rg.Task[LegCountingOptions]{
	Name:        "leg_counting",
	Description: "reasoning-gym leg_counting: the total number of legs of a list of animals.",
	Revision:    1,
	Defaults:    LegCountingOptions{MinAnimals: 3, MaxAnimals: 10, MinInstances: 1, MaxInstances: 15},
	Generate: func(rng *rand.Rand, o LegCountingOptions) (rg.Item, error) {
		n := rg.Between(rng, o.MinAnimals, o.MaxAnimals)
		order := rng.Perm(len(animals))[:n]
		parts := make([]string, n)
		counts := make(map[string]any, n)
		total := 0
		for i, a := range order {
			c := rg.Between(rng, o.MinInstances, o.MaxInstances)
			name := animals[a].name
			counts[name] = c
			total += c * animals[a].legs
			if c > 1 {
				name += "s" // reasoning-gym's plural, "sheeps" included
			}
			parts[i] = strconv.Itoa(c) + " " + name
		}
		return rg.Item{
			Question: "Your task is to count how many legs there are in total when given a list of animals.\nNow, how many legs are there in total if you have " + strings.Join(parts, ", ") + "?\n",
			Answer:   strconv.Itoa(total),
			Meta:     map[string]any{"animals": counts, "num_animals": n, "total_legs": total},
		}, nil
	},
	Score:    scoreInteger,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return guessNear(rng, it.Answer) },
	Retry:    true,
	Feedback: numericFeedback,
}
