package rggames

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// This file holds what countdown and puzzle24 share: reasoning-gym's
// left-to-right expression draw, its printing, and a reader for the
// agent's arithmetic (exact rationals, not sympy's floats).

// arithOps are the operators countdown and puzzle24 know.
const arithOps = "+-*/"

// validOps refuses an empty operator list or an operator other than
// + - * /, naming option.
func validOps(option string, ops []string) error {
	if len(ops) == 0 {
		return optErr(option, "needs at least one operator")
	}
	for _, op := range ops {
		if len(op) != 1 || !strings.Contains(arithOps, op) {
			return optErr(option, "%q is not one of + - * /", op)
		}
	}
	return nil
}

// chain is an expression applied left to right: ((n0 op0 n1) op1 n2) ….
type chain struct {
	nums []int
	ops  []byte // ops[i] joins the prefix and nums[i+1]
}

// drawChain is reasoning-gym's _generate_candidate_expression: terms drawn
// from [lo, hi], each operator drawn from ops; a division takes as divisor
// the first of the remaining numbers (shuffled) that divides the prefix
// exactly, replacing the drawn term, and becomes a subtraction when none
// does. It returns the chain and its value.
func drawChain(rng *rand.Rand, terms, lo, hi int, ops []string) (chain, *big.Int) {
	c := chain{nums: make([]int, terms), ops: make([]byte, terms-1)}
	for i := range c.nums {
		c.nums[i] = rg.Between(rng, lo, hi)
	}
	v := big.NewInt(int64(c.nums[0]))
	var rem big.Int
	for i := 1; i < terms; i++ {
		op := ops[rng.IntN(len(ops))][0]
		n := big.NewInt(int64(c.nums[i]))
		switch op {
		case '+':
			v.Add(v, n)
		case '-':
			v.Sub(v, n)
		case '*':
			v.Mul(v, n)
		case '/':
			rest := slices.Clone(c.nums[i:])
			rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
			op = '-'
			for _, d := range rest {
				if rem.Rem(v, big.NewInt(int64(d))).Sign() == 0 {
					op, c.nums[i] = '/', d
					v.Quo(v, big.NewInt(int64(d)))
					break
				}
			}
			if op == '-' {
				v.Sub(v, n)
			}
		}
		c.ops[i-1] = op
	}
	return c, v
}

// String writes the chain with the parentheses it needs, spaced as sympy
// prints: "(3 + 5)*7/2 - 1".
func (c chain) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(c.nums[0]))
	sum := false // the prefix's top operator is + or -
	for i, op := range c.ops {
		n := strconv.Itoa(c.nums[i+1])
		switch op {
		case '+', '-':
			b.WriteString(" " + string(op) + " " + n)
			sum = true
		default:
			if sum {
				s := b.String()
				b.Reset()
				b.WriteString("(" + s + ")")
			}
			b.WriteString(string(op) + n)
			sum = false
		}
	}
	return b.String()
}

// maxExprLen bounds the answers read as arithmetic.
const maxExprLen = 2000

// exprNotation maps what an answer may write for the four operations and
// brackets (Unicode signs, LaTeX) to the plain ones.
var exprNotation = strings.NewReplacer(
	`\left`, "", `\right`, "", `\times`, "*", `\cdot`, "*", `\div`, "/", `\,`, "", `\ `, " ",
	"×", "*", "·", "*", "⋅", "*", "∗", "*", "÷", "/", "−", "-", "–", "-",
	"[", "(", "]", ")", "{", "(", "}", ")",
)

// exprValue is an answer read as arithmetic.
type exprValue struct {
	value *big.Rat
	nums  []int // the integer literals, in order
}

// readExpr reads answer as an arithmetic expression of integer literals,
// + - * / and parentheses (also ×, ÷, \times, \div, \cdot and brackets). A
// trailing "= n" is dropped. err says why it cannot be read: a syntax error
// or a division by zero.
func readExpr(answer string) (exprValue, error) {
	if len(answer) > maxExprLen {
		return exprValue{}, fmt.Errorf("longer than %d bytes", maxExprLen)
	}
	s := exprNotation.Replace(answer)
	if lhs, _, ok := strings.Cut(s, "="); ok {
		s = lhs
	}
	p := exprParser{s: s}
	v, err := p.sum(0)
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = fmt.Errorf("unexpected %q", p.s[p.i:])
		}
	}
	if err != nil {
		return exprValue{}, err
	}
	return exprValue{value: v, nums: p.nums}, nil
}

type exprParser struct {
	s    string
	i    int
	nums []int
}

// maxExprDepth bounds nesting, so a long run of "(" cannot exhaust the stack.
const maxExprDepth = 64

func (p *exprParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *exprParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *exprParser) sum(depth int) (*big.Rat, error) {
	v, err := p.product(depth)
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			break
		}
		p.i++
		var w *big.Rat
		if w, err = p.product(depth); err == nil {
			if op == '+' {
				v.Add(v, w)
			} else {
				v.Sub(v, w)
			}
		}
	}
	return v, err
}

func (p *exprParser) product(depth int) (*big.Rat, error) {
	v, err := p.unary(depth)
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			break
		}
		p.i++
		var w *big.Rat
		if w, err = p.unary(depth); err == nil {
			if op == '*' {
				v.Mul(v, w)
			} else if w.Sign() == 0 {
				err = fmt.Errorf("division by zero")
			} else {
				v.Quo(v, w)
			}
		}
	}
	return v, err
}

func (p *exprParser) unary(depth int) (*big.Rat, error) {
	if depth > maxExprDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxExprDepth)
	}
	switch c := p.peek(); {
	case c == '-' || c == '+':
		p.i++
		v, err := p.unary(depth + 1)
		if err == nil && c == '-' {
			v.Neg(v)
		}
		return v, err
	case c == '(':
		p.i++
		v, err := p.sum(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("unclosed parenthesis")
		}
		p.i++
		return v, nil
	case c >= '0' && c <= '9':
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i-j > 12 {
			return nil, fmt.Errorf("number %s too long", p.s[j:p.i])
		}
		n, _ := strconv.Atoi(p.s[j:p.i])
		p.nums = append(p.nums, n)
		return new(big.Rat).SetInt64(int64(n)), nil
	case c == 0:
		return nil, fmt.Errorf("ends early")
	default:
		return nil, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
}

// sameNumbers reports whether a and b hold the same numbers, in any order.
func sameNumbers(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// guessChain writes nums in a random order joined by random operators from
// ops, with no parentheses: the random policy's expression.
func guessChain(rng *rand.Rand, nums []int, ops []string) string {
	perm := rng.Perm(len(nums))
	var b strings.Builder
	for i, k := range perm {
		if i > 0 {
			b.WriteString(" " + ops[rng.IntN(len(ops))] + " ")
		}
		b.WriteString(strconv.Itoa(nums[k]))
	}
	return b.String()
}
