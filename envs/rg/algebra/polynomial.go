package algebra

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// --- polynomial_equations ---

var equationTemplates = [...]string{
	"Find the real value(s) of %s in the equation: %s = 0",
	"Solve for real %s: %s = 0",
	"Determine the real value(s) of %s that satisfies: %s = 0",
	"Solve the polynomial equation for real %s:\n%s = 0",
}

// equationInstruction is reasoning-gym's added_instruction, word for word.
const equationInstruction = `
In solving equations, please follow these instructions:
1. Provide all answers as comma-separated decimal values. For example: "-0.3773, 0.4005"
2. For solutions that can be expressed in exact form (like "u = 2 + sqrt(4560)/172" and "u = 2 - sqrt(4560)/172"), convert them to decimal form in your final answer.
3. If there are no real values that satisfy the equation, report your answer as an empty string: ""
4. Format your answer based on the number of solutions:
   - For 1 solution: a single decimal number
   - For 2 solutions: two comma-separated decimal numbers
   - For 3 or more solutions: all values as comma-separated decimal numbers
5. Round all decimal values to 4 decimal places (rounding down when the 5th decimal place is 5 or greater).
`

// equationVariables is reasoning-gym's alphabet (no i or j).
const equationVariables = "abcdefghklmnopqrstuvwxyz"

// Penalties of reasoning-gym's score (class attributes there, not options).
const (
	penaltyMissing = 0.1
	penaltyExtra   = 0.05
)

// equationDraws is how many polynomials reasoning-gym draws looking for one
// with a real root.
const equationDraws = 8

// PolynomialEquationsOptions are reasoning-gym's PolynomialEquationsConfig.
type PolynomialEquationsOptions struct {
	MinTerms  int      `json:"min_terms" range:"1,20"`
	MaxTerms  int      `json:"max_terms" range:"1,20"`
	MinValue  int      `json:"min_value" range:"1,1000000"`
	MaxValue  int      `json:"max_value" range:"1,1000000"`
	MinDegree int      `json:"min_degree" range:"1,8"`
	MaxDegree int      `json:"max_degree" range:"1,8"`
	Operators []string `json:"operators" len:"1,2"`
}

// Validate checks reasoning-gym's assertions.
func (o PolynomialEquationsOptions) Validate() error {
	if err := minMax(o.MinTerms, o.MaxTerms, "min_terms", "max_terms"); err != nil {
		return err
	}
	if err := minMax(o.MinValue, o.MaxValue, "min_value", "max_value"); err != nil {
		return err
	}
	if err := minMax(o.MinDegree, o.MaxDegree, "min_degree", "max_degree"); err != nil {
		return err
	}
	return validOperators(o.Operators)
}

// PolynomialEquations is rg:polynomial_equations: the real roots of a
// polynomial, to 4 decimals; partial credit by distance.
var PolynomialEquations = rg.Task[PolynomialEquationsOptions]{
	Name:        "polynomial_equations",
	Description: "reasoning-gym polynomial_equations: the real solutions of a polynomial equation as comma-separated decimals; partial credit exp(-distance) per matched root, less penalties for missing and extra ones.",
	Revision:    1,
	Defaults: PolynomialEquationsOptions{
		MinTerms: 2, MaxTerms: 4, MinValue: 1, MaxValue: 100, MinDegree: 1, MaxDegree: 3,
		Operators: []string{"+", "-"},
	},
	Generate: generatePolynomialEquation,
	Score: func(answer string, it *rg.Item) float64 {
		return scoreRoots(parseRoots(answer), it.Data.([]float64))
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		vals := make([]string, 1+rng.IntN(3))
		for i := range vals {
			vals[i] = strconv.FormatFloat(rng.Float64()*40-20, 'f', 4, 64)
		}
		return strings.Join(vals, ", ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		got, want := len(parseRoots(answer)), len(it.Data.([]float64))
		switch {
		case got < want:
			return fmt.Sprintf("Your answer scores %.3g: it misses some real solutions.", score)
		case got > want:
			return fmt.Sprintf("Your answer scores %.3g: it has values that are not real solutions.", score)
		}
		return fmt.Sprintf("Your answer scores %.3g: some values are not close enough to the real solutions.", score)
	},
}

func generatePolynomialEquation(rng *rand.Rand, o PolynomialEquationsOptions) (rg.Item, error) {
	var (
		v      string
		degree int
		p      poly
		roots  []float64
	)
	for range equationDraws {
		v = string(equationVariables[rng.IntN(len(equationVariables))])
		degree = rg.Between(rng, o.MinDegree, o.MaxDegree)
		p = drawEquation(rng, o, v, degree)
		var err error
		if roots, err = polyRoots(p, v); err != nil {
			return rg.Item{}, err
		}
		if len(roots) > 0 {
			break
		}
	}
	if len(roots) == 0 {
		// reasoning-gym would ask with the answer "" (no real solution);
		// Quarry keeps every answer non-empty: the last draw's constant
		// term goes, so 0 is a root.
		delete(p, monoKey(nil))
		if len(p) == 0 {
			p = monomial(big.NewRat(1, 1), v, degree)
		}
		var err error
		if roots, err = polyRoots(p, v); err != nil {
			return rg.Item{}, err
		}
	}
	parts := make([]string, len(roots))
	for i, r := range roots {
		roots[i], parts[i] = round4(r)
	}
	q := fmt.Sprintf(equationTemplates[rng.IntN(len(equationTemplates))], v, p.String()) + equationInstruction
	return rg.Item{
		Question: q,
		Answer:   strings.Join(parts, ", "),
		Data:     roots,
		Meta: map[string]any{
			"polynomial_expr": p.String(), "variable": v, "degree": degree, "real_solutions": roots,
		},
	}, nil
}

// drawEquation draws num_terms terms: the first of the given degree, the
// rest of degrees 0..degree, each coefficient in the value range, negated
// half the time when "-" is an operator.
func drawEquation(rng *rand.Rand, o PolynomialEquationsOptions, v string, degree int) poly {
	n := rg.Between(rng, o.MinTerms, o.MaxTerms)
	exps := make([]int, 0, n)
	exps = append(exps, degree)
	for range n - 1 {
		exps = append(exps, rg.Between(rng, 0, degree))
	}
	minus := false
	for _, op := range o.Operators {
		minus = minus || op == "-"
	}
	p := poly{}
	for _, e := range exps {
		c := rg.Between(rng, o.MinValue, o.MaxValue)
		if minus && rng.Float64() < 0.5 {
			c = -c
		}
		p = p.plus(monomial(rat(c), v, e))
	}
	return p
}

func polyRoots(p poly, v string) ([]float64, error) {
	cs, ok := p.univariate(v)
	if !ok {
		return nil, errors.New("polynomial_equations: not univariate")
	}
	return realRoots(cs)
}

// round4 is Python's round(x, 4) and str() of the result.
func round4(x float64) (float64, string) {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 4, 64), 64)
	return r, pyFloat(r)
}

// pyFloat writes a float as Python's str does for moderate magnitudes.
func pyFloat(x float64) string {
	if math.Abs(x) >= 1e16 || x != 0 && math.Abs(x) < 1e-4 {
		s := strconv.FormatFloat(x, 'e', -1, 64)
		// Python writes e+16 and e-05 alike: at least two exponent digits.
		return s
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

// parseRoots reads a list of numbers as reasoning-gym does (split on
// commas, drop what is not a number), and also on semicolons, with any
// "x =" before a value and brackets around the list removed.
func parseRoots(answer string) []float64 {
	s := strings.TrimSpace(answer)
	for len(s) >= 2 && strings.ContainsRune("([{", rune(s[0])) && strings.ContainsRune(")]}", rune(s[len(s)-1])) {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	var out []float64
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		if i := strings.LastIndex(part, "="); i >= 0 {
			part = strings.TrimSpace(part[i+1:])
		}
		part = strings.ReplaceAll(part, "−", "-")
		f, err := strconv.ParseFloat(part, 64)
		if err != nil {
			continue
		}
		out = append(out, f)
	}
	sortFloats(out)
	return out
}

// scoreRoots is reasoning-gym's greedy matching: each predicted value, in
// increasing order, takes the nearest unmatched root and earns
// exp(-distance); the mean over matches, less 0.1 per missing root and 0.05
// per extra value, floored at 0.
func scoreRoots(pred, truth []float64) float64 {
	if len(pred) == 0 && len(truth) == 0 {
		return 1
	}
	left := append([]float64(nil), truth...)
	total, matched, extra := 0.0, 0, 0
	for _, p := range pred {
		best, bi := math.Inf(1), -1
		for i, t := range left {
			if d := math.Abs(p - t); best > d {
				best, bi = d, i
			}
		}
		if bi < 0 {
			extra++
			continue
		}
		matched++
		left = append(left[:bi], left[bi+1:]...)
		total += math.Exp(-best)
	}
	penalty := float64(len(left))*penaltyMissing + float64(extra)*penaltyExtra
	if matched > 0 {
		total /= float64(matched)
	}
	return math.Max(0, total-penalty)
}

// --- polynomial_multiplication ---

var multiplicationTemplates = [...]string{
	"Simplify this expression: %s",
	"Calculate the following: %s",
}

// multiplicationGuidelines is reasoning-gym's added_instruction.
const multiplicationGuidelines = "\nWhen performing calculations, please follow these guidelines:\n" +
	"1. Use ** instead of ^ to represent exponents. For example, write 7*X**2 instead of 7*X^2.\n" +
	"2. Always include the * symbol for all multiplication operations in your reasoning steps. For example, write `-3*X**3*sin(X) - 9*X**2*cos(X) + 18*X*sin(X) + 18*cos(X) + C` instead of `-3x3sin(x) - 9x2cos(x) + 18xsin(x) + 18cos(x) + C`.\n"

// maxProductMonomials bounds the monomials a product can have, so an
// answer stays a few thousand terms at most.
const maxProductMonomials = 3000

// PolynomialMultiplicationOptions are reasoning-gym's
// PolynomialMultiplicationConfig.
type PolynomialMultiplicationOptions struct {
	MinTerms       int      `json:"min_terms" range:"1,16"`
	MaxTerms       int      `json:"max_terms" range:"1,16"`
	MinValue       int      `json:"min_value" range:"1,100000000"`
	MaxValue       int      `json:"max_value" range:"1,100000000"`
	MinDegree      int      `json:"min_degree" range:"0,10"`
	MaxDegree      int      `json:"max_degree" range:"0,10"`
	MinPolynomials int      `json:"min_polynomials" range:"2,10"`
	MaxPolynomials int      `json:"max_polynomials" range:"2,10"`
	Variables      []string `json:"variables" len:"1,26"`
	// AllowCrossVariableProduct draws each factor's variable afresh.
	AllowCrossVariableProduct bool `json:"allow_cross_variable_product"`
	// AllowMultivariatePolynomials lets a factor mix every variable.
	AllowMultivariatePolynomials bool     `json:"allow_multivariate_polynomials"`
	Operators                    []string `json:"operators" len:"1,2"`
}

// Validate checks reasoning-gym's assertions and that the product's number
// of monomials stays bounded.
func (o PolynomialMultiplicationOptions) Validate() error {
	for _, c := range [][4]any{
		{o.MinTerms, o.MaxTerms, "min_terms", "max_terms"},
		{o.MinValue, o.MaxValue, "min_value", "max_value"},
		{o.MinDegree, o.MaxDegree, "min_degree", "max_degree"},
		{o.MinPolynomials, o.MaxPolynomials, "min_polynomials", "max_polynomials"},
	} {
		if err := minMax(c[0].(int), c[1].(int), c[2].(string), c[3].(string)); err != nil {
			return err
		}
	}
	if err := validSymbols("variables", o.Variables); err != nil {
		return err
	}
	if o.AllowMultivariatePolynomials && !o.AllowCrossVariableProduct {
		return &envs.OptionError{Option: "allow_multivariate_polynomials", Reason: "needs allow_cross_variable_product"}
	}
	if o.AllowCrossVariableProduct {
		k := min(len(distinct(o.Variables)), o.MaxPolynomials)
		if o.AllowMultivariatePolynomials {
			k = len(distinct(o.Variables))
		}
		if n := monomialCount(o.MaxPolynomials*o.MaxDegree, k); n > maxProductMonomials {
			return &envs.OptionError{Option: "max_degree", Reason: fmt.Sprintf(
				"a product of %d factors of degree %d in %d variables can have %d monomials, above %d",
				o.MaxPolynomials, o.MaxDegree, k, n, maxProductMonomials)}
		}
	}
	return validOperators(o.Operators)
}

func distinct(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// monomialCount is the number of monomials of total degree at most d in k
// variables, C(d+k, k), capped just past maxProductMonomials.
func monomialCount(d, k int) int {
	n := 1
	for i := 1; i <= k; i++ {
		n = n * (d + i) / i
		if n > 10*maxProductMonomials {
			return n
		}
	}
	return n
}

// PolynomialMultiplication is rg:polynomial_multiplication: expand a
// product of polynomials.
var PolynomialMultiplication = rg.Task[PolynomialMultiplicationOptions]{
	Name:        "polynomial_multiplication",
	Description: "reasoning-gym polynomial_multiplication: expand a product of polynomials; the answer must be the expanded polynomial (any term order, like terms may repeat).",
	Revision:    1,
	Defaults: PolynomialMultiplicationOptions{
		MinTerms: 2, MaxTerms: 4, MinValue: 1, MaxValue: 100, MinDegree: 0, MaxDegree: 3,
		MinPolynomials: 2, MaxPolynomials: 3, Variables: []string{"x", "y", "z"},
		Operators: []string{"+", "-"},
	},
	Generate: generateMultiplication,
	Score: func(answer string, it *rg.Item) float64 {
		if _, err := readExpanded(answer, it.Data.(poly)); err == nil {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		want := it.Data.(poly)
		p := poly{}
		for _, t := range want.sortedTerms() {
			if rng.IntN(2) == 0 {
				p.add(t.exps, rat(rng.IntN(201)-100))
			}
		}
		if len(p) == 0 {
			return strconv.Itoa(rng.IntN(100))
		}
		return p.String()
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		_, err := readExpanded(answer, it.Data.(poly))
		switch {
		case errors.Is(err, errSyntax):
			return "Your answer could not be read as a polynomial (write it like 3*x**2 - 5*x + 1)."
		case errors.Is(err, errNotExpanded):
			return "Your answer is not expanded: write the product out as a sum of terms."
		case errors.Is(err, errNotPoly):
			return "Your answer is not a polynomial."
		}
		return "Your polynomial is not the product: some coefficients are wrong."
	},
}

var errWrongPoly = errors.New("different polynomial")

// readExpanded parses answer as an expanded polynomial equal to want.
func readExpanded(answer string, want poly) (poly, error) {
	n, err := parseExpr(answer)
	if err != nil {
		return nil, err
	}
	p, err := toPoly(n)
	if err != nil {
		return nil, err
	}
	if !p.equal(want) {
		return p, errWrongPoly
	}
	return p, nil
}

func generateMultiplication(rng *rand.Rand, o PolynomialMultiplicationOptions) (rg.Item, error) {
	var shared []map[string]int
	if !o.AllowCrossVariableProduct {
		shared = drawMonomials(rng, o)
	}
	k := rg.Between(rng, o.MinPolynomials, o.MaxPolynomials)
	minus := false
	for _, op := range o.Operators {
		minus = minus || op == "-"
	}
	product := constPoly(big.NewRat(1, 1))
	factors := make([]string, k)
	for i := range k {
		monos := shared
		if monos == nil {
			monos = drawMonomials(rng, o)
		}
		f := poly{}
		for range rg.Between(rng, o.MinTerms, o.MaxTerms) {
			c := rg.Between(rng, o.MinValue, o.MaxValue)
			m := monos[rng.IntN(len(monos))]
			if minus && rng.Float64() < 0.5 {
				c = -c
			}
			f.add(m, rat(c))
		}
		product = product.times(f)
		s := f.String()
		if len(f) > 1 || strings.HasPrefix(s, "-") {
			s = "(" + s + ")"
		}
		factors[i] = s
	}
	expr := strings.Join(factors, "*")
	q := fmt.Sprintf(multiplicationTemplates[rng.IntN(len(multiplicationTemplates))], expr) + multiplicationGuidelines
	vars := map[string]bool{}
	for _, t := range product {
		for v := range t.exps {
			vars[v] = true
		}
	}
	var names []string
	for _, v := range distinct(o.Variables) {
		if vars[v] {
			names = append(names, v)
		}
	}
	return rg.Item{
		Question: q,
		Answer:   product.String(),
		Data:     product,
		Meta:     map[string]any{"polynomial_expr": expr, "variables": names},
	}, nil
}

// drawMonomials is reasoning-gym's _get_monomials: every monomial of total
// degree min_degree..max_degree, in all the variables for multivariate
// factors, else in one variable drawn from the list.
func drawMonomials(rng *rand.Rand, o PolynomialMultiplicationOptions) []map[string]int {
	vars := []string{pick(rng, o.Variables)}
	if o.AllowMultivariatePolynomials {
		vars = distinct(o.Variables)
	}
	var out []map[string]int
	var walk func(i, left int, cur map[string]int)
	walk = func(i, left int, cur map[string]int) {
		if i == len(vars) {
			if o.MaxDegree-left >= o.MinDegree {
				m := make(map[string]int, len(cur))
				for v, e := range cur {
					if e > 0 {
						m[v] = e
					}
				}
				out = append(out, m)
			}
			return
		}
		for e := 0; e <= left; e++ {
			cur[vars[i]] = e
			walk(i+1, left-e, cur)
		}
		delete(cur, vars[i])
	}
	walk(0, o.MaxDegree, map[string]int{})
	return out
}
