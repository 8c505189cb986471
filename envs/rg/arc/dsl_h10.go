package arc

// DSL helpers for the tenth batch of ported generators (rearc_gens10.go).

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

// repoint is the object's cells moved to ps (ps[k] for the k-th cell).
func repoint(cs []cell, ps []pt) []cell {
	out := make([]cell, len(cs))
	for k, c := range cs {
		out[k] = cell{c.c, ps[k]}
	}
	return out
}

// hmirrorC is the DSL's hmirror on an object: flipped top to bottom
// within its bounding box.
func hmirrorC(cs []cell) []cell { return repoint(cs, hmirrorP(toindices(cs))) }

// vmirrorC is the DSL's vmirror on an object.
func vmirrorC(cs []cell) []cell { return repoint(cs, vmirrorP(toindices(cs))) }

// dmirrorC is the DSL's dmirror on an object: transposed about its
// upper-left corner.
func dmirrorC(cs []cell) []cell { return repoint(cs, dmirrorP(toindices(cs))) }

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
