package mathcheck

import (
	"errors"
	"math/big"
	"strconv"
	"strings"
)

var errSyntax = errors.New("mathcheck: cannot parse")

type tokKind uint8

const (
	tEOF   tokKind = iota
	tNum           // 12, 1.5, .5, 1.5e3
	tIdent         // one Latin letter
	tCmd           // a known command (without the backslash) or plain name (sqrt, pi)
	tSym           // one ASCII symbol; "^" also for "**"
)

type token struct {
	kind tokKind
	text string
}

// greek letters are variables; \pi is the constant.
var greek = map[string]bool{
	"alpha": true, "beta": true, "gamma": true, "delta": true, "epsilon": true,
	"varepsilon": true, "zeta": true, "eta": true, "theta": true, "vartheta": true,
	"iota": true, "kappa": true, "lambda": true, "mu": true, "nu": true, "xi": true,
	"rho": true, "sigma": true, "tau": true, "upsilon": true, "phi": true, "varphi": true,
	"chi": true, "psi": true, "omega": true, "Gamma": true, "Delta": true, "Theta": true,
	"Lambda": true, "Xi": true, "Pi": true, "Sigma": true, "Upsilon": true, "Phi": true,
	"Psi": true, "Omega": true,
}

// funcs are the named functions the evaluator knows.
var funcs = map[string]bool{
	"sin": true, "cos": true, "tan": true, "cot": true, "sec": true, "csc": true,
	"arcsin": true, "arccos": true, "arctan": true, "sinh": true, "cosh": true,
	"tanh": true, "ln": true, "log": true, "exp": true,
}

// otherCmds are the remaining commands the parser accepts.
var otherCmds = map[string]bool{
	"frac": true, "sqrt": true, "binom": true, "pi": true, "infty": true, "cdot": true,
	"times": true, "div": true, "lfloor": true, "rfloor": true, "lceil": true, "rceil": true,
	"text": true, "mathrm": true, "mathbf": true, "mathit": true, "textbf": true, "mbox": true,
	"textrm": true, "operatorname": true,
}

// plainNames are letter runs read as one name when typed without a backslash.
var plainNames = map[string]string{
	"sqrt": "sqrt", "pi": "pi", "inf": "infty", "infty": "infty", "infinity": "infty",
	"sin": "sin", "cos": "cos", "tan": "tan", "ln": "ln", "log": "log", "exp": "exp",
}

func knownCmd(name string) bool { return greek[name] || funcs[name] || otherCmds[name] }

// lex splits s into tokens. Unknown commands and non-ASCII bytes are errors.
func lex(s string) ([]token, error) {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ':
			i++
		case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '.' {
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
			}
			// Scientific notation: 1.5e3, 2E-4; "2e" alone is 2·e.
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && isDigit(s[k]) {
					for k < len(s) && isDigit(s[k]) {
						k++
					}
					j = k
				}
			}
			toks = append(toks, token{tNum, s[i:j]})
			i = j
		case isLetter(c):
			j := i
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			if name, ok := plainNames[s[i:j]]; ok {
				toks = append(toks, token{tCmd, name})
			} else {
				for k := i; k < j; k++ {
					toks = append(toks, token{tIdent, s[k : k+1]})
				}
			}
			i = j
		case c == '\\':
			j := i + 1
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			if j == i+1 {
				return nil, errSyntax
			}
			name := s[i+1 : j]
			if !knownCmd(name) {
				// \pix: the longest known prefix, then letters.
				k := len(name) - 1
				for k > 0 && !knownCmd(name[:k]) {
					k--
				}
				if k == 0 {
					return nil, errSyntax
				}
				toks = append(toks, token{tCmd, name[:k]})
				for _, r := range name[k:] {
					toks = append(toks, token{tIdent, string(r)})
				}
			} else {
				toks = append(toks, token{tCmd, name})
			}
			i = j
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			toks = append(toks, token{tSym, "^"})
			i += 2
		case strings.IndexByte("+-*/^_()[]{}|!'", c) >= 0:
			toks = append(toks, token{tSym, s[i : i+1]})
			i++
		default:
			return nil, errSyntax
		}
	}
	return toks, nil
}

type nodeKind uint8

const (
	nNum nodeKind = iota
	nVar
	nConst // name: pi, e, i, infty
	nNeg
	nAdd
	nSub
	nMul
	nDiv
	nPow
	nFunc  // name, a
	nLog   // a in base b
	nRoot  // a-th root... a radicand, b index (nil: square root)
	nFact  // a!
	nBinom // binom(a, b)
	nAbs
	nFloor
	nCeil
)

type node struct {
	kind  nodeKind
	num   *big.Rat
	name  string
	a, b  *node
	isInt bool // an integer literal, for mixed numbers
}

type parser struct {
	toks     []token
	pos      int
	depth    int
	maxDepth int
	inAbs    int
}

// parseExpr parses one scalar expression.
func parseExpr(s string, maxDepth int) (*node, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, errSyntax
	}
	p := &parser{toks: toks, maxDepth: maxDepth}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, errSyntax
	}
	return n, nil
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{}
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *parser) isSym(s string) bool {
	t := p.peek()
	return t.kind == tSym && t.text == s
}

func (p *parser) isCmd(s string) bool {
	t := p.peek()
	return t.kind == tCmd && t.text == s
}

func (p *parser) expect(s string) error {
	if !p.isSym(s) {
		return errSyntax
	}
	p.pos++
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > p.maxDepth {
		return errSyntax
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expr() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.isSym("+") || p.isSym("-") {
		k := nAdd
		if p.next().text == "-" {
			k = nSub
		}
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		left = &node{kind: k, a: left, b: right}
	}
	return left, nil
}

// startsFactor reports whether t can begin an implicitly multiplied factor.
func (p *parser) startsFactor(t token) bool {
	switch t.kind {
	case tNum, tIdent:
		return true
	case tCmd:
		return t.text != "cdot" && t.text != "times" && t.text != "div" && t.text != "rfloor" && t.text != "rceil"
	case tSym:
		return t.text == "(" || t.text == "{" || t.text == "[" || t.text == "|" && p.inAbs == 0
	}
	return false
}

func (p *parser) term() (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tSym && t.text == "*" || t.kind == tCmd && (t.text == "cdot" || t.text == "times"):
			p.next()
			right, err := p.unary()
			if err != nil {
				return nil, err
			}
			left = &node{kind: nMul, a: left, b: right}
		case t.kind == tSym && t.text == "/" || t.kind == tCmd && t.text == "div":
			p.next()
			right, err := p.unary()
			if err != nil {
				return nil, err
			}
			left = &node{kind: nDiv, a: left, b: right}
		case p.startsFactor(t):
			if t.kind == tNum && p.pos > 0 && p.toks[p.pos-1].kind == tNum {
				return nil, errSyntax // "2 3": two numbers in a row
			}
			right, err := p.power()
			if err != nil {
				return nil, err
			}
			if m := mixedNumber(left, right); m != nil {
				left = m
				continue
			}
			left = &node{kind: nMul, a: left, b: right}
		default:
			return left, nil
		}
	}
}

// mixedNumber reads 2\frac{1}{2} as 2½ when the fraction is a proper
// fraction of integer literals directly after an integer literal.
func mixedNumber(left, right *node) *node {
	neg := false
	whole := left
	if whole.kind == nNeg {
		neg, whole = true, whole.a
	}
	if !whole.isInt || right.kind != nDiv || !right.a.isInt || !right.b.isInt {
		return nil
	}
	if right.a.num.Sign() <= 0 || right.a.num.Cmp(right.b.num) >= 0 {
		return nil
	}
	m := &node{kind: nAdd, a: whole, b: right}
	if neg {
		m = &node{kind: nNeg, a: m}
	}
	return m
}

func (p *parser) unary() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if p.isSym("-") {
		p.next()
		a, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{kind: nNeg, a: a}, nil
	}
	if p.isSym("+") {
		p.next()
		return p.unary()
	}
	return p.power()
}

func (p *parser) power() (*node, error) {
	base, err := p.postfix()
	if err != nil {
		return nil, err
	}
	if p.isSym("^") {
		p.next()
		exp, err := p.exponent()
		if err != nil {
			return nil, err
		}
		return &node{kind: nPow, a: base, b: exp}, nil
	}
	return base, nil
}

// exponent parses what follows ^: a group, a (signed) atom, or another power
// (right associative: 2^3^2 is 2^(3^2)).
func (p *parser) exponent() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	if p.isSym("-") {
		p.next()
		a, err := p.exponent()
		if err != nil {
			return nil, err
		}
		return &node{kind: nNeg, a: a}, nil
	}
	if p.isSym("+") {
		p.next()
	}
	return p.power()
}

func (p *parser) postfix() (*node, error) {
	n, err := p.primary()
	if err != nil {
		return nil, err
	}
	for p.isSym("!") {
		p.next()
		n = &node{kind: nFact, a: n}
	}
	return n, nil
}

// arg parses a TeX macro argument: a braced group or one token.
func (p *parser) arg() (*node, error) {
	if p.isSym("{") {
		p.next()
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		return n, p.expect("}")
	}
	return p.primary()
}

func (p *parser) group(close string) (*node, error) {
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	return n, p.expect(close)
}

func (p *parser) primary() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.next()
	switch t.kind {
	case tNum:
		return numberNode(t.text)
	case tIdent:
		switch t.text {
		case "e", "i":
			if !p.isSym("_") {
				return &node{kind: nConst, name: t.text}, nil
			}
		}
		return p.variable(t.text)
	case tSym:
		switch t.text {
		case "(":
			return p.group(")")
		case "[":
			return p.group("]")
		case "{":
			return p.group("}")
		case "|":
			p.inAbs++
			n, err := p.group("|")
			p.inAbs--
			return &node{kind: nAbs, a: n}, err
		}
		return nil, errSyntax
	case tCmd:
		return p.command(t.text)
	}
	return nil, errSyntax
}

func (p *parser) variable(name string) (*node, error) {
	if p.isSym("_") {
		p.next()
		var sub string
		if p.isSym("{") {
			p.next()
			for !p.isSym("}") {
				t := p.next()
				if t.kind == tEOF || t.kind == tSym {
					return nil, errSyntax
				}
				sub += t.text
			}
			p.next()
		} else {
			t := p.next()
			if t.kind != tNum && t.kind != tIdent {
				return nil, errSyntax
			}
			sub = t.text
		}
		name += "_" + sub
	}
	return &node{kind: nVar, name: name}, nil
}

func (p *parser) command(name string) (*node, error) {
	switch {
	case greek[name]:
		return p.variable(`\` + name)
	case funcs[name]:
		return p.function(name)
	}
	switch name {
	case "pi", "infty":
		return &node{kind: nConst, name: name}, nil
	case "frac", "binom":
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		b, err := p.arg()
		if err != nil {
			return nil, err
		}
		if name == "binom" {
			return &node{kind: nBinom, a: a, b: b}, nil
		}
		return &node{kind: nDiv, a: a, b: b}, nil
	case "sqrt":
		var index *node
		if p.isSym("[") {
			p.next()
			var err error
			if index, err = p.group("]"); err != nil {
				return nil, err
			}
		}
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		return &node{kind: nRoot, a: a, b: index}, nil
	case "lfloor", "lceil":
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		k, closer := nFloor, "rfloor"
		if name == "lceil" {
			k, closer = nCeil, "rceil"
		}
		if !p.isCmd(closer) {
			return nil, errSyntax
		}
		p.next()
		return &node{kind: k, a: n}, nil
	case "text", "mathrm", "mathbf", "mathit", "textbf", "mbox", "textrm", "operatorname":
		// Wrappers left inside an expression: \mathrm{e}, \text{cm}.
		if !p.isSym("{") {
			return nil, errSyntax
		}
		p.next()
		if p.isSym("}") {
			p.next()
			return &node{kind: nNum, num: big.NewRat(1, 1)}, nil
		}
		if fn := p.peek(); name == "operatorname" && fn.kind == tCmd && funcs[fn.text] {
			p.next()
			if err := p.expect("}"); err != nil {
				return nil, err
			}
			return p.function(fn.text)
		}
		if fn := p.peek(); name == "operatorname" && fn.kind == tIdent {
			// \operatorname{sin}: read the letters as a name.
			var w string
			for p.peek().kind == tIdent {
				w += p.next().text
			}
			if err := p.expect("}"); err != nil || !funcs[w] {
				return nil, errSyntax
			}
			return p.function(w)
		}
		return p.group("}")
	}
	return nil, errSyntax
}

// function parses \sin x, \sin^2 x, \sin^{-1} x, \log_2 8, \ln(x+1).
func (p *parser) function(name string) (*node, error) {
	var pow, base *node
	if p.isSym("^") {
		p.next()
		var err error
		if pow, err = p.exponent(); err != nil {
			return nil, err
		}
		if pow.kind == nNeg && pow.a.kind == nNum && pow.a.num.Cmp(big.NewRat(1, 1)) == 0 {
			switch name {
			case "sin", "cos", "tan":
				name, pow = "arc"+name, nil
			}
		}
	}
	if name == "log" && p.isSym("_") {
		p.next()
		var err error
		if base, err = p.arg(); err != nil {
			return nil, err
		}
	}
	var a *node
	var err error
	t := p.peek()
	if t.kind == tSym && (t.text == "(" || t.text == "{" || t.text == "[" || t.text == "|") {
		a, err = p.postfix()
	} else {
		// \sin 2x = sin(2x); the argument stops at an operator or a command.
		if t.kind != tNum && t.kind != tIdent && t.kind != tCmd {
			return nil, errSyntax
		}
		a, err = p.power()
		for err == nil && (p.peek().kind == tNum || p.peek().kind == tIdent) {
			var f *node
			f, err = p.power()
			a = &node{kind: nMul, a: a, b: f}
		}
	}
	if err != nil {
		return nil, err
	}
	n := &node{kind: nFunc, name: name, a: a}
	if base != nil {
		n = &node{kind: nLog, a: a, b: base}
	}
	if pow != nil {
		n = &node{kind: nPow, a: n, b: pow}
	}
	return n, nil
}

// maxExp10 bounds the decimal exponent of a literal (1e400 is kept exact).
const maxExp10 = 400

func numberNode(text string) (*node, error) {
	mant, exp := text, 0
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		e, err := strconv.Atoi(text[i+1:])
		if err != nil || e > maxExp10 || e < -maxExp10 {
			return nil, errSyntax
		}
		mant, exp = text[:i], e
	}
	r, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, errSyntax
	}
	if exp != 0 {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
		if exp > 0 {
			r.Mul(r, new(big.Rat).SetInt(p))
		} else {
			r.Quo(r, new(big.Rat).SetInt(p))
		}
	}
	return &node{kind: nNum, num: r, isInt: !strings.ContainsAny(text, ".eE")}, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// collectVars adds the variable names in n to set.
func collectVars(n *node, set map[string]bool) {
	for n != nil {
		if n.kind == nVar {
			set[n.name] = true
		}
		collectVars(n.b, set)
		n = n.a
	}
}
