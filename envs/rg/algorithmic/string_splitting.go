package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// StringSplittingOptions are reasoning-gym's StringSplittingConfig. Quarry
// caps the machines at 1000 and the iterations at 100000 (reasoning-gym:
// open).
type StringSplittingOptions struct {
	MinInitialMachines int `json:"min_initial_machines" range:"0,1000"`
	MaxInitialMachines int `json:"max_initial_machines" range:"0,1000"`
	MaxIterations      int `json:"max_iterations" range:"1,100000"`
}

// Validate is reasoning-gym's: 0 ≤ min ≤ max, max_iterations > 0.
func (o StringSplittingOptions) Validate() error {
	return minMaxError("max_initial_machines", o.MaxInitialMachines, "min_initial_machines", o.MinInitialMachines)
}

// runCounts applies step (the first applicable rule, in place) at most
// maxIter times, stopping before a repeated state; it returns the last.
func runCounts(counts []int, maxIter int, step func([]int)) ([]int, int) {
	key := func(c []int) string { return fmt.Sprint(c) }
	seen := map[string]bool{key(counts): true}
	for range maxIter {
		next := append([]int(nil), counts...)
		step(next)
		if seen[key(next)] {
			break
		}
		seen[key(next)], counts = true, next
	}
	return counts, len(seen)
}

func splittingStep(c []int) {
	const a, b, cc, x, y, z = 0, 1, 2, 3, 4, 5
	switch {
	case c[a] >= 1:
		c[a], c[x], c[y] = c[a]-1, c[x]+2, c[y]+1
	case c[b] >= 2:
		c[b], c[x] = c[b]-2, c[x]+1
	case c[cc] >= 2:
		c[cc], c[y] = c[cc]-2, c[y]+1
	case c[b] >= 1 && c[cc] >= 1:
		c[b], c[cc], c[a] = c[b]-1, c[cc]-1, c[a]+1
	case c[x] >= 1 && c[y] >= 1:
		c[x], c[y], c[z] = c[x]-1, c[y]-1, c[z]+1
	}
}

func joinCounts(c []int) string {
	s := make([]string, len(c))
	for i, n := range c {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, " ")
}

var stringSplittingTask = rg.Task[StringSplittingOptions]{
	Name:        "string_splitting",
	Description: "reasoning-gym string_splitting: cycle dismantling rules over machine and part counts; the final counts.",
	Revision:    1,
	Defaults:    StringSplittingOptions{MinInitialMachines: 0, MaxInitialMachines: 5, MaxIterations: 1000},
	Generate: func(rng *rand.Rand, o StringSplittingOptions) (rg.Item, error) {
		a := drawBetween(rng, o.MinInitialMachines, o.MaxInitialMachines)
		b := drawBetween(rng, o.MinInitialMachines, o.MaxInitialMachines)
		c := drawBetween(rng, o.MinInitialMachines, o.MaxInitialMachines)
		final, states := runCounts([]int{a, b, c, 0, 0, 0}, o.MaxIterations, splittingStep)
		return rg.Item{
			Question: fmt.Sprintf(`There is a dismantling engineer who has old machines A, B, and C.
He discovered that he can obtain a batch of new parts X, Y, Z through the following rules:
1. One unit of machine A can be dismanteled into two units of part X and one unit of part Y.
2. Two units of machine B can be dismanteled into one unit of part X.
3. Two units of machine C can be dismanteled into one unit of part Y.
4. One unit of machine B and one unit of machine C can be combined into one unit of machine A.
5. One unit of part X and one unit of part Y can be combined into one unit of part Z.

Given a certain number of initial machines, your job is to continuously cycle through the rules 1-5 above, exausting one rule at a time, until no more rules can be applied, or until a state (counts of each machine and part type) is repeated.
After you make use of a rule, you should update the counts of each machine and part type accordingly, and then restart the process from rule 1.

The output should be the count of each machine and part type after the rules have been exhaustively applied in the following order: A B C X Y Z.
For example 1 0 1 5 4 3 means that you have 1 machine A, 0 machine B, 1 machine C, 5 part X, 4 part Y, and 3 part Z.

Now, you have %d machine A, %d machine B, and %d machine C. Provide the count of each machine and part type after applying the above rules.
Note: Apply the rules at most %d times. If the rules cannot be applied anymore, or if you have reached the maximum number of iterations, stop and provide the current counts of each machine and part type.
`, a, b, c, o.MaxIterations),
			Answer: joinCounts(final),
			Data:   final,
			Meta:   map[string]any{"initial_machines": []int{a, b, c}, "states": states},
		}, nil
	},
	Score:    scoreCounts,
	Guess:    guessCounts,
	Retry:    true,
	Feedback: countsFeedback,
}

// parseCounts reads integers separated by white space or commas,
// optionally in brackets.
func parseCounts(s string) ([]int, bool) {
	f := strings.FieldsFunc(strings.Trim(strings.TrimSpace(s), "[]()"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	out := make([]int, len(f))
	for i, x := range f {
		n, err := strconv.Atoi(x)
		if err != nil {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// scoreCounts: 1 for the counts separated by spaces, commas or both, in
// brackets or not; else reasoning-gym's default.
func scoreCounts(answer string, it *rg.Item) float64 {
	want := it.Data.([]int)
	if got, ok := parseCounts(answer); ok && len(got) == len(want) {
		same := true
		for i := range got {
			same = same && got[i] == want[i]
		}
		if same {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}

func guessCounts(rng *rand.Rand, it *rg.Item) string {
	c := make([]int, len(it.Data.([]int)))
	for i := range c {
		c[i] = rng.IntN(6)
	}
	return joinCounts(c)
}

func countsFeedback(answer string, it *rg.Item, _ float64) string {
	want := it.Data.([]int)
	got, ok := parseCounts(answer)
	if !ok || len(got) != len(want) {
		return fmt.Sprintf("Your answer is not %d integers separated by spaces.", len(want))
	}
	right := 0
	for i := range got {
		if got[i] == want[i] {
			right++
		}
	}
	return fmt.Sprintf("Your answer is incorrect: %d of the %d counts are right.", right, len(want))
}
