package algebra

import (
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// poly is a (Laurent) polynomial with exact rational coefficients in any
// number of variables: monomial key → term. Zero coefficients are dropped.
type poly map[string]*term

// term is one monomial with its coefficient.
type term struct {
	exps map[string]int // variable → exponent (nonzero only)
	c    *big.Rat
}

func monoKey(exps map[string]int) string {
	names := make([]string, 0, len(exps))
	for v := range exps {
		names = append(names, v)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, v := range names {
		b.WriteString(v)
		b.WriteByte('^')
		b.WriteString(strconv.Itoa(exps[v]))
		b.WriteByte(' ')
	}
	return b.String()
}

// constPoly is the constant c.
func constPoly(c *big.Rat) poly {
	p := poly{}
	p.add(map[string]int{}, c)
	return p
}

// monomial is c * v**k.
func monomial(c *big.Rat, v string, k int) poly {
	exps := map[string]int{}
	if k != 0 {
		exps[v] = k
	}
	p := poly{}
	p.add(exps, c)
	return p
}

// add adds c times the monomial exps (not retained) to p.
func (p poly) add(exps map[string]int, c *big.Rat) {
	k := monoKey(exps)
	if t, ok := p[k]; ok {
		t.c.Add(t.c, c)
		if t.c.Sign() == 0 {
			delete(p, k)
		}
		return
	}
	if c.Sign() == 0 {
		return
	}
	cp := make(map[string]int, len(exps))
	for v, e := range exps {
		if e != 0 {
			cp[v] = e
		}
	}
	p[k] = &term{exps: cp, c: new(big.Rat).Set(c)}
}

func (p poly) plus(q poly) poly {
	out := poly{}
	for _, t := range p {
		out.add(t.exps, t.c)
	}
	for _, t := range q {
		out.add(t.exps, t.c)
	}
	return out
}

func (p poly) scale(c *big.Rat) poly {
	out := poly{}
	for _, t := range p {
		out.add(t.exps, new(big.Rat).Mul(t.c, c))
	}
	return out
}

func (p poly) times(q poly) poly {
	out := poly{}
	exps := map[string]int{}
	for _, a := range p {
		for _, b := range q {
			clear(exps)
			for v, e := range a.exps {
				exps[v] += e
			}
			for v, e := range b.exps {
				exps[v] += e
			}
			out.add(exps, new(big.Rat).Mul(a.c, b.c))
		}
	}
	return out
}

func (p poly) equal(q poly) bool {
	if len(p) != len(q) {
		return false
	}
	for k, t := range p {
		u, ok := q[k]
		if !ok || t.c.Cmp(u.c) != 0 {
			return false
		}
	}
	return true
}

// isConst reports whether p is a constant (possibly zero), and its value.
func (p poly) isConst() (*big.Rat, bool) {
	switch len(p) {
	case 0:
		return new(big.Rat), true
	case 1:
		for _, t := range p {
			if len(t.exps) == 0 {
				return t.c, true
			}
		}
	}
	return nil, false
}

// univariate returns the coefficients of p in v, index = exponent, for a
// polynomial in v alone with nonnegative exponents.
func (p poly) univariate(v string) ([]*big.Rat, bool) {
	deg := 0
	for _, t := range p {
		for w, e := range t.exps {
			if w != v || e < 0 {
				return nil, false
			}
			deg = max(deg, e)
		}
	}
	cs := make([]*big.Rat, deg+1)
	for i := range cs {
		cs[i] = new(big.Rat)
	}
	for _, t := range p {
		cs[t.exps[v]].Set(t.c)
	}
	return cs, true
}

// sortedTerms orders terms as sympy prints polynomials: lexicographic in
// the variables taken alphabetically, higher exponents first.
func (p poly) sortedTerms() []*term {
	var names []string
	seen := map[string]bool{}
	ts := make([]*term, 0, len(p))
	for _, t := range p {
		ts = append(ts, t)
		for v := range t.exps {
			if !seen[v] {
				seen[v] = true
				names = append(names, v)
			}
		}
	}
	slices.Sort(names)
	slices.SortFunc(ts, func(a, b *term) int {
		for _, v := range names {
			if a.exps[v] != b.exps[v] {
				return b.exps[v] - a.exps[v]
			}
		}
		return 0
	})
	return ts
}

// String writes p the way sympy's str does: 3*x**2/2 - x*y + 5, with
// negative powers in the denominator (3/(2*x**2)). The zero polynomial is 0.
func (p poly) String() string {
	ts := p.sortedTerms()
	if len(ts) == 0 {
		return "0"
	}
	parts := make([]string, len(ts))
	for i, t := range ts {
		num, den := monoFactors(t.exps)
		parts[i] = formatTerm(t.c, num, den)
	}
	return joinTerms(parts)
}

// monoFactors splits a monomial into numerator and denominator factors.
func monoFactors(exps map[string]int) (num, den []string) {
	names := make([]string, 0, len(exps))
	for v := range exps {
		names = append(names, v)
	}
	slices.Sort(names)
	for _, v := range names {
		switch e := exps[v]; {
		case e == 1:
			num = append(num, v)
		case e > 1:
			num = append(num, v+"**"+strconv.Itoa(e))
		case e == -1:
			den = append(den, v)
		case e < -1:
			den = append(den, v+"**"+strconv.Itoa(-e))
		}
	}
	return num, den
}

// formatTerm writes c times the product of num over the product of den
// (factor texts already parenthesised where needed), sympy's way: the
// numerator's integer first, the denominator's after a slash, a leading
// minus for a negative c.
func formatTerm(c *big.Rat, num, den []string) string {
	var b strings.Builder
	if c.Sign() < 0 {
		b.WriteByte('-')
	}
	p := new(big.Int).Abs(c.Num())
	var ns []string
	if p.Cmp(big.NewInt(1)) != 0 || len(num) == 0 {
		ns = append(ns, p.String())
	}
	ns = append(ns, num...)
	b.WriteString(strings.Join(ns, "*"))
	var ds []string
	if !c.IsInt() {
		ds = append(ds, c.Denom().String())
	}
	ds = append(ds, den...)
	switch len(ds) {
	case 0:
	case 1:
		b.WriteString("/" + ds[0])
	default:
		b.WriteString("/(" + strings.Join(ds, "*") + ")")
	}
	return b.String()
}

// joinTerms joins signed term texts with " + " and " - ".
func joinTerms(parts []string) string {
	if len(parts) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, s := range parts {
		switch {
		case i == 0:
			b.WriteString(s)
		case strings.HasPrefix(s, "-"):
			b.WriteString(" - " + s[1:])
		default:
			b.WriteString(" + " + s)
		}
	}
	return b.String()
}

// errNotExpanded marks an answer that is a polynomial but not written out
// as a sum of monomials (a product or power of sums).
var errNotExpanded = errors.New("not expanded")

// errNotPoly marks an answer that is not a polynomial with rational
// coefficients.
var errNotPoly = errors.New("not a polynomial")

// maxPolyPow bounds the exponents toPoly accepts.
const maxPolyPow = 1000

// toPoly reads n as a polynomial written in expanded form, as sympy's
// parse_expr leaves one equal to the expanded product: a sum of monomials,
// where a monomial is a product of numbers and powers of symbols; like
// terms may repeat (sympy combines them), and a number times a sum is
// distributed (sympy does that too). A product or power of sums is
// errNotExpanded; functions, constants such as pi, and division by a
// symbol are errNotPoly.
func toPoly(n *node) (poly, error) {
	switch n.op {
	case opNum:
		return constPoly(n.num), nil
	case opSym:
		return monomial(big.NewRat(1, 1), n.name, 1), nil
	case opAdd:
		out := poly{}
		for _, a := range n.args {
			p, err := toPoly(a)
			if err != nil {
				return nil, err
			}
			out = out.plus(p)
		}
		return out, nil
	case opNeg:
		p, err := toPoly(n.args[0])
		if err != nil {
			return nil, err
		}
		return p.scale(big.NewRat(-1, 1)), nil
	case opMul:
		a, err := toPoly(n.args[0])
		if err != nil {
			return nil, err
		}
		b, err := toPoly(n.args[1])
		if err != nil {
			return nil, err
		}
		_, aConst := a.isConst()
		_, bConst := b.isConst()
		if len(a) > 1 && !bConst || len(b) > 1 && !aConst {
			return nil, errNotExpanded
		}
		return a.times(b), nil
	case opDiv:
		a, err := toPoly(n.args[0])
		if err != nil {
			return nil, err
		}
		b, err := toPoly(n.args[1])
		if err != nil {
			return nil, err
		}
		c, ok := b.isConst()
		if !ok || c.Sign() == 0 {
			return nil, errNotPoly
		}
		return a.scale(new(big.Rat).Inv(c)), nil
	case opPow:
		k, ok := smallInt(n.args[1])
		if !ok || k < 0 || k > maxPolyPow {
			return nil, errNotPoly
		}
		base, err := toPoly(n.args[0])
		if err != nil {
			return nil, err
		}
		if c, ok := base.isConst(); ok {
			return constPoly(ratPow(c, k)), nil
		}
		if len(base) > 1 {
			return nil, errNotExpanded
		}
		out := constPoly(big.NewRat(1, 1))
		for range k {
			out = out.times(base)
		}
		return out, nil
	}
	return nil, errNotPoly
}
