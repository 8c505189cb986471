package geometry

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SimpleOptions are reasoning-gym's SimpleGeometryConfig. reasoning-gym
// leaves max_sides open; Quarry allows polygons of up to 100 sides.
type SimpleOptions struct {
	MinSides int `json:"min_sides" range:"3,100"`
	MaxSides int `json:"max_sides" range:"3,100"`
	MinAngle int `json:"min_angle" range:"1,179"`
	MaxAngle int `json:"max_angle" range:"1,179"`
}

// Validate is reasoning-gym's (min ≤ max for sides and angles), plus: the
// smallest polygon's n−1 smallest angles must leave room for the last one
// (reasoning-gym raises after 100 draws otherwise).
func (o SimpleOptions) Validate() error {
	if o.MaxSides < o.MinSides {
		return &envs.OptionError{Option: "max_sides", Reason: fmt.Sprintf("%d is below min_sides %d", o.MaxSides, o.MinSides)}
	}
	if o.MaxAngle < o.MinAngle {
		return &envs.OptionError{Option: "max_angle", Reason: fmt.Sprintf("%d is below min_angle %d", o.MaxAngle, o.MinAngle)}
	}
	if n := o.MinSides; (n-1)*o.MinAngle >= 180*(n-2) {
		return &envs.OptionError{Option: "min_angle", Reason: fmt.Sprintf("%d angles of %d° reach a %d-gon's total %d°: no room for the last angle", n-1, o.MinAngle, n, 180*(n-2))}
	}
	return nil
}

var simpleTemplates = []string{
	"Given a convex polygon with %[1]d sides, its first %[2]d interior angles are: %[3]s. What is the measure of the remaining interior angle (in degrees)?" +
		"Return only the angle as your answer." + "Do not give the units in your answer.",
	"A convex polygon has %[1]d sides. The measures of the first %[2]d interior angles are: %[3]s. Find the measure of the last interior angle." +
		"Return only the angle as your answer." + "Do not give the units in your answer.",
	"Consider a convex %[1]d-gon whose first %[2]d interior angles are: %[3]s. Determine the measure of the remaining angle." +
		"Return only the angle as your answer." + "Do not give the units in your answer.",
}

// angleDraws is how many times reasoning-gym draws the known angles.
const angleDraws = 100

// SimpleGeometry is reasoning-gym's simple_geometry: the last interior
// angle of a polygon given the others.
var SimpleGeometry = rg.Task[SimpleOptions]{
	Name:        "simple_geometry",
	Description: "reasoning-gym simple_geometry: the remaining interior angle of a convex polygon, in degrees.",
	Revision:    1,
	Defaults:    SimpleOptions{MinSides: 3, MaxSides: 6, MinAngle: 10, MaxAngle: 170},
	Generate: func(rng *rand.Rand, o SimpleOptions) (rg.Item, error) {
		n := rg.Between(rng, o.MinSides, o.MaxSides)
		total := 180 * (n - 2)
		angles := drawAngles(rng, o, n, total)
		sum := 0
		text := make([]string, len(angles))
		for i, a := range angles {
			sum += a
			text[i] = fmt.Sprintf("%d.0°", a)
		}
		missing := total - sum
		return rg.Item{
			Question: fmt.Sprintf(simpleTemplates[rng.IntN(len(simpleTemplates))], n, n-1, strings.Join(text, ", ")),
			Answer:   strconv.Itoa(missing),
			Meta: map[string]any{"n_sides": n, "known_angles": angles, "sum_of_known_angles": sum,
				"missing_angle": missing, "total_interior_sum": total},
		}, nil
	},
	Score: scoreAngle,
	Guess: func(rng *rand.Rand, _ *rg.Item) string { return strconv.Itoa(1 + rng.IntN(359)) },
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		x, ok := parseNumber(answer)
		truth, _ := strconv.Atoi(it.Answer)
		switch {
		case !ok:
			return "Your answer is not a number."
		case x < float64(truth):
			return "Your angle is too small."
		}
		return "Your angle is too large."
	},
}

// drawAngles is reasoning-gym's draw: n−1 angles in [min_angle,
// max_angle] until their sum is below total, at most 100 times. Where
// reasoning-gym then raises, Quarry draws each angle below what the rest
// still need (Validate ensures there is room).
func drawAngles(rng *rand.Rand, o SimpleOptions, n, total int) []int {
	angles := make([]int, n-1)
	for range angleDraws {
		sum := 0
		for i := range angles {
			angles[i] = rg.Between(rng, o.MinAngle, o.MaxAngle)
			sum += angles[i]
		}
		if sum < total {
			return angles
		}
	}
	sum := 0
	for i := range angles {
		rest := len(angles) - 1 - i
		hi := min(o.MaxAngle, total-1-sum-rest*o.MinAngle)
		angles[i] = rg.Between(rng, o.MinAngle, hi)
		sum += angles[i]
	}
	return angles
}

// scoreAngle is reasoning-gym's default score_answer (exact 1,
// containment len(answer)/len(response)); Quarry gives 1 to any number
// equal to the angle (120.0, 120°, 120 degrees).
func scoreAngle(answer string, it *rg.Item) float64 {
	if x, ok := parseNumber(answer); ok {
		truth, _ := strconv.ParseFloat(it.Answer, 64)
		if math.Abs(x-truth) < 1e-9 {
			return 1
		}
		return 0
	}
	return rg.DefaultScore(answer, it.Answer)
}
