package code

import (
	"errors"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games/words"
	"github.com/quarry-rl/quarry/envs/rg"
)

// BFOptions are reasoning-gym's BFConfig.
type BFOptions struct {
	Difficulty int `json:"difficulty" range:"1,3"`
}

var bfTemplates = [...]string{
	"This is a BF (Brainf*ck) computer program. What is the output?\n\n%s\n\nRespond only with the exact output of the program.",
	"Consider the following BF (Brainf*ck) code. What would it output?\n\n%s\n\nProvide only the exact output of the code.",
}

func registerBF(r *envs.Registry) error {
	return rg.Register(r, rg.Task[BFOptions]{
		Name:        "bf",
		Description: "reasoning-gym bf: the exact output of a Brainf*ck program that prints a word (difficulty 1) or the result of a counting loop (2, 3).",
		Revision:    1,
		DataDigest:  words.Digest(),
		Defaults:    BFOptions{Difficulty: 1},
		Generate:    generateBF,
		Retry:       true,
	})
}

// generateBF writes reasoning-gym's three programs in Brainf*ck: print a
// five-letter word; add x and y to an accumulator until it reaches a
// target; add x, and y too once past a threshold, until it reaches a
// target. reasoning-gym compiles them from C-like source with BF-it;
// Quarry writes the loops itself, with the same numbers, and runs the
// program in its own interpreter for the answer.
func generateBF(rng *rand.Rand, o BFOptions) (rg.Item, error) {
	e := &bfEmitter{rng: rng}
	meta := map[string]any{"difficulty": o.Difficulty}
	switch o.Difficulty {
	case 1:
		ws := words.Words(5)
		w := ws[rng.IntN(len(ws))]
		e.print(w)
		meta["word"] = w
	case 2:
		x, y := 1+rng.IntN(4), 1+rng.IntN(5)
		target := x*y*(1+rng.IntN(9)) + 1 + rng.IntN(9)
		k := (target + x + y - 1) / (x + y)
		e.loop(k, x+y)
		e.printNumber(k * (x + y))
		meta["x"], meta["y"], meta["target"] = x, y, target
	case 3:
		x, y, target, cond, k1, k2, acc := drawBF3(rng)
		e.loop(k1, x)
		e.loop(k2, x+y)
		e.printNumber(acc)
		meta["x"], meta["y"], meta["target"], meta["conditional"] = x, y, target, cond
	}
	prog := e.b.String()
	out, err := runBF(prog, 1<<22)
	if err != nil {
		return rg.Item{}, err
	}
	meta["bf_program"] = prog
	return rg.Item{
		Question: strings.Replace(bfTemplates[rng.IntN(len(bfTemplates))], "%s", prog, 1),
		Answer:   out,
		Meta:     meta,
	}, nil
}

// drawBF3 draws difficulty 3's numbers as reasoning-gym does, again while
// the result would not fit a cell (BF-it's ints are one 8-bit cell, so
// reasoning-gym's larger targets wrap), and splits its loop into the runs
// before and after the threshold.
func drawBF3(rng *rand.Rand) (x, y, target, cond, k1, k2, acc int) {
	for try := 0; ; try++ {
		x, y = 1+rng.IntN(7), 1+rng.IntN(9)
		target = x*y*(1+rng.IntN(9)) + 1 + rng.IntN(9) + 50
		cond = target - 1 - rng.IntN(40)
		if try >= 100 { // never in practice: the smallest draw fits
			x, y, target, cond = 1, 1, 60, 40
		}
		acc, k1, k2 = 0, 0, 0
		for acc < target {
			acc += x
			if acc > cond {
				acc += y
				k2++
			} else {
				k1++
			}
		}
		if acc <= 255 {
			return
		}
	}
}

// bfEmitter writes a program over cells 0 (a loop counter), 1 (the value
// printed or accumulated), 2–8 (division by ten) and 9 (a multiplier).
type bfEmitter struct {
	rng *rand.Rand
	b   strings.Builder
	at  int
}

func (e *bfEmitter) move(cell int) {
	for ; e.at < cell; e.at++ {
		e.b.WriteByte('>')
	}
	for ; e.at > cell; e.at-- {
		e.b.WriteByte('<')
	}
}

// add adds d to cell (mod 256), with a multiplication loop on helper when
// d is large.
func (e *bfEmitter) add(cell, d, helper int) {
	sign := byte('+')
	if d < 0 {
		sign, d = '-', -d
	}
	if d > 12 {
		f := 3 + e.rng.IntN(min(d/2, 10)-2)
		e.move(helper)
		e.b.WriteString(strings.Repeat("+", f) + "[")
		e.move(cell)
		e.b.WriteString(strings.Repeat(string(sign), d/f))
		e.move(helper)
		e.b.WriteString("-]")
		d %= f
	}
	e.move(cell)
	e.b.WriteString(strings.Repeat(string(sign), d))
}

// print writes s a character at a time from cell 1.
func (e *bfEmitter) print(s string) {
	cur := 0
	for i := range len(s) {
		e.add(1, int(s[i])-cur, 0)
		e.b.WriteByte('.')
		cur = int(s[i])
	}
}

// loop adds step to cell 1, k times, counting down cell 0.
func (e *bfEmitter) loop(k, step int) {
	if k == 0 {
		return
	}
	e.add(0, k, 9)
	e.move(0)
	e.b.WriteString("[>" + strings.Repeat("+", step) + "<-]")
}

// divmod is the classic in-place division: with n at cell, the divisor at
// cell+1 and three zero cells after, it leaves 0, d−n%d, n%d, n/d.
const divmod = "[->-[>+>>]>[+[-<+>]>+>>]<<<<<]"

// printNumber prints cell 1's value in decimal; the generator knows it has
// digits digits, so no leading-zero test is needed.
func (e *bfEmitter) printNumber(v int) {
	// cell 1 ÷ 10: cell 3 = ones, cell 4 = the rest; cell 4 ÷ 10: cell 6 =
	// tens, cell 7 = hundreds.
	e.add(2, 10, 9)
	e.move(1)
	e.b.WriteString(divmod)
	e.add(5, 10, 9)
	e.move(4)
	e.b.WriteString(divmod)
	var cells []int
	switch {
	case v >= 100:
		cells = []int{7, 6, 3}
	case v >= 10:
		cells = []int{6, 3}
	default:
		cells = []int{3}
	}
	for _, c := range cells {
		e.add(c, '0', 9)
		e.b.WriteByte('.')
	}
}

// errBFSteps is returned by runBF past its step budget.
var errBFSteps = errors.New("bf: program runs too long")

// runBF interprets prog on 30,000 8-bit cells that wrap, as bfi does, with
// no input; it fails on unbalanced brackets, a pointer off the tape or
// more than steps instructions.
func runBF(prog string, steps int) (string, error) {
	jump := make([]int, len(prog))
	var stack []int
	for i := range len(prog) {
		switch prog[i] {
		case '[':
			stack = append(stack, i)
		case ']':
			if len(stack) == 0 {
				return "", errors.New("bf: unbalanced ]")
			}
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			jump[i], jump[j] = j, i
		}
	}
	if len(stack) > 0 {
		return "", errors.New("bf: unbalanced [")
	}
	tape := make([]byte, 30000)
	var out strings.Builder
	p := 0
	for pc := 0; pc < len(prog); pc++ {
		if steps--; steps < 0 {
			return "", errBFSteps
		}
		switch prog[pc] {
		case '>':
			if p++; p >= len(tape) {
				return "", errors.New("bf: pointer past the tape")
			}
		case '<':
			if p--; p < 0 {
				return "", errors.New("bf: pointer before the tape")
			}
		case '+':
			tape[p]++
		case '-':
			tape[p]--
		case '.':
			out.WriteByte(tape[p])
		case '[':
			if tape[p] == 0 {
				pc = jump[pc]
			}
		case ']':
			if tape[p] != 0 {
				pc = jump[pc]
			}
		}
	}
	return out.String(), nil
}
