package arc

import (
	"math"
	"slices"
)

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
	{"496994bd", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(3, 30), g.unif(3, 14)
		bgc := choice(g, cols)
		rem := sample(g, without(cols, bgc), g.unif(1, 8))
		canv := canvas(bgc, h, w)
		nc := g.unif(2, h*w-1)
		bx := asindices(canv)
		var upper, lower []pt
		for _, p := range bx {
			if p.i < h/2 {
				upper = append(upper, p)
			} else if p.i > h/2 {
				lower = append(lower, p)
			}
		}
		c1 := choice(g, rem)
		p1 := choice(g, upper)
		c2 := choice(g, rem)
		p2 := choice(g, lower)
		obj := growCells(g, bx, []cell{{c1, p1}, {c2, p2}}, nc-2, rem)
		gix := paint(canv, obj)
		for i, row := range gix {
			var fg, bg []int
			for _, v := range row {
				if v == bgc {
					bg = append(bg, v)
				} else {
					fg = append(fg, v)
				}
			}
			gix[i] = append(fg, bg...)
		}
		var gi, gout Grid
		if choice(g, []bool{true, false}) {
			gi, gout = hconcat(gix, canv), hconcat(gix, vmirror(gix))
		} else {
			col := canvas(bgc, h, 1)
			gi, gout = hconcat(gix, hconcat(col, canv)), hconcat(gix, hconcat(col, vmirror(gix)))
		}
		if choice(g, []bool{true, false}) {
			gi, gout = vmirror(gi), vmirror(gout)
		}
		if choice(g, []bool{true, false}) {
			gi, gout = hmirror(gi), hmirror(gout)
		}
		return gi, gout
	}},
	{"88a62173", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 14), g.unif(1, 14)
		bgc := choice(g, allColors)
		gib := canvas(bgc, h, w)
		numc := g.unif(1, min(9, h*w))
		colsch := sample(g, without(allColors, bgc), numc)
		inds := asindices(gib)
		for _, col := range colsch {
			chos := sample(g, inds, g.unif(1, max(1, len(inds)/numc)))
			gib = fill(gib, col, chos)
			inds = minus(inds, chos)
		}
		numch := h*w - g.unif(0, h*w-1)
		subs := sample(g, asindices(gib), numch)
		gout := copyGrid(gib)
		all := append(append([]int(nil), colsch...), bgc)
		for _, p := range subs {
			gout[p.i][p.j] = choice(g, without(all, gout[p.i][p.j]))
		}
		gi := canvas(bgc, 2*h+1, 2*w+1)
		idxes := []pt{{0, 0}, {h + 1, w + 1}, {h + 1, 0}, {0, w + 1}}
		k := g.rng.IntN(4)
		gi = paint(gi, shiftC(asobject(gout), idxes[k].i, idxes[k].j))
		for r, ij := range idxes {
			if r != k {
				gi = paint(gi, shiftC(asobject(gib), ij.i, ij.j))
			}
		}
		return gi, gout
	}},
	{"d8c310e9", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(10, 30)
		p := g.unif(2, (w-1)/3)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		var obj []cell
		for j := range p {
			numcells := g.unif(1, h-1)
			for ii := h - 1; ii > h-numcells-1; ii-- {
				obj = append(obj, cell{choice(g, ccols), pt{ii, j}})
			}
		}
		gi := canvas(bgc, h, w)
		full := append(append([]cell(nil), obj...), shiftC(obj, 0, p)...)
		addonw := g.randint(0, p)
		for _, c := range obj {
			if c.p.j < addonw {
				full = append(full, c)
			}
		}
		full = shiftC(full, 0, -g.randint(0, addonw))
		gi = paint(gi, full)
		gout := gi
		for j := range w/(2*p) + 2 {
			gout = paint(gout, shiftC(full, 0, j*2*p))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"6e19193c", func(g *gen) (Grid, Grid) {
		type dir struct{ at, d pt }
		dirs := []dir{{pt{0, 0}, pt{-1, -1}}, {pt{0, 1}, pt{-1, 1}}, {pt{1, 0}, pt{1, -1}}, {pt{1, 1}, pt{1, 1}}}
		base := []pt{{0, 0}, {1, 0}, {0, 1}, {1, 1}}
		h, w := g.unif(4, 30), g.unif(4, 30)
		num := g.unif(1, h*w/8)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newOrderSet(asindices(gi))
		for kk, tr := 0, 0; kk < num && tr < num*4; tr++ {
			if inds.len() == 0 {
				break
			}
			loc := choice(g, inds.list())
			dr := choice(g, dirs)
			obji := shift(minus(base, []pt{dr.at}), loc.i, loc.j)
			var objo []pt
			for _, q := range shift(dedup(minus(append(append([]pt(nil), base...), shoot(dr.at, dr.d.i, dr.d.j)...), []pt{dr.at})), loc.i, loc.j) {
				if q.i >= 0 && q.i < h && q.j >= 0 && q.j < w {
					objo = append(objo, q)
				}
			}
			if inds.hasAll(objo) && len(minus(obji, objo)) == 0 {
				col := choice(g, rem)
				gi = fill(gi, col, obji)
				gout = fill(gout, col, objo)
				inds.remove(objo)
				for _, q := range obji {
					inds.remove(dneighbors(q))
				}
				kk++
			}
		}
		return gi, gout
	}},
	{"83302e8f", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3, 4)
		h, w := g.unif(2, 5), g.unif(2, 5)
		nh, nw := g.unif(3, 30/(h+1)), g.unif(3, 30/(w+1))
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		gi := canvas(bgc, fullh, fullw)
		for i := h; i < fullh; i += h + 1 {
			gi = fill(gi, linc, hfrontier(pt{i, 0}))
		}
		for j := w; j < fullw; j += w + 1 {
			gi = fill(gi, linc, vfrontier(pt{0, j}))
		}
		ofc := ofcolor(gi, linc)
		on := newOrderSet(ofc)
		var dots []pt
		for _, p := range ofc {
			if on.hasAll(dneighbors(p)) {
				dots = append(dots, p)
			}
		}
		tmp := fill(gi, bgc, dots)
		var cands [][]pt
		for _, o := range colorfilter(objects(tmp), linc) {
			cands = append(cands, o.cells)
		}
		for _, d := range dots {
			cands = append(cands, []pt{d})
		}
		nbreaks := g.unif(0, len(cands)/2)
		var breaks []pt
		for _, b := range sample(g, cands, nbreaks) {
			breaks = append(breaks, choice(g, b))
		}
		gi = fill(gi, bgc, breaks)
		var res []pt
		for _, o := range colorfilter(objects(gi), bgc) {
			if len(o.cells) == h*w {
				res = append(res, o.cells...)
			}
		}
		return gi, replace(fill(gi, 3, res), bgc, 4)
	}},
	{"1b2d62fb", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(2, 30), g.unif(2, 14)
		rem := without(cols, 0)
		barcol := choice(g, rem)
		rem = without(rem, barcol)
		cola, colb := choice(g, rem), choice(g, rem)
		canv := canvas(0, h, w)
		inds := asindices(canv)
		mp := h * w / 2
		deva, devb := g.unif(0, mp), g.unif(0, mp)
		deva *= choice(g, []int{1, -1})
		devb *= choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+deva), 1)
		numb := max(min(h*w-1, mp+devb), 1)
		a, b := sample(g, inds, numa), sample(g, inds, numb)
		gia, gib := fill(canv, cola, a), fill(canv, colb, b)
		gi := hconcat(hconcat(gia, canvas(barcol, h, 1)), gib)
		gout := fill(canv, 8, intersection(ofcolor(gia, 0), ofcolor(gib, 0)))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"662c240a", func(g *gen) (Grid, Grid) {
		d := g.unif(2, 7)
		ng := g.unif(2, 30/d)
		nc := g.unif(2, min(9, d*d))
		c := canvas(-1, d, d)
		inds := asindices(c)
		symm := func() Grid {
			tcolset := sample(g, allColors, nc)
			out := copyGrid(c)
			for _, p := range inds {
				if p.j >= p.i {
					col := choice(g, tcolset)
					out[p.i][p.j], out[p.j][p.i] = col, col
				}
			}
			return out
		}
		tcolset := sample(g, allColors, nc)
		gik := copyGrid(c)
		var off []pt
		for _, p := range inds {
			if p.j >= p.i {
				col := choice(g, tcolset)
				gik[p.i][p.j], gik[p.j][p.i] = col, col
			}
			if p.i != p.j {
				off = append(off, p)
			}
		}
		ndist := d*(d-1)/2 - g.unif(0, d*(d-1)/2-1)
		for _, p := range sample(g, off, ndist) {
			if gik[p.i][p.j] == gik[p.j][p.i] {
				gik[p.i][p.j] = choice(g, without(tcolset, gik[p.i][p.j]))
			} else {
				gik[p.i][p.j] = gik[p.j][p.i]
			}
		}
		gi, gout := gik, copyGrid(gik)
		concat := choice(g, []func(a, b Grid) Grid{hconcat, vconcat})
		for range ng - 1 {
			k := symm()
			if choice(g, []bool{true, false}) {
				gi = concat(gi, k)
			} else {
				gi = concat(k, gi)
			}
		}
		return gi, gout
	}},
	{"d89b689b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		h, w := g.unif(4, 30), g.unif(4, 30)
		s := sample(g, cols, 6)
		bgc, sqc, a, b, c, d := s[0], s[1], s[2], s[3], s[4], s[5]
		loci, locj := g.randint(1, h-3), g.randint(1, w-3)
		canv := canvas(bgc, h, w)
		gout := fill(canv, a, []pt{{loci, locj}})
		gout = fill(gout, b, []pt{{loci, locj + 1}})
		gout = fill(gout, c, []pt{{loci + 1, locj}})
		gout = fill(gout, d, []pt{{loci + 1, locj + 1}})
		inds := asindices(canv)
		opts := func(keep func(p pt) bool, to pt) []pt {
			var ps []pt
			for _, p := range inds {
				if keep(p) {
					ps = append(ps, p)
				}
			}
			slices.SortStableFunc(ps, func(x, y pt) int { return manhattanPt(x, to) - manhattanPt(y, to) })
			return ps
		}
		aopts := opts(func(p pt) bool { return p.i < loci && p.j < locj }, pt{loci, locj})
		bopts := opts(func(p pt) bool { return p.i < loci && p.j > locj+1 }, pt{loci, locj + 1})
		copts := opts(func(p pt) bool { return p.i > loci+1 && p.j < locj }, pt{loci + 1, locj})
		dopts := opts(func(p pt) bool { return p.i > loci+1 && p.j > locj+1 }, pt{loci + 1, locj + 1})
		ai, bi := g.unif(0, len(aopts)-1), g.unif(0, len(bopts)-1)
		ci, di := g.unif(0, len(copts)-1), g.unif(0, len(dopts)-1)
		gi := fill(canv, sqc, backdrop(pt{loci, locj}, pt{loci + 1, locj + 1}))
		gi = fill(gi, a, []pt{aopts[ai]})
		gi = fill(gi, b, []pt{bopts[bi]})
		gi = fill(gi, c, []pt{copts[ci]})
		gi = fill(gi, d, []pt{dopts[di]})
		return gi, gout
	}},
	{"ff805c23", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h := g.unif(3, 15)
		w := h
		bgc := choice(g, cols)
		rem := sample(g, without(cols, bgc), g.unif(1, 8))
		canv := canvas(bgc, h, w)
		nc := g.unif(1, h*w)
		bx := asindices(canv)
		c0 := choice(g, rem)
		p0 := choice(g, bx)
		gi := paint(canv, growCells(g, bx, []cell{{c0, p0}}, nc-1, rem))
		for i := range h {
			for j := i; j < w; j++ {
				gi[i][j] = gi[j][i]
			}
		}
		gi = hconcat(gi, vmirror(gi))
		gi = vconcat(gi, hmirror(gi))
		loci := 2*h - g.unif(1, 2*h)
		locj := w - g.unif(1, w)
		loci2, locj2 := g.unif(loci, 2*h-1), g.unif(locj, w-1)
		bd := backdrop(pt{loci, locj}, pt{loci2, locj2})
		gout := subgrid(bd, gi)
		gi = fill(gi, 0, bd)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"9d9215db", func(g *gen) (Grid, Grid) {
		h, w := 2*g.unif(5, 14)+1, 2*g.unif(5, 14)+1
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		ub := min(h, w) / 4
		var base []pt
		for k := range ub {
			base = append(base, pt{2*k + 1, 2*k + 1})
		}
		gi := canvas(bgc, h, w)
		for _, p := range sample(g, base, g.unif(1, ub)) {
			gi = fill(gi, choice(g, rem), []pt{p})
		}
		var linsbase []pt
		for _, p := range base[:len(base)-1] {
			linsbase = append(linsbase, pt{p.i, p.j + 2})
		}
		nlines := g.unif(1, len(linsbase))
		linesps := sample(g, linsbase, nlines)
		colors := make([]int, nlines)
		for k := range colors {
			colors[k] = choice(g, rem)
		}
		for k, p := range linesps {
			gi = fill(fill(gi, colors[k], []pt{p}), colors[k], []pt{{p.j, p.i}})
		}
		gobase := gi
		for k, p := range linesps {
			var ln []pt
			for _, q := range connect(p, pt{p.i, w - p.j - 1}) {
				if q.j%2 == 1 {
					ln = append(ln, q)
				}
			}
			q0 := pt{p.j, p.i}
			for _, q := range connect(q0, pt{h - q0.i - 1, q0.j}) {
				if q.i%2 == 1 {
					ln = append(ln, q)
				}
			}
			gobase = fill(gobase, colors[k], ln)
		}
		gout := paintFg(gobase, vmirror(gobase))
		gout = paintFg(gout, hmirror(gobase))
		gout = paintFg(gout, vmirror(hmirror(gobase)))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"d6ad076f", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(3, 30), g.unif(3, 30)
		inh, inw := g.unif(3, h), g.unif(3, w)
		s := sample(g, cols, 3)
		bgc, c1, c2 := s[0], s[1], s[2]
		loci2 := g.unif(2, inh-1)
		loci1 := loci2 - 2 - g.unif(0, loci2-2)
		cp := g.randint(1, inw-2)
		ajs, aje := g.randint(0, cp-1), g.randint(cp+1, inw-1)
		bjs, bje := g.randint(0, cp-1), g.randint(cp+1, inw-1)
		c := canvas(bgc, inh, inw)
		c = fill(c, c1, backdrop(pt{0, ajs}, pt{loci1, aje}))
		c = fill(c, c2, backdrop(pt{loci2, bjs}, pt{inh - 1, bje}))
		loci, locj := g.randint(0, h-inh), g.randint(0, w-inw)
		gi := paint(canvas(bgc, h, w), shiftC(asobject(c), loci, locj))
		mid := backdrop(pt{loci1 + 1, max(ajs, bjs) + 1}, pt{loci2 - 1, min(aje, bje) - 1})
		gout := fill(gi, 8, shift(mid, loci, locj))
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"6e02f1e3", func(g *gen) (Grid, Grid) {
		d := g.unif(3, 30)
		c := canvas(0, d, d)
		inds := sample(g, asindices(c), d*d)
		chcols := sample(g, allColors, choice(g, []int{1, 2, 3}))
		switch len(chcols) {
		case 1:
			return canvas(chcols[0], d, d), fill(canvas(0, d, d), 5, connect(pt{0, 0}, pt{0, d - 1}))
		case 2:
			nc1 := g.unif(1, d*d/2)
			gi := fill(fill(c, chcols[0], inds[:nc1]), chcols[1], inds[nc1:])
			return gi, fill(canvas(0, d, d), 5, connect(pt{0, 0}, pt{d - 1, d - 1}))
		}
		kk := d * d
		a, b := int(1.0/3.0*float64(kk)), int(2.0/3.0*float64(kk))
		adev := g.unif(0, a-1)
		bdev := g.unif(0, kk-b-1)
		a -= adev
		b -= bdev
		gi := fill(c, chcols[0], inds[:a])
		gi = fill(gi, chcols[1], inds[a:b])
		gi = fill(gi, chcols[2], inds[b:])
		return gi, fill(canvas(0, d, d), 5, connect(pt{d - 1, 0}, pt{0, d - 1}))
	}},
	{"a68b268e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 14), g.unif(2, 4)
		s := sample(g, allColors, 6)
		bgc, linc := s[0], s[1]
		canv := canvas(bgc, h, w)
		inds := asindices(canv)
		var ns [4]int
		for k := range ns {
			dev := g.unif(0, h*w/2)
			n := choice(g, []int{dev, h*w - dev})
			ns[k] = min(max(1, n), h*w-1)
		}
		var ofc [4][]pt
		for k := range ofc {
			ofc[k] = sample(g, inds, ns[k])
		}
		gout := canv
		for k := range ofc {
			gout = fill(gout, s[2+k], ofc[k])
		}
		gi := canvas(linc, 2*h+1, 2*w+1)
		at := []pt{{h + 1, w + 1}, {h + 1, 0}, {0, w + 1}, {0, 0}}
		for k := range ofc {
			gi = paint(gi, shiftC(asobject(fill(canv, s[2+k], ofc[k])), at[k].i, at[k].j))
		}
		return gi, gout
	}},
	{"6d0160f0", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(2, 5), g.unif(2, 5)
		nh, nw := h, w
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		gi := canvas(bgc, fullh, fullw)
		for i := h; i < fullh; i += h + 1 {
			gi = fill(gi, linc, hfrontier(pt{i, 0}))
		}
		for j := w; j < fullw; j += w + 1 {
			gi = fill(gi, linc, vfrontier(pt{0, j}))
		}
		noccs := g.unif(1, h*w)
		dense := asindices(canvas(-1, h, w))
		var sparse []pt
		for _, p := range dense {
			sparse = append(sparse, pt{p.i * (h + 1), p.j * (w + 1)})
		}
		locs := sample(g, sparse, noccs)
		trgtl := choice(g, locs)
		ntrgt := g.unif(1, h*w-1)
		place := choice(g, dense)
		ccols := sample(g, cols, g.unif(1, 9))
		trg := []cell{{4, place}}
		for _, p := range sample(g, minus(dense, []pt{place}), ntrgt) {
			trg = append(trg, cell{choice(g, ccols), p})
		}
		var keep []cell
		for _, c := range trg {
			if c.c != linc {
				keep = append(keep, c)
			}
		}
		gout := paint(gi, shiftC(keep, place.i*(h+1), place.j*(w+1)))
		gi = paint(gi, shiftC(trg, trgtl.i, trgtl.j))
		for _, rl := range locs {
			if rl == trgtl {
				continue
			}
			tlo := choice(g, ccols)
			ncells := g.unif(1, h*w-1)
			pool := ccols
			if len(ccols) > 1 {
				pool = without(ccols, tlo)
			}
			var obj []cell
			for _, p := range sample(g, dense, ncells) {
				obj = append(obj, cell{choice(g, pool), p})
			}
			gi = paint(gi, shiftC(obj, rl.i, rl.j))
		}
		return gi, gout
	}},
	{"d0f5fe59", func(g *gen) (Grid, Grid) {
		// RE-ARC returns an empty output when nothing was placed; draw again
		// (at most 100 times).
		for try := 0; ; try++ {
			h, w := g.unif(10, 30), g.unif(10, 30)
			nobjs := g.unif(1, min(30, h*w/9))
			bgc := choice(g, allColors)
			fgc := choice(g, without(allColors, bgc))
			nfound := 0
			gi := canvas(bgc, h, w)
			inds := newOrderSet(asindices(gi))
			for trials := 0; trials < nobjs*5 && nfound < nobjs; trials++ {
				oh, ow := g.unif(1, 5), g.unif(1, 5)
				bx := asindices(canvas(-1, oh, ow))
				sp := choice(g, bx)
				dev := g.unif(0, oh*ow/2)
				ncells := choice(g, []int{dev, oh*ow - dev})
				ncells = min(max(1, ncells), oh*ow-1)
				f := newFrontier(bx, dneighbors)
				f.take(sp)
				shp := []pt{sp}
				for range ncells {
					p := f.pick(g)
					f.take(p)
					shp = append(shp, p)
				}
				shp = normalize(shp)
				if inds.len() == 0 {
					break
				}
				loc := choice(g, inds.list())
				plcd := shift(shp, loc.i, loc.j)
				if inds.hasAll(plcd) {
					gi = fill(gi, fgc, plcd)
					inds.remove(plcd)
					for _, p := range plcd {
						inds.remove(neighbors(p))
					}
					nfound++
				}
			}
			if nfound > 0 || try == 99 {
				return gi, fill(canvas(bgc, nfound, nfound), fgc, connect(pt{0, 0}, pt{nfound - 1, nfound - 1}))
			}
		}
	}},
	{"a1570a43", func(g *gen) (Grid, Grid) {
		h, w := g.unif(4, 30), g.unif(4, 30)
		oh, ow := g.unif(3, h), g.unif(3, w)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		crns := []pt{{loci, locj}, {loci + oh - 1, locj}, {loci, locj + ow - 1}, {loci + oh - 1, locj + ow - 1}}
		cands := shift(asindices(canvas(-1, oh-2, ow-2)), loci+1, locj+1)
		bd := sample(g, allColors, 2)
		bgc, dotc := bd[0], bd[1]
		ccols := sample(g, without(allColors, bgc, dotc), g.unif(1, 8))
		gipro := fill(canvas(bgc, h, w), dotc, crns)
		sp := choice(g, cands)
		f := newFrontier(cands, neighbors)
		f.take(sp)
		obj := []pt{sp}
		ncells := g.unif(oh+ow-5, max(oh+ow-5, (oh-2)*(ow-2)/2))
		for range ncells - 1 {
			p := f.pick(g)
			f.take(p)
			obj = append(obj, p)
		}
		full := func() bool {
			ul, lr := bounds(obj)
			return lr.i-ul.i+1 == oh-2 && lr.j-ul.j+1 == ow-2
		}
		for !full() && len(f.cands) > 0 {
			p := f.pick(g)
			f.take(p)
			obj = append(obj, p)
		}
		cobj := withColors(obj, ccols, g)
		gout := paint(gipro, cobj)
		nperts := g.unif(1, max(h, w))
		corner := map[pt]bool{}
		for _, c := range crns {
			corner[c] = true
		}
		ps := toindices(cobj)
		di, dj := 0, 0
		for k := 0; (di == 0 && dj == 0) || k < nperts; k++ {
			if k >= nperts+1000 {
				break
			}
			var opts []pt
			for _, d := range neighbors(pt{0, 0}) {
				ok := true
				for _, p := range ps {
					q := pt{p.i + di + d.i, p.j + dj + d.j}
					if corner[q] || q.i < 0 || q.i >= h || q.j < 0 || q.j >= w {
						ok = false
						break
					}
				}
				if ok {
					opts = append(opts, d)
				}
			}
			if len(opts) == 0 {
				break
			}
			d := choice(g, opts)
			di, dj = di+d.i, dj+d.j
		}
		return paint(gipro, shiftC(cobj, di, dj)), gout
	}},
	{"c0f76784", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 6, 7, 8)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		ccols := sample(g, rem, g.unif(1, len(rem)))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, h*w/20)
		indss := newOrderSet(asindices(gi))
		for tr, succ := 0, 0; succ < num && tr <= 4*num; tr++ {
			if indss.len() == 0 {
				break
			}
			oh := choice(g, []int{3, 4, 5})
			ow := oh
			var subs []pt
			for _, p := range indss.list() {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			col := choice(g, ccols)
			if indss.hasAll(bd) {
				gi, gout = fill(gi, col, bd), fill(gout, col, bd)
				bdx := backdrop(pt{l.i + 1, l.j + 1}, pt{l.i + oh - 2, l.j + ow - 2})
				gi, gout = fill(gi, bgc, bdx), fill(gout, oh+3, bdx)
				succ++
				indss.remove(bd)
				indss.remove(outbox(l, pt{l.i + oh - 1, l.j + ow - 1}))
			}
		}
		return gi, gout
	}},
	{"f9012d9b", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		hp, wp := g.unif(2, 10), g.unif(2, 10)
		srco := canvas(0, hp, wp)
		ccols := sample(g, cols, g.unif(1, 9))
		srco = paint(srco, withColors(asindices(srco), ccols, g))
		gi := srco
		numhp, numwp := g.unif(3, 30/hp), g.unif(3, 30/wp)
		for range numhp - 1 {
			gi = vconcat(gi, srco)
		}
		srco = gi
		for range numwp - 1 {
			gi = hconcat(gi, srco)
		}
		gi = gi[:len(gi)-g.randint(0, hp)]
		gi = dmirror(gi)
		gi = dmirror(gi[:len(gi)-g.randint(0, wp)])
		h, w := dims(gi)
		sgh, sgw := g.unif(1, h-hp-1), g.unif(1, w-wp-1)
		loci, locj := g.randint(0, h-sgh), g.randint(0, w-sgw)
		bd := backdrop(pt{loci, locj}, pt{loci + sgh - 1, locj + sgw - 1})
		gout := subgrid(bd, gi)
		gi = fill(gi, 0, bd)
		mf := choice(g, []transform{identity, rot90, rot180, rot270, dmirror, vmirror, hmirror, cmirror})
		return mf(gi), mf(gout)
	}},
	{"444801d8", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		nobjs := g.unif(1, h*w/25)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(2, 9))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newOrderSet(asindices(gi))
		for succ, tr := 0, 0; succ < nobjs && tr < 5*nobjs; {
			tr++
			oh, ow := g.randint(4, 6), 5
			bx := minus(box([]pt{{1, 0}, {oh - 1, 4}}), []pt{{1, 2}})
			bx = dedup(bx)
			fullobj := backdrop(pt{0, 0}, pt{oh - 1, 4})
			cands := minus(backdrop(pt{1, 0}, pt{oh - 1, 4}), bx)
			dot := choice(g, cands)
			dc := sample(g, ccols, 2)
			dcol, bxcol := dc[0], dc[1]
			inobj := append(recolor(bxcol, bx), cell{dcol, dot})
			outobj := append(recolor(bxcol, bx), recolor(dcol, minus(fullobj, bx))...)
			if choice(g, []bool{true, false}) {
				for k := range inobj {
					inobj[k].p.i = oh - 1 - inobj[k].p.i
				}
				for k := range outobj {
					outobj[k].p.i = oh - 1 - outobj[k].p.i
				}
			}
			var locs []pt
			for _, p := range inds.list() {
				if p.i <= h-oh && p.j <= w-ow {
					locs = append(locs, p)
				}
			}
			if len(locs) == 0 {
				continue
			}
			loc := choice(g, locs)
			outplcd := shiftC(outobj, loc.i, loc.j)
			outi := toindices(outplcd)
			if inds.hasAll(outi) {
				succ++
				inplcd := shiftC(inobj, loc.i, loc.j)
				ul, lr := bounds(toindices(inplcd))
				inds.remove(outi)
				inds.remove(outbox(ul, lr))
				gi, gout = paint(gi, inplcd), paint(gout, outplcd)
			}
		}
		return gi, gout
	}},
	{"1f876c06", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		nlns := g.unif(1, min(min(h, w), 9))
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), nlns)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newOrderSet(asindices(gi))
		direcs := []pt{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
		for succ, tr := 0, 0; succ < nlns && tr < 10*nlns; {
			tr++
			if inds.len() == 0 {
				break
			}
			loc := choice(g, inds.list())
			var lns [][]pt
			for _, d := range direcs {
				ln := []pt{loc}
				for ofs := 1; ; ofs++ {
					nx := pt{loc.i + ofs*d.i, loc.j + ofs*d.j}
					if !inds.has(nx) {
						break
					}
					ln = append(ln, nx)
				}
				if len(ln) > 2 {
					lns = append(lns, ln)
				}
			}
			if len(lns) > 0 {
				succ++
				slices.SortStableFunc(lns, func(a, b []pt) int { return len(a) - len(b) })
				ln := lns[g.unif(0, len(lns)-1)]
				col := ccols[0]
				ccols = ccols[1:]
				gi = fill(gi, col, []pt{ln[0], ln[len(ln)-1]})
				gout = fill(gout, col, ln)
				inds.remove(ln)
			}
		}
		return gi, gout
	}},
	{"363442ee", func(g *gen) (Grid, Grid) {
		h, w := 2*g.unif(1, 3)+1, 2*g.unif(1, 3)+1
		nremh, nremw := g.unif(2, 30/h), g.unif(2, (30-w-1)/w)
		rsh, rsw := nremh*h, nremw*w
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		barcol := choice(g, rem)
		rem = without(rem, barcol)
		rsi, rso := canvas(bgc, rsh, rsw), canvas(bgc, rsh, rsw)
		ls := canvas(bgc, (nremh-1)*h, w)
		ulc := canvas(bgc, h, w)
		bar := canvas(barcol, nremh*h, 1)
		var dotcands []pt
		for i := 0; i < rsh; i += h {
			for j := 0; j < rsw; j += w {
				dotcands = append(dotcands, pt{i, j})
			}
		}
		dotcol := choice(g, rem)
		dev := g.unif(1, len(dotcands)/2)
		ndots := choice(g, []int{dev, len(dotcands) - dev})
		ndots = min(max(1, ndots), len(dotcands))
		dots := sample(g, dotcands, ndots)
		full := sample(g, rem, g.unif(1, 8))
		for _, p := range asindices(ulc) {
			ulc[p.i][p.j] = choice(g, full)
		}
		ulco := asobject(ulc)
		for _, d := range dots {
			rsi = fill(rsi, dotcol, []pt{{h/2 + d.i, w/2 + d.j}})
			rso = paint(rso, shiftC(ulco, d.i, d.j))
		}
		left := hconcat(vconcat(ulc, ls), bar)
		gi, gout := hconcat(left, rsi), hconcat(left, rso)
		mfs := []transform{identity, dmirror, cmirror, vmirror, hmirror, rot90, rot180, rot270}
		for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"ae3edfdc", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3, 7)
		h, w := g.unif(8, 30), g.unif(8, 30)
		bgc := choice(g, cols)
		gout := canvas(bgc, h, w)
		rd := pt{g.randint(1, h-2), g.randint(1, w-2)}
		var reminds []pt
		for _, p := range minus(asindices(gout), append(neighbors(rd), rd)) {
			if p.i >= 1 && p.i <= h-2 && p.j >= 1 && p.j <= w-2 {
				reminds = append(reminds, p)
			}
		}
		bd := choice(g, reminds)
		gout = fill(fill(gout, 2, []pt{rd}), 1, []pt{bd})
		gd := sample(g, neighbors(rd), g.unif(1, 8))
		od := sample(g, neighbors(bd), g.unif(1, 8))
		gout = fill(fill(gout, 3, gd), 7, od)
		type ray struct {
			loc, d pt
			col    int
		}
		sign := func(x int) int { return min(max(x, -1), 1) }
		var mpr []ray
		at := map[pt]int{}
		put := func(r ray) {
			if k, ok := at[r.loc]; ok {
				mpr[k] = r
				return
			}
			at[r.loc] = len(mpr)
			mpr = append(mpr, r)
		}
		for _, d := range gd {
			put(ray{d, pt{sign(d.i - rd.i), sign(d.j - rd.j)}, 3})
		}
		for _, d := range od {
			put(ray{d, pt{sign(d.i - bd.i), sign(d.j - bd.j)}, 7})
		}
		ub := (len(gd) + len(od)) * ((h + w) / 5)
		ndist := g.unif(1, ub)
		gi := copyGrid(gout)
		for range ndist {
			var opts []int
			for k, r := range mpr {
				n := pt{r.loc.i + r.d.i, r.loc.j + r.d.j}
				if n.i >= 0 && n.i < h && n.j >= 0 && n.j < w && gi[n.i][n.j] == bgc {
					opts = append(opts, k)
				}
			}
			if len(opts) == 0 {
				break
			}
			k := choice(g, opts)
			r := mpr[k]
			n := pt{r.loc.i + r.d.i, r.loc.j + r.d.j}
			gi[r.loc.i][r.loc.j] = bgc
			gi[n.i][n.j] = r.col
			mpr[k].loc = n
		}
		return gi, gout
	}},
	{"06df4c85", func(g *gen) (Grid, Grid) {
		oh, ow := g.unif(1, 4), g.unif(1, 4)
		numh, numw := g.unif(3, 31/(oh+1)), g.unif(3, 31/(ow+1))
		bl := sample(g, allColors, 2)
		bgc, linc := bl[0], bl[1]
		ccols := sample(g, without(allColors, bgc, linc), g.unif(1, min(8, numh*numh/3)))
		fullh, fullw := numh*oh+numh-1, numw*ow+numw-1
		gi := canvas(linc, fullh, fullw)
		sinds := asindices(canvas(-1, oh, ow))
		for a := range numh {
			for b := range numw {
				gi = fill(gi, bgc, shift(sinds, a*(oh+1), b*(ow+1)))
			}
		}
		gout := gi
		for _, col := range ccols {
			inds := newOrderSet(occurrences(gout, recolor(bgc, sinds)))
			if inds.len() == 0 {
				break
			}
			loc := choice(g, inds.list())
			narms := g.randint(1, 4)
			for _, d := range sample(g, dneighbors(pt{0, 0}), narms) {
				var arm []pt
				for k := 1; k < max(numh, numw); k++ {
					nx := pt{loc.i + k*d.i*(oh+1), loc.j + k*d.j*(ow+1)}
					if !inds.has(nx) {
						break
					}
					arm = append(arm, nx)
				}
				if len(arm) < 2 {
					continue
				}
				aidx := g.unif(1, len(arm)-1)
				gi = fill(gi, col, shift(sinds, arm[aidx].i, arm[aidx].j))
				for _, a := range arm[:aidx+1] {
					gout = fill(gout, col, shift(sinds, a.i, a.j))
				}
			}
			gi = fill(gi, col, shift(sinds, loc.i, loc.j))
			gout = fill(gout, col, shift(sinds, loc.i, loc.j))
		}
		return gi, gout
	}},
	{"1a07d186", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		nlines := g.unif(1, w/5)
		linecols := sample(g, rem, nlines)
		rem = without(rem, linecols...)
		nnoise := g.unif(0, len(rem))
		noisecols := sample(g, rem, nnoise)
		locopts := interval(0, w)
		var locs []int
		for range nlines {
			if len(locopts) == 0 {
				break
			}
			loc := choice(g, locopts)
			locopts = without(locopts, interval(loc-2, loc+3)...)
			locs = append(locs, loc)
		}
		slices.Sort(locs)
		nlines = len(locs)
		linecols = linecols[:nlines]
		gi := canvas(bgc, h, w)
		for k, loc := range locs {
			gi = fill(gi, linecols[k], connect(pt{0, loc}, pt{h - 1, loc}))
		}
		gout := gi
		dotlocopts := without(interval(0, w), locs...)
		allc := append(append([]int(nil), linecols...), noisecols...)
		for _, ii := range sample(g, interval(0, h), g.unif(1, h)) {
			ndots := g.unif(1, min(nlines+nnoise, (w-nlines)/2-1))
			dotlocs := sample(g, dotlocopts, ndots)
			dotcols := sample(g, allc, ndots)
			for k, j := range dotlocs {
				col := dotcols[k]
				gi = fill(gi, col, []pt{{ii, j}})
				if idx := slices.Index(linecols, col); idx >= 0 {
					lj := locs[idx]
					if j > lj {
						gout = fill(gout, col, []pt{{ii, lj + 1}})
					} else {
						gout = fill(gout, col, []pt{{ii, lj - 1}})
					}
				}
			}
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"484b58aa", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		hp, wp := g.unif(2, h/2-1), g.unif(2, w/2-1)
		pinds := asindices(canvas(-1, hp, wp))
		noisec := choice(g, allColors)
		ccols := sample(g, without(allColors, noisec), g.unif(2, 9))
		pobj := withColors(pinds, ccols, g)
		gout := canvas(-1, h, w)
		var locs []pt
		ofs := g.randint(1, hp-1)
		for a := range 2 * (h/hp + 1) {
			for b := range w/wp + 1 {
				l := pt{hp*a - ofs*b, wp * b}
				locs = append(locs, l)
				gout = paint(gout, shiftC(pobj, l.i, l.j))
			}
		}
		numpatches := g.unif(1, h*w/20)
		gi := gout
		intact := func(gr Grid) bool {
			for _, l := range locs {
				if l.i < 0 || l.j < 0 || l.i+hp > h || l.j+wp > w {
					continue
				}
				ok := true
				for _, c := range pobj {
					if gr[l.i+c.p.i][l.j+c.p.j] != c.c {
						ok = false
						break
					}
				}
				if ok {
					return true
				}
			}
			return false
		}
		clean := func(gr Grid) int {
			n := 0
			for _, row := range gr {
				if !contains(row, noisec) {
					n++
				}
			}
			return n
		}
		for succ, tr := 0, 0; succ < numpatches && tr < 5*numpatches; {
			tr++
			ph, pw := g.randint(2, 6), g.randint(2, 6)
			loci, locj := g.randint(0, h-ph), g.randint(0, w-pw)
			gi2 := fill(gi, noisec, backdrop(pt{loci, locj}, pt{loci + ph - 1, locj + pw - 1}))
			if intact(gi2) && clean(gi2) >= 2 && clean(dmirror(gi2)) >= 2 {
				succ++
				gi = gi2
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"6e82a1ae", func(g *gen) (Grid, Grid) {
		b := [][]pt{{{0, 0}, {0, 1}}, {{0, 0}, {1, 0}}}
		c := [][]pt{
			{{0, 0}, {1, 0}, {1, 1}},
			{{0, 0}, {1, 0}, {0, 1}},
			{{1, 1}, {1, 0}, {0, 1}},
			{{1, 1}, {0, 0}, {0, 1}},
			{{1, 0}, {0, 0}, {2, 0}},
			{{0, 1}, {0, 0}, {0, 2}},
		}
		var d [][]pt
		seen := map[[4]pt]bool{}
		for range 100 {
			shp := []pt{{0, 0}}
			for range 3 {
				var cands []pt
				for _, p := range shp {
					cands = append(cands, dneighbors(p)...)
				}
				shp = append(shp, choice(g, minus(dedup(cands), shp)))
			}
			shp = normalize(shp)
			slices.SortFunc(shp, func(x, y pt) int {
				if x.i != y.i {
					return x.i - y.i
				}
				return x.j - y.j
			})
			key := [4]pt(shp)
			if !seen[key] {
				seen[key] = true
				d = append(d, shp)
			}
		}
		type pr struct {
			objs [][]pt
			col  int
		}
		prs := []pr{{b, 3}, {c, 2}, {d, 1}}
		cols := without(allColors, 1, 2, 3)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		reminds := newOrderSet(asindices(gi))
		nobjs := g.unif(1, h*w/2/3)
		for range nobjs {
			p := choice(g, prs)
			obj := choice(g, p.objs)
			for range 10 {
				if reminds.len() == 0 {
					break
				}
				loc := choice(g, reminds.list())
				plcd := shift(obj, loc.i, loc.j)
				if reminds.hasAll(plcd) {
					gi, gout = fill(gi, fgc, plcd), fill(gout, p.col, plcd)
					reminds.remove(plcd)
					for _, q := range plcd {
						reminds.remove(dneighbors(q))
					}
					break
				}
			}
		}
		return gi, gout
	}},
	{"4938f0c2", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 31), g.unif(10, 31)
		oh, ow := g.unif(2, (h-3)/2), g.unif(2, (w-3)/2)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		cc := choice(g, rem)
		objc := choice(g, without(rem, cc))
		sg := canvas(bgc, oh, ow)
		locc := pt{oh - 1, ow - 1}
		sg = fill(sg, cc, []pt{locc})
		reminds := minus(asindices(sg), []pt{locc})
		hi := max(1, int(2.0/3.0*float64(oh)*float64(ow)))
		ncells := g.unif(1, hi)
		cells := sample(g, reminds, ncells)
		is2x2 := func() bool {
			ul, lr := bounds(cells)
			return lr.i-ul.i == 1 && lr.j-ul.j == 1
		}
		for try := 0; ncells == 4 && is2x2() && try < 1000; try++ {
			ncells = g.unif(1, hi)
			cells = sample(g, reminds, ncells)
		}
		sg = fill(sg, objc, cells)
		vbar, hbar := canvas(bgc, oh, 1), canvas(bgc, 1, ow)
		topg := hconcat(hconcat(sg, vbar), vmirror(sg))
		botg := hconcat(hconcat(hmirror(sg), vbar), vmirror(hmirror(sg)))
		ggm := hconcat(hconcat(hbar, canvas(cc, 1, 1)), hbar)
		gg := vconcat(vconcat(topg, ggm), botg)
		canv := canvas(bgc, h, w)
		loci, locj := g.randint(0, h-2*oh-1), g.randint(0, w-2*ow-1)
		gout := paint(canv, shiftC(asobject(gg), loci, locj))
		gi := paint(canv, shiftC(asobject(sg), loci, locj))
		gi = fill(gi, cc, ofcolor(gout, cc))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		gi, gout = rot(gi), rot(gout)
		cp := center(ofcolor(gi, cc))
		cut := func(gr Grid) Grid {
			var out Grid
			for i, row := range gr {
				if i != cp.i {
					out = append(out, slices.Delete(slices.Clone(row), cp.j, cp.j+1))
				}
			}
			return out
		}
		return cut(gi), cut(gout)
	}},
	{"543a7ed5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3, 4)
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 7))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, h*w/25)
		indss := newOrderSet(asindices(gi))
		for tr, succ := 0, 0; succ < num && tr <= 4*num; tr++ {
			if indss.len() == 0 {
				break
			}
			oh, ow := g.randint(4, 8), g.randint(4, 8)
			var subs []pt
			for _, p := range indss.list() {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			lr := pt{l.i + oh - 1, l.j + ow - 1}
			bd := backdrop(l, lr)
			col := choice(g, ccols)
			if indss.hasAll(bd) {
				ul2, lr2 := pt{l.i + 1, l.j + 1}, pt{lr.i - 1, lr.j - 1}
				bdibd := backdrop(ul2, lr2)
				gout = fill(fill(gout, col, bdibd), 3, box(bd))
				gi = fill(gi, col, bdibd)
				if oh > 5 && ow > 5 && g.randint(1, 10) != 1 {
					aa := g.randint(ul2.i+1, lr2.i-1)
					aa = g.randint(ul2.i+1, aa)
					bb := g.randint(ul2.j+1, lr2.j-1)
					bb = g.randint(ul2.j+1, bb)
					cc := g.randint(aa, lr2.i-1)
					dd := g.randint(bb, lr2.j-1)
					cc = g.randint(cc, lr2.i-1)
					dd = g.randint(dd, lr2.j-1)
					ins := backdrop(pt{aa, bb}, pt{cc, dd})
					gout, gi = fill(gout, 4, ins), fill(gi, bgc, ins)
				}
				succ++
				indss.remove(bd)
			}
		}
		return gi, gout
	}},
	{"8efcae92", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		s := sample(g, allColors, 3)
		bgc, sqc, dotc := s[0], s[1], s[2]
		num := g.unif(1, h*w/25)
		gi := canvas(bgc, h, w)
		var gout Grid
		inds := newOrderSet(asindices(gi))
		oho, owo, numdots := -1, -1, 0
		for succ, tr := 0, 0; succ < num && tr < 4*num; {
			var oh, ow int
			if oho < 0 {
				oh, ow = g.randint(2, h-1), g.randint(2, w-1)
				oho, owo = oh, ow
			} else {
				ohd := min(oho, h-1-oho) - g.unif(0, min(oho, h-1-oho))
				owd := min(owo, w-1-owo) - g.unif(0, min(owo, w-1-owo))
				oh = choice(g, []int{oho - ohd, oho + ohd})
				ow = choice(g, []int{owo - owd, owo + owd})
				oh, ow = min(max(2, oh), h-1), min(max(2, ow), w-1)
			}
			mini := asindices(canvas(sqc, oh, ow))
			var cands []pt
			for _, p := range inds.list() {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			tr++
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			if !inds.hasAll(shift(mini, loc.i, loc.j)) {
				continue
			}
			succ++
			var nd int
			if gout == nil {
				numdots = g.unif(1, oh*ow/2-1)
				nd = numdots
			} else {
				nd = g.unif(0, min(oh*ow/2-1, numdots-1))
			}
			minig := fill(canvas(sqc, oh, ow), dotc, sample(g, mini, nd))
			if gout == nil {
				gout = minig
			}
			plcd := shiftC(asobject(minig), loc.i, loc.j)
			gi = paint(gi, plcd)
			pi := toindices(plcd)
			inds.remove(pi)
			for _, p := range pi {
				inds.remove(dneighbors(p))
			}
		}
		return gi, gout
	}},
	{"b230c067", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		var gi, gout Grid
		for range 100 {
			h, w := g.unif(10, 30), g.unif(10, 30)
			oh, ow := g.unif(2, h/3-1), g.unif(2, w/3-1)
			numcd := g.unif(0, oh*ow/2)
			numc := choice(g, []int{numcd, oh*ow - numcd})
			numca := min(max(2, numc), oh*ow-2)
			bnds := asindices(canvas(-1, oh, ow))
			sp := choice(g, bnds)
			shp := normalize(grow(g, bnds, []pt{sp}, numca))
			mxnch := oh*ow - len(shp)
			nch := mxnch - g.unif(1, mxnch)
			nch = min(max(1, nch), mxnch)
			shpa := shp
			shpb := grow(g, bnds, slices.Clone(shp), nch)
			if choice(g, []bool{true, false}) {
				shpa, shpb = shpb, shpa
			}
			bf := sample(g, cols, 2)
			bgc, fgc := bf[0], bf[1]
			c := canvas(bgc, h, w)
			_, alr := bounds(shpa)
			_, blr := bounds(shpb)
			var acands []pt
			for _, p := range asindices(c) {
				if p.i <= h-alr.i-1 && p.j <= w-alr.j-1 {
					acands = append(acands, p)
				}
			}
			aloc := choice(g, acands)
			aplcd := shift(shpa, aloc.i, aloc.j)
			gi, gout = fill(c, fgc, aplcd), fill(c, 2, aplcd)
			all := newOrderSet(asindices(c))
			all.remove(aplcd)
			for _, p := range aplcd {
				all.remove(neighbors(p))
			}
			var keep []pt
			for _, p := range all.list() {
				if p.i <= h-blr.i-1 && p.j <= w-blr.j-1 {
					keep = append(keep, p)
				}
			}
			inds := newOrderSet(keep)
			succ := 0
			for tr := 0; succ < 2 && tr <= 10; tr++ {
				if inds.len() == 0 {
					break
				}
				loc := choice(g, inds.list())
				pb := shift(shpb, loc.i, loc.j)
				if inds.hasAll(pb) {
					gi, gout = fill(gi, fgc, pb), fill(gout, 1, pb)
					succ++
					inds.remove(pb)
					for _, p := range pb {
						inds.remove(neighbors(p))
					}
				}
			}
			if succ == 2 {
				break
			}
		}
		return gi, gout
	}},
	{"b527c5c6", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(2, 9))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		inds := newOrderSet(asindices(gi))
		noccs := g.unif(1, 10)
		for succ, tr := 0, 0; succ < noccs && tr < 10*noccs; {
			tr++
			d1 := g.randint(3, g.randint(3, min(h, w)/2-1))
			d2 := g.randint(d1*2+1, g.randint(d1*2+1, min(h, w)-1))
			od := sample(g, []int{d1, d2}, 2)
			oh, ow := od[0], od[1]
			var cands []pt
			for _, p := range inds.list() {
				if 1 <= p.i && p.i <= h-oh-1 && 1 <= p.j && p.j <= w-ow-1 {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			l := choice(g, cands)
			bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			lrflag := ow < oh
			var dc1, dc2 []pt
			if lrflag {
				dc1 = connect(pt{l.i + ow - 1, l.j}, pt{l.i + oh - ow, l.j})
				dc2 = shift(dc1, 0, ow-1)
			} else {
				dc1 = connect(pt{l.i, l.j + oh - 1}, pt{l.i, l.j + ow - oh})
				dc2 = shift(dc1, oh-1, 0)
			}
			loc := choice(g, append(slices.Clone(dc1), dc2...))
			sgn := 1
			if slices.Contains(dc1, loc) {
				sgn = -1
			}
			var d pt
			if lrflag {
				d = pt{0, sgn}
			} else {
				d = pt{sgn, 0}
			}
			ln := shoot(loc, d.i, d.j)
			m := min(oh, ow) - 1
			ul, lr := bounds(ln)
			shell := minus(backdrop(pt{ul.i - m, ul.j - m}, pt{lr.i + m, lr.j + m}), ln)
			sd := sample(g, ccols, 2)
			sqc, dotc := sd[0], sd[1]
			giobj := append(recolor(sqc, minus(bd, []pt{loc})), cell{dotc, loc})
			var goobj []cell
			for _, p := range minus(dedup(append(slices.Clone(bd), shell...)), ln) {
				goobj = append(goobj, cell{sqc, p})
			}
			goobj = append(goobj, recolor(dotc, ln)...)
			var kept []cell
			for _, c := range goobj {
				if c.p.i >= 0 && c.p.i < h && c.p.j >= 0 && c.p.j < w {
					kept = append(kept, c)
				}
			}
			gi2 := toindices(kept)
			if inds.hasAll(gi2) {
				succ++
				inds.remove(gi2)
				for _, p := range bd {
					inds.remove(dneighbors(p))
				}
				gi, gout = paint(gi, giobj), paint(gout, kept)
			}
		}
		return gi, gout
	}},
	{"447fd412", func(g *gen) (Grid, Grid) {
		h, w := g.unif(12, 30), g.unif(12, 30)
		s := sample(g, allColors, 3)
		bgc, indic, mainc := s[0], s[1], s[2]
		oh, ow := g.unif(1, 4), g.unif(1, 4)
		if oh*ow < 3 {
			if choice(g, []bool{true, false}) {
				oh = g.unif(3, 4)
			} else {
				ow = g.unif(3, 4)
			}
		}
		bnds := asindices(canvas(-1, oh, ow))
		ncells := g.unif(3, oh*ow)
		shp := normalize(grow(g, bnds, []pt{choice(g, bnds)}, ncells-1))
		_, lr := bounds(shp)
		oh, ow = lr.i+1, lr.j+1
		kk := len(shp)
		hi := kk/2 - 1
		if kk%2 == 1 {
			hi = kk / 2
		}
		indicobj := sample(g, shp, g.randint(1, hi))
		obj := append(recolor(indic, indicobj), recolor(mainc, minus(shp, indicobj))...)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		plcd := shiftC(obj, loci, locj)
		gi, gout := paint(canvas(bgc, h, w), plcd), paint(canvas(bgc, h, w), plcd)
		inds := newOrderSet(ofcolor(gi, bgc))
		for _, p := range toindices(plcd) {
			inds.remove(neighbors(p))
		}
		noccs := g.unif(1, max(1, h*w/(4*len(plcd))))
		for succ, tr := 0, 0; succ < noccs && tr < 5*noccs; {
			tr++
			fac := g.randint(1, min(5, min(h, w)/max(oh, ow)-1))
			var outobj, inobj []cell
			for _, c := range obj {
				for io := range fac {
					for jo := range fac {
						outobj = append(outobj, cell{c.c, pt{c.p.i*fac + io, c.p.j*fac + jo}})
					}
				}
			}
			for _, c := range outobj {
				if c.c == indic {
					inobj = append(inobj, c)
				}
			}
			_, olr := bounds(toindices(outobj))
			hh, ww := olr.i+1, olr.j+1
			var cands []pt
			for _, p := range inds.list() {
				if p.i <= h-hh && p.j <= w-ww {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			inp, outp := shiftC(inobj, loc.i, loc.j), shiftC(outobj, loc.i, loc.j)
			outi := toindices(outp)
			if inds.hasAll(outi) {
				succ++
				inds.remove(outi)
				for _, p := range toindices(inp) {
					inds.remove(neighbors(p))
				}
				gi, gout = paint(gi, inp), paint(gout, outp)
			}
		}
		return gi, gout
	}},
	{"a48eeaf7", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		ih, iw := g.unif(2, h/2), g.unif(2, w/2)
		loci, locj := g.randint(2, h-ih-2), g.randint(2, w-iw-2)
		s := sample(g, allColors, 3)
		bgc, sqc, dotc := s[0], s[1], s[2]
		sq := backdrop(pt{loci, locj}, pt{loci + ih - 1, locj + iw - 1})
		var src, dst []pt
		for x := loci; x < loci+ih; x++ {
			dst = append(dst, pt{x, locj - 1})
			src = append(src, pt{x, g.randint(0, locj-2)})
		}
		for x := loci; x < loci+ih; x++ {
			dst = append(dst, pt{x, locj + iw})
			src = append(src, pt{x, g.randint(locj+iw+1, w-1)})
		}
		for x := locj; x < locj+iw; x++ {
			dst = append(dst, pt{loci - 1, x})
			src = append(src, pt{g.randint(0, loci-2), x})
		}
		for x := locj; x < locj+iw; x++ {
			dst = append(dst, pt{loci + ih, x})
			src = append(src, pt{g.randint(loci+ih+1, h-1), x})
		}
		locs := sample(g, interval(0, len(src)), g.unif(1, len(src)))
		slices.Sort(locs)
		gi := fill(canvas(bgc, h, w), sqc, sq)
		gout := fill(canvas(bgc, h, w), sqc, sq)
		for _, k := range locs {
			gi = fill(gi, dotc, []pt{src[k]})
			gout = fill(gout, dotc, []pt{dst[k]})
		}
		ncorn := g.unif(0, 4)
		corner := []struct{ out, from, d pt }{
			{pt{loci - 1, locj - 1}, pt{loci - 2, locj - 2}, pt{-1, -1}},
			{pt{loci - 1, locj + iw}, pt{loci - 2, locj + iw + 1}, pt{-1, 1}},
			{pt{loci + ih, locj - 1}, pt{loci + ih + 1, locj - 2}, pt{1, -1}},
			{pt{loci + ih, locj + iw}, pt{loci + ih + 1, locj + iw + 1}, pt{1, 1}},
		}
		for _, c := range corner[:ncorn] {
			gout = fill(gout, dotc, []pt{c.out})
			var cands []pt
			for _, p := range shoot(c.from, c.d.i, c.d.j) {
				if p.i >= 0 && p.i < h && p.j >= 0 && p.j < w {
					cands = append(cands, p)
				}
			}
			gi = fill(gi, dotc, []pt{choice(g, cands)})
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"50846271", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		horiz := func(d int) []pt { return connect(pt{d / 2, 0}, pt{d / 2, d - 1}) }
		vert := func(d int) []pt { return connect(pt{0, d / 2}, pt{d - 1, d / 2}) }
		cf1 := func(d int) []pt {
			return append([]pt{{d / 2, 0}, {d / 2, d - 1}}, sample(g, horiz(d), g.randint(1, d))...)
		}
		cf2 := func(d int) []pt {
			return append([]pt{{0, d / 2}, {d - 1, d / 2}}, sample(g, vert(d), g.randint(1, d))...)
		}
		cf3 := func(d int) []pt {
			mid := []pt{{d / 2, d / 2}}
			a := sample(g, minus(horiz(d), mid), g.randint(1, d-1))
			return append(a, sample(g, minus(vert(d), mid), g.randint(1, d-1))...)
		}
		h, w := g.unif(10, 30), g.unif(10, 30)
		dim := 2*g.unif(1, 3) + 1
		cross := dedup(append(horiz(dim), vert(dim)...))
		s := sample(g, cols, 3)
		bgc, crossc, noisec := s[0], s[1], s[2]
		gi := canvas(bgc, h, w)
		namt := g.unif(int(0.35*float64(h)*float64(w)), int(0.65*float64(h)*float64(w)))
		all := asindices(gi)
		gi = fill(gi, noisec, sample(g, all, namt))
		initcross := choice(g, []func(int) []pt{cf1, cf2})(dim)
		loci, locj := g.randint(0, h-dim), g.randint(0, w-dim)
		delt := shift(minus(cross, initcross), loci, locj)
		gi = fill(gi, crossc, shift(initcross, loci, locj))
		gi = fill(gi, noisec, delt)
		gout := fill(gi, 8, delt)
		inds := newOrderSet(all)
		near := func(ps []pt) {
			for _, p := range ps {
				for di := -3; di <= 3; di++ {
					for dj := -3; dj <= 3; dj++ {
						inds.remove([]pt{{p.i + di, p.j + dj}})
					}
				}
			}
		}
		near(shift(cross, loci, locj))
		noccs := g.unifFloat(1, float64(h*w)/float64(10*dim))
		for succ, tr := 0, 0; float64(succ) < noccs && float64(tr) < 5*noccs; {
			tr++
			var cands []pt
			for _, p := range inds.list() {
				if p.i <= h-dim && p.j <= w-dim {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			loc := choice(g, cands)
			cf := choice(g, []func(int) []pt{cf1, cf2, cf3})
			marked := dedup(shift(cf(dim), loc.i, loc.j))
			full := shift(cross, loc.i, loc.j)
			unmarked := minus(full, marked)
			if inds.hasAll(full) {
				near(full)
				succ++
				gi = fill(fill(gi, noisec, unmarked), crossc, marked)
				gout = fill(fill(gout, 8, unmarked), crossc, marked)
			}
		}
		return gi, gout
	}},
	{"a64e4611", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(18, 30), g.unif(18, 30)
		bn := sample(g, cols, 2)
		bgc, noisec := bn[0], bn[1]
		lb, ub := int(0.4*float64(h)*float64(w)), int(0.5*float64(h)*float64(w))
		nbgc := g.unif(lb, ub)
		gi := canvas(noisec, h, w)
		gi = fill(gi, bgc, sample(g, asindices(gi), nbgc))
		sinds := asindices(canvas(-1, 3, 3))
		var addn, addb []pt
		for _, o := range occurrences(gi, recolor(bgc, sinds)) {
			addn = append(addn, pt{g.randint(0, 2) + o.i, g.randint(0, 2) + o.j})
		}
		for _, o := range occurrences(gi, recolor(noisec, sinds)) {
			addb = append(addb, pt{g.randint(0, 2) + o.i, g.randint(0, 2) + o.j})
		}
		gi = fill(fill(gi, noisec, addn), bgc, addb)
		gout := gi
		dim := g.randint(g.randint(3, 8), 8)
		locj := g.randint(3, h-dim-4)
		spi := choice(g, []int{0, g.randint(3, h/2)})
		for j := locj; j < locj+dim; j++ {
			ln := connect(pt{spi, j}, pt{h - 1, j})
			gi, gout = fill(gi, bgc, ln), fill(gout, bgc, ln)
		}
		top := func(s int) int {
			if s > 0 {
				return s + 1
			}
			return s
		}
		for j := locj + 1; j < locj+dim-1; j++ {
			gout = fill(gout, 3, connect(pt{top(spi), j}, pt{h - 1, j}))
		}
		arms := func(sgns []int) {
			startloc := choice(g, []int{spi, g.randint(spi+3, h-6)})
			hh := g.randint(3, min(8, h-startloc-3))
			for _, sgn := range sgns {
				for ii := startloc; ii < startloc+hh; ii++ {
					ln := shoot(pt{ii, locj}, 0, sgn)
					gi = fill(gi, bgc, ln)
					gout = fill(gout, bgc, minus(ln, ofcolor(gout, 3)))
				}
			}
			for _, sgn := range sgns {
				for ii := top(startloc); ii < startloc+hh-1; ii++ {
					j := locj + 1
					if sgn == -1 {
						j = locj + dim - 2
					}
					gout = fill(gout, 3, shoot(pt{ii, j}, 0, sgn))
				}
			}
		}
		sgns := choice(g, [][]int{{-1}, {1}, {-1, 1}})
		arms(sgns)
		if len(sgns) == 1 && g.unif(0, 1) == 1 {
			arms([]int{-sgns[0]})
		}
		return gi, gout
	}},
	{"7837ac64", func(g *gen) (Grid, Grid) {
		oh, ow := g.unif(2, 6), g.unif(2, 6)
		bl := sample(g, allColors, 2)
		bgc, linc := bl[0], bl[1]
		ccols := sample(g, without(allColors, bgc, linc), g.unif(1, 8))
		gout := canvas(bgc, oh, ow)
		inds := newOrderSet(asindices(gout))
		inGrid := func(p pt) bool { return p.i >= 0 && p.i < oh && p.j >= 0 && p.j < ow }
		nocc := g.unif(1, oh*ow)
		for range nocc {
			type opt struct {
				col  int
				locs []pt
			}
			var mpr []opt
			for _, cc := range ccols {
				mine := newOrderSet(ofcolor(gout, cc))
				cand := newOrderSet(inds.list())
				for _, p := range mine.list() {
					cand.add(neighbors(p)...)
				}
				var locs []pt
				for _, p := range cand.list() {
					ok := true
					for _, q := range neighbors(p) {
						if inGrid(q) && !inds.has(q) && !mine.has(q) {
							ok = false
							break
						}
					}
					if ok {
						locs = append(locs, p)
					}
				}
				if len(locs) > 0 {
					mpr = append(mpr, opt{cc, locs})
				}
			}
			if len(mpr) == 0 {
				break
			}
			o := choice(g, mpr)
			loc := choice(g, o.locs)
			gout = fill(gout, o.col, []pt{loc})
			inds.remove([]pt{loc})
		}
		gout = subgrid(minus(asindices(gout), ofcolor(gout, bgc)), gout)
		oh, ow = dims(gout)
		sh, sw := g.unif(2, (30-oh-1)/oh), g.unif(2, (30-ow-1)/ow)
		fullh, fullw := oh+1+oh*sh, ow+1+ow*sw
		gi := canvas(linc, fullh, fullw)
		sq := backdrop(pt{0, 0}, pt{sh - 1, sw - 1})
		for _, c := range asobject(gout) {
			plcd := shift(sq, 1+c.p.i*(sh+1), 1+c.p.j*(sw+1))
			gi = fill(gi, bgc, plcd)
			if c.c != bgc {
				ul, lr := bounds(plcd)
				gi = fill(gi, c.c, corners([]pt{{ul.i - 1, ul.j - 1}, {lr.i + 1, lr.j + 1}}))
			}
		}
		gih, giw := g.unif(fullh, 30), g.unif(fullw, 30)
		loci, locj := g.randint(0, gih-fullh), g.randint(0, giw-fullw)
		gigi := canvas(bgc, gih, giw)
		plcd := shiftC(asobject(gi), loci, locj)
		gigi = paint(gigi, plcd)
		for a := loci; a < gih+1; a += sh + 1 {
			gigi = fill(gigi, linc, hfrontier(pt{a, 0}))
		}
		for a := loci; a > -1; a -= sh + 1 {
			gigi = fill(gigi, linc, hfrontier(pt{a, 0}))
		}
		for b := locj; b < giw+1; b += sw + 1 {
			gigi = fill(gigi, linc, vfrontier(pt{0, b}))
		}
		for b := locj; b > -1; b -= sw + 1 {
			gigi = fill(gigi, linc, vfrontier(pt{0, b}))
		}
		gi = paint(gigi, plcd)
		gop := palette(gout)
		var present []int
		for _, c := range allColors {
			if gop[c] && slices.Contains(ccols, c) {
				present = append(present, c)
			}
		}
		for range 100 {
			go2 := gout
			for _, c := range present {
				o1 := []cell{{c, pt{0, 0}}, {bgc, pt{0, 1}}, {c, pt{0, 2}}}
				o2 := []cell{{c, pt{0, 0}}, {bgc, pt{1, 0}}, {c, pt{2, 0}}}
				go2 = fill(go2, c, append(shift(occurrences(gout, o1), 0, 1), shift(occurrences(gout, o2), 1, 0)...))
			}
			if equalGrids(go2, gout) {
				break
			}
			gout = go2
		}
		return gi, gout
	}},
	{"3631a71a", func(g *gen) (Grid, Grid) {
		h := g.unif(6, 15)
		w := h
		_ = sample(g, allColors, 2) // drawn and overwritten in RE-ARC
		patchcol := choice(g, allColors)
		bgc := choice(g, without(allColors, patchcol))
		rem := without(allColors, bgc, patchcol)
		c := canvas(bgc, h, w)
		var inds []pt
		for _, p := range asindices(c) {
			if p.i >= p.j {
				inds = append(inds, p)
			}
		}
		ccols := sample(g, rem, g.unif(1, 8))
		obj := withColors(sample(g, inds, g.unif(1, len(inds))), ccols, g)
		c = paint(dmirror(paint(c, obj)), obj)
		c = hconcat(c, vmirror(c))
		c = vconcat(c, hmirror(c))
		const cutoff = 2
		gout := crop(c, 0, 0, 2*h-cutoff, 2*w-cutoff)
		gi := gout
		forbidden := asindices(canvas(-1, cutoff, cutoff))
		areaL := shift(asindices(canvas(-1, 2*h-2*cutoff, cutoff)), cutoff, 0)
		areaT := shift(asindices(canvas(-1, cutoff, 2*w-2*cutoff)), 0, cutoff)
		var inds1 []pt
		for _, p := range asindices(gi) {
			if cutoff <= p.i && p.i < h && cutoff <= p.j && p.j < w && p.i >= p.j {
				inds1 = append(inds1, p)
			}
		}
		inds2 := dmirrorP(inds1)
		dh, dw := h-cutoff, w-cutoff
		indsarr := [][]pt{
			inds1, inds2,
			shift(hmirrorP(inds1), dh, 0), shift(hmirrorP(inds2), dh, 0),
			shift(vmirrorP(inds1), 0, dw), shift(vmirrorP(inds2), 0, dw),
			shift(hmirrorP(vmirrorP(inds1)), dh, dw), shift(hmirrorP(vmirrorP(inds2)), dh, dw),
		}
		farr := []func([]pt) []pt{
			func(x []pt) []pt { return x },
			dmirrorP,
			func(x []pt) []pt { return hmirrorP(shift(x, -dh, 0)) },
			func(x []pt) []pt { return dmirrorP(hmirrorP(shift(x, -dh, 0))) },
			func(x []pt) []pt { return vmirrorP(shift(x, 0, -dw)) },
			func(x []pt) []pt { return dmirrorP(vmirrorP(shift(x, 0, -dw))) },
			func(x []pt) []pt { return vmirrorP(hmirrorP(shift(x, -dh, -dw))) },
			func(x []pt) []pt { return dmirrorP(vmirrorP(hmirrorP(shift(x, -dh, -dw)))) },
		}
		sameSet := func(a []pt, b []pt) bool {
			sa, sb := newOrderSet(a), newOrderSet(b)
			return sa.len() == sb.len() && sa.hasAll(b)
		}
		left := func(gr Grid, ps []pt) []pt {
			var out []pt
			for _, p := range ps {
				if p.i >= 0 && p.i < len(gr) && p.j >= 0 && p.j < len(gr[0]) && gr[p.i][p.j] != patchcol {
					out = append(out, p)
				}
			}
			return out
		}
		ndist := g.unif(1, int(math.Sqrt(float64(2*h*2*w))))
		fullh, fullw := dims(gi)
		for succ, tr := 0, 0; succ < ndist && tr < 10*ndist; {
			tr++
			oh, ow := g.randint(2, h/2+1), g.randint(2, w/2+1)
			loci, locj := g.randint(0, fullh-oh), g.randint(0, fullw-ow)
			gi2 := fill(gi, patchcol, backdrop(pt{loci, locj}, pt{loci + oh - 1, locj + ow - 1}))
			if len(left(gi2, forbidden)) != len(forbidden) {
				continue
			}
			oo := left(gi2, areaL)
			for _, p := range left(gi2, areaT) {
				oo = append(oo, pt{p.j, p.i})
			}
			if !sameSet(oo, areaL) {
				continue
			}
			var isleft []pt
			for k, ii := range indsarr {
				if r := left(gi2, ii); len(r) > 0 {
					isleft = append(isleft, farr[k](r)...)
				}
			}
			if !sameSet(isleft, inds1) {
				continue
			}
			succ++
			gi = gi2
		}
		return gi, gout
	}},
}
