package geometry

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// AdvancedOptions are reasoning-gym's AdvancedGeometryConfig. reasoning-gym
// leaves the coordinates open (its curriculum reaches ±100); Quarry allows
// ±10^5, so the orthocenter's exact arithmetic stays within int64.
type AdvancedOptions struct {
	MinCoord  int      `json:"min_coord" range:"-100000,100000"`
	MaxCoord  int      `json:"max_coord" range:"-100000,100000"`
	TaskTypes []string `json:"task_types" len:"1,16"`
}

// advancedTypes are reasoning-gym's task types.
var advancedTypes = []string{"orthocenter", "incircle_radius", "angle_measure"}

// Validate is reasoning-gym's: min_coord < max_coord, at least one task
// type, each one reasoning-gym knows.
func (o AdvancedOptions) Validate() error {
	if o.MaxCoord <= o.MinCoord {
		return &envs.OptionError{Option: "max_coord", Reason: fmt.Sprintf("%d is not above min_coord %d", o.MaxCoord, o.MinCoord)}
	}
	for _, t := range o.TaskTypes {
		if !slices.Contains(advancedTypes, t) {
			return &envs.OptionError{Option: "task_types", Reason: fmt.Sprintf("%q is not one of %s", t, strings.Join(advancedTypes, ", "))}
		}
	}
	return nil
}

const formatInstructions = `For all geometry problems:
1. Give coordinates in the form (x, y)
2. Round decimal answers to 3 decimal places
3. Use the degree symbol ° for angles
4. Return only the angle, coordinates, or radius as your answer.
`

var advancedTemplates = map[string][]string{
	"orthocenter": {
		"Given triangle ABC with coordinates A=%s, B=%s, and C=%s, find the coordinates of its orthocenter. " + formatInstructions,
		"For triangle with vertices A=%s, B=%s, and C=%s, determine the orthocenter (intersection of altitudes). " + formatInstructions,
	},
	"incircle_radius": {
		"Consider triangle ABC with coordinates A=%s, B=%s, and C=%s. Compute the radius of its incircle. " + formatInstructions,
		"Find the incircle radius of triangle ABC whose vertices are A=%s, B=%s, and C=%s. " + formatInstructions,
	},
	"angle_measure": {
		"In triangle ABC with coordinates A=%s, B=%s, and C=%s, find the measure (in degrees) of angle ABC. " + formatInstructions,
		"Given a triangle with vertices A=%s, B=%s, and C=%s, determine the angle at B in degrees. " + formatInstructions,
	},
}

type point struct{ x, y int64 }

func (p point) String() string { return fmt.Sprintf("(%d, %d)", p.x, p.y) }

// triangle is an advanced_geometry item's data: its task and exact result.
type triangle struct {
	task  string
	x, y  *big.Rat // orthocenter
	value float64  // radius or angle in degrees
}

// triangleDraws is how many triangles reasoning-gym draws looking for a
// non-degenerate one.
const triangleDraws = 100

// AdvancedGeometry is reasoning-gym's advanced_geometry: the orthocenter,
// the incircle radius or the angle at B of a triangle with integer
// vertices.
var AdvancedGeometry = rg.Task[AdvancedOptions]{
	Name:        "advanced_geometry",
	Description: "reasoning-gym advanced_geometry: a triangle's orthocenter (x, y), incircle radius or angle ABC, to 3 (angle: 2) decimals.",
	Revision:    1,
	Defaults:    AdvancedOptions{MinCoord: -10, MaxCoord: 10, TaskTypes: slices.Clone(advancedTypes)},
	Generate: func(rng *rand.Rand, o AdvancedOptions) (rg.Item, error) {
		task := o.TaskTypes[rng.IntN(len(o.TaskTypes))]
		a, b, c := drawTriangle(rng, o)
		tmpl := advancedTemplates[task]
		q := fmt.Sprintf(tmpl[rng.IntN(len(tmpl))], a, b, c)
		d := &triangle{task: task}
		meta := map[string]any{"A": a.String(), "B": b.String(), "C": c.String(), "task_type": task}
		var answer string
		switch task {
		case "orthocenter":
			d.x, d.y = orthocenter(a, b, c)
			fx, _ := d.x.Float64()
			fy, _ := d.y.Float64()
			answer = fmt.Sprintf("(%.3f, %.3f)", fx, fy)
			meta["ortho"] = []string{ratString(d.x), ratString(d.y)}
		case "incircle_radius":
			d.value = inradius(a, b, c)
			answer = fmt.Sprintf("%.3f", d.value)
			meta["incircle_radius_approx"] = d.value
		default:
			d.value = angleAt(a, b, c)
			answer = fmt.Sprintf("%.2f°", d.value)
			meta["angle_ABC_degrees"] = d.value
		}
		return rg.Item{Question: q, Answer: answer, Data: d, Meta: meta}, nil
	},
	Score: scoreAdvanced,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		switch it.Data.(*triangle).task {
		case "orthocenter":
			return fmt.Sprintf("(%.3f, %.3f)", rng.Float64()*20-10, rng.Float64()*20-10)
		case "incircle_radius":
			return fmt.Sprintf("%.3f", rng.Float64()*5)
		}
		return fmt.Sprintf("%.2f°", rng.Float64()*180)
	},
	Retry:    true,
	Feedback: advancedFeedback,
}

// ratString is sympy's str of a rational: "7/3", "-2".
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.String()
}

// drawTriangle draws integer vertices until they are not collinear, at
// most 100 times (reasoning-gym then raises; Quarry, where that is all but
// impossible, takes the corners of the square).
func drawTriangle(rng *rand.Rand, o AdvancedOptions) (point, point, point) {
	coord := func() int64 { return int64(rg.Between(rng, o.MinCoord, o.MaxCoord)) }
	for range triangleDraws {
		a, b, c := point{coord(), coord()}, point{coord(), coord()}, point{coord(), coord()}
		if cross(a, b, c) != 0 {
			return a, b, c
		}
	}
	lo, hi := int64(o.MinCoord), int64(o.MaxCoord)
	return point{lo, lo}, point{hi, lo}, point{lo, hi}
}

// cross is twice the signed area of abc.
func cross(a, b, c point) int64 {
	return (b.x-a.x)*(c.y-a.y) - (b.y-a.y)*(c.x-a.x)
}

// orthocenter solves (H−A)·(C−B) = 0 and (H−B)·(A−C) = 0 exactly.
func orthocenter(a, b, c point) (*big.Rat, *big.Rat) {
	// p·H = r and q·H = s.
	px, py := c.x-b.x, c.y-b.y
	qx, qy := a.x-c.x, a.y-c.y
	r := px*a.x + py*a.y
	s := qx*b.x + qy*b.y
	det := big.NewInt(px*qy - py*qx)
	x := new(big.Rat).SetFrac(big.NewInt(r*qy-py*s), det)
	y := new(big.Rat).SetFrac(big.NewInt(px*s-r*qx), det)
	return x, y
}

func dist(p, q point) float64 { return math.Hypot(float64(p.x-q.x), float64(p.y-q.y)) }

// inradius is the area over the semi-perimeter.
func inradius(a, b, c point) float64 {
	area2 := math.Abs(float64(cross(a, b, c)))
	return area2 / (dist(b, c) + dist(c, a) + dist(a, b))
}

// angleAt is the angle ABC in degrees.
func angleAt(a, b, c point) float64 {
	ux, uy := float64(a.x-b.x), float64(a.y-b.y)
	vx, vy := float64(c.x-b.x), float64(c.y-b.y)
	cos := (ux*vx + uy*vy) / math.Sqrt((ux*ux+uy*uy)*(vx*vx+vy*vy))
	return math.Acos(max(-1, min(1, cos))) * 180 / math.Pi
}

// near reports whether x rounds to the same 'digits'-decimal value as want,
// or lies within half a unit of that place of it.
func near(x, want float64, digits int) bool {
	unit := math.Pow(10, -float64(digits))
	return strconv.FormatFloat(x, 'f', digits, 64) == strconv.FormatFloat(want, 'f', digits, 64) ||
		math.Abs(x-want) <= unit/2+1e-9
}

// parsePoint reads "(x, y)", also without brackets or with square ones,
// and coordinates written as fractions.
func parsePoint(s string) (float64, float64, bool) {
	s = strings.Trim(strings.TrimSpace(s), "()[] ")
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, false
	}
	x, okx := parseNumber(xs)
	y, oky := parseNumber(ys)
	return x, y, okx && oky
}

// scoreAdvanced is reasoning-gym's score_answer. orthocenter: 1 when both
// coordinates round to the reference at 3 decimals, else 0.01. angle: 1
// when the angle rounds to the reference at 2 decimals, else 0.05 (0.01
// for an answer that is not a number). incircle: 1 for the reference, 0.5
// when it agrees to 2 decimals, else 0.05 (0.01 unreadable). Quarry also
// takes a value within half a unit of the last place as equal (2.1 for
// 2.100), fractions, "degrees" for °.
func scoreAdvanced(answer string, it *rg.Item) float64 {
	d := it.Data.(*triangle)
	switch d.task {
	case "orthocenter":
		x, y, ok := parsePoint(answer)
		fx, _ := d.x.Float64()
		fy, _ := d.y.Float64()
		if ok && near(x, fx, 3) && near(y, fy, 3) {
			return 1
		}
		return 0.01
	case "incircle_radius":
		x, ok := parseNumber(answer)
		switch {
		case answer == it.Answer || (ok && near(x, d.value, 3)):
			return 1
		case ok && near(x, d.value, 2):
			return 0.5
		case ok:
			return 0.05
		}
		return 0.01
	}
	x, ok := parseNumber(answer)
	switch {
	case ok && near(x, d.value, 2):
		return 1
	case ok:
		return 0.05
	}
	return 0.01
}

// advancedFeedback says which value is off and in which direction.
func advancedFeedback(answer string, it *rg.Item, score float64) string {
	d := it.Data.(*triangle)
	dir := func(x, want float64) string {
		if x < want {
			return "too low"
		}
		return "too high"
	}
	switch d.task {
	case "orthocenter":
		x, y, ok := parsePoint(answer)
		if !ok {
			return "Your answer is not a point (x, y)."
		}
		fx, _ := d.x.Float64()
		fy, _ := d.y.Float64()
		var parts []string
		if !near(x, fx, 3) {
			parts = append(parts, "x is "+dir(x, fx))
		}
		if !near(y, fy, 3) {
			parts = append(parts, "y is "+dir(y, fy))
		}
		return "Your orthocenter is off: " + strings.Join(parts, " and ") + "."
	case "incircle_radius":
		x, ok := parseNumber(answer)
		if !ok {
			return "Your answer is not a number."
		}
		if score == 0.5 {
			return "Your radius is close but not right to 3 decimal places."
		}
		return "Your radius is " + dir(x, d.value) + "."
	}
	x, ok := parseNumber(answer)
	if !ok {
		return "Your answer is not a number of degrees."
	}
	return "Your angle is " + dir(x, d.value) + "."
}
