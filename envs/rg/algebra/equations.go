package algebra

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

// --- simple_equations ---

var simpleEquationTemplates = [...]string{
	"Find the value of %s in the equation: %s",
	"Solve for %s: %s",
	"Determine the value of %s that satisfies: %s",
}

// SimpleEquationsOptions are reasoning-gym's SimpleEquationsConfig.
type SimpleEquationsOptions struct {
	MinTerms         int       `json:"min_terms" range:"1,20"`
	MaxTerms         int       `json:"max_terms" range:"1,20"`
	MinValue         int       `json:"min_value" range:"1,100000000"`
	MaxValue         int       `json:"max_value" range:"1,100000000"`
	Operators        []string  `json:"operators" len:"1,3"`
	OperatorsWeights []float64 `json:"operators_weights" len:"1,3" range:"0,1"`
}

// Validate checks reasoning-gym's assertions (weights sum to 1 at one
// decimal) and that there is one weight per operator.
func (o SimpleEquationsOptions) Validate() error {
	if err := minMax(o.MinTerms, o.MaxTerms, "min_terms", "max_terms"); err != nil {
		return err
	}
	if err := minMax(o.MinValue, o.MaxValue, "min_value", "max_value"); err != nil {
		return err
	}
	for _, op := range o.Operators {
		if op != "+" && op != "-" && op != "*" {
			return &envs.OptionError{Option: "operators", Reason: fmt.Sprintf("%q is not +, - or *", op)}
		}
	}
	return checkWeights("operators_weights", o.OperatorsWeights, len(o.Operators), "operators")
}

// checkWeights: one weight per choice, summing to 1 rounded to one decimal.
func checkWeights(option string, ws []float64, n int, of string) error {
	if len(ws) != n {
		return &envs.OptionError{Option: option, Reason: fmt.Sprintf("has %d weights for %d %s", len(ws), n, of)}
	}
	sum := 0.0
	for _, w := range ws {
		sum += w
	}
	if math.Round(sum*10) != 10 {
		return &envs.OptionError{Option: option, Reason: fmt.Sprintf("weights sum to %g, want 1", sum)}
	}
	return nil
}

// SimpleEquations is rg:simple_equations: solve a linear equation in one
// variable whose solution is an integer.
var SimpleEquations = rg.Task[SimpleEquationsOptions]{
	Name:        "simple_equations",
	Description: "reasoning-gym simple_equations: solve a*x + b = c for an integer x; any number format of the solution scores 1.",
	Revision:    1,
	Defaults: SimpleEquationsOptions{
		MinTerms: 2, MaxTerms: 4, MinValue: 1, MaxValue: 100,
		Operators: []string{"+", "-", "*"}, OperatorsWeights: []float64{0.4, 0.4, 0.2},
	},
	Generate: generateSimpleEquation,
	Score:    scoreInteger,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return strconv.Itoa(1 + rng.IntN(100))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		if _, ok := parseNumber(answer); !ok {
			return "Your answer is not a number."
		}
		return "Substituting your value does not satisfy the equation."
	},
}

func generateSimpleEquation(rng *rand.Rand, o SimpleEquationsOptions) (rg.Item, error) {
	v := string(rune('a' + rng.IntN(26)))
	n := rg.Between(rng, o.MinTerms, o.MaxTerms)
	// Each term is a*v + b; all constants first, then one becomes the
	// variable's term.
	type lin struct{ a, b *big.Int }
	terms := make([]lin, n)
	for i := range terms {
		terms[i] = lin{new(big.Int), big.NewInt(int64(rg.Between(rng, o.MinValue, o.MaxValue)))}
	}
	pos := rng.IntN(n)
	coef := int64(rg.Between(rng, o.MinValue, o.MaxValue))
	hasMul := false
	for _, op := range o.Operators {
		hasMul = hasMul || op == "*"
	}
	if hasMul {
		terms[pos] = lin{big.NewInt(coef), new(big.Int)}
	} else {
		terms[pos] = lin{big.NewInt(1), new(big.Int)}
	}
	e := terms[0]
	for _, t := range terms[1:] {
		switch o.Operators[weighted(rng, o.OperatorsWeights)] {
		case "+":
			e = lin{new(big.Int).Add(e.a, t.a), new(big.Int).Add(e.b, t.b)}
		case "-":
			e = lin{new(big.Int).Sub(e.a, t.a), new(big.Int).Sub(e.b, t.b)}
		default: // one side has no variable, so the product stays linear
			a := new(big.Int).Mul(e.a, t.b)
			a.Add(a, new(big.Int).Mul(t.a, e.b))
			e = lin{a, new(big.Int).Mul(e.b, t.b)}
		}
	}
	sol := rg.Between(rng, o.MinValue, o.MaxValue)
	right := new(big.Int).Mul(e.a, big.NewInt(int64(sol)))
	right.Add(right, e.b)
	left := monomial(new(big.Rat).SetInt(e.a), v, 1).plus(constPoly(new(big.Rat).SetInt(e.b)))
	eq := left.String() + " = " + right.String()
	q := fmt.Sprintf(simpleEquationTemplates[rng.IntN(len(simpleEquationTemplates))], v, eq)
	return rg.Item{
		Question: q,
		Answer:   strconv.Itoa(sol),
		Meta:     map[string]any{"equation": eq, "variable": v},
	}, nil
}

// thousands matches a number written with comma thousands separators.
var thousands = regexp.MustCompile(`^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$`)

// parseNumber reads a number the lenient way: surrounding space, a leading
// "x =", thousands separators (1,000), a trailing unit sign, decimals
// (5.0), a Unicode minus; exactly, as a rational.
func parseNumber(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "="); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	s = strings.ReplaceAll(s, "−", "-")
	if thousands.MatchString(s) {
		s = strings.ReplaceAll(s, ",", "")
	}
	if s == "" || strings.ContainsAny(s, "/ ") {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// scoreInteger is reasoning-gym's default score (exact text 1, the truth
// inside the answer len(truth)/len(answer)), with any number equal to the
// truth scoring 1.
func scoreInteger(answer string, it *rg.Item) float64 {
	if r, ok := parseNumber(answer); ok {
		if want, ok := new(big.Rat).SetString(it.Answer); ok && r.Cmp(want) == 0 {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}

// --- complex_arithmetic ---

var complexTemplates = map[string]string{
	"+": "Add the complex numbers: (%s) + (%s)",
	"-": "Subtract the complex numbers: (%s) - (%s)",
	"*": "Multiply the complex numbers: (%s) × (%s)",
	"/": "Divide the complex numbers: (%s) ÷ (%s)",
}

// ComplexArithmeticOptions are reasoning-gym's ComplexArithmeticConfig.
// The range reaches the curriculum's top level (1e8).
type ComplexArithmeticOptions struct {
	MinReal           int       `json:"min_real" range:"-100000000,100000000"`
	MaxReal           int       `json:"max_real" range:"-100000000,100000000"`
	MinImag           int       `json:"min_imag" range:"-100000000,100000000"`
	MaxImag           int       `json:"max_imag" range:"-100000000,100000000"`
	Operations        []string  `json:"operations" len:"1,4"`
	OperationsWeights []float64 `json:"operations_weights" len:"1,4" range:"0,1"`
}

// Validate checks reasoning-gym's assertions, one weight per operation, and
// that a divisor other than 0 exists.
func (o ComplexArithmeticOptions) Validate() error {
	if err := minMax(o.MinReal, o.MaxReal, "min_real", "max_real"); err != nil {
		return err
	}
	if err := minMax(o.MinImag, o.MaxImag, "min_imag", "max_imag"); err != nil {
		return err
	}
	div := false
	for _, op := range o.Operations {
		if _, ok := complexTemplates[op]; !ok {
			return &envs.OptionError{Option: "operations", Reason: fmt.Sprintf("%q is not +, -, * or /", op)}
		}
		div = div || op == "/"
	}
	if err := checkWeights("operations_weights", o.OperationsWeights, len(o.Operations), "operations"); err != nil {
		return err
	}
	if div && o.MinReal == 0 && o.MaxReal == 0 && o.MinImag == 0 && o.MaxImag == 0 {
		return &envs.OptionError{Option: "max_real", Reason: "division needs a nonzero divisor: every part is 0"}
	}
	return nil
}

// complexData is the exact result for the scorer.
type complexData struct{ re, im float64 }

// ComplexArithmetic is rg:complex_arithmetic: add, subtract, multiply or
// divide two Gaussian integers; partial credit exp(-distance).
var ComplexArithmetic = rg.Task[ComplexArithmeticOptions]{
	Name:        "complex_arithmetic",
	Description: "reasoning-gym complex_arithmetic: add, subtract, multiply or divide complex numbers with integer parts; the score is exp(-|answer - result|).",
	Revision:    1,
	Defaults: ComplexArithmeticOptions{
		MinReal: -10, MaxReal: 10, MinImag: -10, MaxImag: 10,
		Operations: []string{"+", "-", "*", "/"}, OperationsWeights: []float64{0.4, 0.4, 0.1, 0.1},
	},
	Generate: generateComplex,
	Score: func(answer string, it *rg.Item) float64 {
		z, ok := parseComplex(answer)
		if !ok {
			return 0
		}
		d := it.Data.(complexData)
		return math.Min(1, math.Exp(-math.Hypot(real(z)-d.re, imag(z)-d.im)))
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		return formatComplex(float64(rng.IntN(41)-20), float64(rng.IntN(41)-20))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		if _, ok := parseComplex(answer); !ok {
			return "Your answer could not be read as a complex number a + bi."
		}
		return fmt.Sprintf("Your answer is %.3g away from the result.", -math.Log(math.Max(score, 1e-300)))
	},
}

func generateComplex(rng *rand.Rand, o ComplexArithmeticOptions) (rg.Item, error) {
	op := o.Operations[weighted(rng, o.OperationsWeights)]
	draw := func() (int64, int64) {
		return int64(rg.Between(rng, o.MinReal, o.MaxReal)), int64(rg.Between(rng, o.MinImag, o.MaxImag))
	}
	ar, ai := draw()
	br, bi := draw()
	var rr, ri int64
	switch op {
	case "/":
		// The quotient is drawn first and the dividend is quotient × divisor,
		// so the result has integer parts. Validate ensures a nonzero
		// divisor exists; the draws are bounded all the same.
		for try := 0; br == 0 && bi == 0; try++ {
			if try == 64 {
				br, bi = nonzeroPart(o)
				break
			}
			br, bi = draw()
		}
		rr, ri = ar, ai
		ar, ai = rr*br-ri*bi, rr*bi+ri*br
	case "+":
		rr, ri = ar+br, ai+bi
	case "-":
		rr, ri = ar-br, ai-bi
	default:
		rr, ri = ar*br-ai*bi, ar*bi+ai*br
	}
	a := formatComplex(float64(ar), float64(ai))
	b := formatComplex(float64(br), float64(bi))
	return rg.Item{
		Question: fmt.Sprintf(complexTemplates[op], a, b),
		Answer:   formatComplex(float64(rr), float64(ri)),
		Data:     complexData{float64(rr), float64(ri)},
		Meta: map[string]any{
			"num1": []int64{ar, ai}, "num2": []int64{br, bi}, "operation": op, "result": []int64{rr, ri},
		},
	}, nil
}

// nonzeroPart is the nonzero value nearest 0 in one of the ranges, as a
// divisor.
func nonzeroPart(o ComplexArithmeticOptions) (int64, int64) {
	near := func(lo, hi int) int64 {
		switch {
		case lo > 0:
			return int64(lo)
		case hi < 0:
			return int64(hi)
		case hi > 0:
			return 1
		case lo < 0:
			return -1
		}
		return 0
	}
	if r := near(o.MinReal, o.MaxReal); r != 0 {
		return r, int64(max(o.MinImag, min(0, o.MaxImag)))
	}
	return int64(max(o.MinReal, min(0, o.MaxReal))), near(o.MinImag, o.MaxImag)
}

// formatComplex is reasoning-gym's _format_complex: two decimals for a
// real or an imaginary number, Python's str of each part otherwise
// ("3.0 - 4.0i").
func formatComplex(re, im float64) string {
	switch {
	case math.Abs(im) < 1e-10:
		return strconv.FormatFloat(re+0, 'f', 2, 64)
	case math.Abs(re) < 1e-10:
		return strconv.FormatFloat(im, 'f', 2, 64) + "i"
	}
	sign := "+"
	if im < 0 {
		sign = "-"
	}
	return pyFloat(re) + " " + sign + " " + pyFloat(math.Abs(im)) + "i"
}

// complexTerm is one signed term of a complex answer: a real number, an
// imaginary one (4i, 4*i, i4, i, -j), in Python's or mathematicians'
// notation.
var complexTerm = regexp.MustCompile(`^([+-]?)(\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?)?(\*?[ij]\*?)?(\d+\.?\d*)?$`)

// parseComplex reads a + bi as reasoning-gym's parse_string_to_complex does
// (spaces dropped, lower case, outer brackets removed, i or j), and also
// with the parts in either order (4i + 3), an explicit * (4*i), and a
// Unicode minus. Each part may appear once.
func parseComplex(s string) (complex128, bool) {
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	s = strings.ReplaceAll(s, "−", "-")
	for len(s) > 1 && s[0] == '(' && s[len(s)-1] == ')' {
		s = s[1 : len(s)-1]
	}
	if s == "" {
		return 0, false
	}
	// Split before each sign that is not an exponent's.
	var terms []string
	start := 0
	for i := 1; i < len(s); i++ {
		if (s[i] == '+' || s[i] == '-') && s[i-1] != 'e' {
			terms = append(terms, s[start:i])
			start = i
		}
	}
	terms = append(terms, s[start:])
	var re, im float64
	var haveRe, haveIm bool
	for _, t := range terms {
		m := complexTerm.FindStringSubmatch(t)
		if m == nil || m[2] == "" && m[3] == "" || m[2] != "" && m[4] != "" || m[3] == "" && m[4] != "" {
			return 0, false
		}
		digits := m[2] + m[4]
		v := 1.0
		if digits != "" {
			var err error
			if v, err = strconv.ParseFloat(digits, 64); err != nil {
				return 0, false
			}
		}
		if m[1] == "-" {
			v = -v
		}
		if m[3] == "" {
			if haveRe {
				return 0, false
			}
			re, haveRe = v, true
			continue
		}
		if haveIm || strings.HasPrefix(m[3], "*") && m[2] == "" || strings.HasSuffix(m[3], "*") && m[4] == "" ||
			len(m[3]) == 3 {
			return 0, false
		}
		im, haveIm = v, true
	}
	return complex(re, im), true
}
