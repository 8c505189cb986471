// Package catalog assembles Quarry's registry of environments: every env id
// the project ships, registered explicitly (no init-time side effects). Add a
// new env family here and it is covered by the conformance suite, the fuzz
// target, the version golden file and the benchmarks.
package catalog

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/codeenv"
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
	"github.com/quarry-rl/quarry/envs/mathenv"
	"github.com/quarry-rl/quarry/envs/qaenv"
	"github.com/quarry-rl/quarry/envs/retail"
	"github.com/quarry-rl/quarry/envs/rg/algebra"
	"github.com/quarry-rl/quarry/envs/rg/algorithmic"
	"github.com/quarry-rl/quarry/envs/rg/arc"
	"github.com/quarry-rl/quarry/envs/rg/arithmetic"
	"github.com/quarry-rl/quarry/envs/rg/code"
	"github.com/quarry-rl/quarry/envs/rg/cognition"
	"github.com/quarry-rl/quarry/envs/rg/composite"
	rggames "github.com/quarry-rl/quarry/envs/rg/games"
	"github.com/quarry-rl/quarry/envs/rg/geometry"
	"github.com/quarry-rl/quarry/envs/rg/graphs"
	"github.com/quarry-rl/quarry/envs/rg/induction"
	"github.com/quarry-rl/quarry/envs/rg/logic"
	"github.com/quarry-rl/quarry/envs/terminal"
	"github.com/quarry-rl/quarry/internal/sandbox"
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
	{"rg/logic", logic.Register},
	{"rg/arc", arc.Register},
	{"rg/algorithmic", algorithmic.Register},
	{"rg/code", code.Register},
	{"rg/games", rggames.Register},
	{"rg/graphs", graphs.Register},
	{"rg/geometry", geometry.Register},
	{"rg/induction", induction.Register},
	{"rg/algebra", algebra.Register},
	{"rg/cognition", cognition.Register},
	{"retail", retail.Register},
}

// Option configures New.
type Option func(*config)

type config struct {
	sandbox codeenv.SandboxFunc
	samples bool
}

// WithSandbox gives the code and terminal envs the sandbox they run programs in (one per
// process, shared with tool calls: sandbox.Lazy). Without it a registry makes
// its own on first use, with the sandbox's defaults.
func WithSandbox(f codeenv.SandboxFunc) Option { return func(c *config) { c.sandbox = f } }

// WithSamples registers the dataset ids (math, code, qa, logic, eval) over
// their shipped samples by default instead of GEM's data on the Hugging Face
// Hub: for tests and offline demos. A job can still name any dataset.
func WithSamples() Option { return func(c *config) { c.samples = true } }

// New returns a registry holding every env id Quarry ships.
func New(opts ...Option) (*envs.Registry, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.sandbox == nil {
		c.sandbox = sandbox.Lazy(sandbox.Options{})
	}
	r := envs.NewRegistry()
	for _, reg := range registrars {
		if err := reg.register(r); err != nil {
			return nil, fmt.Errorf("catalog: %s: %w", reg.name, err)
		}
	}
	// rg:composite mixes the rg: tasks registered above.
	if err := composite.Register(r); err != nil {
		return nil, fmt.Errorf("catalog: rg/composite: %w", err)
	}
	datasets := []struct {
		name              string
		register, samples func(*envs.Registry) error
	}{
		{"mathenv", mathenv.Register, mathenv.RegisterSamples},
		{"codeenv",
			func(r *envs.Registry) error { return codeenv.Register(r, c.sandbox) },
			func(r *envs.Registry) error { return codeenv.RegisterSamples(r, c.sandbox) }},
		{"qaenv", qaenv.Register, qaenv.RegisterSamples},
	}
	for _, d := range datasets {
		register := d.register
		if c.samples {
			register = d.samples
		}
		if err := register(r); err != nil {
			return nil, fmt.Errorf("catalog: %s: %w", d.name, err)
		}
	}
	if err := terminal.Register(r, terminal.SandboxFunc(c.sandbox)); err != nil {
		return nil, fmt.Errorf("catalog: terminal: %w", err)
	}
	return r, nil
}
