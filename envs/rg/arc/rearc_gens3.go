package arc

// rearcGens3 are the third batch of ported generators.
var rearcGens3 = []rearcEntry{
	{"0a938d79", func(g *gen) (Grid, Grid) {
		h := g.unif(4, 29)
		w := g.unif(h+1, 30)
		c3 := sample(g, allColors, 3)
		bgc, cola, colb := c3[0], c3[1], c3[2]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		locja := g.unif(3, w-2)
		locjb := g.unif(1, locja-2)
		locia, locib := choice(g, []int{0, h - 1}), choice(g, []int{0, h - 1})
		gi = fill(gi, cola, []pt{{locia, locja}})
		gi = fill(gi, colb, []pt{{locib, locjb}})
		step := 2 * (locja - locjb)
		for a := locja; a > -1; a -= step {
			gout = fill(gout, cola, connect(pt{0, a}, pt{h - 1, a}))
		}
		for b := locjb; b > -1; b -= step {
			gout = fill(gout, colb, connect(pt{0, b}, pt{h - 1, b}))
		}
		rot := choice(g, []transform{rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"2281f1f4", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(3, 30), g.unif(3, 30)
		numtop, numright := g.unif(1, w/2+1), g.unif(1, h/2+1)
		if numtop == 1 && numright == 1 {
			s := sample(g, []int{1, 2}, 2)
			numtop, numright = s[0], s[1]
		}
		tp := sample(g, interval(0, w-1), numtop)
		rp := sample(g, interval(1, h), numright)
		var res, prod []pt
		for _, j := range tp {
			res = append(res, pt{0, j})
		}
		for _, i := range rp {
			res = append(res, pt{i, w - 1})
			for _, j := range tp {
				prod = append(prod, pt{i, j})
			}
		}
		bgc := choice(g, cols)
		dc := choice(g, without(cols, bgc))
		gi := fill(canvas(bgc, h, w), dc, res)
		gout := fill(gi, 2, prod)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"46f33fce", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 7), g.unif(2, 7)
		nc := g.unif(0, h*w/2-1)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gout, gi := canvas(bgc, h, w), canvas(bgc, 2*h, 2*w)
		objo := withColors(sample(g, asindices(gout), nc), rem, g)
		obji := make([]cell, len(objo))
		for k, c := range objo {
			obji[k] = cell{c.c, pt{2*c.p.i + 1, 2*c.p.j + 1}}
		}
		return paint(gi, obji), upscale(paint(gout, objo), 4)
	}},
	{"54d9e175", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		nh := g.unif(1, 31/(h+1))
		lo := 2
		if nh > 1 {
			lo = 1
		}
		nw := g.unif(lo, 31/(w+1))
		fullh, fullw := (h+1)*nh-1, (w+1)*nw-1
		lb := sample(g, []int{0, 5}, 2)
		linc, bgc := lb[0], lb[1]
		gi, gout := canvas(linc, fullh, fullw), canvas(linc, fullh, fullw)
		block := asindices(canvas(bgc, h, w))
		for a := range nh {
			for b := range nw {
				placed := shift(block, a*(h+1), b*(w+1))
				icol := g.randint(1, 4)
				gi = fill(gi, bgc, placed)
				gout = fill(gout, icol+5, placed)
				gi = fill(gi, icol, []pt{choice(g, placed)})
			}
		}
		return gi, gout
	}},
	{"67a423a3", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi := canvas(bgc, h, w)
		lineh, linew := g.unif(1, h/3), g.unif(1, w/3)
		loci, locj := g.randint(1, h-lineh-1), g.randint(1, w-linew-1)
		acol := choice(g, rem)
		bcol := choice(g, without(rem, acol))
		for a := range lineh {
			gi = fill(gi, acol, connect(pt{loci + a, 0}, pt{loci + a, w - 1}))
		}
		for b := range linew {
			gi = fill(gi, bcol, connect(pt{0, locj + b}, pt{h - 1, locj + b}))
		}
		gout := fill(gi, 4, outbox(pt{loci, locj}, pt{loci + lineh - 1, locj + linew - 1}))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"67e8384a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 14), g.unif(1, 14)
		bgc := choice(g, allColors)
		rem := sample(g, without(allColors, bgc), g.unif(1, 9))
		canv := canvas(bgc, h, w)
		nc := g.unif(1, h*w)
		f := newFrontier(asindices(canv), neighbors)
		first := choice(g, asindices(canv))
		obj := []cell{{choice(g, rem), first}}
		// RE-ARC leaves the first cell among the candidates, so it may be
		// painted twice; the later colour wins here.
		f.touch(first)
		for range nc - 1 {
			ch := f.pick(g)
			obj = append(obj, cell{choice(g, rem), ch})
			f.take(ch)
		}
		gi := paint(canv, obj)
		gout := hconcat(gi, vmirror(gi))
		return gi, vconcat(gout, hmirror(gout))
	}},
	{"7468f01a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		sf := sample(g, without(allColors, bgc), 2)
		oh := g.unif(2, max(2, int(float64(h)*(2.0/3))))
		ow := g.unif(2, max(2, int(float64(w)*(2.0/3))))
		gi, gout := canvas(bgc, h, w), canvas(sf[0], oh, ow)
		f := newFrontier(asindices(gout), func(p pt) []pt {
			return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
		})
		f.take(pt{0, 0})
		order := []pt{{0, 0}}
		for range g.unif(0, max(1, oh*ow/2)) {
			p := f.pick(g)
			f.take(p)
			order = append(order, p)
		}
		gout = fill(gout, sf[1], order)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		m := vmirror(gout)
		var obj []cell
		for _, p := range asindices(m) {
			obj = append(obj, cell{m[p.i][p.j], pt{p.i + loci, p.j + locj}})
		}
		return paint(gi, obj), gout
	}},
	{"794b24be", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		spots := []pt{{0, 0}, {0, 1}, {0, 2}, {1, 1}}
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		nblue := g.randint(1, 4)
		gout := fill(canvas(bgc, 3, 3), 2, spots[:nblue])
		gi := fill(canvas(bgc, h, w), 1, sample(g, asindices(canvas(bgc, h, w)), nblue))
		remlocs := ofcolor(gi, bgc)
		namt := g.unif(0, len(remlocs)/2-1)
		ccols := sample(g, without(cols, bgc), g.unif(1, 7))
		gi = paint(gi, withColors(sample(g, remlocs, namt), ccols, g))
		return gi, gout
	}},
	{"91714a58", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		bt := sample(g, allColors, 2)
		bgc, targc := bt[0], bt[1]
		rem := without(allColors, bgc)
		nnoise := g.unif(1, h*w/2)
		gi := canvas(bgc, h, w)
		noise := sample(g, asindices(gi), nnoise)
		ih, iw := g.randint(2, h/2), g.randint(2, w/2)
		loci, locj := g.randint(0, h-ih), g.randint(0, w-iw)
		bd := backdrop(pt{loci, locj}, pt{loci + ih - 1, locj + iw - 1})
		gout := fill(gi, targc, bd)
		for _, p := range noise {
			gi = fill(gi, choice(g, rem), []pt{p})
		}
		return fill(gi, targc, bd), gout
	}},
	{"995c5fa3", func(g *gen) (Grid, Grid) {
		full := asindices(canvas(-1, 4, 4))
		shapes := []struct {
			cells []pt
			out   int
		}{
			{full, 2},
			{box(full), 8},
			{minus(full, []pt{{1, 0}, {2, 0}, {1, 3}, {2, 3}}), 3},
			{minus(full, []pt{{2, 1}, {2, 2}, {3, 1}, {3, 2}}), 4},
		}
		num := g.unif(1, 6)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi := canvas(bgc, 4, 5*num-1)
		gout := make(Grid, num)
		for k := range num {
			col := choice(g, rem)
			s := choice(g, shapes)
			gi = fill(gi, col, shift(s.cells, 0, 5*k))
			gout[k] = solidBlock(s.out, num)
		}
		return gi, gout
	}},
	{"99fa7670", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		starts := sample(g, interval(0, h), g.unif(1, h/2))
		sortInts(starts)
		ends := append([]int(nil), starts[1:]...)
		for k := range ends {
			ends[k]--
		}
		ends = append(ends, h-1)
		nc := g.unif(1, 9)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), nc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for k, s := range starts {
			col := choice(g, ccols)
			locj := g.randint(0, w-2)
			gi = fill(gi, col, []pt{{s, locj}})
			gout = fill(gout, col, append(connect(pt{s, locj}, pt{s, w - 1}), connect(pt{s, w - 1}, pt{ends[k], w - 1})...))
		}
		return gi, gout
	}},
	{"7ddcd7ec", func(g *gen) (Grid, Grid) {
		type corner struct{ sp, dr pt }
		crns := []corner{{pt{0, 0}, pt{-1, -1}}, {pt{0, 1}, pt{-1, 1}}, {pt{1, 0}, pt{1, -1}}, {pt{1, 1}, pt{1, 1}}}
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, allColors)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		chos := sample(g, crns, g.unif(0, 4))
		loc := pt{g.randint(0, h-2), g.randint(0, w-2)}
		rem := without(allColors, bgc)
		for _, c := range crns {
			sp := pt{loc.i + c.sp.i, loc.j + c.sp.j}
			col := choice(g, rem)
			gi = fill(gi, col, []pt{sp})
			gout = fill(gout, col, []pt{sp})
			for _, x := range chos {
				if x == c {
					gi = fill(gi, col, []pt{{sp.i + c.dr.i, sp.j + c.dr.j}})
					gout = fill(gout, col, shoot(sp, c.dr.i, c.dr.j))
				}
			}
		}
		return gi, gout
	}},
	{"a8d7556c", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 2)
		h, w := g.unif(6, 30), g.unif(6, 30)
		c := canvas(choice(g, cols), h, w)
		inds := asindices(c)
		gi := fill(c, 0, sample(g, inds, g.unif(1, h*w/3*2)))
		sq := sample(g, inds, g.unif(1, h*w/10))
		for _, d := range []pt{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
			gi = fill(gi, 0, shift(sq, d.i, d.j))
		}
		gout := gi
		for a := range h - 1 {
			for b := range w - 1 {
				if gi[a][b] == 0 && gi[a+1][b] == 0 && gi[a][b+1] == 0 && gi[a+1][b+1] == 0 {
					gout = fill(gout, 2, []pt{{a, b}, {a + 1, b}, {a, b + 1}, {a + 1, b + 1}})
				}
			}
		}
		return gi, gout
	}},
	{"a9f96cdd", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3, 6, 7, 8)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		locs := asindices(gi)
		for range g.unif(1, max(1, h*w/10)) {
			if len(locs) == 0 {
				break
			}
			l := choice(g, locs)
			var near []pt
			for di := -2; di <= 2; di++ {
				for dj := -2; dj <= 2; dj++ {
					near = append(near, pt{l.i + di, l.j + dj})
				}
			}
			locs = minus(locs, near)
			gi = fill(gi, fgc, []pt{l})
			gout = fill(gout, 3, []pt{{l.i - 1, l.j - 1}})
			gout = fill(gout, 7, []pt{{l.i + 1, l.j + 1}})
			gout = fill(gout, 8, []pt{{l.i + 1, l.j - 1}})
			gout = fill(gout, 6, []pt{{l.i - 1, l.j + 1}})
		}
		return gi, gout
	}},
	{"b0c4d837", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		oh, ow := g.unif(3, h-1), g.unif(3, w-1)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		c3 := sample(g, allColors, 3)
		bgc, boxc, fillc := c3[0], c3[1], c3[2]
		sub := canvas(boxc, oh, ow)
		sub2 := canvas(fillc, oh-1, ow-2)
		n := g.unif(1, min(9, oh-2))
		for j := range n {
			sub2 = fill(sub2, bgc, connect(pt{j, 0}, pt{j, ow - 2}))
		}
		for _, p := range asindices(sub2) {
			sub[p.i][p.j+1] = sub2[p.i][p.j]
		}
		gi := canvas(bgc, h, w)
		for _, p := range asindices(sub) {
			gi[p.i+loci][p.j+locj] = sub[p.i][p.j]
		}
		flat := append(solidBlock(fillc, n), solidBlock(bgc, 9-n)...)
		gout := Grid{flat[:3], reversed(flat[3:6]), flat[6:]}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), gout
	}},
	{"bbc9ae5d", func(g *gen) (Grid, Grid) {
		w := 2 * g.unif(2, 15)
		locj := w - g.unif(2, w)
		c1 := choice(g, allColors)
		rem := without(allColors, c1)
		ccols := sample(g, rem, g.unif(1, 9))
		rest := withColors(connect(pt{0, locj + 1}, pt{0, w - 1}), ccols, g)
		if locj+1 > w-1 {
			rest = nil
		}
		gi := paint(fill(canvas(-1, 1, w), c1, connect(pt{0, 0}, pt{0, locj})), rest)
		gout := canvas(-1, w/2, w)
		for _, p := range shoot(pt{0, locj}, 1, 1) {
			gout = fill(gout, c1, shoot(p, 0, -1))
		}
		for _, c := range rest {
			gout = fill(gout, c.c, shoot(c.p, 1, 1))
		}
		return gi, gout
	}},
	{"bd4472b8", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(1, 28), g.unif(2, 8)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		linc := choice(g, rem)
		ccols := sample(g, rem, w)
		top := Grid{ccols, solidBlock(linc, w)}
		gi := vconcat(top, canvas(bgc, h, w))
		gout := copyGrid(gi)
		for idx := 2; idx < h+3; idx += w {
			for k, c := range ccols {
				if idx+k < len(gout) {
					gout[idx+k] = solidBlock(c, w)
				}
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"cdecee7f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		numc := g.unif(1, min(9, w))
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		locs := sample(g, interval(0, w), numc)
		sortInts(locs)
		gi := canvas(bgc, h, w)
		var flat []int
		for _, j := range locs {
			i := g.randint(0, h-1)
			col := choice(g, ccols)
			gi = fill(gi, col, []pt{{i, j}})
			flat = append(flat, col)
		}
		flat = append(flat, solidBlock(bgc, 9-len(flat))...)
		return gi, Grid{flat[:3], reversed(flat[3:6]), flat[6:]}
	}},
	{"d364b489", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 6, 7, 8)
		h, w := g.unif(4, 30), g.unif(4, 30)
		bf := sample(g, cols, 2)
		gi := canvas(bf[0], h, w)
		inds := asindices(gi)
		var res []pt
		for range g.unif(1, h*w/5) {
			if len(inds) == 0 {
				break
			}
			r := choice(g, inds)
			drop := append(neighbors(r), r, pt{r.i - 2, r.j}, pt{r.i + 2, r.j}, pt{r.i, r.j - 2}, pt{r.i, r.j + 2})
			inds = minus(inds, drop)
			res = append(res, r)
		}
		gi = fill(gi, bf[1], res)
		gout := fill(gi, 7, shift(res, 0, -1))
		gout = fill(gout, 6, shift(res, 0, 1))
		gout = fill(gout, 8, shift(res, 1, 0))
		return gi, fill(gout, 2, shift(res, -1, 0))
	}},
	{"ec883f72", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		oh, ow := h-5-g.unif(0, h-6), w-5-g.unif(0, w-6)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		c3 := sample(g, allColors, 3)
		bgc, sqc, linc := c3[0], c3[1], c3[2]
		gi := fill(canvas(bgc, h, w), sqc, backdrop(pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}))
		ul, lr := pt{loci - 2, locj - 2}, pt{loci + oh + 1, locj + ow + 1}
		gi = fill(gi, linc, box([]pt{ul, lr}))
		var lns []pt
		for _, s := range [][2]pt{{lr, {1, 1}}, {ul, {-1, -1}}, {{lr.i, ul.j}, {1, -1}}, {{ul.i, lr.j}, {-1, 1}}} {
			for _, p := range shoot(s[0], s[1].i, s[1].j) {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w && gi[p.i][p.j] == bgc {
					lns = append(lns, p)
				}
			}
		}
		return gi, fill(gi, sqc, lns)
	}},
}

// backdrop is every point of the rectangle with corners a and b.
func backdrop(a, b pt) []pt {
	var ps []pt
	for i := min(a.i, b.i); i <= max(a.i, b.i); i++ {
		for j := min(a.j, b.j); j <= max(a.j, b.j); j++ {
			ps = append(ps, pt{i, j})
		}
	}
	return ps
}

// outbox is the outline one cell outside the rectangle with corners a and b.
func outbox(a, b pt) []pt {
	return box([]pt{{min(a.i, b.i) - 1, min(a.j, b.j) - 1}, {max(a.i, b.i) + 1, max(a.j, b.j) + 1}})
}
