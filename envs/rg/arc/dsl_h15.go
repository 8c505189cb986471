package arc

import "math"

// DSL helpers for rearc_gens15.go (named as in RE-ARC's dsl.py).

// unifFloor is unifint with a fractional upper bound b. Where Python's
// min(…, b) would hand back the float b (and the generator then fail on
// it), the largest integer not above b is used.
func (g *gen) unifFloor(a int, b float64) int {
	d := g.lb + (g.ub-g.lb)*g.rng.Float64()
	x := int(math.RoundToEven(float64(a) + (b-float64(a))*d))
	x = max(a, x)
	if float64(x) > b {
		x = int(math.Floor(b))
	}
	return x
}

// backdropP is the DSL's backdrop on a patch: its bounding box's cells.
func backdropP(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	ul, lr := bounds(ps)
	return backdrop(ul, lr)
}

// applySyms is RE-ARC's `for fn in rng.sample(mfs, nmfs)` with nmfs drawn
// from (1, 2), applied to both grids.
func applySyms(g *gen, gi, gout Grid) (Grid, Grid) {
	n := choice(g, []int{1, 2})
	for _, fn := range sample(g, allTransforms, n) {
		gi, gout = fn(gi), fn(gout)
	}
	return gi, gout
}

// neighborsAll is mapply(neighbors, ps): every cell 8-adjacent to one of
// the points (each once).
func neighborsAll(ps []pt) []pt {
	var out []pt
	for _, p := range ps {
		out = append(out, neighbors(p)...)
	}
	return dedup(out)
}

// hmatching reports whether the patches share a row.
func hmatching(a, b []pt) bool {
	rows := map[int]bool{}
	for _, p := range a {
		rows[p.i] = true
	}
	for _, p := range b {
		if rows[p.i] {
			return true
		}
	}
	return false
}
