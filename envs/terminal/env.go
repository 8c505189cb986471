package terminal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/sandbox"
)

// SandboxFunc returns the sandbox tasks run in. An env calls it at its
// first command (or its first scoring) and keeps the result; it is usually
// the process-wide sandbox.Lazy shared with tool calls and code grading.
type SandboxFunc func(ctx context.Context) (*sandbox.Sandbox, error)

// ErrNoSandbox is returned by Step when the env has no SandboxFunc and an
// action needs the sandbox.
var ErrNoSandbox = errors.New("terminal: no sandbox configured")

// Options are an id's options.
type Options struct {
	// MaxOutputBytes bounds a command's observation (stdout and stderr
	// merged); the rest is dropped and the observation says so.
	MaxOutputBytes int `json:"max_output_bytes" range:"256,1048576"`
}

// DefaultMaxOutputBytes is the default of Options.MaxOutputBytes.
const DefaultMaxOutputBytes = 16 << 10

// DefaultOptions are the registered defaults.
func DefaultOptions() Options { return Options{MaxOutputBytes: DefaultMaxOutputBytes} }

// Env is one terminal task's env. The shell's files live in a sandbox
// workspace on this worker for the episode; Close (or the episode's end)
// releases it.
type Env struct {
	task   *Task
	opts   Options
	sbf    SandboxFunc
	rootfs func() (string, error)

	ws       *sandbox.Workspace // nil until the first command
	release  runtime.Cleanup    // closes ws if the env is dropped unclosed
	turns    int
	failures int
	done     bool
	oracle   []string // the solution's commands

	replaying     bool // MarkReplay(true) and not yet false
	replayedTurns int  // steps re-executed by the last replay
}

// New returns an env for task.
func New(task *Task, o Options, sb SandboxFunc) *Env {
	return &Env{task: task, opts: o, sbf: sb, rootfs: RootFSDir, oracle: SolutionCommands(task.Solution)}
}

// Task returns the env's task.
func (e *Env) Task() *Task { return e.task }

// Close releases the episode's sandbox workspace, if any. An env dropped
// mid-episode without Close (a session cache replacing it) releases it
// when the garbage collector finds the env unreachable.
func (e *Env) Close() error {
	if e.ws == nil {
		return nil
	}
	e.release.Stop()
	err := e.ws.Close()
	e.ws = nil
	return err
}

// Reset starts an episode. The task is the same for every seed (one id per
// task); the sandbox starts lazily at the first command.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	if err := e.Close(); err != nil {
		return "", envs.Info{}, fmt.Errorf("terminal: reset: %w", err)
	}
	e.turns, e.failures, e.done = 0, 0, false
	e.replayedTurns = 0
	return Observation(e.task), envs.Info{Extra: map[string]any{"task": e.task.Name, "format": e.task.Format}}, nil
}

// Observation is an episode's first observation: the task's instruction
// and how to act (GEM's DockerEnv shows the bare instruction and leaves the
// action format to its system prompt; Quarry's envs say it themselves).
func Observation(t *Task) string {
	return strings.TrimSpace(t.Instruction) + "\n\n" + actionHelp
}

const actionHelp = `You are in a Linux shell (Debian, no network) at /app. Act with one action per turn:
<bash>
cmd: 'ls -la'
timeout_secs: 30
</bash>
runs a command (the body is YAML; quote commands with special characters, use cmd: | for several lines) and shows its output. When the task is done:
<finish>
message: 'what was done'
</finish>
The tests run after <finish>, at the turn limit, or after too many failing commands.`

// Observations and their parts, as GEM's DockerEnv words them where it
// has words.
const (
	obsFailed     = "\nBash execution failed with above error. Please fix any potential bug and retry.\n"
	obsFailedLast = "\nBash execution failure reaches maximum allowed times.\n"
)

// Step applies one action.
func (e *Env) Step(action string) (envs.StepResult, error) {
	if e.done {
		return envs.StepResult{}, envs.ErrEpisodeOver
	}
	e.turns++
	res, err := e.step(action)
	if err != nil {
		return envs.StepResult{}, err
	}
	if !res.Done() && e.turns >= e.task.MaxTurns {
		res.Terminated, res.Truncated = true, true // GEM's convention at the turn limit
		res.Observation += fmt.Sprintf("\nThe turn limit (%d) is reached.\n", e.task.MaxTurns)
	}
	if res.Done() {
		e.done = true
		if err := e.finish(&res); err != nil {
			return envs.StepResult{}, err
		}
	}
	if e.replayedTurns > 0 && !e.replaying {
		res.Info.Extra["replayed"] = true
		res.Info.Extra["replayed_turns"] = e.replayedTurns
	}
	if e.replaying {
		e.replayedTurns++
	}
	return res, nil
}

func (e *Env) step(action string) (envs.StepResult, error) {
	a, err := ParseAction(action)
	var perr *ParseError
	if errors.As(err, &perr) {
		return envs.StepResult{
			Observation: perr.Reason,
			Terminated:  perr.Fatal,
			Info:        envs.Info{FormatError: true, Extra: map[string]any{}},
		}, nil
	} else if err != nil {
		return envs.StepResult{}, fmt.Errorf("terminal: parse action: %w", err)
	}
	info := envs.Info{ParsedAction: a.Text, Extra: map[string]any{}}
	if a.Kind == ActionFinish {
		return envs.StepResult{Terminated: true, Info: info}, nil
	}
	out, err := e.command(a)
	if err != nil {
		return envs.StepResult{}, err
	}
	info.Extra["exit_code"] = out.exitCode
	if out.timedOut {
		info.Extra["timed_out"] = true
	}
	if out.truncated {
		info.Extra["output_truncated"] = true
	}
	obs := "<bash_output>" + out.text + "</bash_output>"
	res := envs.StepResult{Info: info}
	if out.exitCode != 0 || out.timedOut {
		e.failures++
		info.Extra["failures"] = e.failures
		if e.failures >= e.task.MaxFailures {
			obs += obsFailedLast
			res.Terminated = true
		} else {
			obs += obsFailed
		}
	}
	if a.EndAfterSuccess && out.exitCode == 0 && !out.timedOut {
		res.Terminated = true
	}
	res.Observation = obs
	return res, nil
}

// finish scores the episode and releases its workspace.
func (e *Env) finish(res *envs.StepResult) error {
	sc, err := e.score()
	if err != nil {
		return err
	}
	if cerr := e.Close(); cerr != nil {
		return fmt.Errorf("terminal: %w", cerr)
	}
	res.Reward = sc.reward
	res.Info.Success = sc.reward >= 1-1e-9
	res.Info.Extra["tests"] = sc.passed
	res.Info.Extra["score"] = sc.reward
	if sc.note != "" {
		res.Info.Extra["test_note"] = sc.note
	}
	n := 0
	for _, ok := range sc.passed {
		if ok {
			n++
		}
	}
	res.Observation += fmt.Sprintf("\nThe episode is over. Tests passed: %d of %d (reward %.3g).", n, len(sc.passed), sc.reward)
	res.Observation = strings.TrimLeft(res.Observation, "\n")
	return nil
}

// SampleRandomAction is a well-formed action: a harmless command (some of
// which fail) or, one time in four, finish.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if rng.IntN(4) == 0 {
		return FinishAction("done")
	}
	cmds := []string{
		"ls /app",
		"pwd",
		"echo hello",
		"ls /nonexistent",
		"echo $HOME",
		"python3 -c 'print(2 + 2)'",
		"wc -l /app/* 2>/dev/null | tail -n 1",
		"false",
		"cd /tmp && pwd",
		"export GREETING=hi; echo $GREETING",
	}
	return BashAction(cmds[rng.IntN(len(cmds))], []int{0, 10, 30}[rng.IntN(3)])
}

// OracleAction is the next command of the task's solution, then finish: the
// oracle replays solution.sh block by block (docs/envs.md).
func (e *Env) OracleAction() (string, error) {
	if e.task.Solution == "" {
		return "", fmt.Errorf("terminal: task %s has no solution", e.task.Name)
	}
	if e.turns < len(e.oracle) {
		return BashAction(e.oracle[e.turns], int(e.task.MaxTimeout/time.Second)), nil
	}
	return FinishAction("solution applied"), nil
}

// StepBound implements envs.StepBounder: the most one Step can take — the
// task's setup (at the first command), one command, and the tests at the
// end, each at its time limit, plus the sandbox's set-up (stepOverhead).
// The pipeline sizes the Act activity's timeout from it.
func (e *Env) StepBound() time.Duration {
	tests := 0
	pytest := false
	for _, t := range e.task.Tests {
		if t.Kind == KindPytest {
			pytest = true // one run for every pytest test
			continue
		}
		tests++
	}
	if pytest {
		tests++
	}
	return 2*e.task.MaxTimeout + time.Duration(tests)*e.task.TestTimeout + stepOverhead
}

// stepOverhead is a Step's time beyond its commands': a workspace's set-up
// and removal, the wait for a sandbox slot behind bounded runs, writing the
// tests.
const stepOverhead = 30 * time.Second

// MarkReplay implements envs.Replayer: between MarkReplay(true) and
// MarkReplay(false) the steps re-execute recorded commands into a fresh
// workspace; every later step's Info.Extra says "replayed" (with the count
// of re-executed turns), because a command with outside effects (time,
// randomness, a service's state) may have come out differently.
func (e *Env) MarkReplay(replaying bool) {
	if replaying && !e.replaying {
		e.replayedTurns = 0
	}
	e.replaying = replaying
}

// output is what one command produced.
type output struct {
	text      string
	exitCode  int
	timedOut  bool
	truncated bool
}

// shellWrapper runs an agent's command so that the working directory and
// the exported variables carry over to the next command (each command is a
// fresh sandboxed bash; files persist in the workspace, processes do not).
// $1 is the command.
const shellWrapper = `exec 2>&1
__q=/home/agent/.quarry-shell
cd "$(cat "$__q/cwd" 2>/dev/null)" 2>/dev/null || cd /app
[ -r "$__q/env" ] && . "$__q/env" >/dev/null 2>&1
trap '__rc=$?; mkdir -p "$__q"; pwd >"$__q/cwd"; export -p | grep -Ev "^declare -[a-z]*r|^declare -x (PWD|OLDPWD|SHLVL|_)=" >"$__q/env"; exit $__rc' EXIT
eval "$1"`

// fixedEnv makes commands that stamp times reproducible where tools allow
// it: git commits get a fixed date, so hashes replay identically.
var fixedEnv = []string{
	"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z",
	"GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	"SOURCE_DATE_EPOCH=1767225600",
	"PYTHONDONTWRITEBYTECODE=1",
	"TERM=dumb",
}

func (e *Env) command(a Action) (output, error) {
	if err := e.start(); err != nil {
		return output{}, err
	}
	timeout := e.task.CommandTimeout
	if a.Timeout > 0 {
		timeout = e.task.MaxTimeout
		if a.Timeout < timeout.Seconds() { // compared as seconds: a huge float would overflow a Duration
			timeout = time.Duration(a.Timeout * float64(time.Second))
		}
	}
	res, err := e.run([]string{"/bin/bash", "-c", shellWrapper, "bash", a.Cmd}, timeout, e.opts.MaxOutputBytes)
	if err != nil {
		return output{}, err
	}
	// Output is bytes (a binary file, a cut in the middle of a character);
	// an observation is text.
	text := strings.ToValidUTF8(string(res.Stdout), "\uFFFD")
	out := output{text: text, exitCode: res.ExitCode, timedOut: res.TimedOut, truncated: res.StdoutTruncated}
	if out.truncated {
		out.text += fmt.Sprintf("\n[output truncated to its first %d bytes]", e.opts.MaxOutputBytes)
	}
	if res.TimedOut {
		out.text += fmt.Sprintf("\n[the command timed out after %s and was killed]", timeout)
	} else if res.Signal != "" {
		out.text += "\n[the command was killed: " + res.Signal + "]"
	}
	return out, nil
}

// run runs args in the episode's workspace with a wall and CPU bound.
func (e *Env) run(args []string, timeout time.Duration, outputBytes int) (sandbox.Result, error) {
	res, err := e.ws.Run(context.Background(), sandbox.Cmd{
		Args:   args,
		Env:    fixedEnv,
		Limits: sandbox.Limits{Wall: timeout, CPU: timeout, OutputBytes: outputBytes},
	})
	if err != nil {
		return res, fmt.Errorf("terminal: task %s: %w", e.task.Name, err)
	}
	return res, nil
}

// start makes the episode's workspace and runs the task's setup, once.
func (e *Env) start() error {
	if e.ws != nil {
		return nil
	}
	if e.sbf == nil {
		return ErrNoSandbox
	}
	ctx := context.Background()
	sb, err := e.sbf(ctx)
	if err != nil {
		return fmt.Errorf("terminal: sandbox: %w", err)
	}
	root, err := e.rootfs()
	if err != nil {
		return err
	}
	ws, err := sb.NewRootWorkspace(ctx, sandbox.RootFS{Dir: root, Writable: writable})
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	e.ws = ws
	e.release = runtime.AddCleanup(e, func(ws *sandbox.Workspace) { ws.Close() }, ws)
	if e.task.Setup == "" {
		return nil
	}
	res, err := e.run([]string{"/bin/bash", "-c", "exec 2>&1; cd /app && " + e.task.Setup}, e.task.MaxTimeout, 64<<10)
	if err != nil {
		return err
	}
	if res.ExitCode != 0 || res.TimedOut {
		e.Close()
		return fmt.Errorf("terminal: task %s: setup.sh failed (exit %d, timed out %v): %s", e.task.Name, res.ExitCode, res.TimedOut, res.Stdout)
	}
	return nil
}

// writable are the paths a task's sandbox writes: the sandbox's defaults
// and /tests, which holds the tests only while they run.
var writable = append(append([]string{}, sandbox.DefaultRootWritable...), "/tests")

// scored is the outcome of a task's tests.
type scored struct {
	reward float64
	passed map[string]bool
	note   string
}

// pristine caches each task's score on its untouched set-up state (an
// episode that ran no command), so format errors and immediate finishes
// cost no sandbox run after the first. Only a success is kept.
var pristine sync.Map // *Task → scored

func (e *Env) score() (scored, error) {
	if e.ws == nil {
		if sc, ok := pristine.Load(e.task); ok {
			return sc.(scored), nil
		}
		if err := e.start(); err != nil {
			return scored{}, err
		}
		sc, err := e.runTests()
		if err == nil {
			pristine.Store(e.task, sc)
		}
		return sc, err
	}
	return e.runTests()
}

// runTests writes the tests into /tests (replacing whatever the agent put
// there), runs them and weighs the results. No agent process is alive by
// now: each command's processes end with it.
func (e *Env) runTests() (scored, error) {
	dir, _ := e.ws.HostPath("/tests")
	logs, _ := e.ws.HostPath("/logs/verifier")
	for _, d := range []string{dir, logs} {
		if err := os.RemoveAll(d); err != nil {
			return scored{}, fmt.Errorf("terminal: clear %s: %w", d, err)
		}
		if err := os.MkdirAll(d, 0o777); err != nil {
			return scored{}, fmt.Errorf("terminal: %w", err)
		}
		os.Chmod(d, 0o777) // writable by whichever slot uid runs the tests
	}
	for name, b := range e.task.Files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return scored{}, fmt.Errorf("terminal: write tests: %w", err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			return scored{}, fmt.Errorf("terminal: write tests: %w", err)
		}
	}
	sc := scored{passed: map[string]bool{}}
	var pytestFiles []string
	for _, t := range e.task.Tests {
		switch t.Kind {
		case KindScript:
			res, err := e.run(testCommand(t), e.task.TestTimeout, 8<<10)
			if err != nil {
				return scored{}, err
			}
			sc.passed[t.Name] = res.ExitCode == 0 && !res.TimedOut
		case KindPytest:
			if len(pytestFiles) == 0 || pytestFiles[len(pytestFiles)-1] != t.File {
				pytestFiles = append(pytestFiles, t.File)
			}
		case KindHarbor:
			r, note, err := e.harbor(t, logs)
			if err != nil {
				return scored{}, err
			}
			sc.passed[t.Name] = r >= 1-1e-9
			sc.note = note
			sc.reward = r
			return sc, nil
		}
	}
	if len(pytestFiles) > 0 {
		if err := e.pytest(pytestFiles, sc.passed); err != nil {
			return scored{}, err
		}
	}
	var got, total float64
	for _, t := range e.task.Tests {
		total += t.Weight
		if sc.passed[t.Name] {
			got += t.Weight
		}
	}
	sc.reward = got / total
	return sc, nil
}

// testCommand runs a test script as its extension says: Python isolated
// from the agent's files (-I: no cwd, user site or PYTHON* variables on its
// path), shell without rc files. A Quarry test script runs with errexit
// (-e), so every line of it is a check; Harbor's test.sh runs as written
// (it decides the reward itself, often after a failing command).
func testCommand(t Test) []string {
	p := path.Join("/tests", t.File)
	switch {
	case strings.HasSuffix(t.File, ".py"):
		return []string{"/usr/bin/python3", "-I", p}
	case t.Kind == KindHarbor:
		return []string{"/bin/bash", "--noprofile", "--norc", p}
	}
	return []string{"/bin/bash", "--noprofile", "--norc", "-e", p}
}

// pytestResult is a line of pytest's -rA summary: "PASSED path::test_name".
var pytestResult = regexp.MustCompile(`(?m)^(PASSED|FAILED|ERROR|XPASS|XFAIL|SKIPPED)\s+\S*?::(\w+)`)

func (e *Env) pytest(files []string, passed map[string]bool) error {
	args := []string{"/usr/bin/python3", "-I", "-m", "pytest", "-rA", "-p", "no:cacheprovider", "--rootdir=/tests", "-q"}
	for _, f := range files {
		args = append(args, path.Join("/tests", f))
	}
	res, err := e.run(args, e.task.TestTimeout, 256<<10)
	if err != nil {
		return err
	}
	for _, m := range pytestResult.FindAllStringSubmatch(string(res.Stdout), -1) {
		passed[m[2]] = m[1] == "PASSED"
	}
	return nil
}

// harbor runs a Harbor task's tests/test.sh and reads the reward it wrote.
func (e *Env) harbor(t Test, logs string) (float64, string, error) {
	res, err := e.run(testCommand(t), e.task.TestTimeout, 8<<10)
	if err != nil {
		return 0, "", err
	}
	if res.TimedOut {
		return 0, "test.sh timed out", nil
	}
	if b, err := os.ReadFile(filepath.Join(logs, "reward.txt")); err == nil {
		r, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err != nil {
			return 0, "reward.txt is not a number", nil
		}
		return clamp01(r), "", nil
	}
	if b, err := os.ReadFile(filepath.Join(logs, "reward.json")); err == nil {
		var v struct {
			Reward *float64 `json:"reward"`
		}
		if json.Unmarshal(b, &v) != nil || v.Reward == nil {
			return 0, "reward.json has no number \"reward\"", nil
		}
		return clamp01(*v.Reward), "", nil
	}
	return 0, "test.sh wrote no /logs/verifier/reward.txt", nil
}

func clamp01(r float64) float64 {
	if math.IsNaN(r) {
		return 0
	}
	return max(0, min(1, r))
}

// heredocStart finds a here-document's delimiter on a line: <<EOF, <<'EOF',
// <<"EOF", <<-EOF.
var heredocStart = regexp.MustCompile(`<<(-?)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// SolutionCommands splits a solution script into the oracle's commands:
// blocks separated by blank lines (a here-document's blank lines do not
// split it), without the shebang and comment-only blocks.
func SolutionCommands(script string) []string {
	var (
		cmds  []string
		block []string
		delim string
		strip bool
	)
	flush := func() {
		text := strings.TrimSpace(strings.Join(block, "\n"))
		block = nil
		meaningful := false
		for _, l := range strings.Split(text, "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				meaningful = true
			}
		}
		if meaningful {
			cmds = append(cmds, text)
		}
	}
	for i, line := range strings.Split(script, "\n") {
		if i == 0 && strings.HasPrefix(line, "#!") {
			continue
		}
		if delim != "" {
			block = append(block, line)
			l := line
			if strip {
				l = strings.TrimLeft(l, "\t")
			}
			if l == delim {
				delim = ""
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		block = append(block, line)
		if m := heredocStart.FindStringSubmatch(line); m != nil {
			delim, strip = m[2], m[1] == "-"
		}
	}
	flush()
	return cmds
}
