package arc

import (
	"math"
	"slices"
)

// rearcGens10 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens10 = []rearcEntry{
	{"1e0a9b12", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 1000 {
			h, w := g.unif(3, 30), g.unif(3, 30)
			nc := g.unif(1, w)
			bgc := choice(g, allColors)
			gi = canvas(bgc, h, w)
			rem := without(allColors, bgc)
			scols := make([]int, nc)
			for k := range scols {
				scols[k] = choice(g, rem)
			}
			slocs := sample(g, interval(0, w), nc)
			inds := connect(pt{0, 0}, pt{h - 1, 0})
			for k := range nc {
				sel := sample(g, inds, g.randint(1, h-1))
				gi = fill(gi, scols[k], shift(sel, 0, slocs[k]))
			}
			t := dmirror(replace(gi, bgc, -1))
			for _, row := range t {
				slices.Sort(row)
			}
			gout = replace(dmirror(t), -1, bgc)
			best, bestn := -1, -1
			for c := range 10 {
				if n := colorcount(gi, c); c != bgc && n > 0 && n > bestn {
					best, bestn = c, n
				}
			}
			if colorcount(gi, bgc) > best {
				break
			}
		}
		return gi, gout
	}},
	{"6cf79266", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 1)
		h, w := g.unif(6, 30), g.unif(6, 30)
		ccols := sample(g, cols, g.unif(1, 8))
		gi := paint(canvas(-1, h, w), withColors(asindices(canvas(-1, h, w)), ccols, g))
		num := g.unif(int(0.25*float64(h*w)), int(0.6*float64(h*w)))
		inds := asindices(gi)
		gi = fill(gi, 0, sample(g, inds, num))
		noccs := g.unif(1, h*w/16)
		mini := asindices(canvas(-1, 3, 3))
		for _, p := range sample(g, asindices(canvas(-1, h-2, w-2)), noccs) {
			gi = fill(gi, 0, shift(mini, p.i, p.j))
		}
		gout := gi
		for _, o := range occurrences(gi, recolor(0, mini)) {
			gout = fill(gout, 1, shift(mini, o.i, o.j))
		}
		return gi, gout
	}},
	{"c1d99e64", func(g *gen) (Grid, Grid) {
		colopts := without(allColors, 2)
		h, w := g.unif(4, 30), g.unif(4, 30)
		nofront := choice(g, colopts)
		noise := choice(g, without(colopts, nofront))
		gi := canvas(nofront, h, w)
		nhf, nvf := g.unif(1, h/4), g.unif(1, w/4)
		var lines []pt
		for _, j := range sample(g, interval(0, w), nvf) {
			lines = append(lines, connect(pt{0, j}, pt{h - 1, j})...)
		}
		for _, i := range sample(g, interval(0, h), nhf) {
			lines = append(lines, connect(pt{i, 0}, pt{i, w - 1})...)
		}
		gi = fill(gi, noise, lines)
		cands := ofcolor(gi, nofront)
		nn := g.unif(0, max(0, len(cands)-h*w/2-1))
		gi = fill(gi, noise, sample(g, cands, nn))
		var fr []pt
		for _, o := range frontiers(gi) {
			if o.color == noise {
				fr = append(fr, o.cells...)
			}
		}
		return gi, fill(gi, 2, fr)
	}},
	{"beb8660c", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		w := g.unif(3, 30)
		h := g.unif(w, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi := canvas(bgc, h, w)
		k := g.unif(1, min(8, w-1))
		co := sample(g, rem, k)
		wds := sample(g, interval(1, w), k)
		sortInts(wds)
		for j := range k {
			r := h - k - 1 + j
			gi = fill(gi, co[j], connect(pt{r, 0}, pt{r, wds[j] - 1}))
		}
		gi = fill(gi, 8, connect(pt{h - 1, 0}, pt{h - 1, w - 1}))
		gout := vmirror(gi)
		rows := copyGrid(gi[:h-1])
		shuffle(g.rng, rows)
		rows = append(rows, append([]int(nil), gout[h-1]...))
		gif := make(Grid, h)
		for r, row := range rows {
			ofs := g.randint(0, count(row, bgc))
			gif[r] = append(append([]int(nil), row[w-ofs:]...), row[:w-ofs]...)
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(vmirror(gif)), rot(gout)
	}},
	{"d06dbe63", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		var obj []pt
		for k := range 15 {
			obj = append(obj, shift([]pt{{-1, 0}, {-2, 0}, {-2, 1}, {-2, 2}}, -2*k, 2*k)...)
			obj = append(obj, shift([]pt{{1, 0}, {2, 0}, {2, -1}, {2, -2}}, 2*k, -2*k)...)
		}
		h, w := g.unif(5, 30), g.unif(5, 30)
		ndots := g.unif(1, min(h, w))
		succ, tr, maxtr := 0, 0, 4*ndots
		bd := sample(g, cols, 2)
		bgc, dotc := bd[0], bd[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		for tr < maxtr && succ < ndots {
			tr++
			if inds.size() == 0 {
				break
			}
			loc := choice(g, inds.list)
			objx := shift(obj, loc.i, loc.j)
			ok := true
			for _, p := range objx {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w && !inds.has(p) {
					ok = false
					break
				}
			}
			if ok {
				succ++
				inds.remove(objx...)
				inds.remove(loc)
				gi = fill(gi, dotc, []pt{loc})
				gout = fill(gout, dotc, []pt{loc})
				gout = fill(gout, 5, objx)
			}
		}
		return gi, gout
	}},
	{"2c608aff", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		boxh, boxw := g.unif(2, h/2), g.unif(2, w/2)
		loci, locj := g.randint(0, h-boxh), g.randint(0, w-boxw)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ccol := choice(g, rem)
		rem = without(rem, ccol)
		dcol := choice(g, rem)
		bd := backdrop(pt{loci, locj}, pt{loci + boxh - 1, locj + boxw - 1})
		gi := fill(canvas(bgc, h, w), ccol, bd)
		reminds := minus(asindices(gi), backdrop(pt{loci - 1, locj - 1}, pt{loci + boxh, locj + boxw}))
		nnoise := g.unif(0, max(1, len(reminds)/4))
		noise := sample(g, reminds, nnoise)
		gi = fill(gi, dcol, noise)
		gout := gi
		for _, p := range noise {
			if p.i >= loci && p.i < loci+boxh {
				gout = fill(gout, dcol, connect(p, pt{p.i, locj}))
			} else if p.j >= locj && p.j < locj+boxw {
				gout = fill(gout, dcol, connect(p, pt{loci, p.j}))
			}
		}
		return gi, fill(gout, ccol, bd)
	}},
	{"3618c87e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		c3 := sample(g, allColors, 3)
		bgc, linc, dotc := c3[0], c3[1], c3[2]
		c := canvas(bgc, h, w)
		ln := connect(pt{0, 0}, pt{0, w - 1})
		nlocs := g.unif(1, w/2)
		var locs []int
		opts := interval(0, w)
		for range nlocs {
			if len(opts) == 0 {
				break
			}
			ch := choice(g, opts)
			locs = append(locs, ch)
			opts = without(opts, ch, ch-1, ch+1)
		}
		gi, gout := fill(c, linc, ln), fill(c, linc, ln)
		for _, j := range locs {
			hh := g.randint(1, h-3)
			lnx := connect(pt{0, j}, pt{hh, j})
			gi = fill(fill(gi, linc, lnx), dotc, []pt{{hh + 1, j}})
			gout = fill(fill(gout, linc, lnx), dotc, []pt{{0, j}})
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"b27ca6d3", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(4, 30), g.unif(4, 30)
		bd := sample(g, cols, 2)
		bgc, dotc := bd[0], bd[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		ndots, nbars := g.unif(0, h*w/5), g.unif(0, h*w/12)
		dot := append([]cell{{dotc, pt{1, 1}}}, recolor(bgc, dneighbors(pt{1, 1}))...)
		bar1 := fill(canvas(bgc, 4, 3), dotc, []pt{{1, 1}, {2, 1}})
		bars := [][]cell{asobject(bar1), asobject(dmirror(bar1))}
		var opts [][]cell
		for range ndots {
			opts = append(opts, dot)
		}
		for range nbars {
			opts = append(opts, choice(g, bars))
		}
		shuffle(g.rng, opts)
		inds := newDrawSet(shift(asindices(canvas(-1, h+2, w+2)), -1, -1))
		for _, elem := range opts {
			loc := pt{-1, -1}
			for tr := 0; !inds.hasAll(toindices(shiftC(elem, loc.i, loc.j))) && tr < 5; tr++ {
				loc = choice(g, inds.list)
			}
			xx := shiftC(elem, loc.i, loc.j)
			if !inds.hasAll(toindices(xx)) {
				continue
			}
			gi = paint(gi, xx)
			if len(elem) == 12 {
				yy := make([]cell, len(xx))
				for k, c := range xx {
					yy[k] = c
					if c.c == bgc {
						yy[k].c = 3
					}
				}
				gout = paint(gout, yy)
			} else {
				gout = paint(gout, xx)
			}
			inds.remove(toindices(xx)...)
		}
		return gi, gout
	}},
	{"ce9e57f2", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(6, 30), g.unif(6, 30)
		nbars := g.unif(2, (w-2)/2)
		locopts := interval(1, w-1)
		var barlocs []int
		for range nbars {
			if len(locopts) == 0 {
				break
			}
			loc := choice(g, locopts)
			barlocs = append(barlocs, loc)
			locopts = without(locopts, loc, loc+1, loc-1)
		}
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		colss := sample(g, rem, g.unif(1, 8))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for _, j := range barlocs {
			bl := g.unif(1, h-2)
			full := connect(pt{0, j}, pt{bl, j})
			he := (bl - 1) / 2
			if bl%2 == 1 {
				he = bl / 2
			}
			barcol := choice(g, colss)
			gi = fill(gi, barcol, full)
			gout = fill(fill(gout, barcol, full), 8, connect(pt{0, j}, pt{he, j}))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"7f4411dc", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bf := sample(g, allColors, 2)
		bgc, fgc := bf[0], bf[1]
		nsq := g.unif(1, h*w/15)
		maxtr, tr, succ := 4*nsq, 0, 0
		gout := canvas(bgc, h, w)
		inds := newDrawSet(asindices(gout))
		for tr < maxtr && succ < nsq {
			oh, ow := g.randint(2, 6), g.randint(2, 6)
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			// RE-ARC shifts the box at loc by loc once more.
			ul := pt{2 * loc.i, 2 * loc.j}
			obj := backdrop(ul, pt{ul.i + oh - 1, ul.j + ow - 1})
			if inds.hasAll(obj) {
				gout = fill(gout, fgc, obj)
				succ++
				inds.remove(obj...)
				inds.remove(outbox(ul, pt{ul.i + oh - 1, ul.j + ow - 1})...)
			}
			tr++
		}
		free := newDrawSet(ofcolor(gout, bgc))
		nnoise := g.unif(0, free.size()/2-1)
		gi := gout
		for range nnoise {
			loc := choice(g, free.list)
			free.remove(dneighbors(loc)...)
			gi = fill(gi, fgc, []pt{loc})
		}
		return gi, gout
	}},
	{"82819916", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ab := sample(g, rem, 2)
		ass, bss := ab[0], ab[1]
		itv := interval(0, w)
		alocs := sample(g, itv, g.randint(2, w-2))
		blocs := without(itv, alocs...)
		if slices.Min(alocs) > slices.Min(blocs) {
			alocs, blocs = blocs, alocs
		}
		row := func(i int, js []int) []pt {
			ps := make([]pt, len(js))
			for k, j := range js {
				ps[k] = pt{i, j}
			}
			return ps
		}
		llocs := g.randint(0, h-1)
		gi := canvas(bgc, h, w)
		gi = fill(fill(gi, ass, row(llocs, alocs)), bss, row(llocs, blocs))
		numl := g.unif(1, max(1, (h-1)/2))
		remlocs := without(interval(0, h), llocs)
		for range numl {
			lloc := choice(g, remlocs)
			remlocs = without(remlocs, lloc)
			cd := sample(g, rem, 2)
			gi = fill(fill(gi, cd[0], row(lloc, alocs)), cd[1], row(lloc, blocs))
		}
		cutoff := slices.Min(blocs) + 1
		gout := gi
		gi = fill(gi, bgc, backdrop(pt{0, cutoff}, pt{h - 1, w - 1}))
		gi = fill(fill(gi, ass, row(llocs, alocs)), bss, row(llocs, blocs))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"3428a4f5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(1, 30), g.unif(1, 14)
		rem := without(cols, 0)
		barcol := choice(g, rem)
		rem = without(rem, barcol)
		cola, colb := choice(g, rem), choice(g, rem)
		canv := canvas(0, h, w)
		inds := asindices(canv)
		mp := h * w / 2
		deva, devb := g.unif(0, mp), g.unif(0, mp)
		sgna, sgnb := choice(g, []int{1, -1}), choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+sgna*deva), 1)
		numb := max(min(h*w-1, mp+sgnb*devb), 1)
		a, b := sample(g, inds, numa), sample(g, inds, numb)
		gi := hconcat(hconcat(fill(canv, cola, a), canvas(barcol, h, 1)), fill(canv, colb, b))
		ina, inb := newDrawSet(a), newDrawSet(b)
		var xor []pt
		for _, p := range inds {
			if ina.has(p) != inb.has(p) {
				xor = append(xor, p)
			}
		}
		gout := fill(canv, 3, xor)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"5ad4f10b", func(g *gen) (Grid, Grid) {
		oh, ow := g.unif(2, 6), g.unif(2, 6)
		ncellsd := g.unif(1, oh*ow/2)
		ncells := choice(g, []int{ncellsd, oh*ow - ncellsd})
		ncells = min(max(1, ncells), oh*ow-1)
		// RE-ARC's retry loop asks for a cell of the shape outside some
		// full 2×2 window, which every finite shape has: it never runs.
		obj := normalize(sample(g, asindices(canvas(-1, oh, ow)), ncells))
		_, lr := bounds(obj)
		oh, ow = lr.i+1, lr.j+1
		c3 := sample(g, allColors, 3)
		bgc, noisec, objc := c3[0], c3[1], c3[2]
		gout := fill(canvas(bgc, oh, ow), noisec, obj)
		fac := g.unif(2, min(28/oh, 28/ow))
		gobj := asobject(upscale(replace(gout, noisec, objc), fac))
		oh, ow = oh*fac, ow*fac
		h, w := g.unif(oh+2, 30), g.unif(ow+2, 30)
		loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
		gi := paint(canvas(bgc, h, w), shiftC(gobj, loci, locj))
		cands := ofcolor(gi, bgc)
		namt := g.unif(2, max(1, len(cands)/4))
		return fill(gi, noisec, sample(g, cands, namt)), gout
	}},
	{"dc0a314f", func(g *gen) (Grid, Grid) {
		h, gi := mirroredMosaic(g, without(allColors, 3))
		w := h
		locidev, locjdev := g.unif(1, 2*h), g.unif(1, w)
		loci, locj := 2*h-locidev, w-locjdev
		loci2, locj2 := g.unif(loci, 2*h-1), g.unif(locj, w-1)
		gout := crop(gi, loci, locj, loci2-loci+1, locj2-locj+1)
		gi = fill(gi, 3, backdrop(pt{loci, locj}, pt{loci2, locj2}))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"f8b3ba0a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 5), g.unif(1, 5)
		nh, nw := g.unif(3, 29/(h+1)), g.unif(3, 29/(w+1))
		fullh, fullw := (h+1)*nh+1, (w+1)*nw+1
		fb := sample(g, allColors, 2)
		fullbgc, bgc := fb[0], fb[1]
		rem := without(allColors, fullbgc, bgc)
		shp := shift(asindices(canvas(-1, h, w)), 1, 1)
		gi := canvas(fullbgc, fullh, fullw)
		locs := newDrawSet(nil)
		for a := range nh {
			for b := range nw {
				loc := pt{a * (h + 1), b * (w + 1)}
				locs.add(loc)
				gi = fill(gi, bgc, shift(shp, loc.i, loc.j))
			}
		}
		numc := g.unif(1, nh*nw/2-1)
		type entry struct{ col, n int }
		var stack []entry
		nn := numc + 1
		for nn > 1 && numc > 0 && len(rem) > 0 {
			nn3 := int(0.5*math.Sqrt(float64(8*numc+1)) - 1)
			nn = min(max(1, nn3), nn-1)
			col := choice(g, rem)
			rem = without(rem, col)
			numc -= nn
			stack = append(stack, entry{col, nn})
		}
		gout := make(Grid, len(stack))
		for k, e := range stack {
			gout[k] = []int{e.col}
		}
		for _, e := range stack {
			slocs := sample(g, locs.list, e.n)
			for _, l := range slocs {
				gi = fill(gi, e.col, shift(shp, l.i, l.j))
			}
			locs.remove(slocs...)
		}
		return gi, gout
	}},
	{"b6afb2da", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 4)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 9)
		indss := newDrawSet(asindices(gi))
		maxtr, tr, succ := 4*num, 0, 0
		for succ < num && tr <= maxtr {
			if len(rem) == 0 || indss.size() == 0 {
				break
			}
			oh, ow := g.randint(3, 7), g.randint(3, 7)
			var subs []pt
			for _, p := range indss.list {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				tr++
				continue
			}
			l := choice(g, subs)
			bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			col := choice(g, rem)
			if indss.hasAll(bd) {
				rem = without(rem, col)
				gi = fill(gi, col, bd)
				gout = fill(fill(fill(gout, 2, bd), 4, box(bd)), 1, corners(bd))
				succ++
				indss.remove(bd...)
			}
			tr++
		}
		return gi, gout
	}},
	{"c444b776", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 9), g.unif(2, 9)
		nh := g.unif(1, 3)
		lo := 2
		if nh > 1 {
			lo = 1
		}
		nw := g.unif(lo, 3)
		bl := sample(g, allColors, 2)
		bgc, linc := bl[0], bl[1]
		rem := without(allColors, bgc, linc)
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		c := canvas(linc, fullh, fullw)
		smallc := canvas(bgc, h, w)
		ccols := sample(g, rem, g.unif(1, 8))
		cels := sample(g, asindices(smallc), g.unif(1, h*w/2))
		obj := asobject(paint(smallc, withColors(cels, ccols, g)))
		var llocs []pt
		for a := 0; a < fullh; a += h + 1 {
			for b := 0; b < fullw; b += w + 1 {
				llocs = append(llocs, pt{a, b})
			}
		}
		src := choice(g, llocs)
		gi := paint(c, shiftC(obj, src.i, src.j))
		bobj := asobject(smallc)
		remlocs := minus(llocs, []pt{src})
		for _, l := range remlocs {
			gi = paint(gi, shiftC(bobj, l.i, l.j))
		}
		gout := gi
		for _, l := range remlocs {
			gout = paint(gout, shiftC(obj, l.i, l.j))
		}
		return gi, gout
	}},
	{"868de0fa", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 7)
		h, w := g.unif(9, 30), g.unif(9, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 9)
		indss := newDrawSet(asindices(gi))
		maxtr, tr, succ := 4*num, 0, 0
		for succ < num && tr <= maxtr {
			if indss.size() == 0 {
				break
			}
			oh := g.randint(3, 8)
			ow := oh
			var subs []pt
			for _, p := range indss.list {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				tr++
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			col := choice(g, rem)
			if indss.hasAll(bd) {
				gi = fill(gi, col, box(bd))
				inner := 2
				if oh%2 == 1 {
					inner = 7
				}
				gout = fill(fill(gout, inner, bd), col, box(bd))
				succ++
				indss.remove(bd...)
				indss.remove(outbox(l, lr)...)
			}
			tr++
		}
		return gi, gout
	}},
	{"a3df8b1e", func(g *gen) (Grid, Grid) {
		w := g.unif(2, 10)
		h := g.unif(w+1, 30)
		bl := sample(g, allColors, 2)
		bgc, linc := bl[0], bl[1]
		sp := pt{h - 1, 0}
		gi := fill(canvas(bgc, h, w), linc, []pt{sp})
		gout := gi
		direc := 1
		for {
			sp = pt{sp.i - 1, sp.j + direc}
			if sp.j == w-1 || sp.j == 0 {
				direc = -direc
			}
			if sp.i < 0 || sp.j < 0 || sp.j >= w || gout[sp.i][sp.j] == linc {
				break
			}
			gout = fill(gout, linc, []pt{sp})
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		gix, gox := gi, gout
		numlins := g.unif(1, 4)
		for k, fn := range []transform{hmirror, vmirror, func(x Grid) Grid { return hmirror(vmirror(x)) }} {
			if numlins > k+1 {
				gi = fill(gi, linc, ofcolor(fn(gix), linc))
				gout = fill(gout, linc, ofcolor(fn(gox), linc))
			}
		}
		return gi, gout
	}},
	{"a61ba2ce", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 15), g.unif(4, 15)
		lociL, lociR := g.randint(2, h-2), g.randint(2, h-2)
		locjT, locjB := g.randint(2, w-2), g.randint(2, w-2)
		c5 := sample(g, allColors, 5)
		bgc := c5[0]
		objs := [][]pt{
			append(connect(pt{0, 0}, pt{lociL - 1, 0}), connect(pt{0, 0}, pt{0, locjT - 1})...),
			append(connect(pt{0, w - 1}, pt{0, locjT}), connect(pt{0, w - 1}, pt{lociR - 1, w - 1})...),
			append(connect(pt{h - 1, 0}, pt{lociL, 0}), connect(pt{h - 1, 0}, pt{h - 1, locjB - 1})...),
			append(connect(pt{h - 1, w - 1}, pt{h - 1, locjB}), connect(pt{h - 1, w - 1}, pt{lociR, w - 1})...),
		}
		gout := canvas(bgc, h, w)
		for k, o := range objs {
			gout = fill(gout, c5[k+1], o)
		}
		fullh, fullw := g.unif(2*h, 30), g.unif(2*w, 30)
		gi := canvas(bgc, fullh, fullw)
		var locs []pt
		for range 1000 {
			inds := newDrawSet(asindices(gi))
			locs = nil
			for _, o := range objs {
				var cands []pt
				for _, p := range inds.list {
					if inds.hasAll(shift(o, p.i, p.j)) {
						cands = append(cands, p)
					}
				}
				if len(cands) == 0 {
					break
				}
				loc := choice(g, cands)
				locs = append(locs, loc)
				inds.remove(shift(o, loc.i, loc.j)...)
			}
			if len(locs) == 4 {
				break
			}
		}
		for k, l := range locs {
			gi = fill(gi, c5[k+1], shift(objs[k], l.i, l.j))
		}
		return gi, gout
	}},
	{"c9f8e694", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		rem := interval(1, 10)
		sqc := choice(g, rem)
		rem = without(rem, sqc)
		_ = g.unif(1, min(h, 8)) // ncols: drawn and unused in RE-ARC
		nsq := g.unif(1, 8)
		gir := canvas(0, h, w-1)
		gil := make(Grid, h)
		for k := range gil {
			gil[k] = []int{choice(g, rem)}
		}
		succ, fails, maxfails := 0, 0, 5*nsq
		for succ < nsq && fails < maxfails {
			loci, locj := g.randint(0, h-3), g.randint(0, w-3)
			lock := g.randint(loci+1, min(loci+max(1, 2*h/3), h-1))
			locl := g.randint(locj+1, min(locj+max(1, 2*w/3), w-1))
			// RE-ARC never shrinks the free cells, so only the grid bounds
			// can reject a box.
			if locl < w-1 {
				gir = fill(gir, sqc, backdrop(pt{loci, locj}, pt{lock, locl}))
				succ++
			} else {
				fails++
			}
		}
		locs := ofcolor(gir, sqc)
		rows := map[int]bool{}
		for _, p := range locs {
			rows[p.i] = true
		}
		for k := range gil {
			if !rows[k] {
				gil[k] = []int{0}
			}
		}
		giro := gir
		for _, p := range locs {
			giro = fill(giro, gil[p.i][0], []pt{p})
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(hconcat(gil, gir)), rot(hconcat(gil, giro))
	}},
	{"b8825c91", func(g *gen) (Grid, Grid) {
		h, gi := mirroredMosaic(g, without(allColors, 4))
		w := h
		gout := gi
		for _, alph := range []int{2, 1} {
			locidev, locjdev := g.unif(1, alph*h), g.unif(1, w)
			loci, locj := alph*h-locidev, w-locjdev
			loci2, locj2 := g.unif(loci, alph*h-1), g.unif(locj, w-1)
			gi = fill(gi, 4, backdrop(pt{loci, locj}, pt{loci2, locj2}))
			gi, gout = rot180(gi), rot180(gout)
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"b9b7f026", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi := canvas(bgc, h, w)
		num := g.unif(1, 9)
		indss := newDrawSet(asindices(gi))
		maxtr, succ, tr, outcol := 4*num, 0, 0, -1
		for succ < num && tr <= maxtr {
			if len(rem) == 0 || indss.size() == 0 {
				break
			}
			oh, ow := g.randint(3, 7), g.randint(3, 7)
			var subs []pt
			for _, p := range indss.list {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				tr++
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			col := choice(g, rem)
			if indss.hasAll(bd) {
				rem = without(rem, col)
				gi = fill(gi, col, bd)
				succ++
				indss.remove(bd...)
				if outcol < 0 {
					outcol = col
					cands := backdrop(pt{l.i + 1, l.j + 1}, pt{lr.i - 1, lr.j - 1})
					if len(cands) > 2 {
						cands = sample(g, cands, 2)
					}
					ul, br := bounds(cands)
					gi = fill(gi, bgc, backdrop(ul, br))
				}
			}
			tr++
		}
		return gi, canvas(outcol, 1, 1)
	}},
	{"05f2a901", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		objh := g.unif(2, min(w/2, h/2))
		objw := g.unif(objh, w/2)
		bb := asindices(canvas(-1, objh, objw))
		sp := choice(g, bb)
		f := newFrontier(minus(bb, []pt{sp}), dneighbors)
		f.take(sp)
		obj := []pt{sp}
		for range g.unif(objh+objw, objh*objw) - 1 {
			p := f.pick(g)
			f.take(p)
			obj = append(obj, p)
		}
		if ul, lr := bounds(obj); (lr.i-ul.i+1)*(lr.j-ul.j+1) == len(obj) {
			obj = minus(obj, []pt{choice(g, obj)})
		}
		obj = normalize(obj)
		_, lr := bounds(obj)
		objh, objw = lr.i+1, lr.j+1
		loci, locj := g.unif(3, h-objh), g.unif(0, w-objw)
		c3 := sample(g, allColors, 3)
		bgc, fgc, destc := c3[0], c3[1], c3[2]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		obj = shift(obj, loci, locj)
		gi = fill(gi, fgc, obj)
		sqd := g.randint(1, min(w, loci-1))
		locisq := g.randint(0, loci-sqd-1)
		locjsq := g.randint(locj-sqd+1, locj+objw-1)
		sq := backdrop(pt{locisq, locjsq}, pt{locisq + sqd - 1, locjsq + sqd - 1})
		gi, gout = fill(gi, destc, sq), fill(gout, destc, sq)
		insq := newDrawSet(sq)
		for range 60 {
			hit := false
			for _, p := range obj {
				hit = hit || insq.has(p)
			}
			if hit {
				break
			}
			obj = shift(obj, -1, 0)
		}
		gout = fill(gout, fgc, shift(obj, 1, 0))
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"31aa019c", func(g *gen) (Grid, Grid) {
		var gi, canv Grid
		for range 1000 {
			h, w := g.unif(5, 30), g.unif(5, 30)
			bgc := choice(g, allColors)
			canv = canvas(bgc, h, w)
			inds := asindices(canv)
			mp := h*w/2 - 1
			ncols := g.unif(2, min(9, mp/2-1))
			chcols := sample(g, allColors, ncols)
			trgcol := chcols[0]
			chcols = chcols[1:]
			dic := make([][]pt, len(chcols))
			nnoise := g.unif(2*(ncols-1), mp)
			locc := choice(g, inds)
			inds = minus(inds, []pt{locc})
			noise := sample(g, inds, nnoise)
			for range 2 {
				for k := range chcols {
					ij := choice(g, inds)
					dic[k] = append(dic[k], ij)
					inds = minus(inds, []pt{ij})
				}
			}
			for _, ij := range noise {
				k := g.rng.IntN(len(chcols))
				dic[k] = append(dic[k], ij)
			}
			gi = fill(canv, trgcol, []pt{locc})
			for k, c := range chcols {
				gi = fill(gi, c, dic[k])
			}
			gi = fill(gi, trgcol, []pt{locc})
			ones := 0
			for c := range 10 {
				if colorcount(gi, c) == 1 {
					ones++
				}
			}
			if ones == 1 {
				break
			}
		}
		lc := 0
		for c := range 10 {
			if colorcount(gi, c) == 1 {
				lc = c
			}
		}
		locc := ofcolor(gi, lc)
		gout := fill(canv, lc, locc)
		return gi, fill(gout, 2, neighbors(locc[0]))
	}},
	{"1fad071e", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(10, 30), g.unif(10, 30)
		nbl := g.randint(0, 5)
		nobjs := g.unif(nbl, max(nbl, h*w/10))
		bo := sample(g, cols, 2)
		bgc, otherc := bo[0], bo[1]
		succ, tr, maxtr, bcount := 0, 0, 5*nobjs, 0
		gi := canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		forbid := map[int]*drawSet{1: newDrawSet(nil), otherc: newDrawSet(nil)}
		for succ < nobjs && tr < maxtr {
			tr++
			col := choice(g, []int{1, otherc})
			oh, ow := g.randint(1, 3), g.randint(1, 3)
			if bcount < nbl {
				col, oh, ow = 1, 2, 2
			} else {
				for k := 0; k < 1000 && col == 1 && oh == 2 && ow == 2; k++ {
					col = choice(g, []int{1, otherc})
					oh, ow = g.randint(1, 3), g.randint(1, 3)
				}
			}
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			bd := backdrop(loc, pt{loc.i + oh - 1, loc.j + ow - 1})
			var around []pt
			for _, p := range bd {
				around = append(around, dneighbors(p)...)
			}
			clash := false
			for _, p := range around {
				clash = clash || forbid[col].has(p)
			}
			if inds.hasAll(bd) && !clash {
				succ++
				inds.remove(bd...)
				for _, p := range append(around, bd...) {
					forbid[col].add(p)
				}
				gi = fill(gi, col, bd)
				if col == 1 && oh == 2 && ow == 2 {
					bcount++
				}
			}
		}
		gout := canvas(bgc, 1, 5)
		for j := range bcount {
			gout[0][j] = 1
		}
		return gi, gout
	}},
	{"25d487eb", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ccols := sample(g, rem, g.unif(2, 8))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		nobjs := g.unif(1, h*w/30)
		succ, tr, maxtr := 0, 0, 10*nobjs
		inds := newDrawSet(asindices(gout))
		for tr < maxtr && succ < nobjs {
			if inds.size() == 0 {
				break
			}
			tr++
			dim := g.randint(1, 3)
			tl := sample(g, ccols, 2)
			tric, linc := tl[0], tl[1]
			var inobj []cell
			for i := 0; i <= dim; i++ {
				for j := i; j <= 2*dim-i; j++ {
					c := tric
					if i == 0 && j == dim {
						c = linc
					}
					inobj = append(inobj, cell{c, pt{i, j}})
				}
			}
			loc := choice(g, inds.list)
			iplcd := shiftC(inobj, loc.i, loc.j)
			oplcd := append([]cell(nil), iplcd...)
			for i := loc.i + dim + 1; i < h; i++ {
				oplcd = append(oplcd, cell{linc, pt{i, loc.j + dim}})
			}
			if inds.hasAll(toindices(oplcd)) {
				succ++
				gi, gout = paint(gi, iplcd), paint(gout, oplcd)
			}
			rot := choice(g, []transform{identity, rot90, rot180, rot270})
			gi, gout = rot(gi), rot(gout)
			h, w = dims(gi)
			inds = freeOf(gout, bgc)
		}
		return gi, gout
	}},
	{"ea32f347", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 4)
		for {
			h, w := g.unif(5, 30), g.unif(5, 30)
			a := g.unif(3, min(h, w))
			b := g.unif(2, a)
			c := g.unif(1, b)
			bgc := choice(g, cols)
			rem := without(cols, bgc)
			gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
			inds := newDrawSet(asindices(gi))
			ok := true
			for k, col := range []int{1, 4, 2} {
				l := []int{a, b, c}[k]
				tmpg := fill(gi, -1, minus(asindices(gi), inds.list))
				type opt struct {
					ln   []pt
					occs []pt
				}
				var pool []opt
				for _, ln := range [][]pt{connect(pt{0, 0}, pt{0, l - 1}), connect(pt{0, 0}, pt{l - 1, 0})} {
					if occs := occurrences(tmpg, recolor(bgc, ln)); len(occs) > 0 {
						pool = append(pool, opt{ln, occs})
					}
				}
				if len(pool) == 0 {
					// RE-ARC raises here; draw afresh instead.
					ok = false
					break
				}
				o := choice(g, pool)
				loc := choice(g, o.occs)
				plcd := shift(o.ln, loc.i, loc.j)
				gi = fill(gi, choice(g, rem), plcd)
				gout = fill(gout, col, plcd)
				inds.remove(plcd...)
				for _, p := range plcd {
					inds.remove(dneighbors(p)...)
				}
			}
			if ok {
				return gi, gout
			}
		}
	}},
	{"fcb5c309", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		c3 := sample(g, allColors, 3)
		bgc, dotc, sqc := c3[0], c3[1], c3[2]
		numsq := g.unif(1, h*w/25)
		gi := canvas(bgc, h, w)
		var gout Grid
		inds := newDrawSet(asindices(gi))
		maxtr, tr, succ, numcells := 4*numsq, 0, 0, -1
		for tr < maxtr && succ < numsq {
			oh, ow := g.randint(3, 7), g.randint(3, 7)
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			l := choice(g, cands)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			if inds.hasAll(bd) {
				gi = fill(gi, sqc, box(bd))
				ib := backdrop(pt{l.i + 1, l.j + 1}, pt{lr.i - 1, lr.j - 1})
				take := false
				var cells []pt
				if numcells < 0 {
					numcells = g.unif(1, len(ib))
					cells = sample(g, ib, numcells)
					take = true
				} else {
					cells = sample(g, ib, g.unif(0, min(max(0, numcells-1), len(ib))))
				}
				gi = fill(gi, dotc, cells)
				if take {
					gout = replace(crop(gi, l.i, l.j, oh, ow), sqc, dotc)
				}
				inds.remove(bd...)
				inds.remove(outbox(l, lr)...)
				succ++
			}
			tr++
		}
		nnoise := g.unif(0, max(0, inds.size()/2-1))
		return fill(gi, dotc, sample(g, inds.list, nnoise)), gout
	}},
	{"239be575", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		var gi Grid
		var markcol int
		var conn bool
		for range 1000 {
			h, w := g.unif(6, 30), g.unif(6, 30)
			c := canvas(0, h, w)
			fullcands := asindices(canvas(0, h-1, w-1))
			a := choice(g, fullcands)
			b := choice(g, minus(fullcands, []pt{a}))
			mindist := g.unif(3, min(h, w)-3)
			for k := 0; k < 10000 && max(a.i-b.i, b.i-a.i)+max(a.j-b.j, b.j-a.j) <= mindist; k++ {
				a = choice(g, fullcands)
				b = choice(g, minus(fullcands, []pt{a}))
			}
			ms := sample(g, cols, 2)
			sqcol := ms[1]
			markcol = ms[0]
			sq := []pt{{0, 0}, {1, 1}, {0, 1}, {1, 0}}
			aset, bset := map[pt]bool{}, map[pt]bool{}
			for _, p := range sq {
				aset[pt{p.i + a.i, p.j + a.j}], bset[pt{p.i + b.i, p.j + b.j}] = true, true
			}
			gi = fill(fill(c, sqcol, shift(sq, a.i, a.j)), sqcol, shift(sq, b.i, b.j))
			cands := ofcolor(gi, 0)
			num := g.unif(int(0.25*float64(len(cands))), int(0.75*float64(len(cands))))
			gi = fill(gi, markcol, sample(g, cands, num))
			linked := func() bool {
				for _, o := range objects(gi) {
					if o.color == markcol && touches(o.cells, aset) && touches(o.cells, bset) {
						return true
					}
				}
				return false
			}
			conn = choice(g, []bool{true, false})
			if l := linked(); conn && !l {
				for !linked() {
					opts := ofcolor(gi, 0)
					if len(opts) == 0 {
						break
					}
					gi = fill(gi, markcol, []pt{choice(g, opts)})
				}
			} else if !conn && l {
				for linked() {
					opts := ofcolor(gi, markcol)
					if len(opts) == 0 {
						break
					}
					gi = fill(gi, 0, []pt{choice(g, opts)})
				}
			}
			if len(palette(gi)) == 3 {
				break
			}
		}
		oc := 0
		if conn {
			oc = markcol
		}
		return gi, canvas(oc, 1, 1)
	}},
	{"40853293", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		nlines := g.unif(2, min(8, h*w/2))
		nhori := g.randint(1, nlines-1)
		nverti := nlines - nhori
		ilocs := sample(g, interval(0, h), min(nhori, h))
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for _, ii := range ilocs {
			llen := g.unif(2, w-1)
			js := g.randint(0, w-llen)
			a, b := pt{ii, js}, pt{ii, js + llen - 1}
			col := choice(g, rem)
			rem = without(rem, col)
			gi, gout = fill(gi, col, []pt{a, b}), fill(gout, col, connect(a, b))
		}
		gim := dmirror(gi)
		var jlocs []int
		for j := range w {
			if count(gim[j], bgc) > 1 {
				jlocs = append(jlocs, j)
			}
		}
		for _, jj := range sample(g, jlocs, min(nverti, len(jlocs))) {
			jcands := ofcolorRow(gim[jj], bgc)
			kk := len(jcands)
			llen := g.unif(2, kk)
			sp := g.randint(0, kk-llen)
			a, b := pt{jcands[sp], jj}, pt{jcands[sp+llen-1], jj}
			col := choice(g, rem)
			rem = without(rem, col)
			gi, gout = fill(gi, col, []pt{a, b}), fill(gout, col, connect(a, b))
		}
		return gi, gout
	}},
	{"810b9b61", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		ccols := sample(g, rem, g.unif(1, 6))
		nobjs := g.unif(3, h*w/10)
		succ, tr, maxtr := 0, 0, 5*nobjs
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		fits := func(oh, ow int) []pt {
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			return cands
		}
		for succ < nobjs && tr < maxtr {
			tr++
			oh, ow := g.randint(3, 5), g.randint(3, 5)
			cands := fits(oh, ow)
			if len(cands) == 0 {
				continue
			}
			_ = choice(g, cands) // the box's first place, dropped by normalize
			// identity, dmirror, cmirror, vmirror, hmirror: a normalised
			// box is transposed by each of dmirror and cmirror.
			for _, k := range sample(g, interval(0, 5), choice(g, []int{1, 2})) {
				if k == 1 || k == 2 {
					oh, ow = ow, oh
				}
			}
			cands = fits(oh, ow)
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			plcd := box([]pt{loc, {loc.i + oh - 1, loc.j + ow - 1}})
			plcd = dedup(plcd)
			inobj := plcd
			if choice(g, []bool{true, false}) {
				inobj = sample(g, plcd, g.unif(1, len(plcd)-1))
			}
			if inds.hasAll(inobj) {
				succ++
				inds.remove(inobj...)
				for _, p := range inobj {
					inds.remove(dneighbors(p)...)
				}
				col := choice(g, ccols)
				gi = fill(gi, col, inobj)
				ul, lr := bounds(inobj)
				outc := col
				if len(dedup(box(inobj))) == len(inobj) && len(minus(box(inobj), inobj)) == 0 && min(lr.i-ul.i, lr.j-ul.j) > 1 {
					outc = 3
				}
				gout = fill(gout, outc, inobj)
			}
		}
		return gi, gout
	}},
	{"8731374e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		inh, inw := g.randint(5, h-2), g.randint(5, w-2)
		bf := sample(g, allColors, 2)
		bgc, fgc := bf[0], bf[1]
		num := g.unif(1, min(inh, inw))
		mat := fill(canvas(bgc, inh-2, inw-2), fgc, connect(pt{0, 0}, pt{num - 1, num - 1}))
		shuffle(g.rng, mat)
		mat = dmirror(mat)
		shuffle(g.rng, mat)
		mat = dmirror(mat)
		sgi := paint(canvas(bgc, inh, inw), shiftC(asobject(mat), 1, 1))
		var lins []pt
		for _, p := range ofcolor(sgi, fgc) {
			lins = append(lins, connect(pt{p.i, 0}, pt{p.i, inw - 1})...)
			lins = append(lins, connect(pt{0, p.j}, pt{inh - 1, p.j})...)
		}
		gout := fill(sgi, fgc, lins)
		numc := 13 - g.unif(3, 10)
		ccols := sample(g, allColors, numc)
		c := canvas(-1, h, w)
		gi := paint(c, withColors(asindices(c), ccols, g))
		loci, locj := g.randint(1, h-inh-1), g.randint(1, w-inw-1)
		gi = paint(gi, shiftC(asobject(sgi), loci, locj))
		a, b, cc, d := loci, locj, loci+inh-1, locj+inw-1
		ps := []pt{
			choice(g, connect(pt{a - 1, b}, pt{a - 1, d})),
			choice(g, connect(pt{a, b - 1}, pt{cc, b - 1})),
			choice(g, connect(pt{cc + 1, b}, pt{cc + 1, d})),
			choice(g, connect(pt{a, d + 1}, pt{cc, d + 1})),
		}
		return paint(gi, withColors(ps, without(ccols, bgc), g)), gout
	}},
	{"b2862040", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		var gi, gout Grid
		for range 1000 {
			h, w := g.unif(10, 30), g.unif(10, 30)
			nobjs := g.unif(1, h*w/16)
			succ, tr, maxtr := 0, 0, 10*nobjs
			bgc := choice(g, cols)
			rem := without(cols, bgc)
			gi = canvas(bgc, h, w)
			inds := newDrawSet(asindices(gi))
			for succ < nobjs && tr < maxtr {
				tr++
				oh, ow := g.randint(3, 6), g.randint(3, 6)
				obj := dedup(box([]pt{{0, 0}, {oh - 1, ow - 1}}))
				if choice(g, []bool{true, false}) {
					nkeep := g.unif(2, len(obj)-1)
					nrem := len(obj) - nkeep
					obj = minus(obj, []pt{choice(g, minus(obj, corners(obj)))})
					for range nrem - 1 {
						in := newDrawSet(obj)
						var xx []pt
						for _, p := range obj {
							n := 0
							for _, q := range dneighbors(p) {
								if in.has(q) {
									n++
								}
							}
							if n == 1 {
								xx = append(xx, p)
							}
						}
						if len(xx) == 0 {
							break
						}
						obj = minus(obj, []pt{choice(g, xx)})
					}
				}
				npert := g.unif(0, oh+ow)
				ul, lr := bounds(obj)
				objcands := newDrawSet(nil)
				for k := 1; k <= 3; k++ {
					for _, p := range outbox(pt{ul.i - k + 1, ul.j - k + 1}, pt{lr.i + k - 1, lr.j + k - 1}) {
						objcands.add(p)
					}
				}
				f := newFrontier(objcands.list, dneighbors)
				for _, p := range obj {
					f.take(p)
				}
				for range npert {
					p := f.pick(g)
					f.take(p)
					obj = append(obj, p)
				}
				obj = normalize(obj)
				_, lr = bounds(obj)
				oh, ow = lr.i+1, lr.j+1
				var cands []pt
				for _, p := range inds.list {
					if p.i <= h-oh && p.j <= w-ow {
						cands = append(cands, p)
					}
				}
				if len(cands) == 0 {
					continue
				}
				loc := choice(g, cands)
				plcd := shift(obj, loc.i, loc.j)
				if inds.hasAll(plcd) {
					gi = fill(gi, choice(g, rem), plcd)
					succ++
					inds.remove(plcd...)
					for _, p := range plcd {
						inds.remove(neighbors(p)...)
					}
				}
			}
			objs := objects(gi)
			objsm := map[pt]bool{}
			for _, o := range objs {
				if o.color != bgc {
					continue
				}
				ul, lr := bounds(o.cells)
				if ul.i != 0 && ul.j != 0 && lr.i != h-1 && lr.j != w-1 {
					for _, p := range o.cells {
						objsm[p] = true
					}
				}
			}
			gout = gi
			if len(objsm) > 0 {
				for _, o := range objs {
					if o.color != bgc && touches(o.cells, objsm) {
						gout = fill(gout, 8, o.cells)
					}
				}
				break
			}
		}
		return gi, gout
	}},
	{"ff28f65a", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		mpr := []pt{{0, 0}, {0, 2}, {1, 1}, {2, 0}, {2, 2}}
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		nred := g.randint(1, 5)
		gi := canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		place := func(n, tr int, col func() int) int {
			succ, maxtr := 0, 5*n
			for tr < maxtr && succ < n {
				tr++
				oh, ow := g.randint(1, h/2+1), g.randint(1, w/2+1)
				var cands []pt
				for _, p := range inds.list {
					if p.i <= h-oh && p.j <= w-ow {
						cands = append(cands, p)
					}
				}
				if len(cands) == 0 {
					continue
				}
				l := choice(g, cands)
				bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
				if inds.hasAll(bd) {
					succ++
					inds.remove(bd...)
					for _, p := range bd {
						inds.remove(dneighbors(p)...)
					}
					gi = fill(gi, col(), bd)
				}
			}
			return succ
		}
		nblue := place(nred, 0, func() int { return 2 })
		namt := g.unif(0, nred*2)
		rem := without(cols, bgc)
		place(namt, 1, func() int { return choice(g, rem) })
		return gi, fill(canvas(bgc, 3, 3), 1, mpr[:nblue])
	}},
	{"045e512c", func(g *gen) (Grid, Grid) {
		h, w := g.unif(11, 30), g.unif(11, 30)
		var oh, ow int
		var obj []pt
		for range 1000 {
			oh, ow = g.unif(2, min(4, (h-2)/3)), g.unif(2, min(4, (w-2)/3))
			bnds := asindices(canvas(-1, oh, ow))
			obj = dedup([]pt{
				choice(g, connect(pt{0, 0}, pt{oh - 1, 0})),
				choice(g, connect(pt{0, 0}, pt{0, ow - 1})),
				choice(g, connect(pt{oh - 1, ow - 1}, pt{oh - 1, 0})),
				choice(g, connect(pt{oh - 1, ow - 1}, pt{0, ow - 1})),
			})
			remcands := minus(bnds, obj)
			for range g.unif(0, len(remcands)) {
				loc := choice(g, remcands)
				obj = append(obj, loc)
				remcands = minus(remcands, []pt{loc})
			}
			if connected8(obj) {
				break
			}
		}
		loci, locj := g.randint(oh+1, h-2*oh-1), g.randint(ow+1, w-2*ow-1)
		bo := sample(g, allColors, 2)
		bgc, objc := bo[0], bo[1]
		rem := without(allColors, bgc, objc)
		ccols := sample(g, rem, g.unif(1, 8))
		obj = shift(obj, loci, locj)
		gi, gout := fill(canvas(bgc, h, w), objc, obj), fill(canvas(bgc, h, w), objc, obj)
		ndirs := g.unif(1, 8)
		dirs := sample(g, neighbors(pt{0, 0}), ndirs)
		dcols := make([]int, ndirs)
		for k := range dcols {
			dcols[k] = choice(g, ccols)
		}
		onBar := func(p pt) bool {
			return (p.i == loci-2 || p.i == loci+oh+1) && p.j >= 0 && p.j < 30 ||
				(p.j == locj-2 || p.j == locj+ow+1) && p.i >= 0 && p.i < 30
		}
		for k, d := range dirs {
			var ind []pt
			for _, p := range shift(obj, d.i*(oh+1), d.j*(ow+1)) {
				if onBar(p) {
					ind = append(ind, p)
				}
			}
			nindsd := g.unif(0, len(ind)-1)
			ind = sample(g, ind, len(ind)-nindsd)
			if len(ind) > 0 && len(ind) < len(obj) {
				gi = fill(gi, dcols[k], ind)
				for m := 1; m < 10; m++ {
					gout = fill(gout, dcols[k], shift(obj, m*d.i*(oh+1), m*d.j*(ow+1)))
				}
			}
		}
		return gi, gout
	}},
	{"11852cab", func(g *gen) (Grid, Grid) {
		rings := [][]pt{
			{{2, 2}},
			{{1, 1}, {3, 1}, {1, 3}, {3, 3}},
			{{2, 0}, {0, 2}, {4, 2}, {2, 4}},
			{{0, 0}, {0, 4}, {4, 0}, {4, 4}},
		}
		bx := backdrop(pt{0, 0}, pt{4, 4})
		h, w := g.unif(7, 30), g.unif(7, 30)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(backdrop(pt{1, 1}, pt{h - 2, w - 2}))
		nobjs := g.unif(1, max(1, h*w/36))
		succ, tr, maxtr := 0, 0, 10*nobjs
		for succ < nobjs && tr < maxtr {
			tr++
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-5 && p.i <= w-5 { // RE-ARC tests the row twice
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			plcd := shift(bx, loc.i, loc.j)
			if !inds.hasAll(plcd) {
				continue
			}
			inds.remove(plcd...)
			inds.remove(outbox(loc, pt{loc.i + 4, loc.j + 4})...)
			rc := make([]int, 4)
			for k := range rc {
				rc[k] = choice(g, ccols)
			}
			pr := make([][]pt, 4)
			for k, r := range rings {
				pr[k] = shift(r, loc.i, loc.j)
			}
			gi, gout = fill(gi, rc[0], pr[0]), fill(gout, rc[0], pr[0])
			idx := g.randint(1, 3)
			gi, gout = fill(gi, rc[idx], pr[idx]), fill(gout, rc[idx], pr[idx])
			var remr [][]pt
			var remc []int
			for k := 1; k <= 3; k++ {
				if k != idx {
					remr, remc = append(remr, pr[k]), append(remc, rc[k])
				}
			}
			locs := sample(g, []int{0, 1}, g.unif(1, 2))
			var tgi, tgo []cell
			for j := range remr {
				if !contains(locs, j) {
					continue
				}
				tgi = append(tgi, recolor(remc[j], sample(g, remr[j], 4-g.unif(0, 3)))...)
				tgo = append(tgo, recolor(remc[j], remr[j])...)
			}
			ul, lr := bounds(toindices(tgi))
			if min(lr.i-ul.i, lr.j-ul.j)+1 == 5 {
				succ++
				gi, gout = paint(gi, tgi), paint(gout, tgo)
			}
		}
		return gi, gout
	}},
	{"7df24a62", func(g *gen) (Grid, Grid) {
		h, w := g.unif(12, 32), g.unif(12, 32)
		oh, ow := g.unif(3, min(7, h/3)), g.unif(3, min(7, w/3))
		c3 := sample(g, allColors, 3)
		bgc, noisec, sqc := c3[0], c3[1], c3[2]
		tmpg := canvas(sqc, oh, ow)
		inb := backdrop(pt{1, 1}, pt{oh - 2, ow - 2})
		obj := []pt{choice(g, inb)}
		for {
			ul, lr := bounds(obj)
			if lr.i-ul.i == oh-3 && lr.j-ul.j == ow-3 {
				break
			}
			p := choice(g, minus(inb, obj))
			obj = append(obj, p)
		}
		targ := asobject(fill(canvas(bgc, oh, ow), noisec, obj))
		sour := asobject(fill(tmpg, noisec, obj))
		gi := canvas(bgc, h, w)
		loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
		plcddd := shiftC(sour, loci, locj)
		gi = paint(gi, plcddd)
		inds := newDrawSet(nil)
		for _, p := range ofcolor(gi, bgc) {
			if p.i >= 1 && p.i <= h-2 && p.j >= 1 && p.j <= w-2 {
				inds.add(p)
			}
		}
		for _, p := range toindices(plcddd) {
			inds.remove(p)
			inds.remove(dneighbors(p)...)
		}
		namt := g.unif(1, max(1, inds.size()/4))
		gi = fill(gi, noisec, sample(g, inds.list, namt))
		fns := []func([]cell) []cell{identityC, dmirrorC, cmirrorC, hmirrorC, vmirrorC}
		var targs, sours [][]cell
		for _, f1 := range fns {
			for _, f2 := range fns {
				targs = append(targs, normalizeC(f1(f2(targ))))
				sours = append(sours, normalizeC(f1(f2(sour))))
			}
		}
		noccs := g.unif(1, max(1, h*w/(oh*ow*4)))
		succ, tr, maxtr := 0, 0, 5*noccs
		for succ < noccs && tr < maxtr {
			tr++
			t := choice(g, targs)
			_, lr := bounds(toindices(t))
			hh, ww := lr.i+1, lr.j+1
			var cands []pt
			for _, p := range inds.list {
				if 1 <= p.i && p.i <= h-hh-1 && 1 <= p.j && p.j <= w-ww-1 {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			tp := shiftC(t, loc.i, loc.j)
			if tpi := toindices(tp); inds.hasAll(tpi) {
				succ++
				inds.remove(tpi...)
				gi = paint(gi, tp)
			}
		}
		gout := paint(replace(gi, sqc, bgc), plcddd)
		var res []cell
		for k, t := range targs {
			for _, o := range occurrences(gout, t) {
				res = append(res, shiftC(sours[k], o.i, o.j)...)
			}
		}
		gout = paint(gout, res)
		return crop(gi, 1, 1, h-2, w-2), crop(gout, 1, 1, h-2, w-2)
	}},
	{"8a004b2b", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		oh, ow := g.unif(2, h/5), g.unif(2, w/5)
		bnds := asindices(canvas(-1, oh, ow))
		c5 := sample(g, allColors, 5)
		bgc, cornc, ac1, ac2, objc := c5[0], c5[1], c5[2], c5[3], c5[4]
		gi := canvas(bgc, h, w)
		first := choice(g, bnds)
		ncellsd := g.unif(0, oh*ow/2)
		ncells := choice(g, []int{ncellsd, oh*ow - ncellsd})
		ncells = min(max(3, ncells), oh*ow)
		shp := normalize(grow(g, bnds, []pt{first}, ncells-1))
		_, lr := bounds(shp)
		oh, ow = lr.i+1, lr.j+1
		fp1 := choice(g, shp)
		fp2 := choice(g, minus(shp, []pt{fp1}))
		obj := append(recolor(objc, minus(shp, []pt{fp1, fp2})), cell{ac1, fp1}, cell{ac2, fp2})
		hscf, wscf := g.unif(1, (h-oh-4)/oh), g.unif(1, (w-ow-4)/ow)
		loci, locj := g.randint(0, 2), g.randint(0, 2)
		gi = paint(gi, shiftC(obj, loci, locj))
		inh, inw := hscf*oh, wscf*ow
		sqh, sqw := g.unif(inh+2, h-oh-2), g.unif(inw+2, w)
		sqloci, sqlocj := g.randint(loci+oh, h-sqh), g.randint(0, w-sqw)
		crns := corners([]pt{{sqloci, sqlocj}, {sqloci + sqh - 1, sqlocj + sqw - 1}})
		gi = fill(gi, cornc, crns)
		mini := crop(gi, loci, locj, oh, ow)
		goo := asobject(build(inh, inw, func(i, j int) int { return mini[i/hscf][j/wscf] }))
		gloci := g.randint(sqloci+1, sqloci+sqh-1-inh)
		glocj := g.randint(sqlocj+1, sqlocj+sqw-1-inw)
		gooplcd := shiftC(goo, gloci, glocj)
		gout := crop(paint(gi, gooplcd), sqloci, sqlocj, sqh, sqw)
		var indic []cell
		for _, c := range gooplcd {
			if c.c == ac1 || c.c == ac2 {
				indic = append(indic, c)
			}
		}
		gi = paint(gi, indic)
		if choice(g, []bool{true, false}) && len(obj) > 3 {
			idx := choice(g, minus(shp, []pt{fp1, fp2}))
			xx := shift(asindices(canvas(-1, hscf, wscf)), gloci+idx.i*hscf, glocj+idx.j*wscf)
			gi = fill(gi, objc, xx)
		}
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"3e980e27", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 3)
		h, w := g.unif(11, 30), g.unif(11, 30)
		c3 := sample(g, cols, 3)
		bgc, rcol, gcol := c3[0], c3[1], c3[2]
		var objs [][]cell
		for _, fr := range [][2]int{{2, rcol}, {3, gcol}} {
			oh, ow := g.unif(2, 5), g.unif(2, 5)
			bnds := asindices(canvas(-1, oh, ow))
			first := choice(g, bnds)
			ncellsd := g.unif(0, oh*ow/2)
			ncells := choice(g, []int{ncellsd, oh*ow - ncellsd})
			ncells = min(max(2, ncells), oh*ow)
			shp := normalize(grow(g, bnds, []pt{first}, ncells-1))
			fixp := choice(g, shp)
			objs = append(objs, append([]cell{{fr[0], fixp}}, recolor(fr[1], minus(shp, []pt{fixp}))...))
		}
		robj, gobj := objs[0], objs[1]
		o12 := sample(g, objs, 2)
		ext := func(o []cell) (int, int) {
			_, lr := bounds(toindices(o))
			return lr.i + 1, lr.j + 1
		}
		h1, w1 := ext(o12[0])
		h2, w2 := ext(o12[1])
		loci1 := g.randint(0, h-h1-h2-1)
		locj1 := g.randint(0, w-w1)
		loci2 := g.randint(loci1+h1+1, h-h2)
		locj2 := g.randint(0, w-w2)
		obj1p, obj2p := shiftC(o12[0], loci1, locj1), shiftC(o12[1], loci2, locj2)
		gi := paint(paint(canvas(bgc, h, w), obj1p), obj2p)
		noccs := g.unif(1, h*w/int(1.5*float64(len(robj)+len(gobj))))
		succ, tr, maxtr := 0, 0, 5*noccs
		robj = vmirrorC(robj)
		inds := newDrawSet(ofcolor(gi, bgc))
		for _, p := range append(toindices(obj1p), toindices(obj2p)...) {
			inds.remove(neighbors(p)...)
		}
		gout := gi
		objopts := [][]cell{robj, gobj}
		for tr < maxtr && succ < noccs {
			tr++
			obj := choice(g, objopts)
			oh, ow := ext(obj)
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			plcd := shiftC(obj, loc.i, loc.j)
			plcdi := toindices(plcd)
			if inds.hasAll(plcdi) {
				succ++
				for _, p := range plcdi {
					inds.remove(p)
					inds.remove(neighbors(p)...)
				}
				for _, c := range plcd {
					if c.c == 2 || c.c == 3 {
						gi = paint(gi, []cell{c})
					}
				}
				gout = paint(gout, plcd)
			}
		}
		if g.unif(1, 100) < 30 {
			c := choice(g, []int{2, 3})
			drop := func(x Grid) Grid {
				var ps []pt
				for _, o := range objectsX(x, false, true, true) {
					for _, cl := range o {
						if cl.c == c {
							ps = append(ps, toindices(o)...)
							break
						}
					}
				}
				return fill(x, bgc, ps)
			}
			gi, gout = drop(gi), drop(gout)
		}
		return gi, gout
	}},
	{"72322fa7", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		nobjs := g.unif(1, 4)
		ccols := sample(g, rem, 2*nobjs)
		var objs [][]cell
		gi := canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		for k := range nobjs {
			ca, cb := ccols[k], ccols[nobjs+k]
			oh := g.unif(1, 4)
			lo := 1
			if oh == 1 {
				lo = 2
			}
			ow := g.unif(lo, 4)
			if choice(g, []bool{true, false}) {
				oh, ow = ow, oh
			}
			bnds := asindices(canvas(-1, oh, ow))
			first := choice(g, bnds)
			objn := normalize(grow(g, bnds, []pt{first}, g.randint(2, oh*ow)-1))
			apart := sample(g, objn, g.randint(1, len(objn)-1))
			obj := append(recolor(ca, apart), recolor(cb, minus(objn, apart))...)
			var cands []pt
			for _, p := range inds.list {
				if inds.hasAll(shift(objn, p.i, p.j)) {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			plcd := shiftC(obj, loc.i, loc.j)
			gi = paint(gi, plcd)
			for _, p := range toindices(plcd) {
				inds.remove(p)
				inds.remove(neighbors(p)...)
			}
			objs = append(objs, obj)
		}
		tot := 0
		for _, o := range objs {
			tot += len(o)
		}
		avgs := float64(tot) / float64(len(objs))
		noccs := g.unif(1, max(1, int(math.Floor(float64(h*w)/(avgs*2)))))
		succ, tr, maxtr := 0, 0, 5*noccs
		gout := gi
		for tr < maxtr && succ < noccs {
			tr++
			obj := choice(g, objs)
			var pal []int
			for _, c := range obj {
				if !contains(pal, c.c) {
					pal = append(pal, c.c)
				}
			}
			_, lr := bounds(toindices(obj))
			oh, ow := lr.i+1, lr.j+1
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			plcd := shiftC(obj, loc.i, loc.j)
			plcdi := toindices(plcd)
			if inds.hasAll(plcdi) {
				succ++
				for _, p := range plcdi {
					inds.remove(p)
					inds.remove(neighbors(p)...)
				}
				gout = paint(gout, plcd)
				col := choice(g, pal)
				for _, c := range plcd {
					if c.c == col {
						gi = paint(gi, []cell{c})
					}
				}
			}
		}
		return gi, gout
	}},
	{"264363fd", func(g *gen) (Grid, Grid) {
		cp := pt{2, 2}
		spikesAll := []struct {
			cells []pt
			dir   pt
		}{
			{[]pt{{1, 2}, {0, 2}}, pt{-1, 0}},
			{[]pt{{2, 1}, {2, 0}}, pt{0, -1}},
			{[]pt{{3, 2}, {4, 2}}, pt{1, 0}},
			{[]pt{{2, 3}, {2, 4}}, pt{0, 1}},
		}
		h, w := g.unif(15, 30), g.unif(15, 30)
		c3 := sample(g, allColors, 3)
		bgc, sqc, linc := c3[0], c3[1], c3[2]
		rem := without(allColors, bgc, sqc, linc)
		cpcol, nbhcol := choice(g, rem), choice(g, rem)
		spikes := sample(g, spikesAll, g.randint(1, 4))
		var lns []pt
		for _, s := range spikes {
			lns = append(lns, s.cells...)
		}
		obj := append([]cell{{cpcol, cp}}, recolor(linc, lns)...)
		obj = append(obj, recolor(nbhcol, minus(neighbors(cp), lns))...)
		loc0 := pt{g.randint(0, h-5), g.randint(0, w-5)}
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		gi = paint(gi, shiftC(obj, loc0.i, loc0.j))
		numsq := g.unif(1, h*w/100)
		succ, tr, maxtr := 0, 0, 10*numsq
		inds := newDrawSet(ofcolor(gi, bgc))
		for _, p := range toindices(shiftC(obj, loc0.i, loc0.j)) {
			inds.remove(neighbors(p)...)
		}
		for succ < numsq && tr < maxtr {
			tr++
			gh, gw := g.randint(5, h/2+1), g.randint(5, w/2+1)
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-gh && p.j <= w-gw {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			g1, g2 := canvas(sqc, gh, gw), canvas(sqc, gh, gw)
			full := asindices(g1)
			ginds := newDrawSet(full)
			bck := shift(full, loc.i, loc.j)
			if !inds.hasAll(bck) {
				continue
			}
			noccs := g.unif(1, gh*gw/25)
			succ2, tr2, maxtr2 := 0, 0, 5*noccs
			for succ2 < noccs && tr2 < maxtr2 {
				tr2++
				var cands2 []pt
				for _, p := range ginds.list {
					if p.i <= gh-5 && p.j <= gw-5 {
						cands2 = append(cands2, p)
					}
				}
				if len(cands2) == 0 {
					break
				}
				loc2 := choice(g, cands2)
				var lns2 []pt
				for _, s := range spikes {
					st := pt{cp.i + loc2.i + s.dir.i, cp.j + loc2.j + s.dir.j}
					for _, p := range shoot(st, s.dir.i, s.dir.j) {
						if p.i >= 0 && p.i < gh && p.j >= 0 && p.j < gw {
							lns2 = append(lns2, p)
						}
					}
				}
				plcd2 := shiftC(obj, loc2.i, loc2.j)
				plcd2i := toindices(plcd2)
				linesOK := true
				for _, p := range lns2 {
					if !ginds.has(p) && g2[p.i][p.j] != linc {
						linesOK = false
						break
					}
				}
				if ginds.hasAll(plcd2i) && linesOK && len(minus(lns2, plcd2i)) > 0 {
					succ2++
					for _, p := range plcd2i {
						ginds.remove(p)
						ginds.remove(neighbors(p)...)
					}
					ginds.remove(lns2...)
					g1 = fill(g1, cpcol, []pt{{cp.i + loc2.i, cp.j + loc2.j}})
					g2 = fill(paint(g2, plcd2), linc, lns2)
				}
			}
			if succ2 > 0 {
				succ++
				inds.remove(bck...)
				inds.remove(outbox(loc, pt{loc.i + gh - 1, loc.j + gw - 1})...)
				gi = paint(gi, shiftC(asobject(g1), loc.i, loc.j))
				gout = paint(gout, shiftC(asobject(g2), loc.i, loc.j))
			}
		}
		return gi, gout
	}},
	{"36d67576", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 1000 {
			h, w := g.unif(10, 30), g.unif(10, 30)
			c3 := sample(g, allColors, 3)
			bgc, mainc, markerc := c3[0], c3[1], c3[2]
			rem := without(allColors, bgc, mainc, markerc)
			_ = sample(g, rem, g.unif(1, len(rem))) // ccols: drawn and unused in RE-ARC
			gi = canvas(bgc, h, w)
			oh := g.unif(2, 5)
			lo := 2
			if oh == 2 {
				lo = 3
			}
			ow := g.unif(lo, 5)
			if choice(g, []bool{true, false}) {
				oh, ow = ow, oh
			}
			bnds := asindices(canvas(-1, oh, ow))
			ncells := g.unif(4, len(bnds))
			first := choice(g, bnds)
			shp := normalize(grow(g, bnds, []pt{first}, ncells-1))
			_, lr := bounds(shp)
			oh, ow = lr.i+1, lr.j+1
			ntocompc := g.unif(1, ncells-3)
			marker := choice(g, shp)
			remobj := minus(shp, []pt{marker})
			tocompc := sample(g, remobj, ntocompc)
			mainpart := minus(remobj, tocompc)
			smobj := append(recolor(mainc, mainpart), cell{markerc, marker})
			obj := append(withColors(tocompc, rem, g), smobj...)
			smobjn := normalizeC(smobj)
			fake := false
			for _, f := range []func([]cell) []cell{dmirrorC, cmirrorC, hmirrorC, vmirrorC} {
				if sameCells(f(smobjn), smobjn) && !sameCells(f(obj), obj) {
					fake = true
					break
				}
			}
			if fake {
				continue
			}
			loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
			plcd := shiftC(obj, loci, locj)
			gi = paint(gi, plcd)
			inds := newDrawSet(asindices(gi))
			for _, p := range toindices(plcd) {
				inds.remove(p)
				inds.remove(neighbors(p)...)
			}
			noccs := g.unif(1, max(1, h*w/(2*len(obj))))
			succ, tr, maxtr := 0, 0, 5*noccs
			gout = gi
			fns := []func([]cell) []cell{identityC, dmirrorC, cmirrorC, hmirrorC, vmirrorC}
			for tr < maxtr && succ < noccs {
				tr++
				mf1, mf2 := choice(g, fns), choice(g, fns)
				outobj := normalizeC(mf1(mf2(obj)))
				var inobj []cell
				for _, c := range outobj {
					if c.c == mainc || c.c == markerc {
						inobj = append(inobj, c)
					}
				}
				_, lr := bounds(toindices(outobj))
				oh, ow := lr.i+1, lr.j+1
				var cands []pt
				for _, p := range inds.list {
					if p.i <= h-oh && p.j <= w-ow {
						cands = append(cands, p)
					}
				}
				if len(cands) == 0 {
					continue
				}
				loc := choice(g, cands)
				outp := shiftC(outobj, loc.i, loc.j)
				outpi := toindices(outp)
				if inds.hasAll(outpi) {
					succ++
					for _, p := range outpi {
						inds.remove(p)
						inds.remove(neighbors(p)...)
					}
					gi = paint(gi, shiftC(inobj, loc.i, loc.j))
					gout = paint(gout, outp)
				}
			}
			break
		}
		return gi, gout
	}},
}
