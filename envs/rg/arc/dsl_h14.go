package arc

// DSL helpers for the fourteenth batch of ported generators
// (rearc_gens14.go), named as in RE-ARC's dsl.py.

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

// allSameColor reports whether the object has at most one colour.
func allSameColor(o []cell) bool {
	for _, c := range o {
		if c.c != o[0].c {
			return false
		}
	}
	return true
}
