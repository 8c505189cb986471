package arc

// rearcGens8 are the eighth batch of ported generators.
var rearcGens8 = []rearcEntry{
	{"05269061", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		d := g.unif(2, 30)
		gi, gout := canvas(0, d, d), canvas(0, d, d)
		diagonal := choice(g, []bool{true, false})
		lines := d // rows
		if diagonal {
			lines = 2*d - 1
		}
		most := min(d, 9)
		if diagonal {
			most = min(2*d-2, 9)
		}
		num := g.unif(2, most)
		colors := make([]int, num)
		for k := range colors {
			colors[k] = choice(g, cols)
		}
		keeps := make([]int, num)
		for j := range keeps {
			var opts []int
			for x := j; x < lines; x += num {
				opts = append(opts, x)
			}
			keeps[j] = choice(g, opts)
		}
		for k := range lines {
			line := connect(pt{k, 0}, pt{k, d - 1})
			if diagonal {
				line = shoot(pt{k, 0}, -1, 1)
			}
			gout = fill(gout, colors[k%num], line)
			if keeps[k%num] == k {
				gi = fill(gi, colors[k%num], line)
			}
		}
		if choice(g, []bool{true, false}) {
			return vmirror(gi), vmirror(gout)
		}
		return gi, gout
	}},
	{"1190e5a7", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		c := canvas(bgc, h, w)
		nhf, nvf := g.unif(1, h/3), g.unif(1, w/3)
		pick := func(n, size int) []int {
			opts := interval(1, size-1)
			var sel []int
			for range n {
				x := choice(g, opts)
				sel = append(sel, x)
				opts = without(opts, x-1, x, x+1)
			}
			return sel
		}
		hs, vs := pick(nhf, h), pick(nvf, w)
		rem := without(allColors, bgc)
		gi := c
		for _, i := range hs {
			gi = fill(gi, choice(g, rem), connect(pt{i, 0}, pt{i, w - 1}))
		}
		for _, j := range vs {
			gi = fill(gi, choice(g, rem), connect(pt{0, j}, pt{h - 1, j}))
		}
		return gi, canvas(bgc, nhf+1, nvf+1)
	}},
	{"54d82841", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		locs := interval(1, w-1)
		for range g.unif(1, w/3) {
			if len(locs) == 0 {
				break
			}
			j := choice(g, locs)
			locs = without(locs, j, j+1, j-1, j+2, j-2)
			i := g.randint(1, h-1)
			col := choice(g, rem)
			cup := []pt{{i - 1, j - 1}, {i - 1, j}, {i - 1, j + 1}, {i, j - 1}, {i, j + 1}}
			gi, gout = fill(gi, col, cup), fill(gout, col, cup)
			gout = fill(gout, 4, []pt{{h - 1, j}})
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"928ad970", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		ih, iw := g.unif(9, h), g.unif(9, w)
		c3 := sample(g, allColors, 3)
		bgc, linc, dotc := c3[0], c3[1], c3[2]
		loci, locj := g.randint(0, h-ih), g.randint(0, w-iw)
		top, bot, left, right := loci, loci+ih-1, locj, locj+iw-1
		dots := []pt{
			{g.randint(top+1, bot-1), left},
			{top, g.randint(left+1, right-1)},
			{bot, g.randint(left+1, right-1)},
			{g.randint(top+1, bot-1), right},
		}
		apart := func(lo, hi int) (int, int) {
			for {
				s := sample(g, interval(lo, hi), 2)
				a, b := min(s[0], s[1]), max(s[0], s[1])
				if a+1 != b {
					return a, b
				}
			}
		}
		a, b := apart(top+2, bot-1)
		c, d := apart(left+2, right-1)
		gi := fill(canvas(bgc, h, w), dotc, dots)
		gi = fill(gi, linc, box([]pt{{a, c}, {b, d}}))
		return gi, fill(gi, linc, box([]pt{{top + 1, left + 1}, {bot - 1, right - 1}}))
	}},
	{"a740d043", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0)
		h, w := g.unif(2, 30), g.unif(2, 30)
		ncd := g.unif(1, max(1, (h-1)*(w-1)/2))
		_ = choice(g, []int{ncd, (h-1)*(w-1) - ncd}) // drawn and overwritten in RE-ARC
		nc := min(max(1, ncd), (h-1)*(w-1)-1)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		rem = sample(g, rem, g.unif(1, len(rem)))
		c := canvas(bgc, h, w)
		area := asindices(canvas(-1, h-1, w-1))
		ch := choice(g, area)
		shp := normalize(grow(g, minus(area, []pt{ch}), []pt{ch}, nc))
		_, lr := bounds(shp)
		loci, locj := g.randint(0, h-lr.i-1), g.randint(0, w-lr.j-1)
		gi := paint(c, withColors(shift(shp, loci, locj), rem, g))
		return gi, replace(compress(gi), bgc, 0)
	}},
	{"c3e719e8", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0)
		h, w := g.unif(2, 5), g.unif(2, 5)
		wg := canvas(-1, h, w)
		ncols := g.unif(1, min(h*w-1, 8))
		nmc := g.randint(max(1, h*w/(ncols+1)+1), h*w)
		inds := asindices(wg)
		mc := choice(g, cols)
		rem := without(cols, mc)
		mcc := sample(g, inds, nmc)
		inds = minus(inds, mcc)
		gi := fill(wg, mc, mcc)
		ocols := sample(g, rem, ncols)
		k := len(inds)/ncols + 1
		for _, oc := range ocols {
			if len(inds) == 0 {
				break
			}
			ub := max(min(min(nmc-1, len(inds)), k), 1)
			locs := sample(g, inds, g.unif(1, ub))
			inds = minus(inds, locs)
			gi = fill(gi, oc, locs)
		}
		gi = replace(gi, -1, mc)
		gout := canvas(0, h*h, w*w)
		for _, p := range ofcolor(gi, mc) {
			for _, q := range asindices(gi) {
				gout[q.i+p.i*h][q.j+p.j*w] = gi[q.i][q.j]
			}
		}
		return gi, gout
	}},
}
