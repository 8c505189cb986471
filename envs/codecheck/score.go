package codecheck

import (
	"context"
	"fmt"

	"github.com/quarry-rl/quarry/internal/sandbox"
)

// Scored is the grading of one response.
type Scored struct {
	// Reward is GEM's: RewardCorrect, RewardIncorrect or RewardNoCode.
	Reward float64 `json:"reward"`
	// HasCode is false when the response had no fenced block.
	HasCode bool `json:"has_code"`
	// Code and Lang are what LastCodeBlock returned.
	Code string `json:"code,omitempty"`
	Lang string `json:"lang,omitempty"`
	// Tests are the tests that were run (SelectTests), in run order; the
	// Result's outcomes line up with them.
	Tests  []Test `json:"-"`
	Result Result `json:"result"`
}

// Score grades response as GEM's CodeEnv.step does: no fenced block →
// RewardNoCode without running anything; otherwise the last block runs on
// SelectTests(tests, opts.MaxTests) and earns RewardCorrect when every test
// passes, else RewardIncorrect. The error is Verify's (infrastructure, or
// ErrNoTests).
func Score(ctx context.Context, sb *sandbox.Sandbox, response string, tests []Test, opts Options) (Scored, error) {
	code, lang, ok := LastCodeBlock(response)
	if !ok {
		return Scored{Reward: RewardNoCode}, nil
	}
	opts = opts.withDefaults()
	sel := SelectTests(tests, opts.MaxTests)
	res, err := Verify(ctx, sb, code, sel, opts)
	if err != nil {
		return Scored{}, fmt.Errorf("codecheck: score: %w", err)
	}
	s := Scored{Reward: RewardIncorrect, HasCode: true, Code: code, Lang: lang, Tests: sel, Result: res}
	if res.AllPassed {
		s.Reward = RewardCorrect
	}
	return s, nil
}
