package arc

// DSL helpers for rearc_gens12.go (RE-ARC's dsl.py names).

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

// reversed2 is a reversed copy of a point list (s[::-1]).
func reversed2(s []pt) []pt {
	out := make([]pt, len(s))
	for k, p := range s {
		out[len(s)-1-k] = p
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
