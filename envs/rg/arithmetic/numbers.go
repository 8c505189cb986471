package arithmetic

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// Shared answer parsing for the family's numeric tasks. reasoning-gym reads
// answers with Python's Decimal, int and float; these helpers accept the same
// plain forms ("+01,000.00" is 1000 where commas are stripped), bounded so a
// hostile answer ("1e999999999") cannot make the scorer allocate without limit.

// maxAnswerLen bounds the answers the numeric parsers look at.
const maxAnswerLen = 4096

// maxExponent bounds a decimal exponent the parsers accept.
const maxExponent = 1000

var decimalPattern = regexp.MustCompile(`^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$`)

// parseDecimal reads a decimal number the way Python's Decimal does (sign,
// digits, optional point, optional exponent; no fractions, no hex), exactly.
func parseDecimal(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 0 || len(s) > maxAnswerLen || !decimalPattern.MatchString(s) {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	return r, ok
}

// parseNumber is parseDecimal after removing thousands separators (commas
// and spaces between digits: "1,000", "1 000").
func parseNumber(s string) (*big.Rat, bool) {
	return parseDecimal(stripSeparators(s))
}

// stripSeparators removes commas, and spaces that stand between two digits.
func stripSeparators(s string) string {
	s = strings.TrimSpace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ',' {
			continue
		}
		if c == ' ' && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// decimalReward is reasoning-gym's utils.compute_decimal_reward with
// strip_commas: 1 when the answer equals the truth as a decimal number, else
// the default length-ratio credit when the truth occurs in the answer (both
// with commas removed). Quarry also ignores spaces between digits.
func decimalReward(answer, truth string) float64 {
	a := strings.ReplaceAll(answer, ",", "")
	t := strings.ReplaceAll(truth, ",", "")
	if x, ok := parseNumber(a); ok {
		if y, ok := parseDecimal(t); ok && x.Cmp(y) == 0 {
			return 1
		}
	}
	return rg.DefaultScore(a, t)
}

// integerReward is reasoning-gym's default score_answer for an integer
// truth, not stricter on number formats: an answer equal to the truth as a
// number ("1,000", "1000.0", "+1000") scores 1; anything else gets the
// default containment credit.
func integerReward(answer, truth string) float64 {
	if x, ok := parseNumber(answer); ok {
		if y, ok := parseDecimal(truth); ok && x.Cmp(y) == 0 {
			return 1
		}
	}
	return rg.DefaultScore(answer, truth)
}

// numericFeedback tells a wrong numeric attempt whether it was too high or
// too low, never the answer.
func numericFeedback(answer string, it *rg.Item, _ float64) string {
	x, ok := parseNumber(answer)
	if !ok {
		return "Your answer is not a number."
	}
	y, ok := parseDecimal(it.Answer)
	if !ok {
		return "Your answer is incorrect."
	}
	switch x.Cmp(y) {
	case 1:
		return "Your answer is too high."
	case -1:
		return "Your answer is too low."
	}
	return "Your answer has the right value but is not in the expected form."
}

// randInt64 draws from [lo, hi], both inclusive.
func randInt64(rng *rand.Rand, lo, hi int64) int64 { return lo + rng.Int64N(hi-lo+1) }

// randBig draws from [lo, hi], both inclusive.
func randBig(rng *rand.Rand, lo, hi *big.Int) *big.Int {
	span := new(big.Int).Sub(hi, lo)
	span.Add(span, big.NewInt(1))
	if span.IsInt64() {
		return new(big.Int).Add(lo, big.NewInt(rng.Int64N(span.Int64())))
	}
	// Draw 64-bit words until the value is below span (rejection, expected
	// fewer than two draws).
	words := (span.BitLen() + 63) / 64
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(span.BitLen())), big.NewInt(1))
	for {
		v := new(big.Int)
		for range words {
			v.Lsh(v, 64)
			v.Or(v, new(big.Int).SetUint64(rng.Uint64()))
		}
		v.And(v, mask)
		if v.Cmp(span) < 0 {
			return v.Add(v, lo)
		}
	}
}

// pow10 as a big.Int.
func bigPow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// pyFloat formats f as Python's repr(float) does: the shortest digits that
// round-trip, fixed notation for exponents -4..15 (with ".0" on integers),
// else d.ddde±XX.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // -1.2345e+06
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		sign := "+"
		if x < 0 {
			sign, x = "-", -x
		}
		return fmt.Sprintf("%se%s%02d", mant, sign, x)
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// groupThousands inserts commas into the integer part of a plain decimal
// string (Python's "{:,}").
func groupThousands(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	out := sign + b.String()
	if hasFrac {
		out += "." + frac
	}
	return out
}

// guessNear returns a well-formed integer guess in [0, 2|truth|+10]: the
// random policy of the integer tasks.
func guessNear(rng *rand.Rand, truth string) string {
	y, ok := new(big.Int).SetString(truth, 10)
	if !ok {
		return strconv.Itoa(rng.IntN(1000))
	}
	hi := new(big.Int).Abs(y)
	hi.Lsh(hi, 1)
	hi.Add(hi, big.NewInt(10))
	return randBig(rng, big.NewInt(0), hi).String()
}

// scoreDecimal and scoreInteger adapt the rewards to rg.Task.Score.
func scoreDecimal(answer string, it *rg.Item) float64 { return decimalReward(answer, it.Answer) }

func scoreInteger(answer string, it *rg.Item) float64 { return integerReward(answer, it.Answer) }
