// Package hangman is GEM's game:Hangman: find a secret English word by
// guessing its letters, or the whole word, within a turn budget.
package hangman

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
	"github.com/quarry-rl/quarry/envs/games/words"
)

// Options are GEM's registration parameters. If word_length or max_turns is
// null, each episode draws both from randomGames (the -random variant).
type Options struct {
	WordLength *int `json:"word_length" range:"3,10"`
	// Hardcore draws the secret from the extended word list (rarer words)
	// instead of the common one, as GEM switches from NLTK's basic English
	// words to its full list.
	Hardcore bool `json:"hardcore"`
	MaxTurns *int `json:"max_turns" range:"1,1000"`
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

// randomGames are GEM's (word length, max turns) draws for -random.
var randomGames = [...][2]int{{3, 10}, {5, 15}, {7, 20}}

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Hangman-v0",
		Description: "Find a secret English word by guessing letters or the whole word within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		RewardMax:   0.5 + 0.5*games.SuccessReward, // the whole word at once
		Revision:    1,
		DataDigest:  words.Digest(),
	}, func(o Options) (envs.Env, error) { return newEnv(o), nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(3), false, games.Int(10)}, MaxTurns: 10},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(7), false, games.Int(20)}, MaxTurns: 20},
		games.Variant[Options]{Suffix: "random", MaxTurns: 20},
	)
}

// actionPattern is GEM's: the last \boxed{} holding only letters.
var actionPattern = regexp.MustCompile(`\\boxed\{([a-zA-Z]+)\}`)

const blank = '_'

// Env is one Hangman game. Words are kept lowercase and shown uppercase.
type Env struct {
	opts Options

	rng        *rand.Rand
	length     int
	maxTurns   int
	pool       []string // the secrets of this length (shared, read-only)
	secret     string
	board      []byte // the secret's letters found so far, blank elsewhere
	guessed    [26]bool
	turn       int
	wrongWords []string // whole-word guesses of the right length that failed

	// cands are the pool words consistent with everything shown; the oracle
	// picks from them.
	cands []string
	stale bool           // cands must be narrowed before use
	parts map[string]int // scratch for the oracle

	// fair stops the oracle from ever looking at the secret (see OracleAction).
	fair bool
}

func newEnv(o Options) *Env {
	e := &Env{opts: o, length: randomGames[0][0], parts: map[string]int{}}
	if !o.random() {
		e.length = *o.WordLength
	}
	e.pool = e.words(e.length) // so SampleRandomAction works before Reset
	return e
}

func (e *Env) words(length int) []string {
	if e.opts.Hardcore {
		return words.Extended(length)
	}
	return words.Words(length)
}

// Reset draws the length and limit (for -random) and the secret from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		g := randomGames[e.rng.IntN(len(randomGames))]
		e.length, e.maxTurns = g[0], g[1]
	} else {
		e.length, e.maxTurns = *e.opts.WordLength, *e.opts.MaxTurns
	}
	e.pool = e.words(e.length)
	e.secret = e.pool[e.rng.IntN(len(e.pool))]
	e.board = append(e.board[:0], strings.Repeat(string(blank), e.length)...)
	e.guessed = [26]bool{}
	e.turn = 0
	e.wrongWords = e.wrongWords[:0]
	e.cands, e.stale = e.cands[:0], true // filled lazily: only the oracle needs them
	// GEM's text swaps the two examples (a word "for one letter guesses", a
	// letter for the entire word); Quarry puts each in its place.
	obs := fmt.Sprintf("You are playing Hangman.\n"+
		"The objective of the game is to guess the %d-letter word by providing one letter guesses or the entire word.\n"+
		"The cells that need to be populated with letters are represented by '_'.\n\n"+
		"There are two ways you can answer. You can provide one letter guesses in the format of %s, or you can guess the entire word in the format of %s.\n"+
		"If the given letter is in the word, it will be revealed in the grid.\n"+
		"If the given word is correct, you win.\n"+
		"As you play, the history of your choices will be appended below. Use the information to figure out the word and win.\n"+
		"Some rules:\n"+
		"1. You can only guess one letter/word at a time.\n"+
		"2. You have to win within %d turns.\n\n",
		e.length, randomLetter(e.rng), e.randomWord(e.rng), e.maxTurns)
	return obs, e.info(), nil
}

func (e *Env) info() envs.Info {
	return envs.Info{Suffix: "Here is the current state of the Hangman grid:\n" + e.render() + "\n\nEnter your guess."}
}

// render draws GEM's grid: a header of column labels, then one cell a letter.
func (e *Env) render() string {
	var b strings.Builder
	b.Grow(8 * len(e.board))
	for i := range e.board {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "C%02d", i)
	}
	b.WriteByte('\n')
	for _, c := range e.board {
		b.WriteString("  ")
		if c != blank {
			c -= 'a' - 'A'
		}
		b.WriteByte(c)
		b.WriteByte(' ')
	}
	return b.String()
}

// Step applies one guess with GEM's rules. A game is won only by guessing the
// whole word, as in GEM, even once every letter is revealed.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: "You did not provide a valid guess.",
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	guess := strings.ToLower(m[1])
	shown := strings.ToUpper(guess)
	var obs string
	reward := games.InternalStepReward
	invalid := false
	switch {
	case len(guess) > 1 && guess == e.secret:
		blanks := 0
		for _, c := range e.board {
			if c == blank {
				blanks++
			}
		}
		info := e.info() // the grid as it stood, as GEM shows it
		info.ParsedAction = `\boxed{` + shown + `}`
		info.Success = true
		return envs.StepResult{
			Observation: fmt.Sprintf("Congratulations! You guessed the word '%s' correctly!", shown),
			Reward:      0.5*float64(blanks)/float64(e.length) + 0.5*games.SuccessReward, Terminated: true, Info: info,
		}, nil
	case len(guess) > 1 && len(guess) != e.length:
		invalid = true
		obs = fmt.Sprintf("At turn %d, You guessed '%s' which is of length %d, but the secret word is of length %d.", e.turn, shown, len(guess), e.length)
		reward = games.InvalidActionReward
	case len(guess) > 1:
		// A wrong word of the right length is an ordinary losing move in
		// GEM, repeated or not.
		obs = fmt.Sprintf("At turn %d, You guessed '%s' which is incorrect.", e.turn, shown)
		if !slices.Contains(e.wrongWords, guess) {
			e.wrongWords = append(e.wrongWords, guess)
		}
		e.stale = true
	case e.guessed[guess[0]-'a']:
		invalid = true
		obs = fmt.Sprintf("At turn %d, you guessed '%s', which has been already guessed before.", e.turn, shown)
		reward = games.InvalidActionReward
	default:
		e.guessed[guess[0]-'a'] = true
		revealed := 0
		for i := range len(e.secret) {
			if e.secret[i] == guess[0] {
				e.board[i] = guess[0]
				revealed++
			}
		}
		if revealed > 0 {
			obs = fmt.Sprintf("At turn %d, you successfully guessed a letter '%s' that is in the secret word.", e.turn, shown)
			reward = 0.5 * float64(revealed) / float64(e.length)
		} else {
			obs = fmt.Sprintf("At turn %d, you guessed a letter '%s' that is not in the secret word.", e.turn, shown)
		}
		e.stale = true
	}
	info := e.info()
	info.ParsedAction = `\boxed{` + shown + `}`
	info.InvalidAction = invalid
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// fits reports whether w agrees with the board and the letters guessed: the
// revealed letters in place, and no guessed letter anywhere else (a guessed
// letter that is in the secret is revealed everywhere it occurs).
func (e *Env) fits(w string) bool {
	for i := range len(w) {
		if b := e.board[i]; b != blank {
			if w[i] != b {
				return false
			}
		} else if e.guessed[w[i]-'a'] {
			return false
		}
	}
	return !slices.Contains(e.wrongWords, w)
}

// narrow keeps the candidates that fit what has been shown. It runs only
// when the oracle asks, so plain play pays nothing for it; filtering is
// monotone, so narrowing once at the end equals narrowing after every step.
func (e *Env) narrow() {
	if !e.stale {
		return
	}
	e.stale = false
	if len(e.cands) == 0 {
		e.cands = append(e.cands, e.pool...)
	}
	kept := e.cands[:0]
	for _, w := range e.cands {
		if e.fits(w) {
			kept = append(kept, w)
		}
	}
	clear(e.cands[len(kept):])
	e.cands = kept
}

func randomLetter(rng *rand.Rand) string {
	return `\boxed{` + string(rune('A'+rng.IntN(26))) + `}`
}

func (e *Env) randomWord(rng *rand.Rand) string {
	return `\boxed{` + strings.ToUpper(e.pool[rng.IntN(len(e.pool))]) + `}`
}

// SampleRandomAction guesses, with even odds, a random letter or a random word
// of the secret's length, as GEM does.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if rng.IntN(2) == 0 {
		return e.randomWord(rng)
	}
	return randomLetter(rng)
}

// OracleAction plays from what the grid has shown: it keeps the words of the
// list that fit the board, the letters tried and the wrong words, and guesses
// the letter that leaves the fewest candidates in expectation (sum of squared
// sizes of the groups the letter's positions split them into), or a word once
// no letter does better than a word would, or when one candidate is left.
//
// Some secrets cannot always be found in time from the grid alone: "_AT" with
// a dozen first letters possible and fewer turns left. Only then, when it
// must guess a word among more candidates than turns remain, does the oracle
// pick the secret among them — a guess no worse than any other from the
// agent's view — so every game is winnable and its transcripts stay plausible
// expert play. With more turns than candidates it tries them in list order.
func (e *Env) OracleAction() (string, error) {
	e.narrow()
	n := len(e.cands)
	if n == 0 {
		return "", fmt.Errorf("hangman oracle: no word fits the grid")
	}
	left := e.maxTurns - e.turn
	if n == 1 {
		return e.wordGuess(e.cands[0]), nil
	}
	best, bestScore := -1, 0
	if left > 1 {
		pattern := make([]byte, e.length)
		for l := range 26 {
			if e.guessed[l] {
				continue
			}
			clear(e.parts)
			for _, w := range e.cands {
				for i := range len(w) {
					pattern[i] = 0
					if w[i] == byte('a'+l) {
						pattern[i] = 1
					}
				}
				e.parts[string(pattern)]++
			}
			s := 0
			for _, k := range e.parts {
				s += k * k
			}
			if best < 0 || s < bestScore {
				best, bestScore = l, s
			}
		}
	}
	// A wrong word leaves n-1 candidates: sum of squares (n-1)² + 1·0².
	if best < 0 || bestScore >= (n-1)*(n-1) {
		w := e.cands[0]
		if n > left && !e.fair && slices.Contains(e.cands, e.secret) {
			w = e.secret
		}
		return e.wordGuess(w), nil
	}
	return `\boxed{` + string(rune('A'+best)) + `}`, nil
}

func (e *Env) wordGuess(w string) string { return `\boxed{` + strings.ToUpper(w) + `}` }
