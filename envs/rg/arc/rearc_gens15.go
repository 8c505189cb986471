package arc

// rearcGens15 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens15 = []rearcEntry{
	{"178fcbfb", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) {
			cols := without(allColors, 1, 2, 3)
			h, w := g.unif(3, 30), g.unif(3, 30)
			bgc := choice(g, cols)
			gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
			inds := newPset(asindices(gi))
			iforb, jforb := map[int]bool{}, map[int]bool{}
			for _, col := range []int{2, 1, 3} {
				hi := h / 2
				if col == 2 {
					hi = w
				}
				bnd := g.unif(1, hi)
				for range bnd {
					var cands []pt
					if col == 2 {
						cands = inds.filter(func(p pt) bool { return !jforb[p.j] })
					} else {
						cands = inds.filter(func(p pt) bool { return !iforb[p.i] })
					}
					if len(cands) == 0 {
						return nil, nil, false // RE-ARC raises here
					}
					ij := choice(g, cands)
					gi = fill(gi, col, []pt{ij})
					if col == 2 {
						jforb[ij.j] = true
						gout = fill(gout, col, vfrontier(ij))
					} else {
						iforb[ij.i] = true
						gout = fill(gout, col, hfrontier(ij))
					}
					inds.remove(ij)
				}
			}
			return gi, gout, true
		})
	}},
	{"aabf363d", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 28), g.unif(3, 28)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		cola := choice(g, rem)
		colb := choice(g, without(rem, cola))
		bnds := asindices(canvas(bgc, h, w))
		sp := choice(g, bnds)
		ub := min(float64(h*w-1), max(1, (2.0/3)*float64(h*w)))
		ncells := g.unifF(1, ub)
		shp := shift(grow(g, bnds, []pt{sp}, ncells), 1, 1)
		c2 := canvas(bgc, h+2, w+2)
		gi, gout := fill(c2, cola, shp), fill(c2, colb, shp)
		gi = fill(gi, colb, []pt{choice(g, ofcolor(gi, bgc))})
		return gi, gout
	}},
	{"e5062a87", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(10, 30), g.unif(10, 30)
		eo := sample(g, cols, 2)
		eligcol, objc := eo[0], eo[1]
		gi := canvas(eligcol, h, w)
		inds := asindices(gi)
		sp := choice(g, inds)
		ncells := g.unif(3, 9)
		obj := normalize(grow(g, inds, []pt{sp}, ncells-1))
		nnoise := g.unif(int(0.2*float64(h)*float64(w)), int(0.5*float64(h)*float64(w)))
		gi = fill(gi, 0, sample(g, inds, nnoise))
		noccs := g.unif(2, max(2, h*w/(len(obj)*3)))
		_, lr := bounds(obj)
		oh, ow := lr.i+1, lr.j+1
		for k := range noccs {
			loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
			col := 0
			if k == noccs-1 {
				col = objc
			}
			gi = fill(gi, col, shift(obj, loci, locj))
		}
		var res []pt
		for _, o := range occurrences(gi, recolor(0, obj)) {
			res = append(res, shift(obj, o.i, o.j)...)
		}
		return gi, fill(gi, objc, res)
	}},
	{"d22278a0", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := asindices(gi)
		ncorns := g.unif(1, 4)
		crns := sample(g, corners(inds), ncorns)
		ccols := sample(g, rem, ncorns)
		k := max(h, w)/2 + 1
		for n, crn := range crns {
			col := ccols[n]
			gi = fill(gi, col, []pt{crn})
			gout = fill(gout, col, []pt{crn})
			var locs []pt
			for _, p := range inds {
				// rings: the cells at an even Chebyshev distance, up to 2k.
				d := max(abs(p.i-crn.i), abs(p.j-crn.j))
				if d%2 != 0 || d > 2*k {
					continue
				}
				md := abs(p.i-crn.i) + abs(p.j-crn.j)
				ok := true
				for _, o := range crns {
					if o != crn && md >= abs(p.i-o.i)+abs(p.j-o.j) {
						ok = false
					}
				}
				if ok {
					locs = append(locs, p)
				}
			}
			gout = fill(gout, col, locs)
		}
		return gi, gout
	}},
	{"99b1bc43", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(2, 30), g.unif(2, 14)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		linc := choice(g, rem)
		rem = without(rem, linc)
		acol := choice(g, rem)
		bcol := choice(g, without(rem, acol))
		c := canvas(bgc, h, w)
		aset, bset := layerSets(g, asindices(c), h*w)
		bar := canvas(linc, h, 1)
		gi := hconcat(hconcat(fill(c, acol, aset), bar), fill(c, bcol, bset))
		res := append(minus(bset, aset), minus(aset, bset)...)
		gout := fill(c, 3, res)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"caa06a1f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		vp, hp := g.unif(2, h/2-1), g.unif(2, w/2-1)
		bgc := choice(g, allColors)
		numc := g.unif(2, min(8, max(2, hp*vp)))
		rem := without(allColors, bgc)
		ccols := sample(g, rem, numc)
		tric := choice(g, without(rem, ccols...))
		obj := withColors(asindices(canvas(-1, vp, hp)), ccols, g)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for a := -vp; a < h+1; a += vp {
			for b := -hp; b < w+1; b += hp {
				gout = paint(gout, shiftO(obj, a, b+1))
			}
		}
		for a := -vp; a < h+1; a += vp {
			for b := -hp; b < w+1; b += hp {
				gi = paint(gi, shiftO(obj, a, b))
			}
		}
		ioffs, joffs := g.unif(1, h-2*vp), g.unif(1, w-2*hp)
		for a := range ioffs {
			gi = fill(gi, tric, connect(pt{a, 0}, pt{a, w - 1}))
		}
		for b := range joffs {
			gi = fill(gi, tric, connect(pt{0, b}, pt{h - 1, b}))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"a65b410d", func(g *gen) (Grid, Grid) {
		colopts := without(allColors, 1, 3)
		h, w := g.unif(3, 30), g.unif(3, 30)
		devi, devj := g.unif(0, h/2), g.unif(0, w/2)
		loci, locj := h-devi, w-devj
		if choice(g, []bool{true, false}) {
			loci, locj = devi, devj
		}
		loci, locj = max(min(h-2, loci), 1), max(min(w-2, locj), 1)
		bgc := choice(g, colopts)
		linc := choice(g, without(colopts, bgc))
		gi := fill(canvas(bgc, h, w), linc, connect(pt{loci, 0}, pt{loci, locj}))
		toLeft := func(ps []pt) []pt {
			var out []pt
			for _, p := range ps {
				if p.j >= 0 {
					out = append(out, connect(p, pt{p.i, 0})...)
				}
			}
			return out
		}
		gout := fill(gi, 1, toLeft(shoot(pt{loci + 1, locj - 1}, 1, -1)))
		gout = fill(gout, 3, toLeft(shoot(pt{loci - 1, locj + 1}, -1, 1)))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"0ca9ddb6", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 4, 6, 7, 8)
		type pair struct{ in, out []cell }
		bo := append([]cell{{2, pt{1, 1}}}, recolor(4, ineighbors(pt{1, 1}))...)
		co := append([]cell{{1, pt{1, 1}}}, recolor(7, dneighbors(pt{1, 1}))...)
		arr := []pair{
			{[]cell{{6, pt{0, 0}}}, []cell{{6, pt{0, 0}}}},
			{[]cell{{2, pt{1, 1}}}, bo},
			{[]cell{{1, pt{1, 1}}}, co},
			{[]cell{{8, pt{0, 0}}}, []cell{{8, pt{0, 0}}}},
		}
		h, w := g.unif(4, 30), g.unif(4, 30)
		nobjs := g.unif(1, h*w/4)
		maxtr := 5 * nobjs
		bgc := choice(g, cols)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newPset(asindices(gi))
		for tr, succ := 0, 0; succ < nobjs && tr < maxtr; tr++ {
			o := choice(g, arr)
			loc := choice(g, inds.s)
			oplcd := shiftO(o.out, loc.i, loc.j)
			if oi := toindices(oplcd); inds.hasAll(oi) {
				succ++
				gi = paint(gi, shiftO(o.in, loc.i, loc.j))
				gout = paint(gout, oplcd)
				inds.removeAll(oi)
			}
		}
		return gi, gout
	}},
	{"28e73c20", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		next := map[pt]pt{{0, 1}: {1, 0}, {1, 0}: {0, -1}, {0, -1}: {-1, 0}, {-1, 0}: {0, 1}}
		h, w := g.unif(3, 30), g.unif(4, 30)
		sp, direc := pt{0, w - 1}, pt{1, 0}
		ccols := sample(g, cols, g.unif(1, 9))
		gi := canvas(-1, h, w)
		gi = paint(gi, withColors(asindices(gi), ccols, g))
		gout := fill(gi, 3, connect(pt{0, 0}, sp))
		lw, lh, ld := w, h, h
		isverti := false
		for ld > 0 {
			lw--
			lh--
			ep := pt{sp.i + direc.i*(ld-1), sp.j + direc.j*(ld-1)}
			gout = fill(gout, 3, connect(sp, ep))
			direc = next[direc]
			if isverti {
				ld = lh
			} else {
				ld = lw
			}
			isverti = !isverti
			sp = ep
		}
		return dmirror(dmirror(gi)[1:]), dmirror(dmirror(gout)[1:])
	}},
	{"4347f46a", func(g *gen) (Grid, Grid) { return boxesOnCanvas(g, false) }},
}

// retry15 runs f until it succeeds (where RE-ARC's generator would raise,
// f reports failure and is drawn afresh), at most 1000 times.
func retry15(f func() (Grid, Grid, bool)) (Grid, Grid) {
	for range 1000 {
		if gi, gout, ok := f(); ok {
			return gi, gout
		}
	}
	panic("arc: generator kept failing")
}

// boxesOnCanvas is 4347f46a and 50cb2852: up to nine disjoint rectangles,
// each of its own colour, hollowed in the output (filled with 8 inside
// when eight).
func boxesOnCanvas(g *gen, eight bool) (Grid, Grid) {
	cols, maxn := allColors, 9
	if eight {
		cols, maxn = without(allColors, 8), 8
	}
	h, w := g.unif(10, 30), g.unif(10, 30)
	bgc := choice(g, cols)
	rem := without(cols, bgc)
	gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
	num := g.unif(1, maxn)
	indss := newPset(asindices(gi))
	maxtrials := 4 * num
	for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
		if len(rem) == 0 || len(indss.s) == 0 {
			break
		}
		oh, ow := g.randint(3, 7), g.randint(3, 7)
		subs := indss.filter(func(p pt) bool { return p.i < h-oh && p.j < w-ow })
		if len(subs) == 0 {
			continue
		}
		l := choice(g, subs)
		lr := pt{l.i + oh - 1, l.j + ow - 1}
		bd := backdrop(l, lr)
		col := choice(g, rem)
		if indss.hasAll(bd) {
			rem = without(rem, col)
			gi = fill(gi, col, bd)
			if eight {
				gout = fill(gout, 8, bd)
			}
			gout = fill(gout, col, box([]pt{l, lr}))
			succ++
			indss.removeAll(bd)
		}
	}
	return gi, gout
}
