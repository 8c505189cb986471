package arc

import "math"

// DSL helpers for rearc_gens15.go (named as in RE-ARC's dsl.py).

// unifF is unifint with a fractional upper bound b. Where Python's
// min(…, b) would hand back the float b (and the generator then fail on
// it), the largest integer not above b is used.
func (g *gen) unifF(a int, b float64) int {
	d := g.lb + (g.ub-g.lb)*g.rng.Float64()
	x := int(math.RoundToEven(float64(a) + (b-float64(a))*d))
	x = max(a, x)
	if float64(x) > b {
		x = int(math.Floor(b))
	}
	return x
}

// hfrontier is the row through p, 30 cells long.
func hfrontier(p pt) []pt {
	out := make([]pt, 30)
	for j := range out {
		out[j] = pt{p.i, j}
	}
	return out
}

// vfrontier is the column through p, 30 cells long.
func vfrontier(p pt) []pt {
	out := make([]pt, 30)
	for i := range out {
		out[i] = pt{i, p.j}
	}
	return out
}

// corners are the four corners of the points' bounding box.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return dedup([]pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr})
}

// inbox is the outline one cell inside the points' bounding box.
func inbox(ps []pt) []pt {
	ul, lr := bounds(ps)
	return box([]pt{{ul.i + 1, ul.j + 1}, {lr.i - 1, lr.j - 1}})
}

// backdropP is the DSL's backdrop on a patch: its bounding box's cells.
func backdropP(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, lr := bounds(ps)
	return backdrop(ul, lr)
}

func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

func ineighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j - 1}, {p.i - 1, p.j + 1}, {p.i + 1, p.j - 1}, {p.i + 1, p.j + 1}}
}

// recolor is the DSL's recolor on indices.
func recolor(c int, ps []pt) []cell {
	out := make([]cell, len(ps))
	for k, p := range ps {
		out[k] = cell{c, p}
	}
	return out
}

// toindices are an object's points.
func toindices(cs []cell) []pt {
	out := make([]pt, len(cs))
	for k, c := range cs {
		out[k] = c.p
	}
	return out
}

// asobject is the grid's cells as an object.
func asobject(g Grid) []cell {
	var out []cell
	for i, row := range g {
		for j, v := range row {
			out = append(out, cell{v, pt{i, j}})
		}
	}
	return out
}

// shiftO is shift on an object.
func shiftO(cs []cell, di, dj int) []cell {
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{c.p.i + di, c.p.j + dj}}
	}
	return out
}

// normalizeO is normalize on an object.
func normalizeO(cs []cell) []cell {
	if len(cs) == 0 {
		return cs
	}
	ul, _ := bounds(toindices(cs))
	return shiftO(cs, -ul.i, -ul.j)
}

// occurrences are the upper-left corners where the object, normalised,
// matches the grid cell for cell.
func occurrences(g Grid, obj []cell) []pt {
	normed := normalizeO(obj)
	h, w := dims(g)
	var out []pt
	for i := range h {
		for j := range w {
			ok := true
			for _, c := range normed {
				a, b := c.p.i+i, c.p.j+j
				if a < 0 || a >= h || b < 0 || b >= w || g[a][b] != c.c {
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

// manhattan is the least Manhattan distance between the two patches.
func manhattan(a, b []pt) int {
	best := math.MaxInt
	for _, p := range a {
		for _, q := range b {
			best = min(best, abs(p.i-q.i)+abs(p.j-q.j))
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// width and height of a patch (0 for an empty one).
func widthP(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.j - ul.j + 1
}

func heightP(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.i - ul.i + 1
}

// vmirrorP is vmirror on a patch: mirrored within its bounding box.
func vmirrorP(ps []pt) []pt {
	ul, lr := bounds(ps)
	d := ul.j + lr.j
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.i, d - p.j}
	}
	return out
}

// pset is a set of points with uniform draws (a frozenset the generators
// shrink and sample from).
type pset struct {
	s  []pt
	at map[pt]int
}

func newPset(ps []pt) *pset {
	s := &pset{at: map[pt]int{}}
	for _, p := range ps {
		s.add(p)
	}
	return s
}

func (s *pset) has(p pt) bool { _, ok := s.at[p]; return ok }

func (s *pset) add(p pt) {
	if !s.has(p) {
		s.at[p] = len(s.s)
		s.s = append(s.s, p)
	}
}

func (s *pset) remove(p pt) {
	k, ok := s.at[p]
	if !ok {
		return
	}
	last := s.s[len(s.s)-1]
	s.s[k], s.at[last] = last, k
	s.s = s.s[:len(s.s)-1]
	delete(s.at, p)
}

func (s *pset) hasAll(ps []pt) bool {
	for _, p := range ps {
		if !s.has(p) {
			return false
		}
	}
	return true
}

func (s *pset) removeAll(ps []pt) {
	for _, p := range ps {
		s.remove(p)
	}
}

// filter lists the set's points that satisfy f.
func (s *pset) filter(f func(pt) bool) []pt {
	var out []pt
	for _, p := range s.s {
		if f(p) {
			out = append(out, p)
		}
	}
	return out
}

// mirrors8 are RE-ARC's eight symmetries (mfs) in its order.
var mirrors8 = []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}

// applySyms is RE-ARC's `for fn in rng.sample(mfs, nmfs)` with nmfs drawn
// from (1, 2), applied to both grids.
func applySyms(g *gen, gi, gout Grid) (Grid, Grid) {
	n := choice(g, []int{1, 2})
	for _, fn := range sample(g, mirrors8, n) {
		gi, gout = fn(gi), fn(gout)
	}
	return gi, gout
}

// neighborsAll is mapply(neighbors, ps): every cell 8-adjacent to one of
// the points (each once).
func neighborsAll(ps []pt) []pt {
	var out []pt
	for _, p := range ps {
		out = append(out, neighbors(p)...)
	}
	return dedup(out)
}

// trim is the grid without its outermost rows and columns.
func trim(g Grid) Grid {
	h, w := dims(g)
	return crop(g, 1, 1, h-2, w-2)
}

// hmatching reports whether the patches share a row.
func hmatching(a, b []pt) bool {
	rows := map[int]bool{}
	for _, p := range a {
		rows[p.i] = true
	}
	for _, p := range b {
		if rows[p.i] {
			return true
		}
	}
	return false
}

// intersect is the points of a that are also in b (the DSL's & on
// indices).
func intersect(a, b []pt) []pt {
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

// dmirrorP, hmirrorP and cmirrorP are the DSL's mirrors on patches
// (within the patch's bounding box).
func dmirrorP(ps []pt) []pt {
	ul, _ := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.j - ul.j + ul.i, p.i - ul.i + ul.j}
	}
	return out
}

func hmirrorP(ps []pt) []pt {
	ul, lr := bounds(ps)
	d := ul.i + lr.i
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{d - p.i, p.j}
	}
	return out
}

func cmirrorP(ps []pt) []pt { return vmirrorP(dmirrorP(vmirrorP(ps))) }

func identityP(ps []pt) []pt { return ps }
