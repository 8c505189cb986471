package envs

import (
	"errors"
	"fmt"
	"time"
)

// Tasks is implemented by envs whose tasks are the rows of a dataset (math,
// code, QA, logic). Rows counts them; ResetTask starts an episode on one, as
// GEM's reset(idx=…). The pipeline resets such an env on the row a job's
// task maps to through a seeded permutation, so a job draws rows without
// replacement; Reset(seed) picks a row from the seed, as GEM's reset(seed).
type Tasks interface {
	Rows() (int, error)
	ResetTask(row int) (string, Info, error)
}

// ErrNoTasks means ResetTask was called on an env that has no dataset.
var ErrNoTasks = errors.New("envs: the env has no dataset rows")

// Rows is the number of dataset rows of env (through wrappers), 0 for a
// procedural env.
func Rows(env Env) (int, error) {
	if t, ok := env.(Tasks); ok {
		return t.Rows()
	}
	return 0, nil
}

// ResetTask resets env on a dataset row, or from seed when row < 0 or the
// env has no dataset (a procedural env ignores row).
func ResetTask(env Env, row int, seed uint64) (string, Info, error) {
	t, ok := env.(Tasks)
	if row < 0 || !ok {
		return env.Reset(seed)
	}
	if n, err := t.Rows(); err != nil {
		return "", Info{}, err
	} else if n == 0 {
		return env.Reset(seed)
	}
	return t.ResetTask(row)
}

// Rows implements Tasks for the env inside (0 when it has none).
func (c *checked) Rows() (int, error) { return Rows(c.env) }

// ResetTask implements Tasks, enforcing the protocol as Reset does.
func (c *checked) ResetTask(row int) (string, Info, error) {
	t, ok := c.env.(Tasks)
	if !ok {
		return "", Info{}, ErrNoTasks
	}
	obs, info, err := t.ResetTask(row)
	if err != nil {
		c.started = false
		return "", Info{}, fmt.Errorf("reset on row %d: %w", row, err)
	}
	c.started, c.over = true, false
	return obs, info, nil
}

// ResetTask starts a new episode on a dataset row (row < 0: from seed) and
// returns its first prompt.
func (e *Episode) ResetTask(row int, seed uint64) (Prompt, Info, error) {
	obs, info, err := ResetTask(e.env, row, seed)
	if err != nil {
		return Prompt{}, Info{}, fmt.Errorf("reset: %w", err)
	}
	return e.start(obs, info)
}

// StepBounder is implemented by envs whose Step can take longer than a pure
// CPU step (code grading runs programs in a sandbox): StepBound is the most
// one Step can take with the env's options. The pipeline sizes the timeout
// of the activity that steps the env from it, so a slow but legitimate step
// is never cut off and retried while it still runs.
type StepBounder interface {
	StepBound() time.Duration
}

// StepBound is env's StepBound through wrappers, 0 when it declares none.
func StepBound(env Env) time.Duration {
	for env != nil {
		if b, ok := env.(StepBounder); ok {
			return b.StepBound()
		}
		u, ok := env.(Unwrapper)
		if !ok {
			return 0
		}
		env = u.Unwrap()
	}
	return 0
}
