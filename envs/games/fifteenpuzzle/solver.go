package fifteenpuzzle

import "slices"

// search is one IDA* run. Its heuristic is Manhattan distance plus linear
// conflicts (Hansson, Mayer and Yung 1992), both kept incrementally: a move
// changes one tile's distance and the conflicts of the two lines the tile
// leaves and enters (its order within the line it moves along is unchanged).

// A line's conflicts depend only on the goal positions, in order, of the
// tiles in it that belong to it, so each line is summarised as a base-(n+1)
// code (digit = goal position + 1, or 0) and its penalty read from a table.
// Boards above lcMaxRows use Manhattan distance alone: the table would be too
// large, and no search of this size solves them anyway.
type search struct {
	n      int
	board  []int8
	blank  int
	md     int     // sum of Manhattan distances
	lc     int     // sum of line-conflict penalties
	mdTab  []int8  // [tile*n² + cell]: Manhattan distance of tile at cell
	rowTab []int32 // [tile*n² + cell]: the tile's digit in its row's code
	colTab []int32 // and in its column's code
	lcTab  []int8  // penalty by line code
	rowKey []int32 // code of each row
	colKey []int32 // and column
	nodes  int
	budget int
	path   []int8
}

const (
	unreachable = 1 << 30
	lcMaxRows   = 5
)

// solve returns an optimal move sequence of at most limit moves from board to
// the goal. ok is false when there is none or the budget of expanded nodes
// ran out first.
func solve(board []int8, n, limit, budget int) (plan []int8, ok bool) {
	return newSearch(board, n, budget).run(limit)
}

func newSearch(board []int8, n, budget int) *search {
	cells := n * n
	s := &search{n: n, board: slices.Clone(board), blank: slices.Index(board, 0), budget: budget,
		mdTab: make([]int8, cells*cells), rowKey: make([]int32, n), colKey: make([]int32, n)}
	withLC := n <= lcMaxRows
	if withLC {
		s.rowTab, s.colTab = make([]int32, cells*cells), make([]int32, cells*cells)
		s.lcTab = conflictTable(n)
	}
	pow := make([]int32, n)
	pow[0] = 1
	for i := 1; i < n; i++ {
		pow[i] = pow[i-1] * int32(n+1)
	}
	for t := 1; t < cells; t++ {
		gr, gc := (t-1)/n, (t-1)%n
		for cell := range cells {
			r, c := cell/n, cell%n
			s.mdTab[t*cells+cell] = int8(abs(gr-r) + abs(gc-c))
			if !withLC {
				continue
			}
			if gr == r { // in its goal row: digit at column c
				s.rowTab[t*cells+cell] = int32(gc+1) * pow[c]
			}
			if gc == c {
				s.colTab[t*cells+cell] = int32(gr+1) * pow[r]
			}
		}
	}
	for cell, v := range s.board {
		if v == 0 {
			continue
		}
		s.md += int(s.mdTab[int(v)*cells+cell])
		if withLC {
			s.rowKey[cell/n] += s.rowTab[int(v)*cells+cell]
			s.colKey[cell%n] += s.colTab[int(v)*cells+cell]
		}
	}
	if withLC {
		for k := range n {
			s.lc += int(s.lcTab[s.rowKey[k]]) + int(s.lcTab[s.colKey[k]])
		}
	}
	return s
}

// conflictTable maps every line code to 2 × (tiles in their goal line −
// longest increasing run of their goal positions): the fewest tiles that must
// leave the line, two moves each, so the rest can pass into order.
func conflictTable(n int) []int8 {
	size := 1
	for range n {
		size *= n + 1
	}
	tab := make([]int8, size)
	goals := make([]int, 0, n)
	lis := make([]int, n)
	for code := range size {
		goals = goals[:0]
		for x := code; len(goals) < n; x /= n + 1 {
			goals = append(goals, x%(n+1)) // digit per position; 0 = none
		}
		k, best := 0, 0
		for i, g := range goals {
			if g == 0 {
				continue
			}
			k++
			lis[i] = 1
			for j := range i {
				if goals[j] != 0 && goals[j] < g {
					lis[i] = max(lis[i], lis[j]+1)
				}
			}
			best = max(best, lis[i])
		}
		tab[code] = int8(2 * (k - best))
	}
	return tab
}

func (s *search) run(limit int) (plan []int8, ok bool) {
	bound := s.md + s.lc
	for bound <= limit {
		next := s.dfs(0, bound, -1)
		switch {
		case next == 0:
			return slices.Clone(s.path), true
		case next >= unreachable:
			return nil, false
		}
		bound = next
	}
	return nil, false
}

// dfs explores below the current board at depth g. It returns 0 when the
// goal was reached (s.path holds the moves), unreachable when the budget ran
// out or nothing lies below, otherwise the smallest f above bound it saw.
func (s *search) dfs(g, bound, prev int) int {
	h := s.md + s.lc
	if h == 0 {
		return 0
	}
	if f := g + h; f > bound {
		return f
	}
	s.nodes++
	if s.nodes > s.budget {
		return unreachable
	}
	next := unreachable
	for m := range 4 {
		if prev >= 0 && m == inverse[prev] {
			continue
		}
		t := s.neighbour(m)
		if t < 0 {
			continue
		}
		from := s.blank
		s.slide(t)
		s.path = append(s.path, int8(m))
		r := s.dfs(g+1, bound, m)
		if r == 0 {
			return 0
		}
		s.path = s.path[:len(s.path)-1]
		s.slide(from)
		if s.nodes > s.budget {
			return unreachable
		}
		next = min(next, r)
	}
	return next
}

func (s *search) neighbour(m int) int {
	r, c := s.blank/s.n, s.blank%s.n
	switch m {
	case up:
		r++
	case down:
		r--
	case left:
		c++
	case right:
		c--
	}
	if r < 0 || r >= s.n || c < 0 || c >= s.n {
		return -1
	}
	return r*s.n + c
}

// slide moves the tile at t (adjacent to the space) into the space, updating
// the heuristic.
func (s *search) slide(t int) {
	b, n, cells := s.blank, s.n, s.n*s.n
	v := int(s.board[t])
	s.md += int(s.mdTab[v*cells+b]) - int(s.mdTab[v*cells+t])
	s.board[b], s.board[t] = int8(v), 0
	s.blank = t
	if s.lcTab == nil {
		return
	}
	// The tile changes one line (the row or column across its move) and its
	// digit moves within the other; only the first changes a penalty, but
	// every key must follow the tile.
	rb, cb, rt, ct := b/n, b%n, t/n, t%n
	lt := s.lcTab
	s.lc -= int(lt[s.rowKey[rt]]) + int(lt[s.colKey[ct]])
	if rb != rt {
		s.lc -= int(lt[s.rowKey[rb]])
	} else {
		s.lc -= int(lt[s.colKey[cb]])
	}
	s.rowKey[rt] -= s.rowTab[v*cells+t]
	s.rowKey[rb] += s.rowTab[v*cells+b]
	s.colKey[ct] -= s.colTab[v*cells+t]
	s.colKey[cb] += s.colTab[v*cells+b]
	s.lc += int(lt[s.rowKey[rt]]) + int(lt[s.colKey[ct]])
	if rb != rt {
		s.lc += int(lt[s.rowKey[rb]])
	} else {
		s.lc += int(lt[s.colKey[cb]])
	}
}

// greedy picks the legal move that most lowers the heuristic, avoiding
// undoing the previous move when it can: the fallback once search gives up.
func greedy(board []int8, n, prev int) int {
	s := newSearch(board, n, 0)
	best, bestH := -1, unreachable
	for m := range 4 {
		t := s.neighbour(m)
		if t < 0 || (prev >= 0 && m == inverse[prev]) {
			continue
		}
		from := s.blank
		s.slide(t)
		if h := s.md + s.lc; h < bestH {
			best, bestH = m, h
		}
		s.slide(from)
	}
	if best < 0 { // only the undo is legal (a corner of a 2x2 board)
		best = inverse[prev]
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
