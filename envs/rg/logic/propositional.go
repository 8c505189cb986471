package logic

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// PropositionalOptions are reasoning-gym's PropositionalLogicConfig fields.
// reasoning-gym leaves them open; its curriculum reaches 10 variables, 10
// premises and depth 5. Variables are the letters from P, so at most 10
// (P–Y); depth 8 caps a premise at 128 leaves.
type PropositionalOptions struct {
	MinVars       int `json:"min_vars" range:"1,10"`
	MaxVars       int `json:"max_vars" range:"1,10"`
	MinStatements int `json:"min_statements" range:"1,20"`
	MaxStatements int `json:"max_statements" range:"1,20"`
	MinComplexity int `json:"min_complexity" range:"1,8"`
	MaxComplexity int `json:"max_complexity" range:"1,8"`
}

// Validate checks each min ≤ max.
func (o PropositionalOptions) Validate() error {
	if err := rg.MinMax("min_vars", "max_vars", o.MinVars, o.MaxVars); err != nil {
		return err
	}
	if err := rg.MinMax("min_statements", "max_statements", o.MinStatements, o.MaxStatements); err != nil {
		return err
	}
	return rg.MinMax("min_complexity", "max_complexity", o.MinComplexity, o.MaxComplexity)
}

// Connectives, in reasoning-gym's Operator order (the order a random
// operator is drawn from).
const (
	opAnd = iota
	opOr
	opNot
	opImplies
	opIff
	opVar // a variable, not a connective
)

var connectives = [...]string{opAnd: "∧", opOr: "∨", opNot: "¬", opImplies: "→", opIff: "↔"}

// formula is a propositional formula; a variable is v (0 for P).
type formula struct {
	op   int
	v    int
	l, r *formula
}

// String is reasoning-gym's: ¬ prefixed, binary connectives in
// parentheses with spaces.
func (f *formula) String() string {
	var b strings.Builder
	f.write(&b)
	return b.String()
}

func (f *formula) write(b *strings.Builder) {
	switch f.op {
	case opVar:
		b.WriteByte(byte('P' + f.v))
	case opNot:
		b.WriteString("¬")
		f.l.write(b)
	default:
		b.WriteByte('(')
		f.l.write(b)
		b.WriteString(" " + connectives[f.op] + " ")
		f.r.write(b)
		b.WriteByte(')')
	}
}

func (f *formula) eval(a uint) bool {
	switch f.op {
	case opVar:
		return a>>f.v&1 == 1
	case opNot:
		return !f.l.eval(a)
	case opAnd:
		return f.l.eval(a) && f.r.eval(a)
	case opOr:
		return f.l.eval(a) || f.r.eval(a)
	case opImplies:
		return !f.l.eval(a) || f.r.eval(a)
	}
	return f.l.eval(a) == f.r.eval(a)
}

// size is reasoning-gym's _measure_complexity: the number of nodes.
func (f *formula) size() int {
	switch f.op {
	case opVar:
		return 1
	case opNot:
		return 1 + f.l.size()
	}
	return 1 + f.l.size() + f.r.size()
}

// simplify is what reasoning-gym's Expression.simplify does to generated
// formulas: double negations go, A → B becomes ¬A ∨ B. (Its other rules
// compare with booleans or by identity and never fire.)
func (f *formula) simplify() *formula {
	switch f.op {
	case opVar:
		return f
	case opNot:
		s := f.l.simplify()
		if s.op == opNot {
			return s.l
		}
		return &formula{op: opNot, l: s}
	case opImplies:
		return (&formula{op: opOr, l: &formula{op: opNot, l: f.l}, r: f.r}).simplify()
	}
	return &formula{op: f.op, l: f.l.simplify(), r: f.r.simplify()}
}

// randomFormula is reasoning-gym's _generate_expression: a variable at
// depth 1, else a random connective over formulas one level shallower.
func randomFormula(rng *rand.Rand, vars, depth int) *formula {
	if depth <= 1 {
		return &formula{op: opVar, v: rng.IntN(vars)}
	}
	op := rng.IntN(opVar)
	if op == opNot {
		return &formula{op: opNot, l: randomFormula(rng, vars, depth-1)}
	}
	l := randomFormula(rng, vars, depth-1)
	return &formula{op: op, l: l, r: randomFormula(rng, vars, depth-1)}
}

// models lists, per assignment of vars variables (bit i for variable i),
// whether every premise holds.
func models(premises []*formula, vars int) []bool {
	m := make([]bool, 1<<vars)
	for a := range m {
		m[a] = true
		for _, p := range premises {
			if !p.eval(uint(a)) {
				m[a] = false
				break
			}
		}
	}
	return m
}

// entailed reports whether c holds in every model of the premises.
func entailed(c *formula, models []bool) bool {
	for a, ok := range models {
		if ok && !c.eval(uint(a)) {
			return false
		}
	}
	return true
}

// trivial is reasoning-gym's _is_trivial: a bare variable or a tautology.
func trivial(c *formula, vars int) bool {
	if c.op == opVar {
		return true
	}
	for a := range uint(1) << vars {
		if !c.eval(a) {
			return false
		}
	}
	return true
}

const propositionalPreamble = `The following question is a propositional logic reasoning question.

In the question we provide a list of premises. The task is to infer a correct conclusion from the premise.

FORMAT INSTRUCTIONS:
- Return the conclusion logic statement, as your final answer.
- Use the following notation to denote symbols
    - OR = ∨
    - AND = ∧
    - IMPLIES = →
    - IFF = ↔
    - NOT = ¬

Here is the question:
`

// propositionalData is what the scorer needs.
type propositionalData struct {
	vars   int
	models []bool
}

// PropositionalLogic is rg:propositional_logic: state a non-trivial
// conclusion that follows from the premises. Any entailed formula scores 1.
var PropositionalLogic = rg.Task[PropositionalOptions]{
	Name:        "propositional_logic",
	Description: "reasoning-gym propositional_logic: infer a non-trivial conclusion from propositional premises; any entailed formula scores 1.",
	Revision:    1,
	Defaults: PropositionalOptions{
		MinVars: 2, MaxVars: 4, MinStatements: 2, MaxStatements: 4, MinComplexity: 1, MaxComplexity: 3,
	},
	Generate: generatePropositional,
	Score:    scorePropositional,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		// Three random literals, conjoined: rarely entailed.
		vars := it.Data.(*propositionalData).vars
		lit := func() string {
			s := string(rune('P' + rng.IntN(vars)))
			if rng.IntN(2) == 0 {
				s = "¬" + s
			}
			return s
		}
		return "((" + lit() + " ∧ " + lit() + ") ∧ " + lit() + ")"
	},
	Retry:    true,
	Feedback: propositionalFeedback,
}

func generatePropositional(rng *rand.Rand, o PropositionalOptions) (rg.Item, error) {
	vars := rg.Between(rng, o.MinVars, o.MaxVars)
	n := rg.Between(rng, o.MinStatements, o.MaxStatements)
	var premises []*formula
	var m []bool
	// Premises that are all tautologies entail nothing non-trivial (no
	// answer could score 1), and contradictory ones entail everything (any
	// answer scores 1): Quarry draws such premises again. reasoning-gym
	// keeps them (about one item in five under its defaults is
	// contradictory).
	for try := 0; ; try++ {
		premises = premises[:0]
		for range n {
			premises = append(premises, randomFormula(rng, vars, rg.Between(rng, o.MinComplexity, o.MaxComplexity)))
		}
		m = models(premises, vars)
		if count(m) != 0 && count(m) != len(m) {
			break
		}
		if try == 20 {
			// Vanishingly rare: every premise is P.
			for i := range premises {
				premises[i] = &formula{op: opVar, v: 0}
			}
			m = models(premises, vars)
			break
		}
	}
	conclusion := findConclusion(rng, premises, vars, m)

	var q strings.Builder
	q.WriteString(propositionalPreamble + "Given:\n")
	texts := make([]string, len(premises))
	for i, p := range premises {
		texts[i] = p.String()
		// reasoning-gym's layout, full stops at the start of lines included.
		q.WriteString(strconv.Itoa(i+1) + ". " + texts[i] + "\n.")
	}
	q.WriteString("What can we conclude from the above statements?")
	names := make([]string, vars)
	for i := range names {
		names[i] = string(rune('P' + i))
	}
	return rg.Item{
		Question: q.String(),
		Answer:   conclusion.String(),
		Data:     &propositionalData{vars: vars, models: m},
		Meta: map[string]any{
			"premises": texts, "variables": names, "complexity": conclusion.size(),
			"example_answer": conclusion.String(),
		},
	}, nil
}

func count(m []bool) int {
	n := 0
	for _, ok := range m {
		if ok {
			n++
		}
	}
	return n
}

// findConclusion is reasoning-gym's _find_valid_conclusion: up to 100
// simplified depth-2 formulas, the first entailed and non-trivial. Its
// fallback, the first variable, may not follow (or scores 0.25 as
// trivial); Quarry's is the conjunction of the premises, which always
// follows and is not a tautology (the premises are not).
func findConclusion(rng *rand.Rand, premises []*formula, vars int, m []bool) *formula {
	for range 100 {
		c := randomFormula(rng, vars, 2).simplify()
		if entailed(c, m) && !trivial(c, vars) {
			return c
		}
	}
	c := premises[0]
	for _, p := range premises[1:] {
		c = &formula{op: opAnd, l: c, r: p}
	}
	if c.op == opVar {
		c = &formula{op: opOr, l: c, r: c}
	}
	return c
}

// maxFormulaLen bounds the answers the scorer parses.
const maxFormulaLen = 10000

// scorePropositional is reasoning-gym's score_answer: 1 for an entailed
// non-trivial formula, 0.25 for an entailed trivial one (a bare variable, a
// tautology), 0.05 for a formula that does not follow, 0 for one that does
// not parse or names another variable. Quarry also reads ASCII and LaTeX
// connectives (&, |, ~, ->, <->, \land, \lor, \neg, \to, \iff, …).
func scorePropositional(answer string, it *rg.Item) float64 {
	d := it.Data.(*propositionalData)
	f, ok := parseFormula(answer, d.vars)
	switch {
	case !ok:
		return 0
	case !entailed(f, d.models):
		return 0.05
	case trivial(f, d.vars):
		return 0.25
	}
	return 1
}

func propositionalFeedback(answer string, it *rg.Item, _ float64) string {
	d := it.Data.(*propositionalData)
	f, ok := parseFormula(answer, d.vars)
	switch {
	case !ok:
		return "Your answer is not a well-formed formula over the premises' variables (" +
			strings.Join(it.Meta["variables"].([]string), ", ") + ") in the notation given."
	case !entailed(f, d.models):
		return "Your conclusion does not follow: some assignment makes every premise true and it false."
	}
	return "Your conclusion follows, but it is trivial (a single variable or a tautology)."
}

// Connective spellings the parser accepts, longest first where one is a
// prefix of another. An empty symbol is layout (LaTeX sizing, spacing).
var connectiveSpellings = []struct{ text, sym string }{
	{"\\leftrightarrow", "↔"}, {"\\Leftrightarrow", "↔"}, {"\\iff", "↔"}, {"\\equiv", "↔"},
	{"<->", "↔"}, {"<=>", "↔"}, {"↔", "↔"}, {"⇔", "↔"}, {"⟺", "↔"}, {"≡", "↔"},
	{"\\rightarrow", "→"}, {"\\Rightarrow", "→"}, {"\\implies", "→"}, {"\\to", "→"},
	{"->", "→"}, {"=>", "→"}, {"→", "→"}, {"⇒", "→"}, {"⟹", "→"},
	{"\\land", "∧"}, {"\\wedge", "∧"}, {"&&", "∧"}, {"&", "∧"}, {"∧", "∧"},
	{"\\lor", "∨"}, {"\\vee", "∨"}, {"||", "∨"}, {"|", "∨"}, {"∨", "∨"},
	{"\\lnot", "¬"}, {"\\neg", "¬"}, {"~", "¬"}, {"!", "¬"}, {"¬", "¬"},
	{"\\left", ""}, {"\\right", ""}, {"\\,", ""}, {"\\;", ""}, {"\\ ", ""},
	{"(", "("}, {"[", "("}, {"{", "("}, {")", ")"}, {"]", ")"}, {"}", ")"},
}

// tokenize splits s into connective symbols, parentheses and variable
// letters; ok is false on anything else.
func tokenize(s string) ([]string, bool) {
	var toks []string
next:
	for len(s) > 0 {
		switch c := s[0]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s = s[1:]
			continue
		case c >= 'A' && c <= 'Z':
			toks = append(toks, s[:1])
			s = s[1:]
			continue
		}
		for _, sp := range connectiveSpellings {
			if strings.HasPrefix(s, sp.text) {
				if sp.sym != "" {
					toks = append(toks, sp.sym)
				}
				s = s[len(sp.text):]
				continue next
			}
		}
		return nil, false
	}
	return toks, true
}

// parseFormula reads a formula over the first vars variables. Binding, as
// reasoning-gym's parse_expr: ¬ tightest, then ∧, ∨, →, ↔; binary
// connectives group from the left. A letter outside the variables fails,
// as reasoning-gym's check does.
func parseFormula(s string, vars int) (*formula, bool) {
	if len(s) > maxFormulaLen {
		return nil, false
	}
	toks, ok := tokenize(s)
	if !ok || len(toks) == 0 {
		return nil, false
	}
	p := &formulaParser{toks: toks, vars: vars}
	f := p.binary(0)
	if f == nil || p.pos != len(toks) {
		return nil, false
	}
	return f, true
}

type formulaParser struct {
	toks []string
	pos  int
	vars int
}

// levels of the binary connectives, loosest first.
var binaryLevels = []struct {
	sym string
	op  int
}{{"↔", opIff}, {"→", opImplies}, {"∨", opOr}, {"∧", opAnd}}

func (p *formulaParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *formulaParser) binary(level int) *formula {
	if level == len(binaryLevels) {
		return p.unary()
	}
	l := p.binary(level + 1)
	for l != nil && p.peek() == binaryLevels[level].sym {
		p.pos++
		r := p.binary(level + 1)
		if r == nil {
			return nil
		}
		l = &formula{op: binaryLevels[level].op, l: l, r: r}
	}
	return l
}

func (p *formulaParser) unary() *formula {
	switch t := p.peek(); {
	case t == "¬":
		p.pos++
		x := p.unary()
		if x == nil {
			return nil
		}
		return &formula{op: opNot, l: x}
	case t == "(":
		p.pos++
		x := p.binary(0)
		if x == nil || p.peek() != ")" {
			return nil
		}
		p.pos++
		return x
	case len(t) == 1 && t[0] >= 'P' && int(t[0]-'P') < p.vars:
		p.pos++
		return &formula{op: opVar, v: int(t[0] - 'P')}
	}
	return nil
}
