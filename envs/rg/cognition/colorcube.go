package cognition

import (
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// CubeOptions are reasoning-gym's ColorCubeRotationConfig fields. Its
// curriculum goes up to 100 rotations; 1000 keeps a question short enough
// to read.
type CubeOptions struct {
	MinRotations int `json:"min_rotations" range:"1,1000"`
	MaxRotations int `json:"max_rotations" range:"1,1000"`
}

// Validate checks min_rotations ≤ max_rotations.
func (o CubeOptions) Validate() error {
	return rg.MinMax("min_rotations", "max_rotations", o.MinRotations, o.MaxRotations)
}

// cubeColors are reasoning-gym's sixteen colours; a cube shows six of them.
var cubeColors = []string{"red", "green", "blue", "yellow", "white", "orange", "purple", "pink",
	"brown", "gray", "cyan", "magenta", "gold", "silver", "indigo", "violet"}

// Sides in reasoning-gym's order, which is the order the question lists them.
const (
	top = iota
	right
	front
	left
	back
	bottom
)

var sideNames = [6]string{"top", "right", "front", "left", "back", "bottom"}

// toTop[s] is the permutation that brings side s to the top: after the
// turn, side i shows what side toTop[s][i] showed before.
var toTop = [6][6]int{
	right:  {top: right, right: bottom, bottom: left, left: top, front: front, back: back},
	front:  {top: front, front: bottom, bottom: back, back: top, right: right, left: left},
	left:   {top: left, left: bottom, bottom: right, right: top, front: front, back: back},
	back:   {top: back, back: bottom, bottom: front, front: top, right: right, left: left},
	bottom: {top: bottom, bottom: top, front: back, back: front, right: right, left: left},
}

var laterTurns = []string{
	"Then the cube is rotated to bring the %s side to the top.",
	"After that the cube is turned to make the %s face the top.",
	"Now the cube is rotated to place its %s side at the top.",
	"Next, the %s side is rotated to become the top face.",
}

// ColorCubeRotation is rg:color_cube_rotation: a cube with six coloured
// sides is turned so that named sides come to the top; what colour is a
// given side now?
var ColorCubeRotation = rg.Task[CubeOptions]{
	Name:        "color_cube_rotation",
	Description: "reasoning-gym color_cube_rotation: track a coloured cube through rotations and name the colour of one side.",
	Revision:    1,
	Defaults:    CubeOptions{MinRotations: 1, MaxRotations: 3},
	Generate:    generateCube,
	Score:       scoreCube,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		return cubeColors[rng.IntN(len(cubeColors))]
	},
}

func generateCube(rng *rand.Rand, o CubeOptions) (rg.Item, error) {
	perm := rng.Perm(len(cubeColors))
	var cube [6]string
	for i := range cube {
		cube[i] = cubeColors[perm[i]]
	}
	initial := cube
	n := rg.Between(rng, o.MinRotations, o.MaxRotations)
	var b strings.Builder
	b.WriteString("A cube has:\n")
	for s, c := range initial {
		b.WriteString("- a " + c + " " + sideNames[s] + " side\n")
	}
	rotations := make([]string, n)
	for i := range n {
		from := 1 + rng.IntN(5) // any side but the top
		rotations[i] = sideNames[from]
		old := cube
		for s := range cube {
			cube[s] = old[toTop[from][s]]
		}
		b.WriteString("\n")
		if i == 0 {
			b.WriteString("The cube is rotated so that the side which was before at the " + sideNames[from] + " is now at the top.")
		} else {
			b.WriteString(strings.Replace(laterTurns[rng.IntN(len(laterTurns))], "%s", sideNames[from], 1))
		}
		b.WriteString("\n")
	}
	target := rng.IntN(6)
	b.WriteString("\nWhat is now the color of the " + sideNames[target] + " side of the cube?\n")
	b.WriteString("Provide only the color as your final answer.")
	state := map[string]any{}
	for s, c := range initial {
		state[sideNames[s]] = c
	}
	return rg.Item{
		Question: b.String(),
		Answer:   cube[target],
		Meta: map[string]any{
			"initial_state": state, "rotations": rotations,
			"target_side": sideNames[target], "num_rotations": n,
		},
	}, nil
}

// scoreCube is reasoning-gym's: 1 for the colour (case and surrounding
// space ignored), 0.01 for any other answer. Quarry also ignores a final
// full stop ("Red.").
func scoreCube(answer string, it *rg.Item) float64 {
	a := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(answer), ".")))
	if a == strings.ToLower(it.Answer) {
		return 1
	}
	return 0.01
}
