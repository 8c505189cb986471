package terminal

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/quarry-rl/quarry/envs"
)

// MixID is the id of the env over every registered task: GEM's DockerEnv
// takes a list of tasks and plays one per episode.
const MixID = Category + ":all"

// Mix plays one of its tasks per episode: Reset(seed) draws it from the
// seed, ResetTask(row) takes task row (envs.Tasks, so a job draws tasks
// without replacement and a group shares one).
type Mix struct {
	tasks []*Task
	opts  Options
	sbf   SandboxFunc
	cur   *Env
}

// NewMix returns the env over tasks.
func NewMix(tasks []*Task, o Options, sb SandboxFunc) *Mix {
	return &Mix{tasks: tasks, opts: o, sbf: sb}
}

// Rows implements envs.Tasks: one row per task.
func (m *Mix) Rows() (int, error) { return len(m.tasks), nil }

// ResetTask implements envs.Tasks.
func (m *Mix) ResetTask(row int) (string, envs.Info, error) {
	if row < 0 || row >= len(m.tasks) {
		return "", envs.Info{}, fmt.Errorf("terminal: task row %d of %d", row, len(m.tasks))
	}
	return m.reset(row, 0)
}

// Reset starts an episode of the task the seed draws.
func (m *Mix) Reset(seed uint64) (string, envs.Info, error) {
	return m.reset(envs.NewRand(seed).IntN(len(m.tasks)), seed)
}

func (m *Mix) reset(i int, seed uint64) (string, envs.Info, error) {
	if m.cur != nil {
		if err := m.cur.Close(); err != nil {
			return "", envs.Info{}, fmt.Errorf("terminal: reset: %w", err)
		}
	}
	m.cur = New(m.tasks[i], m.opts, m.sbf)
	return m.cur.Reset(seed)
}

// Step applies an action to the current task.
func (m *Mix) Step(action string) (envs.StepResult, error) {
	if m.cur == nil {
		return envs.StepResult{}, envs.ErrNotReset
	}
	return m.cur.Step(action)
}

// SampleRandomAction is the current task's.
func (m *Mix) SampleRandomAction(rng *rand.Rand) string {
	if m.cur == nil {
		return FinishAction("done")
	}
	return m.cur.SampleRandomAction(rng)
}

// OracleAction is the current task's oracle.
func (m *Mix) OracleAction() (string, error) {
	if m.cur == nil {
		return "", envs.ErrNotReset
	}
	return m.cur.OracleAction()
}

// MarkReplay implements envs.Replayer for the current task.
func (m *Mix) MarkReplay(replaying bool) {
	if m.cur != nil {
		m.cur.MarkReplay(replaying)
	}
}

// StepBound is the largest of the tasks'.
func (m *Mix) StepBound() time.Duration {
	var b time.Duration
	for _, t := range m.tasks {
		b = max(b, New(t, m.opts, nil).StepBound())
	}
	return b
}

// Close releases the current episode's workspace.
func (m *Mix) Close() error {
	if m.cur == nil {
		return nil
	}
	return m.cur.Close()
}
