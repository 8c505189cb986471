package arc

// DSL helpers for rearc_gens12.go (RE-ARC's dsl.py names).

// dneighbors are the four cells beside p (possibly outside the grid).
func dneighbors(p pt) []pt {
	return []pt{{p.i - 1, p.j}, {p.i + 1, p.j}, {p.i, p.j - 1}, {p.i, p.j + 1}}
}

// subgrid is the grid cropped to the points' bounding box.
func subgrid(ps []pt, g Grid) Grid {
	ul, lr := bounds(ps)
	return crop(g, ul.i, ul.j, lr.i-ul.i+1, lr.j-ul.j+1)
}

// tophalf is the first len(g)/2 rows.
func tophalf(g Grid) Grid { return copyGrid(g[:len(g)/2]) }

// bottomhalf is the last len(g)/2 rows (the middle row dropped).
func bottomhalf(g Grid) Grid { return copyGrid(g[len(g)/2+len(g)%2:]) }

// lefthalf is the first len(g[0])/2 columns.
func lefthalf(g Grid) Grid { return rot270(tophalf(rot90(g))) }

// righthalf is the last len(g[0])/2 columns.
func righthalf(g Grid) Grid { return rot270(bottomhalf(rot90(g))) }

// toset is a patch's points as a set.
func toset(ps []pt) map[pt]bool {
	s := make(map[pt]bool, len(ps))
	for _, p := range ps {
		s[p] = true
	}
	return s
}

// ifElse is Python's a if cond else b.
func ifElse[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// objectsDiag is objects(grid, univalued=True, diagonal=True,
// without_bg=False): the 8-connected regions of one colour.
func objectsDiag(g Grid) []object {
	h, w := dims(g)
	seen := make([][]bool, h)
	for i := range seen {
		seen[i] = make([]bool, w)
	}
	var objs []object
	for _, start := range asindices(g) {
		if seen[start.i][start.j] {
			continue
		}
		o := object{color: g[start.i][start.j]}
		stack := []pt{start}
		seen[start.i][start.j] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			o.cells = append(o.cells, p)
			for _, q := range neighbors(p) {
				if q.i >= 0 && q.i < h && q.j >= 0 && q.j < w && !seen[q.i][q.j] && g[q.i][q.j] == o.color {
					seen[q.i][q.j] = true
					stack = append(stack, q)
				}
			}
		}
		objs = append(objs, o)
	}
	return objs
}

// occurrences are the upper-left corners at which the object, normalised,
// lies wholly inside the grid with every cell's colour matching.
func occurrences(g Grid, obj []cell) []pt {
	ps := make([]pt, len(obj))
	for k, c := range obj {
		ps[k] = c.p
	}
	ul, _ := bounds(ps)
	h, w := dims(g)
	var occs []pt
	for _, at := range asindices(g) {
		ok := true
		for _, c := range obj {
			a, b := c.p.i-ul.i+at.i, c.p.j-ul.j+at.j
			if a < 0 || a >= h || b < 0 || b >= w || g[a][b] != c.c {
				ok = false
				break
			}
		}
		if ok {
			occs = append(occs, at)
		}
	}
	return occs
}

// recolor is the patch's points as cells of colour c.
func recolor(c int, ps []pt) []cell {
	cs := make([]cell, len(ps))
	for k, p := range ps {
		cs[k] = cell{c, p}
	}
	return cs
}

// reversed2 is a reversed copy of a point list (s[::-1]).
func reversed2(s []pt) []pt {
	out := make([]pt, len(s))
	for k, p := range s {
		out[len(s)-1-k] = p
	}
	return out
}

// trim is the grid without its outermost rows and columns.
func trim(g Grid) Grid {
	var out Grid
	for _, row := range g[1 : len(g)-1] {
		out = append(out, append([]int(nil), row[1:len(row)-1]...))
	}
	return out
}

// vupscale repeats each row f times.
func vupscale(g Grid, f int) Grid {
	var out Grid
	for _, row := range g {
		for range f {
			out = append(out, append([]int(nil), row...))
		}
	}
	return out
}

// hupscale repeats each column f times.
func hupscale(g Grid, f int) Grid {
	h, w := dims(g)
	return build(h, w*f, func(i, j int) int { return g[i][j/f] })
}

// dmirrorP is dmirror on a patch: mirrored along the diagonal through its
// upper-left corner.
func dmirrorP(ps []pt) []pt {
	ul, _ := bounds(ps)
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.j - ul.j + ul.i, p.i - ul.i + ul.j}
	}
	return out
}
