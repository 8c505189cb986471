// Package towerofhanoi is GEM's game:TowerofHanoi: move a stack of disks from
// tower A to tower C, one at a time, never a larger disk on a smaller one.
package towerofhanoi

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's registration parameters. If either is nil, both are drawn
// per episode (the -random variant), as GEM does.
type Options struct {
	NumDisks *int `json:"num_disks" range:"1,20"`
	MaxTurns *int `json:"max_turns" range:"1,10000"`
}

func (o Options) random() bool { return o.NumDisks == nil || o.MaxTurns == nil }

// Validate checks a fixed configuration.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	if *o.NumDisks < 1 {
		return &envs.OptionError{Option: "num_disks", Reason: "must be a positive integer"}
	}
	if *o.MaxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer"}
	}
	return nil
}

// config is one episode's (disks, turn limit).
type config struct{ numDisks, maxTurns int }

// randomConfigs are GEM's draws for the -random variant; each leaves a few
// turns beyond the optimal 2^n-1 moves.
var randomConfigs = []config{{3, 10}, {4, 20}, {5, 35}}

const randomMaxTurns = 35 // the largest limit in randomConfigs

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:TowerofHanoi-v0",
		Description: "Move a stack of disks from tower A to tower C, never placing a larger disk on a smaller one.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   games.SuccessReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return newEnv(o), nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(3), games.Int(10)}, MaxTurns: 10},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(5), games.Int(35)}, MaxTurns: 35},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomMaxTurns},
	)
}

var actionPattern = regexp.MustCompile(`\\boxed\{([ABCabc])\s*,?\s*([ABCabc])\}`)

const towers = "ABC"

// Env is one Tower of Hanoi game.
type Env struct {
	opts Options

	rng *rand.Rand
	config
	board [3][]int // bottom to top; disk n is the largest
	turn  int
	where []int // scratch for the oracle: where[d] is disk d's tower
}

func newEnv(o Options) *Env {
	e := &Env{opts: o}
	if o.random() {
		e.config = randomConfigs[0]
	} else {
		e.config = config{*o.NumDisks, *o.MaxTurns}
	}
	return e
}

// Reset draws the configuration (for -random) from seed and stacks every
// disk on tower A.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.config = randomConfigs[e.rng.IntN(len(randomConfigs))]
	}
	for i := range e.board {
		e.board[i] = e.board[i][:0]
	}
	for d := e.numDisks; d >= 1; d-- {
		e.board[0] = append(e.board[0], d)
	}
	e.turn = 0
	obs := fmt.Sprintf("You are playing Tower of Hanoi with %d disks.\n"+
		"You have to move the disks from tower A to tower C.\n"+
		"To move a disk, type the source tower and the target tower (e.g., '\\boxed{A C}').\n"+
		"Note that you can only move the top disk of a tower, and that a bigger disk cannot be placed on a smaller disk.\n"+
		"As you play, the history of your moves will be displayed.\n", e.numDisks)
	return obs, e.info(), nil
}

// info frames every observation with the current board.
func (e *Env) info() envs.Info {
	var b strings.Builder
	b.WriteString("Here is the current state of the tower of hanoi:\n")
	for i, disks := range e.board {
		b.WriteByte(towers[i])
		b.WriteString(": [")
		for j, d := range disks {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Itoa(d))
		}
		b.WriteString("]\n")
	}
	b.WriteString("\nEnter your move.")
	return envs.Info{Suffix: b.String()}
}

func top(disks []int) int { return disks[len(disks)-1] }

// Step applies one move with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: "You did not provide a valid action.",
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	src, dst := strings.ToUpper(m[1]), strings.ToUpper(m[2])
	from, to := strings.IndexByte(towers, src[0]), strings.IndexByte(towers, dst[0])
	parsed := `\boxed{` + src + " " + dst + `}`
	var obs string
	invalid := false
	switch {
	case len(e.board[from]) == 0:
		invalid = true
		obs = fmt.Sprintf("At turn %d, you tried to move from tower %s, which is empty.", e.turn, src)
	case len(e.board[to]) > 0 && top(e.board[from]) > top(e.board[to]):
		invalid = true
		obs = fmt.Sprintf("At turn %d, you tried to move from tower %s to tower %s, but the top disk on tower %s is larger than the top disk on tower %s.", e.turn, src, dst, src, dst)
	default:
		// GEM accepts src == dst as a legal move that changes nothing (the
		// disk is lifted and put back); Quarry keeps that.
		disk := top(e.board[from])
		e.board[from] = e.board[from][:len(e.board[from])-1]
		e.board[to] = append(e.board[to], disk)
		obs = fmt.Sprintf("At turn %d, you moved disk %d from tower %s to tower %s.", e.turn, disk, src, dst)
		if e.solved() {
			info := e.info()
			info.ParsedAction, info.Success = parsed, true
			return envs.StepResult{Observation: "Congratulations! You solved the Tower of Hanoi Puzzle", Reward: games.SuccessReward, Terminated: true, Info: info}, nil
		}
	}
	info := e.info()
	info.ParsedAction, info.InvalidAction = parsed, invalid
	if e.turn >= e.maxTurns {
		// Partial credit: the share of disks on C, however they got there.
		reward := float64(len(e.board[2])) / float64(e.numDisks)
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	reward := games.InternalStepReward
	if invalid {
		reward = games.InvalidActionReward
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// solved reports whether every disk is on C. Only legal moves reach here, so
// C holding all the disks means it holds them in order.
func (e *Env) solved() bool { return len(e.board[2]) == e.numDisks }

// SampleRandomAction names two distinct towers; GEM has no random action for
// this game. The move may be illegal.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	from := rng.IntN(3)
	to := (from + 1 + rng.IntN(2)) % 3
	return `\boxed{` + towers[from:from+1] + " " + towers[to:to+1] + `}`
}

// OracleAction returns the first move of a shortest solution from the
// current (any legal) position. To bring disks 1..k to tower t: if disk k is
// already on t, bring 1..k-1 to t; otherwise disk k must move to t, which
// first needs 1..k-1 on the spare tower. Walking k down from n, the last disk
// found off its target is the one to move now: every smaller disk already
// sits on its spare tower.
func (e *Env) OracleAction() (string, error) {
	if e.rng == nil {
		return "", errors.New("towerofhanoi: oracle called before Reset")
	}
	if cap(e.where) < e.numDisks+1 {
		e.where = make([]int, e.numDisks+1)
	}
	where := e.where[:e.numDisks+1]
	for t, disks := range e.board {
		for _, d := range disks {
			where[d] = t
		}
	}
	from, to := -1, -1
	target := 2
	for k := e.numDisks; k >= 1; k-- {
		if where[k] == target {
			continue
		}
		from, to = where[k], target
		target = 3 - where[k] - target
	}
	if from < 0 {
		return "", errors.New("towerofhanoi: the puzzle is already solved")
	}
	return `\boxed{` + towers[from:from+1] + " " + towers[to:to+1] + `}`, nil
}
