package arc

// rearcGens4 are the fourth batch of ported generators.
var rearcGens4 = []rearcEntry{
	{"08ed6ac7", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		bgc := choice(g, without(allColors, 1, 2, 3, 4))
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		nbars := g.unif(4, w)
		barlocs := sample(g, interval(0, w), nbars)
		barhs := sample(g, interval(0, h), 4)
		barcols := make([]int, nbars)
		for k := range barcols {
			barcols[k] = choice(g, rem)
		}
		var tops []int
		for range nbars - 4 {
			tops = append(tops, choice(g, barhs))
		}
		tops = append(tops, barhs...)
		shuffle(g.rng, tops)
		ordered := append([]int(nil), barhs...)
		sortInts(ordered)
		for k, col := range barcols {
			bar := connect(pt{tops[k], barlocs[k]}, pt{h - 1, barlocs[k]})
			gi = fill(gi, col, bar)
			rank := 0
			for r, v := range ordered {
				if v == tops[k] {
					rank = r
				}
			}
			gout = fill(gout, rank+1, bar)
		}
		return gi, gout
	}},
	{"1cf80156", func(g *gen) (Grid, Grid) { return cornerShape(g, 15, false) }},
	{"28bf18c6", func(g *gen) (Grid, Grid) { return cornerShape(g, 14, true) }},
	{"25ff71a9", func(g *gen) (Grid, Grid) {
		c, fgc, plcd := placedShape(g, allColors)
		return fill(c, fgc, plcd), fill(c, fgc, shift(plcd, 1, 0))
	}},
	{"a79310a0", func(g *gen) (Grid, Grid) {
		c, fgc, plcd := placedShape(g, without(allColors, 2))
		return fill(c, fgc, plcd), fill(c, 2, shift(plcd, 1, 0))
	}},
	{"6d75e8bb", func(g *gen) (Grid, Grid) {
		c, fgc, plcd := placedShape(g, without(allColors, 2))
		ul, lr := bounds(plcd)
		return fill(c, fgc, plcd), fill(fill(c, 2, backdrop(ul, lr)), fgc, plcd)
	}},
	{"253bf280", func(g *gen) (Grid, Grid) { return joinDots(g, 3) }},
	{"dbc1a6ce", func(g *gen) (Grid, Grid) { return joinDots(g, 8) }},
	{"27a28665", func(g *gen) (Grid, Grid) {
		shapes := []struct {
			col   int
			cells []pt
		}{
			{1, []pt{{0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 1}}},
			{2, []pt{{0, 0}, {1, 1}, {2, 0}, {0, 2}, {2, 2}}},
			{3, []pt{{2, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}}},
			{6, []pt{{1, 1}, {0, 1}, {1, 0}, {1, 2}, {2, 1}}},
		}
		h, w := g.unif(3, 30), g.unif(3, 30)
		s := choice(g, shapes)
		bo := sample(g, allColors, 2)
		fac := g.unif(1, min(h, w)/3)
		canv := upscale(fill(canvas(bo[0], 3, 3), bo[1], s.cells), fac)
		loci, locj := g.randint(0, h-3*fac), g.randint(0, w-3*fac)
		gi := canvas(bo[0], h, w)
		for _, p := range asindices(canv) {
			gi[p.i+loci][p.j+locj] = canv[p.i][p.j]
		}
		return gi, canvas(s.col, 1, 1)
	}},
	{"32597951", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(10, 30), g.unif(10, 30)
		ih, iw := g.unif(2, h/2), g.unif(2, w/2)
		c3 := sample(g, cols, 3)
		bgc, noisec, fgc := c3[0], c3[1], c3[2]
		c := canvas(bgc, h, w)
		ndev := g.unif(1, h*w/2)
		num := choice(g, []int{ndev, h*w - ndev})
		num = min(max(num, 0), h*w)
		c = fill(c, noisec, sample(g, asindices(c), num))
		loci, locj := g.randint(0, h-ih), g.randint(0, w-iw)
		var tofill []pt
		for _, p := range backdrop(pt{loci, locj}, pt{loci + ih - 1, locj + iw - 1}) {
			if c[p.i][p.j] == bgc {
				tofill = append(tofill, p)
			}
		}
		gi := fill(c, fgc, tofill)
		if len(tofill) == 0 {
			return gi, gi
		}
		ul, lr := bounds(tofill)
		var noisy []pt
		for _, p := range backdrop(ul, lr) {
			if gi[p.i][p.j] == noisec {
				noisy = append(noisy, p)
			}
		}
		return gi, fill(gi, 3, noisy)
	}},
	{"3ac3eb23", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		nlocs := g.unif(1, max(1, (w-2)/3))
		opts := interval(1, w-1)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for range nlocs {
			if len(opts) == 0 {
				break
			}
			j := choice(g, opts)
			opts = without(opts, interval(j-2, j+3)...)
			col := choice(g, rem)
			gi = fill(gi, col, []pt{{0, j}})
			var zig []pt
			for p := 0; p < h; p += 2 {
				zig = append(zig, pt{p, j})
			}
			for p := 1; p < h; p += 2 {
				zig = append(zig, pt{p, j - 1}, pt{p, j + 1})
			}
			gout = fill(gout, col, zig)
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"49d1d64f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 28), g.unif(2, 28)
		ccols := sample(g, allColors, g.unif(1, 10))
		gi := paint(canvas(-1, h, w), withColors(asindices(canvas(-1, h, w)), ccols, g))
		gout := canvas(0, h+2, w+2)
		for _, p := range asindices(gi) {
			gout[p.i+1][p.j+1] = gi[p.i][p.j]
		}
		for j := range w {
			gout[0][j+1], gout[h+1][j+1] = gi[0][j], gi[h-1][j]
		}
		for i := range h {
			gout[i+1][0], gout[i+1][w+1] = gi[i][0], gi[i][w-1]
		}
		return gi, gout
	}},
	{"5614dbcf", func(g *gen) (Grid, Grid) {
		colopts := without(interval(1, 10), 5)
		block := asindices(canvas(0, 3, 3))
		d := g.unif(2, 10)
		gout := canvas(0, d, d)
		inds := asindices(gout)
		occs := sample(g, inds, g.unif(1, d*d))
		colset := sample(g, colopts, g.unif(1, 8))
		gi := upscale(gout, 3)
		occupied := map[pt]bool{}
		for _, o := range occs {
			occupied[o] = true
		}
		for _, o := range inds {
			noise := sample(g, block, g.unif(0, 8))
			if occupied[o] {
				col := choice(g, colset)
				gout = fill(gout, col, []pt{o})
				gi = fill(gi, col, shift(block, 3*o.i, 3*o.j))
			}
			gi = fill(gi, 5, shift(noise, 3*o.i, 3*o.j))
		}
		return gi, gout
	}},
	{"8eb1be9a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(4, 30)
		oh, ow := g.unif(2, h/3), g.unif(2, w)
		ncells := g.unif(2, oh*ow/3*2)
		shp := normalize(sample(g, asindices(canvas(-1, oh, ow)), ncells))
		ul, lr := bounds(shp)
		oh, ow = lr.i-ul.i+1, lr.j-ul.j+1
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		obj := withColors(shp, ccols, g)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		for k := range obj {
			obj[k].p = pt{obj[k].p.i + loci, obj[k].p.j + locj}
		}
		c := canvas(bgc, h, w)
		gi, gout := paint(c, obj), paint(c, obj)
		for k := range h/oh + 1 {
			for _, s := range []int{-oh * k, oh * k} {
				moved := make([]cell, len(obj))
				for n, x := range obj {
					moved[n] = cell{x.c, pt{x.p.i + s, x.p.j}}
				}
				gout = paint(gout, moved)
			}
		}
		return gi, gout
	}},
	{"913fb3ed", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3, 4, 6, 8)
		pairs := [][2]int{{2, 1}, {3, 6}, {8, 4}}
		h, w := g.unif(1, 30), g.unif(1, 30)
		bgc := choice(g, cols)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := asindices(gi)
		for range g.unif(1, max(1, h*w/10)) {
			if len(inds) == 0 {
				break
			}
			l := choice(g, inds)
			pr := choice(g, pairs)
			inds = minus(inds, backdrop(pt{l.i - 2, l.j - 2}, pt{l.i + 2, l.j + 2}))
			gi = fill(gi, pr[0], []pt{l})
			gout = fill(fill(gout, pr[0], []pt{l}), pr[1], neighbors(l))
		}
		return gi, gout
	}},
	{"952a094c", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 30), g.unif(6, 30)
		ih, iw := g.unif(4, h-2), g.unif(4, w-2)
		loci, locj := g.randint(1, h-ih-1), g.randint(1, w-iw-1)
		c6 := sample(g, allColors, 6)
		frame := fill(canvas(c6[0], h, w), c6[1], box([]pt{{loci, locj}, {loci + ih - 1, locj + iw - 1}}))
		gi, gout := frame, frame
		moves := [][2]pt{
			{{loci + 1, locj + 1}, {loci + ih, locj + iw}},
			{{loci + 1, locj + iw - 2}, {loci + ih, locj - 1}},
			{{loci + ih - 2, locj + 1}, {loci - 1, locj + iw}},
			{{loci + ih - 2, locj + iw - 2}, {loci - 1, locj - 1}},
		}
		for k, m := range moves {
			gi = fill(gi, c6[2+k], []pt{m[0]})
			gout = fill(gout, c6[2+k], []pt{m[1]})
		}
		return gi, gout
	}},
}

// bounds are the corners of the points' bounding box.
func bounds(ps []pt) (ul, lr pt) {
	ul, lr = ps[0], ps[0]
	for _, p := range ps {
		ul = pt{min(ul.i, p.i), min(ul.j, p.j)}
		lr = pt{max(lr.i, p.i), max(lr.j, p.j)}
	}
	return ul, lr
}

// normalize shifts the points so their bounding box starts at (0, 0).
func normalize(ps []pt) []pt {
	ul, _ := bounds(ps)
	return shift(ps, -ul.i, -ul.j)
}

// grow adds n cells to shape, each drawn among the cells of within that
// touch it (8-neighbourhood), as RE-ARC's shape loops do.
func grow(g *gen, within []pt, shape []pt, n int) []pt {
	f := newFrontier(within, neighbors)
	for _, p := range shape {
		f.take(p)
	}
	for range n {
		p := f.pick(g)
		f.take(p)
		shape = append(shape, p)
	}
	return shape
}

// frontier is the set of cells of a region that touch a growing shape,
// kept up to date as cells join it, so growing n cells costs O(n), not
// O(n²) as recomputing RE-ARC's set expressions would.
type frontier struct {
	within map[pt]bool
	taken  map[pt]bool
	around func(pt) []pt
	cands  []pt
	at     map[pt]int
}

func newFrontier(within []pt, around func(pt) []pt) *frontier {
	f := &frontier{within: map[pt]bool{}, taken: map[pt]bool{}, around: around, at: map[pt]int{}}
	for _, p := range within {
		f.within[p] = true
	}
	return f
}

// touch adds p's neighbours to the candidates, without taking p.
func (f *frontier) touch(p pt) {
	for _, q := range f.around(p) {
		if _, ok := f.at[q]; !ok && f.within[q] && !f.taken[q] {
			f.at[q] = len(f.cands)
			f.cands = append(f.cands, q)
		}
	}
}

// take puts p in the shape: no longer a candidate, its neighbours are.
func (f *frontier) take(p pt) {
	f.taken[p] = true
	if k, ok := f.at[p]; ok {
		last := f.cands[len(f.cands)-1]
		f.cands[k], f.at[last] = last, k
		f.cands = f.cands[:len(f.cands)-1]
		delete(f.at, p)
	}
	f.touch(p)
}

// pick draws a candidate uniformly.
func (f *frontier) pick(g *gen) pt { return choice(g, f.cands) }

// cornerShape is 1cf80156 and 28bf18c6: a connected shape grown from a
// corner of its box, placed at random; the output is the shape cropped
// (twice side by side when twice).
func cornerShape(g *gen, maxBox int, twice bool) (Grid, Grid) {
	h, w := g.unif(3, 30), g.unif(3, 30)
	bgc := choice(g, allColors)
	fgc := choice(g, without(allColors, bgc))
	gi := canvas(bgc, h, w)
	hb, wb := g.unif(1, min(maxBox, h-1)), g.unif(1, min(maxBox, w-1))
	box := asindices(canvas(0, hb, wb))
	start := choice(g, []pt{{0, 0}, {0, wb - 1}, {hb - 1, 0}, {hb - 1, wb - 1}})
	dev := g.unif(0, hb*wb/2)
	nc := choice(g, []int{dev, hb*wb - dev})
	nc = max(0, min(hb*wb-1, nc))
	shp := normalize(grow(g, box, []pt{start}, nc))
	_, lr := bounds(shp)
	sh, sw := lr.i+1, lr.j+1
	di, dj := g.randint(0, h-sh), g.randint(0, w-sw)
	gi = fill(gi, fgc, shift(shp, di, dj))
	gout := fill(canvas(bgc, sh, sw), fgc, shp)
	if twice {
		gout = hconcat(gout, gout)
	}
	return gi, gout
}

// placedShape is the opening of 25ff71a9, a79310a0 and 6d75e8bb: a
// connected shape of a few cells grown on the canvas, normalised and placed
// at random.
func placedShape(g *gen, cols []int) (c Grid, fgc int, placed []pt) {
	h, w := g.unif(2, 30), g.unif(2, 30)
	nc := g.unif(1, h*w/2-1)
	bgc := choice(g, cols)
	fgc = choice(g, without(cols, bgc))
	c = canvas(bgc, h, w)
	all := asindices(c)
	ch := choice(g, all)
	shp := normalize(grow(g, minus(all, []pt{ch}), []pt{ch}, nc-1))
	_, lr := bounds(shp)
	loci, locj := g.randint(0, h-lr.i-1), g.randint(0, w-lr.j-1)
	return c, fgc, shift(shp, loci, locj)
}

// joinDots is 253bf280 and dbc1a6ce: dots of one colour, and in the output
// every pair of them in a row or a column joined by a line of colour line.
func joinDots(g *gen, line int) (Grid, Grid) {
	cols := without(allColors, line)
	h, w := g.unif(3, 30), g.unif(3, 30)
	bgc := choice(g, cols)
	c := canvas(bgc, h, w)
	s := sample(g, asindices(c), g.unif(0, max(1, h*w/4)))
	fgc := choice(g, without(cols, bgc))
	gi := fill(c, fgc, s)
	var segs []pt
	for i := range h {
		if js := ofcolorRow(gi[i], fgc); len(js) > 1 {
			segs = append(segs, connect(pt{i, js[0]}, pt{i, js[len(js)-1]})...)
		}
	}
	gout := fill(c, line, segs)
	segs = nil
	t := dmirror(gi)
	for j := range w {
		if is := ofcolorRow(t[j], fgc); len(is) > 1 {
			segs = append(segs, connect(pt{is[0], j}, pt{is[len(is)-1], j})...)
		}
	}
	return gi, fill(fill(gout, line, segs), fgc, s)
}

func ofcolorRow(row []int, c int) []int {
	var js []int
	for j, v := range row {
		if v == c {
			js = append(js, j)
		}
	}
	return js
}
