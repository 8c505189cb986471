package sokoban

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// bitset holds one bit per cell of a room of at most maxDim² cells.
type bitset [2]uint64

func (b bitset) has(i int) bool      { return b[i>>6]&(1<<(i&63)) != 0 }
func (b *bitset) set(i int)          { b[i>>6] |= 1 << (i & 63) }
func (b *bitset) clear(i int)        { b[i>>6] &^= 1 << (i & 63) }
func (b bitset) and(o bitset) bitset { return bitset{b[0] & o[0], b[1] & o[1]} }
func (b bitset) count() int          { return bits.OnesCount64(b[0]) + bits.OnesCount64(b[1]) }
func (b bitset) cells(out []int) []int {
	for w, word := range b {
		for word != 0 {
			out = append(out, w*64+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return out
}

// level is a room's fixed part: walls (the border included) and targets.
type level struct {
	rows, cols int
	wall       bitset
	targets    bitset
	targetList []int
	// pushDist[i][cell] is the fewest pushes that bring a box from cell to
	// targetList[i], other boxes ignored (noPath when it cannot get there).
	pushDist [][]uint8
}

// state is a room's moving part.
type state struct {
	player int
	boxes  bitset
}

const noPath = 255

// delta is the cell offset of moving in direction d (up, down, left, right).
func (lv *level) delta(d int) int {
	switch d {
	case 0:
		return -lv.cols
	case 1:
		return lv.cols
	case 2:
		return -1
	}
	return 1
}

// move walks the player one cell in direction d, pushing a box that is in
// the way. ok is false when a wall, or a box backed by a wall or box, blocks
// it. The border is all wall, so the player never leaves the grid.
func (lv *level) move(s state, d int) (next state, pushed, ok bool) {
	dd := lv.delta(d)
	p := s.player + dd
	if lv.wall.has(p) {
		return s, false, false
	}
	if s.boxes.has(p) {
		q := p + dd
		if lv.wall.has(q) || s.boxes.has(q) {
			return s, false, false
		}
		s.boxes.clear(p)
		s.boxes.set(q)
		pushed = true
	}
	s.player = p
	return s, pushed, true
}

func (lv *level) solved(s state) bool { return s.boxes == lv.targets }

// render draws GEM's board: '#' wall, 'P' player (even on a target), '√' box
// on target, 'X' box, 'O' target, '_' floor; cells space-separated.
func (lv *level) render(s state) string {
	var sb strings.Builder
	for r := range lv.rows {
		for c := range lv.cols {
			if c > 0 {
				sb.WriteByte(' ')
			}
			i := r*lv.cols + c
			switch {
			case lv.wall.has(i):
				sb.WriteByte('#')
			case s.player == i:
				sb.WriteByte('P')
			case s.boxes.has(i) && lv.targets.has(i):
				sb.WriteString("√")
			case s.boxes.has(i):
				sb.WriteByte('X')
			case lv.targets.has(i):
				sb.WriteByte('O')
			default:
				sb.WriteByte('_')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// prepare computes the push distances once the walls and targets are set.
func (lv *level) prepare() {
	n := lv.rows * lv.cols
	lv.targetList = lv.targets.cells(lv.targetList[:0])
	lv.pushDist = make([][]uint8, len(lv.targetList))
	queue := make([]int, 0, n)
	for i, t := range lv.targetList {
		dist := make([]uint8, n)
		for c := range dist {
			dist[c] = noPath
		}
		dist[t] = 0
		queue = append(queue[:0], t)
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for d := range 4 {
				// A box at y = x-dd reaches x when the player stands at y-dd.
				dd := lv.delta(d)
				y := x - dd
				if y < 0 || y >= n || lv.wall.has(y) || dist[y] != noPath {
					continue
				}
				if py := y - dd; py < 0 || py >= n || lv.wall.has(py) {
					continue
				}
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
		lv.pushDist[i] = dist
	}
}

// GEM's topology walk: masks stamped along a random walk become floor.
var masks = [...][3][3]bool{
	{{false, false, false}, {true, true, true}, {false, false, false}},
	{{false, true, false}, {false, true, false}, {false, true, false}},
	{{false, false, false}, {true, true, false}, {false, true, false}},
	{{false, false, false}, {true, true, false}, {true, true, false}},
	{{false, false, false}, {false, true, true}, {false, true, false}},
}

var walkDirs = [...][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// topology carves floor out of a rows×cols block of wall with GEM's random
// walk: 1.7×(rows+cols) steps, turning with probability 0.35, stamping a
// random 3×3 mask at each step. The border stays wall.
func topology(rng *rand.Rand, rows, cols int) *level {
	lv := &level{rows: rows, cols: cols}
	floor := make([]bool, rows*cols)
	dir := walkDirs[rng.IntN(len(walkDirs))]
	r, c := 1+rng.IntN(rows-1), 1+rng.IntN(cols-1)
	steps := int(1.7 * float64(rows+cols))
	for range steps {
		if rng.Float64() < 0.35 {
			dir = walkDirs[rng.IntN(len(walkDirs))]
		}
		r = max(min(r+dir[0], rows-2), 1)
		c = max(min(c+dir[1], cols-2), 1)
		m := &masks[rng.IntN(len(masks))]
		for i := range 3 {
			for j := range 3 {
				if m[i][j] {
					floor[(r-1+i)*cols+c-1+j] = true
				}
			}
		}
	}
	for i := range rows * cols {
		r, c := i/cols, i%cols
		if !floor[i] || r == 0 || c == 0 || r == rows-1 || c == cols-1 {
			lv.wall.set(i)
		}
	}
	return lv
}

// Generation parameters. Each attempt carves a room with GEM's walk and
// places the targets, boxes on them, as GEM does. It then plays the game
// backwards breadth-first from every solved state (the player on any free
// cell): the player steps to a free neighbour, pulling or not the box behind
// it. Breadth-first order makes each state's depth its exact shortest
// solution, so the candidates, states with every box off its target, come
// with their difficulty. The level is one of the candidates at a depth drawn
// from [max_turns/4, 3·max_turns/4] (or the nearest depth that has one),
// leaving slack to recover from mistakes. GEM instead keeps the
// reverse-played state with the best box-switches × displacement score and
// never checks it can be solved in time.
const (
	maxAttempts = 50
	bfsBudget   = 150_000 // states stored by one backward search
	// solverBudget bounds the states one forward (A*) search stores, when
	// the oracle replans.
	solverBudget = 300_000
)

var errNoLevel = errors.New("no level with every box off its target found")

// generate returns a level, its opening state and a shortest solution,
// whose length is at most maxTurns.
func generate(rng *rand.Rand, rows, cols, numBoxes, maxTurns int) (*level, state, []int8, error) {
	for range maxAttempts {
		lv := topology(rng, rows, cols)
		free := make([]int, 0, rows*cols)
		for i := range rows * cols {
			if !lv.wall.has(i) {
				free = append(free, i)
			}
		}
		if len(free) <= numBoxes+1 { // GEM: more floor than boxes and player
			continue
		}
		for range numBoxes {
			k := rng.IntN(len(free))
			lv.targets.set(free[k])
			free[k] = free[len(free)-1]
			free = free[:len(free)-1]
		}
		lv.prepare()
		if st, plan, ok := pick(rng, lv, free, maxTurns); ok {
			return lv, st, plan, nil
		}
	}
	return nil, state{}, nil, errNoLevel
}

// pick searches backwards from the solved room (the player on any of free)
// and returns a candidate opening state with its shortest solution.
func pick(rng *rand.Rand, lv *level, free []int, maxTurns int) (state, []int8, bool) {
	type node struct {
		st     state
		parent int32
		dir    int8 // the backward step that reached st
		depth  int16
	}
	nodes := make([]node, 0, 1024)
	seen := make(map[state]struct{}, 1024)
	for _, p := range free {
		st := state{player: p, boxes: lv.targets}
		seen[st] = struct{}{}
		nodes = append(nodes, node{st: st, parent: -1, dir: -1})
	}
	var candidates []int32 // in order of depth
	for i := 0; i < len(nodes) && len(nodes) < bfsBudget; i++ {
		n := nodes[i]
		if int(n.depth) >= maxTurns {
			break
		}
		for d := range 4 {
			dd := lv.delta(d)
			p := n.st.player + dd
			if lv.wall.has(p) || n.st.boxes.has(p) {
				continue
			}
			for _, pull := range [2]bool{false, true} {
				st := state{player: p, boxes: n.st.boxes}
				if behind := n.st.player - dd; pull {
					if !st.boxes.has(behind) {
						continue
					}
					st.boxes.clear(behind)
					st.boxes.set(n.st.player)
				}
				if _, ok := seen[st]; ok {
					continue
				}
				seen[st] = struct{}{}
				nodes = append(nodes, node{st: st, parent: int32(i), dir: int8(d), depth: n.depth + 1})
				if st.boxes.and(lv.targets) == (bitset{}) {
					candidates = append(candidates, int32(len(nodes)-1))
				}
			}
		}
	}
	if len(candidates) == 0 {
		return state{}, nil, false
	}
	lo := max(1, maxTurns/4)
	want := lo + rng.IntN(max(1, maxTurns*3/4)-lo+1)
	depth := func(k int) int16 { return nodes[candidates[k]].depth }
	// The depth: the deepest not above want, or the shallowest if all are.
	end := len(candidates)
	for end > 0 && int(depth(end-1)) > want {
		end--
	}
	if end == 0 {
		for end < len(candidates) && depth(end) == depth(0) {
			end++
		}
	}
	start := end - 1
	for start > 0 && depth(start-1) == depth(end-1) {
		start--
	}
	c := candidates[start+rng.IntN(end-start)]
	// Undo the backward steps: each is one forward move in the opposite
	// direction, and the first undone is the last taken.
	var plan []int8
	for j := c; nodes[j].parent >= 0; j = nodes[j].parent {
		plan = append(plan, opposite[nodes[j].dir])
	}
	return nodes[c].st, plan, true
}

var opposite = [...]int8{1, 0, 3, 2}
