package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/quarry-rl/quarry/envs/rg"
)

// CountPrimesOptions are reasoning-gym's CountPrimesConfig. Quarry caps
// max_n at 10^7 (the curriculum's largest is 10^5): the sieve is a byte per
// number up to the interval's end.
type CountPrimesOptions struct {
	MinN int `json:"min_n" range:"1,10000000"`
	MaxN int `json:"max_n" range:"1,10000000"`
}

// Validate is reasoning-gym's: min_n ≤ max_n.
func (o CountPrimesOptions) Validate() error {
	if o.MaxN < o.MinN {
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	}
	return nil
}

var countPrimesTask = rg.Task[CountPrimesOptions]{
	Name:        "count_primes",
	Description: "reasoning-gym count_primes: how many primes lie in an interval.",
	Revision:    1,
	Defaults:    CountPrimesOptions{MinN: 1, MaxN: 10000},
	Generate: func(rng *rand.Rand, o CountPrimesOptions) (rg.Item, error) {
		start := numRandInt(rng, o.MinN, o.MaxN)
		end := numRandInt(rng, start, o.MaxN)
		c := countPrimes(start, end)
		return rg.Item{
			Question: fmt.Sprintf("Count how many prime numbers there are between %d and %d (inclusive) ?", start, end),
			Answer:   strconv.Itoa(c),
			Meta:     map[string]any{"start": start, "end": end, "solution": c},
		}, nil
	},
	Score:    numScoreInt,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return numGuessNear(rng, it.Answer) },
	Retry:    true,
	Feedback: numIntFeedback,
}

// countPrimes counts the primes in [lo, hi] with a sieve up to hi.
func countPrimes(lo, hi int) int {
	composite := make([]bool, hi+1)
	n := 0
	for i := 2; i <= hi; i++ {
		if composite[i] {
			continue
		}
		if i >= lo {
			n++
		}
		for j := i * i; j <= hi; j += i {
			composite[j] = true
		}
	}
	return n
}
