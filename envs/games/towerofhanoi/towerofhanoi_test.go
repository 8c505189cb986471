package towerofhanoi

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

var ids = []string{"game:TowerofHanoi-v0-easy", "game:TowerofHanoi-v0-hard", "game:TowerofHanoi-v0-random"}

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func mustMake(t testing.TB, r *envs.Registry, id string, opts map[string]any) (envs.Env, *Env) {
	t.Helper()
	e := envtest.Make(t, r, id, opts)
	return e, e.(envs.Unwrapper).Unwrap().(*Env)
}

// game returns a reset -easy env (3 disks, 10 turns).
func game(t *testing.T) (envs.Env, *Env) {
	t.Helper()
	e := envtest.MakeReset(t, registry(t), "game:TowerofHanoi-v0-easy", 1)
	return e, e.(envs.Unwrapper).Unwrap().(*Env)
}

// board renders GEM's suffix for the given towers.
func board(a, b, c string) string {
	return "Here is the current state of the tower of hanoi:\nA: [" + a + "]\nB: [" + b + "]\nC: [" + c + "]\n\nEnter your move."
}

// moves returns the steps of legal moves like "AC" played from the start
// position, numbered from turn first.
func moves(first int, actions ...string) []envtest.Want {
	b := [3][]int{{3, 2, 1}, nil, nil}
	var out []envtest.Want
	for i, a := range actions {
		from, to := strings.IndexByte(towers, a[0]), strings.IndexByte(towers, a[1])
		d := b[from][len(b[from])-1]
		b[from] = b[from][:len(b[from])-1]
		b[to] = append(b[to], d)
		out = append(out, envtest.Want{
			Action: fmt.Sprintf(`\boxed{%c %c}`, a[0], a[1]),
			Obs:    fmt.Sprintf("At turn %d, you moved disk %d from tower %c to tower %c.", first+i, d, a[0], a[1]),
		})
	}
	return out
}

func concat(parts ...[]envtest.Want) []envtest.Want { return slices.Concat(parts...) }

func TestRules(t *testing.T) {
	solution := []string{"AC", "AB", "CB", "AC", "BA", "BC", "AC"}
	won := envtest.Want{Action: `\boxed{A C}`, Obs: "Congratulations! You solved the Tower of Hanoi Puzzle", Suffix: board("", "", "3, 2, 1"), Reward: 1, Terminated: true, Success: true}
	// After the first six moves of the solution: A [1], B [], C [3, 2].
	sixMoves := moves(1, solution[:6]...)
	idle := func(turn int) envtest.Want {
		return envtest.Want{Action: `\boxed{C C}`, Obs: fmt.Sprintf("At turn %d, you moved disk 2 from tower C to tower C.", turn)}
	}

	tests := []struct {
		name  string
		steps []envtest.Want
	}{
		{"legal moves show the board", []envtest.Want{
			{Action: `move \boxed{A C}`, Obs: "At turn 1, you moved disk 1 from tower A to tower C.", Suffix: board("3, 2", "", "1")},
			{Action: `\boxed{a,b}`, Obs: "At turn 2, you moved disk 2 from tower A to tower B.", Suffix: board("3", "2", "1")},
			{Action: `\boxed{c , B}`, Obs: "At turn 3, you moved disk 1 from tower C to tower B.", Suffix: board("3", "2, 1", "")},
		}},
		{"empty source", []envtest.Want{
			{Action: `\boxed{B A}`, Obs: "At turn 1, you tried to move from tower B, which is empty.", Suffix: board("3, 2, 1", "", ""), InvalidAction: true},
			{Action: `\boxed{C C}`, Obs: "At turn 2, you tried to move from tower C, which is empty.", InvalidAction: true},
		}},
		{"larger onto smaller", []envtest.Want{
			{Action: `\boxed{A C}`, Obs: "At turn 1, you moved disk 1 from tower A to tower C."},
			{Action: `\boxed{A C}`, Obs: "At turn 2, you tried to move from tower A to tower C, but the top disk on tower A is larger than the top disk on tower C.", Suffix: board("3, 2", "", "1"), InvalidAction: true},
		}},
		{"a move onto the same tower is a legal no-op", []envtest.Want{
			{Action: `\boxed{A A}`, Obs: "At turn 1, you moved disk 1 from tower A to tower A.", Suffix: board("3, 2, 1", "", "")},
		}},
		{"last matching box counts", []envtest.Want{
			{Action: `\boxed{A C} no: \boxed{A B} \boxed{A D}`, Obs: "At turn 1, you moved disk 1 from tower A to tower B.", Suffix: board("3, 2", "1", "")},
		}},
		{"unparseable ends the episode", []envtest.Want{
			{Action: `\boxed{A D}`, Obs: "You did not provide a valid action.", Suffix: board("3, 2, 1", "", ""), Reward: -0.1, Terminated: true, FormatError: true},
		}},
		{"win", concat(sixMoves, []envtest.Want{won})},
		{"a win on the last turn is not truncated", concat(
			[]envtest.Want{
				{Action: `\boxed{A A}`, Obs: "At turn 1, you moved disk 1 from tower A to tower A."},
				{Action: `\boxed{B B}`, Obs: "At turn 2, you tried to move from tower B, which is empty.", InvalidAction: true},
				{Action: `\boxed{A A}`, Obs: "At turn 3, you moved disk 1 from tower A to tower A."},
			},
			moves(4, solution[:6]...), []envtest.Want{won})},
		{"max turns scores the share of disks on C", concat(sixMoves, []envtest.Want{
			idle(7), idle(8),
			{Action: `\boxed{B A}`, Obs: "At turn 9, you tried to move from tower B, which is empty.", InvalidAction: true},
			{Action: `\boxed{A B}`, Obs: "You have reached the maximum number of turns.", Suffix: board("", "1", "3, 2"), Reward: 2.0 / 3, Terminated: true, Truncated: true},
		})},
		{"an illegal last move still scores C", concat(sixMoves, []envtest.Want{
			idle(7), idle(8), idle(9),
			{Action: `\boxed{C A}`, Obs: "You have reached the maximum number of turns.", Suffix: board("1", "", "3, 2"), Reward: 2.0 / 3, Terminated: true, Truncated: true, InvalidAction: true},
		})},
		{"unparseable on the last turn is also truncated", concat(sixMoves, []envtest.Want{
			idle(7), idle(8), idle(9),
			{Action: `A to C`, Obs: "You did not provide a valid action.", Reward: -0.1, Terminated: true, Truncated: true, FormatError: true},
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := game(t)
			envtest.Expect(t, e, tt.steps)
		})
	}
}

func TestResetObservation(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id    string
		disks int
		board string
	}{
		{"game:TowerofHanoi-v0-easy", 3, board("3, 2, 1", "", "")},
		{"game:TowerofHanoi-v0-hard", 5, board("5, 4, 3, 2, 1", "", "")},
	} {
		e, _ := mustMake(t, r, tt.id, nil)
		obs, info, err := e.Reset(0)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("You are playing Tower of Hanoi with %d disks.\n", tt.disks) +
			"You have to move the disks from tower A to tower C.\n" +
			"To move a disk, type the source tower and the target tower (e.g., '\\boxed{A C}').\n" +
			"Note that you can only move the top disk of a tower, and that a bigger disk cannot be placed on a smaller disk.\n" +
			"As you play, the history of your moves will be displayed.\n"
		if obs != want || info.Suffix != tt.board {
			t.Fatalf("%s reset:\n got %q\n     %q\nwant %q\n     %q", tt.id, obs, info.Suffix, want, tt.board)
		}
	}
}

func TestVariants(t *testing.T) {
	r := registry(t)
	for _, tt := range []struct {
		id   string
		want config
	}{
		{"game:TowerofHanoi-v0-easy", config{3, 10}},
		{"game:TowerofHanoi-v0-hard", config{5, 35}},
	} {
		e, g := mustMake(t, r, tt.id, nil)
		e.Reset(4)
		if g.config != tt.want {
			t.Fatalf("%s: config %+v, want %+v", tt.id, g.config, tt.want)
		}
	}
	e, g := mustMake(t, r, "game:TowerofHanoi-v0-random", nil)
	seen := map[config]bool{}
	for seed := range uint64(100) {
		obs, _, _ := e.Reset(seed)
		if !slices.Contains(randomConfigs, g.config) {
			t.Fatalf("seed %d: config %+v is not one of GEM's", seed, g.config)
		}
		if !strings.Contains(obs, fmt.Sprintf("with %d disks", g.numDisks)) || len(g.board[0]) != g.numDisks {
			t.Fatalf("seed %d: %d disks drawn but prompt/board disagree: %q %v", seed, g.numDisks, obs, g.board)
		}
		seen[g.config] = true
	}
	if len(seen) != len(randomConfigs) {
		t.Fatalf("random variant drew only %v", seen)
	}
}

func TestRandomActionsNameTwoTowers(t *testing.T) {
	e, _ := game(t)
	rng := envs.NewRand(2)
	pairs := map[string]bool{}
	for range 300 {
		a := e.SampleRandomAction(rng)
		m := actionPattern.FindStringSubmatch(a)
		if m == nil || m[1] == m[2] {
			t.Fatalf("random action %q does not name two distinct towers", a)
		}
		pairs[a] = true
	}
	if len(pairs) != 6 {
		t.Fatalf("random actions cover %d of the 6 moves", len(pairs))
	}
}

func TestConformance(t *testing.T) {
	r := registry(t)
	if got := r.IDs(); !slices.Equal(got, ids) {
		t.Fatalf("registered ids %v, want %v", got, ids)
	}
	envtest.RunAll(t, r, ids...)
}

func TestOracleWinsEverySeed(t *testing.T) {
	r := registry(t)
	for _, id := range ids {
		spec, _ := r.Lookup(id)
		e, g := mustMake(t, r, id, nil)
		for tr := range envtest.OracleEpisodes(t, e, 200, spec.MaxTurns) {
			if !tr.Success() || len(tr.Steps) != 1<<g.numDisks-1 {
				t.Fatalf("%s seed %d: oracle took %d moves for %d disks (won=%v), want the optimal %d:\n%s",
					id, tr.Seed, len(tr.Steps), g.numDisks, tr.Success(), 1<<g.numDisks-1, tr)
			}
		}
	}
}

// TestOracleOptimalFromAnyState checks every legal position of 1..5 disks:
// the oracle's move is legal and brings the position one move closer to the
// goal, by breadth-first distances from the solved position.
func TestOracleOptimalFromAnyState(t *testing.T) {
	for n := 1; n <= 5; n++ {
		e, g := mustMake(t, registry(t), "game:TowerofHanoi-v0-easy", map[string]any{"num_disks": n, "max_turns": 1000})
		e.Reset(0)
		dist := distances(n)
		for state, d := range dist {
			if d == 0 {
				continue
			}
			g.board = boardOf(state, n)
			a, err := g.OracleAction()
			if err != nil {
				t.Fatal(err)
			}
			m := actionPattern.FindStringSubmatch(a)
			next, ok := move(state, n, strings.IndexByte(towers, m[1][0]), strings.IndexByte(towers, m[2][0]))
			if !ok || dist[next] != d-1 {
				t.Fatalf("%d disks, board %v (%d from the goal): oracle %s is not an optimal legal move", n, g.board, d, a)
			}
		}
	}
}

// A state records each disk's tower: disk d (1-based) is digit d-1 base 3.
func distances(n int) map[int]int {
	goal := 0
	for d := range n {
		goal += 2 * pow3(d)
	}
	dist := map[int]int{goal: 0}
	queue := []int{goal}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for from := range 3 {
			for to := range 3 {
				if next, ok := move(s, n, from, to); ok && from != to {
					if _, seen := dist[next]; !seen {
						dist[next] = dist[s] + 1
						queue = append(queue, next)
					}
				}
			}
		}
	}
	return dist
}

func pow3(k int) int {
	p := 1
	for range k {
		p *= 3
	}
	return p
}

func tower(s, d int) int { return s / pow3(d-1) % 3 }

// move applies from→to to state s, reporting whether it is legal.
func move(s, n, from, to int) (int, bool) {
	topOf := func(t int) int {
		for d := 1; d <= n; d++ {
			if tower(s, d) == t {
				return d
			}
		}
		return 0
	}
	d, onto := topOf(from), topOf(to)
	if d == 0 || (onto != 0 && onto < d) {
		return 0, false
	}
	return s + (to-from)*pow3(d-1), true
}

func boardOf(s, n int) [3][]int {
	var b [3][]int
	for d := n; d >= 1; d-- {
		b[tower(s, d)] = append(b[tower(s, d)], d)
	}
	return b
}

func TestOptions(t *testing.T) {
	r := registry(t)
	e, g := mustMake(t, r, "game:TowerofHanoi-v0-easy", map[string]any{"num_disks": 4, "max_turns": 20})
	e.Reset(0)
	if g.config != (config{4, 20}) || len(g.board[0]) != 4 {
		t.Fatalf("options not applied: %+v", g.config)
	}
	// Options apply to one instance only; the registered defaults stay.
	e, g = mustMake(t, r, "game:TowerofHanoi-v0-easy", nil)
	e.Reset(0)
	if g.config != (config{3, 10}) {
		t.Fatalf("options leaked into the defaults: easy now has %+v", g.config)
	}
	envtest.OptionErrors(t, r, "game:TowerofHanoi-v0-easy", []envtest.OptionCase{
		{Options: map[string]any{"disks": 4}, Option: "disks"},
		{Options: map[string]any{"num_disks": "five"}, Option: "num_disks"},
		{Options: map[string]any{"num_disks": 0}, Option: "num_disks"},
		{Options: map[string]any{"max_turns": -1}, Option: "max_turns"},
	})
	envtest.OptionErrors(t, r, "game:TowerofHanoi-v0-random", []envtest.OptionCase{{Options: map[string]any{"towers": 4}, Option: "towers"}})
	envtest.OptionErrors(t, r, "game:TowerofHanoi-v0-hard", []envtest.OptionCase{{Options: map[string]any{"max_turns": true}, Option: "max_turns"}})
}

func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b), ids...) }
