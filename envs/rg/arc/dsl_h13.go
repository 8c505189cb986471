package arc

// DSL helpers for the thirteenth batch of ported generators.

// inGrid reports whether p lies in an h×w grid.
func inGrid(p pt, h, w int) bool { return p.i >= 0 && p.i < h && p.j >= 0 && p.j < w }

// clip keeps the points inside an h×w grid (the DSL's "& asindices(grid)").
func clip(ps []pt, h, w int) []pt {
	var out []pt
	for _, p := range ps {
		if inGrid(p, h, w) {
			out = append(out, p)
		}
	}
	return out
}

// ptSet is a set of points, kept as a bitmap over a frame around the
// largest grid (-16…47 on each axis); a point outside the frame is never
// in the set.
type ptSet struct {
	on []bool
	n  int
}

const setLo, setSpan = -16, 64

func newSet() *ptSet { return &ptSet{on: make([]bool, setSpan*setSpan)} }

func setOf(ps []pt) *ptSet {
	s := newSet()
	for _, p := range ps {
		s.add(p)
	}
	return s
}

func setIndex(p pt) int {
	i, j := p.i-setLo, p.j-setLo
	if i < 0 || j < 0 || i >= setSpan || j >= setSpan {
		return -1
	}
	return i*setSpan + j
}

// at reports whether p is in the set.
func (s *ptSet) at(p pt) bool {
	k := setIndex(p)
	return k >= 0 && s.on[k]
}

func (s *ptSet) add(p pt) {
	if k := setIndex(p); k >= 0 && !s.on[k] {
		s.on[k] = true
		s.n++
	}
}

func (s *ptSet) del(p pt) {
	if k := setIndex(p); k >= 0 && s.on[k] {
		s.on[k] = false
		s.n--
	}
}

// has reports whether every point is in the set (the DSL's issubset).
func (s *ptSet) has(ps []pt) bool {
	for _, p := range ps {
		if !s.at(p) {
			return false
		}
	}
	return true
}

func (s *ptSet) drop(ps []pt) {
	for _, p := range ps {
		s.del(p)
	}
}

// in lists the set's points in the order they appear in order.
func (s *ptSet) in(order []pt) []pt {
	var out []pt
	for _, p := range order {
		if s.at(p) {
			out = append(out, p)
		}
	}
	return out
}

// grow4 is a shape grown from sp by n cells of within, each drawn among
// the cells 4-adjacent to it (RE-ARC's "(opts - obj) & mapply(dneighbors,
// obj)" loop).
func grow4(g *gen, within []pt, sp pt, n int) []pt {
	f := newFrontier(within, dneighbors)
	f.take(sp)
	shp := []pt{sp}
	for range n {
		p := f.pick(g)
		f.take(p)
		shp = append(shp, p)
	}
	return shp
}

// position is the DSL's position: the direction from patch a's centre to
// patch b's.
func position(a, b []pt) pt {
	ca, cb := center(a), center(b)
	sgn := func(x bool) int {
		if x {
			return 1
		}
		return -1
	}
	switch {
	case ca.i == cb.i:
		return pt{0, sgn(ca.j < cb.j)}
	case ca.j == cb.j:
		return pt{sgn(ca.i < cb.i), 0}
	default:
		return pt{sgn(ca.i < cb.i), sgn(ca.j < cb.j)}
	}
}
