package logic

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// CircuitOptions are reasoning-gym's CircuitLogicConfig fields. reasoning-gym
// leaves the counts open; Quarry stops at its curriculum's largest level
// (30 terms of 10 inputs: a diagram of about 630 by 2,000 characters).
type CircuitOptions struct {
	MinTerms   int     `json:"min_terms" range:"1,30"`
	MaxTerms   int     `json:"max_terms" range:"1,30"`
	MinInputs  int     `json:"min_inputs" range:"1,10"`
	MaxInputs  int     `json:"max_inputs" range:"1,10"`
	NegProb    float64 `json:"neg_prob" range:"0,1"`
	AllowReuse bool    `json:"allow_reuse"`
}

// Validate checks each min ≤ max.
func (o CircuitOptions) Validate() error {
	if err := rg.MinMax("min_terms", "max_terms", o.MinTerms, o.MaxTerms); err != nil {
		return err
	}
	return rg.MinMax("min_inputs", "max_inputs", o.MinInputs, o.MaxInputs)
}

// Box-drawing pieces of the diagram.
const (
	wireV    = '│'
	wireH    = '─'
	branchR  = '├'
	cornerLU = '┘'
	cornerLD = '┐'
	cornerRU = '└'
	cornerRD = '┌'
)

type gate struct{ name, sym string }

// The gates of a term, and of the output, in reasoning-gym's order.
var (
	termGates  = []gate{{"AND", "&"}, {"NAND", "↑"}, {"XOR", "⊕"}}
	finalGates = []gate{{"OR", "+"}, {"NOR", "↓"}, {"XOR", "⊕"}, {"AND", "&"}}
)

// excelName is 0 → A, 25 → Z, 26 → AA, ….
func excelName(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append(b, byte('A'+(i-1)%26))
	}
	slices.Reverse(b)
	return string(b)
}

type literal struct {
	name string
	y    int // row among the term inputs
	neg  bool
}

type term struct {
	gate   gate
	inputs []literal
}

// canvas is the diagram, a grid of runes.
type canvas struct {
	cells [][]rune
	w, h  int
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, h: h, cells: make([][]rune, h)}
	for y := range c.cells {
		c.cells[y] = []rune(strings.Repeat(" ", w))
	}
	return c
}

// put writes s from (x, y) rightwards or downwards, stopping at the edge.
func (c *canvas) put(x, y int, s string, down bool) {
	for _, r := range s {
		if x < 0 || x >= c.w || y < 0 || y >= c.h {
			return
		}
		c.cells[y][x] = r
		if down {
			y++
		} else {
			x++
		}
	}
}

func (c *canvas) String() string {
	lines := make([]string, c.h)
	for y, row := range c.cells {
		lines[y] = strings.TrimRight(string(row), " ")
	}
	return strings.Join(lines, "\n")
}

func rep(r rune, n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(string(r), n)
}

// CircuitLogic is rg:circuit_logic: read an ASCII circuit of AND, NAND and
// XOR terms feeding one output gate, and give its output (0 or 1).
var CircuitLogic = rg.Task[CircuitOptions]{
	Name:        "circuit_logic",
	Description: "reasoning-gym circuit_logic: evaluate an ASCII-drawn logic circuit for given inputs; answer 0 or 1.",
	Revision:    1,
	Defaults:    CircuitOptions{MinTerms: 3, MaxTerms: 5, MinInputs: 2, MaxInputs: 4, NegProb: 0.3, AllowReuse: true},
	Generate:    generateCircuit,
	Score:       scoreBit,
	Guess:       func(rng *rand.Rand, _ *rg.Item) string { return strconv.Itoa(rng.IntN(2)) },
}

func generateCircuit(rng *rand.Rand, o CircuitOptions) (rg.Item, error) {
	numTerms := rg.Between(rng, o.MinTerms, o.MaxTerms)
	final := pick(rng, finalGates)

	var distinct []string
	input := func() string {
		if o.AllowReuse && len(distinct) > 0 && rng.Float64() < 0.5 {
			return pick(rng, distinct)
		}
		name := excelName(len(distinct))
		distinct = append(distinct, name)
		return name
	}
	terms := make([]term, numTerms)
	y := 0
	for i := range terms {
		g := pick(rng, termGates)
		lits := make([]literal, rg.Between(rng, o.MinInputs, o.MaxInputs))
		for j := range lits {
			name := input()
			lits[j] = literal{name: name, y: y, neg: rng.Float64() < o.NegProb}
			y++
		}
		y++ // a gap after each term
		terms[i] = term{gate: g, inputs: lits}
	}
	values := map[string]int{}
	for _, name := range sortedInputs(terms) {
		values[name] = rng.IntN(2)
	}
	return circuitItem(terms, final, values, o.NegProb), nil
}

// sortedInputs lists the inputs the terms use, in order.
func sortedInputs(terms []term) []string {
	var names []string
	for _, t := range terms {
		for _, l := range t.inputs {
			names = append(names, l.name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// circuitItem draws the circuit and asks for its output under values.
func circuitItem(terms []term, final gate, values map[string]int, negProb float64) rg.Item {
	texts := make([]string, len(terms))
	display := make([]string, len(terms))
	uses := map[string][]int{} // input name → rows where it enters a term
	for i, t := range terms {
		parts := make([]string, len(t.inputs))
		for j, l := range t.inputs {
			parts[j] = l.name
			if l.neg {
				parts[j] += "'"
			}
			uses[l.name] = append(uses[l.name], l.y)
		}
		texts[i] = strings.Join(parts, t.gate.sym)
		display[i] = "(" + texts[i] + ")"
	}
	expression := strings.Join(display, final.sym)
	inputs := sortedInputs(terms)
	diagram := drawCircuit(terms, inputs, uses, final, 2+len([]rune(final.sym)), len([]rune(expression)))

	lines := []string{"Below is a randomly generated logic circuit.\n", diagram, "\n", "Legend for gates:"}
	for _, g := range termGates {
		lines = append(lines, g.sym+g.sym+": "+g.name)
	}
	if negProb > 0 {
		lines = append(lines, ">o: Negate")
	}
	// reasoning-gym always lists the output gate too, even when it is
	// one of the term gates.
	lines = append(lines, final.sym+final.sym+": "+final.name, "", "Given the following input assignments:")
	assignments := map[string]any{}
	for _, name := range inputs {
		lines = append(lines, "  "+name+" = "+strconv.Itoa(values[name]))
		assignments[name] = values[name]
	}
	lines = append(lines, "", "What is the final output?")
	return rg.Item{
		Question: strings.Join(lines, "\n"),
		Answer:   strconv.Itoa(evalCircuit(terms, final, values)),
		Meta: map[string]any{
			"expression": expression, "assignments": assignments, "term_strings": texts,
			"final_gate": final.name, "inputs": inputs,
		},
	}
}

func evalCircuit(terms []term, final gate, values map[string]int) int {
	ones := 0
	for _, t := range terms {
		all, parity := 1, 0
		for _, l := range t.inputs {
			v := values[l.name]
			if l.neg {
				v = 1 - v
			}
			all &= v
			parity ^= v
		}
		v := parity
		switch t.gate.name {
		case "AND":
			v = all
		case "NAND":
			v = 1 - all
		}
		ones += v
	}
	switch final.name {
	case "OR":
		return min(ones, 1)
	case "NOR":
		return 1 - min(ones, 1)
	case "XOR":
		return ones % 2
	}
	if ones == len(terms) {
		return 1
	}
	return 0
}

// drawCircuit lays the circuit out as reasoning-gym does: input labels
// top left, each input's wire running down a column of its own and
// branching right into the terms that use it, each term's inputs through
// optional negation (>o) into its gate, the terms' outputs into the
// output gate, and OUT.
func drawCircuit(terms []term, inputs []string, uses map[string][]int, final gate, finalWidth, exprLen int) string {
	nIn, nTerms := len(inputs), len(terms)
	termInputs := 0
	for _, t := range terms {
		termInputs += len(t.inputs)
	}
	height := nIn + termInputs + nTerms - 1
	maxName := 0
	for _, name := range inputs {
		maxName = max(maxName, len(name))
	}
	inputWidth := maxName + 2
	notAndStart := inputWidth + 2*nIn
	gateStart := notAndStart + 7 + nTerms + 1
	width := gateStart + finalWidth + 4 + 4 + exprLen
	c := newCanvas(width, height)
	baseY := nIn

	c.put(width-8-exprLen, baseY+(height-baseY)/2, rep(wireH, 4)+" OUT", false)

	outCenter := baseY + (height-baseY)/2 - nTerms/2
	if nTerms == 1 {
		c.put(gateStart, outCenter, rep(wireH, finalWidth), false)
	} else {
		c.put(gateStart, outCenter, rep(wireH, nTerms), true)
		c.put(gateStart+1, outCenter, rep(wireV, nTerms), true)
		for i, r := range []rune(final.sym) {
			c.put(gateStart+2+i, outCenter, rep(r, nTerms), true)
			c.put(gateStart+3+i, outCenter, rep(r, nTerms), true)
		}
	}

	// Each term's inputs: seven columns (wire, negation, wire, gate).
	y := baseY
	for _, t := range terms {
		var layers [7]strings.Builder
		sym := []rune(t.gate.sym)[0]
		for _, l := range t.inputs {
			layers[0].WriteRune(wireH)
			layers[3].WriteRune(wireH)
			if l.neg {
				layers[1].WriteRune('>')
				layers[2].WriteRune('o')
			} else {
				layers[1].WriteRune(wireH)
				layers[2].WriteRune(wireH)
			}
			if len(t.inputs) > 1 {
				layers[4].WriteRune(wireV)
				layers[5].WriteRune(sym)
				layers[6].WriteRune(sym)
			} else {
				layers[4].WriteRune(wireH)
				layers[5].WriteRune(wireH)
				layers[6].WriteRune(wireH)
			}
		}
		for i := range layers {
			c.put(notAndStart+i, y, layers[i].String(), true)
		}
		y += len(t.inputs) + 1
	}

	for i, name := range inputs {
		c.put(0, i, name+": "+rep(wireH, inputWidth-(len(name)+2)), false)
		c.put(inputWidth, i, rep(wireH, 2*nIn-1-2*i)+string(cornerLD), false)
	}
	offset := 2*nIn - 1
	for i, name := range inputs {
		breaks := make([]int, len(uses[name]))
		for j, row := range uses[name] {
			breaks[j] = baseY + row
		}
		slices.Sort(breaks)
		for _, yb := range breaks {
			c.put(inputWidth+offset, yb, rep(wireH, 2*nIn-offset), false)
		}
		start := i + 1
		branch := []rune(rep(wireV, breaks[len(breaks)-1]-start+1))
		for _, yb := range breaks {
			if p := yb - start; p >= 0 && p < len(branch) {
				branch[p] = branchR
			}
		}
		branch[len(branch)-1] = cornerRU
		c.put(inputWidth+offset, start, string(branch), true)
		offset -= 2
	}

	// Term outputs into the output gate.
	x := notAndStart + 7
	outY := outCenter
	breakX := nTerms / 2
	for _, t := range terms {
		inY := baseY + (t.inputs[0].y+t.inputs[len(t.inputs)-1].y)/2
		bx := abs(breakX)
		c.put(x, inY, rep(wireH, bx+1), false)
		c.put(x+bx+1, outY, rep(wireH, nTerms-bx), false)
		switch {
		case inY < outY:
			c.put(x+bx+1, inY, string(cornerLD)+rep(wireV, outY-inY-1)+string(cornerRU), true)
		case inY > outY:
			c.put(x+bx+1, outY, string(cornerRD)+rep(wireV, inY-outY-1)+string(cornerLU), true)
		}
		outY++
		breakX--
	}
	return c.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// scoreBit is reasoning-gym's circuit_logic score_answer (the exact
// answer), lenient about how a bit is written: "1.", "**0**", "1.0",
// true/false.
func scoreBit(answer string, it *rg.Item) float64 {
	w := normWord(answer)
	switch w {
	case "true":
		w = "1"
	case "false":
		w = "0"
	}
	if n, ok := rg.ParseInteger(w); ok && strconv.FormatInt(n, 10) == it.Answer {
		return 1
	}
	return 0
}
