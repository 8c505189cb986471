package arc

// rearcGens6 are the sixth batch of ported generators.
var rearcGens6 = []rearcEntry{
	{"3aa6fb7a", func(g *gen) (Grid, Grid) {
		base := []pt{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
		cols := without(allColors, 1)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		gi := canvas(bgc, h, w)
		inds := asindices(gi)
		num := g.unif(1, h*w/2/3)
		var marks []pt
		for kk, tr := 0, 0; kk < num && tr < 2*num; tr++ {
			if len(inds) == 0 {
				break // RE-ARC would raise here
			}
			l := choice(g, inds)
			corner := choice(g, base)
			ell := shift(minus(base, []pt{corner}), l.i, l.j)
			if len(minus(ell, inds)) > 0 {
				continue
			}
			drop := append([]pt(nil), ell...)
			for _, p := range ell {
				drop = append(drop, pt{p.i - 1, p.j}, pt{p.i + 1, p.j}, pt{p.i, p.j - 1}, pt{p.i, p.j + 1})
			}
			inds = minus(inds, drop)
			gi = fill(gi, fgc, ell)
			marks = append(marks, pt{corner.i + l.i, corner.j + l.j})
			kk++
		}
		return gi, fill(gi, 1, marks)
	}},
	{"41e4d17e", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 6)
		h, w := g.unif(6, 30), g.unif(6, 30)
		num := g.unif(1, h*w/16)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := asindices(gi)
		ring := box([]pt{{0, 0}, {4, 4}})
		for succ, tr := 0, 0; succ < num && tr < 4*num; tr++ {
			if len(inds) == 0 {
				break // RE-ARC would raise here
			}
			l := choice(g, inds)
			bxs := shift(ring, l.i, l.j)
			if len(minus(bxs, inds)) > 0 {
				continue
			}
			gi, gout = fill(gi, fgc, bxs), fill(gout, fgc, bxs)
			cen := pt{l.i + 2, l.j + 2}
			var keep []pt
			for _, p := range append(connect(pt{cen.i, 0}, pt{cen.i, w - 1}), connect(pt{0, cen.j}, pt{h - 1, cen.j})...) {
				if gout[p.i][p.j] == bgc {
					keep = append(keep, p)
				}
			}
			gout = fill(gout, 6, keep)
			inds = minus(inds, backdrop(l, pt{l.i + 4, l.j + 4}))
			succ++
		}
		return gi, gout
	}},
	{"94f9d214", twoLayers},
	{"95990924", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3, 4)
		h, w := g.unif(6, 30), g.unif(6, 30)
		num := g.unif(1, h*w/16)
		bf := sample(g, cols, 2)
		gi, gout := canvas(bf[0], h, w), canvas(bf[0], h, w)
		inds := asindices(gi)
		ring := box([]pt{{0, 0}, {3, 3}})
		for succ, tr := 0, 0; succ < num && tr < 4*num; tr++ {
			if len(inds) == 0 {
				break // RE-ARC would raise here
			}
			l := choice(g, inds)
			if len(minus(shift(ring, l.i, l.j), inds)) > 0 {
				continue
			}
			in := backdrop(pt{l.i + 1, l.j + 1}, pt{l.i + 2, l.j + 2})
			gi, gout = fill(gi, bf[1], in), fill(gout, bf[1], in)
			for k, p := range []pt{{l.i, l.j}, {l.i, l.j + 3}, {l.i + 3, l.j}, {l.i + 3, l.j + 3}} {
				gout = fill(gout, k+1, []pt{p})
			}
			inds = minus(inds, backdrop(l, pt{l.i + 3, l.j + 3}))
			succ++
		}
		return gi, gout
	}},
	{"bc1d5164", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 15), g.unif(2, 14)
		fullh, fullw := 2*h-1, 2*w+1
		bo := sample(g, allColors, 2)
		bgc, objc := bo[0], bo[1]
		inds := asindices(canvas(-1, h, w))
		n := (h-1)*(w-1) - 1
		nA, nB, nC, nD := g.randint(1, n), g.randint(1, n), g.randint(1, n), g.randint(1, n)
		part := func(keep func(p pt) bool, k int) []pt {
			var ps []pt
			for _, p := range inds {
				if keep(p) {
					ps = append(ps, p)
				}
			}
			return sample(g, ps, k)
		}
		a := part(func(p pt) bool { return p.i < h-1 && p.j < w-1 }, nA)
		b := part(func(p pt) bool { return p.i < h-1 && p.j > 0 }, nB)
		c := part(func(p pt) bool { return p.i > 0 && p.j < w-1 }, nC)
		d := part(func(p pt) bool { return p.i > 0 && p.j > 0 }, nD)
		gi := canvas(bgc, fullh, fullw)
		gi = fill(gi, objc, a)
		gi = fill(gi, objc, shift(b, 0, fullw-w))
		gi = fill(gi, objc, shift(c, fullh-h, 0))
		gi = fill(gi, objc, shift(d, fullh-h, fullw-w))
		return gi, fill(canvas(bgc, h, w), objc, append(append(append(a, b...), c...), d...))
	}},
	{"d511f180", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5, 8)
		h, w := g.unif(2, 30), g.unif(2, 30)
		ccols := sample(g, cols, g.unif(1, 8))
		c := canvas(-1, h, w)
		inds := asindices(c)
		numbg := g.unif(0, h*w/2)
		bginds := sample(g, inds, numbg)
		idx := g.randint(0, numbg)
		blues, greys := bginds[:idx], bginds[idx:]
		gi := fill(fill(c, 8, blues), 5, greys)
		gout := fill(fill(c, 5, blues), 8, greys)
		for _, p := range minus(inds, bginds) {
			col := choice(g, ccols)
			gi[p.i][p.j], gout[p.i][p.j] = col, col
		}
		return gi, gout
	}},
	{"db3e9e38", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		barth := g.unif(1, max(1, w/5))
		loci := g.unif(1, h-2)
		locj := g.randint(1, w-barth-1)
		bar := backdrop(pt{loci, locj}, pt{0, locj + barth - 1})
		gi := fill(canvas(bgc, h, w), fgc, bar)
		gout := canvas(bgc, h, w)
		for k := range 16 {
			for _, s := range []struct{ n, col int }{{2 * k, fgc}, {2*k + 1, 8}} {
				gout = fill(gout, s.col, shift(bar, -s.n, s.n*barth))
				gout = fill(gout, s.col, shift(bar, -s.n, -s.n*barth))
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"e3497940", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(3, 14)
		bb := sample(g, allColors, 2)
		bgc, barc := bb[0], bb[1]
		ccols := sample(g, without(allColors, bgc, barc), g.unif(1, 8))
		rows := sample(g, interval(0, h), g.unif(1, h))
		rs, ls, gout := canvas(bgc, h, w), canvas(bgc, h, w), canvas(bgc, h, w)
		for _, i := range rows {
			j := g.unif(1, w-1)
			obj := make([]cell, j)
			for jj := range obj {
				obj[jj] = cell{choice(g, ccols), pt{i, jj}}
			}
			gout = paint(gout, obj)
			obj2 := obj[:g.randint(1, j)]
			if choice(g, []bool{true, false}) {
				obj, obj2 = obj2, obj
			}
			rs, ls = paint(rs, obj), paint(ls, obj2)
		}
		return hconcat(hconcat(vmirror(ls), canvas(barc, h, 1)), rs), vmirror(gout)
	}},
	{"e98196ab", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 14), g.unif(3, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		linc := choice(g, rem)
		rem = without(rem, linc)
		topc := choice(g, rem)
		botc := choice(g, without(rem, topc))
		c := canvas(bgc, h, w)
		nocc := g.unif(2, h*w/2)
		subs := sample(g, asindices(c), nocc)
		a := sample(g, subs, g.randint(1, nocc-1))
		b := minus(subs, a)
		top, bot := fill(c, topc, a), fill(c, botc, b)
		gout := fill(top, botc, b)
		gi := vconcat(vconcat(top, canvas(linc, 1, w)), bot)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"f25fbde4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 30)
		bh, bw := min(15, h-1), min(15, w-1)
		ncd := g.unif(1, max(1, bh*bw/2))
		_ = choice(g, []int{ncd, (h-1)*(w-1) - ncd}) // drawn and overwritten in RE-ARC
		nc := min(max(1, ncd), (h-1)*(w-1)-1)
		bgc := choice(g, allColors)
		fgc := choice(g, without(allColors, bgc))
		c := canvas(bgc, h, w)
		area := asindices(canvas(-1, bh, bw))
		ch := choice(g, area)
		shp := normalize(grow(g, minus(area, []pt{ch}), []pt{ch}, nc))
		_, lr := bounds(shp)
		loci, locj := g.randint(0, h-lr.i-1), g.randint(0, w-lr.j-1)
		gi := fill(c, fgc, shift(shp, loci, locj))
		return gi, upscale(compress(gi), 2)
	}},
}
