package arc

import "slices"

// RE-ARC's example generators that Quarry ports (rearc_utils/generators),
// each named by its ARC task id, rewritten from the Python one step at a
// time over dsl.go. Draws that the Python makes and then ignores are kept,
// so each generator's distribution is the Python one's.

// rearcGen draws one example pair.
type rearcGen func(g *gen) (in, out Grid)

type rearcEntry struct {
	id  string
	gen rearcGen
}

// scatter is the opening many generators share: a canvas of a random
// background colour with numc further colours (numc at least minColors)
// scattered over disjoint random cells. fromAll draws them from all ten
// colours (the background included), as a few generators do.
func (g *gen) scatter(h, w, minColors int, fromAll bool) Grid {
	bgc := choice(g, allColors)
	gi := canvas(bgc, h, w)
	rem := without(allColors, bgc)
	numc := g.unif(minColors, min(9, h*w))
	pool := rem
	if fromAll {
		pool = allColors
	}
	inds := asindices(gi)
	for _, col := range sample(g, pool, numc) {
		chos := sample(g, inds, g.unif(1, max(1, len(inds)/numc)))
		gi = fill(gi, col, chos)
		inds = minus(inds, chos)
	}
	return gi
}

// scattered is a generator whose input is scatter's grid of h×w (each drawn
// in its bounds) and whose output is f of it.
func scattered(hlo, hhi, wlo, whi int, fromAll bool, f func(Grid) Grid) rearcGen {
	return func(g *gen) (Grid, Grid) {
		h := g.unif(hlo, hhi)
		w := g.unif(wlo, whi)
		gi := g.scatter(h, w, 0, fromAll)
		return gi, f(gi)
	}
}

// square is scattered with w = h.
func square(lo, hi int, f func(Grid) Grid) rearcGen {
	return func(g *gen) (Grid, Grid) {
		h := g.unif(lo, hi)
		gi := g.scatter(h, h, 0, false)
		return gi, f(gi)
	}
}

func withColors(ps []pt, colors []int, g *gen) []cell {
	cs := make([]cell, len(ps))
	for k, p := range ps {
		cs[k] = cell{choice(g, colors), p}
	}
	return cs
}

// rearcGens are all the ported generators, the first batch here.
var rearcGens = slices.Concat(rearcGens1, rearcGens2, rearcGens3, rearcGens4, rearcGens5, rearcGens6, rearcGens7, rearcGens8, rearcGens9,
	rearcGens10, rearcGens11, rearcGens12, rearcGens13, rearcGens14, rearcGens15)

var rearcGens1 = []rearcEntry{
	{"007bbfb7", func(g *gen) (Grid, Grid) {
		cols := interval(1, 10)
		h, w := g.unif(2, 5), g.unif(2, 5)
		c := canvas(0, h, w)
		numcd := g.unif(0, h*w/2)
		numc := choice(g, []int{numcd, h*w - numcd})
		numc = min(max(1, numc), h*w-1)
		locs := sample(g, asindices(c), numc)
		fgc := choice(g, cols)
		gi := fill(c, fgc, locs)
		gout := canvas(0, h*h, w*w)
		for _, l := range locs {
			gout = fill(gout, fgc, shift(locs, l.i*h, l.j*w))
		}
		return gi, gout
	}},
	{"0d3d703e", func(g *gen) (Grid, Grid) {
		in := []int{1, 2, 3, 4, 5, 6, 8, 9}
		out := []int{5, 6, 4, 3, 1, 2, 9, 8}
		h, w := g.unif(4, 30), g.unif(4, 30)
		gi, gout := canvas(-1, h, w), canvas(-1, h, w)
		idxes := sample(g, interval(0, len(in)), g.unif(1, len(in)))
		for _, p := range asindices(gi) {
			k := choice(g, idxes)
			gi[p.i][p.j], gout[p.i][p.j] = in[k], out[k]
		}
		return gi, gout
	}},
	{"2dee498d", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 30), g.unif(1, 10)
		gout := g.scatter(h, w, 1, false)
		return hconcat(gout, hconcat(gout, gout)), gout
	}},
	{"3af2c5a8", scattered(1, 15, 1, 15, false, func(gi Grid) Grid {
		o := hconcat(gi, vmirror(gi))
		return vconcat(o, hmirror(o))
	})},
	{"3bd67248", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 4)
		h, w := g.unif(3, 15), g.unif(3, 15)
		bl := sample(g, cols, 2)
		bgc, linc := bl[0], bl[1]
		fac := g.unif(1, 30/max(h, w))
		gi := fill(canvas(bgc, h, w), linc, connect(pt{0, 0}, pt{h - 1, 0}))
		gout := fill(gi, 4, connect(pt{h - 1, 1}, pt{h - 1, w - 1}))
		gout = fill(gout, 2, shoot(pt{h - 2, 1}, -1, 1))
		rot := choice(g, []transform{identity, rot90, rot180, rot270})
		return upscale(rot(gi), fac), upscale(rot(gout), fac)
	}},
	{"3c9b0459", scattered(1, 30, 1, 30, false, rot180)},
	{"4258a5f9", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(2, 30), g.unif(2, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		gi := canvas(bgc, h, w)
		mp := h*w/2 - 1
		if h*w%2 == 1 {
			mp = h * w / 2
		}
		dots := sample(g, asindices(gi), g.unif(1, mp))
		var around []pt
		for _, d := range dots {
			around = append(around, neighbors(d)...)
		}
		gout := fill(fill(gi, 1, around), fgc, dots)
		return fill(gi, fgc, dots), gout
	}},
	{"46442a0e", square(1, 15, rotTiles)},
	{"4c4377d9", scattered(1, 15, 1, 30, true, func(gi Grid) Grid { return vconcat(hmirror(gi), gi) })},
	{"5bd6f4ac", scattered(4, 30, 4, 30, false, func(gi Grid) Grid { return rot90(crop(rot270(gi), 0, 0, 3, 3)) })},
	{"6150a2bd", scattered(1, 30, 1, 30, false, rot180)},
	{"62c24649", scattered(1, 15, 1, 15, false, func(gi Grid) Grid {
		return vconcat(hconcat(gi, vmirror(gi)), hconcat(hmirror(gi), hmirror(vmirror(gi))))
	})},
	{"67385a82", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 8)
		h, w := g.unif(3, 30), g.unif(3, 30)
		col := choice(g, cols)
		gi := canvas(0, h, w)
		inds := asindices(gi)
		ncd := g.unif(0, len(inds)/2)
		nc := choice(g, []int{ncd, len(inds) - ncd})
		nc = min(max(1, nc), len(inds)-1)
		gi = fill(gi, col, sample(g, inds, nc))
		var singles []pt
		for _, o := range objects(gi) {
			if o.color == col && len(o.cells) == 1 {
				singles = append(singles, o.cells...)
			}
		}
		return gi, fill(gi, 8, minus(ofcolor(gi, col), singles))
	}},
	{"67a3c6ac", scattered(1, 30, 1, 30, false, vmirror)},
	{"68b16354", scattered(1, 30, 1, 30, false, hmirror)},
	{"6d0aefbc", scattered(1, 30, 1, 15, false, func(gi Grid) Grid { return hconcat(gi, vmirror(gi)) })},
	{"6f8cd79b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 8)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		rem := without(cols, bgc)
		gi := canvas(bgc, h, w)
		ccols := sample(g, rem, g.unif(1, 8))
		inds := asindices(gi)
		gi = paint(gi, withColors(sample(g, inds, g.unif(0, h*w)), ccols, g))
		return gi, fill(gi, 8, box(inds))
	}},
	{"6fa7a44f", scattered(1, 15, 1, 30, false, func(gi Grid) Grid { return vconcat(gi, hmirror(gi)) })},
	{"74dd1130", scattered(1, 30, 1, 30, false, dmirror)},
	{"7fe24cdd", square(1, 15, rotTiles)},
	{"834ec97d", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 4)
		h, w := g.unif(2, 30), g.unif(2, 30)
		loci := g.unif(0, h-2)
		locjd := g.unif(0, w/2)
		locj := choice(g, []int{locjd, w - locjd})
		locj = min(max(0, locj), w-1)
		bf := sample(g, cols, 2)
		c := canvas(bf[0], h, w)
		gi := fill(c, bf[1], []pt{{loci, locj}})
		gout := fill(c, bf[1], []pt{{loci + 1, locj}})
		for jj := 0; jj <= w/2; jj++ {
			gout = fill(gout, 4, connect(pt{0, locj + 2*jj}, pt{loci, locj + 2*jj}))
			gout = fill(gout, 4, connect(pt{0, locj - 2*jj}, pt{loci, locj - 2*jj}))
		}
		return gi, gout
	}},
	{"8403a5d5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 5)
		h, w := g.unif(3, 30), g.unif(3, 30)
		locc := w - g.unif(1, w-1)
		bf := sample(g, cols, 2)
		bgc, fgc := bf[0], bf[1]
		gi := fill(canvas(bgc, h, w), fgc, []pt{{h - 1, locc}})
		gout := canvas(bgc, h, w)
		for j := locc; j < w; j += 2 {
			gout = fill(gout, fgc, connect(pt{0, j}, pt{h - 1, j}))
		}
		for j := locc + 1; j < w; j += 4 {
			gout = fill(gout, 5, []pt{{0, j}})
		}
		for j := locc + 3; j < w; j += 4 {
			gout = fill(gout, 5, []pt{{h - 1, j}})
		}
		return gi, gout
	}},
	{"85c4e7cd", func(g *gen) (Grid, Grid) {
		h, w := g.unif(1, 15), g.unif(1, 15)
		cols := sample(g, allColors, g.unif(1, 10))
		order := make([]int, min(h, w))
		for k := range order {
			order[k] = choice(g, cols)
		}
		gi, gout := canvas(0, 2*h, 2*w), canvas(0, 2*h, 2*w)
		for k := range order {
			bx := box([]pt{{k, k}, {2*h - 1 - k, 2*w - 1 - k}})
			gi = fill(gi, order[k], bx)
			gout = fill(gout, order[len(order)-1-k], bx)
		}
		return gi, gout
	}},
	{"8be77c9e", scattered(1, 15, 1, 30, true, func(gi Grid) Grid { return vconcat(gi, hmirror(gi)) })},
	{"8d5021e8", scattered(1, 10, 1, 15, false, func(gi Grid) Grid {
		g1 := hconcat(vmirror(gi), gi)
		return vconcat(hmirror(g1), vconcat(g1, hmirror(g1)))
	})},
	{"9172f3a0", scattered(1, 10, 1, 10, false, func(gi Grid) Grid { return upscale(gi, 3) })},
	{"9edfc990", func(g *gen) (Grid, Grid) {
		cols := interval(2, 10)
		h, w := g.unif(5, 30), g.unif(5, 30)
		namt := g.unif(int(0.4*float64(h*w)), int(0.7*float64(h*w)))
		gi := canvas(0, h, w)
		inds := asindices(gi)
		locs := sample(g, inds, namt)
		gi = paint(gi, withColors(locs, cols, g))
		remlocs := minus(inds, locs)
		blocs := sample(g, remlocs, g.unif(1, max(1, len(remlocs)/10)))
		gi = fill(gi, 1, blocs)
		blue := map[pt]bool{}
		for _, b := range blocs {
			blue[b] = true
		}
		var res []pt
		for _, o := range objects(gi) {
			if o.color == 0 && touches(o.cells, blue) {
				res = append(res, o.cells...)
			}
		}
		return gi, fill(gi, 1, res)
	}},
	{"a416b8f3", scattered(1, 30, 1, 15, false, func(gi Grid) Grid { return hconcat(gi, gi) })},
	{"a85d4709", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 2, 3, 4)
		h := g.unif(2, 30)
		w3 := g.unif(1, 10)
		w := 3 * w3
		bd := sample(g, cols, 2)
		gi, gout := canvas(bd[0], h, w), canvas(bd[0], h, w)
		type offset struct{ ofs, col int }
		for ii := range h {
			_ = g.randint(0, w3-1) // drawn and overwritten in RE-ARC
			dev := g.unif(0, w3/2+1)
			loc := w3/3 + choice(g, []int{dev, -dev})
			loc = min(max(0, loc), w3-1)
			o := choice(g, []offset{{0, 2}, {1, 4}, {2, 3}})
			loc += o.ofs * w3
			gi = fill(gi, bd[1], []pt{{ii, loc}})
			gout = fill(gout, o.col, connect(pt{ii, 0}, pt{ii, w - 1}))
		}
		return gi, gout
	}},
	{"ac0a08a4", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		num := g.unif(1, min(min(9, h*w-2), min(30/h, 30/w)))
		bgc := choice(g, allColors)
		c := canvas(bgc, h, w)
		locs := sample(g, asindices(c), num)
		colors := sample(g, without(allColors, bgc), num)
		obj := make([]cell, num)
		for k := range obj {
			obj[k] = cell{colors[k], locs[k]}
		}
		gi := paint(c, obj)
		return gi, upscale(gi, num)
	}},
	{"b1948b0a", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 6)
		h, w := g.unif(2, 30), g.unif(2, 30)
		npd := g.unif(0, h*w/2)
		_ = choice(g, []int{npd, h*w - npd}) // drawn and overwritten in RE-ARC
		np := min(max(0, npd), h*w)
		gi := canvas(6, h, w)
		inds := asindices(gi)
		pp := sample(g, inds, np)
		for _, p := range minus(inds, pp) {
			gi = fill(gi, choice(g, cols), []pt{p})
		}
		return gi, fill(gi, 2, pp)
	}},
	{"b91ae062", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 5), g.unif(2, 5)
		numc := g.unif(3, min(h*w, min(10, 30/max(h, w))))
		ccols := sample(g, allColors, numc)
		c := canvas(-1, h, w)
		inds := asindices(c)
		fix := sample(g, inds, numc)
		obj := make([]cell, 0, len(inds))
		for k, p := range fix {
			obj = append(obj, cell{ccols[k], p})
		}
		obj = append(obj, withColors(minus(inds, fix), ccols, g)...)
		gi := paint(c, obj)
		return gi, upscale(gi, numc-1)
	}},
	{"ba26e723", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 6)
		h, w := g.unif(2, 30), g.unif(2, 30)
		gi, gout := canvas(0, h, w), canvas(0, h, w)
		ccols := sample(g, cols, g.unif(1, 8))
		for j := range w {
			rows := sample(g, interval(0, h), g.unif(1, h-1))
			obj := make([]cell, len(rows))
			for k, i := range rows {
				obj[k] = cell{choice(g, ccols), pt{i, j}}
			}
			gi = paint(gi, obj)
			if j%3 == 0 {
				for k := range obj {
					obj[k].c = 6
				}
			}
			gout = paint(gout, obj)
		}
		return gi, gout
	}},
	{"c59eb873", scattered(1, 15, 1, 15, false, func(gi Grid) Grid { return upscale(gi, 2) })},
	{"c8f0f002", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 7)
		h, w := g.unif(2, 30), g.unif(2, 30)
		ccols := sample(g, cols, g.unif(1, 9))
		c := canvas(-1, h, w)
		inds := asindices(c)
		orange := sample(g, inds, g.unif(0, h*w/2))
		gi, gout := fill(c, 7, orange), fill(c, 5, orange)
		for _, p := range minus(inds, orange) {
			col := choice(g, ccols)
			gi[p.i][p.j], gout[p.i][p.j] = col, col
		}
		return gi, gout
	}},
	{"c9e6f938", scattered(1, 30, 1, 15, false, func(gi Grid) Grid { return hconcat(gi, vmirror(gi)) })},
	{"ce22a75a", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1)
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, cols)
		fgc := choice(g, without(cols, bgc))
		c := canvas(bgc, h, w)
		dots := sample(g, asindices(c), g.unif(1, h*w/3))
		var around []pt
		for _, d := range dots {
			around = append(around, neighbors(d)...)
		}
		return fill(c, fgc, dots), fill(fill(c, 1, around), 1, dots)
	}},
	{"d037b0a7", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 30), g.unif(3, 30)
		bgc := choice(g, allColors)
		rem := without(allColors, bgc)
		gi, gout := canvas(bgc, h, w), canvas(bgc, h, w)
		for _, j := range sample(g, interval(0, w), g.unif(1, w)) {
			col := choice(g, rem)
			loc := pt{g.randint(0, h-1), j}
			gi = fill(gi, col, []pt{loc})
			gout = fill(gout, col, connect(loc, pt{h - 1, j}))
		}
		return gi, gout
	}},
	{"d10ecb37", scattered(2, 30, 2, 30, false, func(gi Grid) Grid { return crop(gi, 0, 0, 2, 2) })},
	{"d406998b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 3)
		h, w := g.unif(3, 30), g.unif(2, 30)
		bd := sample(g, cols, 2)
		gi, gout := canvas(bd[0], h, w), canvas(bd[0], h, w)
		most := h / 2
		if h%2 == 0 {
			most = h/2 - 1
		}
		rows := interval(0, h)
		for j := range w {
			var locs []pt
			for _, i := range sample(g, rows, g.unif(1, most)) {
				locs = append(locs, pt{i, j})
			}
			gi = fill(gi, bd[1], locs)
			c := 3
			if (w-j)%2 == 0 {
				c = bd[1]
			}
			gout = fill(gout, c, locs)
		}
		return gi, gout
	}},
	{"d4469b4b", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 1, 2, 3)
		canv := canvas(5, 3, 3)
		a := fill(canv, 0, []pt{{1, 0}, {2, 0}, {1, 2}, {2, 2}})
		b := fill(canv, 0, []pt{{0, 0}, {0, 2}, {2, 0}, {2, 2}})
		c := fill(canv, 0, []pt{{0, 0}, {0, 1}, {1, 0}, {1, 1}})
		type shape struct {
			col int
			out Grid
		}
		h, w := g.unif(2, 30), g.unif(2, 30)
		s := choice(g, []shape{{2, a}, {1, b}, {3, c}})
		gi := canvas(s.col, h, w)
		ccols := sample(g, cols, g.unif(1, 7))
		gi = paint(gi, withColors(sample(g, asindices(gi), g.unif(0, h*w-1)), ccols, g))
		return gi, s.out
	}},
	{"d631b094", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(2, 30)
		fgc := choice(g, without(allColors, 0))
		nc := g.unif(1, min(30, h*w/2-1))
		c := canvas(0, h, w)
		return fill(c, fgc, sample(g, asindices(c), nc)), canvas(fgc, 1, nc)
	}},
	{"e9afcf9a", func(g *gen) (Grid, Grid) {
		h, w := g.unif(2, 30), g.unif(4, 30)
		colss := sample(g, allColors, g.unif(1, min(10, h)))
		rr := make([]int, h)
		for k := range rr {
			rr[k] = choice(g, colss)
		}
		rr2 := reversed(rr)
		var gi, gout Grid
		for k := range w {
			gi = append(gi, rr)
			if k%2 == 0 {
				gout = append(gout, rr)
			} else {
				gout = append(gout, rr2)
			}
		}
		return dmirror(gi), dmirror(gout)
	}},
	{"eb281b96", func(g *gen) (Grid, Grid) {
		h, w := g.unif(3, 8), g.unif(3, 30)
		bgc := choice(g, allColors)
		ccols := sample(g, without(allColors, bgc), g.unif(1, 9))
		c := canvas(bgc, h, w)
		gi := paint(c, withColors(sample(g, asindices(c), g.unif(1, h*w)), ccols, g))
		gout := vconcat(gi, hmirror(gi[:len(gi)-1]))
		gout = vconcat(gout, hmirror(gout[:len(gout)-1]))
		return gi, gout
	}},
	{"ed36ccf7", scattered(1, 30, 1, 30, false, rot270)},
	{"f76d97a5", func(g *gen) (Grid, Grid) {
		cols := without(allColors, 0, 5)
		h, w := g.unif(4, 30), g.unif(4, 30)
		col := choice(g, cols)
		gi, gout := canvas(5, h, w), canvas(col, h, w)
		numdev := g.unif(0, h*w/2)
		num := choice(g, []int{numdev, h*w - numdev})
		num = min(max(1, num), h*w)
		locs := sample(g, asindices(gi), num)
		return fill(gi, col, locs), fill(gout, 0, locs)
	}},
	{"feca6190", func(g *gen) (Grid, Grid) {
		w := g.unif(2, 6)
		ncols := g.unif(1, min(w, 5))
		ccols := sample(g, without(allColors, 0), ncols)
		locs := sample(g, interval(0, w), ncols)
		gi, gout := canvas(0, 1, w), canvas(0, w*ncols, w*ncols)
		for k, col := range ccols {
			gi = fill(gi, col, []pt{{0, locs[k]}})
			gout = fill(gout, col, shoot(pt{w*ncols - 1, locs[k]}, -1, 1))
		}
		return gi, gout
	}},
}

func identity(g Grid) Grid { return g }

// rotTiles is the 2×2 tiling of a square grid's four rotations.
func rotTiles(gi Grid) Grid {
	return vconcat(hconcat(gi, rot90(gi)), hconcat(rot270(gi), rot180(gi)))
}

// touches reports whether a cell is 4-adjacent to a marked one (the DSL's
// adjacent: Manhattan distance 1 between the patches).
func touches(cells []pt, marked map[pt]bool) bool {
	for _, p := range cells {
		for _, q := range []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}} {
			if marked[q] {
				return true
			}
		}
	}
	return false
}
