package envs

import "math/rand/v2"

// checked enforces the episode protocol around any Env, so individual envs
// need not: Step before Reset fails with ErrNotReset, Step after the end with
// ErrEpisodeOver (Gymnasium's OrderEnforcing, made strict). Registry.Make
// returns every env wrapped in it.
type checked struct {
	env     Env
	started bool
	over    bool
}

func (c *checked) Reset(seed uint64) (string, Info, error) {
	obs, info, err := c.env.Reset(seed)
	if err != nil {
		c.started = false
		return "", Info{}, err
	}
	c.started, c.over = true, false
	return obs, info, nil
}

func (c *checked) Step(action string) (StepResult, error) {
	switch {
	case !c.started:
		return StepResult{}, ErrNotReset
	case c.over:
		return StepResult{}, ErrEpisodeOver
	}
	res, err := c.env.Step(action)
	if err != nil {
		return StepResult{}, err
	}
	c.over = res.Done()
	return res, nil
}

func (c *checked) SampleRandomAction(rng *rand.Rand) string { return c.env.SampleRandomAction(rng) }

func (c *checked) Unwrap() Env { return c.env }
