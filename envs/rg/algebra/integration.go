package algebra

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// integrationTemplates are reasoning-gym's three question forms (both
// integration datasets). The "dx" stays lower-case even for X, as there.
var integrationTemplates = [...]string{
	"Find the indefinite integral: ∫ %s dx",
	"Calculate the antiderivative: ∫ %s dx",
	"Evaluate the indefinite integral: ∫ %s dx",
}

// integrationGuidelines is reasoning-gym's added_instruction, word for word.
const integrationGuidelines = "\nWhen performing calculations, please follow these guidelines:\n" +
	"Use same variable symbols as given in the question\n" +
	"1. Use ** instead of ^ to represent exponents. For example, write 7*X**2 instead of 7*X^2.\n" +
	"2. Always include the * symbol for all multiplication operations in your reasoning steps. For example, write `-3*X**3*sin(X) - 9*X**2*cos(X) + 18*X*sin(X) + 18*cos(X) + C` instead of `-3x3sin(x) - 9x2cos(x) + 18xsin(x) + 18cos(x) + C`.\n"

// intermediateGuidelines adds the exponential rule.
const intermediateGuidelines = integrationGuidelines +
	"3. Use `exp(x)` or `E**(x)` for the exponential function (i.e. use capital E for Euler's number).\n"

// simpleGuidelines is simple_integration's instruction (it has no line on
// variable symbols).
const simpleGuidelines = "\nWhen performing calculations, please follow these guidelines:\n" +
	"1. Use ** instead of ^ to represent exponents. For example, write 7*X**2 instead of 7*X^2.\n" +
	"2. Always include the * symbol for all multiplication operations in your reasoning steps. For example, write `-3*X**3*sin(X) - 9*X**2*cos(X) + 18*X*sin(X) + 18*cos(X) + C` instead of `-3x3sin(x) - 9x2cos(x) + 18xsin(x) + 18cos(x) + C`.\n"

// integral is what the integration scorers need.
type integral struct {
	integrand *node
	variable  string
}

func scoreIntegral(answer string, it *rg.Item) float64 {
	d := it.Data.(*integral)
	if checkAntiderivative(answer, d.integrand, d.variable) == verdictOK {
		return 1
	}
	return 0
}

func integralFeedback(answer string, it *rg.Item, _ float64) string {
	d := it.Data.(*integral)
	switch checkAntiderivative(answer, d.integrand, d.variable) {
	case verdictUnparsed:
		return "Your answer could not be read as an expression (write it like 3*" + d.variable + "**2 + C)."
	case verdictUndecided:
		return "Your answer could not be checked: its derivative is undefined where the integrand is defined."
	}
	return "The derivative of your answer is not the integrand."
}

// guessIntegral is a random polynomial antiderivative in the item's variable.
func guessIntegral(rng *rand.Rand, it *rg.Item) string {
	v := it.Data.(*integral).variable
	p := poly{}
	for range 1 + rng.IntN(3) {
		p = p.plus(monomial(big.NewRat(int64(rng.IntN(19)-9), int64(1+rng.IntN(3))), v, 1+rng.IntN(5)))
	}
	return p.String() + " + C"
}

// newIntegralItem builds an item from the integrand's and the
// antiderivative's texts, parsing the integrand for the scorer.
func newIntegralItem(question, integrand, answer, variable string, meta map[string]any) (rg.Item, error) {
	n, err := parseExpr(integrand)
	if err != nil {
		return rg.Item{}, fmt.Errorf("integrand %q: %w", integrand, err)
	}
	meta["integrand"] = integrand
	meta["variable"] = variable
	return rg.Item{Question: question, Answer: answer + " + C", Data: &integral{integrand: n, variable: variable}, Meta: meta}, nil
}

// validSymbols checks a list of variable names: single ASCII letters that
// are not constants to the parser (E, I, e).
func validSymbols(option string, names []string) error {
	for _, s := range names {
		if len(s) != 1 || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') || s == "E" || s == "I" || s == "e" {
			return &envs.OptionError{Option: option, Reason: fmt.Sprintf("%q is not a one-letter variable (E, I and e are constants)", s)}
		}
	}
	return nil
}

// validOperators checks a list drawn from "+" and "-".
func validOperators(names []string) error {
	for _, s := range names {
		if s != "+" && s != "-" {
			return &envs.OptionError{Option: "operators", Reason: fmt.Sprintf("%q is not + or -", s)}
		}
	}
	return nil
}

func minMax(lo, hi int, loName, hiName string) error {
	if lo > hi {
		return &envs.OptionError{Option: hiName, Reason: fmt.Sprintf("%d is below %s %d", hi, loName, lo)}
	}
	return nil
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// signed negates v when a drawn operator is "-" (reasoning-gym's
// rng.choice(operators) == "-").
func signed(rng *rand.Rand, ops []string, v int) int {
	if pick(rng, ops) == "-" {
		return -v
	}
	return v
}

// --- simple_integration ---

// SimpleIntegrationOptions are reasoning-gym's SimpleIntegrationConfig.
type SimpleIntegrationOptions struct {
	MinTerms  int `json:"min_terms" range:"0,20"`
	MaxTerms  int `json:"max_terms" range:"0,20"`
	MinDegree int `json:"min_degree" range:"-10,20"`
	MaxDegree int `json:"max_degree" range:"-10,20"`
	MinBounds int `json:"min_bounds" range:"1,1000"`
	MaxBounds int `json:"max_bounds" range:"1,1000"`
	// Operators are the signs a term may take.
	Operators []string `json:"operators" len:"1,2"`
	// Symbols are the variable names drawn from.
	Symbols []string `json:"symbols" len:"1,26"`
}

// Validate checks the relations reasoning-gym asserts.
func (o SimpleIntegrationOptions) Validate() error {
	if err := minMax(o.MinTerms, o.MaxTerms, "min_terms", "max_terms"); err != nil {
		return err
	}
	if err := minMax(o.MinDegree, o.MaxDegree, "min_degree", "max_degree"); err != nil {
		return err
	}
	if err := minMax(o.MinBounds, o.MaxBounds, "min_bounds", "max_bounds"); err != nil {
		return err
	}
	if err := validOperators(o.Operators); err != nil {
		return err
	}
	return validSymbols("symbols", o.Symbols)
}

// SimpleIntegration is rg:simple_integration: integrate a sum of terms
// c*x**k with rational c; any antiderivative scores 1.
var SimpleIntegration = rg.Task[SimpleIntegrationOptions]{
	Name:        "simple_integration",
	Description: "reasoning-gym simple_integration: find an antiderivative of a polynomial with rational coefficients; any antiderivative (+ C) scores 1.",
	Revision:    1,
	Defaults: SimpleIntegrationOptions{
		MinTerms: 2, MaxTerms: 5, MinDegree: 1, MaxDegree: 10, MinBounds: 1, MaxBounds: 10,
		Operators: []string{"+", "-"}, Symbols: []string{"x", "X"},
	},
	Generate: generateSimpleIntegration,
	Score:    scoreIntegral,
	Guess:    guessIntegral,
	Retry:    true,
	Feedback: integralFeedback,
}

func generateSimpleIntegration(rng *rand.Rand, o SimpleIntegrationOptions) (rg.Item, error) {
	n := rg.Between(rng, o.MinTerms, o.MaxTerms)
	v := pick(rng, o.Symbols)
	f := poly{}
	for range n {
		// A coefficient: an integer half the time, else over 2..10.
		var num, den int64 = 0, 1
		if rng.IntN(2) == 0 {
			num = int64(rg.Between(rng, o.MinBounds, o.MaxBounds))
		} else {
			den = int64(rg.Between(rng, 2, 10))
			num = int64(rg.Between(rng, o.MinBounds, o.MaxBounds))
		}
		k := rg.Between(rng, o.MinDegree, o.MaxDegree)
		c := big.NewRat(num, den)
		if pick(rng, o.Operators) == "-" {
			c.Neg(c)
		}
		f = f.plus(monomial(c, v, k))
	}
	d := derivative(f, v)
	integrand := d.String()
	q := fmt.Sprintf(integrationTemplates[rng.IntN(len(integrationTemplates))], integrand) + simpleGuidelines
	return newIntegralItem(q, integrand, f.String(), v, map[string]any{"num_terms": n})
}

// derivative differentiates a (Laurent) polynomial in v.
func derivative(p poly, v string) poly {
	out := poly{}
	for _, t := range p {
		k := t.exps[v]
		if k == 0 {
			continue
		}
		exps := map[string]int{}
		for w, e := range t.exps {
			exps[w] = e
		}
		exps[v] = k - 1
		out.add(exps, new(big.Rat).Mul(t.c, big.NewRat(int64(k), 1)))
	}
	return out
}

// --- intermediate_integration ---

// intermediateTypes are reasoning-gym's problem types, in its order.
var intermediateTypes = []string{
	"linear", "radical", "log_inverse_trig", "trigonometric",
	"polynomial_exp_trig", "exponential", "cyclic", "repeated_parts",
}

// IntermediateIntegrationOptions are reasoning-gym's
// IntermediateIntegrationConfig.
type IntermediateIntegrationOptions struct {
	ProblemTypes       []string  `json:"problem_types" len:"1,8"`
	ProblemTypeWeights []float64 `json:"problem_type_weights" len:"1,8" range:"0,1000"`
	// Coefficients of the linear expressions.
	LinearLowerBound int `json:"linear_lower_bound" range:"1,100"`
	LinearUpperBound int `json:"linear_upper_bound" range:"1,100"`
	// Degree of the linear expression in the substitution problem.
	MinLinearDegree int `json:"min_linear_degree" range:"1,10"`
	MaxLinearDegree int `json:"max_linear_degree" range:"1,10"`
	// The signed constant the integrand is multiplied by.
	OuterConstantMin int `json:"outer_constant_min" range:"1,100"`
	OuterConstantMax int `json:"outer_constant_max" range:"1,100"`
	// Degree of the polynomial in the by-parts problems.
	MinPolyDegree int      `json:"min_poly_degree" range:"1,10"`
	MaxPolyDegree int      `json:"max_poly_degree" range:"1,10"`
	Symbols       []string `json:"symbols" len:"1,2"`
	Operators     []string `json:"operators" len:"1,2"`
}

// Validate checks reasoning-gym's assertions, and that repeated_parts (which
// draws its degree from 3..max_poly_degree) can be drawn.
func (o IntermediateIntegrationOptions) Validate() error {
	if len(o.ProblemTypes) != len(o.ProblemTypeWeights) {
		return &envs.OptionError{Option: "problem_type_weights", Reason: fmt.Sprintf(
			"has %d weights for %d problem_types", len(o.ProblemTypeWeights), len(o.ProblemTypes))}
	}
	sum := 0.0
	for i, t := range o.ProblemTypes {
		if !slices.Contains(intermediateTypes, t) {
			return &envs.OptionError{Option: "problem_types", Reason: fmt.Sprintf("%q is not one of %s", t, strings.Join(intermediateTypes, ", "))}
		}
		if t == "repeated_parts" && o.ProblemTypeWeights[i] > 0 && o.MaxPolyDegree < 3 {
			return &envs.OptionError{Option: "max_poly_degree", Reason: "repeated_parts needs max_poly_degree of at least 3"}
		}
		sum += o.ProblemTypeWeights[i]
	}
	if sum <= 0 {
		return &envs.OptionError{Option: "problem_type_weights", Reason: "no weight is positive"}
	}
	for _, c := range [][4]any{
		{o.LinearLowerBound, o.LinearUpperBound, "linear_lower_bound", "linear_upper_bound"},
		{o.MinLinearDegree, o.MaxLinearDegree, "min_linear_degree", "max_linear_degree"},
		{o.OuterConstantMin, o.OuterConstantMax, "outer_constant_min", "outer_constant_max"},
		{o.MinPolyDegree, o.MaxPolyDegree, "min_poly_degree", "max_poly_degree"},
	} {
		if err := minMax(c[0].(int), c[1].(int), c[2].(string), c[3].(string)); err != nil {
			return err
		}
	}
	for _, s := range o.Symbols {
		if s != "x" && s != "X" {
			return &envs.OptionError{Option: "symbols", Reason: fmt.Sprintf("%q is not x or X", s)}
		}
	}
	return validOperators(o.Operators)
}

// IntermediateIntegration is rg:intermediate_integration: integrals by
// substitution or by parts; any antiderivative scores 1.
var IntermediateIntegration = rg.Task[IntermediateIntegrationOptions]{
	Name:        "intermediate_integration",
	Description: "reasoning-gym intermediate_integration: integrate by substitution or by parts (linear powers, radicals, log and inverse trig, trig powers, polynomial times exp/sin/cos, exponentials, cyclic); any antiderivative (+ C) scores 1.",
	Revision:    1,
	Defaults: IntermediateIntegrationOptions{
		ProblemTypes:       slices.Clone(intermediateTypes),
		ProblemTypeWeights: []float64{0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125},
		LinearLowerBound:   1, LinearUpperBound: 10,
		MinLinearDegree: 2, MaxLinearDegree: 4,
		OuterConstantMin: 1, OuterConstantMax: 3,
		MinPolyDegree: 1, MaxPolyDegree: 3,
		Symbols:   []string{"x"},
		Operators: []string{"+", "-"},
	},
	Generate: generateIntermediate,
	Score:    scoreIntegral,
	Guess:    guessIntegral,
	Retry:    true,
	Feedback: integralFeedback,
}

// weighted draws an index with the given weights (rng.choices).
func weighted(rng *rand.Rand, ws []float64) int {
	sum := 0.0
	for _, w := range ws {
		sum += w
	}
	r := rng.Float64() * sum
	for i, w := range ws {
		if r < w {
			return i
		}
		r -= w
	}
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i] > 0 {
			return i
		}
	}
	return 0
}

func rat(n int) *big.Rat { return big.NewRat(int64(n), 1) }

// linText writes a*v + b (or a*v**2 + b*v + c) sympy's way.
func linText(v string, cs ...int) string {
	p := poly{}
	for i, c := range cs {
		p = p.plus(monomial(rat(c), v, len(cs)-1-i))
	}
	return p.String()
}

// scaledText is c times the product of factors, sympy's way.
func scaledText(c *big.Rat, factors ...string) string { return formatTerm(c, factors, nil) }

// call writes f(arg).
func call(f, arg string) string { return f + "(" + arg + ")" }

// powText writes base**k, base alone for k = 1.
func powText(base string, k int) string {
	if k == 1 {
		return base
	}
	return base + "**" + strconv.Itoa(k)
}

func generateIntermediate(rng *rand.Rand, o IntermediateIntegrationOptions) (rg.Item, error) {
	typ := o.ProblemTypes[weighted(rng, o.ProblemTypeWeights)]
	v := pick(rng, o.Symbols)
	outer := func() *big.Rat {
		return rat(signed(rng, o.Operators, rg.Between(rng, o.OuterConstantMin, o.OuterConstantMax)))
	}
	coef := func() int { return rg.Between(rng, o.LinearLowerBound, o.LinearUpperBound) }
	var integrand, answer string
	meta := map[string]any{"problem_type": typ}
	switch typ {
	case "linear":
		a := coef()
		b := coef()
		if pick(rng, o.Operators) == "-" {
			b = -b
		}
		n := rg.Between(rng, o.MinLinearDegree, o.MaxLinearDegree)
		k := outer()
		integrand = scaledText(k, powText("("+linText(v, a, b)+")", n))
		// sympy integrates the expanded power term by term: no constant.
		base := monomial(rat(a), v, 1).plus(constPoly(rat(b)))
		f := constPoly(big.NewRat(1, 1))
		for range n + 1 {
			f = f.times(base)
		}
		f = f.scale(new(big.Rat).Quo(k, rat(a*(n+1))))
		delete(f, monoKey(nil))
		answer = f.String()
	case "radical":
		a := signed(rng, o.Operators, coef())
		b := signed(rng, o.Operators, coef())
		k := outer()
		u := linText(v, a, b)
		integrand = scaledText(new(big.Rat).Mul(k, rat(a)), call("sqrt", u))
		answer = scaledText(new(big.Rat).Mul(k, big.NewRat(2, 3)), "("+u+")**(3/2)")
	case "log_inverse_trig":
		fn := pick(rng, []string{"log", "asin", "atan"})
		c := rg.Between(rng, 1, 3)
		var arg string
		m := 1
		if fn == "log" {
			arg = v
			if rng.Float64() >= 0.8 {
				m = rg.Between(rng, 2, 3)
				arg = powText(v, m)
			}
		} else {
			arg = linText(v, c, 0)
		}
		k := outer()
		f := call(fn, arg)
		integrand = scaledText(k, f)
		first := scaledText(k, v, f)
		switch fn {
		case "log":
			answer = joinTerms([]string{first, scaledText(new(big.Rat).Mul(k, rat(-m)), v)})
		case "asin":
			answer = joinTerms([]string{first, scaledText(new(big.Rat).Quo(k, rat(c)), call("sqrt", linText(v, -c*c, 0, 1)))})
		default:
			answer = joinTerms([]string{first, scaledText(new(big.Rat).Quo(k, rat(-2*c)), call("log", linText(v, c*c, 0, 1)))})
		}
		meta["function"] = fn
	case "trigonometric":
		fn := pick(rng, []string{"sin", "cos"})
		a := signed(rng, o.Operators, coef())
		b := signed(rng, o.Operators, coef())
		p := rg.Between(rng, 1, 4)
		k := outer()
		u := linText(v, a, b)
		if fn == "sin" {
			integrand = scaledText(new(big.Rat).Mul(k, rat(a)), powText(call("sin", u), p), call("cos", u))
		} else {
			integrand = scaledText(new(big.Rat).Mul(k, rat(-a)), powText(call("cos", u), p), call("sin", u))
		}
		answer = scaledText(new(big.Rat).Quo(k, rat(p+1)), powText(call(fn, u), p+1))
		meta["function"] = fn
	case "polynomial_exp_trig":
		n := rg.Between(rng, o.MinPolyDegree, o.MaxPolyDegree)
		fn := pick(rng, []string{"exp", "sin", "cos"})
		c := 1
		if fn != "exp" {
			c = rg.Between(rng, 1, 3)
		}
		k := outer()
		integrand, answer = byParts(v, n, fn, c, k)
		meta["function"] = fn
	case "exponential":
		quadratic := rng.IntN(2) == 1
		nt := 2
		if quadratic {
			nt = 3
		}
		t := make([]int, nt)
		for i := range t {
			t[i] = signed(rng, o.Operators, coef())
		}
		k := outer()
		u := linText(v, t...)
		e := call("exp", u)
		if quadratic {
			du := monomial(rat(2*t[0]), v, 1).plus(constPoly(rat(t[1]))).scale(k)
			integrand = "(" + du.String() + ")*" + e
		} else {
			integrand = scaledText(new(big.Rat).Mul(k, rat(t[0])), e)
		}
		answer = scaledText(k, e)
	case "cyclic":
		pair := rng.IntN(3)
		k := outer()
		ex, s, c := call("exp", v), call("sin", v), call("cos", v)
		half := new(big.Rat).Quo(k, rat(2))
		neg := new(big.Rat).Neg(half)
		switch pair {
		case 0: // e^x sin x = e^x (sin x - cos x)/2
			integrand = scaledText(k, ex, s)
			answer = joinTerms([]string{scaledText(half, ex, s), scaledText(neg, ex, c)})
		case 1: // e^x cos x = e^x (sin x + cos x)/2
			integrand = scaledText(k, ex, c)
			answer = joinTerms([]string{scaledText(half, ex, s), scaledText(half, ex, c)})
		default: // sin x cos x = sin(x)**2/2
			integrand = scaledText(k, s, c)
			answer = scaledText(half, powText(s, 2))
		}
	case "repeated_parts":
		n := rg.Between(rng, 3, o.MaxPolyDegree)
		fn := pick(rng, []string{"sin", "cos", "exp"})
		k := outer()
		integrand, answer = byParts(v, n, fn, 1, k)
		meta["function"] = fn
	}
	q := fmt.Sprintf(integrationTemplates[rng.IntN(len(integrationTemplates))], integrand) + intermediateGuidelines
	return newIntegralItem(q, integrand, answer, v, meta)
}

// byParts is k*v**n*f(c*v) and its antiderivative by repeated parts:
// sum over j of (-1)^j (d^j/dv^j v**n) times the (j+1)-th antiderivative
// of f(c*v).
func byParts(v string, n int, fn string, c int, k *big.Rat) (integrand, answer string) {
	arg := linText(v, c, 0)
	integrand = scaledText(k, powText(v, n), call(fn, arg))
	// The antiderivative chain of f(c v): coefficient and function.
	cur, curFn := big.NewRat(1, 1), fn
	dcoef := big.NewRat(1, 1) // n!/(n-j)!
	var terms []string
	for j := 0; j <= n; j++ {
		switch curFn {
		case "sin":
			cur.Quo(cur, rat(-c))
			curFn = "cos"
		case "cos":
			cur.Quo(cur, rat(c))
			curFn = "sin"
		}
		t := new(big.Rat).Mul(k, dcoef)
		t.Mul(t, cur)
		if j%2 == 1 {
			t.Neg(t)
		}
		var factors []string
		if n-j > 0 {
			factors = append(factors, powText(v, n-j))
		}
		factors = append(factors, call(curFn, arg))
		terms = append(terms, scaledText(t, factors...))
		dcoef.Mul(dcoef, rat(n-j))
	}
	return integrand, joinTerms(terms)
}
