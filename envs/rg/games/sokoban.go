package rggames

import (
	"container/heap"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SokobanOptions are reasoning-gym's SokobanConfig. It asserts only
// 0 < max_w, max_h ≤ 20 and max_depth > 1; its generator loops for ever
// when the boxes do not fit inside the wall, or when no puzzle it draws is
// solvable within max_depth. Quarry starts boards at 5 (a 3 × 3 inside),
// refuses more boxes than the smallest board's inside holds less two, and
// bounds both its tries and its solver (sokobanTries, sokobanNodes).
type SokobanOptions struct {
	MinW     int `json:"min_w" range:"5,20"`
	MinH     int `json:"min_h" range:"5,20"`
	MaxW     int `json:"max_w" range:"5,20"`
	MaxH     int `json:"max_h" range:"5,20"`
	MinBoxes int `json:"min_boxes" range:"1,30"`
	MaxBoxes int `json:"max_boxes" range:"1,30"`
	MaxDepth int `json:"max_depth" range:"2,500"`
}

func (o SokobanOptions) Validate() error {
	switch {
	case o.MinW > o.MaxW:
		return optErr("max_w", "%d is below min_w %d", o.MaxW, o.MinW)
	case o.MinH > o.MaxH:
		return optErr("max_h", "%d is below min_h %d", o.MaxH, o.MinH)
	case o.MinBoxes > o.MaxBoxes:
		return optErr("max_boxes", "%d is below min_boxes %d", o.MaxBoxes, o.MinBoxes)
	case o.MaxBoxes > (o.MinW-2)*(o.MinH-2)-2:
		return optErr("max_boxes", "%d boxes do not fit a %d × %d board (at most %d)", o.MaxBoxes, o.MinW, o.MinH, (o.MinW-2)*(o.MinH-2)-2)
	}
	return nil
}

const (
	// sokobanTries is how many boards are drawn before the fallback
	// (reasoning-gym draws until one is solved).
	sokobanTries = 20
	// sokobanNodes bounds the solver's expanded states per board; where
	// it gives up, the undone walk is the answer if it is short enough.
	sokobanNodes = 4000
)

const sokobanIntro = `You are going to solve a 'sokoban' puzzle.

* - The player
% - The player on a goal
@ - A box
X - A goal
$ - A box on a goal
+ - A wall
- - An empty position

Your solution must be a string of characters, ex: LDURRUDL.

Here is your puzzle:
`

// sokoban is a board: cells row-major, w wide.
type sokoban struct {
	w, h  int
	cells []byte
}

func (s *sokoban) clone() *sokoban {
	return &sokoban{w: s.w, h: s.h, cells: append([]byte(nil), s.cells...)}
}

// String writes the board as reasoning-gym's puzzle_to_string does: each
// cell followed by a space, each row by one more space and a newline, and a
// blank line at the end.
func (s *sokoban) String() string {
	var b strings.Builder
	for r := range s.h {
		for c := range s.w {
			b.WriteByte(s.cells[r*s.w+c])
			b.WriteByte(' ')
		}
		b.WriteString(" \n")
	}
	b.WriteByte('\n')
	return b.String()
}

func isGoal(c byte) bool { return c == 'X' || c == '$' || c == '%' }
func isBox(c byte) bool  { return c == '@' || c == '$' }

// sokobanDirs are reasoning-gym's moves as (row, column) steps, in its
// order, with the letter that makes each one.
var sokobanDirs = [4]struct {
	dr, dc int
	key    byte
}{{1, 0, 'D'}, {-1, 0, 'U'}, {0, -1, 'L'}, {0, 1, 'R'}}

func registerSokoban(r *envs.Registry) error {
	return rg.Register(r, rg.Task[SokobanOptions]{
		Name:        "sokoban",
		Description: "reasoning-gym sokoban: a string of L, R, U, D moves that pushes every box onto a goal; any solution scores 1.",
		Revision:    1,
		Defaults:    SokobanOptions{MinW: 6, MinH: 6, MaxW: 10, MaxH: 10, MinBoxes: 4, MaxBoxes: 10, MaxDepth: 80},
		Generate:    generateSokoban,
		Score: func(answer string, it *rg.Item) float64 {
			if left, _ := replaySokoban(it.Data.(*sokoban), answer); left == 0 {
				return 1
			}
			return 0
		},
		Guess: func(rng *rand.Rand, it *rg.Item) string {
			b := make([]byte, len(it.Answer))
			for i := range b {
				b[i] = sokobanDirs[rng.IntN(4)].key
			}
			return string(b)
		},
		Retry: true,
		Feedback: func(answer string, it *rg.Item, _ float64) string {
			left, total := replaySokoban(it.Data.(*sokoban), answer)
			return fmt.Sprintf("After your moves %d of the %d boxes are not on a goal.", left, total)
		},
	})
}

// replaySokoban plays answer on the board as reasoning-gym's Player does:
// a move into a wall, or pushing a box into a wall or another box, does
// nothing; characters other than the four moves are skipped. Quarry also
// reads lower-case moves (reasoning-gym skips them). It returns the boxes
// left off a goal and the boxes on the board.
func replaySokoban(start *sokoban, answer string) (left, total int) {
	s := start.clone()
	p := strings.IndexAny(string(s.cells), "*%")
	for _, ch := range strings.ToUpper(answer) {
		d := strings.IndexRune("DULR", ch)
		if d < 0 || p < 0 {
			continue
		}
		p = s.push(p, d)
	}
	for _, c := range s.cells {
		if isBox(c) {
			total++
			if c == '@' {
				left++
			}
		}
	}
	return left, total
}

// push moves the player at p one step in direction d, pushing a box if
// one is there and free to move, and returns where the player stands.
func (s *sokoban) push(p, d int) int {
	step := sokobanDirs[d].dr*s.w + sokobanDirs[d].dc
	t := p + step
	if t < 0 || t >= len(s.cells) || s.cells[t] == '+' {
		return p
	}
	if isBox(s.cells[t]) {
		b := t + step
		if b < 0 || b >= len(s.cells) || s.cells[b] == '+' || isBox(s.cells[b]) {
			return p
		}
		s.cells[b] = pick(isGoal(s.cells[b]), '$', '@')
	}
	s.cells[t] = pick(isGoal(s.cells[t]), '%', '*')
	s.cells[p] = pick(isGoal(s.cells[p]), 'X', '-')
	return t
}

func pick(c bool, a, b byte) byte {
	if c {
		return a
	}
	return b
}

// sokobanBoxes is reasoning-gym's num_boxes: the box count grows linearly
// with the board's area from min_boxes to max_boxes.
func sokobanBoxes(area int, o SokobanOptions) int {
	if o.MinW == o.MaxW || o.MinH == o.MaxH || o.MinBoxes == o.MaxBoxes {
		return o.MaxBoxes
	}
	m := float64(o.MaxBoxes-o.MinBoxes) / float64(o.MaxW*o.MaxH-o.MinW*o.MinH)
	b := float64(o.MinBoxes) - m*float64(o.MinW*o.MinH)
	return max(o.MinBoxes, int(m*float64(area)+b+1e-9))
}

// generateSokoban is reasoning-gym's generator: boxes on goals in a solid
// wall, then a player that carves floor and pulls boxes off their goals on
// a random walk; a board with at least half its boxes (and one) off a goal
// and a solution within max_depth moves (the solver's, or the walk undone)
// is the puzzle. After sokobanTries
// boards the last board with a box off its goal is kept, its answer the
// walk played backwards with its loops cut.
func generateSokoban(rng *rand.Rand, o SokobanOptions) (rg.Item, error) {
	var fallback *sokoban
	var fallbackPath string
	for try := 0; ; try++ {
		w, h := rg.Between(rng, o.MinW, o.MaxW), rg.Between(rng, o.MinH, o.MaxH)
		boxes := sokobanBoxes(w*h, o)
		s, path := sokobanWalk(rng, w, h, boxes)
		off := strings.Count(string(s.cells), "@")
		if off >= max(1, boxes/2) {
			if sol, ok := solveSokoban(s, o.MaxDepth); ok {
				return sokobanItem(s, sol), nil
			}
			if len(path) <= o.MaxDepth {
				return sokobanItem(s, path), nil
			}
		}
		if off > 0 {
			fallback, fallbackPath = s, path
		}
		if try >= sokobanTries && fallback != nil {
			return sokobanItem(fallback, fallbackPath), nil
		}
		if try > 10*sokobanTries {
			return rg.Item{}, fmt.Errorf("sokoban: no box left its goal in %d boards", try)
		}
	}
}

func sokobanItem(s *sokoban, solution string) rg.Item {
	g := s.String()
	return rg.Item{
		Question: sokobanIntro + g,
		Answer:   solution,
		Data:     s,
		Meta:     map[string]any{"gamestr": g, "width": s.w, "height": s.h},
	}
}

// sokobanWalk builds one board by the reverse game, and returns it with
// a solution: the walk's moves undone in reverse order, loops cut.
func sokobanWalk(rng *rand.Rand, w, h, boxes int) (*sokoban, string) {
	s := &sokoban{w: w, h: h, cells: []byte(strings.Repeat("+", w*h))}
	p := (1+rng.IntN(h-2))*w + 1 + rng.IntN(w-2)
	s.cells[p] = '*'
	for placed := 0; placed < boxes; {
		b := (1+rng.IntN(h-2))*w + 1 + rng.IntN(w-2)
		if s.cells[b] == '+' {
			s.cells[b] = '$'
			placed++
		}
	}
	goal := make([]bool, w*h)
	for i, c := range s.cells {
		goal[i] = c == '$'
	}
	seen := map[string]int{}
	// trail[i] is the board before move i; moves[i] the direction taken.
	trail := []string{string(s.cells)}
	var moves []int
	prev := -1
	counter := int(math.Round(float64(h*w) * (1.8 + 1.8*rng.Float64())))
	for ; counter > 0; counter-- {
		// reasoning-gym weighs the previous move 0.1 against 1 for the
		// others; prev is the direction it remembers.
		weights := [4]float64{1, 1, 1, 1}
		if prev >= 0 {
			weights[prev] = 0.1
		}
		x := rng.Float64() * (weights[0] + weights[1] + weights[2] + weights[3])
		d := 0
		for ; d < 3 && x >= weights[d]; d++ {
			x -= weights[d]
		}
		cur := string(s.cells)
		seen[cur]++
		r, c := p/w+sokobanDirs[d].dr, p%w+sokobanDirs[d].dc
		t := r*w + c
		if c == 0 || r == 0 || c >= w-1 || r >= h-1 || isBox(s.cells[t]) {
			prev = d
		} else {
			prev = d ^ 1 // the opposite direction: D↔U, L↔R
			behind := p - (t - p)
			s.cells[p] = pick(goal[p], 'X', '-')
			s.cells[t] = pick(goal[t], '%', '*')
			if isBox(s.cells[behind]) {
				s.cells[behind] = pick(goal[behind], 'X', '-')
				s.cells[p] = pick(goal[p], '$', '@')
			}
			p = t
			trail = append(trail, string(s.cells))
			moves = append(moves, d)
		}
		if seen[cur] >= 20 {
			break
		}
	}
	// Cut loops: a board met again takes the path back to its first visit.
	boards := []string{trail[0]}
	var kept []int
	at := map[string]int{trail[0]: 0}
	for i, d := range moves {
		b := trail[i+1]
		if j, ok := at[b]; ok {
			for _, x := range boards[j+1:] {
				delete(at, x)
			}
			boards, kept = boards[:j+1], kept[:j]
			continue
		}
		at[b] = len(boards)
		boards, kept = append(boards, b), append(kept, d)
	}
	// Undo the kept moves, stopping where every box is on a goal (the
	// walk's first moves only bring the player to a box).
	play := s.clone()
	p = strings.IndexAny(string(play.cells), "*%")
	sol := make([]byte, 0, len(kept))
	for i := len(kept) - 1; i >= 0 && strings.IndexByte(string(play.cells), '@') >= 0; i-- {
		d := kept[i] ^ 1
		p = play.push(p, d)
		sol = append(sol, sokobanDirs[d].key)
	}
	return s, string(sol)
}

// skState is a position of the search: the player and a bit set of boxes.
type skState struct {
	boxes  [7]uint64 // 400 cells at most
	player int16
}

type skNode struct {
	st     skState
	parent int32
	move   byte
	g, f   int32
}

type skQueue struct {
	nodes []skNode
	idx   []int32
}

func (q *skQueue) Len() int { return len(q.idx) }
func (q *skQueue) Less(i, j int) bool {
	a, b := &q.nodes[q.idx[i]], &q.nodes[q.idx[j]]
	if a.f != b.f {
		return a.f < b.f
	}
	return a.g > b.g
}
func (q *skQueue) Swap(i, j int) { q.idx[i], q.idx[j] = q.idx[j], q.idx[i] }
func (q *skQueue) Push(x any)    { q.idx = append(q.idx, x.(int32)) }
func (q *skQueue) Pop() any {
	x := q.idx[len(q.idx)-1]
	q.idx = q.idx[:len(q.idx)-1]
	return x
}

// solveSokoban is a weighted A* over moves (reasoning-gym's solver is an
// A* on the Manhattan distance of boxes to goals); it gives up past
// maxDepth moves or sokobanNodes expanded positions.
func solveSokoban(s *sokoban, maxDepth int) (string, bool) {
	w, n := s.w, len(s.cells)
	var goals []int
	dead := make([]bool, n)
	var start skState
	for i, c := range s.cells {
		if isGoal(c) {
			goals = append(goals, i)
		}
		if isBox(c) {
			start.boxes[i/64] |= 1 << (i % 64)
		}
		if c == '*' || c == '%' {
			start.player = int16(i)
		}
	}
	wall := func(i int) bool { return s.cells[i] == '+' }
	for i := range n {
		if wall(i) || isGoal(s.cells[i]) || i < w || i >= n-w {
			continue
		}
		v := wall(i-w) || wall(i+w)
		hz := wall(i-1) || wall(i+1)
		dead[i] = v && hz
	}
	dist := make([]int32, n)
	for i := range n {
		best := int32(math.MaxInt32)
		for _, g := range goals {
			d := int32(abs(i/w-g/w) + abs(i%w-g%w))
			best = min(best, d)
		}
		dist[i] = best
	}
	has := func(st *skState, i int) bool { return st.boxes[i/64]&(1<<(i%64)) != 0 }
	heur := func(st *skState) (int32, bool) {
		var h int32
		solved := true
		for k, word := range st.boxes {
			for word != 0 {
				bit := bits.TrailingZeros64(word)
				word &= word - 1
				i := k*64 + bit
				if !isGoal(s.cells[i]) {
					solved = false
				}
				h += dist[i]
			}
		}
		return h, solved
	}
	q := &skQueue{}
	h0, done := heur(&start)
	if done {
		return "", false
	}
	q.nodes = append(q.nodes, skNode{st: start, parent: -1, f: 3 * h0})
	heap.Push(q, int32(0))
	seen := make(map[skState]bool, 256)
	seen[start] = true
	for expanded := 0; q.Len() > 0 && expanded < sokobanNodes; expanded++ {
		ni := heap.Pop(q).(int32)
		cur := q.nodes[ni]
		if int(cur.g) >= maxDepth {
			continue
		}
		p := int(cur.st.player)
		for d, dir := range sokobanDirs {
			step := dir.dr*w + dir.dc
			t := p + step
			if wall(t) {
				continue
			}
			next := cur.st
			next.player = int16(t)
			if has(&cur.st, t) {
				b := t + step
				if wall(b) || has(&cur.st, b) || dead[b] {
					continue
				}
				next.boxes[t/64] &^= 1 << (t % 64)
				next.boxes[b/64] |= 1 << (b % 64)
			}
			if seen[next] {
				continue
			}
			seen[next] = true
			h, solved := heur(&next)
			q.nodes = append(q.nodes, skNode{st: next, parent: ni, move: byte(d), g: cur.g + 1, f: cur.g + 1 + 3*h})
			if solved {
				var sol []byte
				for i := int32(len(q.nodes) - 1); q.nodes[i].parent >= 0; i = q.nodes[i].parent {
					sol = append(sol, sokobanDirs[q.nodes[i].move].key)
				}
				for i, j := 0, len(sol)-1; i < j; i, j = i+1, j-1 {
					sol[i], sol[j] = sol[j], sol[i]
				}
				return string(sol), true
			}
			heap.Push(q, int32(len(q.nodes)-1))
		}
	}
	return "", false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
