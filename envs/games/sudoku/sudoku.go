// Package sudoku is GEM's game:Sudoku: fill a 4x4 or 9x9 Sudoku one
// \boxed{row col number} (1-indexed) at a time, with a dense reward per
// correct placement.
package sudoku

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games"
)

// Options are GEM's registration parameters. If any is nil each episode
// draws one of GEM's two presets (the -random variant).
//
// Clues is the number of givens the puzzle keeps, as GEM's parameter name
// and docstring say. GEM's code does something else: it makes `clues`
// removal attempts, undoing those that break uniqueness, so its puzzles keep
// scale²-clues givens or more (GEM -easy: 8 to 10 empty cells of 16; -hard:
// 44 to 50 empty of 81, against a 50-turn limit). Quarry keeps exactly
// `clues` givens with a unique solution: 6 empty cells for -easy, 31 for
// -hard.
type Options struct {
	Clues    *int `json:"clues" range:"4,80"`
	MaxTurns *int `json:"max_turns" range:"1,1000"`
	Scale    *int `json:"scale" range:"4,9"`
}

func (o Options) random() bool { return o.Clues == nil || o.MaxTurns == nil || o.Scale == nil }

// minClues are the fewest givens allowed: 4 is the least any 4x4 puzzle
// with a unique solution has (two in three greedy passes reach it); 25 on
// 9x9 is reached by about five greedy passes in six. The generator retries,
// so a puzzle is always found.
var minClues = map[int]int{4: 4, 9: 25}

// Validate checks a fixed puzzle size.
func (o Options) Validate() error {
	if o.random() {
		return nil
	}
	lo, ok := minClues[*o.Scale]
	if !ok {
		return &envs.OptionError{Option: "scale", Reason: "must be 4 or 9"}
	}
	cells := *o.Scale * *o.Scale
	if *o.Clues < lo || *o.Clues >= cells {
		return &envs.OptionError{Option: "clues", Reason: fmt.Sprintf("must be between %d and %d for scale %d", lo, cells-1, *o.Scale)}
	}
	if empty := cells - *o.Clues; *o.MaxTurns < empty {
		return &envs.OptionError{Option: "max_turns", Reason: fmt.Sprintf("must be at least %d, the number of empty cells, or the puzzle cannot be finished", empty)}
	}
	return nil
}

// preset is one of GEM's (scale, clues, max_turns) choices.
type preset struct{ scale, clues, maxTurns int }

// GEM's -random variant picks one of these uniformly.
var randomPresets = []preset{{4, 10, 15}, {9, 50, 50}}

// Register adds GEM's three variants. Each variant's largest step reward is
// 1/empty, for the fewest empty cells a puzzle of it can have.
func Register(r *envs.Registry) error {
	easy, hard := randomPresets[0], randomPresets[1]
	return games.RegisterVariants(r, envs.Spec{
		ID:          "game:Sudoku-v0",
		Description: "Complete a Sudoku with a unique solution, one placement per turn, within a turn budget.",
		RewardMin:   games.FormatErrorReward,
		Revision:    1,
	}, func(o Options) (envs.Env, error) { return &Env{opts: o}, nil },
		games.Variant[Options]{Suffix: "easy", Options: Options{games.Int(easy.clues), games.Int(easy.maxTurns), games.Int(easy.scale)}, MaxTurns: easy.maxTurns, RewardMax: 1 / float64(16-easy.clues)},
		games.Variant[Options]{Suffix: "hard", Options: Options{games.Int(hard.clues), games.Int(hard.maxTurns), games.Int(hard.scale)}, MaxTurns: hard.maxTurns, RewardMax: 1 / float64(81-hard.clues)},
		games.Variant[Options]{Suffix: "random", MaxTurns: max(easy.maxTurns, hard.maxTurns), RewardMax: 1 / float64(min(16-easy.clues, 81-hard.clues))},
	)
}

var actionPattern = regexp.MustCompile(`\\boxed\{(\d+)\s(\d+)\s(\d+)\}`)

// Env is one Sudoku game.
type Env struct {
	opts Options

	rng             *rand.Rand
	scale, box      int
	clues, maxTurns int
	solution, board []int8 // row-major; 0 is empty
	empty           int    // empty cells at the start
	filled          int    // correct placements so far
	turn            int
	gen             generator
}

// Reset draws the preset (for -random) and a fresh puzzle from seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.rng = envs.NewRand(seed)
	var p preset
	if e.opts.random() {
		p = randomPresets[e.rng.IntN(len(randomPresets))]
	} else {
		p = preset{*e.opts.Scale, *e.opts.Clues, *e.opts.MaxTurns}
	}
	e.scale, e.clues, e.maxTurns = p.scale, p.clues, p.maxTurns
	e.box = 2
	if e.scale == 9 {
		e.box = 3
	}
	solution, board, err := e.gen.puzzle(e.rng, e.scale, e.clues)
	if err != nil {
		return "", envs.Info{}, fmt.Errorf("sudoku reset %d: %w", seed, err)
	}
	e.solution, e.board = solution, board
	e.empty = e.scale*e.scale - e.clues
	e.filled, e.turn = 0, 0

	s := e.scale
	// GEM prints "playing  Sudoku" with two spaces for 9x9 and promises
	// "nine {scale}x{scale} subgrids" at both sizes; Quarry names the
	// subgrids correctly (four 2x2, nine 3x3).
	version, count := "Sudoku", "nine"
	if s == 4 {
		version, count = "A simple version of Sudoku", "four"
	}
	obs := fmt.Sprintf("You are playing %s.\n"+
		"Each row is numbered from 1 to %d, and each column is also numbered from 1 to %d.\n"+
		"Empty cells are represented by '.', and pre-filled cells contain digits from 1 to %d.\n\n", version, s, s, s) +
		fmt.Sprintf("Your objective is to fill the empty cells in the %dx%d grid with digits from 1 to %d such that:\n"+
			"1. Each row contains all digits from 1 to %d without repetition.\n"+
			"2. Each column contains all digits from 1 to %d without repetition.\n"+
			"3. Each of the %s %dx%d subgrids contains all digits from 1 to %d without repetition.\n\n", s, s, s, s, s, count, e.box, e.box, s) +
		"Rules and Instructions:\n" +
		"1. **Do not overwrite** the initial numbers provided in the grid.\n" +
		"2. **Only fill** empty cells represented by '.'.\n" +
		"3. You may respond in any manner you prefer, but ensure that your response includes the format of '\\boxed{row column number}', e.g. \\boxed{1 1 5}.\n" +
		"4. **Ensure** that your move does not violate Sudoku rules. Invalid moves, including overwriting pre-filled cells and placing two numbers in one row/col/sub-grid will result in penalties.\n" +
		"The history of your moves will be appended as you play more rounds. Use the history of your move to improve your decision making by avoiding the moves you have tried. Good luck!\n\n"
	return obs, e.info(), nil
}

func (e *Env) info() envs.Info {
	return envs.Info{Suffix: "Here is the current board layout:\n" + e.render() + "\nEnter your move."}
}

// render draws the board as GEM does, down to the trailing spaces of the
// header and separator lines.
func (e *Env) render() string {
	s, box := e.scale, e.box
	var b strings.Builder
	b.Grow((s + box) * (4*s + 8))
	b.WriteString("  ")
	for j := range s {
		fmt.Fprintf(&b, " C%d", j+1)
		if (j+1)%box == 0 {
			b.WriteString("  ")
		}
	}
	for i := range s {
		fmt.Fprintf(&b, "\nR%d ", i+1)
		for j := range s {
			if v := e.board[i*s+j]; v != 0 {
				fmt.Fprintf(&b, " %d", v)
			} else {
				b.WriteString(" .")
			}
			if j < s-1 {
				b.WriteByte(' ')
				if (j+1)%box == 0 {
					b.WriteString("| ")
				}
			}
		}
		if (i+1)%box == 0 && i < s-1 {
			b.WriteString("\n   ")
			b.WriteString(strings.Repeat("- ", 2*(s-1)))
		}
	}
	return b.String()
}

// Step scores one placement with GEM's rules: only the solution's digit is
// accepted, which, the solution being unique, is every placement that can
// still lead to a solved grid.
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
	rs, cs, ns := canonical(m[1]), canonical(m[2]), canonical(m[3])
	row, rerr := strconv.Atoi(rs)
	col, cerr := strconv.Atoi(cs)
	num, nerr := strconv.Atoi(ns)
	var obs string
	var invalid, won bool
	reward := games.InternalStepReward
	i := (row-1)*e.scale + col - 1
	switch {
	case rerr != nil || cerr != nil || nerr != nil || row < 1 || row > e.scale || col < 1 || col > e.scale || num < 1 || num > e.scale:
		// Numbers too long for an int are out of bounds like any other.
		obs = fmt.Sprintf("At turn %d, you tried to place %s at R%s C%s, which is out of bounds.", e.turn, ns, rs, cs)
		invalid = true
	case e.board[i] != 0:
		obs = fmt.Sprintf("At turn %d, you tried to place %d at R%d C%d, which is already filled. You cannot overwrite pre-filled cells.", e.turn, num, row, col)
		invalid = true
	case int(e.solution[i]) == num:
		e.board[i] = int8(num)
		e.filled++
		reward = 1 / float64(e.empty)
		obs = fmt.Sprintf("At turn %d, you placed %d at R%d C%d, which is correct.", e.turn, num, row, col)
		won = e.filled == e.empty
	default:
		obs = fmt.Sprintf("At turn %d, you tried to place %d at R%d C%d, which violates Sudoku rules.", e.turn, num, row, col)
		invalid = true
	}
	if invalid {
		reward = games.InvalidActionReward
	}
	info := e.info()
	info.ParsedAction = `\boxed{` + rs + " " + cs + " " + ns + `}`
	info.InvalidAction = invalid
	if won {
		info.Success = true
		return envs.StepResult{Observation: "Congratulations! You have completed the Sudoku puzzle!", Reward: reward, Terminated: true, Info: info}, nil
	}
	if e.turn >= e.maxTurns {
		return envs.StepResult{Observation: "You have reached the maximum number of turns.", Reward: reward, Terminated: true, Truncated: true, Info: info}, nil
	}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}, nil
}

// canonical writes a digit string as Python's int() would print it.
func canonical(digits string) string {
	if s := strings.TrimLeft(digits, "0"); s != "" {
		return s
	}
	return "0"
}

// SampleRandomAction places a uniform digit in a uniform cell. (GEM defines
// no random action for Sudoku.)
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if e.scale == 0 { // before the first Reset
		return `\boxed{1 1 1}`
	}
	return fmt.Sprintf(`\boxed{%d %d %d}`, 1+rng.IntN(e.scale), 1+rng.IntN(e.scale), 1+rng.IntN(e.scale))
}

// OracleAction fills the empty cell with the fewest candidates left by its
// row, column and box (the first in reading order on ties) with its digit in
// the solution — the puzzle's only solution, so the move follows from the
// board the agent sees.
func (e *Env) OracleAction() (string, error) {
	if e.rng == nil {
		return "", fmt.Errorf("sudoku oracle: Reset first")
	}
	s := e.scale
	var rows, cols, boxes [9]uint16
	for i, v := range e.board {
		if v != 0 {
			bit := uint16(1) << v
			rows[i/s] |= bit
			cols[i%s] |= bit
			boxes[e.boxOf(i)] |= bit
		}
	}
	best, fewest := -1, s+1
	for i, v := range e.board {
		if v != 0 {
			continue
		}
		if n := s - popcount(rows[i/s]|cols[i%s]|boxes[e.boxOf(i)]); n < fewest {
			best, fewest = i, n
		}
	}
	if best < 0 {
		return "", fmt.Errorf("sudoku oracle: no empty cell")
	}
	return fmt.Sprintf(`\boxed{%d %d %d}`, best/s+1, best%s+1, e.solution[best]), nil
}

func (e *Env) boxOf(i int) int {
	r, c := i/e.scale, i%e.scale
	return (r/e.box)*(e.scale/e.box) + c/e.box
}

func popcount(x uint16) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
