package arc

// rearcGens11 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens11 = []rearcEntry{
	{"539a4f51", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		d := g.unif(2, 15)
		gi := canvas(0, d, d)
		numc := g.unif(2, 9)
		ccols := sample(g, cols, numc)
		numocc := g.unif(1, d)
		draw := func(n int) []int {
			arr := make([]int, n)
			for k := range arr {
				arr[k] = choice(g, ccols)
			}
			return arr
		}
		distinct := func(arr []int) bool {
			for _, c := range arr {
				if c != arr[0] {
					return true
				}
			}
			return false
		}
		arr := draw(numocc)
		for try := 0; !distinct(arr) && try < 1000; try++ {
			arr = draw(d)
		}
		ell := func(j int) []pt { return append(connect(pt{j, 0}, pt{j, j}), connect(pt{0, j}, pt{j, j})...) }
		for j, col := range arr {
			gi = fill(gi, col, ell(j))
		}
		gout := canvas(0, 2*d, 2*d)
		for j := range 2 * d {
			gout = fill(gout, arr[j%len(arr)], ell(j))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"3de23699", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, allColors)
		c := canvas(bgc, h, w)
		hi, wi := g.unif(4, h), g.unif(4, w)
		loci, locj := g.randint(0, h-hi), g.randint(0, w-wi)
		rem := without(allColors, bgc)
		ccol := choice(g, rem)
		rem = without(rem, ccol)
		ncol := choice(g, rem)
		tmpo := []pt{{loci, locj}, {loci + hi - 1, locj + wi - 1}}
		cnds := backdrop(pt{loci + 1, locj + 1}, pt{loci + hi - 2, locj + wi - 2})
		dev := g.unif(0, len(cnds)/2)
		n := choice(g, []int{dev, len(cnds) - dev})
		n = min(max(0, n), len(cnds))
		ss := sample(g, cnds, n)
		gi := fill(fill(c, ccol, corners(tmpo)), ncol, ss)
		return gi, trim(crop(switchColors(gi, ccol, ncol), loci, locj, hi, wi))
	}},
	{"a2fd1cf0", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 3, 8)
		h, w := g.unif(4, 30), g.unif(4, 30)
		gloci, glocj := g.unif(1, h-1), g.unif(1, w-1)
		bgc := choice(g, cols)
		c := rot180(fill(canvas(bgc, h, w), 3, []pt{{gloci, glocj}}))
		inv := ofcolor(c, 3)[0]
		rloci, rlocj := g.unif(inv.i+1, h-1), g.unif(inv.j+1, w-1)
		c = fill(c, 2, []pt{{rloci, rlocj}})
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		gi := rot(c)
		r, t := ofcolor(gi, 2)[0], ofcolor(gi, 3)[0]
		a, b, cc, d := r.i, r.j, t.i, t.j
		gout := fill(gi, 8, connect(pt{a, b}, pt{a, d}))
		gout = fill(gout, 8, connect(pt{a, d}, pt{cc, d}))
		gout = fill(gout, 2, []pt{{a, b}})
		return gi, fill(gout, 3, []pt{{cc, d}})
	}},
	{"a5313dff", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi := canvas(bgc, h, w)
		noccs := g.unif(1, h*w/20)
		succ, tr, maxtr := 0, 0, 10*noccs
		inds := shift(asindices(canvas(-1, h+2, w+2)), -1, -1)
		enclosed := func() []pt {
			var res []pt
			for _, o := range colorfilter(objects(gi), bgc) {
				if !bordering(o.cells, gi) {
					res = append(res, o.cells...)
				}
			}
			return res
		}
		for (tr < maxtr && succ < noccs) || (tr < maxtr+1000 && len(enclosed()) == 0) {
			tr++
			oh, ow := g.randint(3, 8), g.randint(3, 8)
			bx := box([]pt{{0, 0}, {oh - 1, ow - 1}})
			ins := backdrop(pt{1, 1}, pt{oh - 2, ow - 2})
			loc := choice(g, inds)
			plcdins := shift(ins, loc.i, loc.j)
			if len(intersection(plcdins, ofcolor(gi, fgc))) == 0 {
				succ++
				gi = fill(gi, fgc, shift(bx, loc.i, loc.j))
				if choice(g, []bool{true, true, false}) {
					gi = fill(gi, fgc, sample(g, plcdins, g.randint(1, max(1, len(ins)/2))))
				}
			}
		}
		return gi, fill(gi, 1, enclosed())
	}},
	{"0b148d64", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(7, 30)
		bgc := choice(g, allColors)
		remitv := without(allColors, bgc)
		c := canvas(bgc, h, w)
		x, y := g.randint(3, h-3), g.randint(3, w-3)
		di, dj := g.randint(2, h-x-1), g.randint(2, w-y-1)
		boxes := [][2]pt{
			{{0, 0}, {x, y}},
			{{x + di, 0}, {h - 1, y}},
			{{0, y + dj}, {x, w - 1}},
			{{x + di, y + dj}, {h - 1, w - 1}},
		}
		cola := choice(g, remitv)
		colb := choice(g, without(remitv, cola))
		k := g.rng.IntN(4)
		subf := func(b [2]pt) []pt {
			ul, lr := b[0], b[1]
			return []pt{
				choice(g, connect(ul, pt{ul.i, lr.j})),
				choice(g, connect(ul, pt{lr.i, ul.j})),
				choice(g, connect(pt{ul.i, lr.j}, lr)),
				choice(g, connect(pt{lr.i, ul.j}, lr)),
			}
		}
		sampler := func(b [2]pt) []pt {
			bx := backdrop(b[0], b[1])
			return sample(g, bx, len(bx)-g.unif(0, len(bx)-1))
		}
		part := func(b [2]pt) []pt {
			s := sampler(b)
			return append(s, subf(b)...)
		}
		gi := fill(c, cola, part(boxes[k]))
		for r, b := range boxes {
			if r != k {
				gi = fill(gi, colb, part(b))
			}
		}
		t := boxes[k]
		return gi, crop(gi, t[0].i, t[0].j, t[1].i-t[0].i+1, t[1].j-t[0].j+1)
	}},
	{"2204b7a8", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 1000 {
			h, w := g.unif(4, 30), g.unif(4, 30)
			bgc := choice(g, allColors)
			rem := without(allColors, bgc)
			c := canvas(bgc, h, w)
			inds := shift(asindices(canvas(0, h, w-2)), 0, 1)
			ccol := choice(g, rem)
			rem2 := without(rem, ccol)
			c1 := choice(g, rem2)
			c2 := choice(g, without(rem2, c1))
			nc := g.unif(1, h*(w-2)/2-1)
			locs := sample(g, inds, nc)
			if w%2 == 1 {
				locs = minus(locs, vfrontier(pt{0, w / 2}))
			}
			gi = fill(c, c1, vfrontier(pt{0, 0}))
			gi = fill(gi, c2, vfrontier(pt{0, w - 1}))
			gi = fill(gi, ccol, locs)
			var a, b []pt
			for _, p := range locs {
				if p.j < w/2 {
					a = append(a, p)
				} else {
					b = append(b, p)
				}
			}
			gout = fill(fill(gi, c1, a), c2, b)
			if len(palette(gi)) == 4 {
				break
			}
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
}
