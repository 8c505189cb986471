package arc

// rearcGens5 are the fifth batch of ported generators.
var rearcGens5 = []rearcEntry{
	{"80af3007", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		bgc := choice(g, allColors)
		cols := without(allColors, bgc)
		c := canvas(bgc, h, w)
		numcd := g.unif(0, h*w/2)
		numc := choice(g, []int{numcd, h*w - numcd})
		numc = min(max(0, numc), h*w)
		inds := asindices(c)
		picked := sample(g, inds, numc)
		crn := sample(g, []pt{{0, 0}, {0, w - 1}, {h - 1, 0}, {h - 1, w - 1}}, 3)
		locs := append(minus(picked, crn), crn...)
		fgc := choice(g, cols)
		gi := fill(c, fgc, locs)
		gout := canvas(bgc, h*h, w*w)
		for _, l := range locs {
			gout = fill(gout, fgc, shift(locs, l.i*h, l.j*w))
		}
		fullh, fullw := g.unif(h*h+2, 30), g.unif(w*w+2, 30)
		full := canvas(bgc, fullh, fullw)
		loci, locj := g.randint(1, fullh-h*h-1), g.randint(1, fullw-w*w-1)
		ups := build(h*h, w*w, func(i, j int) int { return gi[i/h][j/w] })
		for _, p := range asindices(ups) {
			full[p.i+loci][p.j+locj] = ups[p.i][p.j]
		}
		return full, gout
	}},
	{"8e1813be", func(g *gen) (Grid, Grid) {
		bs := sample(g, allColors, 2)
		bgc, sqc := bs[0], bs[1]
		rem := without(allColors, bgc, sqc)
		nbars := g.unif(3, 8)
		ccols := sample(g, rem, nbars)
		w := g.unif(nbars+3, 30)
		hmarg := g.unif(2*nbars, 30-nbars)
		var gi, gout Grid
		for _, c := range ccols {
			gout = append(gout, solidBlock(c, nbars))
			gi = append(gi, solidBlock(c, w))
		}
		for range hmarg {
			idx := g.randint(0, len(gout)-1) // RE-ARC draws among the first nbars rows
			gi = append(gi[:idx], append(Grid{solidBlock(bgc, w)}, gi[idx:]...)...)
		}
		h2 := nbars + hmarg
		loci, locj := g.randint(1, h2-nbars-2), g.randint(1, w-nbars-2)
		gi = fill(gi, sqc, backdrop(pt{loci, locj}, pt{loci + nbars - 1, locj + nbars - 1}))
		gi = fill(gi, bgc, outbox(pt{loci, locj}, pt{loci + nbars - 1, locj + nbars - 1}))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"9f236235", func(g *gen) (Grid, Grid) {
		numh, numw := g.unif(2, 14), g.unif(2, 14)
		h, w := g.unif(1, 31/numh-1), g.unif(1, 31/numw-1)
		bgc := choice(g, allColors)
		front := choice(g, without(allColors, bgc))
		rem := without(allColors, front)                 // RE-ARC takes them from all colours, bgc included
		_ = sample(g, rem, g.unif(1, min(9, numh*numw))) // drawn and unused in RE-ARC
		cands := asindices(canvas(-1, numh, numw))
		block := asindices(canvas(-1, h, w))
		chosen := map[pt]bool{}
		for _, p := range sample(g, cands, g.unif(1, numh*numw)) {
			chosen[p] = true
		}
		gi := canvas(front, h*numh+numh-1, w*numw+numw-1)
		gout := canvas(bgc, numh, numw)
		for _, c := range cands {
			col := bgc
			if chosen[c] {
				col = choice(g, rem)
			}
			gi = fill(gi, col, shift(block, c.i*(h+1), c.j*(w+1)))
			gout[c.i][c.j] = col
		}
		return gi, vmirror(gout)
	}},
	{"a5f85a15", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(3, 30), g.unif(3, 30)
		var starts []pt
		for i := h - 1; i > 0; i-- {
			starts = append(starts, pt{i, 0})
		}
		for j := range w {
			starts = append(starts, pt{0, j})
		}
		cands := interval(0, h+w-1)
		var locs []pt
		for range g.unif(1, (h+w-1)/3) {
			if len(cands) == 0 {
				break
			}
			l := choice(g, cands)
			locs = append(locs, starts[l])
			cands = without(cands, l, l-1, l+1)
		}
		bf := sample(g, cols, 2)
		gi, gout := canvas(bf[0], h, w), canvas(bf[0], h, w)
		for _, l := range locs {
			ln := shoot(l, 1, 1) // ordered by row
			gi = fill(gi, bf[1], ln)
			gout = fill(gout, bf[1], ln)
			var odd []pt
			for k := 1; k < len(ln); k += 2 {
				odd = append(odd, ln[k])
			}
			gout = fill(gout, 4, odd)
		}
		return gi, gout
	}},
	{"a61f2674", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		w := g.unif(5, 28)
		h := g.unif(w/2+1, 30)
		bf := sample(g, cols, 2)
		gi, gout := canvas(bf[0], h, w), canvas(bf[0], h, w)
		nbars := g.unif(2, w/2)
		var barlocs []int
		opts := interval(0, w)
		for len(opts) > 0 && len(barlocs) < nbars {
			l := choice(g, opts)
			barlocs = append(barlocs, l)
			opts = without(opts, l, l+1, l-1)
		}
		heights := sample(g, interval(0, h), nbars)
		hi, lo := heights[0], heights[0]
		for _, x := range heights {
			hi, lo = max(hi, x), min(lo, x)
		}
		for k, j := range barlocs {
			bar := connect(pt{0, j}, pt{heights[k], j})
			gi = fill(gi, bf[1], bar)
			if heights[k] == hi {
				gout = fill(gout, 1, bar)
			}
			if heights[k] == lo {
				gout = fill(gout, 2, bar)
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"b548a754", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(4, 30)
		hi, wi := g.unif(4, h-1), g.unif(3, w-1)
		loci, locj := g.randint(0, h-hi), g.randint(0, w-wi)
		c4 := sample(g, allColors, 4)
		bgc, boxc, inc, dotc := c4[0], c4[1], c4[2], c4[3]
		c := canvas(bgc, h, w)
		framed := func(bottom int) Grid {
			out := fill(c, boxc, box([]pt{{loci, locj}, {bottom, locj + wi - 1}}))
			return fill(out, inc, backdrop(pt{loci + 1, locj + 1}, pt{bottom - 1, locj + wi - 2}))
		}
		gout := framed(loci + hi - 1)
		gi := framed(g.randint(loci+2, loci+hi-2))
		gi = fill(gi, dotc, []pt{choice(g, connect(pt{loci + hi - 1, locj}, pt{loci + hi - 1, locj + wi - 1}))})
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"b60334d2", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(6, 30), g.unif(6, 30)
		num := g.unif(1, h*w/9)
		bf := sample(g, cols, 2)
		gi, gout := canvas(bf[0], h, w), canvas(bf[0], h, w)
		inds := asindices(gi)
		free := map[pt]bool{}
		for _, p := range inds {
			free[p] = true
		}
		ring := box([]pt{{0, 0}, {2, 2}})
		for succ, tr := 0, 0; succ < num && tr < 4*num; tr++ {
			l := choice(g, inds)
			fits := true
			for _, p := range shift(ring, l.i, l.j) {
				fits = fits && free[p]
			}
			if !fits {
				continue
			}
			cen := pt{l.i + 1, l.j + 1}
			gi = fill(gi, bf[1], []pt{cen})
			gout = fill(gout, bf[1], []pt{{cen.i - 1, cen.j - 1}, {cen.i - 1, cen.j + 1}, {cen.i + 1, cen.j - 1}, {cen.i + 1, cen.j + 1}})
			gout = fill(gout, 1, []pt{{cen.i - 1, cen.j}, {cen.i + 1, cen.j}, {cen.i, cen.j - 1}, {cen.i, cen.j + 1}})
			used := backdrop(l, pt{l.i + 2, l.j + 2})
			for _, p := range used {
				delete(free, p)
			}
			inds = minus(inds, used)
			succ++
		}
		return gi, gout
	}},
	{"b7249182", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(5, 30)
		ih := g.unif(3, (h-1)/2)
		c3 := sample(g, allColors, 3)
		bgc, ca, cb := c3[0], c3[1], c3[2]
		sub := canvas(bgc, ih, 5)
		sub = fill(sub, ca, connect(pt{0, 2}, pt{ih - 2, 2}))
		sub = fill(sub, ca, connect(pt{ih - 2, 0}, pt{ih - 2, 4}))
		sub = fill(sub, ca, []pt{{ih - 1, 0}, {ih - 1, 4}})
		sub = vconcat(sub, hmirror(replace(sub, ca, cb)))
		loci, locj := g.randint(0, h-2*ih), g.randint(0, w-5)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		gi = fill(gi, ca, []pt{{loci, locj + 2}})
		gi = fill(gi, cb, []pt{{loci + 2*ih - 1, locj + 2}})
		for _, p := range asindices(sub) {
			gout[p.i+loci][p.j+locj] = sub[p.i][p.j]
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"b94a9452", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		c3 := sample(g, allColors, 3)
		bgc, outer, inner := c3[0], c3[1], c3[2]
		oh, ow := g.unif(3, h-1), g.unif(3, w-1)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		oh2d, ow2d := g.unif(0, oh/2), g.unif(0, ow/2)
		oh2 := min(max(1, choice(g, []int{oh2d, oh - oh2d})), oh-2)
		ow2 := min(max(1, choice(g, []int{ow2d, ow - ow2d})), ow-2)
		loci2, locj2 := g.randint(loci+1, loci+oh-oh2-1), g.randint(locj+1, locj+ow-ow2-1)
		gi := fill(canvas(bgc, h, w), outer, backdrop(pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}))
		gi = fill(gi, inner, backdrop(pt{loci2, locj2}, pt{loci2 + oh2 - 1, locj2 + ow2 - 1}))
		return gi, switchColors(compress(gi), outer, inner)
	}},
	{"ba97ae07", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		lineh, linew := g.unif(1, h/3), g.unif(1, w/3)
		loci, locj := g.randint(1, h-lineh-1), g.randint(1, w-linew-1)
		acol := choice(g, rem)
		bcol := choice(g, without(rem, acol))
		var rows, cols []pt
		for a := range lineh {
			rows = append(rows, connect(pt{loci + a, 0}, pt{loci + a, w - 1})...)
		}
		for b := range linew {
			cols = append(cols, connect(pt{0, locj + b}, pt{h - 1, locj + b})...)
		}
		gi = fill(fill(gi, acol, rows), bcol, cols)
		gout = fill(fill(gout, bcol, cols), acol, rows)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"c909285e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		nfronts := g.unif(1, (h+w)/2)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		boxcol := choice(g, rem)
		rem = without(rem, boxcol)
		gi := canvas(bgc, h, w)
		inds := asindices(gi)
		for range nfronts {
			horizontal := choice(g, []bool{true, false})
			l := choice(g, inds)
			inds = minus(inds, []pt{l})
			line := connect(pt{0, l.j}, pt{h - 1, l.j})
			if horizontal {
				line = connect(pt{l.i, 0}, pt{l.i, w - 1})
			}
			gi = fill(gi, choice(g, rem), line)
		}
		oh, ow := g.unif(3, max(3, (h-2)/2)), g.unif(3, max(3, (w-2)/2))
		loci, locj := g.randint(1, h-oh-1), g.randint(1, w-ow-1)
		gi = fill(gi, boxcol, box([]pt{{loci, locj}, {loci + oh - 1, locj + ow - 1}}))
		return gi, crop(gi, loci, locj, oh, ow)
	}},
}

// compress is the DSL's compress: the grid without its single-colour rows
// and columns.
func compress(g Grid) Grid {
	uniform := func(s []int) bool {
		for _, v := range s {
			if v != s[0] {
				return false
			}
		}
		return true
	}
	t := dmirror(g)
	var out Grid
	for _, row := range g {
		if uniform(row) {
			continue
		}
		var r []int
		for j, v := range row {
			if !uniform(t[j]) {
				r = append(r, v)
			}
		}
		out = append(out, r)
	}
	return out
}

// switchColors is the DSL's switch: colours a and b swapped.
func switchColors(g Grid, a, b int) Grid {
	h, w := dims(g)
	return build(h, w, func(i, j int) int {
		switch g[i][j] {
		case a:
			return b
		case b:
			return a
		}
		return g[i][j]
	})
}
