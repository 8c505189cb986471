package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// ABOptions are reasoning-gym's ABConfig. Quarry caps length at 100
// (reasoning-gym: any): programs whose rewriting takes more than 100 steps
// are redrawn, 39% of them at length 100 and all at 200.
type ABOptions struct {
	Length int `json:"length" range:"1,100"`
}

// abMaxSteps is reasoning-gym's compute_steps bound: a program not in
// normal form after 100 rewrites is redrawn.
const abMaxSteps = 100

// abMaxDraws bounds the redraws (reasoning-gym: unbounded). Quarry also
// redraws programs that rewrite to nothing (0.5% at length 10, 1/8 at
// length 2): an empty answer cannot be boxed apart from no answer.
const abMaxDraws = 10000

var abTokens = []string{"A#", "B#", "#A", "#B"}

// abRewrite applies the leftmost rule, reporting whether one applied.
func abRewrite(p []string) ([]string, bool) {
	for i := 0; i+1 < len(p); i++ {
		switch p[i] + p[i+1] {
		case "A##A", "B##B":
			return append(append([]string{}, p[:i]...), p[i+2:]...), true
		case "A##B", "B##A":
			q := append([]string{}, p...)
			q[i], q[i+1] = p[i+1], p[i]
			return q, true
		}
	}
	return p, false
}

// abNormal rewrites p to normal form within abMaxSteps, reporting success.
func abNormal(p []string) ([]string, bool) {
	for range abMaxSteps + 1 {
		q, ok := abRewrite(p)
		if !ok {
			return p, true
		}
		p = q
	}
	return p, false
}

var abTask = rg.Task[ABOptions]{
	Name:        "ab",
	Description: "reasoning-gym ab: rewrite an A::B token program (A# #A → nothing, A# #B → #B A#, …) to its final state.",
	Revision:    1,
	Defaults:    ABOptions{Length: 10},
	Generate: func(rng *rand.Rand, o ABOptions) (rg.Item, error) {
		var prog, final []string
		for range abMaxDraws {
			prog = make([]string, o.Length)
			for i := range prog {
				prog[i] = abTokens[rng.IntN(4)]
			}
			var ok bool
			if final, ok = abNormal(prog); ok && len(final) > 0 {
				break
			}
		}
		if len(final) == 0 {
			return rg.Item{}, fmt.Errorf("ab: no program of length %d with a non-empty normal form in %d draws", o.Length, abMaxDraws)
		}
		return rg.Item{
			Question: "A::B is a system with 4 tokens: `A#`, `#A`, `B#` and `#B`.\n\n" +
				"An A::B program is a sequence of tokens. Example:\n\n    B# A# #B #A B#\n\n" +
				"To *compute* a program, we must rewrite neighbor tokens, using the rules:\n\n" +
				"    A# #A ... becomes ... nothing\n    A# #B ... becomes ... #B A#\n    B# #A ... becomes ... #A B#\n    B# #B ... becomes ... nothing\n\n" +
				"In other words, whenever two neighbor tokens have their '#' facing each-other,\nthey must be rewritten according to the corresponding rule.\n\n" +
				"Now, consider the following program:\n\n" + strings.Join(prog, " ") + "\n\nReturn the final state of the program.\n",
			Answer: strings.Join(final, " "),
			Meta:   map[string]any{"program": strings.Join(prog, " "), "length": o.Length},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym's exact match, lenient on the white space between tokens.
		if len(answer) <= maxNumAnswer && strings.Join(strings.Fields(answer), " ") == it.Answer {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		g := make([]string, 1+rng.IntN(len(strings.Fields(it.Answer))+1))
		for i := range g {
			g[i] = abTokens[rng.IntN(4)]
		}
		return strings.Join(g, " ")
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		toks := strings.Fields(answer)
		for _, t := range toks {
			if t != "A#" && t != "B#" && t != "#A" && t != "#B" {
				return fmt.Sprintf("%q is not an A::B token.", t)
			}
		}
		if _, ok := abRewrite(toks); ok {
			return "Your program can still be rewritten: it is not a final state."
		}
		return "Your final state is not the program's."
	},
}
