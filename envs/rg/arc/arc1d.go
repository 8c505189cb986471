package arc

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Arc1DOptions are reasoning-gym's Arc1DConfig. reasoning-gym leaves the
// sizes and the number of examples open (its curriculum goes to rows of
// 100); Quarry caps rows at 200 cells and examples at 20.
type Arc1DOptions struct {
	MinSize  int `json:"min_size" range:"8,200"`
	MaxSize  int `json:"max_size" range:"8,200"`
	NumTrain int `json:"num_train" range:"1,20"`
}

// Validate is reasoning-gym's: max_size ≥ min_size (min_size ≥ 8 and
// num_train > 0 are the ranges).
func (o Arc1DOptions) Validate() error {
	if o.MaxSize < o.MinSize {
		return &envs.OptionError{Option: "max_size", Reason: fmt.Sprintf("%d is below min_size %d", o.MaxSize, o.MinSize)}
	}
	return nil
}

// maxDraws1D bounds the redraws of one example. reasoning-gym redraws until
// the generator succeeds; each succeeds with a probability far above 1% at
// every size in range, so this is never reached in practice.
const maxDraws1D = 10000

var errDraws = errors.New("no example after the maximum number of draws")

func draw1D(rng *rand.Rand, t task1D, size int) (pair1D, error) {
	for range maxDraws1D {
		if p, ok := t.gen(rng, size); ok {
			return p, nil
		}
	}
	return pair1D{}, fmt.Errorf("arc_1d %s size %d: %w", t.name, size, errDraws)
}

func joinRow(row []int) string {
	s := make([]string, len(row))
	for i, c := range row {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, " ")
}

var arc1DTask = rg.Task[Arc1DOptions]{
	Name:        "arc_1d",
	Description: "reasoning-gym arc_1d: infer the rule mapping 1-D input rows to output rows from examples, and apply it to a test row.",
	Revision:    1,
	Defaults:    Arc1DOptions{MinSize: 10, MaxSize: 30, NumTrain: 3},
	Generate: func(rng *rand.Rand, o Arc1DOptions) (rg.Item, error) {
		t := tasks1D[rng.IntN(len(tasks1D))]
		size := randint(rng, o.MinSize, o.MaxSize)
		var q strings.Builder
		q.WriteString("Find the common rule that maps an input grid to an output grid, given the examples below.\n\n")
		for i := range o.NumTrain {
			p, err := draw1D(rng, t, size)
			if err != nil {
				return rg.Item{}, err
			}
			fmt.Fprintf(&q, "Example %d:\nInput:  %s\nOutput: %s\n\n", i+1, joinRow(p.in), joinRow(p.out))
		}
		test, err := draw1D(rng, t, size)
		if err != nil {
			return rg.Item{}, err
		}
		q.WriteString("Below is a test input grid. Predict the corresponding output grid by applying the rule you found. ")
		q.WriteString("Describe how you derived the rule and your overall reasoning process in detail before you submit your answer. ")
		q.WriteString("Your final answer should be just the test output grid itself.\n\n")
		q.WriteString("Input:\n")
		q.WriteString(joinRow(test.in))
		return rg.Item{
			Question: q.String(),
			Answer:   joinRow(test.out),
			Data:     Grid{test.out},
			Meta:     map[string]any{"task_name": t.name, "size": size, "test_input": test.in},
		}, nil
	},
	Score:    score1D,
	Guess:    guessBoard,
	Retry:    true,
	Feedback: boardFeedback,
}

// score1D is reasoning-gym's default score_answer (arc_1d defines none),
// made lenient: the row written with other separators ("0,1,2", "[0, 1, 2]",
// "012") scores 1 too.
func score1D(answer string, it *rg.Item) float64 {
	if g, ok := parseGrid(answer); ok && equalGrids(g, it.Data.(Grid)) {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
