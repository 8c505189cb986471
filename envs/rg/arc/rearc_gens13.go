package arc

import (
	"fmt"
	"math"
	"slices"
)

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
	{"780d0b14", func(g *gen) (Grid, Grid) {
		nh, nw := g.unif(2, 6), g.unif(2, 6)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(3, 9))
		draw := func() Grid { return build(nh, nw, func(int, int) int { return choice(g, ccols) }) }
		gout := draw()
		for tr := 0; tr < 1000 && (len(dedupeRows(gout)) < nh || len(dedupeRows(dmirror(gout))) < nw); tr++ {
			gout = draw()
		}
		h, w := g.unif(3*nh-1, 30), g.unif(3*nw-1, 30)
		hdist, wdist := make([]int, nh), make([]int, nw)
		for k := range hdist {
			hdist[k] = 2
		}
		for k := range wdist {
			wdist[k] = 2
		}
		for range h - 3*nh + 1 {
			hdist[g.randint(0, nh-1)]++
		}
		for range w - 3*nw + 1 {
			wdist[g.randint(0, nw-1)]++
		}
		var rows, cols []int
		for k, n := range hdist {
			for range n {
				rows = append(rows, k)
			}
			rows = append(rows, -1)
		}
		for k, n := range wdist {
			for range n {
				cols = append(cols, k)
			}
			cols = append(cols, -1)
		}
		gi := build(h, w, func(i, j int) int {
			if rows[i] < 0 || cols[j] < 0 {
				return bgc
			}
			return gout[rows[i]][cols[j]]
		})
		for _, o := range objectsX(gi, true, false, false) {
			if o[0].c == bgc {
				continue
			}
			gi = fill(gi, bgc, sample(g, toindices(o), g.unif(1, len(o)/2)))
		}
		return gi, gout
	}},
	{"3906de3d", func(g *gen) (Grid, Grid) {
		h, w := g.unif(5, 30), g.unif(5, 30)
		oh, ow := g.unif(2, h/2), g.unif(3, w-2)
		c3 := sample(g, allColors, 3)
		bgc, boxc, linc := c3[0], c3[1], c3[2]
		locj := g.randint(1, w-ow-1)
		gi := fill(canvas(bgc, h, w), boxc, backdrop(pt{0, locj}, pt{oh - 1, locj + ow - 1}))
		cutoffs := make([]int, ow)
		for k := range cutoffs {
			cutoffs[k] = g.randint(1, oh-1)
		}
		for k, co := range cutoffs {
			gi = fill(gi, bgc, connect(pt{co, locj + k}, pt{oh - 1, locj + k}))
		}
		lnlocs := sample(g, interval(locj, locj+ow), g.unif(1, ow-1))
		gout := gi
		for k, co := range cutoffs {
			jj := locj + k
			if slices.Contains(lnlocs, jj) {
				lineh := g.randint(1, h-co-1)
				gi = fill(gi, linc, connect(pt{h - lineh, jj}, pt{h - 1, jj}))
				gout = fill(gout, linc, connect(pt{co, jj}, pt{co + lineh - 1, jj}))
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"1c786137", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(3, 30), g.unif(3, 30)
		c := canvas(0, h, w)
		inds := asindices(c)
		numNoise := g.unif(0, h*w)
		numCols := g.unif(1, 8)
		noiseinds := sample(g, inds, numNoise)
		colset := sample(g, cols, numCols)
		trgcol := choice(g, without(cols, colset...))
		gi := paint(c, withColors(noiseinds, colset, g))
		boxh, boxw := g.unif(3, max(3, h/2)), g.unif(3, max(3, w/2))
		boxi := choice(g, interval(0, h-boxh+1))
		boxj := choice(g, interval(0, w-boxw+1))
		gi = fill(gi, trgcol, box([]pt{{boxi, boxj}, {boxi + boxh - 1, boxj + boxw - 1}}))
		return gi, crop(gi, boxi+1, boxj+1, boxh-2, boxw-2)
	}},
	{"6855a6e4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(4, 30)
		fullh, fullw := g.unif(10, h), g.unif(3, w)
		c3 := sample(g, allColors, 3)
		bgc, objc, boxc := c3[0], c3[1], c3[2]
		loci, locj := g.randint(0, h-fullh), g.randint(0, w-fullw)
		canvi, canvo := canvas(bgc, fullh, fullw), canvas(bgc, fullh, fullw)
		objh := (fullh/2 - 3) / 2
		br := append(connect(pt{objh + 1, 0}, pt{objh + 1, fullw - 1}), pt{objh + 2, 0}, pt{objh + 2, fullw - 1})
		cands := backdrop(pt{0, 1}, pt{objh - 1, fullw - 2})
		for range 2 {
			canvi, canvo = fill(canvi, boxc, br), fill(canvo, boxc, br)
			n := objh * (fullw - 2)
			ncellsd := g.unif(0, n/2)
			ncells := choice(g, []int{ncellsd, n - ncellsd})
			ncells = min(max(1, ncells), n)
			cells := sample(g, cands, ncells)
			canvi = fill(canvi, objc, cells)
			canvo = fill(canvo, objc, shift(hmirrorP(cells), objh+3, 0))
			canvi, canvo = hmirror(canvi), hmirror(canvo)
		}
		place := func(cv Grid) Grid {
			out := canvas(bgc, h, w)
			for i := range fullh {
				copy(out[loci+i][locj:], cv[i])
			}
			return out
		}
		gi, gout := place(canvi), place(canvo)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"bdad9b1f", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(4, 30), g.unif(4, 30)
		numh, numw := g.unif(1, h/2-1), g.unif(1, w/2-1)
		hlocs := sample(g, interval(2, h-1), numh)
		wlocs := sample(g, interval(2, w-1), numw)
		numcols := g.unif(2, 8)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), numcols)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		slices.Sort(hlocs)
		slices.Sort(wlocs)
		fc := -1
		for _, ii := range hlocs {
			col := choice(g, without(ccols, fc))
			fc = col
			objw := g.randint(2, ii)
			gi = fill(gi, col, connect(pt{ii, 0}, pt{ii, objw - 1}))
			gout = fill(gout, col, connect(pt{ii, 0}, pt{ii, w - 1}))
		}
		fc = -1
		for _, jj := range wlocs {
			col := choice(g, without(ccols, fc))
			fc = col
			objh := g.randint(2, jj)
			gi = fill(gi, col, connect(pt{0, jj}, pt{objh - 1, jj}))
			gout = fill(gout, col, connect(pt{0, jj}, pt{h - 1, jj}))
		}
		var yells []pt
		for _, i := range hlocs {
			for _, j := range wlocs {
				yells = append(yells, pt{i, j})
			}
		}
		gout = fill(gout, 4, yells)
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"00d62c1b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi := canvas(bgc, h, w)
		nblocks := g.unif(1, h*w/20)
		all := asindices(gi)
		inds := setOf(all)
		succ := 0
		for tr := 0; succ < nblocks && tr < 5*nblocks; tr++ {
			oh, ow := g.randint(3, 8), g.randint(3, 8)
			var cands []pt
			for _, p := range inds.in(all) {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			bx := dedup(box([]pt{loc, {loc.i + oh - 1, loc.j + ow - 1}}))
			bx = minus(bx, sample(g, corners(bx), g.randint(0, 4)))
			if inds.has(bx) && inds.n-len(bx) > h*w/2+1 {
				gi = fill(gi, fgc, bx)
				succ++
				inds.drop(bx)
			}
		}
		maxnnoise := max(0, h*w/2-1-colorcount(gi, fgc))
		noise := sample(g, inds.in(all), g.unif(0, maxnnoise))
		gi = fill(gi, fgc, noise)
		var res []pt
		for _, o := range objectsX(gi, true, false, false) {
			if o[0].c == bgc && !bordering(toindices(o), gi) {
				res = append(res, toindices(o)...)
			}
		}
		return gi, fill(gi, 4, res)
	}},
	{"6773b310", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(2, 5), g.unif(2, 5)
		nh, nw := g.unif(2, 5), g.unif(2, 5)
		c3 := sample(g, cols, 3)
		bgc, linc, fgc := c3[0], c3[1], c3[2]
		fullh, fullw := h*nh+nh-1, w*nw+nw-1
		gi := canvas(linc, fullh, fullw)
		smallc := canvas(bgc, h, w)
		var llocs []pt
		for a := 0; a < fullh; a += h + 1 {
			for b := 0; b < fullw; b += w + 1 {
				llocs = append(llocs, pt{a, b})
			}
		}
		nbldev := g.unif(0, nh*nw/2)
		nbl := choice(g, []int{nbldev, nh*nw - nbldev})
		nbl = min(max(1, nbl), nh*nw-1)
		bluelocs := sample(g, llocs, nbl)
		bglocs := minus(llocs, bluelocs)
		inds := asindices(smallc)
		gout := canvas(bgc, nh, nw)
		put := func(ij pt, n int) {
			sub := fill(smallc, fgc, sample(g, inds, n))
			for _, p := range inds {
				gi[ij.i+p.i][ij.j+p.j] = sub[p.i][p.j]
			}
		}
		for _, ij := range bluelocs {
			put(ij, 2)
			gout = fill(gout, 1, []pt{{ij.i / (h + 1), ij.j / (w + 1)}})
		}
		for _, ij := range bglocs {
			put(ij, 1)
		}
		return gi, gout
	}},
	{"ce4f8723", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(2, 30), g.unif(2, 14)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		barcol := choice(g, rem)
		rem = without(rem, barcol)
		cola := choice(g, rem)
		colb := choice(g, without(rem, cola))
		canv := canvas(bgc, h, w)
		inds := asindices(canv)
		gbar := canvas(barcol, h, 1)
		mp := h * w / 2
		deva, devb := g.unif(0, mp), g.unif(0, mp)
		deva *= choice(g, []int{1, -1})
		devb *= choice(g, []int{1, -1})
		numa := max(min(h*w-1, mp+deva), 1)
		numb := max(min(h*w-1, mp+devb), 1)
		a, b := sample(g, inds, numa), sample(g, inds, numb)
		gi := hconcat(hconcat(fill(canv, cola, a), gbar), fill(canv, colb, b))
		gout := fill(fill(canv, 3, a), 3, b)
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"2bee17df", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(7, 30), g.unif(7, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		c := canvas(bgc, h, w)
		var indord []pt
		for j := range w {
			indord = append(indord, pt{0, j})
		}
		for i := 1; i < h-1; i++ {
			indord = append(indord, pt{i, w - 1})
		}
		for j := w - 1; j > 0; j-- {
			indord = append(indord, pt{h - 1, j})
		}
		for i := h - 1; i > 0; i-- {
			indord = append(indord, pt{i, 0})
		}
		k := len(indord)
		sp := g.randint(0, k)
		arr := append(slices.Clone(indord[sp:]), indord[:sp]...)
		ep := g.randint(k/2-3, k/2+1)
		cola := choice(g, rem)
		colb := choice(g, without(rem, cola))
		gi := fill(fill(c, cola, arr[:ep]), colb, arr[ep:])
		nr := g.unif(1, min(4, min(h, w)/2))
		for kk := range nr {
			ring := setOf(box([]pt{{1 + kk, 1 + kk}, {h - 1 - kk, w - 1 - kk}}))
			for _, br := range []int{cola, colb} {
				near := newSet()
				for _, p := range ofcolor(gi, br) {
					for _, q := range dneighbors(p) {
						near.add(q)
					}
				}
				var bcands []pt
				for _, p := range ofcolor(gi, bgc) {
					if ring.at(p) && near.at(p) {
						bcands = append(bcands, p)
					}
				}
				jj := len(bcands)
				jj2 := g.randint(max(0, jj/2-2), min(jj, jj/2+1))
				gi = fill(gi, br, sample(g, bcands, jj2))
			}
		}
		var res []pt
		for _, f := range frontiers(trim(gi)) {
			res = append(res, shift(f.cells, 1, 1)...)
		}
		return gi, fill(gi, 3, res)
	}},
	{"77fdfe62", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 13), g.unif(1, 13)
		c7 := sample(g, allColors, 7)
		c1, c2, c3, c4, barc, bgc, inc := c7[0], c7[1], c7[2], c7[3], c7[4], c7[5], c7[6]
		inds := asindices(canvas(bgc, h, w))
		fullh, fullw := 2*h+4, 2*w+4
		n1, n2, n3, n4 := g.unif(1, h*w), g.unif(1, h*w), g.unif(1, h*w), g.unif(1, h*w)
		i1, i2, i3, i4 := sample(g, inds, n1), sample(g, inds, n2), sample(g, inds, n3), sample(g, inds, n4)
		gi := canvas(bgc, fullh, fullw)
		gi = fill(gi, barc, connect(pt{1, 0}, pt{1, fullw - 1}))
		gi = fill(gi, barc, connect(pt{fullh - 2, 0}, pt{fullh - 2, fullw - 1}))
		gi = fill(gi, barc, connect(pt{0, 1}, pt{fullh - 1, 1}))
		gi = fill(gi, barc, connect(pt{0, fullw - 2}, pt{fullh - 1, fullw - 2}))
		gi = fill(gi, c1, []pt{{0, 0}})
		gi = fill(gi, c2, []pt{{0, fullw - 1}})
		gi = fill(gi, c3, []pt{{fullh - 1, 0}})
		gi = fill(gi, c4, []pt{{fullh - 1, fullw - 1}})
		gi = fill(gi, inc, shift(i1, 2, 2))
		gi = fill(gi, inc, shift(i2, 2, 2+w))
		gi = fill(gi, inc, shift(i3, 2+h, 2))
		gi = fill(gi, inc, shift(i4, 2+h, 2+w))
		gout := canvas(bgc, 2*h, 2*w)
		gout = fill(gout, c1, i1)
		gout = fill(gout, c2, shift(i2, 0, w))
		gout = fill(gout, c3, shift(i3, h, 0))
		gout = fill(gout, c4, shift(i4, h, w))
		return gi, gout
	}},
	{"f8a8fe49", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(4, 30)
		fullh, fullw := g.unif(10, h), g.unif(3, w)
		c3 := sample(g, allColors, 3)
		bgc, objc, boxc := c3[0], c3[1], c3[2]
		loci, locj := g.randint(0, h-fullh), g.randint(0, w-fullw)
		canvi, canvo := canvas(bgc, fullh, fullw), canvas(bgc, fullh, fullw)
		objh := (fullh/2 - 3) / 2
		br := append(connect(pt{objh + 1, 0}, pt{objh + 1, fullw - 1}), pt{objh + 2, 0}, pt{objh + 2, fullw - 1})
		cands := backdrop(pt{0, 1}, pt{objh - 1, fullw - 2})
		var low []pt
		for _, p := range cands {
			if p.i == objh-1 {
				low = append(low, p)
			}
		}
		for range 2 {
			canvi, canvo = fill(canvi, boxc, br), fill(canvo, boxc, br)
			n := objh * (fullw - 2)
			ncellsd := g.unif(0, n/2)
			ncells := choice(g, []int{ncellsd, n - ncellsd})
			ncells = min(max(1, ncells), n)
			cells := sample(g, cands, ncells)
			cells = append(cells, choice(g, low))
			canvi = fill(canvi, objc, cells)
			canvo = fill(canvo, objc, shift(hmirrorP(cells), objh+3, 0))
			canvi, canvo = hmirror(canvi), hmirror(canvo)
		}
		place := func(cv Grid) Grid {
			out := canvas(bgc, h, w)
			for i := range fullh {
				copy(out[loci+i][locj:], cv[i])
			}
			return out
		}
		gi, gout := place(canvi), place(canvo)
		if choice(g, []bool{true, false}) {
			gi, gout = dmirror(gi), dmirror(gout)
		}
		return gout, gi
	}},
	{"508bd3b6", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h := g.unif(5, 30)
		w := g.unif(h, 30)
		barh := g.unif(1, h/2)
		barloci := g.unif(2, h-barh)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		barc := choice(g, rem)
		rem = without(rem, barc)
		linc := choice(g, rem)
		gi := canvas(bgc, h, w)
		for j := barloci; j < barloci+barh; j++ {
			gi = fill(gi, barc, connect(pt{j, 0}, pt{j, w - 1}))
		}
		dotlociinv := g.unif(0, barloci-1)
		dotloci := min(max(0, barloci-2-dotlociinv), barloci-1)
		keep := func(ps []pt) []pt {
			var out []pt
			for _, p := range clip(ps, h, w) {
				if gi[p.i][p.j] == bgc && p.i < barloci {
					out = append(out, p)
				}
			}
			return out
		}
		ln1 := keep(shoot(pt{dotloci, 0}, 1, 1))
		ln2 := keep(shoot(ln1[len(ln1)-1], -1, 1))
		slices.SortFunc(ln2, func(a, b pt) int { return a.j - b.j })
		ln := append(slices.Clone(ln1), ln2[1:]...)
		k := len(ln1)
		linelen := k - g.unif(0, k-2)
		gi = fill(gi, linc, ln[:linelen])
		gout := fill(gi, 3, ln[linelen:])
		for _, fn := range sample(g, allTransforms, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"1b60fb0c", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2)
		h, w := g.unif(10, 30), g.unif(10, 30)
		odh := g.unif(2, min(h, w)/2)
		loci, locj := g.randint(0, h-2*odh), g.randint(0, w-2*odh)
		bo := sample(g, cols, 2)
		bgc, objc := bo[0], bo[1]
		ncellsd := g.unif(0, odh*odh/2)
		ncells := choice(g, []int{ncellsd, odh*odh - ncellsd})
		ncells = min(max(1, ncells), odh*odh-1)
		g1 := fill(canvas(bgc, odh, odh), objc, sample(g, asindices(canvas(-1, odh, odh)), ncells))
		g2 := rot90(g1)
		g3 := rot90(g2)
		g4 := rot90(g3)
		s := g.randint(0, odh)
		cs := [][]pt{
			shift(ofcolor(g1, objc), 0, s),
			shift(ofcolor(g2, objc), s, odh),
			shift(ofcolor(g3, objc), odh, odh-s),
			shift(ofcolor(g4, objc), odh-s, 0),
		}
		rempart := choice(g, cs)
		var inobj []pt
		for _, c := range cs {
			if !samePts(c, rempart) {
				inobj = append(inobj, c...)
			}
		}
		rempart = minus(rempart, inobj)
		gi := fill(canvas(bgc, h, w), objc, shift(inobj, loci, locj))
		return gi, fill(gi, 2, shift(rempart, loci, locj))
	}},
	{"56ff96f3", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		num := g.unif(1, 9)
		all := asindices(gi)
		indss := setOf(all)
		succ := 0
		for tr := 0; succ < num && tr <= 4*num; tr++ {
			if len(rem) == 0 || indss.n == 0 {
				break
			}
			oh, ow := g.randint(2, 7), g.randint(2, 7)
			var subs []pt
			for _, p := range indss.in(all) {
				if p.i < h-oh && p.j < w-ow {
					subs = append(subs, p)
				}
			}
			if len(subs) == 0 {
				continue
			}
			l := choice(g, subs)
			bd := backdrop(l, pt{l.i + oh - 1, l.j + ow - 1})
			col := choice(g, rem)
			if indss.has(bd) {
				rem = without(rem, col)
				cnrs := []pt{l, {l.i + oh - 1, l.j + ow - 1}}
				if !choice(g, []bool{true, false}) {
					cnrs = []pt{{l.i + oh - 1, l.j}, {l.i, l.j + ow - 1}}
				}
				gi = fill(gi, col, cnrs)
				gout = fill(gout, col, bd)
				succ++
				indss.drop(bd)
			}
		}
		return gi, gout
	}},
	{"fcc82909", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(7, 30), g.unif(7, 30)
		nobjs := g.unif(1, w/3)
		opts := interval(0, w)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		succ := 0
		for tr := 0; succ < nobjs && tr < 4*nobjs; tr++ {
			var sopts []int
			for _, j := range opts {
				if slices.Contains(opts, j+1) {
					sopts = append(sopts, j)
				}
			}
			if len(sopts) == 0 {
				break
			}
			numc := g.unif(1, 4)
			jstart := choice(g, sopts)
			opts = without(opts, jstart, jstart+1)
			options := interval(0, h-2-numc+1)
			if len(options) == 0 {
				break
			}
			iloc := choice(g, options)
			ccols := sample(g, rem, numc)
			bd := backdrop(pt{iloc, jstart}, pt{iloc + 1, jstart + 1})
			shuffle(g.rng, bd)
			obj := make([]cell, 0, 4)
			for k, p := range bd {
				if k < numc {
					obj = append(obj, cell{ccols[k], p})
				} else {
					obj = append(obj, cell{choice(g, ccols), p})
				}
			}
			ok := true
			for _, p := range bd {
				for _, q := range dneighbors(p) {
					if !inGrid(q, h, w) || gi[q.i][q.j] != bgc {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			gi, gout = paint(gi, obj), paint(gout, obj)
			for k := range numc {
				gout = fill(gout, 3, []pt{{iloc + k + 2, jstart}, {iloc + k + 2, jstart + 1}})
			}
		}
		return gi, gout
	}},
	{"8d510a79", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2)
		h, w := g.unif(5, 30), g.unif(3, 30)
		barloci := g.randint(2, h-3)
		bgc := choice(g, cols)
		barcol := choice(g, without(cols, bgc))
		gi := fill(canvas(bgc, h, w), barcol, connect(pt{barloci, 0}, pt{barloci, w - 1}))
		gout := gi
		jinds := interval(0, w)
		numtop, numbot := g.unif(1, w-1), g.unif(1, w-1)
		tops, bots := sample(g, jinds, numtop), sample(g, jinds, numbot)
		for _, t := range tops {
			loc := pt{g.randint(0, barloci-2), t}
			col := choice(g, []int{1, 2})
			gi = fill(gi, col, []pt{loc})
			if col == 1 {
				gout = fill(gout, col, connect(loc, pt{0, t}))
			} else {
				gout = fill(gout, col, connect(loc, pt{barloci - 1, t}))
			}
		}
		for _, t := range bots {
			loc := pt{g.randint(barloci+2, h-1), t}
			col := choice(g, []int{1, 2})
			gi = fill(gi, col, []pt{loc})
			if col == 1 {
				gout = fill(gout, col, connect(loc, pt{h - 1, t}))
			} else {
				gout = fill(gout, col, connect(loc, pt{barloci + 1, t}))
			}
		}
		if choice(g, []bool{true, false}) {
			return dmirror(gi), dmirror(gout)
		}
		return gi, gout
	}},
	{"4522001f", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 10), g.unif(3, 10)
		c3 := sample(g, allColors, 3)
		bgc, sqc, dotc := c3[0], c3[1], c3[2]
		gi, gout := canvas(bgc, h, w), canvas(bgc, 3*h, 3*w)
		sqi := []cell{{dotc, pt{1, 1}}, {sqc, pt{0, 0}}, {sqc, pt{0, 1}}, {sqc, pt{1, 0}}}
		sqo := backdrop(pt{0, 0}, pt{3, 3})
		sqo = append(sqo, shift(sqo, 4, 4)...)
		at := func(l pt) ([]cell, []pt) {
			cs := make([]cell, len(sqi))
			for k, c := range sqi {
				cs[k] = cell{c.c, pt{c.p.i + l.i, c.p.j + l.j}}
			}
			return cs, shift(sqo, l.i, l.j)
		}
		loc := pt{g.randint(0, min(h-2, 3*h-8)), g.randint(0, min(w-2, 3*w-8))}
		pi, po := at(loc)
		gi, gout = paint(gi, pi), fill(gout, sqc, po)
		noccs := g.unif(0, h*w/9)
		all := asindices(gi)
		iinds := setOf(ofcolor(gi, bgc))
		for _, p := range toindices(pi) {
			iinds.drop(dneighbors(p))
		}
		succ := 0
		for tr := 0; tr < 10*noccs && succ < noccs; tr++ {
			var cands []pt
			for _, p := range iinds.in(all) {
				if p.i <= h-2 && p.j <= w-2 {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				break
			}
			pi, po := at(choice(g, cands))
			pii := toindices(pi)
			if iinds.has(pii) {
				succ++
				iinds.drop(pii)
				for _, p := range pii {
					iinds.drop(dneighbors(p))
				}
				gi, gout = paint(gi, pi), fill(gout, sqc, po)
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"d2abd087", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		bgc := choice(g, without(allColors, 1, 2))
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		all := asindices(gi)
		inds := setOf(all)
		nobjs := g.unif(1, h*w/10)
		box5 := asindices(canvas(-1, 5, 5))
		succ := 0
		for tr := 0; succ < nobjs && tr <= 4*nobjs; tr++ {
			if inds.n == 0 {
				break
			}
			sp := choice(g, box5)
			lb := g.unif(1, 5)
			ub := 12 - g.unif(1, 5)
			numcells := 6
			if !choice(g, []bool{true, false}) {
				numcells = choice(g, append(interval(lb, 6), interval(7, ub+1)...))
			}
			obj := normalize(grow4(g, box5, sp, numcells-1))
			loc := choice(g, inds.in(all))
			plcd := shift(obj, loc.i, loc.j)
			if inds.has(plcd) {
				gi = fill(gi, choice(g, rem), plcd)
				col := 1
				if len(obj) == 6 {
					col = 2
				}
				gout = fill(gout, col, plcd)
				succ++
				inds.drop(plcd)
				for _, p := range plcd {
					inds.drop(dneighbors(p))
				}
			}
		}
		return gi, gout
	}},
	{"7c008303", func(g *gen) (Grid, Grid) {
		h, w := 2*g.unif(2, 13), 2*g.unif(2, 13)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		linc := choice(g, rem)
		rem = without(rem, linc)
		fgc := choice(g, rem)
		rem = without(rem, fgc)
		fremcols := sample(g, rem, g.unif(1, 4))
		qc := make([]int, 4)
		for k := range qc {
			qc[k] = choice(g, fremcols)
		}
		c := canvas(bgc, h, w)
		ncd := g.unif(0, h*w/2)
		nc := choice(g, []int{ncd, h*w - ncd})
		nc = min(max(0, nc), h*w)
		gout := fill(c, fgc, sample(g, asindices(c), nc))
		gi := canvas(bgc, h+3, w+3)
		for i := range h {
			copy(gi[i+3][3:], gout[i])
		}
		gi = fill(gi, linc, connect(pt{2, 0}, pt{2, w + 2}))
		gi = fill(gi, linc, connect(pt{0, 2}, pt{h + 2, 2}))
		gi[0][0], gi[0][1], gi[1][0], gi[1][1] = qc[0], qc[1], qc[2], qc[3]
		for i := range h {
			for j := range w {
				if gout[i][j] == fgc {
					gout[i][j] = qc[2*(i/(h/2))+j/(w/2)]
				}
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"e8593010", func(g *gen) (Grid, Grid) {
		type shapes struct {
			objs [][]pt
			col  int
		}
		prs := []shapes{
			{[][]pt{{{0, 0}}}, 3},
			{[][]pt{{{0, 0}, {0, 1}}, {{0, 0}, {1, 0}}}, 2},
			{[][]pt{
				{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 0}, {0, 1}}, {{1, 1}, {1, 0}, {0, 1}},
				{{1, 1}, {0, 0}, {0, 1}}, {{1, 0}, {0, 0}, {2, 0}}, {{0, 1}, {0, 0}, {0, 2}},
			}, 1},
		}
		cols := without(allColors, 1, 2, 3)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		all := asindices(gi)
		reminds := setOf(all)
		nobjs := g.unif(1, h*w/2/2)
		for range nobjs {
			pr := choice(g, prs)
			obj := choice(g, pr.objs)
			for ntr := 0; ntr < 10; ntr++ {
				if reminds.n == 0 {
					break
				}
				loc := choice(g, reminds.in(all))
				olcd := shift(obj, loc.i, loc.j)
				if reminds.has(olcd) {
					gi, gout = fill(gi, fgc, olcd), fill(gout, pr.col, olcd)
					reminds.drop(olcd)
					for _, p := range olcd {
						reminds.drop(dneighbors(p))
					}
					break
				}
			}
		}
		return gi, gout
	}},
	{"5daaa586", func(g *gen) (Grid, Grid) {
		h, w := g.unif(7, 30), g.unif(7, 30)
		loci1, locj1 := g.randint(1, h-4), g.randint(1, w-4)
		loci1dev, locj1dev := g.unif(0, loci1-1), g.unif(0, locj1-1)
		loci1 -= loci1dev
		locj1 -= locj1dev
		loci2, locj2 := g.unif(loci1+2, h-2), g.unif(locj1+2, w-2)
		bgc := choice(g, allColors)
		c4 := sample(g, without(allColors, bgc), 4)
		c1 := c4[0]
		fronts := [][]pt{
			connect(pt{loci1, 0}, pt{loci1, 29}), connect(pt{loci2, 0}, pt{loci2, 29}),
			connect(pt{0, locj1}, pt{29, locj1}), connect(pt{0, locj2}, pt{29, locj2}),
		}
		order := []int{0, 1, 2, 3}
		shuffle(g.rng, order)
		gi := canvas(bgc, h, w)
		for _, k := range order {
			gi = fill(gi, c4[k], fronts[k])
		}
		cands := ofcolor(gi, bgc)
		nn := len(cands)
		noise := sample(g, cands, g.unif(1, max(1, nn/3)))
		gi = fill(gi, c1, noise)
		for tr := 0; tr < 1000 && len(frontiers(gi)) > 4; tr++ {
			gi = fill(gi, bgc, noise)
			noise = sample(g, cands, g.unif(1, max(1, nn/3)))
			n1 := 0
			for _, p := range noise {
				if gi[p.i][p.j] == c1 {
					n1++
				}
			}
			if n1 >= colorcount(gi, bgc) {
				break
			}
			gi = fill(gi, c1, noise)
		}
		gout := crop(gi, loci1, locj1, loci2-loci1+1, locj2-locj1+1)
		for _, p := range ofcolor(gout, c1) {
			gout = fill(gout, c1, shoot(p, -1, 0))
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"760b3cac", func(g *gen) (Grid, Grid) {
		objL := []pt{{0, 0}, {1, 0}, {1, 1}, {1, 2}, {2, 1}}
		objR := vmirrorP(objL)
		h := g.unif(5, 30)
		w := 2*g.unif(3, 14) + 1
		c3 := sample(g, allColors, 3)
		bgc, objc, indc := c3[0], c3[1], c3[2]
		objh := g.unif(1, h-3)
		objw := 2*g.unif(1, w/6) + 1
		gi := canvas(bgc, h, w)
		obj, sgn := objR, 1
		if choice(g, []bool{true, false}) {
			obj, sgn = objL, -1
		}
		gi = fill(gi, indc, shift(obj, h-3, w/2-1))
		inds := asindices(canvas(-1, objh, objw))
		sp := choice(g, inds)
		f := newFrontier(inds, neighbors)
		f.take(sp)
		objx := []pt{sp}
		numcd := g.unif(0, objh*objw/2)
		numc := choice(g, []int{numcd, objh*objw - numcd})
		numc = min(max(1, numc), objh*objw)
		for range numc - 1 {
			p := f.pick(g)
			f.take(p)
			objx = append(objx, p)
		}
		for width(objx) != objw && len(f.cands) > 0 {
			p := f.pick(g)
			f.take(p)
			objx = append(objx, p)
		}
		objx = normalize(objx)
		_, lr := bounds(objx)
		objh, objw = lr.i+1, lr.j+1
		loci := g.randint(0, h-3-objh)
		locj := w/2 - objw/2
		plcd := shift(objx, loci, locj)
		gi = fill(gi, objc, plcd)
		gout := fill(gi, objc, shift(vmirrorP(plcd), 0, objw*sgn))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"29ec7d0e", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		hp, wp := g.unif(2, h/2-1), g.unif(2, w/2-1)
		pinds := asindices(canvas(-1, hp, wp))
		bn := sample(g, allColors, 2)
		bgc, noisec := bn[0], bn[1]
		ccols := sample(g, without(allColors, noisec), g.unif(2, 9))
		pobj := withColors(pinds, ccols, g)
		gout := canvas(bgc, h, w)
		var locs []pt
		for a := range h/hp + 1 {
			for b := range w/wp + 1 {
				l := pt{a + 1 + hp*a, b + 1 + wp*b}
				locs = append(locs, l)
				for _, c := range pobj {
					if p := (pt{c.p.i + l.i, c.p.j + l.j}); inGrid(p, h, w) {
						gout[p.i][p.j] = c.c
					}
				}
			}
		}
		numpatches := g.unif(1, h*w/20)
		gi := gout
		clean := func(gr Grid) int {
			n := 0
			for _, r := range gr {
				if !slices.Contains(r, noisec) {
					n++
				}
			}
			return n
		}
		succ := 0
		for tr := 0; succ < numpatches && tr < 5*numpatches; tr++ {
			ph, pw := g.randint(2, 6), g.randint(2, 6)
			loci, locj := g.randint(0, h-ph), g.randint(0, w-pw)
			gi2 := fill(gi, noisec, backdrop(pt{loci, locj}, pt{loci + ph - 1, locj + pw - 1}))
			intact := false
			for _, l := range locs {
				if l.i+hp > h || l.j+wp > w {
					continue
				}
				ok := true
				for _, c := range pobj {
					if gi2[c.p.i+l.i][c.p.j+l.j] != c.c {
						ok = false
						break
					}
				}
				if ok {
					intact = true
					break
				}
			}
			if intact && clean(gi2) >= 2 && clean(dmirror(gi2)) >= 2 {
				succ++
				gi = gi2
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"cbded52d", func(g *gen) (Grid, Grid) {
		oh, ow := g.unif(1, 4), g.unif(1, 4)
		numh, numw := g.unif(3, 31/(oh+1)), g.unif(3, 31/(ow+1))
		bl := sample(g, allColors, 2)
		bgc, linc := bl[0], bl[1]
		rem := without(allColors, bgc, linc)
		ccols := sample(g, rem, g.unif(1, min(8, numh*numh/3)))
		fullh, fullw := numh*oh+numh-1, numw*ow+numw-1
		gi := canvas(linc, fullh, fullw)
		sgi := asindices(canvas(bgc, oh, ow))
		for a := range numh {
			for b := range numw {
				gi = fill(gi, bgc, shift(sgi, a*(oh+1), b*(ow+1)))
			}
		}
		gout := gi
		for _, col := range ccols {
			indl := ofcolor(gout, bgc)
			if len(indl) == 0 {
				break
			}
			inds := setOf(indl)
			loc := choice(g, indl)
			succ := 0
			for _, d := range sample(g, []pt{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}, g.randint(1, 4)) {
				var arm []pt
				for k := 1; k < max(numh, numw); k++ {
					next := pt{loc.i + k*d.i*(oh+1), loc.j + k*d.j*(ow+1)}
					if !inds.at(next) {
						break
					}
					arm = append(arm, next)
				}
				if len(arm) < 2 {
					continue
				}
				aidx := g.unif(1, len(arm)-1)
				gi = fill(gi, col, []pt{arm[aidx]})
				gout = fill(gout, col, arm[:aidx+1])
				succ++
			}
			if succ > 0 {
				gi, gout = fill(gi, col, []pt{loc}), fill(gout, col, []pt{loc})
			}
		}
		return gi, gout
	}},
	{"7b6016b9", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 3)
		var gi Grid
		var bgc, fgc int
		var tofill []pt
		for tr := 0; tr < 1000 && len(tofill) == 0; tr++ {
			h, w := g.unif(5, 30), g.unif(5, 30)
			bf := sample(g, cols, 2)
			bgc, fgc = bf[0], bf[1]
			numl := g.unif(4, min(h, w))
			gi = canvas(bgc, h, w)
			jint, iint := interval(0, w), interval(0, h)
			iopts, jopts := interval(1, h-1), interval(1, w-1)
			numlh := g.randint(numl/3, numl/3*2)
			for range numlh {
				if len(iopts) == 0 {
					continue
				}
				loci := choice(g, iopts)
				iopts = without(iopts, loci, loci+1, loci-1)
				ab := sample(g, jint, 2)
				a, b := g.randint(0, ab[0]), g.randint(ab[1], w-1)
				gi = fill(gi, fgc, connect(pt{loci, a}, pt{loci, b}))
			}
			for range numl - numlh {
				if len(jopts) == 0 {
					continue
				}
				locj := choice(g, jopts)
				jopts = without(jopts, locj, locj+1, locj-1)
				ab := sample(g, iint, 2)
				a, b := g.randint(0, ab[0]), g.randint(ab[1], h-1)
				gi = fill(gi, fgc, connect(pt{a, locj}, pt{b, locj}))
			}
			tofill = nil
			for _, o := range objectsX(gi, true, false, false) {
				if o[0].c == bgc && !bordering(toindices(o), gi) {
					tofill = append(tofill, toindices(o)...)
				}
			}
		}
		var around []pt
		for _, p := range tofill {
			around = append(around, neighbors(p)...)
		}
		gi = fill(gi, fgc, minus(around, tofill))
		gout := replace(fill(gi, 2, tofill), bgc, 3)
		return gi, gout
	}},
	{"36fdfd69", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(10, 30), g.unif(10, 30)
		nobjs := g.unif(1, h*w/30)
		c3 := sample(g, cols, 3)
		bgc, fgc, objc := c3[0], c3[1], c3[2]
		gi := canvas(bgc, h, w)
		all := asindices(gi)
		inds := setOf(all)
		namt := g.randint(int(0.35*float64(h*w)), int(0.65*float64(h*w)))
		gi = fill(gi, fgc, sample(g, all, namt))
		gout := gi
		grow := func(bd []pt, ncells int) []pt {
			obj := []pt{choice(g, bd)}
			in := setOf(obj)
			for range ncells - 1 {
				near := newSet()
				for _, p := range obj {
					for _, q := range dneighbors(p) {
						for _, r := range neighbors(q) {
							near.add(r)
						}
					}
				}
				var cands []pt
				for _, p := range bd {
					if near.at(p) && !in.at(p) {
						cands = append(cands, p)
					}
				}
				p := choice(g, cands)
				in.add(p)
				obj = append(obj, p)
			}
			return obj
		}
		succ := 0
		for tr := 0; succ < nobjs && tr < 5*nobjs; tr++ {
			oh, ow := g.randint(2, 7), g.randint(2, 7)
			var cands []pt
			for _, p := range inds.in(all) {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			bd := backdrop(loc, pt{loc.i + oh - 1, loc.j + ow - 1})
			if !inds.has(bd) {
				continue
			}
			ncells := g.randint(2, oh*ow-1)
			obj := grow(bd, ncells)
			for k := 0; k < 1000 && len(obj) == height(obj)*width(obj); k++ {
				obj = grow(bd, ncells)
			}
			obj = normalize(obj)
			obj = shift(obj, loc.i, loc.j)
			ul, lr := bounds(obj)
			bd = backdrop(ul, lr)
			gi2 := fill(fill(gi, fgc, bd), objc, obj)
			if colorcount(gi2, objc) < min(colorcount(gi2, fgc), colorcount(gi2, bgc)) {
				succ++
				inds.drop(bd)
				inds.drop(outbox(ul, lr))
				inds.drop(outbox(pt{ul.i - 1, ul.j - 1}, pt{lr.i + 1, lr.j + 1}))
				gi = gi2
				gout = fill(fill(gout, 4, bd), objc, obj)
			}
		}
		return gi, gout
	}},
	{"88a10436", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		objh := g.unif(0, 2)
		lo := 1
		if objh > 0 {
			lo = 0
		}
		objw := g.unif(lo, 2)
		objh, objw = objh*2+1, objw*2+1
		bb := asindices(canvas(-1, objh, objw))
		sp := pt{objh / 2, objw / 2}
		ncells := g.unif(max(objh, objw), objh*objw)
		f := newFrontier(bb, dneighbors)
		f.take(sp)
		obj := []pt{sp}
		for range ncells - 1 {
			p := f.pick(g)
			f.take(p)
			obj = append(obj, p)
		}
		for (height(obj) != objh || width(obj) != objw) && len(f.cands) > 0 {
			p := f.pick(g)
			f.take(p)
			obj = append(obj, p)
		}
		bf := sample(g, allColors, 2)
		bgc, fgc := bf[0], bf[1]
		ccols := sample(g, without(allColors, bgc, fgc), g.unif(1, 8))
		cobj := withColors(normalize(obj), ccols, g)
		obj = toindices(cobj)
		at := func(l pt) []cell {
			cs := make([]cell, len(cobj))
			for k, c := range cobj {
				cs[k] = cell{c.c, pt{c.p.i + l.i, c.p.j + l.j}}
			}
			return cs
		}
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		plcd := at(pt{g.randint(0, h-objh), g.randint(0, w-objw)})
		gi, gout = paint(gi, plcd), paint(gout, plcd)
		all := asindices(gi)
		inds := setOf(all)
		for _, p := range toindices(plcd) {
			inds.drop([]pt{p})
			inds.drop(neighbors(p))
		}
		nobjs := g.unif(1, h*w/(2*ncells))
		succ := 0
		for tr := 0; succ < nobjs && tr <= 4*nobjs; tr++ {
			if inds.n == 0 {
				break
			}
			plcd := at(choice(g, inds.in(all)))
			pi := toindices(plcd)
			if inds.has(pi) {
				gout = paint(gout, plcd)
				gi = fill(gi, fgc, []pt{center(pi)})
				succ++
				inds.drop(pi)
				for _, p := range pi {
					inds.drop(dneighbors(p))
				}
			}
		}
		return gi, gout
	}},
	{"e509e548", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 6)
		getL := func(h, w int) []pt {
			return append(connect(pt{0, 0}, pt{h - 1, 0}), connect(pt{0, 0}, pt{0, w - 1})...)
		}
		getU := func(h, w int) []pt {
			ps := connect(pt{0, 0}, pt{0, w - 1})
			ps = append(ps, connect(pt{0, 0}, pt{g.randint(1, h-1), 0})...)
			return append(ps, connect(pt{0, w - 1}, pt{g.randint(1, h-1), w - 1})...)
		}
		getH := func(h, w int) []pt {
			ps := connect(pt{0, 0}, pt{0, w - 1})
			l := connect(pt{0, 0}, pt{h - 1, 0})
			l = append(l, connect(pt{h - 1, 0}, pt{h - 1, g.randint(1, w-1)})...)
			return append(ps, shift(l, 0, g.randint(1, w-2))...)
		}
		type getter struct {
			minh, minw, col int
			get             func(h, w int) []pt
		}
		pairs := []getter{{2, 2, 1, getL}, {2, 3, 6, getU}, {3, 3, 2, getH}}
		mfs := []func([]pt) []pt{identityP, dmirrorP, cmirrorP, vmirrorP, hmirrorP}
		h, w := g.unif(10, 30), g.unif(10, 30)
		bgc := choice(g, cols)
		ccols := sample(g, without(cols, bgc), g.unif(1, 6))
		nobjs := g.unif(3, h*w/10)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		all := asindices(gi)
		inds := setOf(all)
		succ := 0
		for tr := 0; succ < nobjs && tr < 5*nobjs; tr++ {
			gt := choice(g, pairs)
			oh, ow := g.randint(gt.minh, 6), g.randint(gt.minw, 6)
			obj := dedup(gt.get(oh, ow))
			for _, fn := range sample(g, mfs, choice(g, []int{1, 2})) {
				obj = normalize(fn(obj))
			}
			oh, ow = height(obj), width(obj)
			var cands []pt
			for _, p := range inds.in(all) {
				if p.i <= h-oh && p.j <= w-ow {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			plcd := shift(obj, loc.i, loc.j)
			if inds.has(plcd) {
				succ++
				inds.drop(plcd)
				for _, p := range plcd {
					inds.drop(dneighbors(p))
				}
				col := choice(g, ccols)
				gi, gout = fill(gi, col, plcd), fill(gout, gt.col, plcd)
			}
		}
		return gi, gout
	}},
	{"e76a88a6", func(g *gen) (Grid, Grid) {
		h, w := g.unif(8, 30), g.unif(8, 30)
		objh, objw := g.unif(2, 5), g.unif(2, 5)
		bnds := asindices(canvas(0, objh, objw))
		sp := choice(g, bnds)
		nc := g.unif(2, len(bnds)-2)
		shp := normalize(grow4(g, bnds, sp, nc))
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		dmyc := choice(g, rem)
		rem = without(rem, dmyc)
		oh, ow := height(shp), width(shp)
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		shpp := shift(shp, loci, locj)
		colll := sample(g, rem, g.unif(2, 8))
		shppc := withColors(shpp, colll, g)
		distinct := func(cs []cell) bool {
			for _, c := range cs {
				if c.c != cs[0].c {
					return true
				}
			}
			return false
		}
		for k := 0; k < 1000 && !distinct(shppc); k++ {
			shppc = withColors(shpp, colll, g)
		}
		gi := paint(canvas(bgc, h, w), shppc)
		gout := gi
		numlocs := g.unif(1, max(1, h*w/(2*oh*ow)))
		all := asindices(gi)
		idns := setOf(all)
		idns.drop(shpp)
		for _, p := range shpp {
			idns.drop(dneighbors(p))
		}
		for _, p := range all {
			if p.i > h-oh || p.j > w-ow {
				idns.del(p)
			}
		}
		cnt, fails := 0, 0
		for cnt < numlocs && fails < 5*numlocs {
			if idns.n == 0 {
				break
			}
			loc := choice(g, idns.in(all))
			plcd := make([]cell, len(shppc))
			for k, c := range shppc {
				plcd[k] = cell{c.c, pt{c.p.i - loci + loc.i, c.p.j - locj + loc.j}}
			}
			pi := toindices(plcd)
			if idns.has(pi) {
				gout = paint(gout, plcd)
				gi = fill(gi, dmyc, pi)
				cnt++
				idns.drop(pi)
				for _, p := range pi {
					idns.drop(dneighbors(p))
				}
			} else {
				fails++
			}
		}
		return gi, gout
	}},
	{"d07ae81c", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		c4 := sample(g, allColors, 4)
		c1, c2, c3, cc4 := c4[0], c4[1], c4[2], c4[3]
		magiccol := 0
		gi := canvas(0, h, w)
		for range g.unif(1, h*w/10) {
			var objs [][]pt
			for _, o := range objectsX(gi, true, false, false) {
				ps := toindices(o)
				oh, ow := height(ps), width(ps)
				if min(oh, ow) > 3 && max(oh, ow) > 4 && oh*ow == len(ps) {
					objs = append(objs, ps)
				}
			}
			if len(objs) == 0 {
				break
			}
			obj := choice(g, objs)
			ul, lr := bounds(obj)
			var newobj []pt
			if choice(g, []bool{true, false}) {
				loci := g.randint(ul.i+2, lr.i-1)
				newobj = backdrop(pt{loci, ul.j}, lr)
			} else {
				locj := g.randint(ul.j+2, lr.j-1)
				newobj = backdrop(pt{ul.i, locj}, lr)
			}
			magiccol++
			gi = fill(gi, magiccol, newobj)
		}
		for ii, o := range objectsX(gi, true, false, false) {
			col := c1
			switch {
			case ii == 1:
				col = c2
			case ii > 1:
				col = choice(g, []int{c1, c2})
			}
			gi = fill(gi, col, toindices(o))
		}
		ofc1, ofc2 := ofcolor(gi, c1), ofcolor(gi, c2)
		mn := min(len(ofc1), len(ofc2))
		n1 := g.unif(1, max(1, int(math.Sqrt(float64(mn)))))
		n2 := g.unif(1, max(1, int(math.Sqrt(float64(mn)))))
		srcs := func(ofc []pt, n int) []pt {
			var out []pt
			bad := newSet()
			for range n {
				var cands []pt
				for _, p := range ofc {
					if !bad.at(p) {
						cands = append(cands, p)
					}
				}
				if len(cands) == 0 {
					break
				}
				p := choice(g, cands)
				out = append(out, p)
				bad.add(p)
				for _, q := range neighbors(p) {
					bad.add(q)
				}
			}
			return out
		}
		srcs1, srcs2 := srcs(ofc1, n1), srcs(ofc2, n2)
		gi = fill(fill(gi, c3, srcs1), cc4, srcs2)
		lns := newSet()
		for _, p := range append(slices.Clone(srcs1), srcs2...) {
			for _, d := range []pt{{1, 1}, {-1, -1}, {-1, 1}, {1, -1}} {
				for _, q := range shoot(p, d.i, d.j) {
					lns.add(q)
				}
			}
		}
		gout := fill(gi, c3, lns.in(ofc1))
		return gi, fill(gout, cc4, lns.in(ofc2))
	}},
	{"e6721834", func(g *gen) (Grid, Grid) {
		h, w := g.unif(6, 15), g.unif(8, 30)
		c3 := sample(g, allColors, 3)
		bgc1, bgc2, sqc := c3[0], c3[1], c3[2]
		rem := without(allColors, bgc1, bgc2, sqc)
		gi1, gi2 := canvas(bgc1, h, w), canvas(bgc2, h, w)
		noccs := g.unif(1, h*w/16)
		all := asindices(gi1)
		gi1inds, gi2inds := setOf(all), setOf(all)
		gout := canvas(bgc2, h, w)
		seen := map[string]bool{}
		succ := 0
		for tr := 0; tr < 5*noccs && succ < noccs; tr++ {
			oh, ow := g.randint(2, min(6, h/2)), g.randint(2, min(6, w/2))
			within := func(s *ptSet) []pt {
				var out []pt
				for _, p := range s.in(all) {
					if p.i <= h-oh && p.j <= w-ow {
						out = append(out, p)
					}
				}
				return out
			}
			cands := within(gi1inds)
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			bnds := shift(asindices(canvas(-1, oh, ow)), loc.i, loc.j)
			obj := sample(g, bnds, g.unif(1, oh*ow/2))
			objc := choice(g, rem)
			objn := normalize(obj)
			slices.SortFunc(objn, func(a, b pt) int {
				if a.i != b.i {
					return a.i - b.i
				}
				return a.j - b.j
			})
			key := fmt.Sprint(objn, objc)
			if seen[key] {
				continue
			}
			seen[key] = true
			if !gi1inds.has(bnds) {
				continue
			}
			succ++
			gi1inds.drop(bnds)
			for _, p := range bnds {
				gi1inds.drop(neighbors(p))
			}
			gi1 = fill(fill(gi1, sqc, bnds), objc, obj)
			cands2 := within(gi2inds)
			if len(cands2) == 0 {
				continue
			}
			loc2 := choice(g, cands2)
			bnds2 := shift(bnds, loc2.i-loc.i, loc2.j-loc.j)
			obj2 := shift(obj, loc2.i-loc.i, loc2.j-loc.j)
			if gi2inds.has(bnds2) {
				gi2inds.drop(bnds2)
				for _, p := range bnds2 {
					gi2inds.drop(neighbors(p))
				}
				gi2 = fill(gi2, objc, obj2)
				gout = fill(fill(gout, sqc, bnds2), objc, obj2)
			}
		}
		gi := vconcat(gi1, gi2)
		for _, fn := range sample(g, allTransforms, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
	{"272f95fa", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3, 4, 6)
		h, w := g.unif(5, 30), g.unif(5, 30)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		hdist, wdist := []int{0, 0, 0}, []int{0, 0, 0}
		idx := 0
		for range h - 2 {
			hdist[idx]++
			idx = (idx + 1) % 3
		}
		for range w - 2 {
			wdist[idx]++
			idx = (idx + 1) % 3
		}
		shuffle(g.rng, hdist)
		shuffle(g.rng, wdist)
		adjust := func(d []int) {
			d1 := g.unif(0, d[0]-1)
			d[0] -= d1
			d[1] += d1
			d2 := g.unif(0, min(d[1], d[2])-1)
			d2 = choice(g, []int{d2, -d2})
			d[1] += d2
			d[2] -= d2
		}
		adjust(hdist)
		adjust(wdist)
		kind := func(d []int) []int {
			var out []int
			for k, m := range []int{d[0], 1, d[1], 1, d[2]} {
				for range m {
					out = append(out, k)
				}
			}
			return out
		}
		rows, cols2 := kind(hdist), kind(wdist)
		gi := build(len(rows), len(cols2), func(i, j int) int {
			if rows[i]%2 == 1 || cols2[j]%2 == 1 {
				return linc
			}
			return bgc
		})
		for _, fn := range sample(g, allTransforms, choice(g, []int{1, 2})) {
			gi = fn(gi)
		}
		gh, gw := dims(gi)
		cnrs := []pt{{0, 0}, {0, gw - 1}, {gh - 1, 0}, {gh - 1, gw - 1}}
		var bgobjs [][]pt
		for _, o := range objectsX(gi, true, true, false) {
			ps := toindices(o)
			if o[0].c == bgc && len(minus(ps, cnrs)) == len(ps) {
				bgobjs = append(bgobjs, ps)
			}
		}
		best := func(key func(ul, lr pt) int) []pt {
			var b []pt
			bk := 0
			for _, o := range bgobjs {
				ul, lr := bounds(o)
				if k := key(ul, lr); b == nil || k < bk {
					b, bk = o, k
				}
			}
			return b
		}
		var pink []pt
		for _, o := range bgobjs {
			if !bordering(o, gi) {
				pink = o
				break
			}
		}
		gout := fill(gi, 6, pink)
		gout = fill(gout, 4, best(func(ul, _ pt) int { return ul.j }))
		gout = fill(gout, 3, best(func(_, lr pt) int { return -lr.j }))
		gout = fill(gout, 2, best(func(ul, _ pt) int { return ul.i }))
		gout = fill(gout, 1, best(func(_, lr pt) int { return -lr.i }))
		return gi, gout
	}},
	{"ce602527", func(g *gen) (Grid, Grid) {
		h, w := g.unif(12, 30), g.unif(12, 30)
		c4 := sample(g, allColors, 4)
		bgc, c1, c2, c3 := c4[0], c4[1], c4[2], c4[3]
		var gi, gout Grid
		for range 100 {
			var objs [][]pt
			var maxinh, maxinw int
			for tr := 0; tr < 1000; tr++ {
				objs = nil
				for range 2 {
					oh1, ow1 := g.unif(3, h/3-1), g.unif(3, w/3-1)
					bnds := asindices(canvas(bgc, oh1, ow1))
					numcd1 := g.unif(0, oh1*ow1/2-4)
					numc1 := choice(g, []int{numcd1, oh1*ow1 - numcd1})
					numc1 = min(max(3, numc1), oh1*ow1-3)
					f := newFrontier(bnds, dneighbors)
					sp := choice(g, bnds)
					f.take(sp)
					obj := []pt{sp}
					for (len(obj) < numc1 || height(obj) != oh1 || width(obj) != ow1) && len(f.cands) > 0 {
						p := f.pick(g)
						f.take(p)
						obj = append(obj, p)
					}
					objs = append(objs, normalize(obj))
				}
				a, b := objs[0], objs[1]
				maxinh = min(height(a), height(b))/2 + 1
				maxinw = min(width(a), width(b))/2 + 1
				ag := crop(fill(canvas(0, height(a), width(a)), 1, a), 0, 0, maxinh, maxinw)
				bg := crop(fill(canvas(0, height(b), width(b)), 1, b), 0, 0, maxinh, maxinw)
				if !equalGrids(ag, bg) {
					break
				}
			}
			ti := g.rng.IntN(2)
			trgo := objs[ti]
			trgo2 := ofcolor(upscale(fill(canvas(0, height(trgo), width(trgo)), 1, trgo), 2), 1)
			staysinh := g.unif(maxinh*2, height(trgo)*2)
			loci := h - staysinh
			locj := g.randint(0, w-maxinw*2)
			gi = fill(canvas(bgc, h, w), c3, shift(trgo2, loci, locj))
			type colObj struct {
				col int
				obj []pt
			}
			lr := sample(g, []colObj{{c1, objs[0]}, {c2, objs[1]}}, 2)
			lcol, lobj, rcol, robj := lr[0].col, lr[0].obj, lr[1].col, lr[1].obj
			all := asindices(gi)
			cands := setOf(ofcolor(gi, bgc))
			cands.drop(box(all))
			lca := newSet()
			for _, p := range cands.in(all) {
				if p.j < w/3*2 {
					lca.add(p)
				}
			}
			var lcands []pt
			for _, p := range lca.in(all) {
				if lca.has(shift(lobj, p.i, p.j)) {
					lcands = append(lcands, p)
				}
			}
			if len(lcands) == 0 {
				continue
			}
			placed := false
			var lplcd, rplcd []pt
			for tr := 0; tr < 1000; tr++ {
				lloc, rloc := choice(g, lcands), choice(g, lcands)
				lplcd, rplcd = shift(lobj, lloc.i, lloc.j), shift(robj, rloc.i, rloc.j)
				if cands.has(lplcd) && cands.has(rplcd) && len(minus(lplcd, rplcd)) == len(lplcd) {
					placed = true
					break
				}
			}
			if !placed {
				continue
			}
			gi = fill(fill(gi, lcol, lplcd), rcol, rplcd)
			col := c1
			if ti == 1 && !samePts(objs[1], objs[0]) {
				col = c2
			}
			gout = fill(canvas(bgc, height(trgo), width(trgo)), col, trgo)
			break
		}
		mf := choice(g, []transform{identity, rot90, rot180, rot270, cmirror, dmirror, hmirror, vmirror})
		return mf(gi), mf(gout)
	}},
	{"57aa92db", func(g *gen) (Grid, Grid) {
		h, w := g.unif(10, 30), g.unif(10, 30)
		oh, ow := g.randint(2, 5), g.randint(2, 5)
		bnds := asindices(canvas(-1, oh, ow))
		sp := choice(g, bnds)
		ncellsd := g.unif(0, oh*ow/2)
		ncells := choice(g, []int{ncellsd, oh*ow - ncellsd})
		ncells = min(max(3, ncells), oh*ow)
		shp := normalize(grow(g, bnds, []pt{sp}, ncells-1))
		oh, ow = height(shp), width(shp)
		fixp := choice(g, shp)
		c3 := sample(g, allColors, 3)
		bgc, fixc, mainc := c3[0], c3[1], c3[2]
		rem := without(allColors, bgc, fixc, mainc)
		obj := []cell{{fixc, fixp}}
		for _, p := range minus(shp, []pt{fixp}) {
			obj = append(obj, cell{mainc, p})
		}
		loci, locj := g.randint(0, h-oh), g.randint(0, w-ow)
		gi := canvas(bgc, h, w)
		var plcd []pt
		for _, c := range obj {
			p := pt{c.p.i + loci, c.p.j + locj}
			gi[p.i][p.j] = c.c
			plcd = append(plcd, p)
		}
		gout := copyGrid(gi)
		all := asindices(gi)
		inds := setOf(ofcolor(gi, bgc))
		for _, p := range plcd {
			inds.drop(neighbors(p))
		}
		nocc := g.unif(1, h*w/(4*len(obj)))
		succ := 0
		for tr := 0; succ < nocc && tr < 5*nocc; tr++ {
			fac := g.randint(1, 4)
			hh, ww := oh*fac, ow*fac
			var cands []pt
			for _, p := range inds.in(all) {
				if p.i <= h-hh && p.j <= w-ww {
					cands = append(cands, p)
				}
			}
			if len(cands) == 0 {
				continue
			}
			loc := choice(g, cands)
			var fix2, remfull []pt
			for _, c := range obj {
				for io := range fac {
					for jo := range fac {
						p := pt{loc.i + c.p.i*fac + io, loc.j + c.p.j*fac + jo}
						if c.c == fixc {
							fix2 = append(fix2, p)
						} else {
							remfull = append(remfull, p)
						}
					}
				}
			}
			upi := append(slices.Clone(fix2), remfull...)
			if !inds.has(upi) {
				continue
			}
			succ++
			newc := choice(g, rem)
			for _, p := range upi {
				inds.drop(neighbors(p))
			}
			gi, gout = fill(gi, fixc, fix2), fill(gout, fixc, fix2)
			ntorem := g.unif(0, max(0, len(remfull)-1))
			ntokeep := len(remfull) - ntorem
			f := newFrontier(remfull, neighbors)
			for _, p := range fix2 {
				f.touch(p)
			}
			var tokeep []pt
			for range ntokeep {
				p := f.pick(g)
				f.take(p)
				tokeep = append(tokeep, p)
			}
			gi, gout = fill(gi, newc, tokeep), fill(gout, newc, remfull)
		}
		return gi, gout
	}},
	{"681b3aeb", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 1000 {
			hi, wi := g.unif(2, 8), g.unif(2, 8)
			h, w := g.unif(3*hi, 30), g.unif(3*wi, 30)
			c := canvas(-1, hi, hi)
			c3 := sample(g, allColors, 3)
			bgc, ca, cb := c3[0], c3[1], c3[2]
			gi = canvas(bgc, h, w)
			var A, B []pt
			for tr := 0; tr < 1000; tr++ {
				inds := asindices(c)
				pa := choice(g, inds)
				reminds := minus(inds, []pt{pa})
				pb := choice(g, reminds)
				reminds = minus(reminds, []pt{pb})
				A, B = []pt{pa}, []pt{pb}
				left := setOf(reminds)
				next := func(shp []pt) []pt {
					near := newSet()
					for _, p := range shp {
						for _, q := range dneighbors(p) {
							near.add(q)
						}
					}
					var out []pt
					for _, p := range inds {
						if left.at(p) && near.at(p) {
							out = append(out, p)
						}
					}
					return out
				}
				for range len(reminds) {
					acands, bcands := next(A), next(B)
					var opts []int
					if len(acands) > 0 {
						opts = append(opts, 0)
					}
					if len(bcands) > 0 {
						opts = append(opts, 1)
					}
					if choice(g, opts) == 0 {
						loc := choice(g, acands)
						A = append(A, loc)
						left.del(loc)
					} else {
						loc := choice(g, bcands)
						B = append(B, loc)
						left.del(loc)
					}
				}
				if len(A) != height(A)*width(A) || len(B) != height(B)*width(B) {
					break
				}
			}
			gout = fill(fill(c, ca, A), cb, B)
			A, B = normalize(A), normalize(B)
			ha, wa, hb, wb := height(A), width(A), height(B), width(B)
			if ha > h || wa > w {
				continue
			}
			all := asindices(gi)
			for range 10 {
				_ = g.randint(0, h-ha) // drawn and unused in RE-ARC
				locaj := g.randint(0, w-wa)
				plcda := shift(A, locaj, locaj)
				var rem2 []pt
				for _, p := range minus(all, plcda) {
					if p.i <= h-hb && p.j <= w-wb {
						rem2 = append(rem2, p)
					}
				}
				if len(rem2) == 0 {
					continue
				}
				ch := choice(g, rem2)
				plcdb := shift(B, ch.i, ch.j)
				if setOf(rem2).has(plcdb) {
					return fill(fill(gi, ca, plcda), cb, plcdb), gout
				}
			}
		}
		return gi, gout
	}},
	{"6a1e5592", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(9, 30), g.unif(5, 30)
		barh := g.randint(3, h/3)
		maxobjh := h - barh - 1
		nobjs := g.unif(1, w/3)
		c3 := sample(g, cols, 3)
		barc, bgc, objc := c3[0], c3[1], c3[2]
		gi := vconcat(canvas(barc, barh, w), canvas(bgc, h-barh, w))
		gout := copyGrid(gi)
		placopts := interval(1, w-1)
		all := asindices(gi)
		iinds := setOf(ofcolor(gi, bgc))
		oinds := setOf(all)
		barinds := setOf(ofcolor(gi, barc))
		forb := map[string]bool{}
		succ := 0
		for tr := 0; tr < 10*nobjs && succ < nobjs; tr++ {
			oh, ow := g.randint(1, maxobjh), g.randint(1, min(4, w/2))
			bnds := asindices(canvas(-1, oh, ow))
			ncells := g.randint(1, oh*ow)
			sp := choice(g, connect(pt{0, 0}, pt{0, ow - 1}))
			obj := normalize(grow4(g, bnds, sp, ncells-1))
			oh, ow = height(obj), width(obj)
			markerh := g.randint(1, min(oh, barh-1))
			var markpart []pt
			for _, p := range obj {
				if p.i < markerh {
					markpart = append(markpart, p)
				}
			}
			markpartn := normalize(markpart)
			var keys []string
			invalid := false
			for k := 1; k <= markerh; k++ {
				var sub []pt
				for _, p := range markpartn {
					if p.i < k {
						sub = append(sub, p)
					}
				}
				key := ptsKey(normalize(sub))
				keys = append(keys, key)
				if forb[key] {
					invalid = true
				}
			}
			if invalid {
				continue
			}
			for _, k := range keys {
				forb[k] = true
			}
			var placoptcands []int
			for _, jj := range placopts {
				ok := true
				for x := jj; x <= jj+ow; x++ {
					if !slices.Contains(placopts, x) {
						ok = false
						break
					}
				}
				if ok {
					placoptcands = append(placoptcands, jj)
				}
			}
			if len(placoptcands) == 0 {
				continue
			}
			jloc := choice(g, placoptcands)
			oplcd := shift(obj, barh-markerh, jloc)
			if oinds.has(oplcd) {
				var icands []pt
				for _, p := range iinds.in(all) {
					if p.i <= h-oh && p.j <= w-ow {
						icands = append(icands, p)
					}
				}
				if len(icands) == 0 {
					continue
				}
				loc := choice(g, icands)
				iplcd := shift(obj, loc.i, loc.j)
				if iinds.has(iplcd) {
					succ++
					iinds.drop(iplcd)
					for _, p := range iplcd {
						iinds.drop(neighbors(p))
					}
					oinds.drop(oplcd)
					gi = fill(gi, objc, iplcd)
					gi = fill(gi, bgc, barinds.in(oplcd))
					gout = fill(gout, 1, oplcd)
					var jm []int
					for _, p := range ofcolor(gout, 1) {
						jm = append(jm, p.j, p.j-1, p.j+1)
					}
					placopts = without(placopts, jm...)
				}
			}
			if len(placopts) == 0 {
				break
			}
		}
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return rot(gi), rot(gout)
	}},
	{"0e206a2e", func(g *gen) (Grid, Grid) {
		var gi, gout Grid
		for range 100 {
			h, w := g.unif(10, 30), g.unif(10, 30)
			c5 := sample(g, allColors, 5)
			bgc, acol, bcol, ccol, dcol := c5[0], c5[1], c5[2], c5[3], c5[4]
			gi, gout = canvas(bgc, h, w), canvas(bgc, h, w)
			all := asindices(gi)
			inds := setOf(all)
			nsrcs := g.unif(1, min(h, w)/5)
			type src struct {
				obj, markers []cell
			}
			var srcs []src
			var abclist [][2]int
			diagonal := func(ps []pt) bool {
				d, s := map[int]bool{}, map[int]bool{}
				for _, p := range ps {
					d[p.i-p.j], s[p.i+p.j] = true, true
				}
				return len(d) == 1 || len(s) == 1
			}
			flat := func(ps []pt) bool { return height(ps) == 1 || width(ps) == 1 }
			srcsucc := 0
			for tr := 0; tr < 5*nsrcs && srcsucc < nsrcs; tr++ {
				objsize := g.unif(5, 20)
				bb := asindices(canvas(-1, 7, 7))
				sp := choice(g, bb)
				f := newFrontier(bb, dneighbors)
				f.take(sp)
				shp := []pt{sp}
				add := func() {
					p := f.pick(g)
					f.take(p)
					shp = append(shp, p)
				}
				for range objsize - 1 {
					add()
				}
				for flat(shp) && len(f.cands) > 0 {
					add()
				}
				for diagonal(shp) && len(f.cands) > 0 {
					add()
				}
				shp = normalize(shp)
				shuffle(g.rng, shp)
				for k := 0; k < 1000 && (flat(shp[:3]) || diagonal(shp[:3])); k++ {
					shuffle(g.rng, shp)
				}
				abc := [2]int{height(shp[:3]), width(shp[:3])}
				if abc[0] > abc[1] {
					abc[0], abc[1] = abc[1], abc[0]
				}
				if slices.Contains(abclist, abc) {
					continue
				}
				markers := []cell{{acol, shp[0]}, {bcol, shp[1]}, {ccol, shp[2]}}
				obj := slices.Clone(markers)
				for _, p := range shp[3:] {
					obj = append(obj, cell{dcol, p})
				}
				var opts []pt
				for _, p := range inds.in(all) {
					ok := true
					for _, q := range shp {
						if !inds.at(pt{q.i + p.i, q.j + p.j}) {
							ok = false
							break
						}
					}
					if ok {
						opts = append(opts, p)
					}
				}
				if len(opts) == 0 {
					continue
				}
				loc := choice(g, opts)
				srcsucc++
				placed := shift(shp, loc.i, loc.j)
				gi = paint(gi, shiftC(obj, loc.i, loc.j))
				gout = fill(gout, -1, placed)
				inds.drop(placed)
				for _, p := range placed {
					inds.drop(neighbors(p))
				}
				srcs = append(srcs, src{obj, markers})
				abclist = append(abclist, abc)
			}
			if len(srcs) == 0 {
				continue
			}
			num := g.unif(1, h*w/30)
			succ := 0
			for tr := 0; succ < num && tr < 10*num; tr++ {
				fn := choice(g, allTransforms)
				gi, gout = fn(gi), fn(gout)
				gh, gw := dims(gout)
				full := newSet()
				var fullList []pt
				for i := range gh {
					for j := range gw {
						ok := gout[i][j] == bgc
						for di := -1; di <= 1 && ok; di++ {
							for dj := -1; dj <= 1 && ok; dj++ {
								if q := (pt{i + di, j + dj}); inGrid(q, gh, gw) && gout[q.i][q.j] != bgc {
									ok = false
								}
							}
						}
						if ok {
							full.add(pt{i, j})
							fullList = append(fullList, pt{i, j})
						}
					}
				}
				s := choice(g, srcs)
				if full.n == 0 {
					break
				}
				loctr := choice(g, fullList)
				if full.has(shift(toindices(s.obj), loctr.i, loctr.j)) {
					succ++
					gi = paint(gi, shiftC(s.markers, loctr.i, loctr.j))
					gout = paint(gout, shiftC(s.obj, loctr.i, loctr.j))
				}
			}
			return gi, replace(gout, -1, bgc)
		}
		return gi, replace(gout, -1, 0)
	}},
	{"a8c38be5", func(g *gen) (Grid, Grid) {
		goh, gow := g.unif(9, 20), g.unif(9, 20)
		h, w := g.unif(goh+4, 30), g.unif(gow+4, 30)
		bs := sample(g, allColors, 2)
		bgc, sqc := bs[0], bs[1]
		ccols := sample(g, without(allColors, bgc, sqc), g.unif(1, 8))
		gout := canvas(sqc, goh, gow)
		gout = fill(gout, bgc, box(asindices(gout)))
		loci1 := g.randint(2, goh-7)
		loci2 := g.randint(loci1+4, goh-3)
		locj1 := g.randint(2, gow-7)
		locj2 := g.randint(locj1+4, gow-3)
		for _, i := range []int{loci1, loci2} {
			gout = fill(gout, sqc, connect(pt{i, 0}, pt{i, 29}))
		}
		for _, j := range []int{locj1, locj2} {
			gout = fill(gout, sqc, connect(pt{0, j}, pt{29, j}))
		}
		mi, mj := (loci1+loci2)/2, (locj1+locj2)/2
		gout = fill(gout, bgc, []pt{{mi, 1}, {mi, gow - 2}, {1, mj}, {goh - 2, mj}})
		for _, o := range objectsX(gout, true, false, true) {
			gout = fill(gout, choice(g, ccols), toindices(o))
		}
		splits := func(d int) (int, int, int, int) {
			d1 := g.randint(1, d-3)
			d2 := g.randint(1, d-d1-2)
			d3 := g.randint(1, d-d1-d2-1)
			return d1, d2, d3, d - d1 - d2 - d3
		}
		hd1, hd2, hd3, hd4 := splits(h - goh)
		wd1, wd2, wd3, wd4 := splits(w - gow)
		insert := func(gr Grid, n, l1, l2, d1, d2, d3, d4, bgc int) Grid {
			blank := func(k int) Grid { return canvas(bgc, k, n) }
			gr = slices.Concat(gr[:l2], blank(d2), gr[l2:])
			gr = slices.Concat(gr[:l1+1], blank(d3), gr[l1+1:])
			return slices.Concat(blank(d1), gr, blank(d4))
		}
		gi := insert(copyGrid(gout), gow, loci1, loci2, hd1, hd2, hd3, hd4, bgc)
		gi = dmirror(insert(dmirror(gi), h, locj1, locj2, wd1, wd2, wd3, wd4, bgc))
		nswitch := g.unif(0, 10)
		if choice(g, []bool{true, false}) {
			k := loci1 + hd1 + 1
			gi = slices.Concat(gi[k:], gi[:k])
		}
		if choice(g, []bool{true, false}) {
			k := locj1 + wd1 + 1
			t := dmirror(gi)
			gi = dmirror(slices.Concat(t[k:], t[:k]))
		}
		objsOf := func(diagonal bool) [][]cell {
			tmp := canvas(bgc, h+12, w+12)
			for i := range h {
				copy(tmp[i+6][6:], gi[i])
			}
			var out [][]cell
			for _, o := range objectsX(tmp, false, diagonal, true) {
				out = append(out, shiftC(o, -6, -6))
			}
			return out
		}
		for range nswitch {
			type group struct {
				shp  pt
				objs [][]cell
			}
			var groups []*group
			for _, o := range objsOf(true) {
				ps := toindices(o)
				shp := pt{height(ps), width(ps)}
				k := slices.IndexFunc(groups, func(gr *group) bool { return gr.shp == shp })
				if k < 0 {
					groups = append(groups, &group{shp: shp})
					k = len(groups) - 1
				}
				groups[k].objs = append(groups[k].objs, o)
			}
			var ress []*group
			for _, gr := range groups {
				if len(gr.objs) > 1 {
					ress = append(ress, gr)
				}
			}
			if len(ress) == 0 {
				break
			}
			ab := sample(g, choice(g, ress).objs, 2)
			a, b := ab[0], ab[1]
			ula, _ := bounds(toindices(a))
			ulb, _ := bounds(toindices(b))
			gi = paint(gi, shiftC(a, ulb.i-ula.i, ulb.j-ula.j))
			gi = paint(gi, shiftC(b, ula.i-ulb.i, ula.j-ulb.j))
		}
		for range g.unif(0, 30) {
			var objs [][]cell
			for _, o := range objsOf(false) {
				if !bordering(toindices(o), gi) {
					objs = append(objs, o)
				}
			}
			if len(objs) == 0 {
				break
			}
			obj := choice(g, objs)
			direc1 := pt{g.randint(-1, 1), g.randint(-1, 1)}
			direc2 := position([]pt{{h / 2, w / 2}}, []pt{center(toindices(obj))})
			direc := choice(g, []pt{direc1, direc2})
			gi = fill(gi, bgc, toindices(obj))
			gi = paint(gi, shiftC(obj, direc.i, direc.j))
		}
		for _, fn := range sample(g, allTransforms, choice(g, []int{1, 2})) {
			gi, gout = fn(gi), fn(gout)
		}
		return gi, gout
	}},
}
