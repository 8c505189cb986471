package minesweeper

import (
	"fmt"
	"math"
	"slices"
)

// OracleAction plays from what the agent is shown — the revealed counts and
// the flags — plus the number of mines, which is the variant's published
// parameter (a real Minesweeper's mine counter), though GEM's prompt does not
// state it. Flags are treated as claims to check, not facts, so the oracle
// can take over from any policy.
//
// Each call deduces what it can: single-constraint rules (a count met by the
// known mines clears its other cells; a count equal to its hidden cells
// mines them all) and pair rules over overlapping constraints, the mine
// total among them. It then removes flags that are wrong, flags deduced
// mines (GEM's win needs every mine flagged), and reveals deduced safe
// cells. When nothing is certain it estimates each hidden cell's mine
// probability — exactly, by enumerating the frontier's configurations
// weighted by the ways to place the remaining mines elsewhere, or from the
// densest constraint when that exceeds its budget — and reveals the safest.
func (e *Env) OracleAction() (string, error) {
	if e.rng == nil {
		return "", fmt.Errorf("minesweeper oracle: Reset first")
	}
	s := solver{rows: e.rows, cols: e.cols, mines: e.mines, num: make([]int8, len(e.grid)), flagged: e.flagged}
	for i, r := range e.revealed {
		s.num[i] = hidden
		if r {
			s.num[i] = e.grid[i]
		}
	}
	kind, cell := s.next()
	return fmt.Sprintf(`\boxed{%s %d %d}`, kind, cell/e.cols, cell%e.cols), nil
}

const hidden = -1

// Cell knowledge.
const (
	unknown int8 = iota
	safe
	isMine
)

// enumBudget bounds the search nodes of one probability estimate.
const enumBudget = 1 << 20

type solver struct {
	rows, cols, mines int
	num               []int8 // revealed count, or hidden
	flagged           []bool
	known             []int8
}

type constraint struct {
	vars  []int // unknown hidden cells, ascending
	count int   // mines among them
}

// next returns the oracle's move.
func (s *solver) next() (kind string, cell int) {
	n := s.rows * s.cols
	if !slices.ContainsFunc(s.num, func(v int8) bool { return v != hidden }) {
		// Open in the middle: the first reveal is always safe, and a central
		// one clears the largest zone.
		c := (s.rows/2)*s.cols + s.cols/2
		if s.flagged[c] {
			return "flag", c
		}
		return "reveal", c
	}
	s.known = make([]int8, n)
	s.deduce()
	if k, c, ok := s.certain(); ok {
		return k, c
	}
	p, exact := s.enumerate()
	if !exact {
		p = s.estimate()
	}
	for i, v := range p {
		if s.num[i] != hidden || s.known[i] != unknown {
			continue
		}
		switch v {
		case 0:
			s.known[i] = safe
		case 1:
			s.known[i] = isMine
		}
	}
	if k, c, ok := s.certain(); ok {
		return k, c
	}
	// Guess the hidden cell least likely to hide a mine; if only flagged
	// cells are left uncertain, lift the safest flag first.
	best, bestFlagged := -1, -1
	for i, v := range p {
		if s.num[i] != hidden || s.known[i] != unknown {
			continue
		}
		if s.flagged[i] {
			if bestFlagged < 0 || v < p[bestFlagged] {
				bestFlagged = i
			}
		} else if best < 0 || v < p[best] {
			best = i
		}
	}
	switch {
	case best >= 0:
		return "reveal", best
	case bestFlagged >= 0:
		return "flag", bestFlagged
	}
	// Unreachable from a consistent board: every hidden cell is a flagged
	// mine, so the game is already won.
	return "reveal", slices.Index(s.num, hidden)
}

// certain picks a move from deduced facts: lift a wrong flag, flag a mine,
// reveal a safe cell.
func (s *solver) certain() (kind string, cell int, ok bool) {
	for i, k := range s.known {
		if s.num[i] == hidden && k == safe && s.flagged[i] {
			return "flag", i, true
		}
	}
	for i, k := range s.known {
		if s.num[i] == hidden && k == isMine && !s.flagged[i] {
			return "flag", i, true
		}
	}
	for i, k := range s.known {
		if s.num[i] == hidden && k == safe {
			return "reveal", i, true
		}
	}
	return "", 0, false
}

// constraints returns every revealed count over its unknown hidden
// neighbours, reduced by the known mines, and (when global) the mine total
// over every unknown hidden cell.
func (s *solver) constraints(global bool) []constraint {
	var out []constraint
	var buf [8]int
	for i, v := range s.num {
		if v == hidden {
			continue
		}
		c := constraint{count: int(v)}
		for _, j := range appendNeighbours(buf[:0], i, s.rows, s.cols) {
			if s.num[j] != hidden {
				continue
			}
			switch s.known[j] {
			case unknown:
				c.vars = append(c.vars, j)
			case isMine:
				c.count--
			}
		}
		if len(c.vars) > 0 {
			out = append(out, c)
		}
	}
	if global {
		c := constraint{count: s.mines}
		for j, v := range s.num {
			if v != hidden {
				continue
			}
			switch s.known[j] {
			case unknown:
				c.vars = append(c.vars, j)
			case isMine:
				c.count--
			}
		}
		if len(c.vars) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// deduce applies the single and pair rules to a fixed point.
func (s *solver) deduce() {
	for {
		cs := s.constraints(true)
		changed := false
		mark := func(cells []int, k int8) {
			for _, j := range cells {
				if s.known[j] == unknown {
					s.known[j] = k
					changed = true
				}
			}
		}
		for _, c := range cs {
			switch c.count {
			case 0:
				mark(c.vars, safe)
			case len(c.vars):
				mark(c.vars, isMine)
			}
		}
		if changed {
			continue
		}
		// Pair rule: if A's count exceeds B's by exactly |A\B|, then every
		// cell of A\B is a mine and every cell of B\A is safe. With B ⊆ A it
		// is the subset rule.
		for a := range cs {
			for b := range cs {
				if a == b {
					continue
				}
				onlyA, onlyB, shared := split(cs[a].vars, cs[b].vars)
				if shared > 0 && cs[a].count-cs[b].count == len(onlyA) {
					mark(onlyA, isMine)
					mark(onlyB, safe)
				}
			}
			if changed {
				break
			}
		}
		if !changed {
			return
		}
	}
}

// split returns a\b, b\a and |a∩b| of two ascending cell lists.
func split(a, b []int) (onlyA, onlyB []int, shared int) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			shared++
			i++
			j++
		}
	}
	return onlyA, onlyB, shared
}

// estimate is the fallback probability: a frontier cell takes the highest
// density of the constraints it is in; any other cell the mean density of
// the unknown cells.
func (s *solver) estimate() []float64 {
	p := make([]float64, len(s.num))
	unknownCells, left := 0, s.mines
	for i, v := range s.num {
		if v == hidden {
			switch s.known[i] {
			case unknown:
				unknownCells++
			case isMine:
				left--
			}
		}
	}
	density := float64(left) / float64(max(unknownCells, 1))
	for i := range p {
		p[i] = density
	}
	seen := make([]bool, len(p))
	for _, c := range s.constraints(false) {
		d := float64(c.count) / float64(len(c.vars))
		for _, j := range c.vars {
			if !seen[j] || d > p[j] {
				p[j], seen[j] = d, true
			}
		}
	}
	return p
}

// enumerate computes each unknown hidden cell's exact mine probability
// given the revealed counts and the mine total, component by component.
// exact is false when the search exceeds its budget or finds the board
// inconsistent.
func (s *solver) enumerate() (p []float64, exact bool) {
	n := len(s.num)
	cs := s.constraints(false)
	left, others := s.mines, 0
	isFrontier := make([]bool, n)
	for _, c := range cs {
		for _, j := range c.vars {
			isFrontier[j] = true
		}
	}
	for i, v := range s.num {
		if v != hidden {
			continue
		}
		switch {
		case s.known[i] == isMine:
			left--
		case s.known[i] == unknown && !isFrontier[i]:
			others++
		}
	}
	if left < 0 {
		return nil, false
	}

	comps := components(cs, n)
	budget := enumBudget
	dists := make([]*distribution, len(comps))
	for k, comp := range comps {
		d := enumerateComponent(comp, &budget)
		if d == nil {
			return nil, false
		}
		dists[k] = d
	}

	// Weight of t mines on the frontier: the ways to put the rest among the
	// other cells, C(others, left-t), scaled to avoid overflow.
	frontierMax := 0
	for _, d := range dists {
		frontierMax += len(d.count) - 1
	}
	logW := make([]float64, frontierMax+1)
	top := math.Inf(-1)
	for t := range logW {
		logW[t] = logChoose(others, left-t)
		top = max(top, logW[t])
	}
	if math.IsInf(top, -1) {
		return nil, false
	}
	w := make([]float64, len(logW))
	for t := range w {
		w[t] = math.Exp(logW[t] - top)
	}

	p = make([]float64, n)
	total := convolve(dists, -1)
	var z, otherMines float64
	for t, f := range total {
		z += f * w[t]
		otherMines += f * w[t] * float64(left-t)
	}
	if z == 0 || math.IsNaN(z) || math.IsInf(z, 0) {
		return nil, false
	}
	for i, v := range s.num {
		if v == hidden && s.known[i] == unknown && !isFrontier[i] {
			p[i] = otherMines / z / float64(others)
		}
	}
	for k, d := range dists {
		rest := convolve(dists, k)
		g := make([]float64, len(d.count))
		for m := range g {
			for r, f := range rest {
				g[m] += f * w[m+r]
			}
		}
		for vi, cell := range d.cells {
			var num float64
			for m, c := range d.mineCount[vi] {
				num += c * g[m]
			}
			p[cell] = num / z
			// Exact zeros and ones are certainties; keep them exact.
			if d.neverMine(vi) {
				p[cell] = 0
			} else if d.alwaysMine(vi) {
				p[cell] = 1
			}
		}
	}
	for i, v := range s.num {
		if v == hidden && s.known[i] == isMine {
			p[i] = 1
		}
	}
	return p, true
}

// logChoose is log C(n, k), or -Inf when k is out of range.
func logChoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// component is a set of frontier cells linked by shared constraints.
type component struct {
	cells []int   // in search order
	cons  [][]int // constraint vars as indices into cells
	count []int
}

func components(cs []constraint, n int) []component {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, c := range cs {
		for _, j := range c.vars[1:] {
			parent[find(j)] = find(c.vars[0])
		}
	}
	byRoot := map[int]int{}
	var comps []component
	var consOf [][]int // constraint indices per component
	for ci, c := range cs {
		root := find(c.vars[0])
		k, ok := byRoot[root]
		if !ok {
			k = len(comps)
			byRoot[root] = k
			comps = append(comps, component{})
			consOf = append(consOf, nil)
		}
		consOf[k] = append(consOf[k], ci)
	}
	for k := range comps {
		// Order cells constraint by constraint so each constraint closes
		// early in the search and prunes.
		index := map[int]int{}
		for _, ci := range consOf[k] {
			for _, j := range cs[ci].vars {
				if _, ok := index[j]; !ok {
					index[j] = len(comps[k].cells)
					comps[k].cells = append(comps[k].cells, j)
				}
			}
		}
		for _, ci := range consOf[k] {
			vars := make([]int, len(cs[ci].vars))
			for x, j := range cs[ci].vars {
				vars[x] = index[j]
			}
			comps[k].cons = append(comps[k].cons, vars)
			comps[k].count = append(comps[k].count, cs[ci].count)
		}
	}
	return comps
}

// distribution counts a component's consistent configurations by their
// number of mines m: count[m] in all, mineCount[v][m] with cell v a mine.
type distribution struct {
	cells     []int
	count     []float64
	mineCount [][]float64
}

func (d *distribution) neverMine(v int) bool {
	for _, c := range d.mineCount[v] {
		if c != 0 {
			return false
		}
	}
	return true
}

func (d *distribution) alwaysMine(v int) bool {
	for m, c := range d.mineCount[v] {
		if c != d.count[m] {
			return false
		}
	}
	return true
}

// enumerateComponent backtracks over the component's cells, or returns nil
// when budget runs out or no configuration fits.
func enumerateComponent(c component, budget *int) *distribution {
	nv := len(c.cells)
	consOfVar := make([][]int, nv)
	for ci, vars := range c.cons {
		for _, v := range vars {
			consOfVar[v] = append(consOfVar[v], ci)
		}
	}
	placed := make([]int, len(c.cons)) // mines assigned per constraint
	open := make([]int, len(c.cons))   // unassigned cells per constraint
	for ci, vars := range c.cons {
		open[ci] = len(vars)
	}
	d := &distribution{cells: c.cells, count: make([]float64, nv+1), mineCount: make([][]float64, nv)}
	for v := range d.mineCount {
		d.mineCount[v] = make([]float64, nv+1)
	}
	assign := make([]bool, nv)
	var found bool
	var rec func(v, mines int) bool
	rec = func(v, mines int) bool {
		if *budget--; *budget < 0 {
			return false
		}
		if v == nv {
			found = true
			d.count[mines]++
			for u, m := range assign {
				if m {
					d.mineCount[u][mines]++
				}
			}
			return true
		}
		for _, val := range [2]bool{false, true} {
			ok := true
			add := 0
			if val {
				add = 1
			}
			for _, ci := range consOfVar[v] {
				placed[ci] += add
				open[ci]--
				if placed[ci] > c.count[ci] || placed[ci]+open[ci] < c.count[ci] {
					ok = false
				}
			}
			assign[v] = val
			cont := true
			if ok {
				cont = rec(v+1, mines+add)
			}
			for _, ci := range consOfVar[v] {
				placed[ci] -= add
				open[ci]++
			}
			assign[v] = false
			if !cont {
				return false
			}
		}
		return true
	}
	if !rec(0, 0) || !found {
		return nil
	}
	return d
}

// convolve multiplies the components' mine-count distributions, leaving out
// component skip (-1 for none).
func convolve(ds []*distribution, skip int) []float64 {
	out := []float64{1}
	for k, d := range ds {
		if k == skip {
			continue
		}
		next := make([]float64, len(out)+len(d.count)-1)
		for a, x := range out {
			if x == 0 {
				continue
			}
			for b, y := range d.count {
				next[a+b] += x * y
			}
		}
		out = next
	}
	return out
}
