// Package minesweeper is GEM's game:Minesweeper: clear a board by revealing
// every safe cell and flagging every mine, one \boxed{reveal r c} or
// \boxed{flag r c} at a time (0-indexed), with a dense reward per newly
// revealed cell.
package minesweeper

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's registration parameters. If any is nil the board is drawn
// per episode (the -random variant): a square side n in [5,8], n*n/5 mines,
// n*n turns.
type Options struct {
	Rows     *int `json:"rows" range:"1,30"`
	Cols     *int `json:"cols" range:"1,30"`
	NumMines *int `json:"num_mines" range:"0,891"`
	MaxTurns *int `json:"max_turns" range:"1,1000"`
}

func (o Options) random() bool {
	return o.Rows == nil || o.Cols == nil || o.NumMines == nil || o.MaxTurns == nil
}

// maxSide keeps the board's two-character row and column labels aligned.
const maxSide = 99

// Validate checks a fixed board.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"rows", *o.Rows}, {"cols", *o.Cols}} {
		if f.v < 1 || f.v > maxSide {
			return &envs.OptionError{Option: f.name, Reason: fmt.Sprintf("must be between 1 and %d", maxSide)}
		}
	}
	// The first reveal keeps its 3x3 neighbourhood free of mines; the mines
	// must fit outside the largest such zone.
	zone := min(*o.Rows, 3) * min(*o.Cols, 3)
	if limit := *o.Rows**o.Cols - zone; *o.NumMines < 0 || *o.NumMines > limit {
		return &envs.OptionError{Option: "num_mines", Reason: fmt.Sprintf("must be between 0 and %d (cells outside the first reveal's 3x3 zone)", limit)}
	}
	if *o.MaxTurns < 1 {
		return &envs.OptionError{Option: "max_turns", Reason: "must be a positive integer"}
	}
	return nil
}

// Random draws: side in [5,8], side²/5 mines, side² turns.
const (
	randomMinSide  = 5
	randomMaxSide  = 8
	randomMaxTurns = randomMaxSide * randomMaxSide
)

// Register adds GEM's three variants.
func Register(r *envs.Registry) error {
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Minesweeper-v0",
		Description: "Clear a Minesweeper board: reveal every safe cell and flag every mine within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		// One reveal can flood the whole board: every safe cell at once.
		RewardMax: 1,
		Revision:  1,
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(5), games.Int(5), games.Int(5), games.Int(25)}, MaxTurns: 25},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(8), games.Int(8), games.Int(12), games.Int(64)}, MaxTurns: 64},
		games.Variant[Options]{Suffix: "random", MaxTurns: randomMaxTurns},
	)
}

var actionPattern = regexp.MustCompile(`\\boxed\{([a-zA-Z]+)\s(\d+)\s(\d+)\}`)

const mine = -1

// Env is one Minesweeper game.
type Env struct {
	opts Options

	rng                         *rand.Rand
	rows, cols, mines, maxTurns int
	// grid holds each cell's adjacent-mine count, or mine; all zero until
	// the first reveal places the mines.
	grid      []int8
	revealed  []bool
	flagged   []bool
	placed    bool // mines are placed at the first successful reveal
	nRevealed int
	turn      int
	queue     []int // flood-fill scratch
	nbuf      [8]int
}

// Reset draws the board size (for -random); mines wait for the first reveal.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	if e.opts.random() {
		n := randomMinSide + e.rng.IntN(randomMaxSide-randomMinSide+1)
		e.rows, e.cols, e.mines, e.maxTurns = n, n, n*n/5, n*n
	} else {
		e.rows, e.cols, e.mines, e.maxTurns = *e.opts.Rows, *e.opts.Cols, *e.opts.NumMines, *e.opts.MaxTurns
	}
	n := e.rows * e.cols
	e.grid = resize(e.grid, n)
	e.revealed = resize(e.revealed, n)
	e.flagged = resize(e.flagged, n)
	e.placed, e.nRevealed, e.turn = false, 0, 0

	reveal, flag := e.randomCell(e.rng), e.randomCell(e.rng)
	rr, rc := reveal/e.cols, reveal%e.cols
	fr, fc := flag/e.cols, flag%e.cols
	obs := "You are playing the Minesweeper game.\n" +
		"The objective of the game is to reveal all cells that do not contain mines.\n" +
		"To make a move, you can either reveal a cell or place a flag on a suspected mine location using one of the following commands:\n" +
		"- 'reveal': Reveal the contents of a specific cell.\n" +
		"- 'flag': Place or remove a flag on a specific cell to mark it as a potential mine.\n" +
		"To submit your move, type the command followed by the row and column in \\boxed{}.\n" +
		"For example:\n" +
		fmt.Sprintf("- \\boxed{reveal %d %d} to reveal the cell in Row %d, Column %d.\n", rr, rc, rr, rc) +
		fmt.Sprintf("- \\boxed{flag %d %d} to place or remove a flag on the cell in Row %d, Column %d.\n", fr, fc, fr, fc) +
		"The current board layout is shown below. Cells that are unrevealed are represented by a dot ('.'), revealed numbers show the count of adjacent mines, and flagged cells are marked with an 'F'.\n" +
		"Use logic and deduction to avoid revealing cells with mines!\n" +
		"Be mindful not to choose revealed or flagged cells.\n"
	return obs, e.info(), nil
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (e *Env) info() envs.Info {
	return envs.Info{Suffix: "Here is the current board layout:\n" + e.render() + "\nEnter your guess."}
}

// render draws the board as GEM does: dots, flags, and revealed counts under
// right-aligned column labels.
func (e *Env) render() string {
	var b strings.Builder
	b.Grow((e.rows + 1) * (3*e.cols + 4))
	b.WriteString("  ")
	for c := range e.cols {
		b.WriteByte(' ')
		label(&b, c)
	}
	b.WriteByte('\n')
	for r := range e.rows {
		label(&b, r)
		b.WriteByte(' ')
		for c := range e.cols {
			i := r*e.cols + c
			switch {
			case e.revealed[i]:
				b.WriteByte(' ')
				b.WriteByte('0' + byte(e.grid[i]))
				b.WriteByte(' ')
			case e.flagged[i]:
				b.WriteString(" F ")
			default:
				b.WriteString(" . ")
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// label writes n (< 100) right-aligned in two characters, as Python's
// f"{n:2}".
func label(b *strings.Builder, n int) {
	if n < 10 {
		b.WriteByte(' ')
	} else {
		b.WriteByte('0' + byte(n/10))
	}
	b.WriteByte('0' + byte(n%10))
}

// Step applies one reveal or flag with GEM's rules.
func (e *Env) Step(action string) (envs.StepResult, error) {
	e.turn++
	m := envs.LastMatch(actionPattern, action)
	if m == nil {
		info := e.info()
		info.FormatError = true
		return envs.StepResult{
			Observation: fmt.Sprintf("At turn %d, you did not provide a valid guess.", e.turn),
			Reward:      games.FormatErrorReward, Terminated: true, Truncated: e.turn == e.maxTurns, Info: info,
		}, nil
	}
	kind := strings.ToLower(m[1])
	rs, cs := canonical(m[2]), canonical(m[3])
	// Numbers too long for an int are out of bounds like any other.
	row, rerr := strconv.Atoi(rs)
	col, cerr := strconv.Atoi(cs)
	inBounds := rerr == nil && cerr == nil && row < e.rows && col < e.cols
	parsed := `\boxed{` + kind + " " + rs + " " + cs + `}`

	var obs string
	var invalid, won bool
	reward := games.InternalStepReward
	i := row*e.cols + col
	switch {
	case !inBounds:
		// GEM checks the bounds before the command, as here.
		obs = fmt.Sprintf("At turn %d, you chose cell (%s, %s), which is outside the bounds of the grid.", e.turn, rs, cs)
		invalid = true
	case kind == "reveal" && e.revealed[i]:
		obs = fmt.Sprintf("At turn %d, you chose to reveal cell (%d, %d), which has already been revealed.", e.turn, row, col)
		invalid = true
	case kind == "reveal" && e.flagged[i]:
		// GEM tests for a mine before it tests for a flag, so revealing a
		// flagged mine loses the game while revealing a flagged safe cell is
		// refused as "already revealed": an agent could probe its flags.
		// Quarry refuses every reveal of a flagged cell, mine or not, and
		// (unlike GEM) does not let it place the mines.
		obs = fmt.Sprintf("At turn %d, you chose to reveal cell (%d, %d), which is flagged. Remove the flag first.", e.turn, row, col)
		invalid = true
	case kind == "reveal":
		if !e.placed {
			e.placeRandomMines(i)
		}
		if e.grid[i] == mine {
			// GEM does not apply the turn limit on a loss.
			return envs.StepResult{
				Observation: fmt.Sprintf("Game over! You hit a mine at (%d, %d)", row, col),
				Reward:      games.FailReward, Terminated: true, Info: e.stepInfo(parsed, false),
			}, nil
		}
		n := e.flood(i)
		reward = float64(n) / float64(e.rows*e.cols-e.mines)
		obs = fmt.Sprintf("At turn %d, you successfully revealed cell (%d, %d).", e.turn, row, col)
		won = e.solved()
	case kind == "flag" && e.revealed[i]:
		obs = fmt.Sprintf("At turn %d, you chose to flag cell (%d, %d), which has already been revealed.", e.turn, row, col)
		invalid = true
	case kind == "flag":
		e.flagged[i] = !e.flagged[i]
		verb := "removed"
		if e.flagged[i] {
			verb = "added"
		}
		obs = fmt.Sprintf("At turn %d, you %s a flag on cell (%d, %d).", e.turn, verb, row, col)
		// GEM checks for a win only after a reveal, so a game whose last
		// safe cell is revealed before the last flag is placed can never be
		// won there. Quarry checks after a flag too (the flag earns no reward;
		// the reveals already summed to 1).
		won = e.solved()
	default:
		obs = fmt.Sprintf("At turn %d, you chose an invalid action '%s'. Valid actions are 'reveal' or 'flag'.", e.turn, kind)
		invalid = true
	}
	info := e.stepInfo(parsed, invalid)
	if won {
		info.Success = true
		return envs.StepResult{
			Observation: "Congratulations! You have successfully cleared the Minesweeper board.",
			Reward:      reward, Terminated: true, Info: info,
		}, nil
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

func (e *Env) stepInfo(parsed string, invalid bool) envs.Info {
	info := e.info()
	info.ParsedAction = parsed
	info.InvalidAction = invalid
	return info
}

// canonical writes a digit string as Python's int() would print it.
func canonical(digits string) string {
	if s := strings.TrimLeft(digits, "0"); s != "" {
		return s
	}
	return "0"
}

// placeRandomMines places the mines uniformly outside the 3x3 zone around
// the first revealed cell, from the env's generator. GEM rejection-samples
// cells; a partial shuffle of the eligible cells draws the same distribution
// in bounded time.
func (e *Env) placeRandomMines(first int) {
	fr, fc := first/e.cols, first%e.cols
	eligible := make([]int, 0, e.rows*e.cols)
	for i := range e.rows * e.cols {
		if r, c := i/e.cols, i%e.cols; r < fr-1 || r > fr+1 || c < fc-1 || c > fc+1 {
			eligible = append(eligible, i)
		}
	}
	for k := range e.mines {
		j := k + e.rng.IntN(len(eligible)-k)
		eligible[k], eligible[j] = eligible[j], eligible[k]
	}
	e.placeMines(eligible[:e.mines])
}

// placeMines lays out the given mines and the counts around them.
func (e *Env) placeMines(cells []int) {
	clear(e.grid)
	for _, i := range cells {
		e.grid[i] = mine
	}
	for i := range e.grid {
		if e.grid[i] == mine {
			continue
		}
		var n int8
		for _, j := range e.neighbours(i) {
			if e.grid[j] == mine {
				n++
			}
		}
		e.grid[i] = n
	}
	e.placed = true
}

// neighbours returns the in-bounds neighbours of cell i in a scratch buffer
// valid until the next call.
func (e *Env) neighbours(i int) []int {
	return appendNeighbours(e.nbuf[:0], i, e.rows, e.cols)
}

func appendNeighbours(dst []int, i, rows, cols int) []int {
	r, c := i/cols, i%cols
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if nr, nc := r+dr, c+dc; (dr != 0 || dc != 0) && nr >= 0 && nr < rows && nc >= 0 && nc < cols {
				dst = append(dst, nr*cols+nc)
			}
		}
	}
	return dst
}

// flood reveals safe cell i and, through cells with no adjacent mine, every
// connected unflagged cell; it returns how many cells it revealed.
func (e *Env) flood(i int) int {
	e.revealed[i] = true
	q := append(e.queue[:0], i)
	for h := 0; h < len(q); h++ {
		if e.grid[q[h]] != 0 {
			continue
		}
		for _, j := range e.neighbours(q[h]) {
			if !e.revealed[j] && !e.flagged[j] {
				e.revealed[j] = true
				q = append(q, j)
			}
		}
	}
	e.queue = q
	e.nRevealed += len(q)
	return len(q)
}

// solved is GEM's win rule: every safe cell revealed and every mine flagged.
func (e *Env) solved() bool {
	if !e.placed || e.nRevealed != e.rows*e.cols-e.mines {
		return false
	}
	for i, v := range e.grid {
		if (v == mine) != e.flagged[i] {
			return false
		}
	}
	return true
}

// SampleRandomAction reveals (nine times in ten) or flags a uniform cell,
// as GEM does.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if e.rows == 0 { // before the first Reset
		return `\boxed{reveal 0 0}`
	}
	kind := "reveal"
	if rng.IntN(10) == 0 {
		kind = "flag"
	}
	i := e.randomCell(rng)
	return fmt.Sprintf(`\boxed{%s %d %d}`, kind, i/e.cols, i%e.cols)
}

func (e *Env) randomCell(rng *rand.Rand) int {
	r := rng.IntN(e.rows)
	return r*e.cols + rng.IntN(e.cols)
}
