package arc

import "math"

// rearcGens2 are the second batch of ported generators.
var rearcGens2 = []rearcEntry{
	{"017c7c7b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 2)
		h, w := g.unif(3, 10), g.unif(2, 30)
		h += h
		fgc := choice(g, cols)
		gout := canvas(0, h+h/2, w)
		oh, ow := g.unif(1, h/3*2), g.unif(1, w)
		_ = g.randint(0, w-ow) // drawn and unused in RE-ARC
		ncellsd := g.unif(0, h*w/2)
		ncells := choice(g, []int{ncellsd, oh*ow - ncellsd})
		ncells = min(max(1, ncells), oh*ow)
		obj := sample(g, asindices(canvas(-1, oh, ow)), ncells)
		for k := range 2 * h / oh {
			gout = fill(gout, 2, shift(obj, k*oh, 0))
		}
		return replace(gout[:h], 2, fgc), gout
	}},
	{"10fcaaa3", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(2, 15), g.unif(2, 15)
		ncells := g.unif(1, max(1, h*w/6))
		ncols := g.unif(1, 8)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), ncols)
		c := canvas(bgc, h, w)
		locs := sample(g, asindices(c), ncells)
		gi := paint(c, withColors(locs, ccols, g))
		gout := hconcat(gi, gi)
		gout = vconcat(gout, gout)
		var diag []pt
		for _, d := range []pt{{0, 0}, {0, w}, {h, 0}, {h, w}} {
			for _, p := range shift(locs, d.i, d.j) {
				diag = append(diag, pt{p.i - 1, p.j - 1}, pt{p.i - 1, p.j + 1}, pt{p.i + 1, p.j - 1}, pt{p.i + 1, p.j + 1})
			}
		}
		var paintOver []pt
		for _, p := range diag {
			if p.i >= 0 && p.i < 2*h && p.j >= 0 && p.j < 2*w && gout[p.i][p.j] == bgc {
				paintOver = append(paintOver, p)
			}
		}
		return gi, fill(gout, 8, paintOver)
	}},
	{"623ea044", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		gi := canvas(bgc, h, w)
		dots := sample(g, asindices(gi), g.unif(0, max(int(float64(h*w)*0.1), 1)))
		fgc := choice(g, without(allColors, bgc))
		gi = fill(gi, fgc, dots)
		gout := gi
		for _, d := range []pt{{-1, 1}, {1, -1}, {1, 1}, {-1, -1}} {
			for _, p := range dots {
				gout = fill(gout, fgc, shoot(p, d.i, d.j))
			}
		}
		return gi, gout
	}},
	{"746b3537", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 15), g.unif(1, 30)
		var gi, gout Grid
		last := -1
		for range h {
			c := choice(g, without(allColors, last))
			gout = append(gout, []int{c})
			gi = append(gi, solidBlock(c, w))
			last = c
		}
		for range g.unif(1, 30-h) {
			loc := g.randint(0, len(gi)-1)
			gi = append(gi[:loc+1], append(Grid{gi[loc]}, gi[loc+1:]...)...)
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return copyGrid(gi), gout
	}},
	{"7b7f7511", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 15)
		bgc := choice(g, allColors)
		gout := canvas(bgc, h, w)
		numc := g.unif(1, min(9, h*w-1))
		inds := asindices(gout)
		for _, col := range sample(g, without(allColors, bgc), numc) {
			chos := sample(g, inds, g.unif(1, max(1, len(inds)/numc)))
			gout = fill(gout, col, chos)
			inds = minus(inds, chos)
		}
		if choice(g, []bool{true, false}) {
			gout = dmirror(gout)
			return vconcat(gout, gout), gout
		}
		return hconcat(gout, gout), gout
	}},
	{"91413438", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(2, 5), g.unif(2, 5)
		maxnb := min(h*w-1, min(30/h, 30/w))
		minnb := int(0.5*(math.Sqrt(float64(4*h*w+1))-1)) + 1
		nbi := g.unif(0, maxnb-minnb)
		nb := min(max(minnb, maxnb-nbi), maxnb)
		fgc := choice(g, cols)
		c := canvas(0, h, w)
		obj := sample(g, asindices(c), h*w-nb)
		gout := canvas(0, h*nb, w*nb)
		for j := range h*w - nb {
			gout = fill(gout, fgc, shift(obj, h*(j/nb), w*(j%nb)))
		}
		return fill(c, fgc, obj), gout
	}},
	{"97999447", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		h, w := g.unif(3, 30), g.unif(3, 30)
		rows := sample(g, interval(0, h), g.unif(1, h))
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 8))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for _, i := range rows {
			col := choice(g, ccols)
			j := g.randint(0, w-1)
			gi = fill(gi, col, []pt{{i, j}})
			var on, off []pt
			for x := j; x < w; x += 2 {
				on = append(on, pt{i, x})
			}
			for x := j + 1; x < w; x += 2 {
				off = append(off, pt{i, x})
			}
			gout = fill(fill(gout, col, on), 5, off)
		}
		return gi, gout
	}},
	{"a699fb00", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(4, 30), g.unif(4, 30)
		rows := sample(g, interval(0, h), g.unif(1, h-1))
		bf := sample(g, cols, 2)
		gi, gout := canvas(bf[0], h, w), canvas(bf[0], h, w)
		for _, i := range rows {
			end := g.unif(2, w-2)
			ofs := g.unif(1, end/2) * 2
			ofs = min(max(2, ofs), end)
			start := end - ofs
			gout = fill(gout, 2, connect(pt{i, start}, pt{i, end}))
			var sparse []pt
			for j := start; j <= end; j += 2 {
				sparse = append(sparse, pt{i, j})
			}
			gout = fill(gout, bf[1], sparse)
			gi = fill(gi, bf[1], sparse)
		}
		return gi, gout
	}},
	{"b8cdaf2b", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		c3 := sample(g, allColors, 3)
		bgc, linc, dotc := c3[0], c3[1], c3[2]
		w2 := w - g.unif(2, w-1)
		w2 = min(max(w2, 1), w-2)
		locj := g.randint(1, w-w2-1)
		bar := connect(pt{0, locj}, pt{0, locj + w2 - 1})
		gi := fill(canvas(bgc, h, w), linc, connect(pt{0, 0}, pt{0, w - 1}))
		gi = fill(gi, dotc, bar)
		gi = fill(gi, linc, shift(bar, 1, 0))
		gout := fill(gi, dotc, shoot(pt{2, locj - 1}, 1, -1))
		gout = fill(gout, dotc, shoot(pt{2, locj + w2}, 1, 1))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"cce03e0d", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 8)
		h, w := g.unif(2, 5), g.unif(2, 5)
		nred := g.unif(1, h*w-1)
		ncols := g.unif(1, min(8, nred))
		ncells := g.unif(1, h*w-nred)
		ccols := sample(g, cols, ncols)
		gi := canvas(0, h, w)
		inds := asindices(gi)
		reds := sample(g, inds, nred)
		gi = fill(gi, 2, reds)
		gi = paint(gi, withColors(sample(g, minus(inds, reds), ncells), ccols, g))
		gout := canvas(0, h*h, w*w)
		for _, r := range reds {
			var obj []cell
			for _, p := range inds {
				obj = append(obj, cell{gi[p.i][p.j], pt{p.i + r.i*h, p.j + r.j*w}})
			}
			gout = paint(gout, obj)
		}
		return gi, gout
	}},
	{"d13f3404", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 15), g.unif(3, 15)
		var opts []pt
		for i := range h {
			opts = append(opts, pt{i, 0})
		}
		for j := 1; j < w; j++ {
			opts = append(opts, pt{0, j})
		}
		locs := sample(g, opts, g.unif(1, len(opts)))
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, 2*h, 2*w)
		for _, l := range locs {
			var ln []pt
			for _, p := range shoot(l, 1, 1) {
				if p.i < h && p.j < w {
					ln = append(ln, p)
				}
			}
			at := choice(g, ln)
			col := choice(g, rem)
			gi = fill(gi, col, []pt{at})
			gout = fill(gout, col, shoot(at, 1, 1))
		}
		return gi, gout
	}},
	{"d23f8c26", func(g *gen) (Grid, Grid) {
		h := g.unif(2, 30)
		w := 2*g.unif(1, 14) + 1
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		numn := g.unif(1, h*w/2-1)
		rem = sample(g, rem, g.unif(1, 9))
		for _, p := range sample(g, asindices(gi), numn) {
			col := choice(g, rem)
			gi = fill(gi, col, []pt{p})
			if p.j == w/2 {
				gout = fill(gout, col, []pt{p})
			}
		}
		return gi, gout
	}},
	{"dc1df850", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		h, w := g.unif(4, 30), g.unif(4, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		c := canvas(bgc, h, w)
		nc := g.unif(0, h*w/2-1)
		nreddev := g.unif(0, nc/2)
		nred := choice(g, []int{nreddev, nc - nreddev})
		nred = min(max(0, nred), nc)
		occ := sample(g, asindices(c), nc)
		reds := sample(g, occ, nred)
		c = fill(c, 2, reds)
		c = paint(c, withColors(minus(occ, reds), rem, g))
		var around []pt
		for _, r := range reds {
			around = append(around, neighbors(r)...)
		}
		return c, underfill(c, 1, around)
	}},
	{"e48d4e1a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		loci, locj := g.randint(1, h-2), g.randint(1, w-2)
		inds := asindices(canvas(-1, loci, locj))
		maxn := min(min(h-loci-1, w-locj-1), len(inds))
		nn := g.unif(1, maxn)
		ss := sample(g, inds, nn)
		c3 := sample(g, allColors, 3)
		bgc, fgc, dotc := c3[0], c3[1], c3[2]
		cross := func(i, j int) []pt {
			return append(connect(pt{i, 0}, pt{i, w - 1}), connect(pt{0, j}, pt{h - 1, j})...)
		}
		gi := fill(fill(canvas(bgc, h, w), fgc, cross(loci, locj)), dotc, ss)
		gout := fill(canvas(bgc, h, w), fgc, cross(loci+nn, locj+nn))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"e9614598", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(5, 30), g.unif(5, 30)
		r := g.randint(0, h-1)
		siz := 2*g.unif(2, w/2) + 1
		siz = min(max(5, siz), w)
		locj := g.randint(0, w-siz)
		bd := sample(g, cols, 2)
		gi := fill(canvas(bd[0], h, w), bd[1], []pt{{r, locj}, {r, locj + siz - 1}})
		at := pt{r, locj + siz/2}
		gout := fill(gi, 3, []pt{at, {at.i - 1, at.j}, {at.i + 1, at.j}, {at.i, at.j - 1}, {at.i, at.j + 1}})
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"ea786f4a", func(g *gen) (Grid, Grid) {
		hh, wh := g.unif(1, 14), g.unif(1, 14)
		mid := pt{hh, wh}
		h, w := 2*hh+1, 2*wh+1
		linc := choice(g, allColors)
		rem := without(allColors, linc)
		gi := canvas(linc, h, w)
		inds := minus(asindices(gi), []pt{mid})
		ccols := sample(g, rem, g.unif(1, 9))
		gi = paint(gi, withColors(inds, ccols, g))
		var lines []pt
		for _, d := range []pt{{-1, -1}, {1, 1}, {-1, 1}, {1, -1}} {
			lines = append(lines, shoot(mid, d.i, d.j)...)
		}
		return gi, fill(gi, linc, lines)
	}},
	{"f5b8619d", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(2, 15), g.unif(2, 15)
		ncells := g.unif(1, h*w/2-1)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi := canvas(bgc, h, w)
		inds := asindices(gi)
		drawn := sample(g, inds, ncells)
		blockcol := g.randint(0, w-1)
		var locs []pt
		for _, p := range drawn {
			if p.j != blockcol {
				locs = append(locs, p)
			}
		}
		ccols := sample(g, rem, g.unif(1, 8))
		gi = paint(gi, withColors(locs, ccols, g))
		marked := map[int]bool{}
		for _, p := range locs {
			marked[p.j] = true
		}
		var below []pt
		for _, p := range minus(inds, locs) {
			if marked[p.j] {
				below = append(below, p)
			}
		}
		gout := fill(gi, 8, below)
		gout = hconcat(gout, gout)
		return gi, vconcat(gout, gout)
	}},
}

// replace is the DSL's replace: every cell of colour from becomes to.
func replace(g Grid, from, to int) Grid {
	h, w := dims(g)
	return build(h, w, func(i, j int) int {
		if g[i][j] == from {
			return to
		}
		return g[i][j]
	})
}

// underfill fills the points that have the grid's most common colour
// (mostcolor; a tie goes to the smallest colour, CPython's set order for
// small integers).
func underfill(g Grid, c int, ps []pt) Grid {
	counts := make([]int, 10)
	for _, row := range g {
		for _, v := range row {
			if v >= 0 && v < 10 {
				counts[v]++
			}
		}
	}
	bg := 0
	for v, n := range counts {
		if n > counts[bg] {
			bg = v
		}
	}
	var under []pt
	for _, p := range ps {
		if p.i >= 0 && p.i < len(g) && p.j >= 0 && p.j < len(g[p.i]) && g[p.i][p.j] == bg {
			under = append(under, p)
		}
	}
	return fill(g, c, under)
}
