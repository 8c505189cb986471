package graphs

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// CourseOptions are reasoning-gym's CourseScheduleConfig. reasoning-gym
// leaves the counts open (its curriculum reaches 100 courses); Quarry
// allows up to 200 courses, prerequisites and cycle lengths.
type CourseOptions struct {
	MinNumCourses       int     `json:"min_num_courses" range:"3,200"`
	MaxNumCourses       int     `json:"max_num_courses" range:"3,200"`
	MinNumPrerequisites int     `json:"min_num_prerequisites" range:"1,200"`
	MaxNumPrerequisites int     `json:"max_num_prerequisites" range:"1,200"`
	MinCycleLength      int     `json:"min_cycle_length" range:"3,200"`
	MaxCycleLength      int     `json:"max_cycle_length" range:"3,200"`
	PSolvable           float64 `json:"p_solvable" range:"0,1"`
}

// Validate is reasoning-gym's: each min ≤ its max.
func (o CourseOptions) Validate() error {
	if err := rg.MinMax("min_num_courses", "max_num_courses", o.MinNumCourses, o.MaxNumCourses); err != nil {
		return err
	}
	if err := rg.MinMax("min_num_prerequisites", "max_num_prerequisites", o.MinNumPrerequisites, o.MaxNumPrerequisites); err != nil {
		return err
	}
	return rg.MinMax("min_cycle_length", "max_cycle_length", o.MinCycleLength, o.MaxCycleLength)
}

const courseTemplate = `There are a total of %d courses you have to take, labeled from 0 to %d.
You are given the following list of prerequisites, where prerequisites[i] = (a_i, b_i) indicates that you must first take course b_i if you want to take course a_i:
%s

Return True if you can finish all courses considering the prerequisites, or False otherwise.
`

// CourseSchedule is reasoning-gym's course_schedule: can every course be
// taken given the prerequisites (is the prerequisite graph acyclic)?
var CourseSchedule = rg.Task[CourseOptions]{
	Name:        "course_schedule",
	Description: "reasoning-gym course_schedule: whether all courses can be finished given their prerequisites (True or False).",
	Revision:    1,
	Defaults: CourseOptions{MinNumCourses: 5, MaxNumCourses: 10, MinNumPrerequisites: 1, MaxNumPrerequisites: 2,
		MinCycleLength: 3, MaxCycleLength: 5, PSolvable: 0.5},
	Generate: func(rng *rand.Rand, o CourseOptions) (rg.Item, error) {
		n := rg.Between(rng, o.MinNumCourses, o.MaxNumCourses)
		courses := rng.Perm(n)
		solvable := rng.Float64() < o.PSolvable
		// reasoning-gym's construction: each course takes prerequisites
		// among those before it in a random order; an unsolvable schedule
		// adds a cycle through a random sample of courses.
		var pairs [][2]int
		for i := n - 1; i > 0; i-- {
			k := min(i, rg.Between(rng, o.MinNumPrerequisites, o.MaxNumPrerequisites))
			for _, j := range sample(rng, i, k) {
				pairs = append(pairs, [2]int{courses[i], courses[j]})
			}
		}
		if !solvable {
			k := min(n, rg.Between(rng, o.MinCycleLength, o.MaxCycleLength))
			cycle := sample(rng, n, k)
			for i := range k {
				pairs = append(pairs, [2]int{courses[cycle[i]], courses[cycle[(i+1)%k]]})
			}
		}
		seen := map[[2]int]bool{}
		uniq := pairs[:0]
		for _, p := range pairs {
			if !seen[p] {
				seen[p] = true
				uniq = append(uniq, p)
			}
		}
		pairs = uniq
		rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
		can := canFinish(n, pairs)
		text := make([]string, len(pairs))
		for i, p := range pairs {
			text[i] = fmt.Sprintf("(%d, %d)", p[0], p[1])
		}
		answer := "False"
		if can {
			answer = "True"
		}
		return rg.Item{
			Question: fmt.Sprintf(courseTemplate, n, n-1, "["+strings.Join(text, ", ")+"]"),
			Answer:   answer,
			Meta:     map[string]any{"courses": courses, "prerequisites": pairs, "solution": can, "solvable": solvable},
		}, nil
	},
	// reasoning-gym compares strings exactly; Quarry reads true and false
	// in any case.
	Score: func(answer string, it *rg.Item) float64 {
		if strings.EqualFold(strings.TrimSuffix(answer, "."), it.Answer) {
			return 1
		}
		return rg.DefaultScore(answer, it.Answer)
	},
	Guess: func(rng *rand.Rand, _ *rg.Item) string { return strconv.FormatBool(rng.IntN(2) == 0) },
}

// sample returns k distinct indices below n in random order (Python's
// random.sample over range(n)).
func sample(rng *rand.Rand, n, k int) []int {
	p := rng.Perm(n)
	return p[:k]
}

// canFinish reports whether the prerequisite graph has no cycle (Kahn's
// algorithm).
func canFinish(n int, pairs [][2]int) bool {
	indeg := make([]int, n)
	out := make([][]int, n)
	for _, p := range pairs {
		out[p[1]] = append(out[p[1]], p[0])
		indeg[p[0]]++
	}
	var ready []int
	for c, d := range indeg {
		if d == 0 {
			ready = append(ready, c)
		}
	}
	done := 0
	for len(ready) > 0 {
		c := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, a := range out[c] {
			if indeg[a]--; indeg[a] == 0 {
				ready = append(ready, a)
			}
		}
	}
	return done == n
}
