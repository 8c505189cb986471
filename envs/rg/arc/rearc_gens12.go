package arc

import (
	"math"
	"slices"
)

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
	{"8e5a5113", func(g *gen) (Grid, Grid) {
		d := g.unif(2, 9)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		num := g.unif(2, ifElse(d < 7, 4, 3))
		barc := choice(g, remcols)
		remcols = without(remcols, barc)
		patcols := sample(g, remcols, g.unif(1, 8))
		bgcanv := canvas(bgc, d, d)
		c := canvas(bgc, d, d)
		for _, p := range sample(g, asindices(c), g.unif(1, d*d-1)) {
			c = fill(c, choice(g, patcols), []pt{p})
		}
		barr := canvas(barc, d, 1)
		fillinidx := choice(g, interval(0, num))
		gi := copyGrid(ifElse(fillinidx == 0, c, bgcanv))
		gout := copyGrid(c)
		for j := range num - 1 {
			c = rot90(c)
			gi = hconcat(hconcat(gi, barr), ifElse(j+1 == fillinidx, c, bgcanv))
			gout = hconcat(hconcat(gout, barr), c)
		}
		if choice(g, []bool{true, false}) {
			return rot90(gi), rot90(gout)
		}
		return gi, gout
	}},
	{"0520fde7", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(2, 30), g.unif(2, 14)
		remcols := without(cols, 0)
		barcol := choice(g, remcols)
		remcols = without(remcols, barcol)
		cola, colb := choice(g, remcols), choice(g, remcols)
		canv := canvas(0, h, w)
		inds := asindices(canv)
		mp := h * w / 2
		deva, devb := g.unif(0, mp), g.unif(0, mp)
		deva *= choice(g, []int{1, -1})
		devb *= choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+deva), 1)
		numb := max(min(h*w-1, mp+devb), 1)
		a, b := sample(g, inds, numa), sample(g, inds, numb)
		gi := hconcat(hconcat(fill(canv, cola, a), canvas(barcol, h, 1)), fill(canv, colb, b))
		sa := toset(a)
		var both []pt
		for _, p := range b {
			if sa[p] {
				both = append(both, p)
			}
		}
		gout := fill(canv, 2, both)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"673ef223", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(5, 30), g.unif(5, 30)
		barh := g.unif(2, (h-1)/2)
		ncells := g.unif(1, barh)
		c3 := sample(g, cols, 3)
		bgc, barc, dotc := c3[0], c3[1], c3[2]
		topsgi := fill(canvas(bgc, barh, w), barc, connect(pt{0, 0}, pt{barh - 1, 0}))
		botsgi := vmirror(topsgi)
		topsgo, botsgo := topsgi, botsgi
		for _, k := range sample(g, interval(0, barh), ncells) {
			jloc := g.randint(2, w-2)
			topsgi = fill(topsgi, dotc, []pt{{k, jloc}})
			topsgo = fill(topsgo, 4, []pt{{k, jloc}})
			topsgo = fill(topsgo, dotc, connect(pt{k, 1}, pt{k, jloc - 1}))
			botsgo = fill(botsgo, dotc, connect(pt{k, 0}, pt{k, w - 2}))
		}
		outpi, outpo := []Grid{topsgi, botsgi}, []Grid{topsgo, botsgo}
		rr := canvas(bgc, 1, w)
		for rows := 2 * barh; rows < h; rows++ {
			idx := g.randint(0, len(outpi)-1)
			outpi = slices.Insert(outpi, idx, rr)
			outpo = slices.Insert(outpo, idx, rr)
		}
		var gi, gout Grid
		for k := range outpi {
			gi, gout = append(gi, copyGrid(outpi[k])...), append(gout, copyGrid(outpo[k])...)
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"cf98881b", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 9)
		c5 := sample(g, allColors, 5)
		bgc, barcol, cola, colb, colc := c5[0], c5[1], c5[2], c5[3], c5[4]
		canv := canvas(bgc, h, w)
		inds := asindices(canv)
		gbar := canvas(barcol, h, 1)
		mp := h * w / 2
		deva, devb, devc := g.unif(0, mp), g.unif(0, mp), g.unif(0, mp)
		deva *= choice(g, []int{1, -1})
		devb *= choice(g, []int{1, -1})
		devc *= choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+deva), 1)
		numb := max(min(h*w-1, mp+devb), 1)
		numc := max(min(h*w-1, mp+devc), 1)
		a, b, c := sample(g, inds, numa), sample(g, inds, numb), sample(g, inds, numc)
		gia, gib, gic := fill(canv, cola, a), fill(canv, colb, b), fill(canv, colc, c)
		gi := hconcat(hconcat(hconcat(gia, gbar), hconcat(gib, gbar)), gic)
		return gi, fill(fill(gic, colb, b), cola, a)
	}},
	{"29623171", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 6), g.unif(2, 6)
		nh, nw := g.unif(2, 4), g.unif(2, 4)
		c3 := sample(g, allColors, 3)
		bgc, linc, fgc := c3[0], c3[1], c3[2]
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		c := canvas(linc, fullh, fullw)
		smallc := canvas(bgc, h, w)
		inds := asindices(smallc)
		var llocs []pt
		for a := 0; a < fullh; a += h + 1 {
			for b := 0; b < fullw; b += w + 1 {
				llocs = append(llocs, pt{a, b})
			}
		}
		srcloc := choice(g, llocs)
		nmostc := g.unif(1, h*w/2-1)
		srcg := fill(smallc, fgc, sample(g, inds, nmostc))
		asobj := func(sg Grid, at pt) []cell {
			var o []cell
			for _, p := range inds {
				o = append(o, cell{sg[p.i][p.j], pt{p.i + at.i, p.j + at.j}})
			}
			return o
		}
		gi := paint(c, asobj(srcg, srcloc))
		gout := fill(c, fgc, shift(inds, srcloc.i, srcloc.j))
		for _, rl := range minus(llocs, []pt{srcloc}) {
			noth := g.unif(0, nmostc)
			otherg := fill(smallc, fgc, sample(g, inds, noth))
			gi = paint(gi, asobj(otherg, rl))
			gout = fill(gout, ifElse(noth == nmostc, fgc, bgc), shift(inds, rl.i, rl.j))
		}
		return gi, gout
	}},
	{"9565186b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		h, w := g.unif(2, 30), g.unif(2, 30)
		wg := canvas(5, h, w)
		numcols := g.unif(2, min(h*w-1, 8))
		mostcol := choice(g, cols)
		lb := h*w/numcols + 1
		ub := h*w - numcols + 1
		nummostcol := min(max(ub-g.unif(0, ub-lb), lb), ub)
		inds := asindices(wg)
		mlocs := sample(g, inds, nummostcol)
		gi := fill(wg, mostcol, mlocs)
		gout := fill(wg, mostcol, mlocs)
		othcols := sample(g, without(cols, mostcol), numcols-1)
		reminds := minus(inds, mlocs)
		buffer := sample(g, reminds, numcols-1)
		for k, c := range othcols {
			gi = fill(gi, c, []pt{buffer[k]})
		}
		reminds = minus(reminds, buffer)
		counts := map[int]int{}
		for _, c := range othcols {
			counts[c] = 1
		}
		for _, p := range reminds {
			if len(othcols) == 0 {
				gi = fill(gi, mostcol, []pt{p})
				gout = fill(gout, mostcol, []pt{p})
				continue
			}
			chc := choice(g, othcols)
			gi = fill(gi, chc, []pt{p})
			counts[chc]++
			if counts[chc] == nummostcol-1 {
				othcols = without(othcols, chc)
			}
		}
		return gi, gout
	}},
	{"e26a3af2", func(g *gen) (Grid, Grid) {
		nr := g.unif(1, 10)
		w := g.unif(4, 30)
		scols := sample(g, allColors, nr)
		sgs := make([]Grid, nr)
		for k, col := range scols {
			sgs[k] = canvas(col, 2, w)
		}
		// RE-ARC allows 30-nr extra rows, up to 30+nr in all; Quarry keeps
		// the draw and stops at 30 rows.
		numexp := min(g.unif(0, 30-nr), 30-2*nr)
		for range numexp {
			idx := g.randint(0, nr-1)
			sgs[idx] = append(sgs[idx], append([]int(nil), sgs[idx][len(sgs[idx])-1]...))
		}
		var gi, gout Grid
		for idx, col := range scols {
			sg := sgs[idx]
			a, b := dims(sg)
			noise := sample(g, asindices(sg), g.unif(0, a*b/2-1))
			sg2 := paint(sg, withColors(noise, without(allColors, col), g))
			for _, r := range []int{0, a - 1} {
				for {
					var locs []int
					for j, e := range sg2[r] {
						if e != col {
							locs = append(locs, j)
						}
					}
					if w-len(locs) >= w/2 {
						break
					}
					sg2[r][choice(g, locs)] = col
				}
			}
			gi = append(gi, sg2...)
			gout = append(gout, copyGrid(sg)...)
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"6cdd2623", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		linc := choice(g, remcols)
		remcols = without(remcols, linc)
		nnoisecols := g.unif(1, 7)
		noisecols := sample(g, remcols, nnoisecols)
		c := canvas(bgc, h, w)
		ininds := shift(asindices(canvas(-1, h-2, w-1)), 1, 1)
		fixinds := sample(g, ininds, nnoisecols)
		fixobj := make([]cell, nnoisecols)
		for k := range fixobj {
			fixobj[k] = cell{noisecols[k], fixinds[k]}
		}
		gi, gout := paint(c, fixobj), c
		nnoise := g.unif(1, (h*w-nnoisecols)/3)
		noise := sample(g, minus(asindices(c), fixinds), nnoise)
		gi = paint(gi, withColors(noise, remcols, g))
		ab := sample(g, []int{0, 1}, 2)
		nilocs := g.unif(ab[0], (h-2)/2)
		njlocs := g.unif(ab[1], (w-2)/2)
		ilocs := sample(g, interval(1, h-1), nilocs)
		jlocs := sample(g, interval(1, w-1), njlocs)
		for _, ii := range ilocs {
			gi = fill(gi, linc, []pt{{ii, 0}, {ii, w - 1}})
			gout = fill(gout, linc, connect(pt{ii, 0}, pt{ii, w - 1}))
		}
		for _, jj := range jlocs {
			gi = fill(gi, linc, []pt{{0, jj}, {h - 1, jj}})
			gout = fill(gout, linc, connect(pt{0, jj}, pt{h - 1, jj}))
		}
		return gi, gout
	}},
	{"ae4f1146", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		h, w := g.unif(6, 30), g.unif(6, 30)
		dh, dw := g.unif(2, h/3), g.unif(2, w/3)
		num := g.unif(1, h*w/(2*dh*dw))
		cards := interval(0, dh*dw)
		ccards := sample(g, cards, min(num, len(cards)))
		slices.Sort(ccards)
		c1 := canvas(fgc, dh, dw)
		inds := asindices(c1)
		var sgs []Grid
		for _, card := range ccards {
			sgs = append(sgs, fill(c1, 1, sample(g, inds, card)))
		}
		gout := copyGrid(sgs[len(sgs)-1])
		gi := canvas(bgc, h, w)
		inds2 := toset(asindices(canvas(bgc, h-dh, w-dw)))
		fits := func(loc pt) bool {
			for _, p := range inds {
				if !inds2[pt{p.i + loc.i, p.j + loc.j}] {
					return false
				}
			}
			return true
		}
		const maxtr = 10
		for k := len(sgs) - 1; k >= 0; k-- {
			if len(inds2) == 0 {
				break
			}
			pick := func() pt {
				var cands []pt
				for _, p := range asindices(canvas(bgc, h-dh, w-dw)) {
					if inds2[p] {
						cands = append(cands, p)
					}
				}
				return choice(g, cands)
			}
			loc := pick()
			tr := 0
			for !fits(loc) && tr < maxtr {
				loc = pick()
				tr++
			}
			if tr < maxtr {
				plcd := shift(inds, loc.i, loc.j)
				for _, p := range append(plcd, outbox(plcd[0], plcd[len(plcd)-1])...) {
					delete(inds2, p)
				}
				var obj []cell
				for _, p := range inds {
					obj = append(obj, cell{sgs[k][p.i][p.j], pt{p.i + loc.i, p.j + loc.j}})
				}
				gi = paint(gi, obj)
			}
		}
		return gi, gout
	}},
	{"6b9890af", func(g *gen) (Grid, Grid) {
		oh, ow := g.unif(2, 5), g.unif(2, 5)
		h, w := g.unif(2*oh+2, 30), g.unif(2*ow+2, 30)
		bnds := asindices(canvas(-1, oh, ow))
		shp := []pt{choice(g, bnds)}
		for range oh * ow {
			ul, lr := bounds(shp)
			if lr.i-ul.i+1 == oh && lr.j-ul.j+1 == ow {
				break
			}
			in := toset(shp)
			var cands []pt
			for _, p := range bnds {
				if in[p] {
					continue
				}
				for _, q := range neighbors(p) {
					if in[q] {
						cands = append(cands, p)
						break
					}
				}
			}
			shp = append(shp, choice(g, cands))
		}
		maxfac := 1
		for oh*maxfac+2 <= h-oh && ow*maxfac+2 <= w-ow {
			maxfac++
		}
		fac := g.unif(1, maxfac-1)
		bs := sample(g, allColors, 2)
		bgc, sqc := bs[0], bs[1]
		ccols := sample(g, without(allColors, bgc, sqc), g.unif(1, 8))
		obj := withColors(shp, ccols, g)
		sq := box([]pt{{0, 0}, {oh*fac + 1, ow*fac + 1}})
		loci := g.randint(0, h-(oh*fac+2)-oh)
		locj := g.randint(0, w-(ow*fac+2))
		gi := fill(canvas(bgc, h, w), sqc, shift(sq, loci, locj))
		loci = g.randint(loci+oh*fac+2, h-oh)
		locj = g.randint(0, w-ow)
		objp := make([]cell, len(obj))
		for k, c := range obj {
			objp[k] = cell{c.c, pt{c.p.i + loci, c.p.j + locj}}
		}
		gi = paint(gi, objp)
		gout := fill(canvas(bgc, oh*fac+2, ow*fac+2), sqc, sq)
		up := upscale(paint(canvas(bgc, oh, ow), obj), fac)
		var upo []cell
		for _, p := range asindices(up) {
			upo = append(upo, cell{up[p.i][p.j], pt{p.i + 1, p.j + 1}})
		}
		gout = paint(gout, upo)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"e179c5f4", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		w := g.unif(2, 10)
		h := g.unif(w+1, 30)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		sp := pt{h - 1, 0}
		gi := fill(canvas(bgc, h, w), linc, []pt{sp})
		gout := gi
		direc := 1
		for sp.i >= 0 {
			sp = pt{sp.i - 1, sp.j + direc}
			if sp.j == w-1 || sp.j == 0 {
				direc = -direc
			}
			gout = fill(gout, linc, []pt{sp})
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		gix, gox := gi, gout
		numlins := g.unif(1, 4)
		if numlins > 1 {
			gi = fill(gi, linc, ofcolor(hmirror(gix), linc))
			gout = fill(gout, linc, ofcolor(hmirror(gox), linc))
		}
		if numlins > 2 {
			gi = fill(gi, linc, ofcolor(vmirror(gix), linc))
			gout = fill(gout, linc, ofcolor(vmirror(gox), linc))
		}
		if numlins > 3 {
			gi = fill(gi, linc, ofcolor(hmirror(vmirror(gix)), linc))
			gout = fill(gout, linc, ofcolor(hmirror(vmirror(gox)), linc))
		}
		return gi, replace(gout, bgc, 8)
	}},
	{"9dfd6313", func(g *gen) (Grid, Grid) {
		dh := g.unif(1, 14)
		d := 2*dh + 1
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		linc := choice(g, remcols)
		remcols = without(remcols, linc)
		gi := canvas(bgc, d, d)
		var ln []pt
		var mirrf transform
		var keep func(p pt) bool
		switch g.randint(1, 4) {
		case 1:
			ln, mirrf, keep = connect(pt{dh, 0}, pt{dh, d - 1}), hmirror, func(p pt) bool { return p.i > dh }
		case 2:
			ln, mirrf, keep = connect(pt{0, dh}, pt{d - 1, dh}), vmirror, func(p pt) bool { return p.j > dh }
		case 3:
			ln, mirrf, keep = connect(pt{0, 0}, pt{d - 1, d - 1}), dmirror, func(p pt) bool { return p.i > p.j }
		default:
			ln, mirrf, keep = connect(pt{d - 1, 0}, pt{0, d - 1}), cmirror, func(p pt) bool { return p.i+p.j > d }
		}
		var cands []pt
		for _, p := range asindices(gi) {
			if keep(p) {
				cands = append(cands, p)
			}
		}
		gi = fill(gi, linc, ln)
		colsch := sample(g, remcols, g.unif(1, min(7, d*(d-1)/2)))
		for _, p := range sample(g, cands, g.unif(1, len(cands))) {
			gi = fill(gi, choice(g, colsch), []pt{p})
		}
		gout := mirrf(gi)
		if choice(g, []bool{true, false}) {
			return gout, gi
		}
		return gi, gout
	}},
	{"d9fac9be", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		c3 := sample(g, allColors, 3)
		bgc, noisec, ringc := c3[0], c3[1], c3[2]
		gi := canvas(bgc, h, w)
		nnoise1 := g.unif(1, h*w/3-1)
		nnoise2 := g.unif(1, max(1, h*w/3-9))
		inds := asindices(gi)
		noise1 := sample(g, inds, nnoise1)
		noise2 := sample(g, minus(inds, noise1), nnoise2)
		gi = fill(fill(gi, noisec, noise1), ringc, noise2)
		ring := neighbors(pt{1, 1})
		occ1 := occurrences(gi, recolor(noisec, ring))
		occ2 := occurrences(gi, recolor(ringc, ring))
		for _, o := range occ1 {
			loc := choice(g, shift(ring, o.i, o.j))
			gi = fill(gi, choice(g, []int{bgc, ringc}), []pt{loc})
		}
		for _, o := range occ2 {
			loc := choice(g, shift(ring, o.i, o.j))
			gi = fill(gi, choice(g, []int{bgc, noisec}), []pt{loc})
		}
		loci, locj := g.randint(0, h-3), g.randint(0, w-3)
		gi = fill(gi, ringc, shift(ring, loci, locj))
		gi = fill(gi, noisec, []pt{{loci + 1, locj + 1}})
		return gi, canvas(noisec, 1, 1)
	}},
	{"dc433765", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(4, 30), g.unif(4, 30)
		bs := sample(g, cols, 2)
		bgc, src := bs[0], bs[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		if choice(g, []bool{true, false}) {
			var starts []pt
			for ii := range h - 2 {
				starts = append(starts, pt{ii, 0})
			}
			for jj := 1; jj < w-2; jj++ {
				starts = append(starts, pt{0, jj})
			}
			var opts [][]pt
			for _, s := range starts {
				var ln []pt
				for k := 0; s.i+k < h && s.j+k < w; k++ {
					ln = append(ln, pt{s.i + k, s.j + k})
				}
				opts = append(opts, ln)
			}
			slices.SortStableFunc(opts, func(a, b []pt) int { return len(a) - len(b) })
			ln := opts[g.unif(0, len(opts)-1)]
			epi := g.unif(2, len(ln)-1)
			ep := ln[epi]
			before := reversed2(ln[:epi-1])
			sp := before[g.unif(0, len(before)-1)]
			gi = fill(fill(gi, src, []pt{sp}), 4, []pt{ep})
			gout = fill(fill(gout, src, []pt{{sp.i + 1, sp.j + 1}}), 4, []pt{ep})
		} else {
			loci := g.randint(0, h-1)
			objw := g.unif(3, w)
			locj1 := g.randint(0, w-objw)
			locj2 := locj1 + objw - 1
			gi = fill(fill(gi, src, []pt{{loci, locj1}}), 4, []pt{{loci, locj2}})
			gout = fill(fill(gout, src, []pt{{loci, locj1 + 1}}), 4, []pt{{loci, locj2}})
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"6455b5f5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 8)
		var gi Grid
		var objs []object
		var smin, smax int
		for try := 0; try < 1000; try++ {
			h, w := g.unif(6, 30), g.unif(6, 30)
			bgc := choice(g, cols)
			fgc := choice(g, without(cols, bgc))
			gi = canvas(bgc, h, w)
			num := g.unif(1, int(math.Sqrt(float64(h*w))*1.5))
			bgObjs := func() []object {
				var os []object
				for _, o := range objectsDiag(gi) {
					if o.color == bgc {
						os = append(os, o)
					}
				}
				return os
			}
			for range num {
				var elig []object
				for _, o := range bgObjs() {
					ul, lr := bounds(o.cells)
					if lr.i-ul.i+1 > 2 || lr.j-ul.j+1 > 2 {
						elig = append(elig, o)
					}
				}
				if len(elig) == 0 {
					break
				}
				var ro object
				if choice(g, []bool{true, false}) {
					ro = elig[0]
					for _, o := range elig[1:] {
						if len(o.cells) > len(ro.cells) {
							ro = o
						}
					}
				} else {
					ro = choice(g, elig)
				}
				ul, lr := bounds(ro.cells)
				oh, ow := lr.i-ul.i+1, lr.j-ul.j+1
				var vfr bool
				if choice(g, []bool{true, false}) {
					vfr = oh < ow
				} else {
					vfr = choice(g, []bool{true, false})
				}
				if vfr && ow < 3 {
					vfr = false
				}
				if !vfr && oh < 3 {
					vfr = true
				}
				var ln []pt
				if vfr {
					j := g.randint(ul.j+1, lr.j-1)
					ln = connect(pt{ul.i, j}, pt{lr.i, j})
				} else {
					i := g.randint(ul.i+1, lr.i-1)
					ln = connect(pt{i, ul.j}, pt{i, lr.j})
				}
				gi = fill(gi, fgc, ln)
			}
			objs = bgObjs()
			smin, smax = len(objs[0].cells), len(objs[0].cells)
			for _, o := range objs {
				smin, smax = min(smin, len(o.cells)), max(smax, len(o.cells))
			}
			if smin != smax {
				break
			}
		}
		gout := gi
		for _, o := range objs {
			if len(o.cells) == smin {
				gout = fill(gout, 8, o.cells)
			}
		}
		for _, o := range objs {
			if len(o.cells) == smax {
				gout = fill(gout, 1, o.cells)
			}
		}
		return gi, gout
	}},
	{"150deff5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 8)
		bo := []pt{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
		ro1 := []pt{{0, 0}, {0, 1}, {0, 2}}
		ro2 := []pt{{0, 0}, {1, 0}, {2, 0}}
		boforb, reforb := map[pt]bool{}, map[pt]bool{}
		h, w := g.unif(8, 30), g.unif(8, 30)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		noccs := g.unif(2, h*w/10)
		inds := toset(asindices(gi))
		type shp struct {
			obj []pt
			col int
			ro1 bool
		}
		for range noccs {
			isRo1 := choice(g, []bool{true, false})
			s := choice(g, []shp{{bo, 8, false}, {ifElse(isRo1, ro1, ro2), 2, isRo1}})
			_, lr := bounds(s.obj)
			oh, ow := lr.i+1, lr.j+1
			forb := ifElse(s.col == 8, boforb, reforb)
			var cands []pt
			for _, p := range asindices(gi) {
				if p.i > h-oh || p.j > w-ow || !inds[p] || forb[p] {
					continue
				}
				ok := true
				for _, q := range shift(s.obj, p.i, p.j) {
					if !inds[q] {
						ok = false
						break
					}
				}
				if ok {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			switch {
			case s.col == 8:
				for _, d := range []pt{{-2, 0}, {2, 0}, {0, 2}, {0, -2}} {
					boforb[pt{loc.i + d.i, loc.j + d.j}] = true
				}
			case s.ro1:
				reforb[pt{loc.i, loc.j + 3}], reforb[pt{loc.i, loc.j - 3}] = true, true
			default:
				reforb[pt{loc.i + 1, loc.j}], reforb[pt{loc.i - 1, loc.j}] = true, true
			}
			plcd := shift(s.obj, loc.i, loc.j)
			gi = fill(gi, fgc, plcd)
			gout = fill(gout, s.col, plcd)
			for _, p := range plcd {
				delete(inds, p)
			}
		}
		return gi, gout
	}},
	{"3bdb4ada", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 8)
		indss := toset(asindices(gi))
		maxtrials := 4 * num
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
			if len(remcols) == 0 || len(indss) == 0 {
				break
			}
			var oh, ow int
			if choice(g, []bool{true, false}) {
				oh, ow = 3, g.unif(1, max(1, w/2-1))*2+1
			} else {
				oh, ow = g.unif(1, max(1, h/2-1))*2+1, 3
			}
			var subs []pt
			for _, p := range asindices(gi) {
				if indss[p] && p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			col := choice(g, remcols)
			ok := true
			for _, p := range bd {
				if !indss[p] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			remcols = without(remcols, col)
			gi, gout = fill(gi, col, bd), fill(gout, col, bd)
			var ln []pt
			if oh == 3 {
				for j := l.j + 1; j < l.j+ow; j += 2 {
					ln = append(ln, pt{l.i + 1, j})
				}
			} else {
				for i := l.i + 1; i < l.i+oh; i += 2 {
					ln = append(ln, pt{i, l.j + 1})
				}
			}
			gout = fill(gout, bgc, ln)
			succ++
			for _, p := range bd {
				delete(indss, p)
			}
		}
		return gi, gout
	}},
	{"846bdb03", func(g *gen) (Grid, Grid) {
		h, w := g.unif(12, 30), g.unif(12, 30)
		oh, ow := g.unif(4, h/2-2), g.unif(4, w/2-2)
		c4 := sample(g, allColors, 4)
		bgc, dotc, c1, c2 := c4[0], c4[1], c4[2], c4[3]
		gi := canvas(bgc, h, w)
		gout := canvas(bgc, oh, ow)
		gout = fill(gout, c1, connect(pt{1, 0}, pt{oh - 2, 0}))
		gout = fill(gout, c2, connect(pt{1, ow - 1}, pt{oh - 2, ow - 1}))
		gout = fill(gout, dotc, []pt{{0, 0}, {0, ow - 1}, {oh - 1, 0}, {oh - 1, ow - 1}})
		bnds := asindices(canvas(-1, oh-2, ow-2))
		ncells := g.unif(1, (oh-2)*(ow-2)/2)
		objA := []pt{choice(g, bnds)}
		addOne := func() {
			in := toset(objA)
			var cands []pt
			for _, p := range bnds {
				if in[p] {
					continue
				}
				for _, q := range neighbors(p) {
					if in[q] {
						cands = append(cands, p)
						break
					}
				}
			}
			objA = append(objA, choice(g, cands))
		}
		for range ncells - 1 {
			addOne()
		}
		for range len(bnds) {
			ul, lr := bounds(objA)
			if lr.i-ul.i+1 == oh-2 && lr.j-ul.j+1 == ow-2 {
				break
			}
			addOne()
		}
		loci, locj := g.randint(0, h-2*oh+2), g.randint(0, w-ow)
		var plcdB []cell
		for _, p := range asindices(gout) {
			plcdB = append(plcdB, cell{gout[p.i][p.j], pt{p.i + loci, p.j + locj}})
		}
		var rems []pt
		for _, p := range asindices(gi) {
			inB := p.i >= loci && p.i < loci+oh && p.j >= locj && p.j < locj+ow
			if !inB && loci+oh <= p.i && p.i <= h-oh+2 && p.j <= w-ow+2 {
				rems = append(rems, p)
			}
		}
		loc := choice(g, rems)
		plcdA := shift(objA, loc.i, loc.j)
		ul, lr := bounds(plcdA)
		mp := ul.j + (lr.j-ul.j+1)/2
		var objAc []cell
		for _, p := range plcdA {
			objAc = append(objAc, cell{ifElse(p.j < mp, c1, c2), p})
		}
		gi = paint(gi, plcdB)
		if choice(g, []bool{true, false}) {
			mir := make([]cell, len(objAc))
			for k, c := range objAc {
				mir[k] = cell{c.c, pt{c.p.i, ul.j + lr.j - c.p.j}}
			}
			gi = paint(gi, mir)
		} else {
			gi = paint(gi, objAc)
		}
		for k := range objAc {
			objAc[k].p = pt{objAc[k].p.i - ul.i + 1, objAc[k].p.j - ul.j + 1}
		}
		gout = paint(gout, objAc)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"1f642eb9", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		ih := g.unif(2, min(h-4, 2*(h/3)))
		iw := g.unif(2, min(w-4, 2*(w/3)))
		loci, locj := g.randint(2, h-ih-2), g.randint(2, w-iw-2)
		bs := sample(g, allColors, 2)
		bgc, sqc := bs[0], bs[1]
		remcols := without(allColors, bgc, sqc)
		numcells := g.unif(1, 2*ih+2*iw-4)
		b2i := func(b bool) int { return ifElse(b, 1, 0) }
		c1, c2, c3, c4 := b2i(choice(g, []bool{true, false})), b2i(choice(g, []bool{true, false})), b2i(choice(g, []bool{true, false})), b2i(choice(g, []bool{true, false}))
		var outs, ins []pt
		for a := loci + 1 - c1; a < loci+ih-(1-c2); a++ {
			outs, ins = append(outs, pt{a, 0}), append(ins, pt{a, locj})
		}
		for a := loci + 1 - c3; a < loci+ih-(1-c4); a++ {
			outs, ins = append(outs, pt{a, w - 1}), append(ins, pt{a, locj + iw - 1})
		}
		for b := locj + c1; b < locj+iw-c3; b++ {
			outs, ins = append(outs, pt{0, b}), append(ins, pt{loci, b})
		}
		for b := locj + c2; b < locj+iw-c4; b++ {
			outs, ins = append(outs, pt{h - 1, b}), append(ins, pt{loci + ih - 1, b})
		}
		locs := sample(g, interval(0, 2*ih+2*iw-4), numcells)
		ccols := sample(g, remcols, g.unif(1, 8))
		var fo, fin []pt
		for j := range outs {
			if contains(locs, j) {
				fo, fin = append(fo, outs[j]), append(fin, ins[j])
			}
		}
		gi := fill(canvas(bgc, h, w), sqc, backdrop(pt{loci, locj}, pt{loci + ih - 1, locj + iw - 1}))
		seq := make([]int, numcells)
		for k := range seq {
			seq[k] = choice(g, ccols)
		}
		for k, p := range fo {
			gi = fill(gi, seq[k], []pt{p})
		}
		gout := gi
		for k, p := range fin {
			gout = fill(gout, seq[k], []pt{p})
		}
		return gi, gout
	}},
	{"ddf7fa4f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		nocc := g.unif(1, min(w/3, h*w/36))
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := map[pt]bool{}
		for _, p := range asindices(gi) {
			if p.i > 1 {
				inds[p] = true
			}
		}
		for succ, tr := 0, 0; succ < nocc && tr < 10*nocc; {
			tr++
			oh, ow := g.randint(2, 7), g.randint(2, 7)
			jok := make([]bool, w)
			for j := range w {
				has := false
				cant := false
				for jj := j; jj < j+ow && jj < w; jj++ {
					if gi[0][jj] == bgc {
						has = true
					} else {
						cant = true
					}
				}
				jok[j] = has && !cant
			}
			var cands []pt
			for _, p := range asindices(gi) {
				if inds[p] && p.i <= h-oh && p.j <= w-ow && jok[p.j] {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			l := choice(g, cands)
			var tops []int
			for jj := l.j; jj < l.j+ow; jj++ {
				if jj < w && gi[0][jj] == bgc {
					tops = append(tops, jj)
				}
			}
			locat := choice(g, tops)
			sq := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			ok := true
			for _, p := range sq {
				if !inds[p] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			succ++
			for _, p := range sq {
				delete(inds, p)
				for _, q := range dneighbors(p) {
					delete(inds, q)
				}
			}
			col := choice(g, remcols)
			gr := choice(g, without(remcols, col))
			gi = fill(gi, col, []pt{{0, locat}})
			gout = fill(gout, col, []pt{{0, locat}})
			gi, gout = fill(gi, gr, sq), fill(gout, col, sq)
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"5117e062", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		nobjs := g.unif(2, h*w/15)
		maxtr := 4 * nobjs
		done := false
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		gi := canvas(bgc, h, w)
		var gout Grid
		inds := toset(asindices(gi))
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
				coll := choice(g, remcols)
				coll2 := choice(g, without(remcols, coll))
				obj = append(recolor(coll2, minus(shp, []pt{idx})), cell{coll, idx})
				n := normalize(shp)
				_, lr := bounds(n)
				gout = fill(canvas(bgc, lr.i+1, lr.j+1), coll2, n)
			} else {
				obj = recolor(choice(g, remcols), shp)
			}
			var locopts []pt
			for _, p := range asindices(gi) {
				if inds[p] && p.i <= h-oh && p.j <= w-ow {
					locopts = append(locopts, p)
				}
			}
			tr++
			if len(locopts) == 0 {
				continue
			}
			loc := choice(g, locopts)
			ok := true
			for _, c := range obj {
				if !inds[pt{c.p.i + loc.i, c.p.j + loc.j}] {
					ok = false
					break
				}
			}
			if ok {
				plcd := make([]cell, len(obj))
				for k, c := range obj {
					plcd[k] = cell{c.c, pt{c.p.i + loc.i, c.p.j + loc.j}}
					delete(inds, plcd[k].p)
					for _, q := range neighbors(plcd[k].p) {
						delete(inds, q)
					}
				}
				gi = paint(gi, plcd)
				succ++
			}
		}
		return gi, gout
	}},
	{"60b61512", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 7)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 8))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, h*w/20)
		indss := toset(asindices(gi))
		maxtrials := 4 * num
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
			if len(indss) == 0 {
				break
			}
			oh, ow := g.randint(2, 7), g.randint(2, 7)
			var subs []pt
			for _, p := range asindices(gi) {
				if indss[p] && p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			box0 := asindices(canvas(-1, oh, ow))
			chch := choice(g, box0)
			numcd := g.unif(0, oh*ow/2)
			numc := choice(g, []int{numcd, oh*ow - numcd})
			numc = min(max(2, numc), oh*ow-1)
			shp := grow(g, minus(box0, []pt{chch}), []pt{chch}, numc)
			obj := shift(shp, l.i, l.j)
			ul, lr := bounds(obj)
			bd := backdrop(ul, lr)
			col := choice(g, ccols)
			ok := true
			for _, p := range bd {
				if !indss[p] {
					ok = false
					break
				}
			}
			if ok {
				gi = fill(gi, col, obj)
				gout = fill(fill(gout, 7, bd), col, obj)
				succ++
				for _, p := range append(bd, outbox(ul, lr)...) {
					delete(indss, p)
				}
			}
		}
		return gi, gout
	}},
	{"6aa20dc0", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		od := g.unif(2, 4)
		ncellsextra := g.randint(1, max(1, (od*od-2)/2))
		sinds := asindices(canvas(-1, od, od))
		extra := sample(g, minus(sinds, []pt{{0, 0}, {od - 1, od - 1}}), ncellsextra)
		extra = append(extra, choice(g, []pt{{0, 1}, {1, 0}}))
		extra = append(extra, choice(g, []pt{{od - 2, od - 1}, {od - 1, od - 2}}))
		c4 := sample(g, allColors, 4)
		bgc, fgc, c1, c2 := c4[0], c4[1], c4[2], c4[3]
		og := canvas(-1, od, od)
		og = fill(og, fgc, extra)
		og = fill(og, c1, []pt{{0, 0}})
		og = fill(og, c2, []pt{{od - 1, od - 1}})
		og = paint(og, func() []cell {
			var cs []cell
			for _, p := range asindices(og) {
				if og[p.i][p.j] != -1 {
					cs = append(cs, cell{og[p.i][p.j], pt{p.j, p.i}})
				}
			}
			return cs
		}())
		if choice(g, []bool{true, false}) {
			og = hmirror(og)
		}
		cellsOf := func(x Grid, at pt) []cell {
			var cs []cell
			for _, p := range asindices(x) {
				if x[p.i][p.j] != -1 {
					cs = append(cs, cell{x[p.i][p.j], pt{p.i + at.i, p.j + at.j}})
				}
			}
			return cs
		}
		gi := canvas(bgc, h, w)
		loci, locj := g.randint(0, h-od), g.randint(0, w-od)
		gi = paint(gi, cellsOf(og, pt{loci, locj}))
		gout := gi
		inds := toset(asindices(gi))
		clear := func(i0, j0, i1, j1 int) {
			for _, p := range backdrop(pt{i0 - 1, j0 - 1}, pt{i1 + 1, j1 + 1}) {
				delete(inds, p)
			}
		}
		clear(loci, locj, loci+od-1, locj+od-1)
		nocc := g.unif(1, max(1, h*w/(od*od*2)))
		mfs := []transform{identity, dmirror, vmirror, cmirror, hmirror}
		for succ, tr := 0, 0; succ < nocc && tr < 4*nocc; {
			tr++
			fac := g.randint(1, 4)
			mf1, mf2 := choice(g, mfs), choice(g, mfs)
			cobj := upscale(mf2(mf1(og)), fac)
			ohx, owx := dims(cobj)
			var cands []pt
			for _, p := range asindices(gi) {
				if inds[p] && p.i <= h-ohx && p.j <= w-owx {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			locc := choice(g, cands)
			cobjo := cellsOf(cobj, locc)
			ok := true
			for _, c := range cobjo {
				if !inds[c.p] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			succ++
			var ps []pt
			var cobji []cell
			for _, c := range cobjo {
				ps = append(ps, c.p)
				if c.c != fgc {
					cobji = append(cobji, c)
				}
			}
			ul, lr := bounds(ps)
			clear(ul.i, ul.j, lr.i, lr.j)
			gi, gout = paint(gi, cobji), paint(gout, cobjo)
		}
		return gi, gout
	}},
	{"e50d258f", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		remcols := without(cols, bgc)
		padcol := choice(g, remcols)
		remcols = without(remcols, padcol)
		gi := canvas(bgc, h, w)
		var gout Grid
		num := g.unif(1, 10)
		indss := toset(asindices(gi))
		maxtrials := 4 * num
		bound := 0
		for tr, succ := 0, 0; succ < num && tr <= maxtrials; tr++ {
			if len(remcols) == 0 || len(indss) == 0 {
				break
			}
			oh, ow := g.randint(3, 8), g.randint(3, 8)
			var subs []pt
			for _, p := range asindices(gi) {
				if indss[p] && p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			ok := true
			for _, p := range bd {
				if !indss[p] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			ccols := sample(g, remcols, g.unif(1, 7))
			var numred int
			if succ == 0 {
				numred = g.unif(1, oh*ow)
				bound = numred
			} else {
				numred = g.unif(0, min(oh*ow, bound-1))
			}
			cc := canvas(choice(g, ccols), oh, ow)
			cci := asindices(cc)
			reds := sample(g, cci, numred)
			obj := append(withColors(minus(cci, reds), ccols, g), recolor(2, reds)...)
			gi = paint(gi, func() []cell {
				cs := make([]cell, len(obj))
				for k, c := range obj {
					cs[k] = cell{c.c, pt{c.p.i + l.i, c.p.j + l.j}}
				}
				return cs
			}())
			if gout == nil {
				gout = paint(cc, obj)
			}
			succ++
			for _, p := range append(bd, outbox(l, lr)...) {
				delete(indss, p)
			}
		}
		return gi, gout
	}},
	{"d9f24cd1", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		linc := choice(g, remcols)
		remcols = without(remcols, linc)
		dotc := choice(g, remcols)
		maxnloc := (w - 2) / 2
		spaced := func(n int) []int {
			opts := interval(1, w-1)
			var locs []int
			for range n {
				if len(opts) == 0 {
					break
				}
				l := choice(g, opts)
				opts = without(opts, l, l-1, l+1)
				locs = append(locs, l)
			}
			return locs
		}
		locs := spaced(g.unif(1, maxnloc))
		dotlocs := spaced(g.unif(1, maxnloc))
		gi := canvas(bgc, h, w)
		for _, l := range locs {
			gi = fill(gi, linc, []pt{{h - 1, l}})
		}
		dotrows := make([]int, len(dotlocs))
		for k, l := range dotlocs {
			dotrows[k] = g.randint(1, h-2)
			gi = fill(gi, dotc, []pt{{dotrows[k], l}})
		}
		gout := gi
		for _, l := range locs {
			if k := slices.Index(dotlocs, l); k >= 0 {
				jj := dotrows[k]
				gout = fill(gout, linc, connect(pt{h - 1, l}, pt{jj + 1, l}))
				gout = fill(gout, linc, connect(pt{jj + 1, l + 1}, pt{0, l + 1}))
			} else {
				gout = fill(gout, linc, connect(pt{h - 1, l}, pt{0, l}))
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"0dfd9992", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		hp, wp := g.unif(2, h/2-1), g.unif(2, w/2-1)
		bn := sample(g, allColors, 2)
		bgc, noisec := bn[0], bn[1]
		ccols := sample(g, without(allColors, noisec), g.unif(2, 9))
		pat := canvas(-1, hp, wp)
		pat = paint(pat, withColors(asindices(pat), ccols, g))
		gout := canvas(bgc, h, w)
		var locs []pt
		for a := range h/hp + 1 {
			for b := range w/wp + 1 {
				locs = append(locs, pt{hp * a, wp * b})
				t := pat
				if b%2 == 1 {
					t = vmirror(t)
				}
				if a%2 == 1 {
					t = hmirror(t)
				}
				var cs []cell
				for _, p := range asindices(t) {
					cs = append(cs, cell{t[p.i][p.j], pt{p.i + hp*a, p.j + wp*b}})
				}
				gout = paint(gout, cs)
			}
		}
		numpatches := g.unif(1, int(math.Sqrt(float64(h*w)))/2)
		gi := gout
		clean := func(rows Grid) int {
			n := 0
			for _, r := range rows {
				if !contains(r, noisec) {
					n++
				}
			}
			return n
		}
		for succ, tr := 0, 0; succ < numpatches && tr < 5*numpatches; {
			tr++
			ph, pw := g.randint(2, 6), g.randint(2, 6)
			loci, locj := g.randint(0, h-ph), g.randint(0, w-pw)
			gi2 := fill(gi, noisec, backdrop(pt{loci, locj}, pt{loci + ph - 1, locj + pw - 1}))
			whole := false
			for _, l := range locs {
				if l.i+hp > h || l.j+wp > w {
					continue
				}
				if clean(crop(gi2, l.i, l.j, hp, wp)) == hp {
					whole = true
					break
				}
			}
			if clean(gi2) >= 2 && clean(dmirror(gi2)) >= 2 && whole {
				succ++
				gi = gi2
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"c8cbb738", func(g *gen) (Grid, Grid) {
		gh, gw := g.unif(3, 10), g.unif(3, 10)
		h, w := g.unif(2*gh, 30), g.unif(2*gw, 30)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		gi := canvas(bgc, h, w)
		gout := canvas(bgc, gh, gw)
		crns := []pt{{0, 0}, {0, gw - 1}, {gh - 1, 0}, {gh - 1, gw - 1}}
		remring := minus(dedup(box(asindices(gout))), crns)
		nrr := len(remring)
		sc := ccols[0]
		gout = fill(gout, sc, crns)
		loci, locj := g.randint(0, h-gh), g.randint(0, w-gw)
		gi = fill(gi, sc, shift(crns, loci, locj))
		ccols = ccols[1:]
		for _, c := range ccols {
			if len(remring) < 3 {
				break
			}
			obj := sample(g, remring, g.unif(3, max(3, min(len(remring), nrr/len(ccols)))))
			vert, horiz := false, false
			for _, p := range obj {
				vert = vert || p.j == 0 || p.j == gw-1
				horiz = horiz || p.i == 0 || p.i == gh-1
			}
			if !vert || !horiz {
				continue
			}
			ul, lr := bounds(obj)
			oh, ow := lr.i-ul.i+1, lr.j-ul.j+1
			free := toset(ofcolor(gi, bgc))
			objn := normalize(obj)
			var cands2 []pt
			for _, p := range ofcolor(gi, bgc) {
				if p.i > h-oh || p.j > w-ow {
					continue
				}
				ok := true
				for _, q := range objn {
					if !free[pt{q.i + p.i, q.j + p.j}] {
						ok = false
						break
					}
				}
				if ok {
					cands2 = append(cands2, p)
				}
			}
			if len(cands2) > 0 {
				loc := choice(g, cands2)
				gi = fill(gi, c, shift(objn, loc.i, loc.j))
				gout = fill(gout, c, obj)
				remring = minus(remring, obj)
			}
		}
		return gi, gout
	}},
	{"2dd70a9a", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 3)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		var sp, ep, lns []pt
		var bp1, bp2 pt
		if choice(g, []bool{true, false}) {
			oh, ow := g.unif(5, h-2), g.unif(3, w-2)
			loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
			hli := g.randint(loci+2, loci+oh-3)
			sp = []pt{{loci + oh - 1, locj}, {loci + oh - 2, locj}}
			ep = []pt{{loci, locj + ow - 1}, {loci + 1, locj + ow - 1}}
			bp1, bp2 = pt{hli - 1, locj}, pt{hli, locj + ow}
			lns = connect(pt{loci + oh - 1, locj}, pt{hli, locj})
			lns = append(lns, connect(pt{hli, locj}, pt{hli, locj + ow - 1})...)
			lns = append(lns, connect(pt{hli, locj + ow - 1}, pt{loci + 2, locj + ow - 1})...)
		} else {
			oh, ow := g.unif(3, h-2), g.unif(3, w-2)
			loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
			var sp1j, ep1j int
			if choice(g, []bool{true, false}) {
				sp1j, ep1j = g.randint(locj, locj+ow-3), locj
			} else {
				ep1j, sp1j = g.randint(locj, locj+ow-3), locj
			}
			sp = []pt{{loci, sp1j}, {loci, sp1j + 1}}
			ep = []pt{{loci + oh - 1, ep1j}, {loci + oh - 1, ep1j + 1}}
			bp1, bp2 = pt{loci, locj + ow}, pt{loci + oh, locj + ow - 1}
			lns = connect(pt{loci, sp1j + 2}, pt{loci, locj + ow - 1})
			lns = append(lns, connect(pt{loci, locj + ow - 1}, pt{loci + oh - 1, locj + ow - 1})...)
			lns = append(lns, connect(pt{loci + oh - 1, ep1j + 2}, pt{loci + oh - 1, locj + ow - 1})...)
		}
		gi, gout = fill(fill(gi, 3, sp), 2, ep), fill(fill(gout, 3, sp), 2, ep)
		bps := []pt{bp1, bp2}
		gi, gout = fill(gi, fgc, bps), fill(gout, fgc, bps)
		gout = fill(gout, 3, lns)
		inds := ofcolor(gout, bgc)
		noise := sample(g, inds, g.unif(0, len(inds)/2))
		gi, gout = fill(gi, fgc, noise), fill(gout, fgc, noise)
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"a78176bb", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		nlns := g.unif(1, (h+w)/8)
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := toset(asindices(gi))
		ingrid := func(ps []pt) []pt {
			var out []pt
			for _, p := range ps {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w {
					out = append(out, p)
				}
			}
			return out
		}
		var spopts []pt
		for idx := h - 5; idx >= 0; idx-- {
			spopts = append(spopts, pt{idx, 0})
		}
		for idx := 1; idx < w-4; idx++ {
			spopts = append(spopts, pt{0, idx})
		}
		upper := func(n int) []pt {
			var ps []pt
			for _, p := range asindices(canvas(-1, n, n)) {
				if p.j >= p.i {
					ps = append(ps, p)
				}
			}
			return ps
		}
		diag := func(s pt) []pt {
			var ps []pt
			for k := range max(h, w) {
				ps = append(ps, pt{s.i + k, s.j + k})
			}
			return ingrid(ps)
		}
		type tri struct{ tri, nexlin []pt }
		for succ, tr := 0, 0; succ < nlns && tr < 10*nlns; {
			tr++
			if len(spopts) == 0 {
				break
			}
			sp := choice(g, spopts)
			ln := ingrid(shoot(sp, 1, 1))
			ok := true
			for _, p := range ln {
				if !inds[p] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			trid1 := g.randint(2, min(5, len(ln)-3))
			trid2 := g.randint(2, min(5, len(ln)-3))
			tri1 := upper(trid1)
			l1 := choice(g, ln[1:len(ln)-trid1-1])
			tri2 := dmirrorP(upper(trid2))
			l2 := choice(g, ln[1:len(ln)-trid2-1])
			nexlin2 := diag(pt{sp.i, sp.j - trid2 - 2})
			nexlin1 := diag(pt{sp.i - trid1 - 2, sp.j})
			opts := sample(g, []tri{{shift(tri1, l1.i, l1.j+1), nexlin1}, {shift(tri2, l2.i+1, l2.j), nexlin2}}, 2)
			var lncol, tricol int
			for idx, o := range opts {
				fullobj := append(append(append([]pt(nil), ln...), o.tri...), o.nexlin...)
				if idx == 0 {
					lt := sample(g, remcols, 2)
					lncol, tricol = lt[0], lt[1]
				} else {
					tricol = choice(g, without(remcols, lncol))
				}
				if idx == 0 {
					ok := true
					for _, p := range fullobj {
						if !inds[p] {
							ok = false
							break
						}
					}
					if !ok {
						continue
					}
				}
				succ++
				for _, p := range fullobj {
					delete(inds, p)
					for _, q := range neighbors(p) {
						delete(inds, q)
					}
				}
				gi = fill(fill(gi, tricol, o.tri), lncol, ln)
				gout = fill(fill(gout, lncol, ln), lncol, o.nexlin)
			}
		}
		if choice(g, []bool{true, false}) {
			return hmirror(gi), hmirror(gout)
		}
		return gi, gout
	}},
	{"6ecd11f4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 7), g.unif(2, 7)
		bf := sample(g, allColors, 2)
		bgc, fgc := bf[0], bf[1]
		remcols := without(allColors, bgc)
		ccols := sample(g, remcols, g.unif(2, 9))
		inds := asindices(canvas(bgc, h, w))
		nlocsd := g.unif(0, h*w/2)
		nlocs := choice(g, []int{nlocsd, h*w - nlocsd})
		nlocs = min(max(3, nlocs), h*w-1)
		sp := choice(g, inds)
		shp := normalize(grow(g, minus(inds, []pt{sp}), []pt{sp}, nlocs))
		_, lr := bounds(shp)
		h, w = lr.i+1, lr.j+1
		canv := canvas(bgc, h, w)
		objbase := fill(canv, fgc, shp)
		hscf := g.unif(2, (3*h+1)/h)
		wscf := g.unif(2, (3*w+1)/w)
		big := hupscale(vupscale(objbase, hscf), wscf)
		oh, ow := dims(big)
		inds = asindices(canv)
		objx := withColors(inds, ccols, g)
		same := true
		for _, c := range objx {
			same = same && c.c == objx[0].c
		}
		if same {
			objx[0].c = choice(g, without(ccols, objx[0].c))
		}
		fullh := g.unif(hscf*h+h+1, 30)
		fullw := g.unif(wscf*w+w+1, 30)
		gi := canvas(bgc, fullh, fullw)
		for try := 0; try < 1000; try++ {
			loci, locj := g.randint(0, fullh-oh), g.randint(0, fullw-ow)
			gix := copyGrid(gi)
			for _, p := range asindices(big) {
				gix[p.i+loci][p.j+locj] = big[p.i][p.j]
			}
			ofc := ofcolor(gix, fgc)
			bad := toset(ofc)
			for _, p := range ofc {
				for _, q := range neighbors(p) {
					bad[q] = true
				}
			}
			var scands []pt
			for _, p := range asindices(gix) {
				if !bad[p] && p.i <= fullh-oh && p.j <= fullw-ow {
					scands = append(scands, p)
				}
			}
			if len(scands) == 0 {
				continue
			}
			locc := choice(g, scands)
			ok := true
			for _, c := range objx {
				q := pt{c.p.i + locc.i, c.p.j + locc.j}
				if q.i >= fullh || q.j >= fullw || bad[q] {
					ok = false
					break
				}
			}
			if ok {
				sh := make([]cell, len(objx))
				for k, c := range objx {
					sh[k] = cell{c.c, pt{c.p.i + locc.i, c.p.j + locc.j}}
				}
				gi = paint(gix, sh)
				break
			}
		}
		gout := fill(paint(canv, objx), bgc, ofcolor(objbase, bgc))
		return gi, gout
	}},
	{"39e1d7f9", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 10), g.unif(5, 10)
		c3 := sample(g, allColors, 3)
		bgc, linc, dotc := c3[0], c3[1], c3[2]
		remcols := without(allColors, bgc, linc, dotc)
		gi := canvas(bgc, h, w)
		loci, locj := g.randint(1, h-2), g.randint(1, w-2)
		if h == 5 {
			loci = choice(g, []int{1, h - 2})
		}
		if w == 5 {
			locj = choice(g, []int{1, w - 2})
		}
		npix := g.unif(1, 8)
		ccols := sample(g, remcols, g.unif(1, 7))
		ctr := pt{loci, locj}
		pixs := []pt{ctr}
		in := map[pt]bool{ctr: true}
		for range npix {
			var cands []pt
			for _, p := range neighbors(ctr) {
				if in[p] {
					continue
				}
				for _, q := range dneighbors(p) {
					if in[q] {
						cands = append(cands, p)
						break
					}
				}
			}
			p := choice(g, cands)
			pixs = append(pixs, p)
			in[p] = true
		}
		obj := withColors(pixs[1:], ccols, g)
		gi = paint(fill(gi, dotc, []pt{ctr}), obj)
		gout := gi
		noccs := g.unif(1, h*w/(2*len(obj)+1))
		maxtr := 6 * noccs
		inds := toset(ofcolor(gi, bgc))
		for _, p := range neighbors(ctr) {
			for _, q := range dneighbors(p) {
				delete(inds, q)
			}
		}
		failed := map[pt]bool{}
		for succ, tr := 0, 0; (tr < maxtr && succ < noccs) || succ == 0; {
			var lop []pt
			for _, p := range asindices(gi) {
				if inds[p] && !failed[p] {
					lop = append(lop, p)
				}
			}
			if len(lop) == 0 {
				break
			}
			tr++
			l := choice(g, lop)
			plcd := make([]cell, len(obj))
			ok := true
			for k, c := range obj {
				plcd[k] = cell{c.c, pt{c.p.i - loci + l.i, c.p.j - locj + l.j}}
				ok = ok && inds[plcd[k].p]
			}
			if !ok {
				failed[l] = true
				continue
			}
			for _, c := range plcd {
				delete(inds, c.p)
			}
			delete(inds, l)
			succ++
			gi = fill(gi, dotc, []pt{l})
			gout = paint(fill(gout, dotc, []pt{l}), plcd)
		}
		hfac := g.unif(1, (30-h+1)/h)
		wfac := g.unif(1, (30-w+1)/w)
		fullh, fullw := hfac*h+h-1, wfac*w+w-1
		blow := func(x Grid) Grid {
			out := canvas(linc, fullh, fullw)
			bd := asindices(canvas(-1, hfac, wfac))
			for a := range h {
				for b := range w {
					out = fill(out, x[a][b], shift(bd, a*(hfac+1), b*(wfac+1)))
				}
			}
			return out
		}
		return blow(gi), blow(gout)
	}},
	{"e73095fd", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		var gi, gout, lastIn, lastOut Grid
		for try := 0; try < 200; try++ {
			h, w := g.unif(10, 32), g.unif(10, 32)
			bf := sample(g, cols, 2)
			bgc, fgc := bf[0], bf[1]
			gi = canvas(bgc, h, w)
			nsplits := g.unif(2, min(h, w)/3)
			for range nsplits {
				var hobjs, wobjs []object
				for _, o := range objects(gi) {
					if o.color != bgc {
						continue
					}
					ul, lr := bounds(o.cells)
					if lr.i-ul.i+1 > 6 {
						hobjs = append(hobjs, o)
					}
					if lr.j-ul.j+1 > 6 {
						wobjs = append(wobjs, o)
					}
				}
				type group struct {
					objs []object
					ax   int
				}
				var cgroups []group
				if len(hobjs) > 0 {
					cgroups = append(cgroups, group{hobjs, 0})
				}
				if len(wobjs) > 0 {
					cgroups = append(cgroups, group{wobjs, 1})
				}
				if len(cgroups) == 0 {
					break
				}
				grp := choice(g, cgroups)
				obj := choice(g, grp.objs)
				ul, lr := bounds(obj.cells)
				var bar []pt
				if grp.ax == 0 {
					iloc := g.randint(ul.i+3, lr.i+1-3)
					for _, p := range obj.cells {
						if p.i == iloc {
							bar = append(bar, p)
						}
					}
				} else {
					jloc := g.randint(ul.j+3, lr.j+1-3)
					for _, p := range obj.cells {
						if p.j == jloc {
							bar = append(bar, p)
						}
					}
				}
				gi = fill(gi, fgc, bar)
			}
			count := func(ps []pt) int {
				n := 0
				for _, p := range dedup(ps) {
					if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w && gi[p.i][p.j] == fgc {
						n++
					}
				}
				return n
			}
			in34 := func(n int) bool { return n == 3 || n == 4 }
			var copts []pt
			for _, p := range ofcolor(gi, fgc) {
				if count(dneighbors(p)) > 2 && in34(count(box([]pt{{p.i - 2, p.j - 2}, {p.i + 2, p.j + 2}}))) {
					copts = append(copts, p)
				}
			}
			if len(copts) == 0 {
				continue
			}
			noccs := g.unif(1, len(copts))
			noccs = g.unif(noccs, len(copts))
			occs := sample(g, copts, noccs)
			gout = gi
			forb := map[pt]bool{}
			for _, occ := range occs {
				ulci, ulcj, lrci, lrcj := occ.i-1, occ.j-1, occ.i+1, occ.j+1
				if !in34(count(box([]pt{{ulci, ulcj}, {lrci, lrcj}}))) {
					continue
				}
				var boptions [][]pt
				for _, a := range []int{-2, -1, 0} {
					for _, b := range []int{-2, -1, 0} {
						for _, c := range []int{0, 1, 2} {
							for _, d := range []int{0, 1, 2} {
								bx := box([]pt{{ulci + a, ulcj + b}, {lrci + c, lrcj + d}})
								var clipped []pt
								for _, p := range bx {
									if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w {
										clipped = append(clipped, p)
									}
								}
								if len(clipped) == 0 || !in34(count(clipped)) {
									continue
								}
								cul, clr := bounds(clipped)
								if !in34(count(outbox(cul, clr))) {
									continue
								}
								ul, lr := bounds(bx)
								free := true
								for _, p := range backdrop(ul, lr) {
									if forb[p] {
										free = false
										break
									}
								}
								if free {
									boptions = append(boptions, bx)
								}
							}
						}
					}
				}
				if len(boptions) > 0 {
					bx := choice(g, boptions)
					ul, lr := bounds(bx)
					bd := backdrop(ul, lr)
					gi = fill(fill(gi, bgc, bd), fgc, bx)
					gout = fill(fill(gout, 4, bd), fgc, bx)
					for _, p := range bd {
						forb[p] = true
					}
				}
			}
			gi, gout = trim(gi), trim(gout)
			lastIn, lastOut = gi, gout
			if palette(gout)[4] {
				return gi, gout
			}
		}
		if lastIn == nil { // 200 draws without a candidate: never seen
			lastIn = trim(gi)
			lastOut = lastIn
		}
		return lastIn, lastOut
	}},
	{"72ca375d", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		nobjs := g.unif(1, h*w/25)
		srcobjh := g.unif(2, 8)
		srcobjwh := g.unif(1, 4)
		bnds := asindices(canvas(-1, srcobjh, srcobjwh))
		sp := pt{g.randint(0, srcobjh-1), srcobjwh - 1}
		n := srcobjh * srcobjwh
		ncellsd := g.unif(0, n/2)
		ncells1 := choice(g, []int{ncellsd, n - ncellsd})
		ncells2 := g.unif(1, n)
		ncells := min(max(1, (ncells1+ncells2)/2), n, h*w/2-1)
		src := normalize(grow(g, minus(bnds, []pt{sp}), []pt{sp}, ncells-1))
		_, lr := bounds(src)
		sw := lr.j + 1
		for _, p := range src {
			src = append(src, pt{p.i, 2*sw - 1 - p.j})
		}
		_, lr = bounds(src)
		srch, srcw := lr.i+1, lr.j+1
		bgc := choice(g, allColors)
		remcols := without(allColors, bgc)
		trgc := choice(g, remcols)
		gout := fill(canvas(bgc, srch, srcw), trgc, src)
		loci, locj := g.randint(0, h-srch), g.randint(0, w-srcw)
		gi := canvas(bgc, h, w)
		shftd := shift(src, loci, locj)
		gi = fill(gi, trgc, shftd)
		indss := toset(asindices(gi))
		block := func(ps []pt) {
			for _, p := range ps {
				delete(indss, p)
				for _, q := range neighbors(p) {
					delete(indss, q)
				}
			}
		}
		block(shftd)
		remcands := toset(minus(asindices(canvas(-1, 8, 8)), src))
		symmetric := func(ps []pt) bool {
			ul, lr := bounds(ps)
			s := toset(ps)
			for _, p := range ps {
				if !s[pt{p.i, ul.j + lr.j - p.j}] {
					return false
				}
			}
			return true
		}
		for tr, succ := 0, 0; succ < nobjs && tr <= 4*nobjs; {
			if len(indss) == 0 {
				break
			}
			var newobj []pt
			for try := 0; try < 1000; try++ {
				cur := toset(src)
				numpert := 64 - g.unif(1, 63)
				for range numpert {
					isadd := choice(g, []bool{true, false})
					if isadd && len(cur) < 64 {
						var cndds []pt
						for _, p := range asindices(canvas(-1, 8, 8)) {
							if !remcands[p] || cur[p] {
								continue
							}
							for _, q := range neighbors(p) {
								if cur[q] {
									cndds = append(cndds, p)
									break
								}
							}
						}
						if len(cndds) == 0 {
							break
						}
						cur[choice(g, cndds)] = true
					}
					if !isadd && len(cur) > 2 {
						var els []pt
						for _, p := range asindices(canvas(-1, 8, 8)) {
							if cur[p] {
								els = append(els, p)
							}
						}
						delete(cur, choice(g, els))
					}
				}
				var ps []pt
				for _, p := range asindices(canvas(-1, 8, 8)) {
					if cur[p] {
						ps = append(ps, p)
					}
				}
				ps = normalize(ps)
				_, lr := bounds(ps)
				cc := fill(canvas(-1, lr.i+3, lr.j+3), -2, shift(ps, 1, 1))
				cc2 := compress(cc)
				var best []pt
				for _, o := range objectsDiag(cc2) {
					if o.color == -2 && len(o.cells) > len(best) {
						best = o.cells
					}
				}
				newobj = best
				if !symmetric(newobj) {
					break
				}
			}
			col := choice(g, remcols)
			var loccands []pt
			for _, p := range asindices(gi) {
				if !indss[p] {
					continue
				}
				ok := true
				for _, q := range newobj {
					if !indss[pt{q.i + p.i, q.j + p.j}] {
						ok = false
						break
					}
				}
				if ok {
					loccands = append(loccands, p)
				}
			}
			if len(loccands) == 0 {
				tr++
				continue
			}
			l := choice(g, loccands)
			placed := shift(newobj, l.i, l.j)
			gi = fill(gi, col, placed)
			succ++
			block(placed)
		}
		return gi, gout
	}},
}
