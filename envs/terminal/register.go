// Package terminal is Quarry's terminal env family, terminal:<task>: an
// agent works in a sandboxed Linux shell (bubblewrap over a Debian root the
// project builds with debootstrap) to complete a task, acting with GEM's
// DockerEnv actions — <bash> with a YAML body (cmd, timeout_secs) and
// <finish> — or the same two as native tool calls. Observations are the
// commands' output, bounded. The episode ends on finish, at the task's turn
// limit, or after GEM's count of failing commands (5); then the task's tests
// run in the same sandbox and the reward is the weighted fraction that
// pass.
//
// Tasks are folders (LoadTask): Quarry's own layout, and Terminal-Bench's
// and Harbor's, read as far as a Docker-less sandbox allows. The shipped
// tasks are embedded under tasks/. docs/envs.md, "Terminal", has the rules.
package terminal

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

//go:embed tasks
var shipped embed.FS

// Category is the id prefix of the family.
const Category = "terminal"

// Revision numbers the family's rules (see envs.Spec.Revision).
const Revision = 1

// Tasks loads every task folder directly under dir of fsys, sorted by name.
func Tasks(fsys fs.FS, dir string) ([]*Task, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("terminal: list tasks: %w", err)
	}
	var tasks []*Task
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") { // .git and the like
			continue
		}
		t, err := LoadTask(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("terminal: %w", err)
		}
		tasks = append(tasks, t)
	}
	slices.SortFunc(tasks, func(a, b *Task) int { return strings.Compare(a.Name, b.Name) })
	return tasks, nil
}

// Shipped returns the tasks embedded in the binary.
func Shipped() ([]*Task, error) { return Tasks(shipped, "tasks") }

// EnvTaskDirs names extra task directories, separated by colons: every
// folder directly inside each is a task (any layout LoadTask reads),
// registered as terminal:<folder name> beside the shipped ones. Workers and
// the submitting process must see the same folders: an id's version
// includes its task's content, so two workers with different copies refuse
// to mix them in one dataset.
const EnvTaskDirs = "QUARRY_TERMINAL_TASKS"

// Register adds terminal:<name> for every shipped task and every task in
// the directories $QUARRY_TERMINAL_TASKS names, and terminal:all over them. sb provides the sandbox; it
// may be nil for a registry that only lists or resets envs.
func Register(r *envs.Registry, sb SandboxFunc) error {
	tasks, err := Shipped()
	if err != nil {
		return err
	}
	for _, dir := range filepath.SplitList(os.Getenv(EnvTaskDirs)) {
		if dir == "" {
			continue
		}
		more, err := Tasks(os.DirFS(dir), ".")
		if err != nil {
			return fmt.Errorf("%s=%s: %w", EnvTaskDirs, dir, err)
		}
		tasks = append(tasks, more...)
	}
	return RegisterTasks(r, tasks, sb)
}

// RegisterTasks adds terminal:<name> for each task, and terminal:all over
// all of them.
func RegisterTasks(r *envs.Registry, tasks []*Task, sb SandboxFunc) error {
	if len(tasks) == 0 {
		return nil
	}
	maxTurns := 0
	var digests [][]byte
	for _, t := range tasks {
		maxTurns = max(maxTurns, t.MaxTurns)
		digests = append(digests, []byte(t.Digest()))
	}
	err := r.Register(envs.Spec{
		ID:          MixID,
		Description: fmt.Sprintf("One of the %d terminal tasks per episode (drawn from the seed, or the job's task row), as GEM's DockerEnv over a task list.", len(tasks)),
		MaxTurns:    maxTurns,
		RewardMin:   0,
		RewardMax:   1,
		Revision:    Revision,
		DataDigest:  envs.Digest(digests...),
		Build: envs.Options(DefaultOptions(), func(o Options) (envs.Env, error) {
			return NewMix(tasks, o, sb), nil
		}),
	})
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	for _, t := range tasks {
		if len(SolutionCommands(t.Solution))+1 > t.MaxTurns {
			return fmt.Errorf("terminal: task %s: its solution takes more than max_turns (%d) steps", t.Name, t.MaxTurns)
		}
		err := r.Register(envs.Spec{
			ID:          Category + ":" + t.Name,
			Description: description(t),
			MaxTurns:    t.MaxTurns,
			RewardMin:   0,
			RewardMax:   1,
			Revision:    Revision,
			DataDigest:  t.Digest(),
			Build: envs.Options(DefaultOptions(), func(o Options) (envs.Env, error) {
				return New(t, o, sb), nil
			}),
		})
		if err != nil {
			return fmt.Errorf("terminal: %w", err)
		}
	}
	return nil
}

func description(t *Task) string {
	first, _, _ := strings.Cut(strings.TrimSpace(t.Instruction), "\n")
	if len(first) > 120 {
		first = first[:117] + "..."
	}
	return "Terminal task " + t.Name + " (sandboxed bash; <bash>/<finish>): " + first
}

// Digest identifies everything of the task the episode depends on, and the
// root filesystem it runs in.
func (t *Task) Digest() string {
	parts := [][]byte{[]byte(t.Name), []byte(t.Format), []byte(t.Instruction), []byte(t.Setup), []byte(t.Solution),
		[]byte(fmt.Sprintf("%d/%d/%s/%s/%s", t.MaxTurns, t.MaxFailures, t.CommandTimeout, t.MaxTimeout, t.TestTimeout)),
		[]byte(RootFSKey())}
	for _, x := range t.Tests {
		parts = append(parts, []byte(fmt.Sprintf("%s/%s/%s/%g", x.Name, x.Kind, x.File, x.Weight)))
	}
	names := make([]string, 0, len(t.Files))
	for n := range t.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		parts = append(parts, []byte(n), t.Files[n])
	}
	return envs.Digest(parts...)
}
