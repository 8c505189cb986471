// Package rggames serves reasoning-gym's games datasets (reasoning_gym/games
// at 0.1.23) as rg: envs: board and number puzzles whose answer is a grid, a
// move list or an expression. Most accept any valid solution, so their
// scorers replay or check the answer against the puzzle's rules rather than
// compare it with the reference.
//
// The package is named rggames so it is not confused with envs/games, which
// holds GEM's multi-turn games.
package rggames

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// Register adds every task of the family.
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		registerNQueens,
		registerMiniSudoku,
		registerSudoku,
		registerMahjong,
		registerHanoi,
		registerMaze,
		registerPuzzles, // puzzles.go
		registerSearch,  // search.go
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}

// optErr names the option a relation between options blames.
func optErr(option, format string, args ...any) error {
	return &envs.OptionError{Option: option, Reason: fmt.Sprintf(format, args...)}
}

// lines splits an answer into its non-blank lines, trimmed.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// intGrid reads an answer as rows of integers, one row a line, cells
// separated by spaces, commas or brackets; ok is false on any other token.
func intGrid(s string) ([][]int, bool) {
	var grid [][]int
	for _, l := range lines(s) {
		fields := strings.FieldsFunc(l, func(r rune) bool {
			return r == ' ' || r == '\t' || r == ',' || r == '[' || r == ']' || r == '|'
		})
		if len(fields) == 0 {
			continue
		}
		row := make([]int, len(fields))
		for i, f := range fields {
			v, err := strconv.Atoi(f)
			if err != nil {
				return nil, false
			}
			row[i] = v
		}
		grid = append(grid, row)
	}
	return grid, len(grid) > 0
}

// formatInts writes rows of integers, cells separated by a space.
func formatInts(grid [][]int) string {
	var b strings.Builder
	for i, row := range grid {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, v := range row {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(v))
		}
	}
	return b.String()
}

// pyList writes ints as Python prints a list: [1, 2, 3].
func pyList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func copyGrid(g [][]int) [][]int {
	out := make([][]int, len(g))
	for i := range g {
		out[i] = append([]int(nil), g[i]...)
	}
	return out
}
