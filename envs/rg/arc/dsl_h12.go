package arc

// DSL helpers for rearc_gens12.go (RE-ARC's dsl.py names).

// ifElse is Python's a if cond else b.
func ifElse[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
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
