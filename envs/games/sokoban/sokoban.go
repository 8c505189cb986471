// Package sokoban is GEM's game:Sokoban: push every box onto a target in a
// walled room within a turn budget.
//
// Rooms are carved and targets placed as GEM does, and levels come from
// playing the game backwards from the solved room, all from the episode
// seed. Where GEM keeps one reverse-played state by a displacement score and
// never checks it, Quarry searches backwards breadth-first, so every
// candidate comes with its exact shortest solution, and deals a level whose
// shortest solution fits well within the turn limit: every episode can be
// won, and the oracle plays that solution (100% on every variant). Info.Extra
// of Reset carries it as "optimal_moves".
//
// Other differences from GEM: room sizes, box counts and turn limits are
// bounded (see Validate); GEM's unreachable "cannot move to that position"
// branch is left out.
package sokoban

import (
	"fmt"
	"math/rand/v2"
	"regexp"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's constructor parameters. A nil dim_room, num_boxes or
// max_turns draws all three per episode (the -random variant). dim_room is
// [rows, columns], the outer walls included.
type Options struct {
	DimRoom  []int `json:"dim_room" len:"2,2" range:"5,10"`
	NumBoxes *int  `json:"num_boxes" range:"1,6"`
	MaxTurns *int  `json:"max_turns" range:"5,300"`
}

func (o Options) random() bool { return o.DimRoom == nil || o.NumBoxes == nil || o.MaxTurns == nil }

// Limits Quarry accepts. GEM takes any size; Quarry bounds rooms so a
// state's boxes fit a bitset and the solver that vets each level stays fast.
const (
	minDim, maxDim = 5, 10
	maxBoxes       = 6
	maxTurnsLimit  = 300
)

// Validate checks the room, box count and turn limit.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	if len(o.DimRoom) != 2 || o.DimRoom[0] < minDim || o.DimRoom[0] > maxDim || o.DimRoom[1] < minDim || o.DimRoom[1] > maxDim {
		return &envs.OptionError{Option: "dim_room", Reason: fmt.Sprintf("must be [rows, columns], each between %d and %d", minDim, maxDim)}
	}
	// Denser rooms, or tighter budgets, seldom admit a level with every box
	// off its target that can be solved in time.
	interior := (o.DimRoom[0] - 2) * (o.DimRoom[1] - 2)
	if most := min(maxBoxes, interior/5); *o.NumBoxes < 1 || *o.NumBoxes > most {
		return &envs.OptionError{Option: "num_boxes", Reason: fmt.Sprintf("must be between 1 and %d for a %dx%d room", most, o.DimRoom[0], o.DimRoom[1])}
	}
	if least := 5 * *o.NumBoxes; *o.MaxTurns < least || *o.MaxTurns > maxTurnsLimit {
		return &envs.OptionError{Option: "max_turns", Reason: fmt.Sprintf("must be between %d (5 per box) and %d", least, maxTurnsLimit)}
	}
	return nil
}

// randomVariants are GEM's draws for the -random variant: (rows, cols, boxes, turns).
var randomVariants = [...]struct{ rows, cols, boxes, turns int }{{6, 6, 2, 20}, {8, 8, 5, 50}}

const randomMaxTurns = 50

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Sokoban-v0",
		Description: "Push every box onto a target in a generated room within a turn budget; every level is solvable in time.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   games.SuccessReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{DimRoom: []int{6, 6}, NumBoxes: games.Int(2), MaxTurns: games.Int(20)}, MaxTurns: 20},
		games.Variant[Options]{Suffix: "hard", Options: Options{DimRoom: []int{8, 8}, NumBoxes: games.Int(4), MaxTurns: games.Int(50)}, MaxTurns: 50},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomMaxTurns},
	)
}

var actionPattern = regexp.MustCompile(`(?i)\\boxed\{(up|down|left|right)\}`)

// Env is one Sokoban game.
type Env struct {
	opts Options

	rng      *rand.Rand
	numBoxes int
	maxTurns int
	lv       *level
	st       state
	turn     int
	optimal  int // moves in the shortest solution of the opening room

	// The oracle's plan and the state it expects when the plan continues.
	plan   []int8
	expect state
	gaveUp bool // a search failed this episode: the room is dead or too hard
}

// Reset draws the room's shape (for -random) and generates a level from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	rows, cols := 0, 0
	if e.opts.random() {
		v := randomVariants[e.rng.IntN(len(randomVariants))]
		rows, cols, e.numBoxes, e.maxTurns = v.rows, v.cols, v.boxes, v.turns
	} else {
		rows, cols, e.numBoxes, e.maxTurns = e.opts.DimRoom[0], e.opts.DimRoom[1], *e.opts.NumBoxes, *e.opts.MaxTurns
	}
	lv, st, plan, err := generate(e.rng, rows, cols, e.numBoxes, e.maxTurns)
	if err != nil {
		return "", envs.Info{}, fmt.Errorf("sokoban reset %d: %w", seed, err)
	}
	e.lv, e.st, e.plan, e.expect, e.gaveUp = lv, st, plan, st, false
	e.optimal = len(plan)
	e.turn = 0
	example := e.SampleRandomAction(e.rng)
	obs := "You are solving the Sokoban puzzle. You are the player and you need to push all boxes to targets.\n" +
		"When you are right next to a box, you can push it by moving in the same direction.\n" +
		"You cannot push a box through a wall or another box, and you cannot pull a box.\n" +
		fmt.Sprintf("you have to complete the puzzle within %d turns.\n", e.maxTurns) +
		"On the board, objects are represented as:\n" +
		"- The player (you) appears as 'P'\n" +
		"- Walls are represented with '#'\n" +
		"- Boxes are marked as 'X'\n" +
		"- Empty goals are shown with 'O'\n" +
		"- Boxes on goals are visualized with '√'\n" +
		"- Empty floor is shown as '_'\n\n" +
		"To submit your move, type the command in \\boxed{}.\n" +
		fmt.Sprintf("For example: %s to move %s.\n", example, example[len(`\boxed{`):len(example)-1]) +
		"Use logic and deduction to push all boxes onto the target positions!"
	info := e.info()
	info.Extra = map[string]any{"optimal_moves": e.optimal}
	return obs, info, nil
}

func (e *Env) info() envs.Info {
	return envs.Info{Suffix: "Here is the current board layout:\n" + e.lv.render(e.st) + "\nEnter your move."}
}

// Step applies one move with GEM's rules: an unparseable move ends the game;
// walking into a wall, or pushing a box into a wall or another box, wastes
// the turn; covering every target wins; at the turn limit the reward is the
// fraction of boxes on targets.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	dir, name, ok := games.LastDirection(actionPattern, action)
	if !ok {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, your submitted action is not valid.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	next, pushed, ok := e.lv.move(e.st, dir)
	var obs string
	reward := games.InternalStepReward
	if !ok {
		reward = games.InvalidActionReward
		obs = fmt.Sprintf("At turn %d, you cannot move %s - you would collide with wall or other boxes!", e.turn, name)
	} else {
		e.st = next
		if e.lv.solved(e.st) {
			info := e.info()
			info.ParsedAction, info.Success = games.BoxedDirection(dir), true
			return envs.StepResult{Observation: "Congratulations! You have solved the Sokoban puzzle!", Reward: games.SuccessReward, Terminated: true, Info: info}, nil
		}
		verb := ""
		if pushed {
			verb = "pushed a box while you "
		}
		obs = fmt.Sprintf("At turn %d, you %smoved %s.", e.turn, verb, name)
	}
	info := e.info()
	info.ParsedAction, info.InvalidAction = games.BoxedDirection(dir), !ok
	if e.turn >= e.maxTurns {
		onTargets := e.st.boxes.and(e.lv.targets).count()
		return envs.StepResult{
			Observation: "You have reached the maximum number of turns.",
			Reward:      games.SuccessReward * float64(onTargets) / float64(e.numBoxes),
			Terminated:  true, Truncated: true, Info: info,
		}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// SampleRandomAction picks one of the four directions, boxed.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	return games.BoxedDirection(rng.IntN(len(games.Directions)))
}

// OracleAction plays a shortest solution: the one found when the level was
// generated, or, once play has left it, a new search from the current room
// within the turns left (or, failing that, any turns at all). A room that
// no search solves (a box pushed into a corner) gets legal moves.
func (e *Env) OracleAction() (string, error) {
	if !e.gaveUp && (len(e.plan) == 0 || e.st != e.expect) {
		e.expect = e.st
		plan, ok := solve(e.lv, e.st, e.maxTurns-e.turn, solverBudget)
		if !ok {
			plan, ok = solve(e.lv, e.st, maxTurnsLimit, solverBudget)
		}
		e.plan, e.gaveUp = plan, !ok
	}
	if e.gaveUp || len(e.plan) == 0 { // a dead room, or one past the budget: any legal move
		for d := range 4 {
			if _, _, legal := e.lv.move(e.st, d); legal {
				return games.BoxedDirection(d), nil
			}
		}
		return `\boxed{up}`, nil
	}
	d := int(e.plan[0])
	e.plan = e.plan[1:]
	e.expect, _, _ = e.lv.move(e.expect, d)
	return games.BoxedDirection(d), nil
}
