// Package guessthenumber is GEM's game:GuessTheNumber: find a hidden integer
// from "higher"/"lower" hints.
package guessthenumber

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's registration parameters. A nil range draws a random
// range per episode (the -random variant), with max_turns derived from it.
type Options struct {
	MinNumber *int `json:"min_number" range:"-1000000000,1000000000"`
	MaxNumber *int `json:"max_number" range:"-1000000000,1000000000"`
	MaxTurns  *int `json:"max_turns" range:"1,1000"`
}

func (o Options) random() bool { return o.MinNumber == nil || o.MaxNumber == nil }

// Validate checks a fixed range and its turn limit.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	if *o.MinNumber >= *o.MaxNumber {
		return &envs.OptionError{Option: "max_number", Reason: fmt.Sprintf("must exceed min_number (%d)", *o.MinNumber)}
	}
	if o.MaxTurns == nil || *o.MaxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer when the range is fixed"}
	}
	return nil
}

// Random draws: min in [1,10], max in [min+5, min+50], turns ceil(sqrt(max-min))+1.
const randomMaxTurns = 9 // ceil(sqrt(50)) + 1

// Register adds every GEM variant and the GEM-README alias game:GuessTheNumber-v0 (→ -hard).
func Register(r *envs.Registry) error {
	err := games.RegisterVariants(r, envs.Spec{
		ID:          "game:GuessTheNumber-v0",
		Description: "Guess a hidden integer from higher/lower hints within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   games.SuccessReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(1), games.Int(10), games.Int(4)}, MaxTurns: 4},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(1), games.Int(50), games.Int(7)}, MaxTurns: 7},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomMaxTurns},
	)
	if err != nil {
		return err
	}
	return r.Alias("game:GuessTheNumber-v0", "game:GuessTheNumber-v0-hard")
}

var actionPattern = regexp.MustCompile(`\\boxed\{(\d+)\}`)

// Env is one GuessTheNumber game.
type Env struct {
	opts Options

	rng              *rand.Rand
	lo, hi, maxTurns int
	target           int
	turn             int
	guessed          map[int]bool
	knownLo, knownHi int // what the hints so far have shown; the oracle bisects it
}

// Reset draws the range (for -random) and the target from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.lo = 1 + e.rng.IntN(10)
		e.hi = e.lo + 5 + e.rng.IntN(46)
		e.maxTurns = int(math.Ceil(math.Sqrt(float64(e.hi-e.lo)))) + 1
	} else {
		e.lo, e.hi, e.maxTurns = *e.opts.MinNumber, *e.opts.MaxNumber, *e.opts.MaxTurns
	}
	e.target = e.lo + e.rng.IntN(e.hi-e.lo+1)
	e.turn = 0
	e.guessed = map[int]bool{}
	e.knownLo, e.knownHi = e.lo, e.hi
	obs := fmt.Sprintf("You are playing Guess The Number.\n"+
		"You have to guess the number between %d and %d (inclusive) within %d turns.\n"+
		"As you enter your guess, the game will provide you with hints such as the target number is 'higher' or 'lower'.\n"+
		"You may provide your response in any manner. Only the number that is wrapped inside \\boxed{} will be considered as your guess, for example, %s.\n"+
		"As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n"+
		"Enter your first guess to start the game.\n",
		e.lo, e.hi, e.maxTurns, e.SampleRandomAction(e.rng))
	return obs, e.info(), nil
}

func (e *Env) info() envs.Info { return envs.Info{Suffix: "Enter your next guess."} }

// Step scores one guess with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	info := e.info()
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	// GEM treats a guess of 0 as unparseable (a falsy int); Quarry treats it
	// like any other number outside the range. Digits too long for an int are
	// out of range as well.
	guess, err := strconv.Atoi(m[1])
	inRange := err == nil && guess >= e.lo && guess <= e.hi
	info.ParsedAction = `\boxed{` + m[1] + `}`
	var obs string
	reward := games.InternalStepReward
	switch {
	case !inRange:
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s, which is outside the range specified.", e.turn, m[1])
		reward = games.InvalidActionReward
	case e.guessed[guess]:
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %d, which has been already guessed before.", e.turn, guess)
		reward = games.InvalidActionReward
	case guess == e.target:
		info.Success = true
		return envs.StepResult{
			Observation: fmt.Sprintf("Congratulations! You guessed the correct number %d in %d turns.", e.target, e.turn),
			Reward:      games.SuccessReward, Terminated: true, Info: info,
		}, nil
	default:
		e.guessed[guess] = true
		hint := "higher"
		if guess > e.target {
			hint = "lower"
			e.knownHi = min(e.knownHi, guess-1)
		} else {
			e.knownLo = max(e.knownLo, guess+1)
		}
		obs = fmt.Sprintf("At turn %d, you guessed %d, and the target number is %s than %d.", e.turn, guess, hint, guess)
	}
	if e.turn >= e.maxTurns {
		if inRange {
			reward = 1 - math.Abs(float64(guess-e.target))/float64(e.hi-e.lo)
		} else {
			reward = games.InvalidActionReward
		}
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// SampleRandomAction guesses uniformly within the range.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	return fmt.Sprintf(`\boxed{%d}`, e.lo+rng.IntN(e.hi-e.lo+1))
}

// OracleAction bisects the interval the hints have left open.
func (e *Env) OracleAction() (string, error) {
	return fmt.Sprintf(`\boxed{%d}`, (e.knownLo+e.knownHi)/2), nil
}
