package arc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// ReArcOptions are reasoning-gym's ReArcConfig, but for board_format_opts
// (Quarry always uses the default board format). The difficulty ranges are
// [low, high] pairs.
type ReArcOptions struct {
	MinExamples int     `json:"min_examples" range:"1,20"`
	MaxExamples int     `json:"max_examples" range:"1,20"`
	DiffLB      float64 `json:"diff_lb" range:"0,1"`
	DiffUB      float64 `json:"diff_ub" range:"0,1"`
	// RNGDifficultyRanges bound the test pair's generator difficulty, one
	// range drawn per item by RNGDifficultyWeights.
	RNGDifficultyRanges  [][2]float64 `json:"rng_difficulty_ranges" len:"1,20"`
	RNGDifficultyWeights []float64    `json:"rng_difficulty_weights" len:"1,20" range:"0,1000"`
	// PSODifficultyRanges bound the test pair's PSO difficulty (pixels,
	// symbols, objects), one range drawn per item by PSODifficultyWeights.
	PSODifficultyRanges  [][2]float64 `json:"pso_difficulty_ranges" len:"1,20"`
	PSODifficultyWeights []float64    `json:"pso_difficulty_weights" len:"1,20" range:"0,1000"`
}

// Validate is reasoning-gym's (min_examples ≤ max_examples, diff_lb ≤
// diff_ub, a weight per range) plus what its draws would raise on or never
// end with: ranges with low ≤ high (RNG ranges inside [0, 1]) and weights
// that are not all 0.
func (o ReArcOptions) Validate() error {
	if o.MaxExamples < o.MinExamples {
		return &envs.OptionError{Option: "max_examples", Reason: fmt.Sprintf("%d is below min_examples %d", o.MaxExamples, o.MinExamples)}
	}
	if o.DiffUB < o.DiffLB {
		return &envs.OptionError{Option: "diff_ub", Reason: fmt.Sprintf("%g is below diff_lb %g", o.DiffUB, o.DiffLB)}
	}
	if err := checkRanges("rng_difficulty_ranges", o.RNGDifficultyRanges, true); err != nil {
		return err
	}
	if err := checkRanges("pso_difficulty_ranges", o.PSODifficultyRanges, false); err != nil {
		return err
	}
	if err := checkWeights("rng_difficulty_weights", o.RNGDifficultyWeights, "rng_difficulty_ranges", len(o.RNGDifficultyRanges)); err != nil {
		return err
	}
	return checkWeights("pso_difficulty_weights", o.PSODifficultyWeights, "pso_difficulty_ranges", len(o.PSODifficultyRanges))
}

func checkRanges(name string, rs [][2]float64, unit bool) error {
	for k, r := range rs {
		if r[1] < r[0] || math.IsNaN(r[0]) || math.IsNaN(r[1]) {
			return &envs.OptionError{Option: name, Reason: fmt.Sprintf("range %d: [%g, %g] has its high end below its low end", k, r[0], r[1])}
		}
		if unit && (r[0] < 0 || r[1] > 1) {
			return &envs.OptionError{Option: name, Reason: fmt.Sprintf("range %d: [%g, %g] is not inside [0, 1]", k, r[0], r[1])}
		}
	}
	return nil
}

func checkWeights(name string, ws []float64, rangesName string, n int) error {
	if len(ws) != n {
		return &envs.OptionError{Option: name, Reason: fmt.Sprintf("%d weights for the %d %s", len(ws), n, rangesName)}
	}
	sum := 0.0
	for _, w := range ws {
		sum += w
	}
	if sum <= 0 {
		return &envs.OptionError{Option: name, Reason: "the weights sum to 0"}
	}
	return nil
}

// rearc.py's difficulty levels: consecutive pairs are the default ranges.
var (
	rngLevels = []float64{0.0, 0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2}
	psoLevels = []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 1}
)

func levelRanges(levels []float64) [][2]float64 {
	var rs [][2]float64
	for k := 0; k+1 < len(levels); k++ {
		rs = append(rs, [2]float64{levels[k], levels[k+1]})
	}
	return rs
}

func even(n int) []float64 {
	ws := make([]float64, n)
	for k := range ws {
		ws[k] = 1 / float64(n)
	}
	return ws
}

// maxPSODraws bounds the search for a test pair in the drawn PSO range.
// reasoning-gym draws until one falls inside, which for some generators
// may never happen for the hardest range; Quarry keeps the closest pair
// after this many draws.
const maxPSODraws = 300

// drawRearc runs a generator, turning a panic (a porting bug, where RE-ARC
// would raise) into an error.
func drawRearc(e rearcEntry, g *gen) (in, out Grid, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rearc generator %s: %v", e.id, r)
		}
	}()
	in, out = e.gen(g)
	if len(in) == 0 || len(out) == 0 || len(in[0]) == 0 || len(out[0]) == 0 {
		return nil, nil, fmt.Errorf("rearc generator %s: an empty grid", e.id)
	}
	return in, out, nil
}

func distance(x float64, r [2]float64) float64 {
	switch {
	case x < r[0]:
		return r[0] - x
	case x > r[1]:
		return x - r[1]
	}
	return 0
}

var rearcTask = rg.Task[ReArcOptions]{
	Name:        "rearc",
	Description: "reasoning-gym rearc: example pairs from one of RE-ARC's 400 generators (Go ports); infer the rule and answer the test output grid.",
	Revision:    2,
	Defaults: ReArcOptions{
		MinExamples: 3, MaxExamples: 5, DiffLB: 0, DiffUB: 0.2,
		RNGDifficultyRanges: levelRanges(rngLevels), RNGDifficultyWeights: even(len(rngLevels) - 1),
		PSODifficultyRanges: levelRanges(psoLevels), PSODifficultyWeights: even(len(psoLevels) - 1),
	},
	Generate: func(rng *rand.Rand, o ReArcOptions) (rg.Item, error) {
		pso := o.PSODifficultyRanges[choices(rng, o.PSODifficultyWeights)]
		var (
			best          rearcEntry
			bestIn, bestO Grid
			bestP         float64
			bestD         = math.Inf(1)
		)
		for range maxPSODraws {
			e := rearcGens[rng.IntN(len(rearcGens))]
			r := o.RNGDifficultyRanges[choices(rng, o.RNGDifficultyWeights)]
			in, out, err := drawRearc(e, &gen{rng: rng, lb: r[0], ub: r[1]})
			if err != nil {
				return rg.Item{}, err
			}
			p := psoDifficulty(in, out)
			if d := distance(p, pso); d < bestD {
				best, bestIn, bestO, bestP, bestD = e, in, out, p, d
			}
			if bestD == 0 {
				break
			}
		}
		n := randint(rng, o.MinExamples, o.MaxExamples)
		var ex strings.Builder
		for k := range n {
			in, out, err := drawRearc(best, &gen{rng: rng, lb: o.DiffLB, ub: o.DiffUB})
			if err != nil {
				return rg.Item{}, err
			}
			ex.WriteString(formatPair(k+1, in, out))
		}
		return rg.Item{
			Question: arcPrompt(ex.String(), bestIn),
			Answer:   formatBoard(bestO),
			Data:     bestO,
			Meta:     map[string]any{"task_id": best.id, "pso": bestP},
		}, nil
	},
	Score:    scoreBoard,
	Guess:    guessBoard,
	Retry:    true,
	Feedback: boardFeedback,
}
