package arc

// DSL helpers for the thirteenth batch of ported generators.

import "slices"

// dneighbors are the four cells 4-adjacent to p (possibly outside the grid).
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// mostcolor is the DSL's mostcolor on a grid: the most common colour, the
// smallest one on a tie (as max over a small-int set picks).
func mostcolor(g Grid) int {
	var n [10]int
	for _, row := range g {
		for _, v := range row {
			if v >= 0 && v < 10 {
				n[v]++
			}
		}
	}
	best := 0
	for c := 1; c < 10; c++ {
		if n[c] > n[best] {
			best = c
		}
	}
	return best
}

// objectsX is the DSL's objects(grid, univalued, diagonal, without_bg),
// each object a list of cells, found row by row.
func objectsX(g Grid, univalued, diagonal, withoutBg bool) [][]cell {
	h, w := dims(g)
	bg := -100
	if withoutBg {
		bg = mostcolor(g)
	}
	around := dneighbors
	if diagonal {
		around = neighbors
	}
	seen := make([][]bool, h)
	for i := range seen {
		seen[i] = make([]bool, w)
	}
	var objs [][]cell
	for _, start := range asindices(g) {
		val := g[start.i][start.j]
		if seen[start.i][start.j] || val == bg {
			continue
		}
		var obj []cell
		stack := []pt{start}
		seen[start.i][start.j] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			obj = append(obj, cell{g[p.i][p.j], p})
			for _, q := range around(p) {
				if q.i < 0 || q.i >= h || q.j < 0 || q.j >= w || seen[q.i][q.j] {
					continue
				}
				v := g[q.i][q.j]
				if (univalued && v == val) || (!univalued && v != bg) {
					seen[q.i][q.j] = true
					stack = append(stack, q)
				}
			}
		}
		objs = append(objs, obj)
	}
	return objs
}

// toindices is the DSL's toindices on an object.
func toindices(o []cell) []pt {
	ps := make([]pt, len(o))
	for k, c := range o {
		ps[k] = c.p
	}
	return ps
}

// center is the DSL's center: the middle of the patch's bounding box.
func center(ps []pt) pt {
	ul, lr := bounds(ps)
	return pt{ul.i + (lr.i-ul.i+1)/2, ul.j + (lr.j-ul.j+1)/2}
}

// inGrid reports whether p lies in an h×w grid.
func inGrid(p pt, h, w int) bool { return p.i >= 0 && p.i < h && p.j >= 0 && p.j < w }

// clip keeps the points inside an h×w grid (the DSL's "& asindices(grid)").
func clip(ps []pt, h, w int) []pt {
	var out []pt
	for _, p := range ps {
		if inGrid(p, h, w) {
			out = append(out, p)
		}
	}
	return out
}

// ptSet is a set of points, kept as a bitmap over a frame around the
// largest grid (-16…47 on each axis); a point outside the frame is never
// in the set.
type ptSet struct {
	on []bool
	n  int
}

const setLo, setSpan = -16, 64

func newSet() *ptSet { return &ptSet{on: make([]bool, setSpan*setSpan)} }

func setOf(ps []pt) *ptSet {
	s := newSet()
	for _, p := range ps {
		s.add(p)
	}
	return s
}

func setIndex(p pt) int {
	i, j := p.i-setLo, p.j-setLo
	if i < 0 || j < 0 || i >= setSpan || j >= setSpan {
		return -1
	}
	return i*setSpan + j
}

// at reports whether p is in the set.
func (s *ptSet) at(p pt) bool {
	k := setIndex(p)
	return k >= 0 && s.on[k]
}

func (s *ptSet) add(p pt) {
	if k := setIndex(p); k >= 0 && !s.on[k] {
		s.on[k] = true
		s.n++
	}
}

func (s *ptSet) del(p pt) {
	if k := setIndex(p); k >= 0 && s.on[k] {
		s.on[k] = false
		s.n--
	}
}

// has reports whether every point is in the set (the DSL's issubset).
func (s *ptSet) has(ps []pt) bool {
	for _, p := range ps {
		if !s.at(p) {
			return false
		}
	}
	return true
}

func (s *ptSet) drop(ps []pt) {
	for _, p := range ps {
		s.del(p)
	}
}

// in lists the set's points in the order they appear in order.
func (s *ptSet) in(order []pt) []pt {
	var out []pt
	for _, p := range order {
		if s.at(p) {
			out = append(out, p)
		}
	}
	return out
}

var allTransforms = []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}

// hmirrorP is the DSL's hmirror on indices: flipped within their own rows.
func hmirrorP(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, lr := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{ul.i + lr.i - p.i, p.j}
	}
	return out
}

// dedupeRows is the DSL's dedupe on a grid's rows.
func dedupeRows(g Grid) Grid {
	var out Grid
	for _, r := range g {
		if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, r) }) {
			out = append(out, r)
		}
	}
	return out
}

// corners is the DSL's corners: the four corners of the bounding box.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return dedup([]pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr})
}

// bordering is the DSL's bordering: the patch touches the grid's edge.
func bordering(ps []pt, g Grid) bool {
	h, w := dims(g)
	for _, p := range ps {
		if p.i == 0 || p.j == 0 || p.i == h-1 || p.j == w-1 {
			return true
		}
	}
	return false
}

// colorcount is the DSL's colorcount on a grid.
func colorcount(g Grid, c int) int {
	n := 0
	for _, row := range g {
		for _, v := range row {
			if v == c {
				n++
			}
		}
	}
	return n
}

// trim is the DSL's trim: the grid without its border.
func trim(g Grid) Grid {
	h, w := dims(g)
	return crop(g, 1, 1, h-2, w-2)
}

// frontiers are the grid's single-colour rows and columns, as objects.
func frontiers(g Grid) []object {
	h, w := dims(g)
	var out []object
	for i := range h {
		if len(palette(g[i:i+1])) == 1 {
			o := object{color: g[i][0]}
			for j := range w {
				o.cells = append(o.cells, pt{i, j})
			}
			out = append(out, o)
		}
	}
	t := dmirror(g)
	for j := range w {
		if len(palette(t[j:j+1])) == 1 {
			o := object{color: g[0][j]}
			for i := range h {
				o.cells = append(o.cells, pt{i, j})
			}
			out = append(out, o)
		}
	}
	return out
}

// samePts reports whether a and b hold the same points (as sets).
func samePts(a, b []pt) bool {
	sa, sb := setOf(a), setOf(b)
	if sa.n != sb.n {
		return false
	}
	return sa.has(b)
}

// grow4 is a shape grown from sp by n cells of within, each drawn among
// the cells 4-adjacent to it (RE-ARC's "(opts - obj) & mapply(dneighbors,
// obj)" loop).
func grow4(g *gen, within []pt, sp pt, n int) []pt {
	f := newFrontier(within, dneighbors)
	f.take(sp)
	shp := []pt{sp}
	for range n {
		p := f.pick(g)
		f.take(p)
		shp = append(shp, p)
	}
	return shp
}

// vmirrorP is the DSL's vmirror on indices: flipped within their own
// columns.
func vmirrorP(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, lr := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.i, ul.j + lr.j - p.j}
	}
	return out
}

// width is the DSL's width of a patch.
func width(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.j - ul.j + 1
}

// height is the DSL's height of a patch.
func height(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.i - ul.i + 1
}

// dmirrorP is the DSL's dmirror on indices: transposed about their upper
// left corner.
func dmirrorP(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, _ := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.j - ul.j + ul.i, p.i - ul.i + ul.j}
	}
	return out
}

// cmirrorP is the DSL's cmirror on indices.
func cmirrorP(ps []pt) []pt { return vmirrorP(dmirrorP(vmirrorP(ps))) }

func identityP(ps []pt) []pt { return ps }

// ptsKey is a canonical string for a set of points, to use one as a map key.
func ptsKey(ps []pt) string {
	s := slices.Clone(dedup(ps))
	slices.SortFunc(s, func(a, b pt) int {
		if a.i != b.i {
			return a.i - b.i
		}
		return a.j - b.j
	})
	b := make([]byte, 0, 4*len(s))
	for _, p := range s {
		b = append(b, byte(p.i+64), byte(p.j+64), ',')
	}
	return string(b)
}

// shiftCells is the DSL's shift on an object.
func shiftCells(o []cell, di, dj int) []cell {
	out := make([]cell, len(o))
	for k, c := range o {
		out[k] = cell{c.c, pt{c.p.i + di, c.p.j + dj}}
	}
	return out
}

// position is the DSL's position: the direction from patch a's centre to
// patch b's.
func position(a, b []pt) pt {
	ca, cb := center(a), center(b)
	sgn := func(x bool) int {
		if x {
			return 1
		}
		return -1
	}
	switch {
	case ca.i == cb.i:
		return pt{0, sgn(ca.j < cb.j)}
	case ca.j == cb.j:
		return pt{sgn(ca.i < cb.i), 0}
	default:
		return pt{sgn(ca.i < cb.i), sgn(ca.j < cb.j)}
	}
}
