package arc

import "slices"

// DSL helpers for the fourteenth batch of ported generators
// (rearc_gens14.go), named as in RE-ARC's dsl.py.

// mostcolor is the grid's most common colour; a tie goes to the smallest
// colour (CPython's set order for small integers).
func mostcolor(g Grid) int {
	counts := map[int]int{}
	for _, row := range g {
		for _, v := range row {
			counts[v]++
		}
	}
	best, bn := 0, -1
	for v, n := range counts {
		if n > bn || n == bn && v < best {
			best, bn = v, n
		}
	}
	return best
}

// objectsX is the DSL's objects(grid, univalued, diagonal, without_bg):
// the connected regions (4- or 8-connected) of one colour or of any
// colours, leaving out the most common colour when withoutBg.
func objectsX(g Grid, univalued, diagonal, withoutBg bool) [][]cell {
	h, w := dims(g)
	bg, hasBg := 0, false
	if withoutBg {
		bg, hasBg = mostcolor(g), true
	}
	seen := make([][]bool, h)
	for i := range seen {
		seen[i] = make([]bool, w)
	}
	around := dneighbors
	if diagonal {
		around = neighbors
	}
	var objs [][]cell
	for _, start := range asindices(g) {
		v := g[start.i][start.j]
		if seen[start.i][start.j] || hasBg && v == bg {
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
				c := g[q.i][q.j]
				if hasBg && c == bg || univalued && c != v {
					continue
				}
				seen[q.i][q.j] = true
				stack = append(stack, q)
			}
		}
		objs = append(objs, obj)
	}
	return objs
}

// dneighbors are the four cells beside p.
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// toindices are an object's points.
func toindices(cs []cell) []pt {
	ps := make([]pt, len(cs))
	for k, c := range cs {
		ps[k] = c.p
	}
	return ps
}

// hfrontier is row p.i, columns 0…29.
func hfrontier(p pt) []pt { return connect(pt{p.i, 0}, pt{p.i, 29}) }

// vfrontier is column p.j, rows 0…29.
func vfrontier(p pt) []pt { return connect(pt{0, p.j}, pt{29, p.j}) }

// inbox is the outline one cell inside the points' bounding box, without
// repeats.
func inbox(ps []pt) []pt {
	ul, lr := bounds(ps)
	a, b := pt{ul.i + 1, ul.j + 1}, pt{lr.i - 1, lr.j - 1}
	return dedup(box([]pt{{min(a.i, b.i), min(a.j, b.j)}, {max(a.i, b.i), max(a.j, b.j)}}))
}

// corners are the corners of the points' bounding box, without repeats.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return dedup([]pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr})
}

// lefthalf is the grid's left w/2 columns.
func lefthalf(g Grid) Grid { return crop(g, 0, 0, len(g), len(g[0])/2) }

// manhattan is the closest Manhattan distance between two patches.
func manhattan(a, b []pt) int {
	best := -1
	for _, p := range a {
		for _, q := range b {
			d := abs(p.i-q.i) + abs(p.j-q.j)
			if best < 0 || d < best {
				best = d
			}
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

// toset is a patch's points as a set.
func toset(ps []pt) map[pt]bool {
	s := make(map[pt]bool, len(ps))
	for _, p := range ps {
		s[p] = true
	}
	return s
}

// shapeP is the height and width of the points' bounding box.
func shapeP(ps []pt) (int, int) {
	if len(ps) == 0 {
		return 0, 0
	}
	ul, lr := bounds(ps)
	return lr.i - ul.i + 1, lr.j - ul.j + 1
}

// growIn grows a 4-connected shape of 1+n cells from start, each new cell
// drawn among the cells of free beside the shape (stopping early when there
// are none), as RE-ARC's dneighbors shape loops do.
func growIn(g *gen, free map[pt]bool, start pt, n int) []pt {
	var within []pt
	for p := range free {
		within = append(within, p)
	}
	sortPts(within)
	f := newFrontier(within, dneighbors)
	f.take(start)
	shp := []pt{start}
	for range n {
		if len(f.cands) == 0 {
			break
		}
		p := f.pick(g)
		f.take(p)
		shp = append(shp, p)
	}
	return shp
}

// inSet are the points of ps that are in s, in ps's order.
func inSet(ps []pt, s map[pt]bool) []pt {
	var out []pt
	for _, p := range ps {
		if s[p] {
			out = append(out, p)
		}
	}
	return out
}

// sortPts sorts points row by row.
func sortPts(ps []pt) {
	slices.SortFunc(ps, func(a, b pt) int {
		if a.i != b.i {
			return a.i - b.i
		}
		return a.j - b.j
	})
}

// addNear is one step of RE-ARC's multicoloured shape loops: a cell of bx
// next to (8-neighbourhood) the object joins it in a colour drawn from
// cols, and leaves bx; false when there is none.
func addNear(g *gen, all []pt, bx map[pt]bool, obj []cell, cols []int) ([]cell, bool) {
	near := map[pt]bool{}
	for _, c := range obj {
		for _, q := range neighbors(c.p) {
			near[q] = true
		}
	}
	var cands []pt
	for _, p := range all {
		if bx[p] && near[p] {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return obj, false
	}
	ch := choice(g, cands)
	delete(bx, ch)
	return append(obj, cell{choice(g, cols), ch}), true
}

// hmirrorP is hmirror on a patch: flipped upside down within its box.
func hmirrorP(ps []pt) []pt {
	ul, lr := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{ul.i + lr.i - p.i, p.j}
	}
	return out
}

// vmirrorP is vmirror on a patch: flipped left to right within its box.
func vmirrorP(ps []pt) []pt {
	ul, lr := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.i, ul.j + lr.j - p.j}
	}
	return out
}

// dmirrorP is dmirror on a patch: transposed about its upper-left corner.
func dmirrorP(ps []pt) []pt {
	ul, _ := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.j - ul.j + ul.i, p.i - ul.i + ul.j}
	}
	return out
}

// cmirrorP is cmirror on a patch.
func cmirrorP(ps []pt) []pt { return vmirrorP(dmirrorP(vmirrorP(ps))) }

func identityP(ps []pt) []pt { return ps }

// subset reports whether every point of a is in s.
func subset(a []pt, s map[pt]bool) bool {
	for _, p := range a {
		if !s[p] {
			return false
		}
	}
	return true
}

// smallestSolid is 23b5c85d's test: among the colours whose cells form a
// full rectangle, the one with the smallest area (a tie goes to prefer).
func smallestSolid(g Grid, prefer int) int {
	type ext struct{ n, i0, j0, i1, j1 int }
	es := map[int]*ext{}
	for i, row := range g {
		for j, v := range row {
			e, ok := es[v]
			if !ok {
				e = &ext{0, i, j, i, j}
				es[v] = e
			}
			e.n++
			e.i0, e.j0, e.i1, e.j1 = min(e.i0, i), min(e.j0, j), max(e.i1, i), max(e.j1, j)
		}
	}
	best, barea := -1, 0
	for v, e := range es {
		a := (e.i1 - e.i0 + 1) * (e.j1 - e.j0 + 1)
		if a != e.n {
			continue
		}
		if best < 0 || a < barea || a == barea && v == prefer {
			best, barea = v, a
		}
	}
	return best
}

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

// growD is RE-ARC's usual 4-connected shape loop: a cell of bounds drawn
// at random, then n-1 more, each drawn among the cells of bounds beside
// the shape (stopping early when there are none).
func growD(g *gen, bounds []pt, n int) []pt {
	f := newFrontier(bounds, dneighbors)
	first := choice(g, bounds)
	f.take(first)
	shp := []pt{first}
	for range n - 1 {
		if len(f.cands) == 0 {
			break
		}
		p := f.pick(g)
		f.take(p)
		shp = append(shp, p)
	}
	return shp
}

// addD adds to shp one cell of bounds beside it (4-neighbourhood), drawn
// at random, as RE-ARC's one-off obj.add(rng.choice(...)) lines do.
func addD(g *gen, bounds, shp []pt) []pt {
	in := toset(shp)
	near := map[pt]bool{}
	for _, p := range shp {
		for _, q := range dneighbors(p) {
			near[q] = true
		}
	}
	var cands []pt
	for _, p := range bounds {
		if near[p] && !in[p] {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		return shp
	}
	return append(shp, choice(g, cands))
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
	b := make([]byte, 0, 4*len(s))
	for _, p := range s {
		b = append(b, byte(p.i+64), byte(p.j+64))
	}
	return string(b)
}

// allSameColor reports whether the object has at most one colour.
func allSameColor(o []cell) bool {
	for _, c := range o {
		if c.c != o[0].c {
			return false
		}
	}
	return true
}
