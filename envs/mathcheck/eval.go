package mathcheck

import (
	"errors"
	"math"
	"math/big"
	"math/cmplx"
)

var (
	// errBudget ends a comparison that has used up its work budget.
	errBudget = errors.New("mathcheck: work budget exhausted")
	// errDomain marks a point where an expression is undefined (1/0, 0^-1).
	errDomain = errors.New("mathcheck: undefined")
)

// maxBits bounds the size of an exact rational; larger results continue as
// floating point.
const maxBits = 4096

// value is an exact rational when r is non-nil, else a complex float.
type value struct {
	r *big.Rat
	c complex128
}

func (v value) complex() complex128 {
	if v.r != nil {
		f, _ := v.r.Float64()
		return complex(f, 0)
	}
	return v.c
}

func exact(r *big.Rat) value {
	if r.Num().BitLen()+r.Denom().BitLen() > maxBits {
		f, _ := r.Float64()
		if math.IsInf(f, 0) {
			return value{c: cmplx.NaN()}
		}
		return value{c: complex(f, 0)}
	}
	return value{r: r}
}

func ratInt(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// evaluator evaluates trees at one assignment of the variables.
type evaluator struct {
	env   map[string]value
	steps *int
}

func (e *evaluator) charge(n int) error {
	*e.steps -= n
	if *e.steps < 0 {
		return errBudget
	}
	return nil
}

func (e *evaluator) eval(n *node) (value, error) {
	if err := e.charge(1); err != nil {
		return value{}, err
	}
	switch n.kind {
	case nNum:
		return value{r: n.num}, nil
	case nVar:
		v, ok := e.env[n.name]
		if !ok {
			return value{}, errDomain
		}
		return v, nil
	case nConst:
		switch n.name {
		case "pi":
			return value{c: math.Pi}, nil
		case "e":
			return value{c: math.E}, nil
		case "i":
			return value{c: 1i}, nil
		default:
			return value{c: complex(math.Inf(1), 0)}, nil
		}
	}
	a, err := e.eval(n.a)
	if err != nil {
		return value{}, err
	}
	var b value
	if n.b != nil {
		if b, err = e.eval(n.b); err != nil {
			return value{}, err
		}
	}
	v, err := e.apply(n, a, b)
	if err == nil && v.r == nil && cmplx.IsInf(v.c) && finite(a) && (n.b == nil || finite(b)) {
		// Overflow is not infinity: 1000! must not equal 999!.
		v.c = cmplx.NaN()
	}
	return v, err
}

// apply computes n from the values of its operands.
func (e *evaluator) apply(n *node, a, b value) (value, error) {
	switch n.kind {
	case nNeg:
		if a.r != nil {
			return value{r: new(big.Rat).Neg(a.r)}, nil
		}
		return value{c: -a.c}, nil
	case nAdd, nSub, nMul, nDiv:
		return e.arith(n.kind, a, b)
	case nPow:
		return e.pow(a, b)
	case nRoot:
		if n.b == nil {
			return e.sqrt(a)
		}
		return e.root(a, b)
	case nFact:
		return e.factorial(a)
	case nBinom:
		return e.binom(a, b)
	case nAbs:
		if a.r != nil {
			return value{r: new(big.Rat).Abs(a.r)}, nil
		}
		return value{c: complex(cmplx.Abs(a.c), 0)}, nil
	case nFloor, nCeil:
		return e.round(n.kind, a)
	case nLog:
		num, den := cmplx.Log(a.complex()), cmplx.Log(b.complex())
		if den == 0 {
			return value{}, errDomain
		}
		return value{c: num / den}, nil
	case nFunc:
		return e.function(n.name, a)
	}
	return value{}, errSyntax
}

func (e *evaluator) arith(k nodeKind, a, b value) (value, error) {
	if a.r != nil && b.r != nil {
		bits := a.r.Num().BitLen() + a.r.Denom().BitLen() + b.r.Num().BitLen() + b.r.Denom().BitLen()
		if err := e.charge(bits / 64); err != nil {
			return value{}, err
		}
		r := new(big.Rat)
		switch k {
		case nAdd:
			r.Add(a.r, b.r)
		case nSub:
			r.Sub(a.r, b.r)
		case nMul:
			r.Mul(a.r, b.r)
		case nDiv:
			if b.r.Sign() == 0 {
				return value{}, errDomain
			}
			r.Quo(a.r, b.r)
		}
		return exact(r), nil
	}
	x, y := a.complex(), b.complex()
	switch k {
	case nAdd:
		return value{c: x + y}, nil
	case nSub:
		return value{c: x - y}, nil
	case nMul:
		return value{c: x * y}, nil
	}
	if y == 0 {
		return value{}, errDomain
	}
	return value{c: x / y}, nil
}

func (e *evaluator) pow(a, b value) (value, error) {
	if a.r != nil && b.r != nil {
		if b.r.IsInt() && b.r.Num().IsInt64() {
			n := b.r.Num().Int64()
			bits := int64(a.r.Num().BitLen() + a.r.Denom().BitLen())
			if n >= -maxBits && n <= maxBits && bits*absInt64(n) <= maxBits {
				if n < 0 && a.r.Sign() == 0 {
					return value{}, errDomain
				}
				if err := e.charge(int(bits*absInt64(n)) / 64); err != nil {
					return value{}, err
				}
				m := big.NewInt(absInt64(n))
				num := new(big.Int).Exp(a.r.Num(), m, nil)
				den := new(big.Int).Exp(a.r.Denom(), m, nil)
				if n < 0 {
					num, den = den, num
				}
				return exact(new(big.Rat).SetFrac(num, den)), nil
			}
		}
		// x^{p/2} with x a perfect square: exact.
		if b.r.Denom().Cmp(big.NewInt(2)) == 0 {
			if s, ok := exactSqrt(a.r); ok {
				return e.pow(value{r: s}, value{r: new(big.Rat).SetInt(b.r.Num())})
			}
		}
	}
	x, y := a.complex(), b.complex()
	if x == 0 {
		switch {
		case y == 0:
			return value{r: ratInt(1)}, nil
		case real(y) < 0:
			return value{}, errDomain
		}
		return value{c: 0}, nil
	}
	// Real powers in real arithmetic where that is exact enough.
	if imag(x) == 0 && imag(y) == 0 && (real(x) > 0 || real(y) == math.Trunc(real(y))) {
		return value{c: complex(math.Pow(real(x), real(y)), 0)}, nil
	}
	return value{c: cmplx.Pow(x, y)}, nil
}

func absInt64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// exactSqrt returns √r when r is the square of a rational.
func exactSqrt(r *big.Rat) (*big.Rat, bool) {
	if r.Sign() < 0 {
		return nil, false
	}
	num, den := new(big.Int).Sqrt(r.Num()), new(big.Int).Sqrt(r.Denom())
	if new(big.Int).Mul(num, num).Cmp(r.Num()) != 0 || new(big.Int).Mul(den, den).Cmp(r.Denom()) != 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(num, den), true
}

func (e *evaluator) sqrt(a value) (value, error) {
	if a.r != nil {
		if s, ok := exactSqrt(a.r); ok {
			return value{r: s}, nil
		}
	}
	x := a.complex()
	if imag(x) == 0 && real(x) >= 0 {
		return value{c: complex(math.Sqrt(real(x)), 0)}, nil
	}
	return value{c: cmplx.Sqrt(x)}, nil
}

// root is \sqrt[n]{a}; an odd root of a negative real is the real root, as
// the notation means.
func (e *evaluator) root(a, n value) (value, error) {
	if n.r != nil && n.r.Cmp(ratInt(2)) == 0 {
		return e.sqrt(a)
	}
	x, k := a.complex(), n.complex()
	if k == 0 {
		return value{}, errDomain
	}
	if imag(x) == 0 && imag(k) == 0 && real(x) < 0 && real(k) == math.Trunc(real(k)) && math.Mod(real(k), 2) != 0 {
		return value{c: complex(-math.Pow(-real(x), 1/real(k)), 0)}, nil
	}
	return e.pow(value{c: x}, value{c: 1 / k})
}

// maxFactorial bounds exact factorials and binomials.
const maxFactorial = 1000

func (e *evaluator) factorial(a value) (value, error) {
	if a.r != nil && a.r.IsInt() && a.r.Sign() >= 0 && a.r.Num().IsInt64() && a.r.Num().Int64() <= maxFactorial {
		n := a.r.Num().Int64()
		if err := e.charge(int(n)); err != nil {
			return value{}, err
		}
		f := new(big.Int).MulRange(1, n)
		if n == 0 {
			f.SetInt64(1)
		}
		return exact(new(big.Rat).SetInt(f)), nil
	}
	x := a.complex()
	if imag(x) != 0 || real(x) < 0 && real(x) == math.Trunc(real(x)) {
		return value{}, errDomain
	}
	return value{c: complex(math.Gamma(real(x)+1), 0)}, nil
}

func (e *evaluator) binom(a, b value) (value, error) {
	if a.r == nil || b.r == nil || !a.r.IsInt() || !b.r.IsInt() {
		return value{}, errDomain
	}
	n, k := a.r.Num(), b.r.Num()
	if !n.IsInt64() || !k.IsInt64() || n.Int64() < 0 || n.Int64() > maxFactorial {
		return value{}, errDomain
	}
	if k.Int64() < 0 || k.Int64() > n.Int64() {
		return value{r: ratInt(0)}, nil
	}
	if err := e.charge(int(n.Int64())); err != nil {
		return value{}, err
	}
	return exact(new(big.Rat).SetInt(new(big.Int).Binomial(n.Int64(), k.Int64()))), nil
}

func (e *evaluator) round(k nodeKind, a value) (value, error) {
	if a.r != nil {
		q := new(big.Int).Div(a.r.Num(), a.r.Denom()) // Euclidean: floor for a positive divisor
		if k == nCeil && !a.r.IsInt() {
			q.Add(q, big.NewInt(1))
		}
		return value{r: new(big.Rat).SetInt(q)}, nil
	}
	if imag(a.c) != 0 {
		return value{}, errDomain
	}
	if k == nFloor {
		return value{c: complex(math.Floor(real(a.c)), 0)}, nil
	}
	return value{c: complex(math.Ceil(real(a.c)), 0)}, nil
}

func (e *evaluator) function(name string, a value) (value, error) {
	if a.r != nil && a.r.Sign() == 0 {
		// Exact values at zero keep 0 = \sin 0 exact.
		switch name {
		case "sin", "tan", "arcsin", "arctan", "sinh", "tanh":
			return value{r: ratInt(0)}, nil
		case "cos", "cosh", "exp", "sec":
			return value{r: ratInt(1)}, nil
		}
	}
	if a.r != nil && a.r.Cmp(ratInt(1)) == 0 && (name == "ln" || name == "log") {
		return value{r: ratInt(0)}, nil
	}
	x := a.complex()
	if imag(x) == 0 {
		r := real(x)
		var y float64
		ok := true
		switch name {
		case "sin":
			y = math.Sin(r)
		case "cos":
			y = math.Cos(r)
		case "tan":
			y = math.Tan(r)
		case "sinh":
			y = math.Sinh(r)
		case "cosh":
			y = math.Cosh(r)
		case "tanh":
			y = math.Tanh(r)
		case "arctan":
			y = math.Atan(r)
		case "exp":
			y = math.Exp(r)
		case "ln", "log":
			ok = r > 0
			y = math.Log(r)
		case "arcsin":
			ok = r >= -1 && r <= 1
			y = math.Asin(r)
		case "arccos":
			ok = r >= -1 && r <= 1
			y = math.Acos(r)
		default:
			ok = false
		}
		if ok {
			return value{c: complex(y, 0)}, nil
		}
	}
	var y complex128
	switch name {
	case "sin":
		y = cmplx.Sin(x)
	case "cos":
		y = cmplx.Cos(x)
	case "tan":
		y = cmplx.Tan(x)
	case "cot":
		y = 1 / cmplx.Tan(x)
	case "sec":
		y = 1 / cmplx.Cos(x)
	case "csc":
		y = 1 / cmplx.Sin(x)
	case "arcsin":
		y = cmplx.Asin(x)
	case "arccos":
		y = cmplx.Acos(x)
	case "arctan":
		y = cmplx.Atan(x)
	case "sinh":
		y = cmplx.Sinh(x)
	case "cosh":
		y = cmplx.Cosh(x)
	case "tanh":
		y = cmplx.Tanh(x)
	case "ln", "log":
		if x == 0 {
			return value{}, errDomain
		}
		y = cmplx.Log(x)
	case "exp":
		y = cmplx.Exp(x)
	default:
		return value{}, errSyntax
	}
	return value{c: y}, nil
}

// finite reports whether v is a usable number (not NaN, not infinite).
func finite(v value) bool {
	if v.r != nil {
		return true
	}
	return !cmplx.IsNaN(v.c) && !cmplx.IsInf(v.c)
}

// sameValue compares two values: exactly when both are exact, otherwise with
// a relative tolerance rel and an absolute floor of absTol. Infinities are
// equal only to the same infinity.
func sameValue(a, b value, rel float64) bool {
	if a.r != nil && b.r != nil {
		return a.r.Cmp(b.r) == 0
	}
	x, y := a.complex(), b.complex()
	if cmplx.IsNaN(x) || cmplx.IsNaN(y) {
		return false
	}
	if cmplx.IsInf(x) || cmplx.IsInf(y) {
		return x == y
	}
	d := cmplx.Abs(x - y)
	return d <= rel*math.Max(cmplx.Abs(x), cmplx.Abs(y))+absTol
}

// absTol is the absolute tolerance for float comparisons, so that
// \sin\pi (1.2e-16) equals 0.
const absTol = 1e-10
