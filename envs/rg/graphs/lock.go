package graphs

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// LockOptions are reasoning-gym's QuantumLockConfig. reasoning-gym leaves
// difficulty open; Quarry allows up to 100 (targets near 1000, at most 15
// presses).
type LockOptions struct {
	Difficulty int `json:"difficulty" range:"1,100"`
}

const lockTemplate = `In front of you are some buttons, a light, and a number. The light will toggle between red and green whenever you press a button. Each button performs a mathematical operation to the number, but the operation may depend on the state of the light.
You must press the shortest correct sequence of buttons to reach the target value. Your answer should be a sequence of buttons separated by '→', for example: A → B → C

Start: 0 (red)
Target: %d
Buttons:
%s`

// lockButton is one button: an operation, its operand and the light state
// it works in ("any", "green" or "red").
type lockButton struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Value  int    `json:"value"`
	Active string `json:"active_state"`
}

type lockPuzzle struct {
	buttons []lockButton
	target  int
}

// lockAttempts bounds the redraws of a puzzle without a solution
// (reasoning-gym redraws without bound; a solvable puzzle is drawn in a few
// tries).
const lockAttempts = 10000

// QuantumLock is reasoning-gym's quantum_lock: the shortest sequence of
// button presses taking the number from 0 to the target.
var QuantumLock = rg.Task[LockOptions]{
	Name:        "quantum_lock",
	Description: "reasoning-gym quantum_lock: the shortest sequence of buttons (A → B → …) reaching a target number.",
	Revision:    1,
	Defaults:    LockOptions{Difficulty: 10},
	Generate: func(rng *rand.Rand, o LockOptions) (rg.Item, error) {
		d := rg.Between(rng, 1, o.Difficulty)
		for range lockAttempts {
			p := drawLock(rng, d)
			path := p.solve(min(15, 6+int(float64(d)*1.5)))
			if path == nil {
				continue
			}
			lines := make([]string, len(p.buttons))
			for i, b := range p.buttons {
				lines[i] = fmt.Sprintf("%s: %s %d (when %s)", b.Name, strings.ToUpper(b.Type[:1])+b.Type[1:], b.Value, b.Active)
			}
			return rg.Item{
				Question: fmt.Sprintf(lockTemplate, p.target, strings.Join(lines, "\n")),
				Answer:   strings.Join(path, " → "),
				Data:     p,
				Meta: map[string]any{"solution_path": path, "target_value": p.target, "buttons": p.buttons,
					"initial_state": "red", "initial_value": 0, "difficulty": d},
			}, nil
		}
		return rg.Item{}, errors.New("no solvable puzzle drawn")
	},
	Score: scoreLock,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		out := make([]string, 1+rng.IntN(15))
		for i := range out {
			out[i] = string(rune('A' + rng.IntN(3)))
		}
		return strings.Join(out, " → ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, score float64) string {
		if score == 0.5 {
			return "Your sequence reaches the target, but it is not the shortest."
		}
		p := it.Data.(*lockPuzzle)
		seq := lockLetters(answer)
		if len(seq) > maxPresses {
			return "Your sequence is too long."
		}
		return fmt.Sprintf("Your sequence ends at %s, not at the target %d.", p.simulate(seq), p.target)
	},
}

// drawLock draws reasoning-gym's three distinct buttons and target.
func drawLock(rng *rand.Rand, d int) *lockPuzzle {
	small := []int{1, 2}
	if d >= 5 {
		small = []int{2, 3}
	}
	mul := []int{2}
	if d >= 7 {
		mul = []int{2, 3}
	}
	ops := []struct {
		name   string
		values []int
	}{{"add", small}, {"subtract", small}, {"multiply", mul}}
	p := &lockPuzzle{}
	for len(p.buttons) < 3 {
		op := ops[rng.IntN(3)]
		v := op.values[rng.IntN(len(op.values))]
		// State weights any 4, green 2, red 1.
		state := "any"
		switch w := rng.IntN(7); {
		case w >= 6:
			state = "red"
		case w >= 4:
			state = "green"
		}
		b := lockButton{Name: string(rune('A' + len(p.buttons))), Type: op.name, Value: v, Active: state}
		dup := false
		for _, x := range p.buttons {
			dup = dup || (x.Type == b.Type && x.Value == b.Value && x.Active == b.Active)
		}
		if !dup {
			p.buttons = append(p.buttons, b)
		}
	}
	base := 5 + math.Pow(float64(d), 1.5)
	variance := rg.Between(rng, -int(base*0.2), int(base*0.3))
	p.target = max(8, int(base+float64(variance)))
	return p
}

type lockState struct {
	val   int
	green bool
}

// solve is reasoning-gym's BFS from (0, red) over presses of usable
// buttons, at most maxSteps presses; nil when the target is out of reach.
// States from which the target cannot be reached in the presses left are
// pruned: above the target only subtraction (at most 3 a press) comes back
// down, and below zero a multiplication only moves further away.
func (p *lockPuzzle) solve(maxSteps int) []string {
	type node struct {
		s     lockState
		depth int
		prev  int
		btn   int
	}
	nodes := []node{{s: lockState{}, prev: -1}}
	seen := map[lockState]bool{{}: true}
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if n.s.val == p.target {
			var path []string
			for j := i; nodes[j].prev >= 0; j = nodes[j].prev {
				path = append(path, p.buttons[nodes[j].btn].Name)
			}
			for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
				path[a], path[b] = path[b], path[a]
			}
			return path
		}
		if n.depth >= maxSteps {
			continue
		}
		left := maxSteps - n.depth - 1
		for k, b := range p.buttons {
			if !b.usable(n.s.green) {
				continue
			}
			s := lockState{val: b.apply(n.s.val), green: !n.s.green}
			if seen[s] || s.val > p.target+3*left || (s.val < 0 && s.val+3*left < p.target) {
				continue
			}
			seen[s] = true
			nodes = append(nodes, node{s: s, depth: n.depth + 1, prev: i, btn: k})
		}
	}
	return nil
}

func (b lockButton) usable(green bool) bool {
	return b.Active == "any" || (b.Active == "green") == green
}

func (b lockButton) apply(v int) int {
	switch b.Type {
	case "add":
		return v + b.Value
	case "subtract":
		return v - b.Value
	}
	return v * b.Value
}

// maxPresses bounds the sequence an answer is simulated for.
const maxPresses = 4096

var lockLetter = regexp.MustCompile(`[A-C]`)

// lockLetters is reasoning-gym's normalize_seq: every A, B or C in the
// upper-cased answer.
func lockLetters(s string) []string { return lockLetter.FindAllString(strings.ToUpper(s), -1) }

// simulate is reasoning-gym's simulate_sequence: a press of a button not
// usable in the light's state does nothing (the light stays too).
func (p *lockPuzzle) simulate(seq []string) *big.Int {
	v := new(big.Int)
	green := false
	for _, name := range seq {
		b := p.buttons[name[0]-'A']
		if !b.usable(green) {
			continue
		}
		x := big.NewInt(int64(b.Value))
		switch b.Type {
		case "add":
			v.Add(v, x)
		case "subtract":
			v.Sub(v, x)
		default:
			v.Mul(v, x)
		}
		green = !green
	}
	return v
}

// scoreLock is reasoning-gym's score_answer: 1 for the reference sequence
// or another of the same length reaching the target, 0.5 for a longer one
// reaching it, else 0.
func scoreLock(answer string, it *rg.Item) float64 {
	seq, want := lockLetters(answer), lockLetters(it.Answer)
	if strings.Join(seq, "") == strings.Join(want, "") {
		return 1
	}
	p := it.Data.(*lockPuzzle)
	if len(seq) > maxPresses || p.simulate(seq).Cmp(big.NewInt(int64(p.target))) != 0 {
		return 0
	}
	if len(seq) == len(want) {
		return 1
	}
	return 0.5
}
