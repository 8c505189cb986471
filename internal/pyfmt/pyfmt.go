// Package pyfmt prints values as Python does, where Quarry must match text a
// Python program (GEM, a dataset's own tooling) would produce byte for byte.
package pyfmt

import (
	"fmt"
	"strconv"
	"strings"
)

// Float is Python's repr of a finite float: the shortest digits that
// round-trip, positional for exponents -4 ≤ e < 16, scientific otherwise
// (1e+16, 1.5e-05). Callers spell infinities and NaN as their context does
// (repr: inf, nan; json.dumps: Infinity, NaN).
func Float(f float64) string {
	s := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	if exp < 0 {
		return sign + "0." + strings.Repeat("0", -exp-1) + digits
	}
	if len(digits) <= exp+1 {
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
	}
	return sign + digits[:exp+1] + "." + digits[exp+1:]
}
