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
