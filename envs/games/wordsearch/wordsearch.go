// Package wordsearch is GEM's game:WordSearch: find the English words hidden
// across or down in a grid of letters, reporting each word's first and last
// cell.
//
// The rules, texts and rewards are GEM's: \boxed{start_row start_col end_row
// end_col}, 0-indexed, either end first; 1/words for each word found. As in
// GEM the words are not listed: the agent looks for English words. Where
// Quarry differs, deliberately:
//
//   - words come from the words package (common words; the extended list
//     when hardcore), not NLTK's Basic English and full word lists;
//   - the grid holds every word, each readable in exactly one place (see
//     generator);
//   - a word already found pays nothing when given end first (GEM pays it
//     again);
//   - random actions parse (GEM's \boxed{[r c r c]} does not).
package wordsearch

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
// episode draws hardcore and uses GEM's random settings (5 words, 20 turns):
// the -random variant.
type Options struct {
	// Hardcore hides rarer words (the extended list) instead of common
	// ones, as GEM switches from NLTK's basic English words to its full list.
	Hardcore *bool `json:"hardcore"`
	MaxTurns *int  `json:"max_turns" range:"1,1000"`
	NumWords *int  `json:"num_words" range:"1,10"`
}

func (o Options) random() bool { return o.Hardcore == nil || o.MaxTurns == nil || o.NumWords == nil }

// maxWords bounds num_words; GEM registers 5.
const maxWords = 10

// Validate checks the values that are set, and that a fixed game has a turn
// for each word.
func (o Options) Validate() error {
	if err := wordgrid.ValidateCounts(o.NumWords, o.MaxTurns, maxWords); err != nil {
		return err
	}
	if !o.random() && *o.MaxTurns < *o.NumWords {
		return &envs.OptionError{Option: "max_turns", Reason: fmt.Sprintf("must be at least num_words (%d): finding a word takes a turn", *o.NumWords)}
	}
	return nil
}

// GEM's -random settings (hardcore is drawn).
const randomWords, randomTurns = 5, 20

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:WordSearch-v0",
		Description: "Find the English words hidden across or down in a grid of letters by their start and end cells.",
		MaxTurns:    20,
		RewardMin:   games.FormatErrorReward,
		RewardMax:   1.0 / 5, // one word of five
		Revision:    1,
		DataDigest:  words.Digest(),
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Bool(false), games.Int(20), games.Int(5)}},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Bool(true), games.Int(20), games.Int(5)}},
		games.Variant[Options]{Suffix: "random"},
	)
}

// actionPattern is GEM's: four numbers in the last \boxed{} holding only
// that. Python's \s also matches \v.
var actionPattern = regexp.MustCompile(`\\boxed\{(\d+)[\s\v]+(\d+)[\s\v]+(\d+)[\s\v]+(\d+)\}`)

// placement is one hidden word (uppercase), reading forward from its start.
type placement struct {
	word     string
	row, col int
	down     bool
}

// end is the cell of the word's last letter.
func (p placement) end() (int, int) {
	if p.down {
		return p.row + len(p.word) - 1, p.col
	}
	return p.row, p.col + len(p.word) - 1
}

// Env is one WordSearch game.
type Env struct {
	opts Options

	rng      *rand.Rand
	hardcore bool
	numWords int
	maxTurns int

	size     int
	grid     []byte // uppercase letters
	placed   []placement
	found    []bool
	nFound   int
	lit      []bool // cells of found words, shown in brackets
	attempts [][4]int
	turn     int

	gen generator
}

// Reset draws the settings (for -random) and the grid from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		e.hardcore = e.rng.IntN(2) == 1
		e.numWords, e.maxTurns = randomWords, randomTurns
	} else {
		e.hardcore, e.numWords, e.maxTurns = *e.opts.Hardcore, *e.opts.NumWords, *e.opts.MaxTurns
	}
	size, grid, placed, err := e.gen.puzzle(e.rng, poolFor(e.hardcore), e.numWords)
	if err != nil {
		return "", envs.Info{}, err
	}
	e.install(size, grid, placed)
	level := "Basic"
	if e.hardcore {
		level = "Hardcore"
	}
	obs := "You are participating in a Word Search challenge (" + level + ").\n" +
		"The objective is to find and highlight hidden words on the grid below.\n" +
		"The rows and columns are numbered for your reference.\n\n" +
		"Words you have already found are marked in square brackets [ ].\n" +
		"Each row and column is numbered for clarity.\n\n" +
		"To locate a word, specify the row and column of its start and end letters.\n" +
		"Note that words are either across (horizontal) or down (vertical).\n" +
		"Use the format \\boxed{start_row start_col end_row end_col} for submission.\n" +
		"For instance: \\boxed{1 1 1 5} to find a word from row 1, col 1 to row 1, col 5.\n\n" +
		"Guidelines:\n" +
		fmt.Sprintf("- you have a maximum of %d turns to find all the words.\n", e.maxTurns) +
		"- Each guess must be unique; you cannot repeat the same guess.\n" +
		"- The history of your attempts will be recorded below.\n" +
		"- Make your guesses carefully and strategically!"
	return obs, e.info(), nil
}

// install starts a game on a size×size grid hiding the placed words.
func (e *Env) install(size int, grid []byte, placed []placement) {
	e.size = size
	e.grid = append(e.grid[:0], grid...)
	e.placed = append(e.placed[:0], placed...)
	e.found = append(e.found[:0], make([]bool, len(placed))...)
	e.lit = append(e.lit[:0], make([]bool, size*size)...)
	e.nFound, e.turn = 0, 0
	e.attempts = e.attempts[:0]
}

func (e *Env) info() envs.Info { return envs.Info{Suffix: e.suffix()} }

// suffix is GEM's task suffix: the board, the count of words found and the
// prompt.
func (e *Env) suffix() string {
	var b strings.Builder
	b.Grow(16 + (e.size+1)*(4*e.size+5) + 60)
	b.WriteString("Current Board:\n")
	b.WriteString("  ")
	for c := range e.size {
		b.WriteString(" C")
		twoDigits(&b, c)
	}
	for r := range e.size {
		b.WriteString("\nR")
		twoDigits(&b, r)
		b.WriteByte(' ')
		for c := range e.size {
			k := r*e.size + c
			if e.lit[k] {
				b.WriteByte('[')
				b.WriteByte(e.grid[k])
				b.WriteString("] ")
			} else {
				b.WriteByte(' ')
				b.WriteByte(e.grid[k])
				b.WriteString("  ")
			}
		}
	}
	fmt.Fprintf(&b, "\nWords Found: %d/%d\nEnter your guess.", e.nFound, len(e.placed))
	return b.String()
}

// Step checks one reported word with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess in \\boxed{start_row start_col end_row end_col} format.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	var at [4]int
	var text [4]string
	for i := range at {
		at[i], text[i] = number(m[i+1])
	}
	sr, sc, er, ec := at[0], at[1], at[2], at[3]
	span := fmt.Sprintf("(%s, %s) to (%s, %s)", text[0], text[1], text[2], text[3])
	reward, invalid := games.InternalStepReward, false
	var obs string
	switch w := e.wordAt(sr, sc, er, ec); {
	case sr >= e.size || sc >= e.size || er >= e.size || ec >= e.size:
		obs, reward, invalid = fmt.Sprintf("At turn %d, your tried coordinates %s are out of bounds.", e.turn, span), games.InvalidActionReward, true
	case e.tried(at):
		obs, reward, invalid = fmt.Sprintf("At turn %d, you have already tried the coordinates %s.", e.turn, span), games.InvalidActionReward, true
	case sr != er && sc != ec:
		obs, reward, invalid = fmt.Sprintf("At turn %d, you tried %s, which is not valid because words must be either across (horizontal) or down (vertical).", e.turn, span), games.InvalidActionReward, true
	case w >= 0 && e.found[w]:
		// GEM pays a found word again when its cells are given end first;
		// Quarry pays each word once.
		obs, reward, invalid = fmt.Sprintf("At turn %d, you have already found the word '%s'.", e.turn, e.placed[w].word), games.InvalidActionReward, true
	case w >= 0:
		e.found[w] = true
		e.nFound++
		e.light(e.placed[w])
		obs = fmt.Sprintf("At turn %d, correct! You found the word '%s' at coordinates %s.", e.turn, e.placed[w].word, span)
		reward = 1 / float64(len(e.placed))
	default:
		obs = fmt.Sprintf("At turn %d, incorrect attempt. No word found at coordinates %s.", e.turn, span)
	}
	e.attempts = append(e.attempts, at)
	info := e.info()
	info.ParsedAction = `\boxed{` + text[0] + " " + text[1] + " " + text[2] + " " + text[3] + `}`
	info.InvalidAction = invalid
	if e.nFound == len(e.placed) {
		info.Success = true
		return envs.StepResult{Observation: "Congratulations! You completed the Word Search puzzle!", Reward: reward, Terminated: true, Info: info}, nil
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// wordAt returns the index of the word spanning exactly those two cells,
// in either order, or -1.
func (e *Env) wordAt(sr, sc, er, ec int) int {
	for i, p := range e.placed {
		pr, pc := p.end()
		if (sr == p.row && sc == p.col && er == pr && ec == pc) || (sr == pr && sc == pc && er == p.row && ec == p.col) {
			return i
		}
	}
	return -1
}

func (e *Env) tried(at [4]int) bool {
	for _, a := range e.attempts {
		if a == at {
			return true
		}
	}
	return false
}

func (e *Env) light(p placement) {
	dr, dc := wordgrid.Delta(p.down)
	for i := range len(p.word) {
		e.lit[(p.row+i*dr)*e.size+p.col+i*dc] = true
	}
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

// SampleRandomAction reports four random coordinates on the grid, as GEM
// does. GEM writes them as \boxed{[r c r c]}, which its own parser rejects;
// Quarry writes \boxed{r c r c}.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if e.size == 0 { // before Reset
		return `\boxed{0 0 0 2}`
	}
	return fmt.Sprintf(`\boxed{%d %d %d %d}`, rng.IntN(e.size), rng.IntN(e.size), rng.IntN(e.size), rng.IntN(e.size))
}

// OracleAction reports the first word not yet found, start to end: a solve
// takes one turn per word.
func (e *Env) OracleAction() (string, error) {
	for i, p := range e.placed {
		if !e.found[i] {
			er, ec := p.end()
			return fmt.Sprintf(`\boxed{%d %d %d %d}`, p.row, p.col, er, ec), nil
		}
	}
	return "", fmt.Errorf("wordsearch oracle: every word is found")
}
