package cognition

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// RectOptions are reasoning-gym's RectangleCountConfig fields. It bounds
// only width and height from below (10); its curriculum reaches 25
// rectangles, and 100 rectangles on at most a 200×200 grid keeps a question
// under 40k characters.
type RectOptions struct {
	MaxRectangles int `json:"max_rectangles" range:"1,100"`
	Width         int `json:"width" range:"10,200"`
	Height        int `json:"height" range:"10,200"`
}

const rectTemplate = `Your task is to count how many rectangles are present in an ASCII grid.

Single rectangles are outlined with a '#', overlapping rectangles (max 2) are shown with '█'.

Your output should be a single number, representing the total count of rectangles.

Now, it's your turn. How many rectangles do you see in the grid below?
`

// rectAttempts bounds the placement tries, as reasoning-gym's 100000 does;
// a crowded grid gets fewer rectangles than drawn, and the answer is the
// number placed.
const rectAttempts = 10000

// RectangleCount is rg:rectangle_count: count the rectangles outlined in an
// ASCII grid.
var RectangleCount = rg.Task[RectOptions]{
	Name:        "rectangle_count",
	Description: "reasoning-gym rectangle_count: count the rectangles outlined in an ASCII grid (# single, █ where two overlap).",
	Revision:    1,
	Defaults:    RectOptions{MaxRectangles: 10, Width: 80, Height: 80},
	Generate:    generateRects,
	Score:       scoreRects,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		return strconv.Itoa(rng.IntN(100))
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		n, _ := strconv.ParseInt(it.Answer, 10, 64)
		return tooHighOrLow(answer, n)
	},
}

func generateRects(rng *rand.Rand, o RectOptions) (rg.Item, error) {
	target := rg.Between(rng, 1, o.MaxRectangles)
	w, h := o.Width, o.Height
	grid := make([][]uint8, h)
	for i := range grid {
		grid[i] = make([]uint8, w)
	}
	placed := 0
	var cells [][2]int
	for try := 0; placed < target && try < rectAttempts; try++ {
		l := rg.Between(rng, 0, w-3)
		r := rg.Between(rng, l+2, w-1)
		t := rg.Between(rng, 0, h-3)
		b := rg.Between(rng, t+2, h-1)
		cells = cells[:0]
		for c := l; c <= r; c++ {
			cells = append(cells, [2]int{t, c}, [2]int{b, c})
		}
		for row := t + 1; row < b; row++ {
			cells = append(cells, [2]int{row, l}, [2]int{row, r})
		}
		ok := true
		for _, c := range cells {
			if grid[c[0]][c[1]] >= 2 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, c := range cells {
			grid[c[0]][c[1]]++
		}
		placed++
	}
	var b strings.Builder
	for _, row := range grid {
		for _, n := range row {
			b.WriteString([...]string{" ", "#", "█"}[n])
		}
		b.WriteByte('\n')
	}
	puzzle := b.String()
	return rg.Item{
		Question: rectTemplate + puzzle + "\n",
		Answer:   strconv.Itoa(placed),
		Meta:     map[string]any{"puzzle": puzzle, "solution": placed, "num_rectangles": target},
	}, nil
}

// scoreRects is reasoning-gym's: 1 for the count, 0.8·(1 − d/5) for an
// answer d < 5 away, else 0. Quarry also reads "1,000" and "12.0" as
// integers, where reasoning-gym's int() gives 0.
func scoreRects(answer string, it *rg.Item) float64 {
	got, ok := rg.ParseInteger(answer)
	want, _ := strconv.ParseInt(it.Answer, 10, 64)
	if !ok {
		return 0
	}
	d := got - want
	if d < 0 {
		d = -d
	}
	switch {
	case d == 0:
		return 1
	case d >= 5:
		return 0
	}
	return 0.8 * (1 - float64(d)/5)
}
