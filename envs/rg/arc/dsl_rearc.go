package arc

import (
	"math"
	"slices"
)

// RE-ARC DSL helpers (rearc_utils/dsl.py) shared by the generator batches,
// each named as dsl.py names it (with a C suffix for the Object form
// where the Indices form already has the plain name, and a P suffix for the
// patch form where the grid form has it).

// dneighbors are the four cells beside p (possibly outside the grid).
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// ineighbors are the four cells diagonal to p (possibly outside the grid).
func ineighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j - 1}, {p.i - 1, p.j + 1}, {p.i + 1, p.j - 1}, {p.i + 1, p.j + 1}}
}

// asobject is the grid's cells with their colours, row by row.
func asobject(g Grid) []cell {
	var cs []cell
	for i, row := range g {
		for j, c := range row {
			cs = append(cs, cell{c, pt{i, j}})
		}
	}
	return cs
}

// recolor gives every point colour c.
func recolor(c int, ps []pt) []cell {
	cs := make([]cell, len(ps))
	for k, p := range ps {
		cs[k] = cell{c, p}
	}
	return cs
}

// shiftC is the DSL's shift on an object.
func shiftC(cs []cell, di, dj int) []cell {
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{c.p.i + di, c.p.j + dj}}
	}
	return out
}

// normalizeC is the DSL's normalize on an object: shifted so its bounding
// box starts at (0, 0).
func normalizeC(cs []cell) []cell {
	if len(cs) == 0 {
		return cs
	}
	ul, _ := bounds(toindices(cs))
	return shiftC(cs, -ul.i, -ul.j)
}

// toindices is the object's points.
func toindices(cs []cell) []pt {
	ps := make([]pt, len(cs))
	for k, c := range cs {
		ps[k] = c.p
	}
	return ps
}

// toset is a patch's points as a set.
func toset(ps []pt) map[pt]bool {
	s := make(map[pt]bool, len(ps))
	for _, p := range ps {
		s[p] = true
	}
	return s
}

// colorcount is how many cells of the grid have colour c.
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

// mostcolor is the DSL's mostcolor on a grid: the most common colour, the
// smallest one on a tie (CPython's set order for small integers).
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

// occurrences are the places where the object matches the grid: the
// positions of the normalised object's corner at which every cell lies
// inside g with its colour (every cell of g for an empty object, as in
// dsl.py).
func occurrences(g Grid, obj []cell) []pt {
	if len(obj) == 0 {
		return asindices(g)
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

// frontiers is the DSL's frontiers: the grid's single-colour rows, then
// its single-colour columns, as objects.
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

// corners are the corners of the points' bounding box, without repeats.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return dedup([]pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr})
}

// inbox is the outline one cell inside the points' bounding box, without
// repeats.
func inbox(ps []pt) []pt {
	ul, lr := bounds(ps)
	a, b := pt{ul.i + 1, ul.j + 1}, pt{lr.i - 1, lr.j - 1}
	return dedup(box([]pt{{min(a.i, b.i), min(a.j, b.j)}, {max(a.i, b.i), max(a.j, b.j)}}))
}

// center is the middle of the points' bounding box (rounded down and
// right: uppermost + height // 2, leftmost + width // 2).
func center(ps []pt) pt {
	ul, lr := bounds(ps)
	return pt{ul.i + (lr.i-ul.i+1)/2, ul.j + (lr.j-ul.j+1)/2}
}

// width is the DSL's width of a patch (0 for an empty one).
func width(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.j - ul.j + 1
}

// height is the DSL's height of a patch (0 for an empty one).
func height(ps []pt) int {
	if len(ps) == 0 {
		return 0
	}
	ul, lr := bounds(ps)
	return lr.i - ul.i + 1
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

// intersection is the points of a that are also in b.
func intersection(a, b []pt) []pt {
	in := toset(b)
	var out []pt
	for _, p := range a {
		if in[p] {
			out = append(out, p)
		}
	}
	return out
}

// manhattan is the closest Manhattan distance between two patches.
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

// trim is the grid without its outermost rows and columns.
func trim(g Grid) Grid {
	h, w := dims(g)
	return crop(g, 1, 1, h-2, w-2)
}

// tophalf is the first len(g)/2 rows.
func tophalf(g Grid) Grid { return copyGrid(g[:len(g)/2]) }

// bottomhalf is the last len(g)/2 rows (the middle row dropped).
func bottomhalf(g Grid) Grid { return copyGrid(g[len(g)/2+len(g)%2:]) }

// lefthalf is the first len(g[0])/2 columns.
func lefthalf(g Grid) Grid { return rot270(tophalf(rot90(g))) }

// righthalf is the last len(g[0])/2 columns.
func righthalf(g Grid) Grid { return rot270(bottomhalf(rot90(g))) }

// dedupeRows is the DSL's dedupe on a grid: its rows without repeats,
// each kept where it first appears.
func dedupeRows(g Grid) Grid {
	var out Grid
	for _, r := range g {
		if !slices.ContainsFunc(out, func(o []int) bool { return slices.Equal(o, r) }) {
			out = append(out, append([]int(nil), r...))
		}
	}
	return out
}

// allTransforms are RE-ARC's eight symmetries (its mfs), in its order.
var allTransforms = []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}

// inBox maps each point through f, given the points' bounding box (none for
// no points): the DSL's mirrors on patches.
func inBox(ps []pt, f func(p, ul, lr pt) pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, lr := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = f(p, ul, lr)
	}
	return out
}

// hmirrorP is the DSL's hmirror on a patch: flipped top to bottom within
// its own bounding box.
func hmirrorP(ps []pt) []pt {
	return inBox(ps, func(p, ul, lr pt) pt { return pt{ul.i + lr.i - p.i, p.j} })
}

// vmirrorP is the DSL's vmirror on a patch: flipped left to right within
// its own bounding box.
func vmirrorP(ps []pt) []pt {
	return inBox(ps, func(p, ul, lr pt) pt { return pt{p.i, ul.j + lr.j - p.j} })
}

// dmirrorP is the DSL's dmirror on a patch: transposed about its upper
// left corner.
func dmirrorP(ps []pt) []pt {
	return inBox(ps, func(p, ul, _ pt) pt { return pt{p.j - ul.j + ul.i, p.i - ul.i + ul.j} })
}

// cmirrorP is the DSL's cmirror on a patch.
func cmirrorP(ps []pt) []pt { return vmirrorP(dmirrorP(vmirrorP(ps))) }

func identityP(ps []pt) []pt { return ps }

// sortPts sorts points row by row.
func sortPts(ps []pt) {
	slices.SortFunc(ps, func(a, b pt) int {
		if a.i != b.i {
			return a.i - b.i
		}
		return a.j - b.j
	})
}

// samePts reports whether two patches hold the same points.
func samePts(a, b []pt) bool {
	sa, sb := toset(a), toset(b)
	if len(sa) != len(sb) {
		return false
	}
	for p := range sa {
		if !sb[p] {
			return false
		}
	}
	return true
}

// ptsKey is a patch's points as a canonical string, to keep sets of
// patches.
func ptsKey(ps []pt) string {
	s := dedup(append([]pt(nil), ps...))
	sortPts(s)
	b := make([]byte, 0, 2*len(s))
	for _, p := range s {
		b = append(b, byte(p.i+64), byte(p.j+64))
	}
	return string(b)
}

// drawSet is a set of points that can also be drawn from uniformly (its
// order is insertion order, with swap-removal): the frozensets the
// generators shrink and sample from.
type drawSet struct {
	at   map[pt]int
	list []pt
}

func newDrawSet(ps []pt) *drawSet {
	s := &drawSet{at: map[pt]int{}}
	for _, p := range ps {
		s.add(p)
	}
	return s
}

func (s *drawSet) add(p pt) {
	if _, ok := s.at[p]; !ok {
		s.at[p] = len(s.list)
		s.list = append(s.list, p)
	}
}

func (s *drawSet) has(p pt) bool { _, ok := s.at[p]; return ok }

func (s *drawSet) hasAll(ps []pt) bool {
	for _, p := range ps {
		if !s.has(p) {
			return false
		}
	}
	return true
}

func (s *drawSet) remove(ps ...pt) {
	for _, p := range ps {
		k, ok := s.at[p]
		if !ok {
			continue
		}
		last := s.list[len(s.list)-1]
		s.list[k], s.at[last] = last, k
		s.list = s.list[:len(s.list)-1]
		delete(s.at, p)
	}
}

func (s *drawSet) size() int { return len(s.list) }

// filter lists the set's points that satisfy f.
func (s *drawSet) filter(f func(pt) bool) []pt {
	var out []pt
	for _, p := range s.list {
		if f(p) {
			out = append(out, p)
		}
	}
	return out
}
