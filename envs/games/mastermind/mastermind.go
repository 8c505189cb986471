// Package mastermind is GEM's game:Mastermind: deduce a hidden code of digits
// from black/white peg feedback.
package mastermind

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's registration parameters. If any of code_length,
// num_numbers or max_turns is nil, all three are drawn per episode (the
// -random variant), as GEM does.
type Options struct {
	CodeLength       *int `json:"code_length" range:"1,6"`
	NumNumbers       *int `json:"num_numbers" range:"1,10"`
	DuplicateNumbers bool `json:"duplicate_numbers"`
	MaxTurns         *int `json:"max_turns" range:"1,1000"`
}

func (o Options) random() bool {
	return o.CodeLength == nil || o.NumNumbers == nil || o.MaxTurns == nil
}

// Validate checks a fixed configuration.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	switch {
	case *o.CodeLength < 1:
		return &envs.OptionError{Option: "code_length", Reason: "must be a positive integer"}
	case *o.NumNumbers < 1:
		return &envs.OptionError{Option: "num_numbers", Reason: "must be a positive integer"}
	case *o.MaxTurns < 1:
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer"}
	case !o.DuplicateNumbers && *o.CodeLength > *o.NumNumbers:
		// GEM's random.sample would raise here.
		return &envs.OptionError{Option: "code_length", Reason: fmt.Sprintf("cannot exceed num_numbers (%d) unless duplicate_numbers is true", *o.NumNumbers)}
	}
	return nil
}

// config is one episode's (code length, digit range, turn limit).
type config struct{ codeLength, numNumbers, maxTurns int }

// randomConfigs are GEM's draws for the -random variant.
var randomConfigs = []config{{2, 4, 10}, {4, 6, 20}, {4, 8, 30}}

const randomMaxTurns = 30 // the largest limit in randomConfigs

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Mastermind-v0",
		Description: "Crack a hidden code of digits from black/white peg feedback within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   games.SuccessReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return newEnv(o), nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{CodeLength: games.Int(2), NumNumbers: games.Int(6), MaxTurns: games.Int(10)}, MaxTurns: 10},
		games.Variant[Options]{Suffix: "hard", Options: Options{CodeLength: games.Int(4), NumNumbers: games.Int(8), MaxTurns: games.Int(30)}, MaxTurns: 30},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomMaxTurns},
	)
}

// Unlike Python's re, Go's \d and \s are ASCII-only: a guess written in
// non-ASCII digits is unparseable here.
var actionPattern = regexp.MustCompile(`\\boxed\{(\d+(?:\s+\d+)*)\}`)

const suffix = "Enter your guess."

// feedback is the peg count one valid guess received.
type feedback struct{ black, white int }

// Env is one Mastermind game.
type Env struct {
	opts Options
	dup  bool

	rng *rand.Rand
	config
	code      []int
	turn      int
	milestone int        // most black pegs any guess has had (GEM's milestone)
	guesses   []int      // every valid guess so far, concatenated
	pegs      []feedback // pegs[i] is the feedback for guesses[i*codeLength:]

	guess  []int  // scratch: the guess being scored
	used   []bool // scratch for score
	search []int  // scratch for the oracle
}

func newEnv(o Options) *Env {
	e := &Env{opts: o, dup: o.DuplicateNumbers}
	// Until the first Reset, random actions use the first configuration.
	if o.random() {
		e.config = randomConfigs[0]
	} else {
		e.config = config{*o.CodeLength, *o.NumNumbers, *o.MaxTurns}
	}
	return e
}

// Reset draws the configuration (for -random) and the secret code from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.config = randomConfigs[e.rng.IntN(len(randomConfigs))]
	}
	e.code = drawCode(e.code[:0], e.rng, e.codeLength, e.numNumbers, e.dup)
	e.turn, e.milestone = 0, 0
	e.guesses, e.pegs = e.guesses[:0], e.pegs[:0]
	e.guess = slices.Grow(e.guess[:0], e.codeLength)[:e.codeLength]
	e.used = slices.Grow(e.used[:0], e.codeLength)[:e.codeLength]
	e.search = slices.Grow(e.search[:0], e.codeLength)[:e.codeLength]
	allowed := "not allowed"
	if e.dup {
		allowed = "allowed"
	}
	obs := fmt.Sprintf("You are playing Mastermind.\n"+
		"You have to guess the secret %d digit code within %d turns.\n"+
		"The code consists of digits from 1 to %d (inclusive). Duplicate numbers are %s.\n"+
		"After you enter your guess, I will say mark your guess with black and white pegs, where a black peg indicates a correct digit in the correct position, while a white peg indicates a correct digit in the wrong position.\n"+
		"After thinking, format your final answer inside \\boxed{...}, for example, %s.\n"+
		"As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n"+
		"Enter your first guess to start the game.\n",
		e.codeLength, e.maxTurns, e.numNumbers, allowed, e.SampleRandomAction(e.rng))
	// GEM's reset returns an empty info: the instructions already ask for
	// the first guess.
	return obs, envs.Info{}, nil
}

// drawCode appends n digits from 1..k to dst, distinct unless dup. Drawing
// each position uniformly among the digits not yet used gives a uniform
// ordered sample without a k-sized pool.
func drawCode(dst []int, rng *rand.Rand, n, k int, dup bool) []int {
	start := len(dst)
	for range n {
		d := 1 + rng.IntN(k)
		for !dup && slices.Contains(dst[start:], d) {
			d = 1 + rng.IntN(k)
		}
		dst = append(dst, d)
	}
	return dst
}

// Step scores one guess with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	info := envs.Info{Suffix: suffix}
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	tokens := strings.Fields(m[1])
	for i, tok := range tokens {
		tokens[i] = canonical(tok)
	}
	shown := "[" + strings.Join(tokens, ", ") + "]" // as Python prints the parsed list
	info.ParsedAction = `\boxed{` + strings.Join(tokens, " ") + `}`
	reward := games.InvalidActionReward
	var obs string
	switch {
	case len(tokens) != e.codeLength:
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s which has %d entries but the code has length %d.", e.turn, shown, len(tokens), e.codeLength)
	case !e.parseGuess(tokens):
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s, which has numbers outside the range 1 to %d.", e.turn, shown, e.numNumbers)
	case e.guessedBefore(e.guess):
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s, which has been already guessed before.", e.turn, shown)
	default:
		black, white := score(e.code, e.guess, e.used)
		e.guesses = append(e.guesses, e.guess...)
		e.pegs = append(e.pegs, feedback{black, white})
		reward = games.InternalStepReward
		if black > e.milestone {
			reward = float64(black-e.milestone) / float64(e.codeLength)
			e.milestone = black
		}
		if black == e.codeLength {
			info.Success = true
			return envs.StepResult{
				Observation: fmt.Sprintf("Congratulations! You guessed the correct code %s in %d turns.", pyList(e.code), e.turn),
				Reward:      reward, Terminated: true, Info: info,
			}, nil
		}
		obs = fmt.Sprintf("At turn %d, you guessed %s. This guess receives %d black peg(s) and %d white peg(s).", e.turn, shown, black, white)
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// canonical writes a digit string as Python's int() then str() would.
func canonical(tok string) string {
	if t := strings.TrimLeft(tok, "0"); t != "" {
		return t
	}
	return "0"
}

// parseGuess fills e.guess from tokens (already of the code's length) and
// reports whether every digit is in range. Numbers too long for an int are
// out of range too.
func (e *Env) parseGuess(tokens []string) bool {
	for i, tok := range tokens {
		d, err := strconv.Atoi(tok)
		if err != nil || d < 1 || d > e.numNumbers {
			return false
		}
		e.guess[i] = d
	}
	return true
}

func (e *Env) guessedBefore(g []int) bool {
	for i := range e.pegs {
		if slices.Equal(e.guesses[i*e.codeLength:(i+1)*e.codeLength], g) {
			return true
		}
	}
	return false
}

// score counts black pegs (right digit, right place) and white pegs (right
// digit, wrong place, each code digit matched at most once). It is symmetric
// in code and guess. used is scratch of the code's length.
func score(code, guess []int, used []bool) (black, white int) {
	for i := range code {
		used[i] = code[i] == guess[i]
		if used[i] {
			black++
		}
	}
	for i, g := range guess {
		if g == code[i] {
			continue
		}
		for j, c := range code {
			if !used[j] && c == g {
				used[j] = true
				white++
				break
			}
		}
	}
	return black, white
}

func pyList(xs []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
	return b.String()
}

func boxed(xs []int) string {
	var b strings.Builder
	b.WriteString(`\boxed{`)
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte('}')
	return b.String()
}

// SampleRandomAction guesses distinct digits, as GEM does even when the code
// may repeat them; a code longer than the digit range (possible only with
// duplicate_numbers) is sampled with repetition, where GEM would raise.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	var buf [16]int
	g := drawCode(buf[:0], rng, e.codeLength, e.numNumbers, e.codeLength > e.numNumbers)
	return boxed(g)
}

// OracleAction plays the first code, in lexicographic order, that is
// consistent with every peg count shown so far (and with the duplicate rule
// the prompt states). Constraints only accumulate, so it never repeats a
// guess, and the secret is always a candidate, so it always wins eventually.
// The depth-first search prunes on black pegs; it is instant at GEM's sizes
// but grows with num_numbers^code_length for large custom codes.
func (e *Env) OracleAction() (string, error) {
	if e.rng == nil {
		return "", errors.New("mastermind: oracle called before Reset")
	}
	if !e.consistentFrom(0) {
		return "", errors.New("mastermind: no code is consistent with the feedback")
	}
	return boxed(e.search), nil
}

// consistentFrom fills e.search[pos:] with the lexicographically first
// completion consistent with the feedback, depth first.
func (e *Env) consistentFrom(pos int) bool {
	code := e.search
	if pos == len(code) {
		for i, fb := range e.pegs {
			b, w := score(code, e.guesses[i*e.codeLength:(i+1)*e.codeLength], e.used)
			if b != fb.black || w != fb.white {
				return false
			}
		}
		return true
	}
	for d := 1; d <= e.numNumbers; d++ {
		if !e.dup && slices.Contains(code[:pos], d) {
			continue
		}
		code[pos] = d
		if e.prefixPossible(pos+1) && e.consistentFrom(pos+1) {
			return true
		}
	}
	return false
}

// prefixPossible prunes on black pegs: a fixed prefix cannot already agree
// with a past guess in more places than it scored black, nor disagree in more
// places than it scored non-black.
func (e *Env) prefixPossible(n int) bool {
	for i, fb := range e.pegs {
		g := e.guesses[i*e.codeLength:]
		hits := 0
		for j := range n {
			if e.search[j] == g[j] {
				hits++
			}
		}
		if hits > fb.black || n-hits > e.codeLength-fb.black {
			return false
		}
	}
	return true
}
