package arc

import (
	"fmt"
	"slices"
)

// rearcGens15 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens15 = []rearcEntry{
	{"178fcbfb", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) {
			cols := without(allColors, 1, 2, 3)
			h, w := g.unif(3, 30), g.unif(3, 30)
			bgc := choice(g, cols)
			gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
			inds := newDrawSet(asindices(gi))
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
		ncells := g.unifFloor(1, ub)
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
				gout = paint(gout, shiftC(obj, a, b+1))
			}
		}
		for a := -vp; a < h+1; a += vp {
			for b := -hp; b < w+1; b += hp {
				gi = paint(gi, shiftC(obj, a, b))
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
		inds := newDrawSet(asindices(gi))
		for tr, succ := 0, 0; succ < nobjs && tr < maxtr; tr++ {
			o := choice(g, arr)
			loc := choice(g, inds.list)
			oplcd := shiftC(o.out, loc.i, loc.j)
			if oi := toindices(oplcd); inds.hasAll(oi) {
				succ++
				gi = paint(gi, shiftC(o.in, loc.i, loc.j))
				gout = paint(gout, oplcd)
				inds.remove(oi...)
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
	{"d5d6de2d", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 16)
		indss := newDrawSet(asindices(gi))
		maxtrials := 4 * num
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
			if len(rem) == 0 || len(indss.list) == 0 {
				break
			}
			oh, ow := g.randint(1, 7), g.randint(1, 7)
			subs := indss.filter(func(p pt) bool { return p.i < h-oh && p.j < w-ow })
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			col := choice(g, rem)
			if indss.hasAll(bd) {
				gi = fill(gi, col, box(bd))
				if oh > 2 && ow > 2 {
					gout = fill(gout, 3, backdropP(inbox(bd)))
				}
				succ++
				indss.remove(bd...)
				indss.remove(outbox(l, lr)...)
			}
		}
		return gi, gout
	}},
	{"e21d9049", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		ph, pw := g.unif(2, 9), g.unif(2, 9)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		hbar, wbar := make([]cell, ph), make([]cell, pw)
		for k := range hbar {
			hbar[k] = cell{choice(g, rem), pt{k, 0}}
		}
		for k := range wbar {
			wbar[k] = cell{choice(g, rem), pt{0, k}}
		}
		locih, locjh := g.randint(0, h-ph), g.randint(0, w-1)
		locjw, lociw := g.randint(0, w-pw), g.randint(0, h-1)
		hbar, wbar = shiftC(hbar, locih, locjh), shiftC(wbar, lociw, locjw)
		col := choice(g, rem)
		for k := range hbar {
			if abs(hbar[k].p.i-lociw)%ph == 0 {
				hbar[k].c = col
			}
		}
		for k := range wbar {
			if abs(wbar[k].p.j-locjh)%pw == 0 {
				wbar[k].c = col
			}
		}
		canv := canvas(bgc, h, w)
		gi := paint(paint(canv, hbar), wbar)
		gout := copyGrid(gi)
		for k := range h/ph + 1 {
			gout = paint(gout, shiftC(hbar, k*ph, 0))
			gout = paint(gout, shiftC(hbar, -k*ph, 0))
		}
		for k := range w/pw + 1 {
			gout = paint(gout, shiftC(wbar, 0, k*pw))
			gout = paint(gout, shiftC(wbar, 0, -k*pw))
		}
		return gi, gout
	}},
	{"af902bf9", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 8))
		numsq := g.unif(1, h*w/20)
		maxtr := 5 * numsq
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		for tr, succ := 0, 0; tr < maxtr && succ < numsq; {
			tr++
			oh, ow := g.randint(3, 5), g.randint(3, 5)
			cands := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
			if len(cands) == 0 {
				continue
			}
			l := choice(g, cands)
			sq := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			if inds.hasAll(sq) {
				inds.remove(sq...)
				succ++
				col := choice(g, ccols)
				crns := corners(sq)
				gi = fill(gi, col, crns)
				gout = fill(gout, col, crns)
				gout = fill(gout, 2, backdropP(inbox(crns)))
			}
		}
		return gi, gout
	}},
	{"b190f7f5", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		bgc := choice(g, allColors)
		cols := without(allColors, bgc)
		c := canvas(bgc, h, w)
		numcd := g.unif(0, h*w/2)
		numc := min(max(1, choice(g, []int{numcd, h*w - numcd})), h*w-1)
		numcd2 := g.unif(0, h*w/2)
		numc2 := min(max(2, choice(g, []int{numcd2, h*w - numcd2})), h*w-1)
		inds := asindices(c)
		srclocs := sample(g, inds, numc)
		srccol := choice(g, cols)
		rem := without(cols, srccol)
		numcols := g.unif(2, 8)
		trglocs := sample(g, inds, numc2)
		ccols := sample(g, rem, numcols)
		fixc1 := choice(g, ccols)
		trgobj := []cell{{fixc1, trglocs[0]}, {choice(g, without(ccols, fixc1)), trglocs[1]}}
		trgobj = append(trgobj, withColors(trglocs[2:], ccols, g)...)
		gisrc := fill(c, srccol, srclocs)
		gitrg := paint(c, trgobj)
		catf := choice(g, []func(a, b Grid) Grid{hconcat, vconcat})
		var gi Grid
		if choice(g, []bool{true, false}) {
			gi = catf(gisrc, gitrg)
		} else {
			gi = catf(gitrg, gisrc)
		}
		gout := canvas(bgc, h*h, w*w)
		for _, l := range trglocs {
			gout = fill(gout, gitrg[l.i][l.j], shift(srclocs, l.i*h, l.j*w))
		}
		return gi, gout
	}},
	{"469497ad", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(3, 6), g.unif(3, 6)
		bs := sample(g, cols, 2)
		bgc, sqc := bs[0], bs[1]
		sqh, sqw := g.randint(1, h-2), g.randint(1, w-2)
		sqi, sqj := g.randint(0, h-sqh-2), g.randint(0, w-sqw-2)
		gi := fill(canvas(bgc, h, w), sqc, backdrop(pt{sqi, sqj}, pt{sqi + sqh - 1, sqj + sqw - 1}))
		numcub := min(min(h, w)+1, 30/max(h, w), 7)
		numc := g.unif(2, numcub)
		numaccc := numc - 1
		ccols := sample(g, without(cols, sqc, bgc), numaccc)
		gi = rot180(gi)
		locs := append([]int{0}, sample(g, interval(1, min(h, w)), numaccc-1)...)
		slices.Sort(locs[1:])
		for k, c := range ccols {
			l := locs[k]
			gi = fill(gi, c, shoot(pt{0, l}, 0, 1))
			gi = fill(gi, c, shoot(pt{l, 0}, 1, 0))
		}
		gi = rot180(gi)
		gout := upscale(gi, numc)
		if rect := ofcolor(gout, sqc); len(rect) > 0 {
			ul, lr := bounds(rect)
			ll := shoot(lr, 1, 1)
			ll = append(ll, shoot(ul, -1, -1)...)
			ll = append(ll, shoot(pt{ul.i, lr.j}, -1, 1)...)
			ll = append(ll, shoot(pt{lr.i, ul.j}, 1, -1)...)
			var on []pt
			for _, p := range ll {
				if p.i >= 0 && p.i < len(gout) && p.j >= 0 && p.j < len(gout[0]) && gout[p.i][p.j] == bgc {
					on = append(on, p)
				}
			}
			gout = fill(gout, 2, on)
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"50cb2852", func(g *gen) (Grid, Grid) { return boxesOnCanvas(g, true) }},
	{"2dc579da", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		linc := choice(g, rem)
		dotc := choice(g, without(rem, linc))
		hdev := g.unif(0, (h-2)/2)
		lineh := max(min(h-2, choice(g, []int{hdev, h - 2 - hdev})), 1)
		wdev := g.unif(0, (w-2)/2)
		linew := max(min(w-2, choice(g, []int{wdev, w - 2 - wdev})), 1)
		locidev := g.unif(1, h/2)
		loci := min(max(1, choice(g, []int{h/2 - locidev, h/2 + locidev})), h-lineh-1)
		locjdev := g.unif(1, w/2)
		locj := min(max(1, choice(g, []int{w/2 - locjdev, w/2 + locjdev})), w-linew-1)
		gi := canvas(bgc, h, w)
		for a := loci; a < loci+lineh; a++ {
			gi = fill(gi, linc, connect(pt{a, 0}, pt{a, w - 1}))
		}
		for b := locj; b < locj+linew; b++ {
			gi = fill(gi, linc, connect(pt{0, b}, pt{h - 1, b}))
		}
		doth, dotw := g.randint(1, loci), g.randint(1, locj)
		di, dj := g.randint(0, loci-doth), g.randint(0, locj-dotw)
		gi = fill(gi, dotc, backdrop(pt{di, dj}, pt{di + doth - 1, dj + dotw - 1}))
		gout := crop(gi, 0, 0, loci, locj)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"3eda0437", func(g *gen) (Grid, Grid) {
		cols := without(interval(1, 10), 6)
		h, w := g.unif(3, 8), g.unif(3, 30)
		if choice(g, []bool{true, false}) {
			h, w = w, h
		}
		fgcs := sample(g, cols, g.unif(1, 8))
		gi := canvas(-1, h, w)
		inds := asindices(gi)
		gi = paint(gi, withColors(inds, fgcs, g))
		spac := g.unif(1, h*w/3*2)
		gi = fill(gi, 0, sample(g, inds, spac))
		lx := pt{g.randint(0, h-1), g.randint(0, w-1)}
		gi = fill(gi, 0, []pt{lx, {lx.i, lx.j + 1}, {lx.i + 1, lx.j}, {lx.i + 1, lx.j + 1}})
		return gi, fill(gi, 6, largestZeroRects(gi))
	}},
	{"29c11459", func(g *gen) (Grid, Grid) {
		colopts := without(allColors, 5)
		h, w := g.unif(5, 30), g.unif(5, 29)
		if w%2 == 0 {
			w = choice(g, []int{max(5, w-1), min(29, w+1)})
		}
		bgc := choice(g, colopts)
		rem := without(colopts, bgc)
		ccols := sample(g, rem, g.unif(2, len(rem)))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		nlocs := g.unif(1, h)
		locs := sample(g, interval(0, h), nlocs)
		edgeOnly := func() bool {
			for _, l := range locs {
				if l != 0 && l != h-1 {
					return false
				}
			}
			return true
		}
		for tries := 0; edgeOnly() && tries < 1000; tries++ {
			locs = sample(g, interval(0, h), nlocs)
		}
		acols, bcols := make([]int, nlocs), make([]int, nlocs)
		aforb, bforb := -1, -1
		for k := range nlocs {
			acols[k] = choice(g, without(ccols, aforb))
			aforb = acols[k]
			bcols[k] = choice(g, without(ccols, bforb))
			bforb = bcols[k]
		}
		slices.Sort(locs)
		for k, l := range locs {
			a, b := acols[k], bcols[k]
			gi = fill(gi, a, []pt{{l, 0}})
			gi = fill(gi, b, []pt{{l, w - 1}})
			gout = fill(gout, a, connect(pt{l, 0}, pt{l, w/2 - 1}))
			gout = fill(gout, b, connect(pt{l, w/2 + 1}, pt{l, w - 1}))
			gout = fill(gout, 5, []pt{{l, w / 2}})
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"2bcee788", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(2, 20), g.unif(2, 10)
		bso := sample(g, cols, 3)
		bgc, sepc, objc := bso[0], bso[1], bso[2]
		c := canvas(bgc, h, w)
		inds := asindices(c)
		sp := pt{g.randint(0, h-1), w - 1}
		numcellsd := g.unif(0, h*w/2)
		numc := min(max(2, choice(g, []int{numcellsd, h*w - numcellsd})), h*w-1)
		f := newFrontier(minus(inds, []pt{sp}), neighbors)
		f.take(sp)
		shp := []pt{sp}
		for range numc {
			p := f.pick(g)
			f.take(p)
			shp = append(shp, p)
		}
		for tries := 0; width(shp) == 1 && tries < 1000; tries++ {
			p := f.pick(g)
			f.take(p)
			shp = append(shp, p)
		}
		c2 := fill(c, objc, shp)
		var border []pt
		for _, p := range shp {
			if p.j == w-1 {
				border = append(border, p)
			}
		}
		c3 := fill(c, sepc, border)
		fullh, fullw := g.unif(h+1, 30), g.unif(2*w+1, 30)
		fullg := canvas(bgc, fullh, fullw)
		_, _ = g.randint(0, fullh-h), g.randint(0, fullw-2*w) // drawn and unused in RE-ARC
		gi := paint(fullg, asobject(hconcat(c2, vmirror(c3))))
		gout := paint(fullg, asobject(hconcat(c2, vmirror(c2))))
		gi, gout = applySyms(g, gi, gout)
		return gi, replace(gout, bgc, 3)
	}},
	{"3345333e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		oh, ow := g.unif(4, h-2), g.unif(4, (w-2)/2)
		nc := g.unif(min(oh, ow), oh*ow/3*2)
		f := newFrontier(asindices(canvas(-1, oh, ow)), neighbors)
		f.take(pt{0, 0})
		shp := []pt{{0, 0}}
		for range nc {
			p := f.pick(g)
			f.take(p)
			shp = append(shp, p)
		}
		for tries := 0; (height(shp) < 3 || width(shp) < 3) && tries < 1000; tries++ {
			p := f.pick(g)
			f.take(p)
			shp = append(shp, p)
		}
		vmshp := vmirrorP(shp)
		if choice(g, []bool{true, false}) {
			wd := width(shp)
			var kept []pt
			for _, p := range vmshp {
				if p.j != wd-1 {
					kept = append(kept, p)
				}
			}
			vmshp = kept
		}
		shp = normalize(append(shp, shift(vmshp, 0, -width(vmshp))...))
		oh, ow = height(shp), width(shp)
		cs := sample(g, allColors, 3)
		bgc, objc, occcol := cs[0], cs[1], cs[2]
		loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
		shp = shift(shp, loci, locj)
		gout := fill(canvas(bgc, h, w), objc, shp)
		boxh, boxw := g.unif(2, oh-1), g.unif(2, ow/2)
		ulci := g.randint(loci-1, loci+oh-boxh+1)
		ulcj := g.randint(locj+ow/2+1, locj+ow-boxw+1)
		gi := fill(gout, occcol, backdrop(pt{ulci, ulcj}, pt{ulci + boxh - 1, ulcj + boxw - 1}))
		return applySyms(g, gi, gout)
	}},
	{"5168d44c", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(7, 30)
		doth, dotw := g.unif(1, h/3), g.unif(1, w/3)
		borderh, borderw := g.unif(1, h/4), g.unif(1, w/4)
		direc := choice(g, []pt{{1, 0}, {0, 1}, {1, 1}})
		hi, hj := h-doth-borderh-1, w-dotw-borderw-1
		if direc == (pt{0, 1}) {
			hi = h - doth - 1
		}
		if direc == (pt{1, 0}) {
			hj = w - dotw - 1
		}
		dl := pt{g.randint(0, hi), g.randint(0, hj)}
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		dotcol := choice(g, rem)
		boxcol := choice(g, without(rem, dotcol))
		gi := canvas(bgc, h, w)
		starter := backdrop(dl, pt{dl.i + doth - 1, dl.j + dotw - 1})
		off := pt{direc.i * (doth + borderh), direc.j * (dotw + borderw)}
		var dots []pt
		for k := -15; k <= 15; k++ {
			dots = append(dots, shift(starter, k*off.i, k*off.j)...)
		}
		gi = fill(gi, dotcol, dots)
		proto := backdrop(pt{dl.i - borderh, dl.j - borderw}, pt{dl.i + doth + borderh - 1, dl.j + dotw + borderw - 1})
		bx := minus(proto, starter)
		gout := fill(gi, boxcol, shift(bx, off.i, off.j))
		return fill(gi, boxcol, bx), gout
	}},
	{"1e32b0e9", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 6), g.unif(4, 6)
		nh := g.unif(1, 4)
		nwlo := 2
		if nh > 1 {
			nwlo = 1
		}
		nw := g.unif(nwlo, 3)
		bl := sample(g, allColors, 3)
		bgc, linc, fgc := bl[0], bl[1], bl[2]
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		c := canvas(linc, fullh, fullw)
		smallc := canvas(bgc, h, w)
		var llocs []pt
		for a := 0; a < fullh; a += h + 1 {
			for b := 0; b < fullw; b += w + 1 {
				llocs = append(llocs, pt{a, b})
			}
		}
		srcloc := choice(g, llocs)
		ncells := g.unif(0, (h-2)*(w-2)-1)
		inds := asindices(canvas(bgc, h-2, w-2))
		sp := choice(g, inds)
		shp := shift(grow(g, minus(inds, []pt{sp}), []pt{sp}, ncells), 1, 1)
		gg := asobject(fill(smallc, fgc, shp))
		gg2 := asobject(fill(smallc, linc, shp))
		gi := paint(c, shiftC(gg, srcloc.i, srcloc.j))
		gout := copyGrid(gi)
		ncc := ncells + 1
		for _, rl := range minus(llocs, []pt{srcloc}) {
			sub := sample(g, shp, g.randint(0, ncc))
			gi = paint(gi, shiftC(asobject(fill(smallc, fgc, sub)), rl.i, rl.j))
			gout = paint(gout, shiftC(gg2, rl.i, rl.j))
			gout = fill(gout, fgc, shift(sub, rl.i, rl.j))
		}
		return gi, gout
	}},
	{"22233c11", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(5, 30), g.unif(5, 30)
		nobjs := g.unif(1, h*w/10)
		maxtr := 10 * nobjs
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		ccols := sample(g, rem, g.unif(1, 8))
		for tr, succ := 0, 0; succ < nobjs && tr < maxtr; {
			if len(inds.list) == 0 {
				break
			}
			tr++
			od := g.randint(1, 3)
			t := fill(canvas(bgc, 4, 4), 8, []pt{{0, 3}, {3, 0}})
			col := choice(g, ccols)
			t = fill(t, col, []pt{{1, 1}, {2, 2}})
			if choice(g, []bool{true, false}) {
				t = hmirror(t)
			}
			t = upscale(t, od)
			loc := choice(g, inds.list)
			inobj := shift(ofcolor(t, col), loc.i, loc.j)
			eights := shift(ofcolor(t, 8), loc.i, loc.j)
			outi := append(append([]pt(nil), inobj...), eights...)
			inside := true
			for _, p := range outi {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w && !inds.has(p) {
					inside = false
				}
			}
			if inds.hasAll(inobj) && inside {
				succ++
				inds.remove(outi...)
				inds.remove(neighborsAll(outi)...)
				gi = fill(gi, col, inobj)
				gout = fill(fill(gout, col, inobj), 8, eights)
			}
		}
		return gi, gout
	}},
	{"941d9a10", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3)
		h, w := g.unif(5, 30), g.unif(5, 30)
		opts := evens15(2, (h-1)/2+1)
		nh := opts[g.unif(0, len(opts)-1)]
		opts = evens15(2, (w-1)/2+1)
		nw := opts[g.unif(0, len(opts)-1)]
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		lines := func(n, l, total int) Grid {
			t := canvas(bgc, 2*n+1, l)
			for j := 1; j < total; j += 2 {
				t = fill(t, fgc, connect(pt{j, 0}, pt{j, l}))
			}
			for range total - (2*n + 1) {
				loc := g.randint(0, len(t)-1)
				t = append(append(append(Grid(nil), t[:loc]...), canvas(bgc, 1, l)...), t[loc:]...)
			}
			return t
		}
		hgrid := lines(nh, w, h)
		wgrid := dmirror(lines(nw, h, w))
		gi := fill(canvas(bgc, h, w), fgc, append(ofcolor(hgrid, fgc), ofcolor(wgrid, fgc)...))
		// The background regions are rectangles between full lines that
		// never touch, so 4- and 8-connectivity (RE-ARC's) agree.
		var objs [][]pt
		for _, o := range objects(gi) {
			if o.color == bgc {
				objs = append(objs, o.cells)
			}
		}
		ul := make([]pt, len(objs))
		for k, o := range objs {
			ul[k], _ = bounds(o)
		}
		blue, green := 0, 0
		for k := range objs {
			if ul[k].i+ul[k].j < ul[blue].i+ul[blue].j {
				blue = k
			}
			if ul[k].i+ul[k].j > ul[green].i+ul[green].j {
				green = k
			}
		}
		red := -1
		for k := range objs {
			var lt, gt, up, dn int
			for m := range objs {
				if ul[m].j < ul[k].j {
					lt++
				}
				if ul[m].j > ul[k].j {
					gt++
				}
				if ul[m].i < ul[k].i {
					up++
				}
				if ul[m].i > ul[k].i {
					dn++
				}
			}
			if lt == gt && up == dn {
				red = k
				break
			}
		}
		gout := fill(gi, 1, objs[blue])
		gout = fill(gout, 3, objs[green])
		gout = fill(gout, 2, objs[red])
		return gi, gout
	}},
	{"c3f564a4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(7, 30)
		p := g.unif(2, min(9, min(h/3, w/3)))
		fixc := choice(g, allColors)
		ccols := sample(g, without(allColors, fixc), p)
		shuffle(g.rng, ccols)
		base := make([]cell, p)
		for k := range base {
			base[k] = cell{ccols[k], pt{0, k}}
		}
		diag := !choice(g, []bool{true, false})
		gout := build(h, w, func(i, j int) int {
			if diag {
				return ccols[(i+j)%p]
			}
			return ccols[j%p]
		})
		gi := copyGrid(gout)
		nsq := g.unif(1, max(1, h*w/25))
		maxtr := 4 * nsq
		for tr, succ := 0, 0; succ < nsq && tr < maxtr; tr++ {
			oh, ow := g.unif(2, 5), g.unif(2, 5)
			loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
			tmpg := fill(gi, fixc, backdrop(pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}))
			freeRow, freeCol := false, false
			for _, r := range tmpg {
				freeRow = freeRow || !contains(r, fixc)
			}
			for _, r := range dmirror(tmpg) {
				freeCol = freeCol || !contains(r, fixc)
			}
			if freeRow && freeCol && len(occurrences(tmpg, base)) > 1 {
				gi = tmpg
				succ++
			}
		}
		if choice(g, []bool{true, false}) {
			return rot90(gi), rot90(gout)
		}
		return gi, gout
	}},
	{"f8ff0b80", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) {
			h, w := g.unif(10, 30), g.unif(10, 30)
			bgc := choice(g, allColors)
			rem := without(allColors, bgc)
			nobjs := g.unif(1, min(30, h*w/25))
			gi := canvas(bgc, h, w)
			numcells := g.unif(nobjs+1, 36)
			base := asindices(canvas(-1, 6, 6))
			inds := newDrawSet(asindices(gi))
			var out []int
			for k := range nobjs {
				if len(inds.list) == 0 || numcells < 2 {
					break
				}
				numcells = g.unif(nobjs-k, numcells-1)
				if numcells == 0 {
					break
				}
				sp := choice(g, base)
				shp := normalize(grow(g, minus(base, []pt{sp}), []pt{sp}, numcells-1))
				sh, sw := height(shp), width(shp)
				rems := inds.filter(func(p pt) bool { return p.i <= h-sh && p.j <= w-sw })
				if len(rems) == 0 {
					break
				}
				loc := choice(g, rems)
				valid := false
				for tr := 0; !valid && tr < 10; tr++ {
					loc = choice(g, inds.list)
					valid = inds.hasAll(shift(shp, loc.i, loc.j))
				}
				if valid {
					plcd := shift(shp, loc.i, loc.j)
					col := choice(g, rem)
					out = append(out, col)
					inds.remove(plcd...)
					inds.remove(neighborsAll(plcd)...)
					gi = fill(gi, col, plcd)
				}
			}
			if len(out) == 0 {
				return nil, nil, false // RE-ARC's output would be empty
			}
			return gi, dmirror(Grid{out}), true
		})
	}},
	{"0962bcdd", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3, 4)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(2, 7))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, h*w/25)
		indss := newDrawSet(asindices(gi))
		maxtrials := 4 * num
		subs := indss.filter(func(p pt) bool { return p.i < h-5 && p.j < w-5 })
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
			if len(indss.list) == 0 {
				break
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			bd := backdrop(l, pt{l.i + 4, l.j + 4})
			_ = choice(g, ccols) // drawn and unused in RE-ARC
			if indss.hasAll(bd) {
				ab := sample(g, ccols, 2)
				ca, cb := ab[0], ab[1]
				cp := pt{l.i + 2, l.j + 2}
				lins12 := append(connect(l, pt{l.i + 4, l.j + 4}), connect(pt{l.i + 4, l.j}, pt{l.i, l.j + 4})...)
				lins34 := append(connect(pt{l.i + 2, l.j}, pt{l.i + 2, l.j + 4}), connect(pt{l.i, l.j + 2}, pt{l.i + 4, l.j + 2})...)
				gout = fill(gout, cb, lins34)
				gout = fill(gout, ca, lins12)
				gi = fill(gi, ca, []pt{cp})
				gi = fill(gi, cb, dneighbors(cp))
				succ++
				indss.remove(bd...)
			}
		}
		return gi, gout
	}},
	{"48d8fb45", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		nobjs := g.unif(2, h*w/15)
		maxtr := 4 * nobjs
		done := false
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi := canvas(bgc, h, w)
		var gout Grid
		inds := newDrawSet(asindices(gi))
		for tr, succ := 0, 0; tr < maxtr && succ < nobjs; {
			oh, ow := g.randint(2, 6), g.randint(2, 6)
			bx := asindices(canvas(-1, oh, ow))
			nc := g.randint(3, oh*ow)
			sp := choice(g, bx)
			shp := grow(g, minus(bx, []pt{sp}), []pt{sp}, nc-1)
			var obj []cell
			if !done {
				done = true
				idx := choice(g, shp)
				coll := choice(g, rem)
				obj3 := recolor(choice(g, without(rem, coll)), minus(shp, []pt{idx}))
				obj = append([]cell{{coll, idx}}, obj3...)
				o3 := toindices(obj3)
				gout = paint(canvas(bgc, height(o3), width(o3)), normalizeC(obj3))
			} else {
				obj = recolor(choice(g, rem), shp)
			}
			locopts := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
			tr++
			if len(locopts) == 0 {
				continue
			}
			loc := choice(g, locopts)
			plcd := shiftC(obj, loc.i, loc.j)
			if pi := toindices(plcd); inds.hasAll(pi) {
				gi = paint(gi, plcd)
				succ++
				inds.remove(pi...)
				inds.remove(neighborsAll(pi)...)
			}
		}
		return gi, gout
	}},
	{"73251a56", func(g *gen) (Grid, Grid) {
		gi, gout := retry15(func() (Grid, Grid, bool) {
			d := g.unif(10, 30)
			h, w := d, d
			noisec := choice(g, allColors)
			nsl := g.unif(2, min(9, h/2))
			slopes := sample(g, interval(1, h-1), nsl-1)
			slices.Sort(slopes)
			slopes = append([]int{0}, slopes...)
			ccols := sample(g, allColors, nsl)
			gi := canvas(-1, h, w)
			inds := asindices(gi)
			for k, col := range ccols {
				slope := float64(slopes[k]) / float64(w)
				var locs []pt
				for _, p := range inds {
					if slope*float64(p.j) <= float64(p.i) {
						locs = append(locs, p)
					}
				}
				gi = fill(gi, col, locs)
			}
			ln := connect(pt{0, 0}, pt{d - 1, d - 1})
			diagc := ccols[len(ccols)-2]
			gi = fill(gi, diagc, ln)
			for i := range h {
				for j := range i {
					gi[i][j] = gi[j][i]
				}
			}
			// ok is cf1 and cf2 on gi with the rectangle filled, checked
			// on the rectangle alone: gi itself passes cf2 or no fill
			// ever does.
			symmetric := false
			for i := range h {
				for j := range w {
					symmetric = symmetric || (i != j && gi[i][j] == noisec && gi[j][i] == noisec)
				}
			}
			ok := func(a, b pt) bool {
				if symmetric {
					return false
				}
				in := func(p pt) bool { return p.i >= a.i && p.i <= b.i && p.j >= a.j && p.j <= b.j }
				onDiag := false
				for k := range d {
					c := gi[k][k]
					if in(pt{k, k}) {
						c = noisec
					}
					onDiag = onDiag || c == diagc
				}
				if !onDiag {
					return false
				}
				for i := a.i; i <= b.i; i++ {
					for j := a.j; j <= b.j; j++ {
						if i != j && (in(pt{j, i}) || gi[j][i] == noisec) {
							return false
						}
					}
				}
				return true
			}
			ndist := g.unif(1, h*w/15)
			maxtr := 10 * ndist
			gout := copyGrid(gi)
			changed := false
			for tr, succ := 0, 0; tr < maxtr && succ < ndist; {
				tr++
				oh, ow := g.randint(1, 5), g.randint(1, 5)
				loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
				a, b := pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}
				if ok(a, b) {
					succ++
					gi2 := fill(gi, noisec, backdrop(a, b))
					changed = changed || !equalGrids(gi, gi2)
					gi = gi2
				}
			}
			return gi, gout, changed
		})
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"e8dc4411", func(g *gen) (Grid, Grid) {
		h, w := g.unif(9, 30), g.unif(9, 30)
		d := g.unif(3, min(h, w)/2-1)
		bor := sample(g, allColors, 3)
		bgc, objc, remc := bor[0], bor[1], bor[2]
		c := canvas(bgc, d, d)
		var inds []pt
		for _, p := range asindices(c) {
			if p.i >= d/2 && p.j >= d/2 {
				inds = append(inds, p)
			}
		}
		ncd := g.unif(1, len(inds)/2)
		nc := min(max(2, choice(g, []int{ncd, len(inds) - ncd})), len(inds)-1)
		cells := sample(g, inds, nc)
		cells = append(cells, choice(g, []pt{{d / 2, d / 2}, {d / 2, d/2 - 1}}))
		for _, p := range append([]pt(nil), cells...) {
			cells = append(cells, pt{p.j, p.i})
		}
		for range 4 {
			c = rot90(fill(c, objc, cells))
		}
		plain := func(c Grid) bool {
			for _, p := range box(asindices(c)) {
				if c[p.i][p.j] != bgc {
					return false
				}
			}
			return true
		}
		for plain(c) && len(c) > 3 {
			c = trim(c)
		}
		obj := ofcolor(c, objc)
		od := height(obj)
		loci, locj := g.randint(1, h-2*od), g.randint(1, w-2*od)
		obj = shift(obj, loci, locj)
		bd := newDrawSet(backdropP(obj))
		p := 0
		for ; p < 60; p++ {
			hit := false
			for _, q := range shift(obj, p, p) {
				hit = hit || bd.has(q)
			}
			if !hit {
				break
			}
		}
		obj2 := shift(obj, p, p)
		nbhs := neighborsAll(obj)
		for tries := 0; len(intersection(obj2, nbhs)) == 0 && tries < 60; tries++ {
			nbhs = neighborsAll(nbhs)
		}
		gi := fill(canvas(bgc, h, w), objc, obj)
		gi = fill(gi, remc, intersection(obj2, nbhs))
		gout := gi
		for k := range 30 {
			newg := fill(gout, remc, shift(obj, p*(k+1), p*(k+1)))
			if equalGrids(newg, gout) {
				break
			}
			gout = newg
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"ef135b50", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 9)
		return retry15(func() (Grid, Grid, bool) {
			h, w := g.unif(8, 30), g.unif(8, 30)
			bgc := choice(g, cols)
			ccols := sample(g, without(cols, bgc), g.unif(1, 8))
			gi := canvas(bgc, h, w)
			nsq := g.unif(2, h*w/30)
			maxtr := 5 * nsq
			inds := newDrawSet(asindices(gi))
			var pats [][]pt
			for tr, succ := 0, 0; tr < maxtr && succ < nsq; {
				tr++
				oh, ow := g.randint(1, h/3*2), g.randint(1, w/3*2)
				cands := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
				if len(cands) == 0 {
					continue
				}
				l := choice(g, cands)
				bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
				if inds.hasAll(bd) {
					succ++
					inds.remove(bd...)
					inds.remove(neighborsAll(bd)...)
					gi = fill(gi, choice(g, ccols), bd)
					pats = append(pats, bd)
				}
			}
			var res []pt
			for a, p1 := range pats {
				for b, p2 := range pats {
					if a == b || !hmatching(p1, p2) {
						continue
					}
					u1, l1 := bounds(p1)
					u2, l2 := bounds(p2)
					um, bm := max(u1.i, u2.i), min(l1.i, l2.i)
					lm, rm := min(l1.j, l2.j)+1, max(u1.j, u2.j)-1
					res = append(res, backdrop(pt{um, lm}, pt{bm, rm})...)
				}
			}
			var on []pt
			for _, p := range res {
				if gi[p.i][p.j] == bgc && p.i > 0 && p.i < h-1 && p.j > 0 && p.j < w-1 {
					on = append(on, p)
				}
			}
			gout := fill(gi, 9, on)
			return gi, gout, !equalGrids(gi, gout)
		})
	}},
	{"de1cd16c", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		noisec := choice(g, allColors)
		ncols := g.unif(2, 9)
		ccols := sample(g, without(allColors, noisec), ncols)
		gi := canvas(ccols[0], h, w)
		ccols = ccols[1:]
		for k := range ncols - 1 {
			var objs [][]pt
			for _, o := range objects(gi) {
				if height(o.cells) > 5 || width(o.cells) > 5 {
					objs = append(objs, o.cells)
				}
			}
			if len(objs) == 0 {
				break
			}
			obj := choice(g, objs)
			oh, ow := height(obj), width(obj)
			ax := 1
			switch {
			case oh > 5 && ow > 5:
				ax = choice(g, []int{0, 1})
			case oh > 5:
				ax = 0
			}
			ul, lr := bounds(obj)
			var newobj []pt
			if ax == 0 {
				loci := g.randint(ul.i+3, lr.i-2)
				for _, p := range obj {
					if p.i >= loci {
						newobj = append(newobj, p)
					}
				}
			} else {
				locj := g.randint(ul.j+3, lr.j-2)
				for _, p := range obj {
					if p.j >= locj {
						newobj = append(newobj, p)
					}
				}
			}
			gi = fill(gi, ccols[k], newobj)
		}
		objs := objects(gi)
		slices.SortStableFunc(objs, func(a, b object) int { return len(a.cells) - len(b.cells) })
		allow := make([]int, len(objs))
		sum := 0
		for k, o := range objs {
			allow[k] = max(1, (height(o.cells)-2)*(width(o.cells)-2)/2)
			sum += allow[k]
		}
		meann := max(1, int(float64(sum)/float64(len(allow))))
		chosens := make([]int, len(objs))
		draw := func() int {
			mx := 0
			for k, a := range allow {
				chosens[k] = g.randint(0, min(meann, a))
				mx = max(mx, chosens[k])
			}
			return mx
		}
		mx := draw()
		for tries := 0; mx == 0 && tries < 1000; tries++ {
			mx = draw()
		}
		gogo := -1
		for k, n := range chosens {
			if n == mx {
				if gogo < 0 {
					gogo = k
				} else {
					chosens[k]--
				}
			}
		}
		for k, o := range objs {
			gi = fill(gi, noisec, sample(g, backdropP(inbox(o.cells)), chosens[k]))
		}
		return gi, canvas(objs[gogo].color, 1, 1)
	}},
	{"6c434453", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 8))
		nobjs := g.unif(2, h*w/16)
		maxtr := 5 * nobjs
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		for tr, succ := 0, 0; succ < nobjs && tr < maxtr; {
			tr++
			var obji []pt
			if choice(g, []bool{true, false}) {
				oh, ow := choice(g, []int{3, 5}), choice(g, []int{3, 5})
				obji = dedup(box([]pt{{0, 0}, {oh - 1, ow - 1}}))
			} else {
				oh, ow := g.randint(1, 5), g.randint(1, 5)
				bnds := asindices(canvas(-1, oh, ow))
				ncells := g.randint(1, oh*ow)
				f := newFrontier(bnds, dneighbors)
				sp := choice(g, bnds)
				f.take(sp)
				obji = []pt{sp}
				for range ncells - 1 {
					q := f.pick(g)
					f.take(q)
					obji = append(obji, q)
				}
				obji = normalize(obji)
			}
			oh, ow := height(obji), width(obji)
			flag := (oh == 3 || oh == 5) && (ow == 3 || ow == 5) && len(obji) == len(dedup(box(obji))) && len(minus(obji, box(obji))) == 0
			objo, tocover := obji, obji
			if flag {
				objo = append(connect(pt{0, ow / 2}, pt{oh - 1, ow / 2}), connect(pt{oh / 2, 0}, pt{oh / 2, ow - 1})...)
				tocover = backdropP(obji)
			}
			cands := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
			if len(cands) == 0 {
				break // RE-ARC raises here
			}
			loc := choice(g, cands)
			plcdi := shift(obji, loc.i, loc.j)
			if inds.hasAll(plcdi) {
				succ++
				tc := shift(tocover, loc.i, loc.j)
				inds.remove(tc...)
				for _, q := range tc {
					inds.remove(dneighbors(q)...)
				}
				col := choice(g, ccols)
				gi = fill(gi, col, plcdi)
				oc := col
				if flag {
					oc = 2
				}
				gout = fill(gout, oc, shift(objo, loc.i, loc.j))
			}
		}
		return gi, gout
	}},
	{"44d8ac46", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 10)
		indss := newDrawSet(asindices(gi))
		maxtrials := 4 * num
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; {
			tr++
			if len(rem) == 0 || len(indss.list) == 0 {
				break
			}
			oh, ow := g.randint(5, 7), g.randint(5, 7)
			subs := indss.filter(func(p pt) bool { return p.i < h-oh && p.j < w-ow })
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			col := choice(g, rem)
			if !indss.hasAll(bd) {
				continue
			}
			var inpart []pt
			if choice(g, []bool{true, false}) {
				dim := g.randint(1, min(oh, ow)-2)
				ii, ij := g.randint(1, oh-dim-1), g.randint(1, ow-dim-1)
				inpart = backdrop(pt{l.i + ii, l.j + ij}, pt{l.i + ii + dim - 1, l.j + ij + dim - 1})
			} else {
				cnds := backdropP(inbox(bd))
				ch := choice(g, cnds)
				kk := g.unif(1, len(cnds))
				f := newFrontier(cnds, dneighbors)
				f.take(ch)
				inpart = []pt{ch}
				for range kk - 1 {
					q := f.pick(g)
					f.take(q)
					inpart = append(inpart, q)
				}
			}
			hi, wi := height(inpart), width(inpart)
			incol := bgc
			if hi == wi && len(inpart) == hi*wi {
				incol = 2
			}
			gi = fill(fill(gi, col, bd), bgc, inpart)
			gout = fill(fill(gout, col, bd), incol, inpart)
			succ++
			indss.remove(bd...)
			indss.remove(outbox(l, lr)...)
		}
		return gi, gout
	}},
	{"890034e9", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(10, 30), g.unif(10, 30)
		oh, ow := g.randint(2, h/4), g.randint(2, w/4)
		markercol := choice(g, cols)
		bgcols := sample(g, without(cols, markercol), g.unif(1, 8))
		gi := canvas(0, h, w)
		all := asindices(gi)
		gi = paint(gi, withColors(all, bgcols, g))
		gi = fill(gi, 0, sample(g, all, g.unif(0, h*w/2)))
		patt := asindices(canvas(-1, oh, ow))
		var tocover []pt
		for _, occ := range occurrences(gi, recolor(0, patt)) {
			tocover = append(tocover, choice(g, shift(patt, occ.i, occ.j)))
		}
		gi = paint(gi, withColors(dedup(tocover), bgcols, g))
		noccs := g.unif(2, h*w/((oh+2)*(ow+2)))
		maxtr := 5 * noccs
		gout := copyGrid(gi)
		inds := newDrawSet(all)
		for tr, succ := 0, 0; tr < maxtr && succ < noccs; {
			tr++
			cands := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
			if len(cands) == 0 {
				break
			}
			l := choice(g, cands)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			plcd := outbox(l, lr)
			if !inds.hasAll(plcd) {
				continue
			}
			succ++
			inds.remove(plcd...)
			gi, gout = fill(gi, 0, bd), fill(gout, 0, bd)
			if succ == 1 {
				gi = fill(gi, markercol, plcd)
			}
			gout = fill(gout, markercol, plcd)
			if succ > 1 {
				lns := [][]pt{
					connect(pt{l.i - 1, l.j}, pt{l.i - 1, lr.j}),
					connect(pt{lr.i + 1, l.j}, pt{lr.i + 1, lr.j}),
					connect(pt{l.i, l.j - 1}, pt{lr.i, l.j - 1}),
					connect(pt{l.i, lr.j + 1}, pt{lr.i, lr.j + 1}),
				}
				var fixxer []cell
				for _, ln := range lns {
					c := choice(g, bgcols)
					fixxer = append(fixxer, cell{c, choice(g, ln)})
				}
				gi = paint(gi, fixxer)
			}
		}
		return gi, gout
	}},
	{"5c2c9af4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		boxhd, boxwd := g.unif(0, h/2), g.unif(0, w/2)
		boxh := choice(g, []int{boxhd, h - boxhd})
		boxw := choice(g, []int{boxwd, w - boxwd})
		if boxh%2 == 0 {
			boxh = choice(g, []int{boxh - 1, boxh + 1})
		}
		if boxw%2 == 0 {
			boxw = choice(g, []int{boxw - 1, boxw + 1})
		}
		oddBelow := func(n int) int {
			if n%2 == 1 {
				return n
			}
			return n - 1
		}
		boxh, boxw = min(max(1, boxh), oddBelow(h)), min(max(1, boxw), oddBelow(w))
		loci, locj := g.randint(0, h-boxh), g.randint(0, w-boxw)
		bgc := choice(g, allColors)
		fgc := choice(g, without(allColors, bgc))
		c := canvas(bgc, h, w)
		cp := pt{loci + boxh/2, locj + boxw/2}
		ooo := dedup([]pt{{loci, locj}, {loci + boxh - 1, locj + boxw - 1}, cp})
		gi := fill(c, fgc, ooo)
		gout := copyGrid(gi)
		cond := true
		// hline and vline: a full row or column segment of three cells.
		if len(ooo) == 3 && height(ooo) == 1 && width(ooo) == 3 {
			gout = fill(gout, fgc, hfrontier(cp))
			cond = false
		}
		if len(ooo) == 3 && width(ooo) == 1 && height(ooo) == 3 {
			gout = fill(gout, fgc, vfrontier(cp))
			cond = false
		}
		for k := 1; cond && k < 100; k++ {
			f1, f2 := k*(boxh/2), k*(boxw/2)
			go2 := fill(gout, fgc, box([]pt{{cp.i - f1, cp.j - f2}, {cp.i + f1, cp.j + f2}}))
			cond = !equalGrids(gout, go2)
			gout = go2
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"39a8645d", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) { return gen39a8645d(g) })
	}},
	{"137eaa0f", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) {
			h, w := g.unif(2, 4), g.unif(2, 4)
			bgc := choice(g, allColors)
			rem := without(allColors, bgc)
			dotc := choice(g, rem)
			rem = without(rem, dotc)
			gout := canvas(dotc, h, w)
			inds := asindices(gout)
			loc := choice(g, inds)
			reminds := minus(inds, []pt{loc})
			nc := g.unif(1, min(h*w-1, 8))
			choscols := sample(g, rem, nc)
			cd := make([][]pt, nc)
			for k := range choscols {
				ij := choice(g, reminds)
				cd[k] = append(cd[k], ij)
				reminds = minus(reminds, []pt{ij})
			}
			for _, ri := range reminds {
				k := g.rng.IntN(nc)
				cd[k] = append(cd[k], ri)
			}
			for k, c := range choscols {
				gout = fill(gout, c, cd[k])
			}
			gih, giw := g.unif(min(h, w)*2, 30), g.unif(min(h, w)*2, 30)
			objs := make([][]cell, nc)
			for k, c := range choscols {
				objs[k] = normalizeC(append([]cell{{dotc, loc}}, recolor(c, cd[k])...))
			}
			maxtr := min(h, w) * 2
			for range 100 {
				ok := true
				gi := canvas(bgc, gih, giw)
				free := newDrawSet(asindices(gi))
				for _, obj := range objs {
					oi := toindices(obj)
					oh, ow := height(oi), width(oi)
					var plcd []cell
					placed := false
					for tr := 0; tr < maxtr && !placed; tr++ {
						plcd = shiftC(obj, g.randint(0, gih-oh), g.randint(0, giw-ow))
						placed = free.hasAll(toindices(plcd))
					}
					if !placed {
						ok = false
						break
					}
					gi = paint(gi, plcd)
					pi := toindices(plcd)
					free.remove(pi...)
					free.remove(neighborsAll(pi)...)
				}
				if ok {
					return gi, gout, true
				}
				maxtr = int(float64(maxtr) * 1.5)
				gih, giw = g.randint(gih, 30), g.randint(giw, 30)
			}
			return nil, nil, false
		})
	}},
	{"4290ef0e", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) { return gen4290ef0e(g) })
	}},
	{"b782dc8a", func(g *gen) (Grid, Grid) {
		gi, gout := retry15(func() (Grid, Grid, bool) { return gen_b782dc8a(g) })
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"90f3ed37", func(g *gen) (Grid, Grid) {
		return retry15(func() (Grid, Grid, bool) { return gen90f3ed37(g) })
	}},
	{"97a05b5b", gen97a05b5b},
	{"234bbc79", func(g *gen) (Grid, Grid) { return gen234bbc79(g) }},
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
	indss := newDrawSet(asindices(gi))
	maxtrials := 4 * num
	for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
		if len(rem) == 0 || len(indss.list) == 0 {
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
			indss.remove(bd...)
		}
	}
	return gi, gout
}

// largestZeroRects are the cells of 3eda0437's largest all-zero
// rectangles (at least 2×2; every one of the largest area).
func largestZeroRects(gi Grid) []pt {
	h, w := dims(gi)
	maxw, maxh := 0, 0
	for _, row := range gi {
		maxw = max(maxw, count(row, 0))
	}
	for _, col := range dmirror(gi) {
		maxh = max(maxh, count(col, 0))
	}
	// z[i][j]: zeros in gi[:i][:j].
	z := make([][]int, h+1)
	for i := range z {
		z[i] = make([]int, w+1)
	}
	for i := range h {
		for j := range w {
			v := 0
			if gi[i][j] == 0 {
				v = 1
			}
			z[i+1][j+1] = z[i][j+1] + z[i+1][j] - z[i][j] + v
		}
	}
	type rect struct{ a, b int }
	maxsiz := -1
	var best []rect
	for a := 2; a <= maxh; a++ {
		for b := 2; b <= maxw; b++ {
			siz := a * b
			if siz < maxsiz {
				continue
			}
			found := false
			for i := 0; i+a <= h && !found; i++ {
				for j := 0; j+b <= w; j++ {
					if z[i+a][j+b]-z[i][j+b]-z[i+a][j]+z[i][j] == siz {
						found = true
						break
					}
				}
			}
			if found {
				if siz == maxsiz {
					best = append(best, rect{a, b})
				} else {
					best, maxsiz = []rect{{a, b}}, siz
				}
			}
		}
	}
	var res []pt
	for _, r := range best {
		for i := 0; i+r.a <= h; i++ {
			for j := 0; j+r.b <= w; j++ {
				if z[i+r.a][j+r.b]-z[i][j+r.b]-z[i+r.a][j]+z[i][j] == r.a*r.b {
					res = append(res, backdrop(pt{i, j}, pt{i + r.a - 1, j + r.b - 1})...)
				}
			}
		}
	}
	return res
}

// evens15 is interval(lo, hi, 2).
func evens15(lo, hi int) []int {
	var s []int
	for x := lo; x < hi; x += 2 {
		s = append(s, x)
	}
	return s
}

// shapeKey identifies a patch as a set of points.
func shapeKey(ps []pt) string {
	q := dedup(ps)
	slices.SortFunc(q, func(a, b pt) int {
		if a.i != b.i {
			return a.i - b.i
		}
		return a.j - b.j
	})
	return fmt.Sprint(q)
}

// gen39a8645d is one try of 39a8645d (false where RE-ARC would keep
// drawing shapes for ever).
func gen39a8645d(g *gen) (Grid, Grid, bool) {
	h, w := g.unif(15, 30), g.unif(15, 30)
	oh, ow := g.randint(2, 4), g.randint(2, 4)
	bgc := choice(g, allColors)
	rem := without(allColors, bgc)
	nobjs := g.unif(1, oh+ow)
	ccols := sample(g, rem, nobjs+1)
	mxcol, rcols := ccols[0], ccols[1:]
	maxnocc := g.unif(nobjs+2, max(nobjs+2, h*w/16))
	maxtr := 10 * maxnocc
	bnds := asindices(canvas(-1, oh, ow))
	var allobjs [][]pt
	seen := map[string]bool{}
	for range nobjs + 1 {
		found := false
		for range 1000 {
			ncells := g.randint(oh+ow-1, oh*ow)
			f := newFrontier(bnds, neighbors)
			sp := choice(g, bnds)
			f.take(sp)
			cobj := []pt{sp}
			for (height(cobj) != oh || width(cobj) != ow) && len(cobj) < ncells {
				q := f.pick(g)
				f.take(q)
				cobj = append(cobj, q)
			}
			if k := shapeKey(cobj); !seen[k] {
				seen[k] = true
				allobjs = append(allobjs, cobj)
				found = true
				break
			}
		}
		if !found {
			return nil, nil, false
		}
	}
	mcobj := normalize(allobjs[0])
	mckey := shapeKey(mcobj)
	var remobjs [][]pt
	var remkeys []string
	for _, o := range allobjs[1:] {
		n := normalize(o)
		remobjs = append(remobjs, n)
		remkeys = append(remkeys, shapeKey(n))
	}
	// remobjcounter: a dict keyed by shape, in insertion order.
	var ckeys []string
	counter := map[string]int{}
	for _, k := range remkeys {
		if _, ok := counter[k]; !ok {
			ckeys = append(ckeys, k)
			counter[k] = 0
		}
	}
	mxcounter := 0
	gi := canvas(bgc, h, w)
	// nearCol[c]: the cells 8-adjacent to colour c's cells (each colour
	// but bgc is only ever filled here).
	nearCol := map[int]map[pt]bool{}
	for _, c := range ccols {
		nearCol[c] = map[pt]bool{}
	}
	inds := newDrawSet(asindices(gi))
	for tr, succ := 0, 0; tr < maxtr && succ < maxnocc; {
		tr++
		var cand []string
		for _, k := range ckeys {
			if counter[k]+1 < mxcounter {
				cand = append(cand, k)
			}
		}
		obj, okey, col := mcobj, mckey, mxcol
		if len(cand) > 0 && !(float64(g.randint(0, 100))/100 > g.lb) {
			okey = choice(g, cand)
			idx := slices.Index(remkeys, okey)
			obj, col = remobjs[idx], rcols[idx]
		}
		cands := inds.filter(func(p pt) bool { return p.i <= h-oh && p.j <= w-ow })
		if len(cands) == 0 {
			break
		}
		loc := choice(g, cands)
		plcd := shift(obj, loc.i, loc.j)
		near := nearCol[col]
		ok := inds.hasAll(plcd)
		for _, q := range plcd {
			ok = ok && !near[q]
		}
		if ok {
			succ++
			inds.remove(plcd...)
			for _, q := range plcd {
				inds.remove(dneighbors(q)...)
			}
			gi = fill(gi, col, plcd)
			for _, q := range plcd {
				for _, n := range neighbors(q) {
					nearCol[col][n] = true
				}
			}
			if _, in := counter[okey]; in {
				counter[okey]++
			} else {
				mxcounter++
			}
		}
	}
	gout := fill(canvas(bgc, height(mcobj), width(mcobj)), mxcol, mcobj)
	return gi, gout, true
}

// gen4290ef0e is one try of 4290ef0e (false where RE-ARC starts over).
func gen4290ef0e(g *gen) (Grid, Grid, bool) {
	d := g.unif(2, 7)
	w := d
	fullh, fullw := g.unif(4*d, 30), g.unif(4*d, 30)
	bgc := choice(g, allColors)
	rem := without(allColors, bgc)
	ccols := sample(g, rem, d)
	quad := canvas(bgc, d+1, d+1)
	for idx, c := range ccols {
		linlen := g.randint(2, w-idx+1)
		quad = fill(quad, c, connect(pt{idx, idx}, pt{idx + linlen - 1, idx}))
		quad = fill(quad, c, connect(pt{idx, idx}, pt{idx, idx + linlen - 1}))
	}
	gout := canvas(bgc, d+1, 2*d+1)
	gout = paint(gout, asobject(quad))
	gout = paint(gout, shiftC(asobject(vmirror(quad)), 0, d))
	gout = vconcat(gout, hmirror(gout)[1:])
	if choice(g, []bool{true, false}) {
		n := len(gout)
		gout = fill(gout, choice(g, without(rem, ccols...)), []pt{{n / 2, n / 2}})
	}
	// partition without the background, ordered by width.
	type part struct {
		col   int
		cells []pt
	}
	var objs []part
	for c := range 10 {
		if c != bgc {
			if cs := ofcolor(gout, c); len(cs) > 0 {
				objs = append(objs, part{c, cs})
			}
		}
	}
	slices.SortStableFunc(objs, func(a, b part) int { return width(a.cells) - width(b.cells) })
	gi := canvas(bgc, fullh, fullw)
	fullinds := asindices(gi)
	inds := newDrawSet(fullinds)
	for _, o := range objs {
		obji := normalize(o.cells)
		dd := width(o.cells)
		dh := max(0, dd/2-1)
		var base []pt
		for _, p := range fullinds {
			if p.i <= fullh-dd && p.j <= fullw-dd {
				base = append(base, p)
			}
		}
		if len(base) == 0 {
			break
		}
		cands := append([]pt(nil), base...)
		for _, s := range []pt{{-dh, 0}, {0, -dh}, {dh, 0}, {0, dh}} {
			cands = append(cands, shift(base, s.i, s.j)...)
		}
		cands = dedup(cands)
		var loc pt
		succ := false
		for tr := 0; tr < 10 && !succ; tr++ {
			loc = choice(g, cands)
			succ = true
			for _, q := range shift(obji, loc.i, loc.j) {
				if q.i >= 0 && q.i < fullh && q.j >= 0 && q.j < fullw && !inds.has(q) {
					succ = false
				}
			}
		}
		if !succ {
			return nil, nil, false
		}
		placed := shift(obji, loc.i, loc.j)
		gi = fill(gi, o.col, placed)
		inds.remove(placed...)
	}
	return gi, gout, true
}

// gen_b782dc8a is one try of b782dc8a's maze (false where RE-ARC starts
// over).
func gen_b782dc8a(g *gen) (Grid, Grid, bool) {
	h, w := g.unif(3, 15), g.unif(3, 15)
	type mcell struct {
		x, y  int
		walls map[byte]bool
	}
	pair := map[byte]byte{'N': 'S', 'S': 'N', 'E': 'W', 'W': 'E'}
	type step struct {
		dir    byte
		dx, dy int
	}
	dlt := []step{{'W', -1, 0}, {'E', 1, 0}, {'S', 0, 1}, {'N', 0, -1}}
	maze := make([][]*mcell, w)
	for x := range maze {
		maze[x] = make([]*mcell, h)
		for y := range maze[x] {
			maze[x][y] = &mcell{x, y, map[byte]bool{'N': true, 'S': true, 'E': true, 'W': true}}
		}
	}
	walled := func(c *mcell) bool { return c.walls['N'] && c.walls['S'] && c.walls['E'] && c.walls['W'] }
	var stck []*mcell
	cc := maze[0][0]
	for nv := 1; nv < h*w; {
		type nb struct {
			dir byte
			c   *mcell
		}
		var nbhs []nb
		for _, s := range dlt {
			x2, y2 := cc.x+s.dx, cc.y+s.dy
			if x2 >= 0 && x2 < w && y2 >= 0 && y2 < h && walled(maze[x2][y2]) {
				nbhs = append(nbhs, nb{s.dir, maze[x2][y2]})
			}
		}
		if len(nbhs) == 0 {
			cc = stck[len(stck)-1]
			stck = stck[:len(stck)-1]
			continue
		}
		n := choice(g, nbhs)
		cc.walls[n.dir] = false
		n.c.walls[pair[n.dir]] = false
		stck = append(stck, cc)
		cc = n.c
		nv++
	}
	cs := sample(g, allColors, 4)
	pathcol, wallcol, dotcol, ncol := cs[0], cs[1], cs[2], cs[3]
	var grid [][]int
	for y := range h {
		row := []int{pathcol}
		for x := range w {
			row = append(row, wallcol)
			if maze[x][y].walls['E'] {
				row = append(row, pathcol)
			} else {
				row = append(row, wallcol)
			}
		}
		grid = append(grid, row)
		row = []int{pathcol}
		for x := range w {
			if maze[x][y].walls['S'] {
				row = append(row, pathcol)
			} else {
				row = append(row, wallcol)
			}
			row = append(row, pathcol)
		}
		grid = append(grid, row)
	}
	// RE-ARC's grid has a first row of pathcol more, dropped again.
	grid = grid[:len(grid)-1]
	gi := make(Grid, len(grid))
	for k, r := range grid {
		gi[k] = append([]int(nil), r[1:len(r)-1]...)
	}
	var objs [][]pt
	for _, o := range objects(gi) {
		if o.color == pathcol && len(o.cells) > 4 {
			objs = append(objs, o.cells)
		}
	}
	if len(objs) == 0 {
		return nil, nil, false
	}
	slices.SortStableFunc(objs, func(a, b []pt) int { return len(a) - len(b) })
	obj := objs[g.unif(0, len(objs)-1)]
	c := choice(g, obj)
	gi = fill(gi, dotcol, []pt{c})
	var nb []pt
	for _, q := range dneighbors(c) {
		if q.i >= 0 && q.i < len(gi) && q.j >= 0 && q.j < len(gi[0]) && gi[q.i][q.j] == pathcol {
			nb = append(nb, q)
		}
	}
	gi = fill(gi, ncol, nb)
	var obj1, obj2 []pt
	for _, q := range obj {
		if (abs(q.i-c.i)+abs(q.j-c.j))%2 == 0 {
			obj1 = append(obj1, q)
		} else {
			obj2 = append(obj2, q)
		}
	}
	gout := fill(fill(gi, dotcol, obj1), ncol, obj2)
	return gi, gout, true
}

// gen90f3ed37 is one try of 90f3ed37 (false where RE-ARC starts over).
func gen90f3ed37(g *gen) (Grid, Grid, bool) {
	cols := without(allColors, 1)
	h, w := g.unif(8, 30), g.unif(8, 30)
	pathh := g.unif(1, max(1, h/4))
	pathh = g.unif(pathh, max(1, h/4))
	lper, rper := g.unif(1, w/7), g.unif(1, w/7)
	hh := g.randint(1, pathh)
	linds, rinds := asindices(canvas(-1, hh, lper)), asindices(canvas(-1, hh, rper))
	lpatsd, rpatsd := g.unif(0, hh*lper/2), g.unif(0, hh*rper/2)
	lpats := choice(g, []int{lpatsd, hh*lper - lpatsd})
	rpats := choice(g, []int{rpatsd, hh*rper - rpatsd})
	lpats, rpats = min(max(lper, lpats), hh*lper), min(max(rper, rpats), hh*rper)
	lpat, rpat := sample(g, linds, lpats), sample(g, rinds, rpats)
	midpatw := g.randint(0, w-2*lper-2*rper)
	var midpat []pt
	if midpatw == 0 || (lper == 1 && hh == 1) {
		midpatw = 0
	} else {
		mi := asindices(canvas(-1, hh, midpatw))
		midpat = sample(g, mi, g.randint(midpatw, hh*midpatw))
	}
	if newDrawSet(lpat).hasAll(shift(midpat, 0, 2*lper-midpatw)) {
		midpat, midpatw = nil, 0
	}
	loci := g.randint(0, h-pathh)
	pat := append(shift(lpat, loci, 0), shift(lpat, loci, lper)...)
	pat = append(pat, shift(midpat, loci, 2*lper)...)
	pat = append(pat, shift(rpat, loci, 2*lper+midpatw)...)
	pat = append(pat, shift(rpat, loci, 2*lper+midpatw+rper)...)
	sp := 2*lper + midpatw + rper
	for k := range w/lper + 1 {
		pat = append(pat, shift(lpat, loci, -k*lper)...)
	}
	for k := range w/rper + 1 {
		pat = append(pat, shift(rpat, loci, sp+k*rper)...)
	}
	pat = dedup(pat)
	patn := shift(pat, -loci, 0)
	bf := sample(g, cols, 2)
	bgc, fgc := bf[0], bf[1]
	gi := fill(canvas(bgc, h, w), fgc, pat)
	drop := func(opts []int, lo, hi int) []int {
		var out []int
		for _, o := range opts {
			if o < lo || o >= hi {
				out = append(out, o)
			}
		}
		return out
	}
	options := drop(interval(0, h-pathh+1), loci-pathh-1, loci+2*pathh)
	nplacements := g.unif(1, max(1, len(options)/pathh))
	gout := copyGrid(gi)
	for range nplacements {
		if len(options) == 0 {
			break
		}
		locii := choice(g, options)
		options = drop(options, locii-pathh-1, locii+2*pathh)
		hoffs := g.randint(0, max(rper, w-sp-2))
		cutoffopts := reversed(interval(2*lper+midpatw, 2*lper+midpatw+hoffs+1))
		cutoff := cutoffopts[g.unif(0, len(cutoffopts)-1)]
		var patnc []pt
		for _, q := range patn {
			if q.j <= cutoff {
				patnc = append(patnc, q)
			}
		}
		gout = fill(gout, 1, shift(patn, locii, hoffs))
		gi = fill(gi, fgc, shift(patnc, locii, hoffs))
		gout = fill(gout, fgc, shift(patnc, locii, hoffs))
	}
	return gi, gout, palette(gout)[1]
}

// gen97a05b5b is 97a05b5b: shapes cut out of coloured patches outside a
// square, and the square with the patches fitted in.
func gen97a05b5b(g *gen) (Grid, Grid) {
	h, w := g.unif(15, 30), g.unif(15, 30)
	sgh, sgw := g.randint(h/3, h/3*2), g.randint(w/3, w/3*2)
	bs := sample(g, allColors, 2)
	bgc, sqc := bs[0], bs[1]
	rem := without(allColors, sqc, bgc)
	gi := canvas(bgc, h, w)
	oh, ow := g.randint(2, sgh/2), g.randint(2, sgw/2)
	nobjs := g.unif(1, 8)
	var objs [][]pt
	forbidden := map[string]bool{}
	cands := asindices(canvas(-1, oh, ow))
	for tr := 0; len(objs) != nobjs && tr < 4*nobjs; {
		tr++
		sp := choice(g, cands)
		f := newFrontier(cands, neighbors)
		f.take(sp)
		obj := []pt{sp}
		for range g.randint(1, oh*ow-1) - 1 {
			q := f.pick(g)
			f.take(q)
			obj = append(obj, q)
		}
		mf := choice(g, []func([]pt) []pt{dmirrorP, cmirrorP, vmirrorP, hmirrorP})
		obj = dedup(append(obj, mf(obj)...))
		if len(obj) == height(obj)*width(obj) {
			continue
		}
		objn := normalize(obj)
		if !forbidden[shapeKey(objn)] {
			objs = append(objs, objn)
		}
		augs := []func([]pt) []pt{identityP, dmirrorP, cmirrorP, hmirrorP, vmirrorP}
		for _, f1 := range augs {
			for _, f2 := range augs {
				forbidden[shapeKey(f1(f2(objn)))] = true
			}
		}
	}
	loci, locj := g.randint(0, h-sgh), g.randint(0, w-sgw)
	gi = fill(gi, sqc, backdrop(pt{loci, locj}, pt{loci + sgh - 1, locj + sgw - 1}))
	gout := canvas(sqc, sgh, sgw)
	goinds := newDrawSet(asindices(gout))
	sq := shift(asindices(gout), loci, locj)
	giinds := newDrawSet(asindices(gi))
	giinds.remove(sq...)
	giinds.remove(neighborsAll(sq)...)
	tfs := []transform{identity, dmirror, vmirror, cmirror, hmirror}
	for tr, succ := 0, 0; succ < nobjs && tr < 5*nobjs && len(objs) > 0; {
		tr++
		oi := g.rng.IntN(len(objs))
		obj := objs[oi]
		col := choice(g, rem)
		subgi := fill(canvas(col, height(obj), width(obj)), sqc, obj)
		if len(palette(subgi)) == 1 {
			continue
		}
		f1, f2 := choice(g, tfs), choice(g, tfs)
		subgo := f1(f2(subgi))
		giobj, goobj := asobject(subgi), asobject(subgo)
		ohi, owi := dims(subgi)
		oho, owo := dims(subgo)
		gocands := goinds.filter(func(p pt) bool { return p.i <= sgh-oho && p.j <= sgw-owo })
		if len(gocands) == 0 {
			continue
		}
		goloc := choice(g, gocands)
		goplcd := shiftC(goobj, goloc.i, goloc.j)
		goplcdi := toindices(goplcd)
		if !goinds.hasAll(goplcdi) {
			continue
		}
		// RE-ARC's column bound here is owi, not w-owi.
		gicands := giinds.filter(func(p pt) bool { return p.i <= h-ohi && p.j <= owi })
		if len(gicands) == 0 {
			continue
		}
		giloc := choice(g, gicands)
		giplcd := shiftC(giobj, giloc.i, giloc.j)
		giplcdi := toindices(giplcd)
		if !giinds.hasAll(giplcdi) {
			continue
		}
		succ++
		rem = without(rem, col)
		objs = append(objs[:oi:oi], objs[oi+1:]...)
		goinds.remove(goplcdi...)
		giinds.remove(giplcdi...)
		giinds.remove(neighborsAll(giplcdi)...)
		gi = paint(gi, giplcd)
		var holes []pt
		for _, c := range goplcd {
			if c.c == sqc {
				holes = append(holes, pt{c.p.i + loci, c.p.j + locj})
			}
		}
		gi = fill(gi, bgc, holes)
		gout = paint(gout, goplcd)
	}
	return gi, gout
}

// gen234bbc79 is 234bbc79: a snake cut into pieces spread apart, and the
// snake joined again.
func gen234bbc79(g *gen) (Grid, Grid) {
	var gi, gout Grid
	var bgc int
	for tries := 0; ; tries++ {
		if tries == 1000 {
			panic("arc: 234bbc79 kept failing")
		}
		h, w := g.unif(5, 30), g.unif(6, 20)
		bd := sample(g, allColors, 2)
		var dotc int
		bgc, dotc = bd[0], bd[1]
		rem := without(allColors, bgc, dotc)
		gout = canvas(bgc, h, 30)
		ccols := sample(g, rem, g.unif(1, 8))
		spi := g.randint(0, h-1)
		snek := []pt{{spi, 0}}
		for range 10000 {
			prev := snek[len(snek)-1]
			if prev.j == w-1 && choice(g, []bool{true, false, false}) {
				break
			}
			var options []pt
			if prev.i < h-1 && gout[prev.i+1][prev.j] == bgc {
				options = append(options, pt{prev.i + 1, prev.j})
			}
			if prev.i > 0 && gout[prev.i-1][prev.j] == bgc {
				options = append(options, pt{prev.i - 1, prev.j})
			}
			if prev.j < w-1 {
				options = append(options, pt{prev.i, prev.j + 1})
			}
			if len(options) == 0 {
				break
			}
			loc := choice(g, options)
			snek = append(snek, loc)
			gout = fill(gout, dotc, []pt{loc})
		}
		var objs [][]pt
		var cobj []pt
		for idx, c := range snek {
			if len(cobj) > 2 && width(cobj) > 1 && snek[idx-1] == (pt{c.i, c.j - 1}) {
				objs = append(objs, cobj)
				cobj = []pt{c}
			} else {
				cobj = append(cobj, c)
			}
		}
		if len(objs) == 0 {
			continue // RE-ARC raises here
		}
		objs[len(objs)-1] = append(objs[len(objs)-1], cobj...)
		if len(objs) < 2 {
			continue
		}
		ntokeep := g.unif(2, len(objs))
		for range len(objs) - ntokeep {
			idx := g.randint(0, len(objs)-2)
			merged := append(append([]pt(nil), objs[idx]...), objs[idx+1]...)
			objs = append(append(append([][]pt(nil), objs[:idx]...), merged), objs[idx+2:]...)
		}
		var inobjs [][]cell
		for idx, obj := range objs {
			col := choice(g, ccols)
			gout = fill(gout, col, obj)
			var in []cell
			for _, c := range dedup(obj[1 : len(obj)-1]) {
				in = append(in, cell{col, c})
			}
			lc, rc := col, col
			if idx > 0 {
				lc = dotc
			}
			if idx < len(objs)-1 {
				rc = dotc
			}
			in = append(in, cell{lc, obj[0]}, cell{rc, obj[len(obj)-1]})
			inobjs = append(inobjs, in)
		}
		spacings := make([]int, len(inobjs)-1)
		for k := range spacings {
			spacings[k] = 1
		}
		fullw := g.unif(w, 30)
		for range fullw - w - len(inobjs) - 1 {
			spacings[g.randint(0, len(spacings)-1)]++
		}
		lsp := append([]int{0}, spacings...)
		gi = canvas(bgc, h, fullw)
		ofs := 0
		for i, obj := range inobjs {
			oi := toindices(obj)
			ul, _ := bounds(oi)
			if i > 0 {
				ul = pt{g.randint(0, h-height(oi)), ofs + lsp[i]}
			}
			ofs += width(oi) + lsp[i]
			gi = paint(gi, shiftC(normalizeC(obj), ul.i, ul.j))
		}
		break
	}
	// ins: the cells of gi not of its most common colour.
	counts := make([]int, 10)
	for _, r := range gi {
		for _, v := range r {
			counts[v]++
		}
	}
	most := 0
	for v, n := range counts {
		if n > counts[most] {
			most = v
		}
	}
	ins := len(gi)*len(gi[0]) - counts[most]
	for len(gout[0]) > 1 {
		go2 := crop(gout, 0, 0, len(gout), len(gout[0])-1)
		n := 0
		for _, r := range go2 {
			for _, v := range r {
				if v != bgc {
					n++
				}
			}
		}
		if n < ins {
			break
		}
		gout = go2
	}
	return gi, gout
}
