package arc

import "slices"

// rearcGens13 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens13 = []rearcEntry{
	{"42a50994", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 30), g.unif(1, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		c := canvas(bgc, h, w)
		num := g.unif(0, max(0, h*w/2-1))
		numcols := g.unif(0, min(9, num))
		chos := sample(g, asindices(c), num)
		choscols := sample(g, rem, numcols)
		ends := sample(g, interval(0, len(chos)), numcols)
		slices.Sort(ends)
		slices.Reverse(ends)
		gi := c
		for k, col := range choscols {
			gi = fill(gi, col, chos[:ends[k]])
		}
		var res []pt
		for _, o := range objectsX(gi, false, true, true) {
			if len(o) == 1 {
				res = append(res, o[0].p)
			}
		}
		return gi, fill(gi, bgc, res)
	}},
	{"f15e1fac", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(4, 30), g.unif(4, 30)
		nsps := g.unif(1, (w-1)/2)
		ngps := g.unif(1, (h-1)/2)
		spsj := sample(g, interval(1, w-1), nsps)
		gpsi := sample(g, interval(1, h-1), ngps)
		slices.Sort(spsj)
		slices.Sort(gpsi)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		gi := canvas(bgc, h, w)
		for _, j := range spsj {
			gi = fill(gi, linc, []pt{{0, j}})
		}
		for _, i := range gpsi {
			gi = fill(gi, 2, []pt{{i, 0}})
		}
		gout := gi
		starts := append([]int{0}, gpsi...)
		for k, a := range starts {
			b := h - 1
			if k < len(gpsi) {
				b = gpsi[k] - 1
			}
			for _, j := range spsj {
				gout = fill(gout, linc, connect(pt{a, j + k}, pt{b, j + k}))
			}
		}
		for _, fn := range sample(g, allTransforms, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"d4a91cb9", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 4, 8)
		h, w := g.unif(4, 30), g.unif(4, 30)
		gloci, glocj := g.unif(1, h-1), g.unif(1, w-1)
		bgc := choice(g, cols)
		inv := pt{h - 1 - gloci, w - 1 - glocj}
		c := fill(canvas(bgc, h, w), 8, []pt{inv})
		rloci, rlocj := g.unif(inv.i+1, h-1), g.unif(inv.j+1, w-1)
		c = fill(c, 2, []pt{{rloci, rlocj}})
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		gi := rot(c)
		r, e := ofcolor(gi, 2)[0], ofcolor(gi, 8)[0]
		a, b, cc, d := r.i, r.j, e.i, e.j
		gout := fill(gi, 4, connect(pt{a, b}, pt{a, d}))
		gout = fill(gout, 4, connect(pt{a, d}, pt{cc, d}))
		gout = fill(gout, 2, []pt{{a, b}})
		return gi, fill(gout, 8, []pt{{cc, d}})
	}},
	{"4be741c5", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(6, 30)
		numcolors := g.unif(2, w/3)
		ccols := sample(g, allColors, numcolors)
		gout := Grid{append([]int(nil), ccols...)}
		var cols []int
		for _, c := range ccols {
			cols = append(cols, c, c, c)
		}
		for len(cols) < w {
			idx := g.randint(0, len(cols)-1)
			cols = slices.Insert(cols, idx, cols[idx])
		}
		gi := build(h, w, func(_, j int) int { return cols[j] })
		for range g.unif(0, 3*h*numcolors) {
			type opt struct{ a, b, c1, c2 int }
			var options []opt
			for a := range h {
				for b := range w - 3 {
					if gi[a][b] == gi[a][b+1] && gi[a][b+2] == gi[a][b+3] {
						options = append(options, opt{a, b, gi[a][b], gi[a][b+2]})
					}
				}
			}
			if len(options) == 0 {
				break
			}
			o := choice(g, options)
			if choice(g, []bool{true, false}) {
				gi[o.a][o.b+1] = o.c2
			} else {
				gi[o.a][o.b+2] = o.c1
			}
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"5c0a986e", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, cols)
		nobjs := g.unif(2, h*w/10)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		all := asindices(gi)
		inds := setOf(all)
		succ := 0
		for tr := 0; succ < nobjs && tr < 5*nobjs; tr++ {
			var cands []pt
			for _, p := range inds.in(all) {
				if 0 < p.i && p.i <= h-3 && 0 < p.j && p.j <= w-3 {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			col := choice(g, []int{1, 2})
			sq := []pt{loc, {loc.i, loc.j + 1}, {loc.i + 1, loc.j}, {loc.i + 1, loc.j + 1}}
			d := 1
			if col == 1 {
				d = -1
			}
			obj := append(slices.Clone(sq), clip(shoot(loc, d, d), h, w)...)
			if inds.has(obj) {
				succ++
				inds.drop(obj)
				for _, p := range sq {
					inds.drop(dneighbors(p))
				}
				gi = fill(gi, col, sq)
				gout = fill(gout, col, obj)
			}
		}
		return gi, gout
	}},
	{"f2829549", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(2, 30), g.unif(2, 14)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		linc := choice(g, rem)
		rem = without(rem, linc)
		acol := choice(g, rem)
		rem = without(rem, acol)
		bcol := choice(g, rem)
		c := canvas(bgc, h, w)
		inds := asindices(c)
		bar := canvas(linc, h, 1)
		numadev, numbdev := g.unif(0, h*w/2), g.unif(0, h*w/2)
		numa := choice(g, []int{numadev, h*w - numadev})
		numb := choice(g, []int{numadev, h*w - numbdev})
		numa = min(max(1, numa), h*w-1)
		numb = min(max(1, numb), h*w-1)
		aset, bset := sample(g, inds, numa), sample(g, inds, numb)
		gi := hconcat(hconcat(fill(c, acol, aset), bar), fill(c, bcol, bset))
		gout := fill(c, 3, minus(minus(inds, aset), bset))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
}
