package algebra

import (
	"math"
	"math/big"
	"math/cmplx"
	"strings"
)

// The integration tasks accept any antiderivative: reasoning-gym parses the
// answer with sympy, differentiates it and asks sympy.simplify whether the
// derivative minus the integrand is 0. Quarry differentiates the parsed
// answer exactly (forward-mode, with dual numbers) and compares it with the
// integrand at sample points of the integrand's real domain: exactly, in
// rational arithmetic, when both are rational functions; in complex128
// within a relative 1e-6 otherwise. Any other symbol (C, K, C1) is a
// constant, as in sympy.diff.

// samplePoints are where antiderivatives are compared: both signs, from
// near 0 (asin(3x) lives on |x| < 1/3) to past 30 (sqrt(x - 10) starts at
// 10), none at 0 or at a small integer, where a negative power or a
// factor could vanish by accident.
var samplePoints = func() []*big.Rat {
	var ps []*big.Rat
	for _, f := range [][2]int64{
		{1, 37}, {3, 29}, {1, 7}, {2, 9}, {7, 23}, {5, 11}, {9, 13}, {10, 11},
		{13, 10}, {17, 9}, {5, 2}, {37, 11}, {47, 10}, {61, 9}, {83, 7}, {127, 9},
		{173, 8}, {251, 7},
	} {
		ps = append(ps, big.NewRat(f[0], f[1]), big.NewRat(-f[0], f[1]))
	}
	return ps
}()

// minPoints is how many usable sample points a comparison needs.
const minPoints = 3

// Tolerances of the floating comparison.
const (
	relTol = 1e-6
	absTol = 1e-9
)

// antiderivativeVerdict explains a comparison.
type antiderivativeVerdict int

const (
	verdictOK        antiderivativeVerdict = iota
	verdictUnparsed                        // the answer is no expression
	verdictWrong                           // its derivative differs from the integrand
	verdictUndecided                       // too few points where the integrand is real and finite
)

// prepareAntiderivative cuts what an answer may carry around the
// expression: a leading "F(x) =" and a trailing "dx"-free "+ C" are kept as
// they are (C is a constant), but "∫ … dx = F" keeps only F.
func prepareAntiderivative(answer string) string {
	if i := strings.LastIndex(answer, "="); i >= 0 {
		answer = answer[i+1:]
	}
	return strings.TrimSpace(answer)
}

// checkAntiderivative reports whether answer's derivative with respect to
// variable is integrand.
func checkAntiderivative(answer string, integrand *node, variable string) antiderivativeVerdict {
	f, err := parseExpr(prepareAntiderivative(answer))
	if err != nil {
		return verdictUnparsed
	}
	used := 0
	for _, x := range samplePoints {
		// Exact when both sides are rational functions.
		if want, ok := evalRat(integrand, variable, x); ok {
			if got, ok := evalRat(f, variable, x); ok {
				if got.d.Cmp(want.v) != 0 {
					return verdictWrong
				}
				used++
				continue
			}
		}
		xf, _ := x.Float64()
		want := evalDual(integrand, variable, complex(xf, 0)).v
		if !usable(want) {
			continue
		}
		got := evalDual(f, variable, complex(xf, 0)).d
		if cmplx.IsNaN(got) || cmplx.IsInf(got) {
			return verdictWrong
		}
		scale := math.Max(cmplx.Abs(want), cmplx.Abs(got))
		if cmplx.Abs(got-want) > relTol*scale+absTol {
			return verdictWrong
		}
		used++
	}
	if used < minPoints {
		return verdictUndecided
	}
	return verdictOK
}

// usable: the integrand is real and finite there.
func usable(v complex128) bool {
	if cmplx.IsNaN(v) || cmplx.IsInf(v) {
		return false
	}
	return math.Abs(imag(v)) <= 1e-12*(1+math.Abs(real(v))) && math.Abs(real(v)) < 1e200
}
