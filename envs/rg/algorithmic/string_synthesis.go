package algorithmic

import (
	"fmt"
	"math/rand/v2"

	"github.com/quarry-rl/quarry/envs/rg"
)

// StringSynthesisOptions are reasoning-gym's StringSynthesisConfig. Quarry
// caps the blocks at 1000 and the iterations at 100000 (reasoning-gym:
// open).
type StringSynthesisOptions struct {
	MinInitialBlocks int `json:"min_initial_blocks" range:"0,1000"`
	MaxInitialBlocks int `json:"max_initial_blocks" range:"0,1000"`
	MaxIterations    int `json:"max_iterations" range:"1,100000"`
}

// Validate is reasoning-gym's: 0 ≤ min ≤ max, max_iterations > 0.
func (o StringSynthesisOptions) Validate() error {
	return minMaxError("max_initial_blocks", o.MaxInitialBlocks, "min_initial_blocks", o.MinInitialBlocks)
}

// synthesisStep: counts are [A] [B] [C] {A} {B} {C} (A) (B) (C).
func synthesisStep(c []int) {
	const sa, sb, sc, ca, cb, cc, ra, rb, rc = 0, 1, 2, 3, 4, 5, 6, 7, 8
	switch {
	case c[sa] >= 1 && c[sb] >= 1 && c[sc] >= 1:
		c[sa], c[sb], c[sc], c[ca] = c[sa]-1, c[sb]-1, c[sc]-1, c[ca]+1
	case c[sa] >= 1 && c[sb] >= 1:
		c[sa], c[sb], c[cc] = c[sa]-1, c[sb]-1, c[cc]+1
	case c[sb] >= 1 && c[sc] >= 1:
		c[sb], c[sc], c[cb] = c[sb]-1, c[sc]-1, c[cb]+1
	case c[sc] >= 2:
		c[sc], c[cc] = c[sc]-2, c[cc]+1
	case c[ca] >= 1 && c[cc] >= 1:
		c[ca], c[cc], c[ra], c[rb] = c[ca]-1, c[cc]-1, c[ra]+1, c[rb]+1
	case c[cb] >= 2:
		c[cb], c[rc] = c[cb]-2, c[rc]+1
	}
}

var stringSynthesisTask = rg.Task[StringSynthesisOptions]{
	Name:        "string_synthesis",
	Description: "reasoning-gym string_synthesis: cycle block-combining rules; the final counts of nine block types.",
	Revision:    1,
	Defaults:    StringSynthesisOptions{MinInitialBlocks: 0, MaxInitialBlocks: 5, MaxIterations: 1000},
	Generate: func(rng *rand.Rand, o StringSynthesisOptions) (rg.Item, error) {
		a := drawBetween(rng, o.MinInitialBlocks, o.MaxInitialBlocks)
		b := drawBetween(rng, o.MinInitialBlocks, o.MaxInitialBlocks)
		c := drawBetween(rng, o.MinInitialBlocks, o.MaxInitialBlocks)
		final, states := runCounts([]int{a, b, c, 0, 0, 0, 0, 0, 0}, o.MaxIterations, synthesisStep)
		return rg.Item{
			Question: fmt.Sprintf(`There are nine different blocks [A] [B] [C] {A} {B} {C} (A) (B) (C)
1. One [A], one [B], and one [C] can be combined to form one {A}.
2. One [A] and one [B] can be combined to form one {C}.
3. One [B] and one [C] can be combined to form one {B}.
4. Two [C] can be combined to form one {C}.
5. One {A} and one {C} can be combined to form one (A) and one (B).
6. Two {B} can be combined to form one (C).

Given a certain number of initial blocks, your job is to cycle through the rules 1-6 above, synthesizing new blocks until no more rules can be applied, or until a state (counts of each block type) is repeated.
In the case a state is repeated the answer is the state before the repetition!

The output should be the count of each block type after the rules have been applied in the order they are listed above.
For example 1 0 3 0 2 0 0 0 1 means that you have 1 [A] 0 [B] 3 [C] 0 {A} 2 {B} 0 {C} 0 (A) 0 (B) 1 (C).

Now, you have %d [A], %d [B], and %d [C] blocks. Provide the count of each block type after applying the above rules.
Note: Apply the rules at most %d times. If the rules cannot be applied anymore, or if you have reached the maximum number of iterations, stop and provide the current counts.
`, a, b, c, o.MaxIterations),
			Answer: joinCounts(final),
			Data:   final,
			Meta:   map[string]any{"initial_blocks": []int{a, b, c}, "states": states},
		}, nil
	},
	Score:    scoreCounts,
	Guess:    guessCounts,
	Retry:    true,
	Feedback: countsFeedback,
}
