// Package crosswords is GEM's game:Crosswords: fill a small crossword grid
// letter by letter, from one clue per word.
//
// The rules, texts and rewards are GEM's: \boxed{row column letter}, 0-indexed;
// 1/letters for each correct letter, 0 for a wrong one or an illegal cell.
// Where Quarry differs, deliberately:
//
//   - words and clues come from the words package (common words with a
//     WordNet gloss), not GEM's two lists of 50 words with LLM-written clues;
//   - the grid keeps the crossword rules, holds every word, and never has
//     more letters than max_turns (see generator);
//   - random actions parse (GEM's \boxed{[r c L]} does not);
//   - GEM's -random variant raises on construction (it loads words with
//     hardcore=None); Quarry's plays as GEM's reset intends.
package crosswords

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
	"github.com/quarry-rl/quarry/envs/games/wordgrid"
	"github.com/quarry-rl/quarry/envs/games/words"
)

// Options are GEM's registration parameters. If any of them is null, each
// episode draws hardcore and uses GEM's random settings (3 words, 20 turns):
// the -random variant.
type Options struct {
	// Hardcore draws long words (7 to 10 letters) instead of short ones
	// (3 to 6). GEM switches to a list of rare words; Quarry's rare words
	// have no clues, so it uses length for difficulty instead.
	Hardcore *bool `json:"hardcore"`
	MaxTurns *int  `json:"max_turns" range:"1,1000"`
	NumWords *int  `json:"num_words" range:"1,5"`
}

func (o Options) random() bool { return o.Hardcore == nil || o.MaxTurns == nil || o.NumWords == nil }

// maxWords bounds num_words. GEM registers 3 (its constructor's default is 5).
const maxWords = 5

// Validate checks the values that are set, and that a fixed game leaves room
// for its letters: one turn each.
func (o Options) Validate() error {
	if err := wordgrid.ValidateCounts(o.NumWords, o.MaxTurns, maxWords); err != nil {
		return err
	}
	if o.random() {
		return nil
	}
	if need := minTurns(poolFor(*o.Hardcore), *o.NumWords); *o.MaxTurns < need {
		return &envs.OptionError{Option: "max_turns", Reason: fmt.Sprintf("must be at least %d for %d words (hardcore %v): one turn per letter", need, *o.NumWords, *o.Hardcore)}
	}
	return nil
}

// minTurns is the fewest turns Validate allows for n words of p. Up to three
// words, any number of letters a puzzle can have: the generator conditions
// on the limit and finds such puzzles quickly (see generator.puzzle). Four
// or five words would need several crossings each to squeeze into a tight
// limit on GEM's small grid, which random words rarely allow, so there the
// limit must hold the words even if none crossed.
func minTurns(p *pool, n int) int {
	if n <= 3 {
		return minLetters(p.minLen, n)
	}
	return n * p.maxLen
}

// minLetters is a lower bound on the letter cells of n words of at least
// minLen letters, exact for up to three words (one crossing the others):
// each crossing joins an across and a down word, so there are at most
// maxCrossings(n).
func minLetters(minLen, n int) int { return n*minLen - maxCrossings(n) }

// maxCrossings is the most crossings n words can have: every across word
// with every down word.
func maxCrossings(n int) int { return (n / 2) * ((n + 1) / 2) }

// GEM's -random settings (hardcore is drawn).
const randomWords, randomTurns = 3, 20

// Register adds GEM's three variants. Each variant's largest step reward is
// 1/letters, for the fewest letters a puzzle of it can have.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Crosswords-v0",
		Description: "Fill a crossword grid one letter per turn from a clue for each word.",
		RewardMin:   games.FormatErrorReward,
		Revision:    1,
		DataDigest:  words.Digest(),
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Bool(false), games.Int(30), games.Int(3)}, MaxTurns: 30, RewardMax: 1 / float64(minLetters(easyMin, 3))},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Bool(true), games.Int(40), games.Int(3)}, MaxTurns: 40, RewardMax: 1 / float64(minLetters(hardMin, 3))},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomTurns, RewardMax: 1 / float64(minLetters(easyMin, randomWords))},
	)
}

// actionPattern is GEM's: row, column and one letter in the last \boxed{}
// holding only that. Python's \s also matches \v.
var actionPattern = regexp.MustCompile(`\\boxed\{(\d+)[\s\v]+(\d+)[\s\v]+([a-zA-Z])\}`)

// Cells of the board.
const (
	black = '.'
	blank = '_'
)

// placement is one word of the puzzle; clue order is placement order.
type placement struct {
	word     string // lowercase
	row, col int
	down     bool
	clue     string
}

func (p placement) direction() string {
	if p.down {
		return "down"
	}
	return "across"
}

// Env is one Crosswords game.
type Env struct {
	opts Options

	rng      *rand.Rand
	hardcore bool
	numWords int
	maxTurns int

	size     int
	solution []byte // lowercase letters, black elsewhere
	board    []byte // black, blank, or the uppercase letter placed
	placed   []placement
	clues    string // the rendered clue list
	letters  int    // letter cells
	filled   int
	turn     int

	gen generator
}

// Reset draws the settings (for -random) and the puzzle from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.hardcore = e.rng.IntN(2) == 1
		e.numWords, e.maxTurns = randomWords, randomTurns
	} else {
		e.hardcore, e.numWords, e.maxTurns = *e.opts.Hardcore, *e.opts.NumWords, *e.opts.MaxTurns
	}
	size, placed, err := e.gen.puzzle(e.rng, poolFor(e.hardcore), e.numWords, e.maxTurns)
	if err != nil {
		return "", envs.Info{}, err
	}
	if err := e.install(size, placed); err != nil {
		return "", envs.Info{}, err
	}
	obs := "You are playing Crosswords.\n" +
		"Here is the current state of the Crosswords grid. Each row and column are numbered.\n" +
		"The cells that need to be populated with letters are represented by '_', and those that do not need words are represented by '.'.\n\n" +
		"You can only provide one response per turn. Hence, plan your approach and risk appetite.\n" +
		"Only guesses in the format of \\boxed{row column letter} will be fetched from your response, e.g. \\boxed{0 0 d}, \\boxed{1 2 G}.\n" +
		fmt.Sprintf("you have to finish the game in a maximum of %d turns.\n", e.maxTurns) +
		"As you play, the history of your choices will be appended below. Use the information to complete the game."
	return obs, e.info(), nil
}

// install starts a game on the puzzle of the given words, placed on a
// size×size grid, and attaches their clues.
func (e *Env) install(size int, placed []placement) error {
	e.size = size
	e.solution = append(e.solution[:0], strings.Repeat(string(black), size*size)...)
	e.placed = append(e.placed[:0], placed...)
	var clues strings.Builder
	for i := range e.placed {
		p := &e.placed[i]
		clue, ok := words.Clue(p.word)
		if !ok {
			return fmt.Errorf("crosswords: no clue for %q", p.word)
		}
		p.clue = clue
		if i > 0 {
			clues.WriteByte('\n')
		}
		fmt.Fprintf(&clues, "%d. %s (%s): %d letters", i+1, clue, p.direction(), len(p.word))
		dr, dc := wordgrid.Delta(p.down)
		for k := range len(p.word) {
			e.solution[(p.row+k*dr)*size+p.col+k*dc] = p.word[k]
		}
	}
	e.clues = clues.String()
	e.board = append(e.board[:0], e.solution...)
	e.letters = 0
	for i, c := range e.board {
		if c != black {
			e.board[i] = blank
			e.letters++
		}
	}
	e.filled, e.turn = 0, 0
	return nil
}

func (e *Env) info() envs.Info { return envs.Info{Suffix: e.suffix()} }

// suffix is GEM's task suffix: the board, the clues and the prompt.
func (e *Env) suffix() string {
	var b strings.Builder
	b.Grow(16 + (e.size+1)*(4*e.size+5) + 50 + len(e.clues) + 20)
	b.WriteString("Current Board:\n")
	e.render(&b)
	b.WriteString("\nHere are the clues for the words you need to find:\n")
	b.WriteString(e.clues)
	b.WriteString("\nEnter your guess.")
	return b.String()
}

// render writes the board as GEM does: a header of column numbers, then one
// line per row.
func (e *Env) render(b *strings.Builder) {
	b.WriteString("  ")
	for c := range e.size {
		b.WriteString(" C")
		twoDigits(b, c)
	}
	for r := range e.size {
		b.WriteString("\nR")
		twoDigits(b, r)
		b.WriteByte(' ')
		for _, v := range e.board[r*e.size : (r+1)*e.size] {
			b.WriteByte(' ')
			b.WriteByte(v)
			b.WriteString("  ")
		}
	}
}

// Step applies one letter with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess in \\boxed{row column letter} format.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	row, rowText := number(m[1])
	col, colText := number(m[2])
	letter := strings.ToUpper(m[3])
	parsed := `\boxed{` + rowText + " " + colText + " " + letter + `}`
	at := fmt.Sprintf("At turn %d, you tried to place %s at (%s, %s)", e.turn, letter, rowText, colText)
	var obs string
	reward, invalid := games.InternalStepReward, false
	switch {
	case row >= e.size || col >= e.size:
		obs, reward, invalid = at+", which is out of bounds.", games.InvalidActionReward, true
	case e.board[row*e.size+col] == black:
		obs, reward, invalid = at+", which is a black dot and cannot be filled.", games.InvalidActionReward, true
	case e.board[row*e.size+col] != blank:
		obs, reward, invalid = at+", but the cell is already filled.", games.InvalidActionReward, true
	case e.solution[row*e.size+col] != letter[0]+'a'-'A':
		obs = at + ", but it is incorrect."
	default:
		e.board[row*e.size+col] = letter[0]
		e.filled++
		obs = fmt.Sprintf("At turn %d, you placed %s at (%s, %s) correctly.", e.turn, letter, rowText, colText)
		reward = 1 / float64(e.letters)
	}
	info := e.info()
	info.ParsedAction, info.InvalidAction = parsed, invalid
	if e.filled == e.letters {
		info.Success = true
		return envs.StepResult{Observation: "Congratulations! You completed the Crosswords puzzle!", Reward: reward, Terminated: true, Info: info}, nil
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// twoDigits writes n as %02d does.
func twoDigits(b *strings.Builder, n int) {
	if n < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(n))
}

// tooBig stands for any number past the grid, however many digits it has.
const tooBig = 1 << 30

// number reads ASCII digits as Python's int does, and returns it with its
// text as Python prints it (no leading zeros). Numbers too long for an int
// become tooBig; they are out of bounds anyway.
func number(digits string) (int, string) {
	text := strings.TrimLeft(digits, "0")
	if text == "" {
		return 0, "0"
	}
	if len(text) > 9 {
		return tooBig, text
	}
	n := 0
	for i := range len(text) {
		n = 10*n + int(text[i]-'0')
	}
	return n, text
}

// SampleRandomAction places a random letter in a random empty cell, as GEM
// does. GEM writes it as \boxed{[r c L]}, which its own parser rejects;
// Quarry writes \boxed{r c L}.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	letter := byte('A' + rng.IntN(26))
	if e.filled == e.letters { // before Reset
		return fmt.Sprintf(`\boxed{0 0 %c}`, letter)
	}
	k := rng.IntN(e.letters - e.filled)
	for i, c := range e.board {
		if c != blank {
			continue
		}
		if k == 0 {
			return fmt.Sprintf(`\boxed{%d %d %c}`, i/e.size, i%e.size, letter)
		}
		k--
	}
	panic("unreachable: fewer blank cells than counted")
}

// OracleAction fills the first empty cell, in reading order, from the
// solution: a solve takes exactly one turn per letter, and every puzzle has
// at most max_turns letters.
func (e *Env) OracleAction() (string, error) {
	for i, c := range e.board {
		if c == blank {
			return fmt.Sprintf(`\boxed{%d %d %c}`, i/e.size, i%e.size, e.solution[i]-'a'+'A'), nil
		}
	}
	return "", fmt.Errorf("crosswords oracle: no empty cell")
}
