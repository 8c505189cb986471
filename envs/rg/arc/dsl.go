package arc

import (
	"math"
	"math/rand/v2"
)

// The part of RE-ARC's DSL (rearc_utils/dsl.py) the ported generators use,
// on Grid values. Patches are lists of points; where the DSL's frozensets
// would drop a duplicate, writing a cell twice is the same thing.

// pt is a cell's (row, column).
type pt struct{ i, j int }

// cell is a coloured point (the DSL's Cell).
type cell struct {
	c int
	p pt
}

// gen is one generator call: its random source and RE-ARC's difficulty
// bounds.
type gen struct {
	rng    *rand.Rand
	lb, ub float64
}

// unif is utils.py's unifint: a difficulty d drawn uniformly from
// [lb, ub] picks round(a + (b-a)·d), clamped to [a, b] (b wins when b < a,
// as min(max(a, x), b) does).
func (g *gen) unif(a, b int) int {
	d := g.lb + (g.ub-g.lb)*g.rng.Float64()
	x := int(math.RoundToEven(float64(a) + float64(b-a)*d))
	return min(max(a, x), b)
}

// randint is random.randint.
func (g *gen) randint(a, b int) int { return randint(g.rng, a, b) }

// choice is random.choice.
func choice[T any](g *gen, s []T) T {
	if len(s) == 0 {
		panic("arc: choice from an empty sequence")
	}
	return s[g.rng.IntN(len(s))]
}

// sample is random.sample: k distinct elements of s in random order.
func sample[T any](g *gen, s []T, k int) []T {
	if k < 0 || k > len(s) {
		panic("arc: sample larger than the population or negative")
	}
	pool := append([]T(nil), s...)
	for i := range k {
		j := i + g.rng.IntN(len(pool)-i)
		pool[i], pool[j] = pool[j], pool[i]
	}
	return pool[:k]
}

// interval is the DSL's interval(lo, hi, 1): lo, …, hi-1.
func interval(lo, hi int) []int {
	var s []int
	for x := lo; x < hi; x++ {
		s = append(s, x)
	}
	return s
}

// without is the DSL's remove and difference on colour lists.
func without(s []int, xs ...int) []int {
	var out []int
	for _, v := range s {
		if !contains(xs, v) {
			out = append(out, v)
		}
	}
	return out
}

var allColors = interval(0, 10)

func canvas(c, h, w int) Grid {
	return build(h, w, func(int, int) int { return c })
}

// asindices lists a grid's cells row by row.
func asindices(g Grid) []pt {
	var ps []pt
	for i := range g {
		for j := range g[i] {
			ps = append(ps, pt{i, j})
		}
	}
	return ps
}

// minus is the points of a that are not in b.
func minus(a, b []pt) []pt {
	drop := make(map[pt]bool, len(b))
	for _, p := range b {
		drop[p] = true
	}
	var out []pt
	for _, p := range a {
		if !drop[p] {
			out = append(out, p)
		}
	}
	return out
}

func copyGrid(g Grid) Grid {
	out := make(Grid, len(g))
	for i, row := range g {
		out[i] = append([]int(nil), row...)
	}
	return out
}

// fill colours the points inside the grid, in a copy.
func fill(g Grid, c int, ps []pt) Grid {
	out := copyGrid(g)
	for _, p := range ps {
		if p.i >= 0 && p.i < len(out) && p.j >= 0 && p.j < len(out[p.i]) {
			out[p.i][p.j] = c
		}
	}
	return out
}

// paint colours each cell inside the grid, in a copy.
func paint(g Grid, cs []cell) Grid {
	out := copyGrid(g)
	for _, c := range cs {
		if c.p.i >= 0 && c.p.i < len(out) && c.p.j >= 0 && c.p.j < len(out[c.p.i]) {
			out[c.p.i][c.p.j] = c.c
		}
	}
	return out
}

func upscale(g Grid, f int) Grid {
	h, w := dims(g)
	return build(h*f, w*f, func(i, j int) int { return g[i/f][j/f] })
}

func hconcat(a, b Grid) Grid {
	out := make(Grid, min(len(a), len(b)))
	for i := range out {
		out[i] = append(append([]int(nil), a[i]...), b[i]...)
	}
	return out
}

func vconcat(a, b Grid) Grid { return append(copyGrid(a), copyGrid(b)...) }

// crop is the DSL's crop: rows i0…i0+h-1 and columns j0…j0+w-1, clipped
// to the grid as Python's slices are.
func crop(g Grid, i0, j0, h, w int) Grid {
	var out Grid
	for i := i0; i < min(i0+h, len(g)); i++ {
		out = append(out, append([]int(nil), g[i][j0:min(j0+w, len(g[i]))]...))
	}
	return out
}

// connect is the straight (row, column or diagonal) line from a to b, or
// nothing.
func connect(a, b pt) []pt {
	si, ei := min(a.i, b.i), max(a.i, b.i)
	sj, ej := min(a.j, b.j), max(a.j, b.j)
	var ps []pt
	switch {
	case a.i == b.i:
		for j := sj; j <= ej; j++ {
			ps = append(ps, pt{a.i, j})
		}
	case a.j == b.j:
		for i := si; i <= ei; i++ {
			ps = append(ps, pt{i, a.j})
		}
	case b.i-a.i == b.j-a.j:
		for k := 0; si+k <= ei; k++ {
			ps = append(ps, pt{si + k, sj + k})
		}
	case b.i-a.i == a.j-b.j:
		for k := 0; si+k <= ei; k++ {
			ps = append(ps, pt{si + k, ej - k})
		}
	}
	return ps
}

// shoot is the line from start 42 steps in direction (di, dj).
func shoot(start pt, di, dj int) []pt {
	return connect(start, pt{start.i + 42*di, start.j + 42*dj})
}

// box is the outline of the points' bounding box.
func box(ps []pt) []pt {
	if len(ps) == 0 {
		return nil
	}
	si, sj, ei, ej := ps[0].i, ps[0].j, ps[0].i, ps[0].j
	for _, p := range ps {
		si, sj, ei, ej = min(si, p.i), min(sj, p.j), max(ei, p.i), max(ej, p.j)
	}
	var out []pt
	for i := si; i <= ei; i++ {
		out = append(out, pt{i, sj}, pt{i, ej})
	}
	for j := sj; j <= ej; j++ {
		out = append(out, pt{si, j}, pt{ei, j})
	}
	return out
}

// neighbors are the eight cells around p (possibly outside the grid).
func neighbors(p pt) []pt {
	var out []pt
	for di := -1; di <= 1; di++ {
		for dj := -1; dj <= 1; dj++ {
			if di != 0 || dj != 0 {
				out = append(out, pt{p.i + di, p.j + dj})
			}
		}
	}
	return out
}

func shift(ps []pt, di, dj int) []pt {
	out := make([]pt, len(ps))
	for k, p := range ps {
		out[k] = pt{p.i + di, p.j + dj}
	}
	return out
}

func ofcolor(g Grid, c int) []pt {
	var out []pt
	for _, p := range asindices(g) {
		if g[p.i][p.j] == c {
			out = append(out, p)
		}
	}
	return out
}

// object is one of objects(grid, univalued=True, diagonal=False,
// without_bg=False): a 4-connected region of one colour.
type object struct {
	color int
	cells []pt
}

func objects(g Grid) []object { return objectsOf(g, dneighbors) }

// objectsDiag is objects(grid, univalued=True, diagonal=True,
// without_bg=False): the 8-connected regions of one colour.
func objectsDiag(g Grid) []object { return objectsOf(g, neighbors) }

// objectsOf is the regions of one colour connected through around, found
// row by row.
func objectsOf(g Grid, around func(pt) []pt) []object {
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
			for _, q := range around(p) {
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

func palette(gs ...Grid) map[int]bool {
	p := map[int]bool{}
	for _, g := range gs {
		for _, row := range g {
			for _, c := range row {
				p[c] = true
			}
		}
	}
	return p
}

// psoDifficulty is utils.py's get_pso_difficulty: the mean of the share of
// 1,800 pixels the pair covers, the share of ten colours it uses and its
// objects per cell.
func psoDifficulty(in, out Grid) float64 {
	hwi, hwo := float64(len(in)*len(in[0])), float64(len(out)*len(out[0]))
	pix := (hwi + hwo) / 1800
	col := float64(len(palette(in, out))) / 10
	obj := (float64(len(objects(in)))/hwi + float64(len(objects(out)))/hwo) / 2
	return (pix + col + obj) / 3
}
