package arc

// rearcGens7 are the seventh batch of ported generators.
var rearcGens7 = []rearcEntry{
	{"25d8a9c8", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 30)
		ccols := sample(g, allColors, g.unif(2, 10))
		var gi, gout Grid
		for range h {
			single := choice(g, []bool{true, false})
			col := choice(g, ccols)
			row := solidBlock(col, w)
			if single {
				gi, gout = append(gi, row), append(gout, solidBlock(5, w))
				continue
			}
			rem := without(ccols, col)
			n := w - 1 - g.unif(1, w-1)
			n = min(max(1, n), w-1)
			for _, j := range sample(g, interval(0, w), n) {
				row[j] = choice(g, rem)
			}
			gi, gout = append(gi, row), append(gout, solidBlock(0, w))
		}
		return gi, gout
	}},
	{"3f7978a0", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		c3 := sample(g, allColors, 3)
		bgc, noisec, linec := c3[0], c3[1], c3[2]
		c := canvas(bgc, h, w)
		oh := min(g.unif(4, max(4, int((2.0/3)*float64(h)))), h)
		ow := min(g.unif(4, max(4, int((2.0/3)*float64(w)))), w)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		gi := fill(c, noisec, sample(g, asindices(c), g.unif(0, h*w/4)))
		ul, lr := pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}
		ll, ur := pt{lr.i, ul.j}, pt{ul.i, lr.j}
		gi = fill(gi, linec, connect(ul, ll))
		gi = fill(gi, linec, connect(ur, lr))
		gi = fill(gi, noisec, []pt{ul, lr, ll, ur})
		gout := crop(gi, loci, locj, oh, ow)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"4093f84a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(7, 30)
		ls := sample(g, interval(2, h-2), 2)
		sortInts(ls)
		loci1, loci2 := ls[0], ls[1]
		c3 := sample(g, allColors, 3)
		bgc, barc, dotc := c3[0], c3[1], c3[2]
		gi := canvas(bgc, h, w)
		for i := loci1; i <= loci2; i++ {
			gi = fill(gi, barc, connect(pt{i, 0}, pt{i, w - 1}))
		}
		gout := gi
		opts := interval(0, w)
		locs1 := sample(g, opts, g.unif(1, w/2))
		locs2 := sample(g, opts, g.unif(1, w/2))
		for _, j := range locs1 {
			k := g.unif(1, loci1-1)
			for _, i := range sample(g, interval(0, loci1), k) {
				gi = fill(gi, dotc, []pt{{i, j}})
			}
			gout = fill(gout, barc, connect(pt{loci1 - 1, j}, pt{loci1 - k, j}))
		}
		for _, j := range locs2 {
			k := g.unif(1, h-loci2-2)
			for _, i := range sample(g, interval(loci2+1, h), k) {
				gi = fill(gi, dotc, []pt{{i, j}})
			}
			gout = fill(gout, barc, connect(pt{loci2 + 1, j}, pt{loci2 + k, j}))
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"47c1f68c", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(2, 14), g.unif(2, 14)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		objc := choice(g, without(cols, bgc, linc))
		canv := canvas(bgc, h, w)
		nc := g.unif(1, h*w-1)
		f := newFrontier(asindices(canv), neighbors)
		first := choice(g, asindices(canv))
		obj := []pt{first}
		f.touch(first) // RE-ARC keeps the first cell among the candidates
		for range nc - 1 {
			ch := f.pick(g)
			obj = append(obj, ch)
			f.take(ch)
		}
		gi := fill(canv, objc, obj)
		bar := canvas(linc, h, 1)
		gi1 := hconcat(hconcat(gi, bar), canv)
		gi2 := hconcat(hconcat(canv, bar), canv)
		gi = vconcat(vconcat(gi1, canvas(linc, 1, 2*w+1)), gi2)
		gout := fill(canv, objc, obj)
		gout = hconcat(gout, vmirror(gout))
		gout = replace(vconcat(gout, hmirror(gout)), objc, linc)
		flip := choice(g, []transform{identity, hmirror, vmirror, func(x Grid) Grid { return hmirror(vmirror(x)) }})
		return flip(gi), flip(gout)
	}},
	{"75b8110e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 15), g.unif(2, 15)
		bgc := choice(g, allColors)
		cs := sample(g, without(allColors, bgc), 4)
		canv := canvas(bgc, h, w)
		cels := asindices(canv)
		nums := make([]int, 4)
		for k := range nums {
			dev := g.unif(0, h*w/2)
			num := dev
			if choice(g, []bool{true, false}) {
				num = h*w - dev
			}
			nums[k] = min(max(0, num), h*w-1)
		}
		sets := make([][]pt, 4)
		parts := make([]Grid, 4)
		for k := range sets {
			sets[k] = sample(g, cels, nums[k])
			parts[k] = fill(canv, cs[k], sets[k])
		}
		gi := vconcat(hconcat(parts[0], parts[1]), hconcat(parts[2], parts[3]))
		gout := fill(fill(fill(parts[0], cs[3], sets[3]), cs[2], sets[2]), cs[1], sets[1])
		return gi, gout
	}},
	{"d4f3cd78", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(10, 30), g.unif(10, 30)
		ih, iw := g.unif(3, h/3*2), g.unif(3, w/3*2)
		loci, locj := g.randint(1, h-ih-1), g.randint(1, w-iw-1)
		ul, lr := pt{loci, locj}, pt{loci + ih - 1, locj + iw - 1}
		frame := box([]pt{ul, lr})
		opts := minus(frame, []pt{ul, lr, {ul.i, lr.j}, {lr.i, ul.j}})
		opts = dedup(opts) // box lists some cells twice; RE-ARC's is a set
		bf := sample(g, cols, 2)
		c := canvas(bf[0], h, w)
		holes := sample(g, opts, g.unif(1, len(opts)))
		gi := fill(c, bf[1], minus(frame, holes))
		a, b := pt{ul.i + 1, ul.j + 1}, pt{lr.i - 1, lr.j - 1}
		gout := fill(gi, 8, backdrop(a, b))
		sign := func(x, lo, hi int) int {
			switch {
			case x > hi:
				return 1
			case x < lo:
				return -1
			}
			return 0
		}
		for _, d := range holes {
			gout = fill(gout, 8, shoot(d, sign(d.i, a.i, b.i), sign(d.j, a.j, b.j)))
		}
		return gi, gout
	}},
	{"d90796e8", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8, 2, 3)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bn := sample(g, cols, 2)
		bgc, noisec := bn[0], bn[1]
		gi := canvas(bgc, h, w)
		inds := asindices(gi)
		gi = paint(gi, withColors(sample(g, inds, g.unif(1, h*w/3)), []int{noisec, 2, 3}, g))
		fix := choice(g, inds)
		var next []pt
		for _, q := range []pt{{fix.i - 1, fix.j}, {fix.i + 1, fix.j}, {fix.i, fix.j - 1}, {fix.i, fix.j + 1}} {
			if q.i >= 0 && q.i < h && q.j >= 0 && q.j < w {
				next = append(next, q)
			}
		}
		gi = fill(gi, 2, []pt{fix})
		gi = fill(gi, 3, []pt{choice(g, next)})
		var cover, blue []pt
		for _, r := range ofcolor(gi, 2) {
			hit := false
			for _, q := range []pt{{r.i - 1, r.j}, {r.i + 1, r.j}, {r.i, r.j - 1}, {r.i, r.j + 1}} {
				if q.i >= 0 && q.i < h && q.j >= 0 && q.j < w && gi[q.i][q.j] == 3 {
					hit = true
					blue = append(blue, q)
				}
			}
			if hit {
				cover = append(cover, r)
			}
		}
		return gi, fill(fill(gi, bgc, cover), 8, blue)
	}},
	{"fafffa47", twoLayers},
}

// twoLayers is 94f9d214's and fafffa47's rule: two layers side by side,
// and the output marks the cells empty in both.
func twoLayers(g *gen) (Grid, Grid) {
	cols := without(allColors, 2)
	h, w := g.unif(2, 30), g.unif(2, 14)
	bgc := choice(g, cols)
	rem := without(cols, bgc)
	acol := choice(g, rem)
	bcol := choice(g, without(rem, acol))
	c := canvas(bgc, h, w)
	inds := asindices(c)
	numadev, numbdev := g.unif(0, h*w/2), g.unif(0, h*w/2)
	numa := choice(g, []int{numadev, h*w - numadev})
	numb := choice(g, []int{numadev, h*w - numbdev}) // numadev: RE-ARC's
	numa, numb = min(max(1, numa), h*w-1), min(max(1, numb), h*w-1)
	aset, bset := sample(g, inds, numa), sample(g, inds, numb)
	gi := hconcat(fill(c, acol, aset), fill(c, bcol, bset))
	gout := fill(c, 2, minus(minus(inds, aset), bset))
	if choice(g, []bool{true, false}) {
		return dmirror(gi), dmirror(gout)
	}
	return gi, gout
}

// dedup drops repeated points, keeping the first of each.
func dedup(ps []pt) []pt {
	seen := map[pt]bool{}
	var out []pt
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
