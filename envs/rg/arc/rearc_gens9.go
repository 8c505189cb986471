package arc

// rearcGens9 are the ninth batch of ported generators.
var rearcGens9 = []rearcEntry{
	{"1f85a75f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		oh, ow := g.randint(3, min(8, h/2)), g.randint(3, min(8, w/2))
		area := asindices(canvas(-1, oh, ow))
		ncells := g.randint(max(oh, ow), oh*ow)
		f := newFrontier(area, func(p pt) []pt {
			return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
		})
		sp := choice(g, area)
		shp := []pt{sp}
		f.take(sp)
		for range ncells - 1 {
			p := f.pick(g)
			f.take(p)
			shp = append(shp, p)
		}
		shp = normalize(shp)
		_, lr := bounds(shp)
		oh, ow = lr.i+1, lr.j+1
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		bo := sample(g, allColors, 2)
		bgc, objc := bo[0], bo[1]
		ccols := sample(g, without(allColors, bgc, objc), g.unif(1, 8))
		nnoise := g.unif(0, max(0, (h*w-oh*ow)/4))
		placed := shift(shp, loci, locj)
		gi := fill(canvas(bgc, h, w), objc, placed)
		free := minus(asindices(gi), backdrop(pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}))
		gi = paint(gi, withColors(sample(g, free, nnoise), ccols, g))
		return gi, fill(canvas(bgc, oh, ow), objc, shp)
	}},
	{"23581191", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		c := canvas(bgc, h, w)
		inds := asindices(c)
		acol := choice(g, rem)
		bcol := choice(g, without(rem, acol))
		na, nb := g.unif(1, h*w/4), g.unif(1, h*w/4)
		a := sample(g, inds, na)
		b := sample(g, minus(inds, a), nb)
		gi := fill(fill(c, acol, a), bcol, b)
		lines := func(ps []pt) map[pt]bool {
			rows, cols := map[int]bool{}, map[int]bool{}
			for _, p := range ps {
				rows[p.i], cols[p.j] = true, true
			}
			out := map[pt]bool{}
			for _, p := range inds {
				if rows[p.i] || cols[p.j] {
					out[p] = true
				}
			}
			return out
		}
		al, bl := lines(a), lines(b)
		var alins, blins, both []pt
		for _, p := range inds {
			if al[p] {
				alins = append(alins, p)
			}
			if bl[p] {
				blins = append(blins, p)
			}
			if al[p] && bl[p] {
				both = append(both, p)
			}
		}
		gout := fill(fill(fill(c, acol, alins), bcol, blins), 2, both)
		return gi, fill(fill(gout, acol, a), bcol, b)
	}},
	{"6430c8c4", func(g *gen) (Grid, Grid) {
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
		gi := hconcat(hconcat(fill(c, acol, aset), canvas(linc, h, 1)), fill(c, bcol, bset))
		gout := fill(c, 3, minus(minus(asindices(c), aset), bset))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"dae9d2b5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 6)
		h, w := g.unif(2, 30), g.unif(2, 14)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		acol := choice(g, rem)
		bcol := choice(g, without(rem, acol))
		c := canvas(bgc, h, w)
		aset, bset := layerSets(g, asindices(c), h*w)
		if len(minus(bset, aset)) == len(bset) {
			bset = append(bset[:len(bset)-1:len(bset)-1], choice(g, aset))
		}
		gi := hconcat(fill(c, acol, aset), fill(c, bcol, bset))
		gout := fill(fill(c, 6, aset), 6, bset)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
}

// layerSets draws the two cell sets of the two-layer generators (with
// RE-ARC's use of numadev for both counts' first choice).
func layerSets(g *gen, inds []pt, n int) (a, b []pt) {
	numadev, numbdev := g.unif(0, n/2), g.unif(0, n/2)
	numa := choice(g, []int{numadev, n - numadev})
	numb := choice(g, []int{numadev, n - numbdev})
	numa, numb = min(max(1, numa), n-1), min(max(1, numb), n-1)
	return sample(g, inds, numa), sample(g, inds, numb)
}
