// Package envs defines Quarry's environment contract (Gym's, as GEM uses it),
// the explicit registry that turns env ids into instances, and the observation
// wrappers that turn an episode's history into a prompt.
//
// An Env is a plain, single-goroutine Go value: Reset starts an episode from a
// seed, Step applies one agent action. Malformed agent output is never a Go
// error: it is an observation plus the env's penalty, with Info.FormatError set.
// Go errors mean misuse (Step before Reset, Step after the end) or
// infrastructure faults.
package envs

import (
	"errors"
	"math/rand/v2"
)

// Env is one environment instance. It owns its randomness: Reset(seed) reseeds
// the instance's own generator, so two instances never share random state.
type Env interface {
	// Reset starts a new episode. The same seed yields the same episode.
	Reset(seed uint64) (obs string, info Info, err error)
	// Step applies one agent action and reports its consequence.
	//
	// Reset and Step take no context, so they must finish in bounded time
	// on their own: CPU with a budget, or I/O (a dataset load, a sandboxed
	// program) under the env's own timeout. An activity's timeout cannot
	// interrupt them. docs/envs.md lists what bounds each env.
	Step(action string) (StepResult, error)
	// SampleRandomAction returns a well-formed (parseable, not necessarily
	// legal) action for the current state, drawn from rng — the caller's
	// randomness, not the env's, so a random policy never perturbs the episode.
	SampleRandomAction(rng *rand.Rand) string
}

// StepResult is what Step returns: Gym's (obs, reward, terminated, truncated, info).
type StepResult struct {
	Observation string
	Reward      float64
	// Terminated: the episode reached a terminal state of the task (win, loss,
	// format error).
	Terminated bool
	// Truncated: the episode was cut off by a limit outside the task (max turns).
	// GEM sets both flags at the turn limit; Quarry keeps that convention.
	Truncated bool
	Info      Info
}

// Done reports whether the episode is over.
func (s StepResult) Done() bool { return s.Terminated || s.Truncated }

// Info carries what an env says besides the observation. Fields are typed
// where the pipeline depends on them; Extra holds env-specific diagnostics and
// must stay JSON-serialisable.
type Info struct {
	// Prefix and Suffix frame the wrapped observation (GEM's info["prefix"] and
	// info["suffix"]): the suffix usually shows the current board and asks for
	// the next move. Only the latest step's frame is used.
	Prefix string `json:"prefix,omitempty"`
	Suffix string `json:"suffix,omitempty"`
	// ParsedAction is the action as the env understood it (recorded, not
	// shown: wrappers echo the model's whole response, as GEM's games set no
	// parsed_action). On a tool turn it is the tool's parsed_action, which
	// concat_with_action shows (ShownAction).
	ParsedAction string `json:"parsed_action,omitempty"`
	// FormatError: the action could not be parsed (the env's format penalty applied).
	FormatError bool `json:"format_error,omitempty"`
	// InvalidAction: the action parsed but was not legal in this state.
	InvalidAction bool `json:"invalid_action,omitempty"`
	// Success: the task was solved (set on the final step).
	Success bool `json:"success,omitempty"`
	// UseTool marks an observation that came from a tool rather than the env.
	UseTool bool `json:"use_tool,omitempty"`
	// Extra is env-specific and JSON-serialisable.
	Extra map[string]any `json:"extra,omitempty"`
	// Images are pictures the observation shows besides its text (a
	// visual math problem's diagrams): chat prompts carry them as image
	// parts (ImageParts). Never recorded in the info column (records hold
	// images by reference in prompt_delta only).
	Images []Image `json:"-"`
}

// Errors for misuse of the protocol. Envs obtained from Registry.Make enforce
// them; callers branch with errors.Is.
var (
	ErrNotReset    = errors.New("envs: Step called before Reset")
	ErrEpisodeOver = errors.New("envs: Step called after the episode ended; call Reset")
)

// Oracle is implemented by envs that can play themselves: OracleAction returns
// the action an expert would take now. Oracles play from what the agent has
// been shown where the game allows it, so their transcripts are usable as
// expert (SFT) data; they are also how tests prove every variant is winnable.
type Oracle interface {
	OracleAction() (string, error)
}

// Unwrapper is implemented by envs that wrap another env.
type Unwrapper interface {
	Unwrap() Env
}

// AsOracle finds the Oracle inside e, looking through wrappers.
func AsOracle(e Env) (Oracle, bool) {
	for e != nil {
		if o, ok := e.(Oracle); ok {
			return o, true
		}
		u, ok := e.(Unwrapper)
		if !ok {
			return nil, false
		}
		e = u.Unwrap()
	}
	return nil, false
}

// NewRand returns a generator seeded only by seed: the one way envs seed
// themselves, so equal seeds give equal episodes on every platform.
func NewRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
