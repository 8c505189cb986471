// Package catalog assembles Quarry's registry of environments: every env id
// the project ships, registered explicitly (no init-time side effects). Add a
// new env family here and it is covered by the conformance suite, the fuzz
// target, the version golden file and the benchmarks.
package catalog

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/games/crosswords"
	"github.com/quarry-rl/quarry/envs/games/fifteenpuzzle"
	"github.com/quarry-rl/quarry/envs/games/game2048"
	"github.com/quarry-rl/quarry/envs/games/guessthenumber"
	"github.com/quarry-rl/quarry/envs/games/hangman"
	"github.com/quarry-rl/quarry/envs/games/mastermind"
	"github.com/quarry-rl/quarry/envs/games/minesweeper"
	"github.com/quarry-rl/quarry/envs/games/sokoban"
	"github.com/quarry-rl/quarry/envs/games/sudoku"
	"github.com/quarry-rl/quarry/envs/games/towerofhanoi"
	"github.com/quarry-rl/quarry/envs/games/wikigame"
	"github.com/quarry-rl/quarry/envs/games/wordle"
	"github.com/quarry-rl/quarry/envs/games/wordsearch"
	"github.com/quarry-rl/quarry/envs/rg/arithmetic"
)

// registrars in registration order.
var registrars = []struct {
	name     string
	register func(*envs.Registry) error
}{
	{"guessthenumber", guessthenumber.Register},
	{"mastermind", mastermind.Register},
	{"minesweeper", minesweeper.Register},
	{"sudoku", sudoku.Register},
	{"fifteenpuzzle", fifteenpuzzle.Register},
	{"game2048", game2048.Register},
	{"sokoban", sokoban.Register},
	{"wordle", wordle.Register},
	{"hangman", hangman.Register},
	{"wikigame", wikigame.Register},
	{"crosswords", crosswords.Register},
	{"wordsearch", wordsearch.Register},
	{"towerofhanoi", towerofhanoi.Register},
	{"rg/arithmetic", arithmetic.Register},
}

// New returns a registry holding every env id Quarry ships.
func New() (*envs.Registry, error) {
	r := envs.NewRegistry()
	for _, reg := range registrars {
		if err := reg.register(r); err != nil {
			return nil, fmt.Errorf("catalog: %s: %w", reg.name, err)
		}
	}
	return r, nil
}
