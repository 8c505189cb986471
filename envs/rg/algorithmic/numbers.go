package algorithmic

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// registerNumbers adds the family's numbers tasks: ab, base_conversion, binary_alternation, binary_matrix,
// count_primes, cryptarithm, game_of_life, game_of_life_halting,
// graph_color, jugs, manipulate_matrix, number_filtering, number_sorting,
// pool_matrix, rotate_matrix, rotten_oranges, spiral_matrix.
func registerNumbers(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, numberSortingTask) },
		func(r *envs.Registry) error { return rg.Register(r, numberFilteringTask) },
		func(r *envs.Registry) error { return rg.Register(r, baseConversionTask) },
		func(r *envs.Registry) error { return rg.Register(r, countPrimesTask) },
		func(r *envs.Registry) error { return rg.Register(r, binaryAlternationTask) },
		func(r *envs.Registry) error { return rg.Register(r, binaryMatrixTask) },
		func(r *envs.Registry) error { return rg.Register(r, rotateMatrixTask) },
		func(r *envs.Registry) error { return rg.Register(r, spiralMatrixTask) },
		func(r *envs.Registry) error { return rg.Register(r, manipulateMatrixTask) },
		func(r *envs.Registry) error { return rg.Register(r, poolMatrixTask) },
		func(r *envs.Registry) error { return rg.Register(r, rottenOrangesTask) },
		func(r *envs.Registry) error { return rg.Register(r, gameOfLifeTask) },
		func(r *envs.Registry) error { return rg.Register(r, gameOfLifeHaltingTask) },
		func(r *envs.Registry) error { return rg.Register(r, abTask) },
		func(r *envs.Registry) error { return rg.Register(r, jugsTask) },
		func(r *envs.Registry) error { return rg.Register(r, graphColorTask) },
		func(r *envs.Registry) error { return rg.Register(r, cryptarithmTask) },
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}

// Shared by the numbers tasks. The names say "num" or "grid" so they do not
// meet the words tasks' helpers in this package.

// maxNumAnswer bounds the answers the numbers scorers parse.
const maxNumAnswer = 1 << 16

// numRandInt draws from [lo, hi], both inclusive (Python's randint).
func numRandInt(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// numUniform draws from [lo, hi] (Python's uniform).
func numUniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

// numBelow is the OptionError for max < min.
func numBelow(maxName string, maxV any, minName string, minV any) error {
	return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%v is below %s %v", maxV, minName, minV)}
}

// numPyFloat formats x as Python's str(float) does: the shortest repr, with
// ".0" for integral values and exponent form below 1e-4 or from 1e16.
func numPyFloat(x float64) string {
	ax := math.Abs(x)
	if ax != 0 && (ax < 1e-4 || ax >= 1e16) {
		s := strconv.FormatFloat(x, 'e', -1, 64)
		return s
	}
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// numPyRound is numpy's round(x, d) for the values the tasks draw: round half
// to even on the decimal representation.
func numPyRound(x float64, d int) float64 {
	s := strconv.FormatFloat(x, 'f', d, 64)
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// numPyList formats strings as Python's str(list[str]): ['a', 'b'].
func numPyList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = "'" + s + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// numParseList reads a list answer: [a, b], ['a', "b"], or bare a, b
// (brackets optional), each element with its quotes removed. An empty list
// is [] only.
func numParseList(s string) ([]string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxNumAnswer {
		return nil, false
	}
	if strings.HasPrefix(s, "[") != strings.HasSuffix(s, "]") {
		return nil, false
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	if s == "" {
		return []string{}, true
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0] {
			p = strings.TrimSpace(p[1 : len(p)-1])
		}
		if p == "" || strings.ContainsAny(p, "[]'\"") {
			return nil, false
		}
		parts[i] = p
	}
	return parts, true
}

// numParseFloats reads each element as a float (Python's float()).
func numParseFloats(items []string) ([]float64, bool) {
	out := make([]float64, len(items))
	for i, s := range items {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

var numIntPattern = regexp.MustCompile(`^[+-]?\d+(?:\.0*)?$`)

// numParseInt reads an integer answer: "12", "+12", "12.0", "1,234",
// "1 234".
func numParseInt(s string) (*big.Int, bool) {
	s = strings.TrimSpace(s)
	if len(s) == 0 || len(s) > 4096 {
		return nil, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ',' || (c == ' ' && i > 0 && i+1 < len(s) && numIsDigit(s[i-1]) && numIsDigit(s[i+1])) {
			continue
		}
		b.WriteByte(c)
	}
	t := b.String()
	if !numIntPattern.MatchString(t) {
		return nil, false
	}
	t, _, _ = strings.Cut(strings.TrimPrefix(t, "+"), ".")
	return new(big.Int).SetString(t, 10)
}

func numIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// numScoreInt is reasoning-gym's default score for an integer truth,
// lenient on the number's form: equal as an integer scores 1, else the
// default containment credit.
func numScoreInt(answer string, it *rg.Item) float64 {
	if x, ok := numParseInt(answer); ok {
		if y, ok := new(big.Int).SetString(it.Answer, 10); ok && x.Cmp(y) == 0 {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}

// numIntFeedback says too high or too low, never the answer.
func numIntFeedback(answer string, it *rg.Item, _ float64) string {
	x, ok := numParseInt(answer)
	if !ok {
		return "Your answer is not an integer."
	}
	y, _ := new(big.Int).SetString(it.Answer, 10)
	switch x.Cmp(y) {
	case 1:
		return "Your answer is too high."
	case -1:
		return "Your answer is too low."
	}
	return "Your answer has the right value but is not in the expected form."
}

// numGuessNear guesses an integer near the truth's size (not at it).
func numGuessNear(rng *rand.Rand, truth string) string {
	n, err := strconv.ParseInt(truth, 10, 64)
	if err != nil {
		return strconv.Itoa(rng.IntN(1000))
	}
	span := max(10, 2*numAbs64(n)+10)
	return strconv.FormatInt(n-span/2+rng.Int64N(span+1), 10)
}

func numAbs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
