// Package arc is reasoning-gym's arc family (reasoning_gym/arc): grid
// puzzles in the style of the Abstraction and Reasoning Corpus, where the
// agent infers a rule from example input/output pairs and applies it to a
// test input.
//
//   - rg:arc_1d: 1-D rows from the generators of arc_1d_tasks.py (all 70
//     of them), after Ilya Sheprut's 1D-ARC generators.
//   - rg:rearc: 2-D grids from all 400 of RE-ARC's example generators
//     (Michael Hodel's re-arc, as vendored in rearc_utils), rewritten in Go
//     over a small port of its DSL.
//   - rg:arc_agi: the ARC-AGI-1 training and evaluation tasks, embedded,
//     augmented by rotation, mirroring and colour permutation.
//
// Every task has a retry variant whose feedback says how far the grid is
// off (its shape, or how many cells differ), never what it should be.
package arc

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds the family's tasks and their retry variants.
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, arc1DTask) },
		func(r *envs.Registry) error { return rg.Register(r, rearcTask) },
		func(r *envs.Registry) error { return rg.Register(r, arcAGITask) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("arc: %w", err)
		}
	}
	return nil
}

// Grid is a board of colours 0..9, row by row.
type Grid [][]int

// formatBoard is board_format.py's format_board with its default options:
// cells as digits separated by spaces, rows by newlines.
func formatBoard(g Grid) string {
	var b strings.Builder
	for i, row := range g {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, c := range row {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(c))
		}
	}
	return b.String()
}

// formatPair is format_board_pair.
func formatPair(i int, in, out Grid) string {
	return fmt.Sprintf("Example %d:\n\nInput:\n%s\nOutput:\n%s\n\n", i, formatBoard(in), formatBoard(out))
}

// promptTemplate is board_format.py's ARC_PROMPT_TEMPLATE.
func arcPrompt(examples string, input Grid) string {
	return "Find the common rule that maps an input grid to an output grid, given the examples below.\n\n" +
		examples +
		"\nBelow is a test input grid. Predict the corresponding output grid by applying the rule you found.\n" +
		"Your final answer should just be the text output grid itself.\n\n" +
		"Input:\n" + formatBoard(input) + "\n"
}

// maxAnswerCells bounds what parseGrid reads (ARC grids are at most 30×30).
const maxAnswerBytes = 1 << 16

// parseGrid reads a board as parse_board does (rows on lines, cells
// separated by spaces, "Shape: …" lines skipped), and more leniently: cells
// may be run together ("0120") or separated by commas or tabs, and a grid
// may be written as a nested list, "[[0, 1], [2, 3]]", on one line or many.
// Any other character makes it unreadable (reasoning-gym raises: score 0).
func parseGrid(s string) (Grid, bool) {
	if len(s) > maxAnswerBytes {
		return nil, false
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "Shape: ") {
			lines = append(lines, l)
		}
	}
	s = strings.TrimSpace(strings.Join(lines, "\n"))
	if strings.HasPrefix(s, "[") {
		// A nested list: each "]" closes a row, the outer one an empty row.
		s = strings.ReplaceAll(s, "]", "\n")
	}
	var g Grid
	for _, line := range strings.Split(s, "\n") {
		var row []int
		for _, r := range line {
			switch {
			case r >= '0' && r <= '9':
				row = append(row, int(r-'0'))
			case r == ' ' || r == '\t' || r == ',' || r == '[' || r == '\r':
			default:
				return nil, false
			}
		}
		if row != nil {
			g = append(g, row)
		}
	}
	return g, true
}

func equalGrids(a, b Grid) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

// scoreBoard is rearc's and arc_agi's score_answer: 1 for the output grid,
// 0.05 for any other readable grid, 0 for an unreadable answer.
func scoreBoard(answer string, it *rg.Item) float64 {
	g, ok := parseGrid(answer)
	switch {
	case !ok:
		return 0
	case equalGrids(g, it.Data.(Grid)):
		return 1
	}
	return 0.05
}

// guessBoard is a random policy: a grid of the output's shape with random
// colours.
func guessBoard(rng *rand.Rand, it *rg.Item) string {
	want := it.Data.(Grid)
	g := make(Grid, len(want))
	for i, row := range want {
		g[i] = make([]int, len(row))
		for j := range row {
			g[i][j] = rng.IntN(10)
		}
	}
	return formatBoard(g)
}

// boardFeedback says what is wrong with a grid without showing the output:
// unreadable, the wrong shape (and the right one), or how many cells differ.
func boardFeedback(answer string, it *rg.Item, _ float64) string {
	g, ok := parseGrid(answer)
	if !ok || len(g) == 0 {
		return "Your answer is not a grid: give rows of digits 0-9 separated by spaces, one row per line."
	}
	want := it.Data.(Grid)
	if len(g) != len(want) || !rectangular(g) || len(g[0]) != len(want[0]) {
		return fmt.Sprintf("Your grid is %s; the output grid is %d×%d.", shape(g), len(want), len(want[0]))
	}
	wrong := 0
	for i := range want {
		for j := range want[i] {
			if g[i][j] != want[i][j] {
				wrong++
			}
		}
	}
	return fmt.Sprintf("Your grid has the right shape, but %d of its %d cells are wrong.", wrong, len(want)*len(want[0]))
}

func rectangular(g Grid) bool {
	for _, row := range g {
		if len(row) != len(g[0]) {
			return false
		}
	}
	return true
}

func shape(g Grid) string {
	if !rectangular(g) {
		return fmt.Sprintf("ragged (%d rows of different lengths)", len(g))
	}
	return fmt.Sprintf("%d×%d", len(g), len(g[0]))
}
