// Package graphs holds reasoning-gym's graphs datasets as rg: envs:
// course_schedule, family_relationships, largest_island, quantum_lock and
// shortest_path. Each is a Task built from reasoning-gym 0.1.23's rules
// (config fields and defaults, question wording, answer form, score_answer)
// with Quarry's own generator; docs/envs.md ("The reasoning-gym catalogue") lists the differences.
package graphs

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds every task of the package (and the retry variants of those
// where a second attempt makes sense).
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, LargestIsland) },
		func(r *envs.Registry) error { return rg.Register(r, ShortestPath) },
		func(r *envs.Registry) error { return rg.Register(r, CourseSchedule) },
		func(r *envs.Registry) error { return rg.Register(r, QuantumLock) },
		func(r *envs.Registry) error { return rg.Register(r, FamilyRelationships) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("graphs: %w", err)
		}
	}
	return nil
}

// between draws uniformly from [lo, hi], as Python's randint does.
func between(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// rangeError names max when a min/max pair is inverted.
func rangeError(minName, maxName string, lo, hi int) error {
	if lo > hi {
		return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%d is below %s %d", hi, minName, lo)}
	}
	return nil
}

// parseInteger reads an integer answer written in any common way: "12",
// "12.0", "+12", "1,000". ok is false for anything else.
func parseInteger(s string) (int64, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	s = strings.TrimSuffix(s, ".")
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != float64(int64(f)) || f > 1e15 || f < -1e15 {
		return 0, false
	}
	return int64(f), true
}

// scoreInteger is reasoning-gym's default score_answer for an integer
// answer, reading equivalent forms of the number as the number.
func scoreInteger(answer string, it *rg.Item) float64 {
	if n, ok := parseInteger(answer); ok {
		if strconv.FormatInt(n, 10) == it.Answer {
			return 1
		}
		return 0
	}
	return rg.DefaultScore(answer, it.Answer)
}

// tooHighOrLow is the retry feedback of a numeric answer.
func tooHighOrLow(answer string, it *rg.Item, _ float64) string {
	truth, _ := strconv.ParseInt(it.Answer, 10, 64)
	n, ok := parseInteger(answer)
	switch {
	case !ok:
		return "Your answer is not a whole number."
	case n < truth:
		return "Your answer is too low."
	default:
		return "Your answer is too high."
	}
}
