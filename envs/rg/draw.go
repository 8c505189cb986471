package rg

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Between draws uniformly from [lo, hi], as Python's random.randint does.
func Between(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// MinMax refuses an inverted min/max pair of options, blaming the max:
// "5 is below min_x 7".
func MinMax(minName, maxName string, lo, hi int) error {
	if lo > hi {
		return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%d is below %s %d", hi, minName, lo)}
	}
	return nil
}

// ParseInteger reads an integer answer written in any common way: "12",
// "12.0", "+12", "1,000", a final period. ok is false for anything else,
// a non-integer or a magnitude beyond 10^15.
func ParseInteger(s string) (int64, bool) {
	s = strings.TrimSuffix(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), ".")
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) || f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int64(f), true
}
