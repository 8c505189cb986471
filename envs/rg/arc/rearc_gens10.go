package arc

import "slices"

// rearcGens10 is one batch of ported RE-ARC generators (see rearc_gens.go).
var rearcGens10 = []rearcEntry{
	{"1e0a9b12", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 1000 {
			h, w := g.unif(3, 30), g.unif(3, 30)
			nc := g.unif(1, w)
			bgc := choice(g, allColors)
			gi = canvas(bgc, h, w)
			rem := without(allColors, bgc)
			scols := make([]int, nc)
			for k := range scols {
				scols[k] = choice(g, rem)
			}
			slocs := sample(g, interval(0, w), nc)
			inds := connect(pt{0, 0}, pt{h - 1, 0})
			for k := range nc {
				sel := sample(g, inds, g.randint(1, h-1))
				gi = fill(gi, scols[k], shift(sel, 0, slocs[k]))
			}
			t := dmirror(replace(gi, bgc, -1))
			for _, row := range t {
				slices.Sort(row)
			}
			gout = replace(dmirror(t), -1, bgc)
			best, bestn := -1, -1
			for c := range 10 {
				if n := colorcount(gi, c); c != bgc && n > 0 && n > bestn {
					best, bestn = c, n
				}
			}
			if colorcount(gi, bgc) > best {
				break
			}
		}
		return gi, gout
	}},
	{"6cf79266", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 1)
		h, w := g.unif(6, 30), g.unif(6, 30)
		ccols := sample(g, cols, g.unif(1, 8))
		gi := paint(canvas(-1, h, w), withColors(asindices(canvas(-1, h, w)), ccols, g))
		num := g.unif(int(0.25*float64(h*w)), int(0.6*float64(h*w)))
		inds := asindices(gi)
		gi = fill(gi, 0, sample(g, inds, num))
		noccs := g.unif(1, h*w/16)
		mini := asindices(canvas(-1, 3, 3))
		for _, p := range sample(g, asindices(canvas(-1, h-2, w-2)), noccs) {
			gi = fill(gi, 0, shift(mini, p.i, p.j))
		}
		gout := gi
		for _, o := range occurrences(gi, recolor(0, mini)) {
			gout = fill(gout, 1, shift(mini, o.i, o.j))
		}
		return gi, gout
	}},
	{"c1d99e64", func(g *gen) (Grid, Grid) {
		colopts := without(allColors, 2)
		h, w := g.unif(4, 30), g.unif(4, 30)
		nofront := choice(g, colopts)
		noise := choice(g, without(colopts, nofront))
		gi := canvas(nofront, h, w)
		nhf, nvf := g.unif(1, h/4), g.unif(1, w/4)
		var lines []pt
		for _, j := range sample(g, interval(0, w), nvf) {
			lines = append(lines, connect(pt{0, j}, pt{h - 1, j})...)
		}
		for _, i := range sample(g, interval(0, h), nhf) {
			lines = append(lines, connect(pt{i, 0}, pt{i, w - 1})...)
		}
		gi = fill(gi, noise, lines)
		cands := ofcolor(gi, nofront)
		nn := g.unif(0, max(0, len(cands)-h*w/2-1))
		gi = fill(gi, noise, sample(g, cands, nn))
		var fr []pt
		for _, o := range frontiers(gi) {
			if o.color == noise {
				fr = append(fr, o.cells...)
			}
		}
		return gi, fill(gi, 2, fr)
	}},
	{"beb8660c", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		w := g.unif(3, 30)
		h := g.unif(w, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi := canvas(bgc, h, w)
		k := g.unif(1, min(8, w-1))
		co := sample(g, rem, k)
		wds := sample(g, interval(1, w), k)
		sortInts(wds)
		for j := range k {
			r := h - k - 1 + j
			gi = fill(gi, co[j], connect(pt{r, 0}, pt{r, wds[j] - 1}))
		}
		gi = fill(gi, 8, connect(pt{h - 1, 0}, pt{h - 1, w - 1}))
		gout := vmirror(gi)
		rows := copyGrid(gi[:h-1])
		shuffle(g.rng, rows)
		rows = append(rows, append([]int(nil), gout[h-1]...))
		gif := make(Grid, h)
		for r, row := range rows {
			ofs := g.randint(0, count(row, bgc))
			gif[r] = append(append([]int(nil), row[w-ofs:]...), row[:w-ofs]...)
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(vmirror(gif)), rot(gout)
	}},
	{"d06dbe63", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		var obj []pt
		for k := range 15 {
			obj = append(obj, shift([]pt{{-1, 0}, {-2, 0}, {-2, 1}, {-2, 2}}, -2*k, 2*k)...)
			obj = append(obj, shift([]pt{{1, 0}, {2, 0}, {2, -1}, {2, -2}}, 2*k, -2*k)...)
		}
		h, w := g.unif(5, 30), g.unif(5, 30)
		ndots := g.unif(1, min(h, w))
		succ, tr, maxtr := 0, 0, 4*ndots
		bd := sample(g, cols, 2)
		bgc, dotc := bd[0], bd[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newDrawSet(asindices(gi))
		for tr < maxtr && succ < ndots {
			tr++
			if inds.size() == 0 {
				break
			}
			loc := choice(g, inds.list)
			objx := shift(obj, loc.i, loc.j)
			ok := true
			for _, p := range objx {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w && !inds.has(p) {
					ok = false
					break
				}
			}
			if ok {
				succ++
				inds.remove(objx...)
				inds.remove(loc)
				gi = fill(gi, dotc, []pt{loc})
				gout = fill(gout, dotc, []pt{loc})
				gout = fill(gout, 5, objx)
			}
		}
		return gi, gout
	}},
	{"2c608aff", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		boxh, boxw := g.unif(2, h/2), g.unif(2, w/2)
		loci, locj := g.randint(0, h-boxh), g.randint(0, w-boxw)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ccol := choice(g, rem)
		rem = without(rem, ccol)
		dcol := choice(g, rem)
		bd := backdrop(pt{loci, locj}, pt{loci + boxh - 1, locj + boxw - 1})
		gi := fill(canvas(bgc, h, w), ccol, bd)
		reminds := minus(asindices(gi), backdrop(pt{loci - 1, locj - 1}, pt{loci + boxh, locj + boxw}))
		nnoise := g.unif(0, max(1, len(reminds)/4))
		noise := sample(g, reminds, nnoise)
		gi = fill(gi, dcol, noise)
		gout := gi
		for _, p := range noise {
			if p.i >= loci && p.i < loci+boxh {
				gout = fill(gout, dcol, connect(p, pt{p.i, locj}))
			} else if p.j >= locj && p.j < locj+boxw {
				gout = fill(gout, dcol, connect(p, pt{loci, p.j}))
			}
		}
		return gi, fill(gout, ccol, bd)
	}},
	{"3618c87e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		c3 := sample(g, allColors, 3)
		bgc, linc, dotc := c3[0], c3[1], c3[2]
		c := canvas(bgc, h, w)
		ln := connect(pt{0, 0}, pt{0, w - 1})
		nlocs := g.unif(1, w/2)
		var locs []int
		opts := interval(0, w)
		for range nlocs {
			if len(opts) == 0 {
				break
			}
			ch := choice(g, opts)
			locs = append(locs, ch)
			opts = without(opts, ch, ch-1, ch+1)
		}
		gi, gout := fill(c, linc, ln), fill(c, linc, ln)
		for _, j := range locs {
			hh := g.randint(1, h-3)
			lnx := connect(pt{0, j}, pt{hh, j})
			gi = fill(fill(gi, linc, lnx), dotc, []pt{{hh + 1, j}})
			gout = fill(fill(gout, linc, lnx), dotc, []pt{{0, j}})
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"b27ca6d3", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(4, 30), g.unif(4, 30)
		bd := sample(g, cols, 2)
		bgc, dotc := bd[0], bd[1]
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		ndots, nbars := g.unif(0, h*w/5), g.unif(0, h*w/12)
		dot := append([]cell{{dotc, pt{1, 1}}}, recolor(bgc, dneighbors(pt{1, 1}))...)
		bar1 := fill(canvas(bgc, 4, 3), dotc, []pt{{1, 1}, {2, 1}})
		bars := [][]cell{asobject(bar1), asobject(dmirror(bar1))}
		var opts [][]cell
		for range ndots {
			opts = append(opts, dot)
		}
		for range nbars {
			opts = append(opts, choice(g, bars))
		}
		shuffle(g.rng, opts)
		inds := newDrawSet(shift(asindices(canvas(-1, h+2, w+2)), -1, -1))
		for _, elem := range opts {
			loc := pt{-1, -1}
			for tr := 0; !inds.hasAll(toindices(shiftC(elem, loc.i, loc.j))) && tr < 5; tr++ {
				loc = choice(g, inds.list)
			}
			xx := shiftC(elem, loc.i, loc.j)
			if !inds.hasAll(toindices(xx)) {
				continue
			}
			gi = paint(gi, xx)
			if len(elem) == 12 {
				yy := make([]cell, len(xx))
				for k, c := range xx {
					yy[k] = c
					if c.c == bgc {
						yy[k].c = 3
					}
				}
				gout = paint(gout, yy)
			} else {
				gout = paint(gout, xx)
			}
			inds.remove(toindices(xx)...)
		}
		return gi, gout
	}},
	{"ce9e57f2", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(6, 30), g.unif(6, 30)
		nbars := g.unif(2, (w-2)/2)
		locopts := interval(1, w-1)
		var barlocs []int
		for range nbars {
			if len(locopts) == 0 {
				break
			}
			loc := choice(g, locopts)
			barlocs = append(barlocs, loc)
			locopts = without(locopts, loc, loc+1, loc-1)
		}
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		colss := sample(g, rem, g.unif(1, 8))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for _, j := range barlocs {
			bl := g.unif(1, h-2)
			full := connect(pt{0, j}, pt{bl, j})
			he := (bl - 1) / 2
			if bl%2 == 1 {
				he = bl / 2
			}
			barcol := choice(g, colss)
			gi = fill(gi, barcol, full)
			gout = fill(fill(gout, barcol, full), 8, connect(pt{0, j}, pt{he, j}))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"7f4411dc", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bf := sample(g, allColors, 2)
		bgc, fgc := bf[0], bf[1]
		nsq := g.unif(1, h*w/15)
		maxtr, tr, succ := 4*nsq, 0, 0
		gout := canvas(bgc, h, w)
		inds := newDrawSet(asindices(gout))
		for tr < maxtr && succ < nsq {
			oh, ow := g.randint(2, 6), g.randint(2, 6)
			var cands []pt
			for _, p := range inds.list {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			// RE-ARC shifts the box at loc by loc once more.
			ul := pt{2 * loc.i, 2 * loc.j}
			obj := backdrop(ul, pt{ul.i + oh - 1, ul.j + ow - 1})
			if inds.hasAll(obj) {
				gout = fill(gout, fgc, obj)
				succ++
				inds.remove(obj...)
				inds.remove(outbox(ul, pt{ul.i + oh - 1, ul.j + ow - 1})...)
			}
			tr++
		}
		free := newDrawSet(ofcolor(gout, bgc))
		nnoise := g.unif(0, free.size()/2-1)
		gi := gout
		for range nnoise {
			loc := choice(g, free.list)
			free.remove(dneighbors(loc)...)
			gi = fill(gi, fgc, []pt{loc})
		}
		return gi, gout
	}},
	{"82819916", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ab := sample(g, rem, 2)
		ass, bss := ab[0], ab[1]
		itv := interval(0, w)
		alocs := sample(g, itv, g.randint(2, w-2))
		blocs := without(itv, alocs...)
		if slices.Min(alocs) > slices.Min(blocs) {
			alocs, blocs = blocs, alocs
		}
		row := func(i int, js []int) []pt {
			ps := make([]pt, len(js))
			for k, j := range js {
				ps[k] = pt{i, j}
			}
			return ps
		}
		llocs := g.randint(0, h-1)
		gi := canvas(bgc, h, w)
		gi = fill(fill(gi, ass, row(llocs, alocs)), bss, row(llocs, blocs))
		numl := g.unif(1, max(1, (h-1)/2))
		remlocs := without(interval(0, h), llocs)
		for range numl {
			lloc := choice(g, remlocs)
			remlocs = without(remlocs, lloc)
			cd := sample(g, rem, 2)
			gi = fill(fill(gi, cd[0], row(lloc, alocs)), cd[1], row(lloc, blocs))
		}
		cutoff := slices.Min(blocs) + 1
		gout := gi
		gi = fill(gi, bgc, backdrop(pt{0, cutoff}, pt{h - 1, w - 1}))
		gi = fill(fill(gi, ass, row(llocs, alocs)), bss, row(llocs, blocs))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"3428a4f5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(1, 30), g.unif(1, 14)
		rem := without(cols, 0)
		barcol := choice(g, rem)
		rem = without(rem, barcol)
		cola, colb := choice(g, rem), choice(g, rem)
		canv := canvas(0, h, w)
		inds := asindices(canv)
		mp := h * w / 2
		deva, devb := g.unif(0, mp), g.unif(0, mp)
		sgna, sgnb := choice(g, []int{1, -1}), choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+sgna*deva), 1)
		numb := max(min(h*w-1, mp+sgnb*devb), 1)
		a, b := sample(g, inds, numa), sample(g, inds, numb)
		gi := hconcat(hconcat(fill(canv, cola, a), canvas(barcol, h, 1)), fill(canv, colb, b))
		ina, inb := newDrawSet(a), newDrawSet(b)
		var xor []pt
		for _, p := range inds {
			if ina.has(p) != inb.has(p) {
				xor = append(xor, p)
			}
		}
		gout := fill(canv, 3, xor)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
}
