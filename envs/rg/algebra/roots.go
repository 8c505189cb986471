package algebra

import (
	"errors"
	"math/big"
)

// Real roots of a polynomial with rational coefficients, found with exact
// arithmetic: a Sturm sequence counts the distinct real roots in an
// interval, bisection isolates each, and further bisection narrows it to
// below 1e-13 relative, so the root rounded to 4 decimals is the true
// root's rounding (ties apart). Multiple roots are counted once, as
// sympy's solve lists them.

// upoly is a univariate polynomial: coefficient i multiplies x**i.
type upoly []*big.Rat

func (p upoly) trim() upoly {
	for len(p) > 0 && p[len(p)-1].Sign() == 0 {
		p = p[:len(p)-1]
	}
	return p
}

func (p upoly) deriv() upoly {
	if len(p) <= 1 {
		return nil
	}
	out := make(upoly, len(p)-1)
	for i := 1; i < len(p); i++ {
		out[i-1] = new(big.Rat).Mul(p[i], big.NewRat(int64(i), 1))
	}
	return out.trim()
}

// rem is the remainder of p divided by q (q nonzero).
func (p upoly) rem(q upoly) upoly {
	r := make(upoly, len(p))
	for i, c := range p {
		r[i] = new(big.Rat).Set(c)
	}
	r = r.trim()
	lead := q[len(q)-1]
	for len(r) >= len(q) {
		f := new(big.Rat).Quo(r[len(r)-1], lead)
		shift := len(r) - len(q)
		for i, c := range q {
			r[i+shift].Sub(r[i+shift], new(big.Rat).Mul(f, c))
		}
		r = r[:len(r)-1].trim()
	}
	return r
}

// sign of p at x.
func (p upoly) sign(x *big.Rat) int {
	v := new(big.Rat)
	for i := len(p) - 1; i >= 0; i-- {
		v.Mul(v, x)
		v.Add(v, p[i])
	}
	return v.Sign()
}

// sturm returns p's Sturm sequence.
func sturm(p upoly) []upoly {
	seq := []upoly{p, p.deriv()}
	for len(seq[len(seq)-1]) > 0 {
		a, b := seq[len(seq)-2], seq[len(seq)-1]
		r := a.rem(b)
		for i := range r {
			r[i].Neg(r[i])
		}
		seq = append(seq, r)
	}
	return seq[:len(seq)-1]
}

// changes counts the sign changes of the sequence at x, zeros skipped.
func changes(seq []upoly, x *big.Rat) int {
	n, last := 0, 0
	for _, q := range seq {
		s := q.sign(x)
		if s == 0 {
			continue
		}
		if last != 0 && s != last {
			n++
		}
		last = s
	}
	return n
}

// maxBisections bounds isolation and refinement steps per root.
const maxBisections = 400

var errRoots = errors.New("root isolation did not converge")

// realRoots returns p's distinct real roots in increasing order, as
// float64. p must have degree at least 1.
func realRoots(p upoly) ([]float64, error) {
	p = p.trim()
	if len(p) < 2 {
		return nil, nil
	}
	seq := sturm(p)
	// Cauchy's bound: every root is below 1 + max |a_i / a_n|.
	lead := new(big.Rat).Abs(p[len(p)-1])
	bound := big.NewRat(1, 1)
	for _, c := range p[:len(p)-1] {
		r := new(big.Rat).Abs(c)
		r.Quo(r, lead)
		if r.Cmp(bound) > 0 {
			bound = r
		}
	}
	bound.Add(bound, big.NewRat(1, 1))
	lo := new(big.Rat).Neg(bound)
	var roots []float64
	type span struct {
		a, b   *big.Rat
		va, vb int
		depth  int
	}
	stack := []span{{lo, bound, changes(seq, lo), changes(seq, bound), 0}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := s.va - s.vb
		switch {
		case n == 0:
			continue
		case n == 1:
			r, err := refine(p, seq, s.a, s.b, s.va)
			if err != nil {
				return nil, err
			}
			roots = append(roots, r)
			continue
		case s.depth > maxBisections:
			return nil, errRoots
		}
		m, ok := split(p, s.a, s.b)
		if !ok {
			return nil, errRoots
		}
		vm := changes(seq, m)
		stack = append(stack, span{s.a, m, s.va, vm, s.depth + 1}, span{m, s.b, vm, s.vb, s.depth + 1})
	}
	sortFloats(roots)
	return roots, nil
}

// split returns a point strictly inside (a, b) that is not a root of p.
// One of its ten candidates is not, for degree up to 9.
func split(p upoly, a, b *big.Rat) (*big.Rat, bool) {
	w := new(big.Rat).Sub(b, a)
	for _, f := range [][2]int64{{1, 2}, {1, 3}, {2, 3}, {2, 5}, {3, 5}, {3, 7}, {4, 7}, {5, 11}, {6, 11}, {7, 13}} {
		m := new(big.Rat).Mul(w, big.NewRat(f[0], f[1]))
		m.Add(m, a)
		if p.sign(m) != 0 {
			return m, true
		}
	}
	return nil, false
}

// refine narrows the one root in (a, b) (va sign changes at a).
func refine(p upoly, seq []upoly, a, b *big.Rat, va int) (float64, error) {
	a, b = new(big.Rat).Set(a), new(big.Rat).Set(b)
	half := big.NewRat(1, 2)
	for range maxBisections {
		af, _ := a.Float64()
		bf, _ := b.Float64()
		if bf-af <= 1e-13*max(1, abs(af), abs(bf)) {
			m := new(big.Rat).Add(a, b)
			f, _ := m.Mul(m, half).Float64()
			return f, nil
		}
		m := new(big.Rat).Add(a, b)
		m.Mul(m, half)
		if p.sign(m) == 0 {
			f, _ := m.Float64()
			return f, nil
		}
		if vm := changes(seq, m); va-vm == 1 {
			b = m
		} else {
			a, va = m, vm
		}
	}
	return 0, errRoots
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}
