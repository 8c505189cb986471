package arc

import "math"

// DSL helpers for the eleventh batch of ported generators (rearc_gens11.go),
// named as RE-ARC's dsl.py names them.

// corners are the four corners of the points' bounding box.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return []pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr}
}

// inbox is the outline one cell inside the points' bounding box.
func inbox(ps []pt) []pt {
	ul, lr := bounds(ps)
	return box([]pt{{ul.i + 1, ul.j + 1}, {lr.i - 1, lr.j - 1}})
}

// trim is the grid without its outermost rows and columns.
func trim(g Grid) Grid {
	h, w := dims(g)
	return crop(g, 1, 1, h-2, w-2)
}

// center is the middle of the points' bounding box (rounded up and left).
func center(ps []pt) pt {
	ul, lr := bounds(ps)
	return pt{ul.i + (lr.i-ul.i+1)/2, ul.j + (lr.j-ul.j+1)/2}
}

// subgrid is the part of the grid under the points' bounding box.
func subgrid(ps []pt, g Grid) Grid {
	ul, lr := bounds(ps)
	return crop(g, ul.i, ul.j, lr.i-ul.i+1, lr.j-ul.j+1)
}

// bordering reports whether a point lies on the grid's edge.
func bordering(ps []pt, g Grid) bool {
	h, w := dims(g)
	for _, p := range ps {
		if p.i == 0 || p.j == 0 || p.i == h-1 || p.j == w-1 {
			return true
		}
	}
	return false
}

// hfrontier is the row through p (30 cells, as in dsl.py).
func hfrontier(p pt) []pt {
	ps := make([]pt, 30)
	for j := range ps {
		ps[j] = pt{p.i, j}
	}
	return ps
}

// vfrontier is the column through p (30 cells, as in dsl.py).
func vfrontier(p pt) []pt {
	ps := make([]pt, 30)
	for i := range ps {
		ps[i] = pt{i, p.j}
	}
	return ps
}

// dneighbors are the four cells beside p.
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// asobject is the grid's cells.
func asobject(g Grid) []cell {
	var cs []cell
	for i, row := range g {
		for j, c := range row {
			cs = append(cs, cell{c, pt{i, j}})
		}
	}
	return cs
}

// shiftC is the DSL's shift on an Object.
func shiftC(cs []cell, di, dj int) []cell {
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{c.p.i + di, c.p.j + dj}}
	}
	return out
}

// recolor is the patch in one colour.
func recolor(c int, ps []pt) []cell {
	cs := make([]cell, len(ps))
	for k, p := range ps {
		cs[k] = cell{c, p}
	}
	return cs
}

// toindices is an object's points.
func toindices(cs []cell) []pt {
	ps := make([]pt, len(cs))
	for k, c := range cs {
		ps[k] = c.p
	}
	return ps
}

// intersection is the points of a that are also in b.
func intersection(a, b []pt) []pt {
	in := make(map[pt]bool, len(b))
	for _, p := range b {
		in[p] = true
	}
	var out []pt
	for _, p := range a {
		if in[p] {
			out = append(out, p)
		}
	}
	return out
}

// colorfilter keeps the objects of colour c.
func colorfilter(objs []object, c int) []object {
	var out []object
	for _, o := range objs {
		if o.color == c {
			out = append(out, o)
		}
	}
	return out
}

// growCells is RE-ARC's growing loop over a set of candidate cells bx: n
// times a cell of bx that neighbours (8-way) the object so far joins it,
// in a colour drawn from cols, and leaves bx. The starting cells stay in
// bx, as in the Python. It stops early if no candidate is left.
func growCells(g *gen, bx []pt, start []cell, n int, cols []int) []cell {
	f := newFrontier(bx, neighbors)
	for _, c := range start {
		f.touch(c.p)
	}
	obj := append([]cell(nil), start...)
	for range n {
		if len(f.cands) == 0 {
			break
		}
		p := f.pick(g)
		f.take(p)
		obj = append(obj, cell{choice(g, cols), p})
	}
	return obj
}

// manhattanPt is the DSL's manhattan between two single points.
func manhattanPt(a, b pt) int {
	return max(a.i-b.i, b.i-a.i) + max(a.j-b.j, b.j-a.j)
}

// orderSet is a mutable set of points with a stable listing (the order
// points were added, removals dropped).
type orderSet struct {
	in    map[pt]bool
	order []pt
	dirty bool
}

func newOrderSet(ps []pt) *orderSet {
	s := &orderSet{in: map[pt]bool{}}
	for _, p := range ps {
		if !s.in[p] {
			s.in[p] = true
			s.order = append(s.order, p)
		}
	}
	return s
}

func (s *orderSet) len() int { return len(s.in) }

func (s *orderSet) has(p pt) bool { return s.in[p] }

func (s *orderSet) hasAll(ps []pt) bool {
	for _, p := range ps {
		if !s.in[p] {
			return false
		}
	}
	return true
}

func (s *orderSet) add(ps ...pt) {
	for _, p := range ps {
		if !s.in[p] {
			s.in[p] = true
			s.order = append(s.order, p)
		}
	}
}

func (s *orderSet) remove(ps []pt) {
	for _, p := range ps {
		if s.in[p] {
			delete(s.in, p)
			s.dirty = true
		}
	}
}

// list is the set's points, in a fixed order.
func (s *orderSet) list() []pt {
	if s.dirty {
		var out []pt
		for _, p := range s.order {
			if s.in[p] {
				out = append(out, p)
			}
		}
		s.order, s.dirty = out, false
	}
	return s.order
}

// mostcolor is the grid's most common colour (a tie goes to the smallest,
// CPython's set order for small integers).
func mostcolor(g Grid) int {
	counts := make([]int, 10)
	for _, row := range g {
		for _, v := range row {
			if v >= 0 && v < 10 {
				counts[v]++
			}
		}
	}
	bg := 0
	for v, n := range counts {
		if n > counts[bg] {
			bg = v
		}
	}
	return bg
}

// paintFg paints onto g the cells of src that are not src's most common
// colour: paint(g, merge(fgpartition(src))).
func paintFg(g, src Grid) Grid {
	bg := mostcolor(src)
	out := copyGrid(g)
	for i, row := range src {
		for j, v := range row {
			if v != bg && i < len(out) && j < len(out[i]) {
				out[i][j] = v
			}
		}
	}
	return out
}

// occurrences are the places where the object matches the grid: the
// positions of the normalised object's corner at which every cell lies
// inside g with its colour.
func occurrences(g Grid, obj []cell) []pt {
	if len(obj) == 0 {
		return nil
	}
	h, w := dims(g)
	ul, lr := bounds(toindices(obj))
	norm := shiftC(obj, -ul.i, -ul.j)
	var out []pt
	for i := 0; i+lr.i-ul.i < h; i++ {
		for j := 0; j+lr.j-ul.j < w; j++ {
			ok := true
			for _, c := range norm {
				if g[c.p.i+i][c.p.j+j] != c.c {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, pt{i, j})
			}
		}
	}
	return out
}

// uniff is unifint with a float upper bound, as RE-ARC sometimes calls
// it (h*w / k): the result is a float, b itself when the rounding
// exceeds it.
func (g *gen) uniff(a, b float64) float64 {
	d := g.lb + (g.ub-g.lb)*g.rng.Float64()
	x := math.RoundToEven(a + (b-a)*d)
	return math.Min(math.Max(a, x), b)
}

// hmirrorP is the DSL's hmirror on a patch: flipped top to bottom within
// its own bounding box.
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

// vmirrorP is the DSL's vmirror on a patch: flipped left to right within
// its own bounding box.
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

// dmirrorP is the DSL's dmirror on a patch: transposed about its upper
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
