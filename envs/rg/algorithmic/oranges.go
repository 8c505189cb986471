package algorithmic

import (
	"math/rand/v2"
	"strconv"

	"github.com/quarry-rl/quarry/envs/rg"
)

// RottenOrangesOptions are reasoning-gym's RottenOrangesConfig; Quarry caps
// the side at 100.
type RottenOrangesOptions struct {
	MinN     int     `json:"min_n" range:"2,100"`
	MaxN     int     `json:"max_n" range:"2,100"`
	POranges float64 `json:"p_oranges" range:"0,1"`
	PRotten  float64 `json:"p_rotten" range:"0,1"`
}

// Validate is reasoning-gym's: min_n ≤ max_n, both probabilities in (0, 1].
func (o RottenOrangesOptions) Validate() error {
	switch {
	case o.MaxN < o.MinN:
		return numBelow("max_n", o.MaxN, "min_n", o.MinN)
	case o.POranges <= 0:
		return numBelow("p_oranges", o.POranges, "its lower bound (it must exceed 0)", 0)
	case o.PRotten <= 0:
		return numBelow("p_rotten", o.PRotten, "its lower bound (it must exceed 0)", 0)
	}
	return nil
}

var rottenOrangesTask = rg.Task[RottenOrangesOptions]{
	Name:        "rotten_oranges",
	Description: "reasoning-gym rotten_oranges: minutes until no fresh orange is left in a grid, or -1.",
	Revision:    1,
	Defaults:    RottenOrangesOptions{MinN: 10, MaxN: 30, POranges: 0.85, PRotten: 0.1},
	Generate: func(rng *rand.Rand, o RottenOrangesOptions) (rg.Item, error) {
		n := numRandInt(rng, o.MinN, o.MaxN)
		m := make([][]int, n)
		for i := range m {
			m[i] = make([]int, n)
			for j := range m[i] {
				if rng.Float64() < o.POranges {
					m[i][j] = 1
					if rng.Float64() < o.PRotten {
						m[i][j] = 2
					}
				}
			}
		}
		d := gridDistances(m, func(x int) bool { return x == 2 }, func(x int) bool { return x == 1 })
		answer := 0
		for i := range m {
			for j := range m[i] {
				if m[i][j] == 1 && d[i][j] < 0 {
					answer = -1
				}
				if answer >= 0 {
					answer = max(answer, d[i][j])
				}
			}
		}
		return rg.Item{
			Question: "You are given an n x n grid where each cell can have one of three values:\n" +
				"- 0 representing an empty cell\n- 1 representing a fresh orange\n- 2 representing a rotten orange\n\n" +
				"Every minute, any fresh orange that is 4-directionally adjacent to a rotten orange becomes rotten.\n\n" +
				"Your task is determine the minimum number of minutes that must elapse until no cell has a fresh orange.\n" +
				"If this is impossible, return -1.\n\n" +
				"Now, determine the minimum number of minutes that must elapse until no cell in the grid below has a fresh orange:\n" +
				gridString(m) + "\n",
			Answer: strconv.Itoa(answer),
			Meta:   map[string]any{"matrix": m, "solution": answer, "n": n},
		}, nil
	},
	Score:    numScoreInt,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return strconv.Itoa(rng.IntN(2*it.Meta["n"].(int)+2) - 1) },
	Retry:    true,
	Feedback: numIntFeedback,
}
