package algebra

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/big"
	"math/cmplx"
	"strings"
	"unicode"
)

// The answers of the symbolic tasks are sympy expressions (reasoning-gym
// parses them with sympy.parse_expr). This is Quarry's reader for that
// syntax, more lenient than parse_expr's default transformations: ^ is a
// power as well as **, multiplication may be implicit (2x, 3x**2, x sin(x),
// (x+1)(x-1)), a run of letters that is no known name splits into one-letter
// symbols (xy is x*y, xsin(x) is x*sin(x)), e is Euler's number as well as E,
// ln is log, arcsin is asin, and the Unicode minus and times signs are read.

// maxExprLen bounds an answer the parser looks at; longer is never equivalent.
const maxExprLen = 4000

// maxExprDepth bounds nesting, so a hostile answer cannot exhaust the stack.
const maxExprDepth = 100

type opKind uint8

const (
	opNum  opKind = iota // num
	opSym                // name
	opAdd                // args summed
	opMul                // args multiplied
	opNeg                // -args[0]
	opDiv                // args[0] / args[1]
	opPow                // args[0] ** args[1]
	opFunc               // name(args...)
	opPi
	opE
	opI
)

// node is a parsed expression.
type node struct {
	op   opKind
	num  *big.Rat // opNum: exact value of the literal
	name string   // opSym, opFunc
	args []*node
}

// functions are the names read as functions (sympy's names and common
// aliases), with the sympy name each stands for.
var functions = map[string]string{
	"sin": "sin", "cos": "cos", "tan": "tan", "cot": "cot", "sec": "sec", "csc": "csc",
	"asin": "asin", "acos": "acos", "atan": "atan", "acot": "acot",
	"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arccot": "acot",
	"sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
	"exp": "exp", "log": "log", "ln": "log", "sqrt": "sqrt", "Abs": "Abs", "abs": "Abs",
}

// constants are the names read as constants.
var constants = map[string]opKind{"pi": opPi, "E": opE, "e": opE, "I": opI}

// knownNames, longest first, for splitting a run of letters.
var knownNames = func() []string {
	var ns []string
	for n := range functions {
		ns = append(ns, n)
	}
	for n := range constants {
		if len(n) > 1 {
			ns = append(ns, n)
		}
	}
	// Longest first, then alphabetical, so the split is deterministic.
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && (len(ns[j]) > len(ns[j-1]) || len(ns[j]) == len(ns[j-1]) && ns[j] < ns[j-1]); j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
	return ns
}()

var errSyntax = errors.New("not an expression")

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tOp // + - * / ^ ( ) ,
)

type token struct {
	kind tokKind
	text string // tOp: "+", "-", "*", "/", "^", "(", ")", ","; "**" is "^"
}

// lex splits s into tokens, splitting letter runs into known names and
// one-letter symbols.
func lex(s string) ([]token, error) {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r >= '0' && r <= '9' || r == '.' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9':
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.') {
				j++
			}
			// A Python exponent: 1e5, 2.5e-3 (not 2e, which is 2*e).
			if j < len(rs) && (rs[j] == 'e' || rs[j] == 'E') {
				k := j + 1
				if k < len(rs) && (rs[k] == '+' || rs[k] == '-') {
					k++
				}
				if k < len(rs) && rs[k] >= '0' && rs[k] <= '9' {
					for k < len(rs) && rs[k] >= '0' && rs[k] <= '9' {
						k++
					}
					j = k
				}
			}
			out = append(out, token{tNum, string(rs[i:j])})
			i = j
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || rs[j] == '_' || rs[j] >= '0' && rs[j] <= '9') {
				j++
			}
			out = append(out, splitIdent(string(rs[i:j]))...)
			i = j
		default:
			switch r {
			case '*':
				if i+1 < len(rs) && rs[i+1] == '*' {
					out = append(out, token{tOp, "^"})
					i += 2
					continue
				}
				out = append(out, token{tOp, "*"})
			case '×', '·', '⋅':
				out = append(out, token{tOp, "*"})
			case '−', '–':
				out = append(out, token{tOp, "-"})
			case '÷':
				out = append(out, token{tOp, "/"})
			case '+', '-', '/', '^', '(', ')', ',':
				out = append(out, token{tOp, string(r)})
			case '[', '{':
				out = append(out, token{tOp, "("})
			case ']', '}':
				out = append(out, token{tOp, ")"})
			default:
				return nil, fmt.Errorf("%w: unexpected %q", errSyntax, r)
			}
			i++
		}
	}
	return out, nil
}

// splitIdent reads an identifier: a known name whole; a letter run followed
// by digits or underscores as one symbol (C1, x_2, as sympy does); otherwise
// known names and single letters left to right.
func splitIdent(id string) []token {
	if _, ok := functions[id]; ok {
		return []token{{tIdent, id}}
	}
	if _, ok := constants[id]; ok {
		return []token{{tIdent, id}}
	}
	if len(id) == 1 || strings.ContainsAny(id, "0123456789_") {
		return []token{{tIdent, id}}
	}
	var out []token
	for rest := id; rest != ""; {
		took := false
		for _, n := range knownNames {
			if strings.HasPrefix(rest, n) {
				out = append(out, token{tIdent, n})
				rest = rest[len(n):]
				took = true
				break
			}
		}
		if !took {
			_, size := firstRune(rest)
			out = append(out, token{tIdent, rest[:size]})
			rest = rest[size:]
		}
	}
	return out
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
	}
	return []rune(s)[0], len(s)
}

type parser struct {
	toks  []token
	pos   int
	depth int
}

// parseExpr parses s in the lenient sympy syntax.
func parseExpr(s string) (*node, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxExprLen {
		return nil, fmt.Errorf("%w: empty or too long", errSyntax)
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tEOF {
		return nil, fmt.Errorf("%w: unexpected %q", errSyntax, p.peek().text)
	}
	return n, nil
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{}
}

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxExprDepth {
		return fmt.Errorf("%w: nested too deeply", errSyntax)
	}
	return nil
}

func (p *parser) sum() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	first, err := p.product()
	if err != nil {
		return nil, err
	}
	terms := []*node{first}
	for p.isOp("+") || p.isOp("-") {
		neg := p.peek().text == "-"
		p.pos++
		t, err := p.product()
		if err != nil {
			return nil, err
		}
		if neg {
			t = &node{op: opNeg, args: []*node{t}}
		}
		terms = append(terms, t)
	}
	if len(terms) == 1 {
		return first, nil
	}
	return &node{op: opAdd, args: terms}, nil
}

func (p *parser) product() (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tOp && t.text == "*":
			p.pos++
			r, err := p.unary()
			if err != nil {
				return nil, err
			}
			left = &node{op: opMul, args: []*node{left, r}}
		case t.kind == tOp && t.text == "/":
			p.pos++
			r, err := p.unary()
			if err != nil {
				return nil, err
			}
			left = &node{op: opDiv, args: []*node{left, r}}
		case t.kind == tIdent || t.kind == tOp && t.text == "(" || t.kind == tNum:
			// Implicit multiplication: 2x, x y, (x+1)(x-1), x 2.
			r, err := p.power()
			if err != nil {
				return nil, err
			}
			left = &node{op: opMul, args: []*node{left, r}}
		default:
			return left, nil
		}
	}
}

func (p *parser) unary() (*node, error) {
	if p.isOp("-") || p.isOp("+") {
		neg := p.peek().text == "-"
		p.pos++
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		if neg {
			return &node{op: opNeg, args: []*node{n}}, nil
		}
		return n, nil
	}
	return p.power()
}

// power is right-associative and binds tighter than a leading minus, as in
// Python: -x**2 is -(x**2), 2**-1 is 2**(-1).
func (p *parser) power() (*node, error) {
	base, err := p.atom()
	if err != nil {
		return nil, err
	}
	if !p.isOp("^") {
		return base, nil
	}
	p.pos++
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	exp, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &node{op: opPow, args: []*node{base, exp}}, nil
}

func (p *parser) atom() (*node, error) {
	t := p.peek()
	switch t.kind {
	case tNum:
		p.pos++
		r, ok := new(big.Rat).SetString(t.text)
		if !ok {
			return nil, fmt.Errorf("%w: bad number %q", errSyntax, t.text)
		}
		return &node{op: opNum, num: r}, nil
	case tIdent:
		p.pos++
		if f, ok := functions[t.text]; ok && p.isOp("(") {
			p.pos++
			var args []*node
			for {
				a, err := p.sum()
				if err != nil {
					return nil, err
				}
				args = append(args, a)
				if !p.isOp(",") {
					break
				}
				p.pos++
			}
			if !p.isOp(")") {
				return nil, fmt.Errorf("%w: unclosed %s(", errSyntax, t.text)
			}
			p.pos++
			if len(args) != 1 && !(f == "log" && len(args) == 2) {
				return nil, fmt.Errorf("%w: %s takes one argument", errSyntax, t.text)
			}
			return &node{op: opFunc, name: f, args: args}, nil
		}
		if c, ok := constants[t.text]; ok {
			return &node{op: c}, nil
		}
		if _, ok := functions[t.text]; ok {
			return nil, fmt.Errorf("%w: %s without (", errSyntax, t.text)
		}
		return &node{op: opSym, name: t.text}, nil
	case tOp:
		if t.text == "(" {
			p.pos++
			n, err := p.sum()
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				return nil, fmt.Errorf("%w: unclosed (", errSyntax)
			}
			p.pos++
			return n, nil
		}
	}
	return nil, fmt.Errorf("%w: unexpected %q", errSyntax, t.text)
}

// symbols returns the names of the free symbols of n.
func (n *node) symbols(into map[string]bool) {
	if n.op == opSym {
		into[n.name] = true
	}
	for _, a := range n.args {
		a.symbols(into)
	}
}

// dual is a value and its derivative along the variable of differentiation.
type dual struct{ v, d complex128 }

// symbolValue is the value a symbol other than the variable takes (an
// integration constant C, or any other name): a constant, so its
// derivative is 0 as in sympy.diff. Distinct names get distinct values.
func symbolValue(name string) complex128 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return complex(0.5+float64(h.Sum64()%1000)/997, 0)
}

// evalDual evaluates n and its derivative with respect to variable at x,
// in complex arithmetic with principal branches.
func evalDual(n *node, variable string, x complex128) dual {
	switch n.op {
	case opNum:
		f, _ := n.num.Float64()
		return dual{complex(f, 0), 0}
	case opSym:
		if n.name == variable {
			return dual{x, 1}
		}
		return dual{symbolValue(n.name), 0}
	case opPi:
		return dual{math.Pi, 0}
	case opE:
		return dual{math.E, 0}
	case opI:
		return dual{1i, 0}
	case opAdd:
		var s dual
		for _, a := range n.args {
			t := evalDual(a, variable, x)
			s.v += t.v
			s.d += t.d
		}
		return s
	case opNeg:
		t := evalDual(n.args[0], variable, x)
		return dual{-t.v, -t.d}
	case opMul:
		a, b := evalDual(n.args[0], variable, x), evalDual(n.args[1], variable, x)
		return dual{a.v * b.v, a.d*b.v + a.v*b.d}
	case opDiv:
		a, b := evalDual(n.args[0], variable, x), evalDual(n.args[1], variable, x)
		return dual{a.v / b.v, (a.d*b.v - a.v*b.d) / (b.v * b.v)}
	case opPow:
		return powDual(evalDual(n.args[0], variable, x), evalDual(n.args[1], variable, x), n.args[1])
	case opFunc:
		a := evalDual(n.args[0], variable, x)
		if n.name == "log" && len(n.args) == 2 {
			b := evalDual(n.args[1], variable, x)
			la, lb := cmplx.Log(a.v), cmplx.Log(b.v)
			// log(a)/log(b)
			return dual{la / lb, (a.d/a.v*lb - la*b.d/b.v) / (lb * lb)}
		}
		return funcDual(n.name, a)
	}
	return dual{cmplx.NaN(), cmplx.NaN()}
}

// powDual is u**w. An integer exponent is exact repeated multiplication
// (so (-8)**3 stays real); a constant exponent uses w*u**(w-1).
func powDual(u, w dual, wn *node) dual {
	if w.d == 0 {
		if k, ok := smallInt(wn); ok {
			v := intPow(u.v, k)
			return dual{v, complex(float64(k), 0) * intPow(u.v, k-1) * u.d}
		}
		v := cmplx.Pow(u.v, w.v)
		return dual{v, w.v * cmplx.Pow(u.v, w.v-1) * u.d}
	}
	v := cmplx.Pow(u.v, w.v)
	return dual{v, v * (w.d*cmplx.Log(u.v) + w.v*u.d/u.v)}
}

// smallInt reports an integer literal exponent (possibly negated) of
// modest size.
func smallInt(n *node) (int, bool) {
	neg := false
	for n.op == opNeg {
		neg = !neg
		n = n.args[0]
	}
	if n.op != opNum || !n.num.IsInt() || n.num.Num().BitLen() > 16 {
		return 0, false
	}
	k := int(n.num.Num().Int64())
	if neg {
		k = -k
	}
	return k, true
}

func intPow(z complex128, k int) complex128 {
	if k < 0 {
		return 1 / intPow(z, -k)
	}
	r := complex(1, 0)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r *= z
		}
		z *= z
	}
	return r
}

func funcDual(name string, a dual) dual {
	z := a.v
	var v, dv complex128 // f(z), f'(z)
	switch name {
	case "sin":
		v, dv = cmplx.Sin(z), cmplx.Cos(z)
	case "cos":
		v, dv = cmplx.Cos(z), -cmplx.Sin(z)
	case "tan":
		v = cmplx.Tan(z)
		dv = 1 + v*v
	case "cot":
		v = 1 / cmplx.Tan(z)
		dv = -(1 + v*v)
	case "sec":
		v = 1 / cmplx.Cos(z)
		dv = v * cmplx.Tan(z)
	case "csc":
		v = 1 / cmplx.Sin(z)
		dv = -v / cmplx.Tan(z)
	case "asin":
		v, dv = cmplx.Asin(z), 1/cmplx.Sqrt(1-z*z)
	case "acos":
		v, dv = cmplx.Acos(z), -1/cmplx.Sqrt(1-z*z)
	case "atan":
		v, dv = cmplx.Atan(z), 1/(1+z*z)
	case "acot":
		v, dv = cmplx.Atan(1/z), -1/(1+z*z)
	case "sinh":
		v, dv = cmplx.Sinh(z), cmplx.Cosh(z)
	case "cosh":
		v, dv = cmplx.Cosh(z), cmplx.Sinh(z)
	case "tanh":
		v = cmplx.Tanh(z)
		dv = 1 - v*v
	case "asinh":
		v, dv = cmplx.Asinh(z), 1/cmplx.Sqrt(z*z+1)
	case "acosh":
		v, dv = cmplx.Acosh(z), 1/(cmplx.Sqrt(z-1)*cmplx.Sqrt(z+1))
	case "atanh":
		v, dv = cmplx.Atanh(z), 1/(1-z*z)
	case "exp":
		v = cmplx.Exp(z)
		dv = v
	case "log":
		v, dv = cmplx.Log(z), 1/z
	case "sqrt":
		v = cmplx.Sqrt(z)
		dv = 1 / (2 * v)
	case "Abs":
		// Only real arguments have a derivative: sign(z).
		v = complex(cmplx.Abs(z), 0)
		switch {
		case imag(z) != 0 || real(z) == 0:
			dv = cmplx.NaN()
		case real(z) > 0:
			dv = 1
		default:
			dv = -1
		}
	default:
		return dual{cmplx.NaN(), cmplx.NaN()}
	}
	return dual{v, dv * a.d}
}

// ratDual is an exact value and derivative, for expressions of rational
// functions only.
type ratDual struct{ v, d *big.Rat }

// maxRatPow bounds the integer exponents evaluated exactly.
const maxRatPow = 256

// evalRat evaluates n and its derivative exactly at the rational point x,
// or reports false when n is not a rational function (functions, pi, E, I,
// non-integer or large powers) or divides by zero.
func evalRat(n *node, variable string, x *big.Rat) (ratDual, bool) {
	zero := func() *big.Rat { return new(big.Rat) }
	switch n.op {
	case opNum:
		return ratDual{new(big.Rat).Set(n.num), zero()}, true
	case opSym:
		if n.name == variable {
			return ratDual{new(big.Rat).Set(x), big.NewRat(1, 1)}, true
		}
		f := real(symbolValue(n.name))
		r := new(big.Rat)
		r.SetFloat64(f)
		return ratDual{r, zero()}, true
	case opAdd:
		s := ratDual{zero(), zero()}
		for _, a := range n.args {
			t, ok := evalRat(a, variable, x)
			if !ok {
				return s, false
			}
			s.v.Add(s.v, t.v)
			s.d.Add(s.d, t.d)
		}
		return s, true
	case opNeg:
		t, ok := evalRat(n.args[0], variable, x)
		if !ok {
			return t, false
		}
		return ratDual{t.v.Neg(t.v), t.d.Neg(t.d)}, true
	case opMul, opDiv:
		a, ok := evalRat(n.args[0], variable, x)
		if !ok {
			return a, false
		}
		b, ok := evalRat(n.args[1], variable, x)
		if !ok {
			return b, false
		}
		if n.op == opMul {
			d := new(big.Rat).Mul(a.d, b.v)
			d.Add(d, new(big.Rat).Mul(a.v, b.d))
			return ratDual{new(big.Rat).Mul(a.v, b.v), d}, true
		}
		if b.v.Sign() == 0 {
			return a, false
		}
		d := new(big.Rat).Mul(a.d, b.v)
		d.Sub(d, new(big.Rat).Mul(a.v, b.d))
		d.Quo(d, new(big.Rat).Mul(b.v, b.v))
		return ratDual{new(big.Rat).Quo(a.v, b.v), d}, true
	case opPow:
		k, ok := smallInt(n.args[1])
		if !ok || k > maxRatPow || k < -maxRatPow {
			return ratDual{}, false
		}
		u, ok := evalRat(n.args[0], variable, x)
		if !ok {
			return u, false
		}
		if k < 0 && u.v.Sign() == 0 {
			return u, false
		}
		if k == 0 {
			return ratDual{big.NewRat(1, 1), zero()}, true
		}
		v := ratPow(u.v, k)
		d := ratPow(u.v, k-1)
		d.Mul(d, big.NewRat(int64(k), 1))
		d.Mul(d, u.d)
		return ratDual{v, d}, true
	}
	return ratDual{}, false
}

func ratPow(r *big.Rat, k int) *big.Rat {
	if k < 0 {
		p := ratPow(r, -k)
		if p.Sign() == 0 {
			return p
		}
		return p.Inv(p)
	}
	num := new(big.Int).Exp(r.Num(), big.NewInt(int64(k)), nil)
	den := new(big.Int).Exp(r.Denom(), big.NewInt(int64(k)), nil)
	return new(big.Rat).SetFrac(num, den)
}
