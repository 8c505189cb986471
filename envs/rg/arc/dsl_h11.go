package arc

import "math"

// DSL helpers for the eleventh batch of ported generators (rearc_gens11.go),
// named as RE-ARC's dsl.py names them.

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

// unifFloat is unifint with a float upper bound, as RE-ARC sometimes calls
// it (h*w / k): the result is a float, b itself when the rounding
// exceeds it.
func (g *gen) unifFloat(a, b float64) float64 {
	d := g.lb + (g.ub-g.lb)*g.rng.Float64()
	x := math.RoundToEven(a + (b-a)*d)
	return math.Min(math.Max(a, x), b)
}
