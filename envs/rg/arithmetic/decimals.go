package arithmetic

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// DecimalChainSumOptions are reasoning-gym's DecimalChainSumConfig.
// reasoning-gym leaves the sizes open; Quarry caps terms at 100, integer
// digits at 15 and decimal places at 12.
type DecimalChainSumOptions struct {
	MinTerms         int  `json:"min_terms" range:"1,100"`
	MaxTerms         int  `json:"max_terms" range:"1,100"`
	MinDigits        int  `json:"min_digits" range:"1,15"`
	MaxDigits        int  `json:"max_digits" range:"1,15"`
	MinDecimalPlaces int  `json:"min_decimal_places" range:"0,12"`
	MaxDecimalPlaces int  `json:"max_decimal_places" range:"0,12"`
	AllowNegation    bool `json:"allow_negation"`
}

// Validate checks every min ≤ its max, as reasoning-gym does.
func (o DecimalChainSumOptions) Validate() error {
	switch {
	case o.MaxTerms < o.MinTerms:
		return below("max_terms", o.MaxTerms, "min_terms", o.MinTerms)
	case o.MaxDigits < o.MinDigits:
		return below("max_digits", o.MaxDigits, "min_digits", o.MinDigits)
	case o.MaxDecimalPlaces < o.MinDecimalPlaces:
		return below("max_decimal_places", o.MaxDecimalPlaces, "min_decimal_places", o.MinDecimalPlaces)
	}
	return nil
}

var decimalChainSumTask = rg.Task[DecimalChainSumOptions]{
	Name:        "decimal_chain_sum",
	Description: "reasoning-gym decimal_chain_sum: add and subtract a chain of decimal numbers; answer the exact value.",
	Revision:    1,
	Defaults:    DecimalChainSumOptions{MinTerms: 2, MaxTerms: 6, MinDigits: 1, MaxDigits: 4, MinDecimalPlaces: 1, MaxDecimalPlaces: 4},
	Generate:    generateDecimalChainSum,
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym: Decimal equality, else 0. Quarry also strips
		// thousands separators.
		x, ok := parseNumber(answer)
		y, _ := parseDecimal(it.Answer)
		if ok && x.Cmp(y) == 0 {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		y, _ := parseDecimal(it.Answer)
		f, _ := y.Float64()
		return fmt.Sprintf("%.2f", f+float64(rng.IntN(200)-100))
	},
	Retry:    true,
	Feedback: numericFeedback,
}

// generateDecimalChainSum draws reasoning-gym's terms: an integer part of
// the item's digit count (signed with allow_negation) plus a fraction of
// its own decimal places whose first decimal is nonzero (10^(dp-1) ≤
// fraction·10^dp < 10^dp), then + or - between terms. Values are exact:
// integers scaled by 10^(largest decimal places).
func generateDecimalChainSum(rng *rand.Rand, o DecimalChainSumOptions) (rg.Item, error) {
	terms := rg.Between(rng, o.MinTerms, o.MaxTerms)
	digits := rg.Between(rng, o.MinDigits, o.MaxDigits)
	lo, hi := digitRange(digits, o.AllowNegation)
	ints := make([]*big.Int, terms)
	dps := make([]int, terms)
	maxDP := 0
	for i := range ints {
		ints[i] = randBig(rng, lo, hi)
	}
	for i := range dps {
		dps[i] = rg.Between(rng, o.MinDecimalPlaces, o.MaxDecimalPlaces)
		maxDP = max(maxDP, dps[i])
	}
	scaled := make([]*big.Int, terms) // term · 10^maxDP
	for i := range scaled {
		frac := big.NewInt(0)
		if dps[i] > 0 {
			frac = randBig(rng, bigPow10(dps[i]-1), new(big.Int).Sub(bigPow10(dps[i]), big.NewInt(1)))
		}
		v := new(big.Int).Mul(ints[i], bigPow10(dps[i]))
		v.Add(v, frac) // reasoning-gym adds the fraction to a negative integer too
		scaled[i] = v.Mul(v, bigPow10(maxDP-dps[i]))
	}
	var expr strings.Builder
	sum := new(big.Int).Set(scaled[0])
	expr.WriteString(formatScaled(scaled[0], maxDP, dps[0]))
	for i := 1; i < terms; i++ {
		op := "+-"[rng.IntN(2)]
		expr.WriteString(" " + string(op) + " " + formatScaled(scaled[i], maxDP, dps[i]))
		if op == '+' {
			sum.Add(sum, scaled[i])
		} else {
			sum.Sub(sum, scaled[i])
		}
	}
	return rg.Item{
		Question: "State the final answer to the following arithmetic problem: " + expr.String() + " =",
		Answer:   formatScaled(sum, maxDP, maxDP),
		Meta:     map[string]any{"num_terms": terms, "num_digits": digits, "expression": expr.String()},
	}, nil
}

// formatScaled writes v/10^scale with places decimals (places ≤ scale; the
// digits dropped are zeros).
func formatScaled(v *big.Int, scale, places int) string {
	neg := v.Sign() < 0
	a := new(big.Int).Abs(v)
	a.Quo(a, bigPow10(scale-places))
	s := a.String()
	if places > 0 {
		if len(s) <= places {
			s = strings.Repeat("0", places-len(s)+1) + s
		}
		s = s[:len(s)-places] + "." + s[len(s)-places:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// DecimalArithmeticOptions are reasoning-gym's DecimalArithmeticConfig.
// Quarry caps decimal places at 10, terms at 30 and precision at 40.
type DecimalArithmeticOptions struct {
	MinNumDecimalPlaces int `json:"min_num_decimal_places" range:"0,10"`
	MaxNumDecimalPlaces int `json:"max_num_decimal_places" range:"0,10"`
	MinTerms            int `json:"min_terms" range:"1,30"`
	MaxTerms            int `json:"max_terms" range:"1,30"`
	Precision           int `json:"precision" range:"2,40"`
}

// Validate is reasoning-gym's precision rule plus min ≤ max.
func (o DecimalArithmeticOptions) Validate() error {
	switch {
	case o.MaxNumDecimalPlaces < o.MinNumDecimalPlaces:
		return below("max_num_decimal_places", o.MaxNumDecimalPlaces, "min_num_decimal_places", o.MinNumDecimalPlaces)
	case o.MaxTerms < o.MinTerms:
		return below("max_terms", o.MaxTerms, "min_terms", o.MinTerms)
	case o.Precision <= o.MaxNumDecimalPlaces+1:
		return &envs.OptionError{Option: "precision", Reason: fmt.Sprintf(
			"%d must be at least max_num_decimal_places + 2 = %d", o.Precision, o.MaxNumDecimalPlaces+2)}
	}
	return nil
}

// decimalArithmeticData is what the scorer needs: the exact value and the
// tolerance's decimal places.
type decimalArithmeticData struct {
	exact *big.Rat
	tol   *big.Rat
}

// decimalTries bounds the redraws of an expression that divides by zero (a
// parenthesised group such as (1.000-1.000)); the last try uses only + and
// *, which cannot reach zero from positive operands.
const decimalTries = 8

var decimalArithmeticTask = rg.Task[DecimalArithmeticOptions]{
	Name:        "decimal_arithmetic",
	Description: "reasoning-gym decimal_arithmetic: evaluate a parenthesised + - * / expression of decimals to a given number of significant digits.",
	Revision:    1,
	Defaults:    DecimalArithmeticOptions{MinNumDecimalPlaces: 3, MaxNumDecimalPlaces: 3, MinTerms: 2, MaxTerms: 6, Precision: 12},
	Generate: func(rng *rand.Rand, o DecimalArithmeticOptions) (rg.Item, error) {
		terms := rg.Between(rng, o.MinTerms, o.MaxTerms)
		var expr string
		var v *big.Rat
		for try := range decimalTries {
			ops := "+-*/"
			if try == decimalTries-1 {
				ops = "+*"
			}
			expr = decimalExpression(rng, o, terms, ops)
			var err error
			if v, err = evalDecimal(expr); err == nil {
				break
			} else if !errors.Is(err, errDivZero) {
				return rg.Item{}, fmt.Errorf("decimal_arithmetic: %q: %w", expr, err)
			}
		}
		rounded := roundSig(v, o.Precision)
		tol := new(big.Rat).SetFrac(big.NewInt(1), bigPow10(o.MaxNumDecimalPlaces))
		return rg.Item{
			Question: fmt.Sprintf("Please solve this problem to a maximum of %d significant digits, rounding up from the half. Only reply with the final value.\n%s = ?", o.Precision, expr),
			Answer:   formatRat(rounded),
			Data:     decimalArithmeticData{exact: v, tol: tol},
			Meta:     map[string]any{"num_terms": terms, "expression": expr},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym: 1 within 10^-max_num_decimal_places of the answer,
		// else 0. Quarry also accepts that distance from the exact value
		// (the reference is rounded to `precision` digits, which for a large
		// value can be coarser than the tolerance) and strips separators.
		x, ok := parseNumber(answer)
		if !ok {
			return 0
		}
		d := it.Data.(decimalArithmeticData)
		y, _ := parseDecimal(it.Answer)
		if within(x, y, d.tol) || within(x, d.exact, d.tol) {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		y, _ := parseDecimal(it.Answer)
		f, _ := y.Float64()
		return fmt.Sprintf("%.3f", f*(0.5+rng.Float64()))
	},
	Retry:    true,
	Feedback: numericFeedback,
}

func within(x, y, tol *big.Rat) bool {
	d := new(big.Rat).Sub(x, y)
	return d.Abs(d).Cmp(tol) <= 0
}

// decimalExpression is reasoning-gym's problem: terms operands of 0 < v ≤ 10
// with their own decimal places, operators between them, grouped by random
// splits with each group parenthesised half the time (no spaces).
func decimalExpression(rng *rand.Rand, o DecimalArithmeticOptions, terms int, ops string) string {
	operands := make([]string, terms)
	operators := make([]byte, 0, terms)
	for i := range operands {
		ndp := rg.Between(rng, o.MinNumDecimalPlaces, o.MaxNumDecimalPlaces)
		raw := randBig(rng, big.NewInt(1), new(big.Int).Mul(big.NewInt(10), bigPow10(ndp)))
		operands[i] = formatScaled(raw, ndp, ndp)
		if i < terms-1 {
			operators = append(operators, ops[rng.IntN(len(ops))])
		}
	}
	var b strings.Builder
	group(rng, &b, operands, operators)
	return b.String()
}

// group writes operands split at a random point, the operator at the split
// joining the halves, parenthesised with probability 1/2.
func group(rng *rand.Rand, b *strings.Builder, operands []string, operators []byte) {
	if len(operands) == 1 {
		b.WriteString(operands[0])
		return
	}
	split := rg.Between(rng, 1, len(operands)-1)
	var inner strings.Builder
	group(rng, &inner, operands[:split], operators[:split-1])
	inner.WriteByte(operators[split-1])
	group(rng, &inner, operands[split:], operators[split:])
	if rng.IntN(2) == 0 {
		b.WriteString("(" + inner.String() + ")")
	} else {
		b.WriteString(inner.String())
	}
}

var errDivZero = errors.New("division by zero")

// evalDecimal evaluates an expression of decimals, + - * / and parentheses
// with ordinary precedence, exactly.
func evalDecimal(s string) (*big.Rat, error) {
	p := &ratParser{s: s}
	v := p.expr()
	if p.err == nil && p.i != len(s) {
		p.err = fmt.Errorf("unexpected %q at %d", s[p.i], p.i)
	}
	return v, p.err
}

type ratParser struct {
	s   string
	i   int
	err error
}

func (p *ratParser) expr() *big.Rat {
	v := p.term()
	for p.err == nil && p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
		op := p.s[p.i]
		p.i++
		w := p.term()
		if op == '+' {
			v = new(big.Rat).Add(v, w)
		} else {
			v = new(big.Rat).Sub(v, w)
		}
	}
	return v
}

func (p *ratParser) term() *big.Rat {
	v := p.factor()
	for p.err == nil && p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '/') {
		op := p.s[p.i]
		p.i++
		w := p.factor()
		if p.err != nil {
			break
		}
		if op == '*' {
			v = new(big.Rat).Mul(v, w)
		} else if w.Sign() == 0 {
			p.err = errDivZero
		} else {
			v = new(big.Rat).Quo(v, w)
		}
	}
	return v
}

func (p *ratParser) factor() *big.Rat {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		v := p.expr()
		if p.err == nil && (p.i >= len(p.s) || p.s[p.i] != ')') {
			p.err = fmt.Errorf("missing ) at %d", p.i)
		}
		p.i++
		return v
	}
	j := p.i
	for j < len(p.s) && (isDigit(p.s[j]) || p.s[j] == '.') {
		j++
	}
	v, ok := parseDecimal(p.s[p.i:j])
	if !ok {
		p.err = fmt.Errorf("bad number at %d", p.i)
		return new(big.Rat)
	}
	p.i = j
	return v
}

// roundSig rounds x to n significant digits, half to even (Python's
// default Decimal context).
func roundSig(x *big.Rat, n int) *big.Rat {
	if x.Sign() == 0 {
		return new(big.Rat)
	}
	a := new(big.Rat).Abs(x)
	// k: 10^(k-1) ≤ a < 10^k.
	k := len(new(big.Int).Quo(a.Num(), a.Denom()).String())
	if a.Cmp(big.NewRat(1, 1)) < 0 {
		k = 0
		for t := new(big.Rat).Set(a); t.Cmp(big.NewRat(1, 10)) < 0; t.Mul(t, big.NewRat(10, 1)) {
			k--
		}
	}
	shift := n - k // multiply by 10^shift, round to an integer
	scaled := new(big.Rat).Set(a)
	if shift >= 0 {
		scaled.Mul(scaled, new(big.Rat).SetInt(bigPow10(shift)))
	} else {
		scaled.Quo(scaled, new(big.Rat).SetInt(bigPow10(-shift)))
	}
	q, r := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	twice := new(big.Int).Lsh(r, 1)
	if c := twice.Cmp(scaled.Denom()); c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	out := new(big.Rat).SetInt(q)
	if shift >= 0 {
		out.Quo(out, new(big.Rat).SetInt(bigPow10(shift)))
	} else {
		out.Mul(out, new(big.Rat).SetInt(bigPow10(-shift)))
	}
	if x.Sign() < 0 {
		out.Neg(out)
	}
	return out
}

// formatRat writes a terminating decimal in plain notation without trailing
// zeros ("12.5", "-3", "0.001").
func formatRat(x *big.Rat) string {
	if x.IsInt() {
		return x.Num().String()
	}
	// The denominator of a rounded value is 2^a·5^b, so max(a, b) places
	// are exact, and max(a, b) < 4 × its decimal digits.
	s := x.FloatString(4 * len(x.Denom().String()))
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
