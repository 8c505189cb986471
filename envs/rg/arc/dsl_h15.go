package arc

import "math"

// DSL helpers for rearc_gens15.go (named as in RE-ARC's dsl.py).

// unifF is unifint with a fractional upper bound b. Where Python's
// min(…, b) would hand back the float b (and the generator then fail on
// it), the largest integer not above b is used.
func (g *gen) unifF(a int, b float64) int {
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

// pset is a set of points with uniform draws (a frozenset the generators
// shrink and sample from).
type pset struct {
	s  []pt
	at map[pt]int
}

func newPset(ps []pt) *pset {
	s := &pset{at: map[pt]int{}}
	for _, p := range ps {
		s.add(p)
	}
	return s
}

func (s *pset) has(p pt) bool { _, ok := s.at[p]; return ok }

func (s *pset) add(p pt) {
	if !s.has(p) {
		s.at[p] = len(s.s)
		s.s = append(s.s, p)
	}
}

func (s *pset) remove(p pt) {
	k, ok := s.at[p]
	if !ok {
		return
	}
	last := s.s[len(s.s)-1]
	s.s[k], s.at[last] = last, k
	s.s = s.s[:len(s.s)-1]
	delete(s.at, p)
}

func (s *pset) hasAll(ps []pt) bool {
	for _, p := range ps {
		if !s.has(p) {
			return false
		}
	}
	return true
}

func (s *pset) removeAll(ps []pt) {
	for _, p := range ps {
		s.remove(p)
	}
}

// filter lists the set's points that satisfy f.
func (s *pset) filter(f func(pt) bool) []pt {
	var out []pt
	for _, p := range s.s {
		if f(p) {
			out = append(out, p)
		}
	}
	return out
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
