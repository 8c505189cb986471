// Package wordle is GEM's game:Wordle: find a secret English word from
// per-letter feedback (G green, Y yellow, X absent) within a turn budget.
package wordle

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
	"github.com/quarry-rl/quarry/envs/games/words"
)

// Options are GEM's registration parameters. If word_length or max_turns is
// null, each episode draws both (the -random variant): a length of 3 to 5
// letters and five turns per letter.
type Options struct {
	WordLength *int `json:"word_length" range:"3,10"`
	// OnlyRealWords rejects guesses that are not dictionary words (GEM
	// accepts the parameter but never checks it; Quarry does, see Step).
	OnlyRealWords bool `json:"only_real_words"`
	MaxTurns      *int `json:"max_turns" range:"1,1000"`
}

func (o Options) random() bool { return o.WordLength == nil || o.MaxTurns == nil }

// Validate checks the values that are set.
func (o Options) Validate() error {
	if o.WordLength != nil && (*o.WordLength < words.MinLength || *o.WordLength > words.MaxLength) {
		return &envs.OptionError{Option: "word_length", Reason: fmt.Sprintf("must be from %d to %d, or null for a random length", words.MinLength, words.MaxLength)}
	}
	if o.MaxTurns != nil && *o.MaxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer, or null for a random limit"}
	}
	return nil
}

// Random draws: length in [3, 5], turns 5 × length.
const (
	randomMinLength, randomMaxLength = 3, 5
	turnsPerLetter                   = 5
)

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Wordle-v0",
		Description: "Guess a secret English word from green/yellow/absent letter feedback within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   0.5 + 0.5*games.SuccessReward, // every letter newly green, and solved
		Revision:    1,
		DataDigest:  words.Digest(),
	}, func(o Options) (envs.Env, error) { return newEnv(o), nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(3), true, games.Int(15)}, MaxTurns: 15},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(5), true, games.Int(25)}, MaxTurns: 25},
		games.Variant[Options]{Suffix: "random", Options: Options{OnlyRealWords: true}, MaxTurns: turnsPerLetter * randomMaxLength},
	)
}

// actionPattern is GEM's: letters, possibly separated by whitespace, in the
// last \boxed{} that holds only that. Python's \s also matches \v.
var actionPattern = regexp.MustCompile(`\\boxed\{([a-zA-Z]+(?:[\s\v]+[a-zA-Z]+)*)\}`)

// Env is one Wordle game. Words are kept lowercase and shown uppercase.
type Env struct {
	opts Options

	rng      *rand.Rand
	length   int
	maxTurns int
	pool     []string // the secrets of this length (shared, read-only)
	secret   string
	turn     int
	guesses  []string // valid guesses so far
	greens   []bool   // positions found green so far (GEM's milestones)
	fb       []byte   // the latest feedback
	scratch  []byte

	// cands are the pool words consistent with every feedback shown; the
	// oracle picks from them.
	cands   []string
	classes map[int]int // scratch for the oracle
}

func newEnv(o Options) *Env {
	e := &Env{opts: o, length: randomMinLength, classes: map[int]int{}}
	if !o.random() {
		e.length = *o.WordLength
	}
	e.pool = words.Words(e.length) // so SampleRandomAction works before Reset
	return e
}

// Reset draws the length (for -random) and the secret from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.length = randomMinLength + e.rng.IntN(randomMaxLength-randomMinLength+1)
		e.maxTurns = turnsPerLetter * e.length
	} else {
		e.length, e.maxTurns = *e.opts.WordLength, *e.opts.MaxTurns
	}
	e.pool = words.Words(e.length)
	e.secret = e.pool[e.rng.IntN(len(e.pool))]
	e.turn = 0
	e.guesses = e.guesses[:0]
	e.greens = append(e.greens[:0], make([]bool, e.length)...)
	e.fb = append(e.fb[:0], make([]byte, e.length)...)
	e.scratch = append(e.scratch[:0], make([]byte, e.length)...)
	e.cands = append(e.cands[:0], e.pool...)
	obs := fmt.Sprintf("You are playing Wordle.\n"+
		"You have to guess the secret %d-letter word within %d turns.\n"+
		"After you enter your guess, I will say mark your guess as follows:\n"+
		"  - G (green): correct letter in the correct position\n"+
		"  - Y (yellow): letter exists in the word but in the wrong position\n"+
		"  - X (wrong): letter is not in the word\n"+
		"After thinking, format your final answer inside \\boxed{...}, for example, %s.\n"+
		"As you play, the history of your guesses will be appended below. Use the information to complete the game before you run out of guesses.\n",
		e.length, e.maxTurns, e.SampleRandomAction(e.rng))
	return obs, e.info(), nil
}

func (e *Env) info() envs.Info { return envs.Info{Suffix: "Enter your guess."} }

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
	// GEM removes only spaces between the letters, so a tab or newline
	// inside the box makes a guess of the wrong length; Quarry removes any
	// whitespace the pattern allows.
	guess := lowerLetters(m[1])
	shown := strings.ToUpper(guess)
	info.ParsedAction = `\boxed{` + shown + `}`
	var obs string
	reward := games.InternalStepReward
	switch {
	case len(guess) != e.length:
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s which has %d letters but the secret word has %d letters.", e.turn, shown, len(guess), e.length)
		reward = games.InvalidActionReward
	case e.opts.OnlyRealWords && !words.IsWord(guess):
		// GEM ignores only_real_words; Quarry rejects non-words like a
		// wrong length: invalid, no reward, the turn is spent.
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s, which is not a valid English word.", e.turn, shown)
		reward = games.InvalidActionReward
	case e.guessedBefore(guess):
		info.InvalidAction = true
		obs = fmt.Sprintf("At turn %d, you guessed %s, which has been already guessed before.", e.turn, shown)
		reward = games.InvalidActionReward
	default:
		e.guesses = append(e.guesses, guess)
		score(e.fb, guess, e.secret)
		solved := true
		for i, f := range e.fb {
			if f != 'G' {
				solved = false
			} else if !e.greens[i] {
				e.greens[i] = true
				reward += 0.5 / float64(e.length)
			}
		}
		if solved {
			info.Success = true
			return envs.StepResult{
				Observation: fmt.Sprintf("Congratulations! You guessed the secret word %s in %d turns.", strings.ToUpper(e.secret), e.turn),
				Reward:      reward + 0.5*games.SuccessReward, Terminated: true, Info: info,
			}, nil
		}
		e.narrow(guess)
		obs = fmt.Sprintf("At turn %d, you guessed %s\nFeedback:\n%s\n%s", e.turn, shown, shown, pyList(e.fb))
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// lowerLetters returns the ASCII letters of s, lowercased.
func lowerLetters(s string) string {
	b := make([]byte, 0, len(s))
	for i := range len(s) {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z':
			b = append(b, c)
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return string(b)
}

func (e *Env) guessedBefore(g string) bool {
	for _, p := range e.guesses {
		if p == g {
			return true
		}
	}
	return false
}

// score writes Wordle's feedback for guess against secret (equal lengths,
// lowercase) into fb: greens first, then yellows left to right while
// unmatched copies of the letter remain in the secret, as GEM does.
func score(fb []byte, guess, secret string) {
	var left [26]int8
	for i := range len(secret) {
		if guess[i] == secret[i] {
			fb[i] = 'G'
		} else {
			fb[i] = 0
			left[secret[i]-'a']++
		}
	}
	for i := range len(guess) {
		if fb[i] != 0 {
			continue
		}
		if c := guess[i] - 'a'; left[c] > 0 {
			fb[i] = 'Y'
			left[c]--
		} else {
			fb[i] = 'X'
		}
	}
}

// code packs feedback into an integer, base 3.
func code(fb []byte) int {
	c := 0
	for _, f := range fb {
		c *= 3
		switch f {
		case 'Y':
			c++
		case 'G':
			c += 2
		}
	}
	return c
}

// pyList renders feedback the way GEM's observation does: Python's repr of
// a list of letters, e.g. ['G', 'X', 'Y'].
func pyList(fb []byte) string {
	var b strings.Builder
	b.Grow(5*len(fb) + 1)
	b.WriteByte('[')
	for i, f := range fb {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('\'')
		b.WriteByte(f)
		b.WriteByte('\'')
	}
	b.WriteByte(']')
	return b.String()
}

// narrow keeps the candidates that would have given the feedback in e.fb.
func (e *Env) narrow(guess string) {
	want, fb := code(e.fb), e.scratch
	kept := e.cands[:0]
	for _, w := range e.cands {
		if w == guess {
			continue
		}
		score(fb, guess, w)
		if code(fb) == want {
			kept = append(kept, w)
		}
	}
	clear(e.cands[len(kept):])
	e.cands = kept
}

// SampleRandomAction guesses a random word of the secret's length.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	return `\boxed{` + strings.ToUpper(e.pool[rng.IntN(len(e.pool))]) + `}`
}

// oracleGuesses bounds how many candidates the oracle weighs as its guess.
const oracleGuesses = 64

// OracleAction guesses the candidate consistent with all feedback so far that
// leaves the fewest candidates in expectation (sum of squared feedback-class
// sizes), weighing at most oracleGuesses candidates spread over the list.
func (e *Env) OracleAction() (string, error) {
	n := len(e.cands)
	if n == 0 {
		return "", fmt.Errorf("wordle oracle: no word fits the feedback")
	}
	best, bestScore := 0, -1
	if n > 2 {
		fb := e.scratch
		step := max(1, n/oracleGuesses)
		for gi := 0; gi < n; gi += step {
			clear(e.classes)
			for _, w := range e.cands {
				score(fb, e.cands[gi], w)
				e.classes[code(fb)]++
			}
			s := 0
			for _, k := range e.classes {
				s += k * k
			}
			if bestScore < 0 || s < bestScore {
				best, bestScore = gi, s
			}
		}
	}
	return `\boxed{` + strings.ToUpper(e.cands[best]) + `}`, nil
}
