package graphs

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

// ceilings raise the random policy's allowed mean where a guess can hit.
var ceilings = map[string]float64{"rg:course_schedule": 0.6}

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{Ceilings: ceilings})
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }

type scoreCase struct {
	answer string
	want   float64
}

func checkScores(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

func item[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestLargestIsland(t *testing.T) {
	grid := [][]int{
		{1, 1, 0, 0},
		{0, 1, 0, 1},
		{1, 0, 0, 1},
		{1, 1, 1, 1},
	}
	if got := largestIsland(grid); got != 7 {
		t.Fatalf("largest island %d, want 7", got)
	}
	if got := largestIsland([][]int{{0, 0}}); got != 0 {
		t.Fatalf("no island: %d", got)
	}
	it := item(t, LargestIsland, LargestIsland.Defaults, 3)
	if !strings.HasPrefix(it.Question, "You are given the following ") || !strings.Contains(it.Question, "Return the maximum area of an island in grid.") {
		t.Fatalf("question %q", it.Question)
	}
	// Every island's cells are 1 and the answer is what the grid holds.
	g := it.Meta["grid"].([][]int)
	if want := largestIsland(g); it.Answer != strconv.Itoa(want) {
		t.Fatalf("answer %s, grid says %d", it.Answer, want)
	}
	checkScores(t, scoreInteger, &rg.Item{Answer: "12"}, []scoreCase{
		{"12", 1}, {"12.0", 1}, {"+12", 1}, {" 12 ", 1},
		{"13", 0}, {"0", 0}, {"area 12", 2.0 / 7}, {"", 0},
	})
}

func TestShortestPath(t *testing.T) {
	g := &pathGrid{cells: [][]byte{
		[]byte("*OO"),
		[]byte("XXO"),
		[]byte("#OO"),
	}, start: [2]int{0, 0}, end: [2]int{2, 0}}
	p := g.shortest()
	if strings.Join(p, " ") != "right right down down left left" {
		t.Fatalf("shortest %v", p)
	}
	it := &rg.Item{Answer: strings.Join(p, " "), Data: g}
	checkScores(t, scorePath, it, []scoreCase{
		{"right right down down left left", 1},
		{"Right, Right, Down, Down, Left, Left", 1},
		{"right → right → down → down → left → left", 1},
		{"right left right right down down left left", 0.5}, // valid, longer
		{"down down", 0},        // blocked
		{"right right down", 0}, // does not end on #
		{"up", 0},               // off the grid
		{"infeasible", 0},
		{"", 0},
		{"right right down down left left please", 0},
	})
	blocked := &pathGrid{cells: [][]byte{[]byte("*X#")}, start: [2]int{0, 0}, end: [2]int{0, 2}}
	if blocked.shortest() != nil {
		t.Fatal("a path through X")
	}
	checkScores(t, scorePath, &rg.Item{Answer: "infeasible", Data: blocked}, []scoreCase{
		{"infeasible", 1}, {"Infeasible", 1}, {"right right", 0}, {"", 0},
	})
	// Items agree with an independent check: the answer is a valid path of
	// BFS length or infeasible.
	for seed := range uint64(50) {
		it := item(t, ShortestPath, ShortestPath.Defaults, seed)
		g := it.Data.(*pathGrid)
		if it.Answer == "infeasible" {
			continue
		}
		steps, ok := parseMoves(it.Answer)
		if !ok || g.walk(steps) != walkEnd {
			t.Fatalf("seed %d: reference %q is not a valid path", seed, it.Answer)
		}
		if d := manhattan(g.start, g.end); len(steps) < d {
			t.Fatalf("seed %d: %d moves, shorter than distance %d", seed, len(steps), d)
		}
	}
}

func manhattan(a, b [2]int) int {
	d := 0
	for i := range a {
		if a[i] > b[i] {
			d += a[i] - b[i]
		} else {
			d += b[i] - a[i]
		}
	}
	return d
}

func TestOptionErrors(t *testing.T) {
	r := registry(t)
	for id, cases := range map[string][]envtest.OptionCase{
		"rg:largest_island": {
			{Options: map[string]any{"min_rows": 11}, Option: "max_rows"},
			{Options: map[string]any{"min_num_islands": 6}, Option: "max_num_islands"},
			{Options: map[string]any{"max_island_size": 1001}, Option: "max_island_size"},
		},
		"rg:course_schedule": {
			{Options: map[string]any{"min_num_courses": 2}, Option: "min_num_courses"},
			{Options: map[string]any{"min_num_courses": 11}, Option: "max_num_courses"},
			{Options: map[string]any{"min_num_prerequisites": 3}, Option: "max_num_prerequisites"},
			{Options: map[string]any{"min_cycle_length": 6}, Option: "max_cycle_length"},
		},
		"rg:quantum_lock": {
			{Options: map[string]any{"difficulty": 0}, Option: "difficulty"},
		},
		"rg:family_relationships": {
			{Options: map[string]any{"min_family_size": 9}, Option: "max_family_size"},
			{Options: map[string]any{"male_names": []any{"Al"}}, Option: "male_names"},
			{Options: map[string]any{"max_family_size": 12, "female_names": []any{"A", "B", "C", "D"}}, Option: "female_names"},
			{Options: map[string]any{"female_names": []any{"A", "B", "C", "James"}}, Option: "female_names"},
			{Options: map[string]any{"male_names": []any{"Al", ""}}, Option: "male_names"},
		},
		"rg:shortest_path": {
			{Options: map[string]any{"min_rows": 9}, Option: "max_rows"},
			{Options: map[string]any{"min_rows": 1, "min_cols": 1}, Option: "min_cols"},
			{Options: map[string]any{"p_blocked": 1.5}, Option: "p_blocked"},
		},
	} {
		envtest.OptionErrors(t, r, id, cases)
	}
}

func TestCourseSchedule(t *testing.T) {
	if !canFinish(3, [][2]int{{1, 0}, {2, 1}}) || canFinish(3, [][2]int{{1, 0}, {2, 1}, {0, 2}}) {
		t.Fatal("canFinish")
	}
	counts := map[string]int{}
	for seed := range uint64(100) {
		it := item(t, CourseSchedule, CourseSchedule.Defaults, seed)
		counts[it.Answer]++
		if it.Meta["solvable"].(bool) != (it.Answer == "True") {
			t.Fatalf("seed %d: solvable %v but answer %s", seed, it.Meta["solvable"], it.Answer)
		}
		if !strings.Contains(it.Question, "prerequisites[i] = (a_i, b_i)") || !strings.Contains(it.Question, "\n[(") {
			t.Fatalf("question %q", it.Question)
		}
	}
	if counts["True"] < 30 || counts["False"] < 30 {
		t.Fatalf("answers %v, want both near half", counts)
	}
	score := CourseSchedule.Score
	checkScores(t, score, &rg.Item{Answer: "True"}, []scoreCase{
		{"True", 1}, {"true", 1}, {"TRUE", 1}, {"True.", 1}, {"False", 0}, {"yes", 0}, {"", 0},
	})
}

func TestQuantumLock(t *testing.T) {
	p := &lockPuzzle{target: 8, buttons: []lockButton{
		{Name: "A", Type: "add", Value: 2, Active: "any"},
		{Name: "B", Type: "multiply", Value: 2, Active: "green"},
		{Name: "C", Type: "subtract", Value: 1, Active: "red"},
	}}
	path := p.solve(15)
	// Independent check: path reaches 8, and no shorter sequence does.
	if p.simulate(path).Int64() != 8 {
		t.Fatalf("%v does not reach 8", path)
	}
	if shorter := bruteLock(p, len(path)-1); shorter != nil {
		t.Fatalf("%v is longer than %v", path, shorter)
	}
	it := &rg.Item{Answer: strings.Join(path, " → "), Data: p}
	checkScores(t, scoreLock, it, []scoreCase{
		{it.Answer, 1},
		{strings.Join(path, ""), 1},
		{strings.ToLower(strings.Join(path, ",")), 1},
		{"A → A → A → A", 1},         // another sequence of the same length reaching 8
		{"B → A → A → A → A", 0.5},   // B does nothing while red: longer, reaches 8
		{"A → A → A → A → C → A", 0}, // 8, then 7, then 9
		{"A", 0},
		{"", 0},
	})
}

func TestQuantumLockAlternatives(t *testing.T) {
	p := &lockPuzzle{target: 8, buttons: []lockButton{
		{Name: "A", Type: "add", Value: 2, Active: "any"},
		{Name: "B", Type: "multiply", Value: 2, Active: "any"},
		{Name: "C", Type: "add", Value: 4, Active: "any"},
	}}
	path := strings.Join(p.solve(15), " → ")
	if path != "C → B" {
		t.Fatalf("BFS found %q, want C → B", path)
	}
	checkScores(t, scoreLock, &rg.Item{Answer: path, Data: p}, []scoreCase{
		{"C → C", 1}, // another shortest sequence
		{"A → A → C", 0.5},
		{"A → C", 0},
	})
}

// bruteLock returns a sequence of at most n presses reaching p's target.
func bruteLock(p *lockPuzzle, n int) []string {
	var rec func(seq []string) []string
	rec = func(seq []string) []string {
		if p.simulate(seq).Int64() == int64(p.target) {
			return seq
		}
		if len(seq) == n {
			return nil
		}
		for _, b := range p.buttons {
			if s := rec(append(seq[:len(seq):len(seq)], b.Name)); s != nil {
				return s
			}
		}
		return nil
	}
	return rec(nil)
}

func TestQuantumLockItems(t *testing.T) {
	for _, d := range []int{1, 10, 100} {
		for seed := range uint64(20) {
			it := item(t, QuantumLock, LockOptions{Difficulty: d}, seed)
			p := it.Data.(*lockPuzzle)
			seq := lockLetters(it.Answer)
			if p.simulate(seq).Int64() != int64(p.target) {
				t.Fatalf("difficulty %d seed %d: %s does not reach %d", d, seed, it.Answer, p.target)
			}
			if d == 1 && bruteLock(p, len(seq)-1) != nil {
				t.Fatalf("seed %d: %s is not the shortest", seed, it.Answer)
			}
		}
	}
}

// testFamily: grandparents G (m) and H (f), their son F married to M, and
// their children S (m) and D (f); F's brother U married to W, with a son N.
func testFamily() map[string]*person {
	ps := map[string]*person{}
	for i, n := range []string{"G", "H", "F", "M", "U", "W", "S", "D", "N"} {
		ps[n] = &person{name: n, id: i, female: strings.Contains("HMWD", n)}
	}
	marry(ps["G"], ps["H"])
	marry(ps["F"], ps["M"])
	marry(ps["U"], ps["W"])
	for _, c := range [][2]string{{"G", "F"}, {"H", "F"}, {"G", "U"}, {"H", "U"}, {"F", "S"}, {"M", "S"}, {"F", "D"}, {"M", "D"}, {"U", "N"}, {"W", "N"}} {
		ps[c[0]].addChild(ps[c[1]])
	}
	return ps
}

func TestFamilyRelationships(t *testing.T) {
	ps := testFamily()
	for _, c := range []struct{ p1, p2, want string }{
		{"G", "F", "father"}, {"M", "D", "mother"}, {"D", "M", "daughter"}, {"S", "F", "son"},
		{"M", "F", "wife"}, {"F", "M", "husband"}, {"D", "S", "sister"}, {"S", "D", "brother"},
		{"H", "S", "grandmother"}, {"G", "D", "grandfather"},
		{"U", "S", "uncle"}, {"F", "N", "uncle"},
		{"D", "U", "niece"}, {"S", "U", "nephew"}, {"N", "F", "nephew"},
		{"H", "M", "mother-in-law"}, {"G", "W", "father-in-law"},
		{"M", "H", ""}, {"W", "S", ""}, {"S", "N", ""},
	} {
		if got := relationship(ps[c.p1], ps[c.p2]); got != c.want {
			t.Errorf("%s to %s: %q, want %q", c.p1, c.p2, got, c.want)
		}
	}
	var family []*person
	for _, n := range []string{"G", "H", "F", "M", "U", "W", "S", "D", "N"} {
		family = append(family, ps[n])
	}
	want := "G is married to H. They have children called F and U. F is married to M. They have children called S and D. U is married to W. They have a child called N."
	if got := familyStory(family); got != want {
		t.Fatalf("story\n%s\nwant\n%s", got, want)
	}
	checkScores(t, scoreRelationship, &rg.Item{Answer: "mother-in-law"}, []scoreCase{
		{"mother-in-law", 1}, {"Mother-in-law", 1}, {"mother in law", 1}, {"Mother-in-law.", 1}, {"her mother-in-law", 1},
		{"mother", 0}, {"father-in-law", 0}, {"", 0},
	})
	checkScores(t, scoreRelationship, &rg.Item{Answer: "uncle"}, []scoreCase{{"Uncle", 1}, {"the uncle", 1}, {"aunt", 0}})
	// Every size generates, with distinct names, and the answer is the
	// relationship of the two people named.
	for size := 3; size <= 20; size++ {
		o := FamilyRelationships.Defaults
		o.MinFamilySize, o.MaxFamilySize = size, size
		it := item(t, FamilyRelationships, o, uint64(size))
		if n := it.Meta["family_size"].(int); n != size {
			t.Fatalf("size %d: %d members", size, n)
		}
		if !slices.Contains(relationships, it.Answer) {
			t.Fatalf("answer %q", it.Answer)
		}
	}
}
