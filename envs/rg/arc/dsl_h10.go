package arc

// DSL helpers for the tenth batch of ported generators (rearc_gens10.go).

// dneighbors are the four cells next to p (possibly outside the grid).
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// asobject is the grid's cells with their colours, row by row.
func asobject(g Grid) []cell {
	var cs []cell
	for _, p := range asindices(g) {
		cs = append(cs, cell{g[p.i][p.j], p})
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

// toindices is the object's points.
func toindices(cs []cell) []pt {
	ps := make([]pt, len(cs))
	for k, c := range cs {
		ps[k] = c.p
	}
	return ps
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

// occurrences are the offsets at which the object, normalised, lies
// entirely inside the grid with every cell matching.
func occurrences(g Grid, obj []cell) []pt {
	ul, _ := bounds(toindices(obj))
	normed := shiftC(obj, -ul.i, -ul.j)
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

// drawSet is a set of points that can also be drawn from uniformly (its
// order is insertion order, with swap-removal).
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

// corners are the four corners of the points' bounding box.
func corners(ps []pt) []pt {
	ul, lr := bounds(ps)
	return []pt{ul, {ul.i, lr.j}, {lr.i, ul.j}, lr}
}

// mirroredMosaic is the opening of dc0a314f and b8825c91: a connected
// multicolour shape grown on an h×h canvas, made symmetric about the
// diagonal, then mirrored into a 2h×2h grid with both axes of symmetry.
func mirroredMosaic(g *gen, cols []int) (int, Grid) {
	h := g.unif(3, 15)
	bgc := choice(g, cols)
	rem := sample(g, without(cols, bgc), g.unif(1, 8))
	canv := canvas(bgc, h, h)
	nc := g.unif(1, h*h)
	f := newFrontier(asindices(canv), neighbors)
	// RE-ARC leaves the first cell among the candidates (see 67e8384a).
	first := cell{choice(g, rem), choice(g, asindices(canv))}
	obj := []cell{first}
	f.touch(first.p)
	for range nc - 1 {
		ch := f.pick(g)
		obj = append(obj, cell{choice(g, rem), ch})
		f.take(ch)
	}
	gi := paint(canv, obj)
	for i := range h {
		for j := i; j < h; j++ {
			gi[i][j] = gi[j][i]
		}
	}
	gi = hconcat(gi, vmirror(gi))
	return h, vconcat(gi, hmirror(gi))
}

// connected8 reports whether the points form one 8-connected region.
func connected8(ps []pt) bool {
	if len(ps) == 0 {
		return false
	}
	in := newDrawSet(ps)
	seen := map[pt]bool{ps[0]: true}
	stack := []pt{ps[0]}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, q := range neighbors(p) {
			if in.has(q) && !seen[q] {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return len(seen) == in.size()
}

// mostcolor is the DSL's mostcolor on a grid (a tie goes to the smallest
// colour).
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

// normalizeC is the DSL's normalize on an object.
func normalizeC(cs []cell) []cell {
	ul, _ := bounds(toindices(cs))
	return shiftC(cs, -ul.i, -ul.j)
}

// hmirrorC is the DSL's hmirror on an object: flipped top to bottom
// within its bounding box.
func hmirrorC(cs []cell) []cell {
	ul, lr := bounds(toindices(cs))
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{ul.i + lr.i - c.p.i, c.p.j}}
	}
	return out
}

// vmirrorC is the DSL's vmirror on an object.
func vmirrorC(cs []cell) []cell {
	ul, lr := bounds(toindices(cs))
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{c.p.i, ul.j + lr.j - c.p.j}}
	}
	return out
}

// dmirrorC is the DSL's dmirror on an object: transposed about its
// upper-left corner.
func dmirrorC(cs []cell) []cell {
	ul, _ := bounds(toindices(cs))
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, pt{c.p.j - ul.j + ul.i, c.p.i - ul.i + ul.j}}
	}
	return out
}

// cmirrorC is the DSL's cmirror on an object.
func cmirrorC(cs []cell) []cell { return vmirrorC(dmirrorC(vmirrorC(cs))) }

func identityC(cs []cell) []cell { return cs }

// sameCells reports whether two objects are the same set of cells.
func sameCells(a, b []cell) bool {
	in := map[cell]bool{}
	for _, c := range a {
		in[c] = true
	}
	inb := map[cell]bool{}
	for _, c := range b {
		if !in[c] {
			return false
		}
		inb[c] = true
	}
	return len(in) == len(inb)
}

// freeOf is ofcolor(g, bgc) less every cell next to one of another
// colour (25d487eb's free cells), as a drawSet.
func freeOf(g Grid, bgc int) *drawSet {
	h, w := dims(g)
	s := &drawSet{at: make(map[pt]int, h*w)}
	for _, p := range asindices(g) {
		if g[p.i][p.j] != bgc {
			continue
		}
		ok := true
		for _, q := range dneighbors(p) {
			if q.i >= 0 && q.i < h && q.j >= 0 && q.j < w && g[q.i][q.j] != bgc {
				ok = false
				break
			}
		}
		if ok {
			s.add(p)
		}
	}
	return s
}
