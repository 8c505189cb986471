// Package graphs holds reasoning-gym's graphs datasets as rg: envs:
// course_schedule, family_relationships, largest_island, quantum_lock and
// shortest_path. Each is a Task built from reasoning-gym 0.1.23's rules
// (config fields and defaults, question wording, answer form, score_answer)
// with Quarry's own generator; docs/envs.md ("The reasoning-gym catalogue") lists the differences.
package graphs

import (
	"fmt"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
	"strconv"
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

// scoreInteger is reasoning-gym's default score_answer for an integer
// answer, reading equivalent forms of the number as the number.
func scoreInteger(answer string, it *rg.Item) float64 {
	if n, ok := rg.ParseInteger(answer); ok {
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
	n, ok := rg.ParseInteger(answer)
	switch {
	case !ok:
		return "Your answer is not a whole number."
	case n < truth:
		return "Your answer is too low."
	default:
		return "Your answer is too high."
	}
}
