package arc

import "slices"

// rearcGens12 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens12 = []rearcEntry{
	{"bda2d7a6", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 14), g.unif(2, 14)
		cols := sample(g, allColors, g.unif(2, 10))
		colord := make([]int, min(h, w))
		for k := range colord {
			colord[k] = choice(g, cols)
		}
		gi := canvas(0, 2*h, 2*w)
		for k, c := range colord {
			gi = fill(gi, c, box([]pt{{k, k}, {2*h - 1 - k, 2*w - 1 - k}}))
		}
		objso := objects(gi)
		size := func(o object) int {
			ul, lr := bounds(o.cells)
			return max(lr.i-ul.i, lr.j-ul.j)
		}
		slices.SortStableFunc(objso, func(a, b object) int { return size(a) - size(b) })
		if n := len(objso); n > 1 && objso[0].color == objso[n-1].color {
			first := object{objso[0].color, append(append([]pt(nil), objso[0].cells...), objso[n-1].cells...)}
			objso = append([]object{first}, objso[1:n-1]...)
		}
		gout := gi
		n := len(objso)
		for k, o := range objso {
			gout = fill(gout, objso[(k+1)%n].color, o.cells)
		}
		return gi, gout
	}},
	{"1f0c79e5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bo := sample(g, cols, 2)
		bgc, objc := bo[0], bo[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		nobjs := g.unif(1, h*w/24)
		inds := toset(asindices(gi))
		for range nobjs {
			var cands []pt
			for _, p := range asindices(gi) {
				if inds[p] && inds[pt{p.i, p.j + 1}] && inds[pt{p.i + 1, p.j}] && inds[pt{p.i + 1, p.j + 1}] {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			plcd := []pt{loc, {loc.i, loc.j + 1}, {loc.i + 1, loc.j}, {loc.i + 1, loc.j + 1}}
			reds := sample(g, plcd, g.unif(1, 3))
			gi = fill(fill(gi, objc, plcd), 2, reds)
			for _, r := range reds {
				di, dj := 2*(r.i-loc.i)-1, 2*(r.j-loc.j)-1
				for _, p := range plcd {
					gout = fill(gout, objc, shoot(p, di, dj))
				}
			}
			for _, p := range plcd {
				delete(inds, p)
				for _, q := range dneighbors(p) {
					delete(inds, q)
				}
			}
		}
		return gi, gout
	}},
	{"aba27056", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(6, 30), g.unif(6, 30)
		bs := sample(g, cols, 2)
		bgc, sqc := bs[0], bs[1]
		canv := canvas(bgc, h, w)
		oh := g.randint(3, h)
		ow := g.unif(5, w-1)
		loci := g.unif(0, h-oh)
		locj := g.randint(0, w-ow)
		a, b := pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}
		bx := box([]pt{a, b})
		k := g.randint(0, (ow-4)/2)
		hole := connect(pt{loci, locj + 2 + k}, pt{loci, locj + ow - 3 - k})
		gi := fill(fill(canv, sqc, bx), bgc, hole)
		gout := fill(fill(canv, 4, backdrop(a, b)), sqc, bx)
		for _, p := range hole {
			gout = fill(gout, 4, shoot(p, -1, 0))
		}
		ul, lr := bounds(hole)
		gout = fill(gout, 4, shoot(pt{ul.i - 1, lr.j + 1}, -1, 1))
		gout = fill(gout, 4, shoot(pt{ul.i - 1, ul.j - 1}, -1, -1))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"53b68214", func(g *gen) (Grid, Grid) {
		var h int
		var gout Grid
		for try := 0; ; try++ {
			h = g.unif(2, 6)
			w := g.unif(8, 30)
			bgc := choice(g, allColors)
			ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
			oh := g.unif(1, h/2)
			ow := g.unif(1, w/2-1)
			bnds := asindices(canvas(-1, oh, ow))
			locs := normalize(sample(g, bnds, g.unif(1, oh*ow)))
			obj := withColors(locs, ccols, g)
			_, lr := bounds(locs)
			oh, ow = lr.i+1, lr.j+1
			locj := g.randint(0, w/2)
			gout = canvas(bgc, 10, w)
			hoffs := g.randint(0, ow/2+1)
			for k := range 10/oh + 1 {
				sh := make([]cell, len(obj))
				for x, c := range obj {
					sh[x] = cell{c.c, pt{c.p.i + k*oh, c.p.j + locj + k*hoffs}}
				}
				gout = paint(gout, sh)
			}
			if len(palette(gout[h:])) > 1 || try == 1000 {
				break
			}
		}
		gi := copyGrid(gout[:h])
		if choice(g, []bool{true, false}) {
			return vmirror(gi), vmirror(gout)
		}
		return gi, gout
	}},
	{"2013d3e2", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h := g.unif(3, 10)
		w := h
		bgc := choice(g, cols)
		remcols := sample(g, without(cols, bgc), g.unif(1, 8))
		canv := canvas(bgc, h, w)
		nc := g.unif(2, h*w-1)
		bx := asindices(canv)
		obj := []cell{{choice(g, remcols), choice(g, bx)}}
		inobj := map[pt]bool{obj[0].p: true}
		for range nc - 1 {
			var cands []pt
			for _, p := range bx {
				for _, q := range neighbors(p) {
					if inobj[q] {
						cands = append(cands, p)
						break
					}
				}
			}
			ch := choice(g, cands)
			obj = append(obj, cell{choice(g, remcols), ch})
			inobj[ch] = true
			bx = minus(bx, []pt{ch})
		}
		gi := rotTiles(paint(canv, obj))
		fullh, fullw := g.unif(2*h, 30), g.unif(2*w, 30)
		loci, locj := g.randint(0, fullh-2*h), g.randint(0, fullw-2*w)
		gc := canvas(bgc, fullh, fullw)
		var sh []cell
		for _, p := range asindices(gi) {
			sh = append(sh, cell{gi[p.i][p.j], pt{p.i + loci, p.j + locj}})
		}
		gi = paint(gc, sh)
		rem := minus(asindices(gi), ofcolor(gi, bgc))
		return gi, lefthalf(tophalf(subgrid(rem, gi)))
	}},
	{"f8c80d96", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		h, w := g.unif(8, 30), g.unif(8, 30)
		ow := g.randint(1, ifElse(h > 10, 3, 2))
		oh := g.randint(1, ifElse(w > 10, 3, 2))
		loci := g.randint(-oh+1, h-1)
		locj := g.randint(-ow+1, w-1)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		gi, gout := canvas(bgc, h, w), canvas(5, h, w)
		ulci, ulcj := loci-1, locj-1
		lrci, lrcj := loci+oh, locj+ow
		hoffs := g.randint(2, ifElse(h > 12, 4, 3))
		woffs := g.randint(2, ifElse(w > 12, 4, 3))
		var lns [][]pt
		for k := range max(h, w)/min(hoffs, woffs) + 1 {
			ln := box([]pt{{ulci - hoffs*k, ulcj - woffs*k}, {lrci + hoffs*k, lrcj + woffs*k}})
			for _, p := range ln {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w {
					lns = append(lns, ln)
					break
				}
			}
		}
		nlns := len(lns)
		npresent := min(nlns, nlns-g.unif(0, nlns-2))
		for k := range npresent {
			gi = fill(gi, linc, lns[k])
		}
		for _, ln := range lns {
			gout = fill(gout, linc, ln)
		}
		return gi, gout
	}},
	{"7447852a", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		w := g.unif(2, 8)
		h := g.unif(w+1, 30)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		remcols := without(cols, bgc, linc)
		sp := pt{h - 1, 0}
		gi := fill(canvas(bgc, h, w), linc, []pt{sp})
		direc := 1
		for sp.i >= 0 {
			sp = pt{sp.i - 1, sp.j + direc}
			if sp.j == w-1 || sp.j == 0 {
				direc = -direc
			}
			gi = fill(gi, linc, []pt{sp})
		}
		gi = rot90(gi)
		var objs []object
		for _, o := range objects(gi) {
			if o.color == bgc {
				objs = append(objs, o)
			}
		}
		inds := ofcolor(gi, bgc)
		ccols := sample(g, remcols, g.unif(1, 7))
		locs := sample(g, inds, g.unif(0, len(inds)))
		gi = paint(gi, withColors(locs, ccols, g))
		leftmost := func(o object) int {
			ul, _ := bounds(o.cells)
			return ul.j
		}
		slices.SortStableFunc(objs, func(a, b object) int { return leftmost(a) - leftmost(b) })
		gout := gi
		for k := 0; k < len(objs); k += 3 {
			gout = fill(gout, 4, objs[k].cells)
		}
		return gi, gout
	}},
	{"5582e5ca", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 30)
		numc := g.unif(2, min(10, h*w-1))
		ccols := sample(g, allColors, numc)
		mostc, remcols := ccols[0], ccols[1:]
		least := h*w/numc + 1
		most := h*w - numc + 1
		nummostcol := min(max(least, most-g.unif(0, most-least)), most)
		kk := len(remcols)
		remcounts := make([]int, kk)
		for k := range remcounts {
			remcounts[k] = 1
		}
		for range h*w - nummostcol - kk {
			var cands []int
			for idx, c := range remcounts {
				if c < nummostcol-1 {
					cands = append(cands, idx)
				}
			}
			if len(cands) == 0 {
				break
			}
			remcounts[choice(g, cands)]++
		}
		sum := 0
		for _, c := range remcounts {
			sum += c
		}
		nummostcol = h*w - sum
		gi := canvas(-1, h, w)
		inds := asindices(gi)
		mclocs := sample(g, inds, nummostcol)
		gi = fill(gi, mostc, mclocs)
		inds = minus(inds, mclocs)
		for k, col := range remcols {
			locs := sample(g, inds, remcounts[k])
			inds = minus(inds, locs)
			gi = fill(gi, col, locs)
		}
		return gi, canvas(mostc, h, w)
	}},
	{"09629e4f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		barcol := choice(g, remcols)
		remcols = without(remcols, barcol)
		ncols := g.unif(2, min(7, h*w-2))
		c := canvas(bgc, h, w)
		inds := asindices(c)
		fullh, fullw := h*h+h-1, w*w+w-1
		gi := canvas(barcol, fullh, fullw)
		var locs []pt
		for i := 0; i < fullh; i += h + 1 {
			for j := 0; j < fullw; j += w + 1 {
				locs = append(locs, pt{i, j})
			}
		}
		trgloc := choice(g, locs)
		remlocs := minus(locs, []pt{trgloc})
		colssf := sample(g, remcols, ncols)
		colsss := without(colssf, choice(g, colssf))
		trgssf := sample(g, inds, ncols-1)
		gi = fill(gi, bgc, shift(inds, trgloc.i, trgloc.j))
		for k, p := range trgssf {
			gi = fill(gi, colsss[k], []pt{{trgloc.i + p.i, trgloc.j + p.j}})
		}
		for _, rl := range remlocs {
			trgss := sample(g, inds, ncols)
			tmpg := c
			for k, p := range trgss {
				tmpg = fill(tmpg, colssf[k], []pt{p})
			}
			var obj []cell
			for _, p := range inds {
				obj = append(obj, cell{tmpg[p.i][p.j], pt{p.i + rl.i, p.j + rl.j}})
			}
			gi = paint(gi, obj)
		}
		gout := fill(canvas(bgc, fullh, fullw), barcol, ofcolor(gi, barcol))
		for k, p := range trgssf {
			gout = fill(gout, colsss[k], shift(inds, p.i*(h+1), p.j*(w+1)))
		}
		return gi, gout
	}},
	{"694f12f3", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		h, w := g.unif(9, 30), g.unif(9, 30)
		seploc := g.randint(4, h-5)
		bigh := g.unif(4, seploc)
		bigw := g.unif(3, w-1)
		bigloci := g.randint(0, seploc-bigh)
		biglocj := g.randint(0, w-bigw)
		type ab struct{ a, b int }
		var cands []ab
		for a := 3; a <= h-seploc-1; a++ {
			for b := 3; b <= w-1; b++ {
				if a*b < bigh*bigw {
					cands = append(cands, ab{a, b})
				}
			}
		}
		slices.SortStableFunc(cands, func(x, y ab) int { return x.a*x.b - y.a*y.b })
		s := cands[g.unif(0, len(cands)-1)]
		smallloci := g.randint(seploc+1, h-s.a)
		smalllocj := g.randint(0, w-s.b)
		bs := sample(g, cols, 2)
		bgc, sqc := bs[0], bs[1]
		b1, b2 := pt{bigloci, biglocj}, pt{bigloci + bigh - 1, biglocj + bigw - 1}
		s1, s2 := pt{smallloci, smalllocj}, pt{smallloci + s.a - 1, smalllocj + s.b - 1}
		gi := fill(fill(canvas(bgc, h, w), sqc, backdrop(b1, b2)), sqc, backdrop(s1, s2))
		gout := fill(gi, 2, backdrop(pt{b1.i + 1, b1.j + 1}, pt{b2.i - 1, b2.j - 1}))
		gout = fill(gout, 1, backdrop(pt{s1.i + 1, s1.j + 1}, pt{s2.i - 1, s2.j - 1}))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
}
