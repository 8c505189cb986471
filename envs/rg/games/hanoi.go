package rggames

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// HanoiOptions are reasoning-gym's HanoiConfig less visualize (which only
// adds pictures to the item's dict, never to the question). reasoning-gym
// bounds only min_disks ≥ 1 and min_pegs ≥ 3; 12 disks (4,095 moves on
// three pegs, a 120 kB answer) and 6 pegs keep items and answers sane.
type HanoiOptions struct {
	MinDisks int `json:"min_disks" range:"1,12"`
	MaxDisks int `json:"max_disks" range:"1,12"`
	MinPegs  int `json:"min_pegs" range:"3,6"`
	MaxPegs  int `json:"max_pegs" range:"3,6"`
}

func (o HanoiOptions) Validate() error {
	if o.MinDisks > o.MaxDisks {
		return optErr("max_disks", "%d is below min_disks %d", o.MaxDisks, o.MinDisks)
	}
	if o.MinPegs > o.MaxPegs {
		return optErr("max_pegs", "%d is below min_pegs %d", o.MaxPegs, o.MinPegs)
	}
	return nil
}

const hanoiTemplate = `Solve the Tower of Hanoi problem with %d disks and %d pegs.
Move all disks from Peg %d to Peg %d following the rules:
- Only one disk can be moved at a time.
- A larger disk cannot be placed on top of a smaller disk.
- All disks must be on a peg at all times.
Provide the sequence of moves.
Formatting guidelines:
- Each instruction should be placed on a single line.
- Each line should be formatted as 'Move disk X from Peg Y to Peg Z'
- Do not include any other text or formatting.
`

type hanoiPuzzle struct {
	disks, pegs, start, target, optimal int
}

func registerHanoi(r *envs.Registry) error {
	return rg.Register(r, rg.Task[HanoiOptions]{
		Name:        "tower_of_hanoi",
		Description: "reasoning-gym tower_of_hanoi: list the moves that carry n disks between two of 3 to 6 pegs; a longer valid solution earns optimal/length.",
		Revision:    1,
		Defaults:    HanoiOptions{MinDisks: 3, MaxDisks: 7, MinPegs: 3, MaxPegs: 4},
		Generate:    generateHanoi,
		Score: func(answer string, it *rg.Item) float64 {
			s, _ := replayHanoi(answer, it.Data.(*hanoiPuzzle))
			return s
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			p := it.Data.(*hanoiPuzzle)
			moves := make([]string, 1+rng.IntN(p.optimal))
			for i := range moves {
				from := 1 + rng.IntN(p.pegs)
				to := 1 + (from+rng.IntN(p.pegs-1))%p.pegs
				moves[i] = fmt.Sprintf("Move disk %d from Peg %d to Peg %d", 1+rng.IntN(p.disks), from, to)
			}
			return strings.Join(moves, "\n")
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			_, why := replayHanoi(answer, it.Data.(*hanoiPuzzle))
			return why
		},
	})
}

// hanoiSolver writes Frame-Stewart solutions, the moves reasoning-gym's
// MoveGenerator writes.
type hanoiSolver struct {
	pegs  map[int][]int
	moves []string
	memo  map[[2]int]int
}

// cost is T(n, k), the fewest moves of n disks with k pegs by Frame-Stewart.
func (h *hanoiSolver) cost(n, k int) int {
	switch {
	case n <= 1:
		return n
	case k == 3:
		return 1<<n - 1
	}
	if v, ok := h.memo[[2]int{n, k}]; ok {
		return v
	}
	best := math.MaxInt
	for m := 1; m < n; m++ {
		best = min(best, 2*h.cost(m, k)+h.cost(n-m, k-1))
	}
	h.memo[[2]int{n, k}] = best
	return best
}

func (h *hanoiSolver) disk(from, to int) {
	d := h.pegs[from][len(h.pegs[from])-1]
	h.pegs[from] = h.pegs[from][:len(h.pegs[from])-1]
	h.pegs[to] = append(h.pegs[to], d)
	h.moves = append(h.moves, fmt.Sprintf("Move disk %d from Peg %d to Peg %d", d, from, to))
}

func (h *hanoiSolver) move(n, src, dst int, aux []int) {
	switch {
	case n == 0:
		return
	case n == 1:
		h.disk(src, dst)
		return
	case len(aux) == 1:
		h.move(n-1, src, aux[0], []int{dst})
		h.disk(src, dst)
		h.move(n-1, aux[0], dst, []int{src})
		return
	}
	k := len(aux) + 2
	best, bestM := math.MaxInt, 1
	for m := 1; m < n; m++ {
		if c := 2*h.cost(m, k) + h.cost(n-m, k-1); c < best {
			best, bestM = c, m
		}
	}
	tmp := aux[0]
	rest := append([]int(nil), aux[1:]...)
	h.move(bestM, src, tmp, append(append([]int(nil), rest...), dst))
	h.move(n-bestM, src, dst, rest)
	h.move(bestM, tmp, dst, append(append([]int(nil), rest...), src))
}

func generateHanoi(rng *rand.Rand, o HanoiOptions) (rg.Item, error) {
	disks := rg.Between(rng, o.MinDisks, o.MaxDisks)
	pegs := rg.Between(rng, o.MinPegs, o.MaxPegs)
	perm := rng.Perm(pegs)
	start, target := perm[0]+1, perm[1]+1
	h := &hanoiSolver{pegs: map[int][]int{}, memo: map[[2]int]int{}}
	for d := disks; d >= 1; d-- {
		h.pegs[start] = append(h.pegs[start], d)
	}
	var aux []int
	for p := 1; p <= pegs; p++ {
		if p != start && p != target {
			aux = append(aux, p)
		}
	}
	h.move(disks, start, target, aux)
	return rg.Item{
		Question: fmt.Sprintf(hanoiTemplate, disks, pegs, start, target),
		Answer:   strings.Join(h.moves, "\n"),
		Data:     &hanoiPuzzle{disks: disks, pegs: pegs, start: start, target: target, optimal: len(h.moves)},
		Meta:     map[string]any{"num_disks": disks, "num_pegs": pegs, "start_peg": start, "target_peg": target, "solution_length": len(h.moves)},
	}, nil
}

var hanoiMove = regexp.MustCompile(`(?i)^(?:\d+[.):]\s*)?move disk (\d+) from peg (\d+) to peg (\d+)\.?$`)

// replayHanoi is reasoning-gym's score_answer: replay the moves; an illegal
// or unreadable one scores 0, legal moves that leave the puzzle unsolved
// 0.05, a solution optimal/len(moves) capped at 1. More lenient: case is
// ignored, and a line may carry a leading "1." or a trailing full stop. It
// also says why, for the retry variant's feedback.
func replayHanoi(answer string, p *hanoiPuzzle) (float64, string) {
	moves := lines(answer)
	if len(moves) == 0 {
		return 0, "Your answer has no moves."
	}
	pegs := make([][]int, p.pegs+1)
	for d := p.disks; d >= 1; d-- {
		pegs[p.start] = append(pegs[p.start], d)
	}
	for i, mv := range moves {
		m := hanoiMove.FindStringSubmatch(mv)
		if m == nil {
			return 0, fmt.Sprintf("Line %d is not of the form 'Move disk X from Peg Y to Peg Z'.", i+1)
		}
		d, _ := strconv.Atoi(m[1])
		from, _ := strconv.Atoi(m[2])
		to, _ := strconv.Atoi(m[3])
		switch {
		case from < 1 || from > p.pegs || to < 1 || to > p.pegs:
			return 0, fmt.Sprintf("Move %d names a peg that does not exist.", i+1)
		case len(pegs[from]) == 0 || pegs[from][len(pegs[from])-1] != d:
			return 0, fmt.Sprintf("Move %d is illegal: disk %d is not on top of Peg %d.", i+1, d, from)
		case len(pegs[to]) > 0 && pegs[to][len(pegs[to])-1] < d:
			return 0, fmt.Sprintf("Move %d is illegal: disk %d cannot go on a smaller disk.", i+1, d)
		}
		pegs[from] = pegs[from][:len(pegs[from])-1]
		pegs[to] = append(pegs[to], d)
	}
	if len(pegs[p.target]) != p.disks {
		return 0.05, "Every move is legal, but the disks do not all end on the target peg."
	}
	if len(moves) <= p.optimal {
		return 1, ""
	}
	return float64(p.optimal) / float64(len(moves)), fmt.Sprintf("Your moves solve the puzzle in %d moves, but it can be done in fewer.", len(moves))
}
