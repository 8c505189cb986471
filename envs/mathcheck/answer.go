package mathcheck

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
)

type answerKind uint8

const (
	aText   answerKind = iota // compared as normalised text only
	aScalar                   // one expression
	aSeq                      // tuple, ordered pair or interval: ordered, brackets matter
	aSet                      // \{…\} or a bare list a, b, c: unordered
	aUnion                    // A \cup B of intervals: unordered parts
	aMatrix                   // pmatrix/bmatrix
	aRel                      // a = b, a < b \le c …
)

// maxElems bounds the elements of a list, set or matrix.
const maxElems = 64

type answer struct {
	kind        answerKind
	src         string // the prepared text, for text comparison
	expr        *node  // aScalar
	lhs         string // aScalar: the variable of a stripped "x = …"
	open, close byte   // aSeq
	elems       []*answer
	cols        int      // aMatrix: elems hold the cells row by row
	ops         []string // aRel: len(terms)-1 operators
	terms       []*node  // aRel
}

// structure parses a prepared answer string into an answer, never failing:
// what cannot be parsed becomes aText.
func (r *run) structure(s string, depth int) *answer {
	s = prepElement(s)
	text := &answer{kind: aText, src: s}
	if depth > r.cfg.MaxDepth || s == "" {
		return text
	}
	r.steps -= len(s)/16 + 1
	if r.steps < 0 {
		return text
	}
	switch s {
	case `\emptyset`, `\{\}`, `\{ \}`, "{}":
		return &answer{kind: aSet, src: s}
	}
	if parts := splitTop(s, `\cup`); len(parts) > 1 {
		return r.union(s, parts, depth)
	}
	if len(s) > 2 && s[0] == '(' && s[len(s)-1] == ')' && strings.HasPrefix(s[1:], `\begin{pmatrix}`) {
		s = strings.TrimSpace(s[1 : len(s)-1]) // \left( \begin{array} … \right)
	}
	if strings.HasPrefix(s, `\begin{pmatrix}`) && strings.HasSuffix(s, `\end{pmatrix}`) {
		return r.matrix(s, depth)
	}
	if strings.HasPrefix(s, `\{`) && strings.HasSuffix(s, `\}`) && closingBracket(s, 0) == len(s)-1 {
		inner := strings.TrimSpace(s[2 : len(s)-2])
		if inner == "" {
			return &answer{kind: aSet, src: s}
		}
		return r.list(s, aSet, splitTop(inner, ","), depth)
	}
	if len(s) > 2 && strings.IndexByte("([", s[0]) >= 0 && strings.IndexByte(")]", s[len(s)-1]) >= 0 && closingBracket(s, 0) == len(s)-1 {
		if items := splitTop(s[1:len(s)-1], ","); len(items) > 1 {
			a := r.list(s, aSeq, items, depth)
			a.open, a.close = s[0], s[len(s)-1]
			return a
		}
	}
	if items := splitTop(s, ",", ";"); len(items) > 1 {
		return r.list(s, aSet, items, depth)
	}
	if lhs, rhs, ok := splitAssignment(s); ok {
		a := r.structure(rhs, depth+1)
		if a.kind == aScalar {
			a.lhs = lhs
		}
		return a
	}
	if parts := splitTop(s, `\pm`); len(parts) == 2 || strings.Count(s, `\pm`) == 1 && !strings.Contains(s, `\pmatrix`) {
		i := strings.Index(s, `\pm`)
		plus := r.structure(s[:i]+"+"+s[i+3:], depth+1)
		minus := r.structure(s[:i]+"-"+s[i+3:], depth+1)
		if plus.kind == aScalar && minus.kind == aScalar {
			return &answer{kind: aSet, src: s, elems: []*answer{plus, minus}}
		}
		return text
	}
	if ops, terms := splitRelation(s); len(ops) > 0 {
		a := &answer{kind: aRel, src: s, ops: ops}
		for _, t := range terms {
			n, err := parseExpr(t, r.cfg.MaxDepth)
			if err != nil {
				return text
			}
			a.terms = append(a.terms, n)
		}
		canonicalRelation(a)
		return a
	}
	n, err := parseExpr(s, r.cfg.MaxDepth)
	if err != nil {
		return text
	}
	return &answer{kind: aScalar, src: s, expr: n}
}

func (r *run) list(src string, kind answerKind, items []string, depth int) *answer {
	if len(items) > maxElems {
		return &answer{kind: aText, src: src}
	}
	a := &answer{kind: kind, src: src}
	for _, it := range items {
		e := r.structure(it, depth+1)
		if kind == aSet && e.kind == aSet && len(items) > 1 && !strings.HasPrefix(strings.TrimSpace(it), `\{`) {
			// 1 \pm 2, 5: flatten the expansion into the list.
			a.elems = append(a.elems, e.elems...)
			continue
		}
		a.elems = append(a.elems, e)
	}
	return a
}

func (r *run) union(src string, parts []string, depth int) *answer {
	if len(parts) > maxElems {
		return &answer{kind: aText, src: src}
	}
	a := &answer{kind: aUnion, src: src}
	allSets := true
	for _, p := range parts {
		e := r.structure(p, depth+1)
		allSets = allSets && e.kind == aSet
		a.elems = append(a.elems, e)
	}
	if allSets {
		// \{1,3\} \cup \{2,4\} is the set \{1,2,3,4\}.
		set := &answer{kind: aSet, src: src}
		for _, e := range a.elems {
			set.elems = append(set.elems, e.elems...)
		}
		return set
	}
	return a
}

func (r *run) matrix(src string, depth int) *answer {
	inner := src[len(`\begin{pmatrix}`) : len(src)-len(`\end{pmatrix}`)]
	text := &answer{kind: aText, src: src}
	a := &answer{kind: aMatrix, src: src}
	rows := splitTop(inner, `\\`)
	if n := len(rows); n > 1 && strings.TrimSpace(rows[n-1]) == "" {
		rows = rows[:n-1]
	}
	for i, row := range rows {
		cells := splitTop(row, "&")
		if i == 0 {
			a.cols = len(cells)
		} else if len(cells) != a.cols {
			return text
		}
		if len(a.elems)+len(cells) > maxElems {
			return text
		}
		for _, c := range cells {
			a.elems = append(a.elems, r.structure(c, depth+1))
		}
	}
	return a
}

// closingBracket returns the index of the bracket closing the one at s[i],
// treating ( [ { as openers and ) ] } as closers of any kind, so that the
// interval (1, 2] is one group.
func closingBracket(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// splitTop splits s at the separators that are outside all brackets.
// A separator that is a command (\cup) must not be followed by a letter.
func splitTop(s string, seps ...string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		for _, sep := range seps {
			if !strings.HasPrefix(s[i:], sep) {
				continue
			}
			end := i + len(sep)
			if isLetter(sep[len(sep)-1]) && end < len(s) && isLetter(s[end]) {
				continue
			}
			parts = append(parts, s[start:i])
			start = end
			i = end - 1
			break
		}
	}
	return append(parts, s[start:])
}

// relOps are the relation operators, longest first.
var relOps = []string{`\le`, `\ge`, `\ne`, "=", "<", ">"}

// splitRelation splits a (chained) relation at its top-level operators.
func splitRelation(s string) (ops, terms []string) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
			continue
		case ')', ']', '}':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		for _, op := range relOps {
			end := i + len(op)
			if !strings.HasPrefix(s[i:], op) || op[0] == '\\' && end < len(s) && isLetter(s[end]) {
				continue
			}
			ops = append(ops, op)
			terms = append(terms, s[start:i])
			start, i = end, end-1
			break
		}
	}
	if len(ops) == 0 {
		return nil, nil
	}
	return ops, append(terms, s[start:])
}

// canonicalRelation rewrites a > b ≥ c as c ≤ b < a.
func canonicalRelation(a *answer) {
	for _, op := range a.ops {
		if op != ">" && op != `\ge` {
			return
		}
	}
	slices.Reverse(a.terms)
	slices.Reverse(a.ops)
	for i, op := range a.ops {
		if op == ">" {
			a.ops[i] = "<"
		} else {
			a.ops[i] = `\le`
		}
	}
}

// textKey is the form in which answers are compared as text: normalised,
// case-folded when there is no LaTeX command, and (C) read as C.
func textKey(s string) string {
	k := strings.Join(strings.Fields(s), "")
	if !strings.Contains(k, `\`) {
		k = strings.ToLower(k)
	}
	if len(k) == 3 && k[0] == '(' && k[2] == ')' && isLetter(k[1]) {
		k = k[1:2]
	}
	return k
}

// equal compares two answers structurally.
func (r *run) equal(a, b *answer) bool {
	r.steps--
	if r.steps < 0 {
		return false
	}
	if ka := textKey(a.src); ka != "" && ka == textKey(b.src) {
		return true
	}
	if a.kind == aSet && b.kind != aSet && len(a.elems) == 1 {
		return r.equal(a.elems[0], b)
	}
	if b.kind == aSet && a.kind != aSet && len(b.elems) == 1 {
		return r.equal(a, b.elems[0])
	}
	if a.kind == aScalar && b.kind == aRel {
		a, b = b, a
	}
	if a.kind == aRel && b.kind == aScalar && b.lhs != "" {
		// y = 2x+1 against 2x - y + 1 = 0: compare as equations.
		lhs, err := parseExpr(b.lhs, r.cfg.MaxDepth)
		if err != nil {
			return false
		}
		return r.relEqual(a, &answer{kind: aRel, ops: []string{"="}, terms: []*node{lhs, b.expr}})
	}
	if iv, ok := r.intervalForm(a, b); ok {
		a = iv
	} else if iv, ok := r.intervalForm(b, a); ok {
		b = iv
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case aScalar:
		return r.scalarEqual(a.expr, b.expr)
	case aSeq:
		return a.open == b.open && a.close == b.close && r.ordered(a.elems, b.elems)
	case aMatrix:
		return a.cols == b.cols && r.ordered(a.elems, b.elems)
	case aSet, aUnion:
		return r.matching(a.elems, b.elems)
	case aRel:
		return r.relEqual(a, b)
	}
	return false
}

func (r *run) ordered(a, b []*answer) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !r.equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// matching reports whether a and b pair up one to one (a perfect bipartite
// matching), which is symmetric even when the element test is approximate.
func (r *run) matching(a, b []*answer) bool {
	if len(a) != len(b) {
		return false
	}
	n := len(a)
	eq := make([][]bool, n)
	for i := range a {
		eq[i] = make([]bool, n)
		for j := range b {
			eq[i][j] = r.equal(a[i], b[j])
		}
	}
	match := make([]int, n) // match[j] = i
	for j := range match {
		match[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for j := 0; j < n; j++ {
			if eq[i][j] && !seen[j] {
				seen[j] = true
				if match[j] < 0 || try(match[j], seen) {
					match[j] = i
					return true
				}
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		if !try(i, make([]bool, n)) {
			return false
		}
	}
	return true
}

// points returns the variable assignments both sides are evaluated at:
// random small rationals (exact arithmetic stays exact), drawn from a
// generator seeded by the Checker, so a verdict is a pure function of its
// inputs.
func (r *run) points(vars []string) []map[string]value {
	rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(len(vars))))
	pts := make([]map[string]value, 3*r.cfg.Points)
	for k := range pts {
		env := make(map[string]value, len(vars))
		for _, v := range vars {
			num := int64(rng.IntN(40) + 1)
			if rng.IntN(2) == 0 {
				num = -num
			}
			env[v] = value{r: big.NewRat(num, int64(rng.IntN(7)+1))}
		}
		pts[k] = env
	}
	return pts
}

// maxVars bounds the distinct variables of one comparison.
const maxVars = 12

func varsOf(ns ...*node) []string {
	set := map[string]bool{}
	for _, n := range ns {
		collectVars(n, set)
	}
	vars := make([]string, 0, len(set))
	for v := range set {
		vars = append(vars, v)
	}
	slices.Sort(vars)
	return vars
}

// scalarEqual compares two expressions: once if they are constant, else at
// random points, requiring agreement at every point where both are defined
// and at least half the points to be usable.
func (r *run) scalarEqual(a, b *node) bool {
	vars := varsOf(a, b)
	if len(vars) > maxVars {
		return false
	}
	ev := &evaluator{steps: &r.steps}
	if len(vars) == 0 {
		va, err := ev.eval(a)
		if err != nil {
			return false
		}
		vb, err := ev.eval(b)
		return err == nil && sameValue(va, vb, r.cfg.RelTol)
	}
	valid := 0
	for _, env := range r.points(vars) {
		if valid == r.cfg.Points {
			break
		}
		ev.env = env
		va, ea := ev.eval(a)
		vb, eb := ev.eval(b)
		if ea == errBudget || eb == errBudget {
			return false
		}
		if ea != nil || eb != nil || !finite(va) || !finite(vb) {
			continue
		}
		if !sameValue(va, vb, r.cfg.RelTol) {
			return false
		}
		valid++
	}
	return 2*valid >= r.cfg.Points
}

// relEqual compares relations. Equations l = r match when l - r of one is a
// non-zero constant multiple of the other's (x + y = 5 and 2x + 2y = 10);
// other relations need the same operators and equal terms.
func (r *run) relEqual(a, b *answer) bool {
	if !slices.Equal(a.ops, b.ops) {
		return false
	}
	if len(a.ops) == 1 && a.ops[0] == "=" {
		da := &node{kind: nSub, a: a.terms[0], b: a.terms[1]}
		db := &node{kind: nSub, a: b.terms[0], b: b.terms[1]}
		return r.proportional(da, db)
	}
	for i := range a.terms {
		if !r.scalarEqual(a.terms[i], b.terms[i]) {
			return false
		}
	}
	return true
}

// proportional reports whether a = k·b for one non-zero constant k.
func (r *run) proportional(a, b *node) bool {
	vars := varsOf(a, b)
	if len(vars) > maxVars {
		return false
	}
	ev := &evaluator{steps: &r.steps}
	var k value
	haveK := false
	valid := 0
	envs := []map[string]value{nil}
	need := 1
	if len(vars) > 0 {
		envs, need = r.points(vars), r.cfg.Points
	}
	for _, env := range envs {
		if valid == need {
			break
		}
		ev.env = env
		va, ea := ev.eval(a)
		vb, eb := ev.eval(b)
		if ea == errBudget || eb == errBudget {
			return false
		}
		if ea != nil || eb != nil || !finite(va) || !finite(vb) {
			continue
		}
		zero := value{r: new(big.Rat)}
		za, zb := sameValue(va, zero, r.cfg.RelTol), sameValue(vb, zero, r.cfg.RelTol)
		switch {
		case za || zb:
			if za != zb {
				return false
			}
		case !haveK:
			var err error
			if k, err = ev.arith(nDiv, va, vb); err != nil {
				return false
			}
			haveK = true
		default:
			kb, err := ev.arith(nMul, k, vb)
			if err != nil || !sameValue(va, kb, r.cfg.RelTol) {
				return false
			}
		}
		valid++
	}
	return 2*valid >= need
}

// intervalForm reads a, when it is a one-variable inequality (or a list of
// them: "x < 1 or x > 2") and other an interval or a union, as the set it
// describes (sympy's as_set, as math_verify compares them): x \le 3 is
// (-\infty, 3], 1 < x \le 3 is (1, 3], x \ne 3 is (-\infty,3) \cup (3,\infty).
func (r *run) intervalForm(a, other *answer) (*answer, bool) {
	if other.kind != aSeq && other.kind != aUnion {
		return nil, false
	}
	if a.kind == aRel {
		return inequalitySet(a)
	}
	if a.kind != aSet || len(a.elems) < 2 {
		return nil, false
	}
	u := &answer{kind: aUnion}
	for _, e := range a.elems {
		if e.kind != aRel {
			return nil, false
		}
		s, ok := inequalitySet(e)
		if !ok {
			return nil, false
		}
		if s.kind == aUnion {
			u.elems = append(u.elems, s.elems...)
		} else {
			u.elems = append(u.elems, s)
		}
	}
	return u, true
}

// inequalitySet is the interval (or union of two) a canonical relation with
// a bare variable on one side describes; ok is false for anything else:
// equations, chains not of the form a < x < b, a variable inside an
// expression (2x \le 6 is not solved), or the variable in a bound.
func inequalitySet(a *answer) (*answer, bool) {
	inf := &node{kind: nConst, name: "infty"}
	negInf := &node{kind: nNeg, a: inf}
	bound := func(v string, n *node) bool { return !slices.Contains(varsOf(n), v) }
	isVar := func(n *node) bool { return n.kind == nVar }
	t, ops := a.terms, a.ops
	switch {
	case len(ops) == 1 && ops[0] == `\ne` && isVar(t[0]) && bound(t[0].name, t[1]):
		return &answer{kind: aUnion, elems: []*answer{interval('(', negInf, t[1], ')'), interval('(', t[1], inf, ')')}}, true
	case len(ops) == 1 && ops[0] == `\ne` && isVar(t[1]) && bound(t[1].name, t[0]):
		return &answer{kind: aUnion, elems: []*answer{interval('(', negInf, t[0], ')'), interval('(', t[0], inf, ')')}}, true
	}
	for _, op := range ops {
		if op != "<" && op != `\le` {
			return nil, false
		}
	}
	end := func(op string, open, closed byte) byte {
		if op == "<" {
			return open
		}
		return closed
	}
	switch {
	case len(ops) == 1 && isVar(t[0]) && bound(t[0].name, t[1]):
		return interval('(', negInf, t[1], end(ops[0], ')', ']')), true
	case len(ops) == 1 && isVar(t[1]) && bound(t[1].name, t[0]):
		return interval(end(ops[0], '(', '['), t[0], inf, ')'), true
	case len(ops) == 2 && isVar(t[1]) && bound(t[1].name, t[0]) && bound(t[1].name, t[2]):
		return interval(end(ops[0], '(', '['), t[0], t[2], end(ops[1], ')', ']')), true
	}
	return nil, false
}

func interval(open byte, lo, hi *node, closeB byte) *answer {
	return &answer{kind: aSeq, open: open, close: closeB,
		elems: []*answer{{kind: aScalar, expr: lo}, {kind: aScalar, expr: hi}}}
}
