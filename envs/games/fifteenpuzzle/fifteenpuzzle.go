// Package fifteenpuzzle is GEM's game:FifteenPuzzle: slide numbered tiles into
// the empty space until they read 1..n²-1 in row-major order with the space
// in the bottom-right corner.
//
// Boards are scrambled as GEM does, by random moves from the goal, so every
// board is solvable, but not always within the turn limit. -easy's 2x2
// boards are always four moves from the goal (100 moves that never undo the
// last one circle the board). On seeds 0–199, -hard's 4x4 boards have a
// solution within 50 moves 175 times, and the oracle (IDA* under a node
// budget) wins 165; -random's 3x3 boards fit their 20 turns about a third of
// the time, and the oracle wins 139 of 200 -random seeds.
//
// Differences from GEM: random actions are boxed (GEM's bare "up" fails its
// own parser); a scramble that lands on the goal keeps walking; num_rows is
// at most 9, so every tile renders two characters wide.
package fifteenpuzzle

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Scramble algorithms (GEM's init_algo).
const (
	// MonteCarlo plays mc_rand_moves random moves from the solved board,
	// never undoing the previous move.
	MonteCarlo = "monte_carlo"
	// PureRandom draws a uniformly random solvable board.
	PureRandom = "pure_random"
)

// Options are GEM's constructor parameters. A nil num_rows or max_turns draws
// the size and turn limit per episode (the -random variant).
type Options struct {
	NumRows     *int   `json:"num_rows" range:"2,9"`
	MaxTurns    *int   `json:"max_turns" range:"1,1000"`
	InitAlgo    string `json:"init_algo" len:"1,32"`
	MCRandMoves int    `json:"mc_rand_moves" range:"1,100000"`
}

func (o Options) random() bool { return o.NumRows == nil || o.MaxTurns == nil }

// maxRows keeps every tile two characters wide, as GEM's rendering assumes.
const maxRows = 9

// maxRandMoves bounds the scramble's cost per Reset.
const maxRandMoves = 100_000

// Validate checks the size, turn limit and scramble parameters.
func (o Options) Validate() error {
	if o.InitAlgo != MonteCarlo && o.InitAlgo != PureRandom {
		return &envs.OptionError{Option: "init_algo", Reason: fmt.Sprintf("got %q, want %q or %q", o.InitAlgo, MonteCarlo, PureRandom)}
	}
	if o.MCRandMoves < 1 || o.MCRandMoves > maxRandMoves {
		return &envs.OptionError{Option: "mc_rand_moves", Reason: fmt.Sprintf("must be between 1 and %d", maxRandMoves)}
	}
	if o.random() {
		return nil
	}
	if *o.NumRows < 2 || *o.NumRows > maxRows {
		return &envs.OptionError{Option: "num_rows", Reason: fmt.Sprintf("must be between 2 and %d", maxRows)}
	}
	if *o.MaxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer"}
	}
	return nil
}

// randomVariants are GEM's draws for the -random variant: (rows, max turns).
var randomVariants = [...]struct{ rows, turns int }{{2, 10}, {3, 20}, {4, 50}}

const randomMaxTurns = 50

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:FifteenPuzzle-v0",
		Description: "Slide numbered tiles into the empty space until they are in order, within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   games.SuccessReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{NumRows: games.Int(2), MaxTurns: games.Int(10), InitAlgo: MonteCarlo, MCRandMoves: 100}, MaxTurns: 10},
		games.Variant[Options]{Suffix: "hard", Options: Options{NumRows: games.Int(4), MaxTurns: games.Int(50), InitAlgo: MonteCarlo, MCRandMoves: 100}, MaxTurns: 50},
		games.Variant[Options]{Suffix: "random", Options: Options{InitAlgo: MonteCarlo, MCRandMoves: 100}, MaxTurns: randomMaxTurns},
	)
}

// Moves name the direction a tile slides into the empty space, as GEM does:
// "up" moves the tile below the space up, so the space moves down.
const (
	up = iota
	down
	left
	right
)

// inverse undoes a move.
var inverse = [...]int{down, up, right, left}

// GEM's pattern is case-sensitive (its .lower() never sees upper case).
var actionPattern = regexp.MustCompile(`\\boxed\{(up|down|left|right)\}`)

// Env is one sliding-puzzle game.
type Env struct {
	opts Options

	rng      *rand.Rand
	n        int // rows (= columns)
	maxTurns int
	board    []int8 // row-major; 0 is the empty space
	blank    int    // index of the empty space
	turn     int

	// The oracle's plan and the board it expects when the plan continues.
	plan   []int8
	expect []int8
	gaveUp bool // the search failed once this episode; play greedily
	last   int  // the oracle's previous move, -1 for none
}

// Reset draws the size (for -random) and scrambles the board from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		v := randomVariants[e.rng.IntN(len(randomVariants))]
		e.n, e.maxTurns = v.rows, v.turns
	} else {
		e.n, e.maxTurns = *e.opts.NumRows, *e.opts.MaxTurns
	}
	e.board = goalBoard(e.n)
	e.blank = len(e.board) - 1
	if e.opts.InitAlgo == PureRandom {
		e.shuffle()
	} else {
		e.walk(e.opts.MCRandMoves)
	}
	e.turn = 0
	e.plan, e.expect, e.gaveUp, e.last = nil, nil, false, -1
	g := e.n*e.n - 1
	obs := fmt.Sprintf("You are playing the %d-Puzzle game.\n"+
		"You have to arrange the numbered tiles in ascending order from 1 to %d, with the empty space located in the bottom-right corner.\n"+
		"To make a move, you can slide a tile into the empty space (represented by a double underscore, e.g. __) by using one of the following commands:\n"+
		"- 'up': Move the tile below the empty space up.\n"+
		"- 'down': Move the tile above the empty space down.\n"+
		"- 'left': Move the tile to the right of the empty space left.\n"+
		"- 'right': Move the tile to the left of the empty space right.\n"+
		"To submit your move, type the direction (e.g., 'up', 'down', 'left', or 'right') in \\boxed{...}.\n"+
		"The current board layout is shown below\n"+
		"Use logic and planning to solve the puzzle.\n", g, g)
	return obs, e.info(), nil
}

func goalBoard(n int) []int8 {
	b := make([]int8, n*n)
	for i := range len(b) - 1 {
		b[i] = int8(i + 1)
	}
	return b
}

// walk plays GEM's Monte Carlo scramble: moves random moves, never undoing
// the previous one. GEM can hand out an already solved board (e.g. 2x2 after
// a multiple of 12 moves); Quarry keeps walking until the board is unsolved.
func (e *Env) walk(moves int) {
	last := -1
	var legal [4]int
	for i := 0; i < moves || e.solved(); i++ {
		k := 0
		for m := range 4 {
			if (last < 0 || m != inverse[last]) && e.target(m) >= 0 {
				legal[k] = m
				k++
			}
		}
		m := legal[e.rng.IntN(k)]
		e.apply(m)
		last = m
	}
}

// shuffle draws a uniformly random solvable, unsolved board: GEM's
// pure_random (shuffle, then swap two tiles when the parity is wrong).
func (e *Env) shuffle() {
	for {
		e.rng.Shuffle(len(e.board), func(i, j int) { e.board[i], e.board[j] = e.board[j], e.board[i] })
		e.blank = slices.Index(e.board, 0)
		if !solvable(e.board, e.n) {
			// Swap two distinct tiles (not the space): the k-th tile is at
			// cell k, or k+1 past the space.
			a, b := e.rng.IntN(len(e.board)-1), e.rng.IntN(len(e.board)-2)
			if b >= a {
				b++
			}
			i, j := a+btoi(a >= e.blank), b+btoi(b >= e.blank)
			e.board[i], e.board[j] = e.board[j], e.board[i]
		}
		if !e.solved() {
			return
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// solvable reports whether board can reach the goal: every move swaps the
// space with a tile (flipping the permutation's parity) and moves the space
// one step (flipping the parity of its distance to the corner), so the sum of
// the two parities is invariant and even at the goal.
func solvable(board []int8, n int) bool {
	p := slices.Clone(board)
	for i, v := range p {
		if v == 0 {
			p[i] = int8(len(p)) // the space sorts last
		}
	}
	swaps := 0
	for i := range p {
		for int(p[i]) != i+1 {
			j := int(p[i]) - 1
			p[i], p[j] = p[j], p[i]
			swaps++
		}
	}
	b := slices.Index(board, 0)
	dist := (n - 1 - b/n) + (n - 1 - b%n)
	return (swaps+dist)%2 == 0
}

// target is the cell whose tile slides into the space on move m, or -1 when
// there is none (the move leaves the board).
func (e *Env) target(m int) int {
	r, c := e.blank/e.n, e.blank%e.n
	switch m {
	case up:
		r++
	case down:
		r--
	case left:
		c++
	case right:
		c--
	}
	if r < 0 || r >= e.n || c < 0 || c >= e.n {
		return -1
	}
	return r*e.n + c
}

// apply plays move m, reporting whether it was legal.
func (e *Env) apply(m int) bool {
	t := e.target(m)
	if t < 0 {
		return false
	}
	e.board[e.blank], e.board[t] = e.board[t], 0
	e.blank = t
	return true
}

func (e *Env) solved() bool {
	for i, v := range e.board[:len(e.board)-1] {
		if int(v) != i+1 {
			return false
		}
	}
	return true
}

// inPlace is the fraction of cells (the space included) holding their goal
// value: GEM's soft reward at the turn limit.
func (e *Env) inPlace() float64 {
	k := 0
	for i, v := range e.board {
		if int(v) == (i+1)%len(e.board) {
			k++
		}
	}
	return float64(k) / float64(len(e.board))
}

func (e *Env) render() string {
	var sb strings.Builder
	for r := range e.n {
		for c := range e.n {
			if c > 0 {
				sb.WriteByte(' ')
			}
			if v := e.board[r*e.n+c]; v == 0 {
				sb.WriteString("__")
			} else {
				fmt.Fprintf(&sb, "%2d", v)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func (e *Env) info() envs.Info {
	return envs.Info{Suffix: "Here is the current board layout: \n" + e.render() + "\nEnter your move."}
}

// Step applies one move with GEM's rules: an unparseable move ends the game,
// an off-board move wastes the turn, solving wins, and at the turn limit the
// fraction of cells in place is added to the step's reward.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	move, name, ok := games.LastDirection(actionPattern, action)
	if !ok {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	var obs string
	reward := games.InternalStepReward
	invalid := !e.apply(move)
	switch {
	case invalid:
		obs = fmt.Sprintf("At turn %d, you chose a move %s that is outside the bounds of the board.", e.turn, name)
		reward = games.InvalidActionReward
	case e.solved():
		info := e.info()
		info.ParsedAction, info.Success = games.BoxedDirection(move), true
		return envs.StepResult{Observation: "Congratulations! You have solved the puzzle!", Reward: games.SuccessReward, Terminated: true, Info: info}, nil
	default:
		obs = fmt.Sprintf("At turn %d, you made a valid move: %s.\n", e.turn, name)
	}
	info := e.info()
	info.ParsedAction, info.InvalidAction = games.BoxedDirection(move), invalid
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward + e.inPlace(), Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// SampleRandomAction picks one of the four directions, boxed. GEM returns the
// bare word, which its own parser rejects; Quarry boxes it.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	return games.BoxedDirection(rng.IntN(len(games.Directions)))
}

// nodeBudget bounds one IDA* search in expanded nodes (not time, so the oracle
// stays deterministic): well under a second. Past it the oracle plays
// greedily for the rest of the episode.
const nodeBudget = 4_000_000

// OracleAction plays an optimal solution found by IDA* (Manhattan distance
// plus linear conflicts) within the turns left. When none is found within
// the turns left and the node budget, it slides greedily toward the goal.
func (e *Env) OracleAction() (string, error) {
	if len(e.plan) == 0 || !slices.Equal(e.board, e.expect) {
		e.plan = nil
		if !e.gaveUp {
			plan, ok := solve(e.board, e.n, e.maxTurns-e.turn, nodeBudget)
			e.plan, e.gaveUp = plan, !ok
			e.expect = slices.Clone(e.board)
		}
	}
	var m int
	if len(e.plan) > 0 {
		m = int(e.plan[0])
		e.plan = e.plan[1:]
		sim := Env{n: e.n, board: e.expect, blank: slices.Index(e.expect, 0)}
		sim.apply(m)
	} else {
		m = greedy(e.board, e.n, e.last)
	}
	e.last = m
	return games.BoxedDirection(m), nil
}
