package algorithmic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// JugsOptions are reasoning-gym's JugsConfig. reasoning-gym allows any
// num_jugs above 2 (its solver handles only 3) and difficulty below 200;
// Quarry caps them so the breadth-first search over jug states stays small:
// num_jugs 3–4, difficulty 1–30 (1–12 for 4 jugs). About 1% of drawn
// puzzles are hard enough at the largest difficulties, each search taking
// under 1.5 ms.
type JugsOptions struct {
	NumJugs    int `json:"num_jugs" range:"3,4"`
	Difficulty int `json:"difficulty" range:"1,30"`
}

// Validate refuses 4 jugs above difficulty 12 (16^4 states per search).
func (o JugsOptions) Validate() error {
	if o.NumJugs == 4 && o.Difficulty > 12 {
		return &envs.OptionError{Option: "difficulty", Reason: fmt.Sprintf("%d exceeds 12, the most for num_jugs 4", o.Difficulty)}
	}
	return nil
}

// jugsMaxAttempts is reasoning-gym's generate_puzzle bound.
const jugsMaxAttempts = 10000

type jugsPuzzle struct {
	caps   []int
	target int
}

// jugsMove applies one move to state s (a copy is returned).
func jugsMove(caps, s []int, kind byte, i, j int) []int {
	t := append([]int{}, s...)
	switch kind {
	case 'f':
		t[i] = caps[i]
	case 'e':
		t[i] = 0
	default:
		a := min(t[i], caps[j]-t[j])
		t[i] -= a
		t[j] += a
	}
	return t
}

func jugsKey(s []int) uint64 {
	k := uint64(0)
	for _, x := range s {
		k = k<<8 | uint64(x)
	}
	return k
}

// jugsSolve is a shortest list of moves leaving some jug with target, by
// breadth-first search (fill, empty, pour in reasoning-gym's order); nil
// when none does.
func jugsSolve(caps []int, target int) []string {
	type node struct {
		state []int
		prev  int
		move  string
	}
	nodes := []node{{state: make([]int, len(caps)), prev: -1}}
	seen := map[uint64]bool{jugsKey(nodes[0].state): true}
	for at := 0; at < len(nodes); at++ {
		s := nodes[at].state
		for _, x := range s {
			if x == target {
				var path []string
				for n := at; nodes[n].prev >= 0; n = nodes[n].prev {
					path = append(path, nodes[n].move)
				}
				for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
					path[a], path[b] = path[b], path[a]
				}
				return path
			}
		}
		try := func(t []int, move string) {
			if k := jugsKey(t); !seen[k] {
				seen[k] = true
				nodes = append(nodes, node{state: t, prev: at, move: move})
			}
		}
		for i := range caps {
			try(jugsMove(caps, s, 'f', i, 0), "fill "+string(rune('A'+i)))
		}
		for i := range caps {
			try(jugsMove(caps, s, 'e', i, 0), "empty "+string(rune('A'+i)))
		}
		for i := range caps {
			for j := range caps {
				if i != j && s[i] > 0 && s[j] < caps[j] {
					try(jugsMove(caps, s, 'p', i, j), fmt.Sprintf("pour %c->%c", 'A'+i, 'A'+j))
				}
			}
		}
	}
	return nil
}

func jugsGCD(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

var jugsTask = rg.Task[JugsOptions]{
	Name:        "jugs",
	Description: "reasoning-gym jugs: fill, empty and pour jugs until one holds the target amount; a JSON list of moves.",
	Revision:    1,
	Defaults:    JugsOptions{NumJugs: 3, Difficulty: 10},
	Generate: func(rng *rand.Rand, o JugsOptions) (rg.Item, error) {
		for range jugsMaxAttempts {
			caps := make([]int, o.NumJugs)
			g, hi := 0, 0
			for i := range caps {
				caps[i] = numRandInt(rng, 3, 3+o.Difficulty)
				g, hi = jugsGCD(g, caps[i]), max(hi, caps[i])
			}
			target := g * numRandInt(rng, 1, hi/g)
			sol := jugsSolve(caps, target)
			if sol == nil || len(sol) < o.Difficulty {
				continue
			}
			answer, _ := json.Marshal(sol)
			parts := make([]string, len(caps))
			for i, c := range caps {
				parts[i] = fmt.Sprintf("%c:%d", 'A'+i, c)
			}
			return rg.Item{
				Question: "You are a police officer. A maniac has planted a bomb next to a public fountain.\n\n" +
					"To defuse the bomb, you must solve a puzzle. The puzzle is solved when you fill any of the available jugs with the target amount of water.\n\n" +
					"You have three move types: 'fill', 'empty' and 'pour'.\n\n" +
					"To fill Jug A, you 'fill A'.\nTo empty Jug B, you 'empty B'.\nTo pour the contents of Jug A into Jug B, you 'pour A->B'.\n" +
					"All jugs are empty to begin with.\n\n" +
					"The empty jugs hold this many litres of water: " + strings.Join(parts, ", ") + "\n" +
					fmt.Sprintf("And your target is: %d litres.\n\n", target) +
					"How do you defuse the bomb?\n\n" +
					"Reply as a JSON-parsable list of moves which result in any of the jugs being filled with the target amount.\n",
				Answer: strings.ReplaceAll(string(answer), `","`, `", "`),
				Data:   jugsPuzzle{caps: caps, target: target},
				Meta:   map[string]any{"jug_capacities": caps, "target": target, "min_moves": len(sol)},
			}, nil
		}
		return rg.Item{}, fmt.Errorf("jugs: no puzzle of difficulty %d with %d jugs in %d attempts", o.Difficulty, o.NumJugs, jugsMaxAttempts)
	},
	Score: func(answer string, it *rg.Item) float64 {
		end, ok := jugsRun(answer, it.Data.(jugsPuzzle))
		switch {
		case !ok:
			return 0
		case jugsHas(end, it.Data.(jugsPuzzle).target):
			return 1
		}
		return 0.01 // reasoning-gym's credit for a readable list
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		p := it.Data.(jugsPuzzle)
		moves := make([]string, 1+rng.IntN(2*it.Meta["min_moves"].(int)))
		for k := range moves {
			i, j := rng.IntN(len(p.caps)), rng.IntN(len(p.caps)-1)
			if j >= i {
				j++
			}
			moves[k] = []string{fmt.Sprintf("fill %c", 'A'+i), fmt.Sprintf("empty %c", 'A'+i), fmt.Sprintf("pour %c->%c", 'A'+i, 'A'+j)}[rng.IntN(3)]
		}
		b, _ := json.Marshal(moves)
		return string(b)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		p := it.Data.(jugsPuzzle)
		end, ok := jugsRun(answer, p)
		if !ok {
			return "Your answer is not a JSON list of moves 'fill X', 'empty X' or 'pour X->Y' over the puzzle's jugs."
		}
		parts := make([]string, len(end))
		for i, x := range end {
			parts[i] = fmt.Sprintf("%c:%d", 'A'+i, x)
		}
		return fmt.Sprintf("After your moves the jugs hold %s; none holds the target.", strings.Join(parts, ", "))
	},
}

func jugsHas(s []int, target int) bool {
	for _, x := range s {
		if x == target {
			return true
		}
	}
	return false
}

// jugsRun plays the answer's moves from empty jugs, as reasoning-gym's
// verify_solution does (the target must be in a jug after the last move),
// returning the final state. Quarry reads single-quoted lists and ignores
// case and spaces around "->".
func jugsRun(answer string, p jugsPuzzle) ([]int, bool) {
	if len(answer) > maxNumAnswer {
		return nil, false
	}
	var moves []string
	if err := json.Unmarshal([]byte(answer), &moves); err != nil {
		items, ok := numParseList(answer)
		if !ok || !strings.HasPrefix(strings.TrimSpace(answer), "[") {
			return nil, false
		}
		moves = items
	}
	jug := func(s string) (int, bool) {
		s = strings.ToUpper(strings.TrimSpace(s))
		if len(s) != 1 || s[0] < 'A' || int(s[0]-'A') >= len(p.caps) {
			return 0, false
		}
		return int(s[0] - 'A'), true
	}
	s := make([]int, len(p.caps))
	for _, m := range moves {
		verb, rest, _ := strings.Cut(strings.TrimSpace(m), " ")
		switch strings.ToLower(verb) {
		case "fill", "empty":
			i, ok := jug(rest)
			if !ok {
				return nil, false
			}
			s = jugsMove(p.caps, s, strings.ToLower(verb)[0], i, 0)
		case "pour":
			a, b, found := strings.Cut(rest, "->")
			i, ok1 := jug(a)
			j, ok2 := jug(b)
			if !found || !ok1 || !ok2 {
				return nil, false
			}
			s = jugsMove(p.caps, s, 'p', i, j)
		default:
			return nil, false
		}
	}
	return s, true
}
