package arc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// arcAGIData is ARC-AGI-1's 400 training and 400 evaluation tasks, one JSON
// object a line (PROVENANCE.md).
//
//go:embed data/arc_agi.jsonl.gz
var arcAGIData []byte

// arcTask is one ARC-AGI task.
type arcTask struct {
	ID    string    `json:"id"`
	Split string    `json:"split"` // training or evaluation
	Train []arcPair `json:"train"`
	Test  []arcPair `json:"test"`
}

type arcPair struct {
	Input  Grid `json:"input"`
	Output Grid `json:"output"`
}

type arcTasks struct {
	train, eval []*arcTask
	err         error
}

var loadARC = sync.OnceValue(func() arcTasks {
	var ts arcTasks
	zr, err := gzip.NewReader(bytes.NewReader(arcAGIData))
	if err != nil {
		ts.err = err
		return ts
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		t := new(arcTask)
		if err := json.Unmarshal(sc.Bytes(), t); err != nil {
			ts.err = fmt.Errorf("task %d: %w", len(ts.train)+len(ts.eval)+1, err)
			return ts
		}
		if len(t.Train) == 0 || len(t.Test) == 0 {
			ts.err = fmt.Errorf("task %s has no examples", t.ID)
			return ts
		}
		if t.Split == "training" {
			ts.train = append(ts.train, t)
		} else {
			ts.eval = append(ts.eval, t)
		}
	}
	if ts.err = sc.Err(); ts.err == nil && (len(ts.train) == 0 || len(ts.eval) == 0) {
		ts.err = fmt.Errorf("%d training and %d evaluation tasks", len(ts.train), len(ts.eval))
	}
	return ts
})

// ArcAGIOptions are reasoning-gym's ArcAgiConfig, but for board_format_opts
// (Quarry always uses the default board format).
type ArcAGIOptions struct {
	UseTrain bool `json:"use_train"`
	UseEval  bool `json:"use_eval"`
	// Rotations are among "90", "180", "270"; empty for none.
	Rotations []string `json:"rotations" len:"0,3"`
	// Mirrors are among "horizontal", "vertical", "diagonal",
	// "counterdiagonal"; empty for none.
	Mirrors             []string `json:"mirrors" len:"0,4"`
	UseColorPermutation bool     `json:"use_color_permutation"`
	ShuffleExampleOrder bool     `json:"shuffle_example_order"`
	// RotationsWeights weigh the identity and then each rotation;
	// MirrorsWeights the identity and then each mirror.
	RotationsWeights []float64 `json:"rotations_weights" len:"1,4" range:"0,1000"`
	MirrorsWeights   []float64 `json:"mirrors_weights" len:"1,5" range:"0,1000"`
}

// Validate is reasoning-gym's (known rotations and mirrors) plus what its
// random.choices would raise on (a weight per choice, not all zero) and a
// task set to draw from.
func (o ArcAGIOptions) Validate() error {
	if !o.UseTrain && !o.UseEval {
		return &envs.OptionError{Option: "use_eval", Reason: "use_train and use_eval are both false: no tasks to draw from"}
	}
	if err := checkChoices("rotations", o.Rotations, rotationNames, "rotations_weights", o.RotationsWeights); err != nil {
		return err
	}
	return checkChoices("mirrors", o.Mirrors, mirrorNames, "mirrors_weights", o.MirrorsWeights)
}

func checkChoices(name string, got []string, valid []string, weightsName string, weights []float64) error {
	for _, g := range got {
		if !slices.Contains(valid, g) {
			return &envs.OptionError{Option: name, Reason: fmt.Sprintf("%q is not one of %s", g, strings.Join(valid, ", "))}
		}
	}
	if len(got) == 0 {
		return nil
	}
	if len(weights) != len(got)+1 {
		return &envs.OptionError{Option: weightsName, Reason: fmt.Sprintf("%d weights for %d choices (the identity and each of %s)", len(weights), len(got)+1, name)}
	}
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	if sum <= 0 {
		return &envs.OptionError{Option: weightsName, Reason: "the weights sum to 0"}
	}
	return nil
}

var (
	rotationNames = []string{"90", "180", "270"}
	mirrorNames   = []string{"horizontal", "vertical", "diagonal", "counterdiagonal"}
)

// transform maps a grid to a new grid.
type transform func(Grid) Grid

var rotations = map[string]transform{"90": rot90, "180": rot180, "270": rot270}

var mirrors = map[string]transform{"horizontal": hmirror, "vertical": vmirror, "diagonal": dmirror, "counterdiagonal": cmirror}

func build(h, w int, at func(i, j int) int) Grid {
	g := make(Grid, h)
	for i := range g {
		g[i] = make([]int, w)
		for j := range g[i] {
			g[i][j] = at(i, j)
		}
	}
	return g
}

func dims(g Grid) (int, int) { return len(g), len(g[0]) }

// rot90 is a quarter turn clockwise.
func rot90(g Grid) Grid {
	h, w := dims(g)
	return build(w, h, func(i, j int) int { return g[h-1-j][i] })
}

func rot180(g Grid) Grid {
	h, w := dims(g)
	return build(h, w, func(i, j int) int { return g[h-1-i][w-1-j] })
}

// rot270 is a quarter turn anticlockwise.
func rot270(g Grid) Grid {
	h, w := dims(g)
	return build(w, h, func(i, j int) int { return g[j][w-1-i] })
}

// hmirror flips top and bottom.
func hmirror(g Grid) Grid {
	h, w := dims(g)
	return build(h, w, func(i, j int) int { return g[h-1-i][j] })
}

// vmirror flips left and right.
func vmirror(g Grid) Grid {
	h, w := dims(g)
	return build(h, w, func(i, j int) int { return g[i][w-1-j] })
}

// dmirror transposes.
func dmirror(g Grid) Grid {
	h, w := dims(g)
	return build(w, h, func(i, j int) int { return g[j][i] })
}

// cmirror mirrors along the counter-diagonal.
func cmirror(g Grid) Grid {
	h, w := dims(g)
	return build(w, h, func(i, j int) int { return g[h-1-j][w-1-i] })
}

// choices is Python's random.choices(k=1): index i with probability
// weights[i]/sum.
func choices(rng *rand.Rand, weights []float64) int {
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	x := rng.Float64() * sum
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// augmentation is _create_augmentation_fn: a rotation, then a mirror (each
// possibly the identity), then a colour permutation.
func augmentation(rng *rand.Rand, o ArcAGIOptions) transform {
	var fns []transform
	if len(o.Rotations) > 0 {
		if i := choices(rng, o.RotationsWeights); i > 0 {
			fns = append(fns, rotations[o.Rotations[i-1]])
		}
	}
	if len(o.Mirrors) > 0 {
		if i := choices(rng, o.MirrorsWeights); i > 0 {
			fns = append(fns, mirrors[o.Mirrors[i-1]])
		}
	}
	if o.UseColorPermutation {
		table := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		shuffle(rng, table)
		fns = append(fns, func(g Grid) Grid {
			h, w := dims(g)
			return build(h, w, func(i, j int) int { return table[g[i][j]] })
		})
	}
	return func(g Grid) Grid {
		for _, f := range fns {
			g = f(g)
		}
		return g
	}
}

var arcAGITask = rg.Task[ArcAGIOptions]{
	Name:        "arc_agi",
	Description: "reasoning-gym arc_agi: an ARC-AGI-1 task (training or evaluation set), rotated, mirrored and recoloured at random; answer the test output grid.",
	Revision:    1,
	DataDigest:  envs.Digest(arcAGIData),
	Defaults: ArcAGIOptions{
		UseTrain: true, UseEval: true,
		Rotations:           []string{"90", "180", "270"},
		Mirrors:             []string{"horizontal", "vertical", "diagonal", "counterdiagonal"},
		UseColorPermutation: true,
		ShuffleExampleOrder: true,
		RotationsWeights:    []float64{0.25, 0.25, 0.25, 0.25},
		MirrorsWeights:      []float64{0.2, 0.2, 0.2, 0.2, 0.2},
	},
	Generate: func(rng *rand.Rand, o ArcAGIOptions) (rg.Item, error) {
		ts := loadARC()
		if ts.err != nil {
			return rg.Item{}, fmt.Errorf("arc_agi data: %w", ts.err)
		}
		var pool []*arcTask
		if o.UseTrain {
			pool = append(pool, ts.train...)
		}
		if o.UseEval {
			pool = append(pool, ts.eval...)
		}
		t := pool[rng.IntN(len(pool))]
		aug := augmentation(rng, o)
		train := make([]arcPair, len(t.Train))
		for i, p := range t.Train {
			train[i] = arcPair{aug(p.Input), aug(p.Output)}
		}
		if o.ShuffleExampleOrder {
			shuffle(rng, train)
		}
		var ex strings.Builder
		for i, p := range train {
			ex.WriteString(formatPair(i+1, p.Input, p.Output))
		}
		in, out := aug(t.Test[0].Input), aug(t.Test[0].Output)
		return rg.Item{
			Question: arcPrompt(ex.String(), in),
			Answer:   formatBoard(out),
			Data:     out,
			Meta:     map[string]any{"task_id": t.ID, "split": t.Split},
		}, nil
	},
	Score:    scoreBoard,
	Guess:    guessBoard,
	Retry:    true,
	Feedback: boardFeedback,
}
