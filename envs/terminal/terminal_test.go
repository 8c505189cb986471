package terminal

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
)

// shared is this package's sandbox, uids 70000…70003 or, when another
// process holds those (this package's tests in a second worktree of the
// host), the next free range of four (other packages' tests use other
// ranges at the same time).
var shared = &sandboxtest.Shared{UIDBase: 70000, Slots: 4}

func TestMain(m *testing.M) {
	shared.UIDBase = freeUIDs(shared.UIDBase, shared.Slots)
	code := m.Run()
	shared.Cleanup()
	os.Exit(code)
}

// freeUIDs returns the first uid base from base on, in steps of 10, whose
// slots no other process's sandbox holds; base when none is free or the
// sandbox cannot run here (the tests then say why).
func freeUIDs(base, slots int) int {
	dir, err := os.MkdirTemp("", "quarry-uids-")
	if err != nil {
		return base
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	for b := base; b < base+200; b += 10 {
		sb, err := sandbox.New(context.Background(), sandbox.Options{BaseDir: dir, UIDBase: b, Slots: slots})
		if err == nil {
			sb.Close()
			return b
		}
	}
	return base
}

func sandboxFunc(tb testing.TB) SandboxFunc {
	return func(context.Context) (*sandbox.Sandbox, error) { return shared.Get(tb), nil }
}

// registry holds every shipped task over the package's sandbox.
func registry(tb testing.TB) *envs.Registry {
	tb.Helper()
	r := envs.NewRegistry()
	if err := Register(r, sandboxFunc(tb)); err != nil {
		tb.Fatal(err)
	}
	return r
}

// The script and Go agree on where the root filesystem is cached.
func TestRootFSKeyMatchesTheBuildScript(t *testing.T) {
	out, err := exec.Command("bash", "../../scripts/build-rootfs.sh", "--print-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvRootFS, "")
	t.Setenv(EnvRootFSCache, "")
	dir, err := RootFSDir()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != dir {
		t.Fatalf("build-rootfs.sh caches at %s, Go looks at %s", got, dir)
	}
}

func TestShippedTasks(t *testing.T) {
	tasks, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 20 {
		t.Fatalf("%d shipped tasks, want at least 20", len(tasks))
	}
	formats := map[string]int{}
	for _, task := range tasks {
		formats[task.Format]++
		if task.Solution == "" {
			t.Errorf("%s has no solution", task.Name)
		}
	}
	for _, f := range []string{FormatQuarry, FormatTerminalBench, FormatHarbor} {
		if formats[f] == 0 {
			t.Errorf("no shipped task in the %s layout", f)
		}
	}
}

// Every shipped task is solvable: its oracle (the solution's commands,
// then finish) scores 1.
func TestOracleScoresOneOnEveryTask(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			spec, _ := r.Lookup(id)
			e := envtest.Make(t, r, id, nil)
			tr, err := envtest.Play(e, 0, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			last := tr.Steps[len(tr.Steps)-1]
			if last.Reward != 1 || !last.Info.Success {
				t.Fatalf("oracle reward %v: %s", last.Reward, tr)
			}
			for i, s := range tr.Steps[:len(tr.Steps)-1] {
				if s.Info.Extra["exit_code"] != 0 {
					t.Errorf("oracle command %d failed: %q → %s", i, s.Action, s.Observation)
				}
			}
		})
	}
}

// A random policy, and a policy that only finishes, score about nothing.
func TestRandomAndGarbageScoreZero(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			spec, _ := r.Lookup(id)
			for seed := range uint64(2) {
				tr, err := envtest.Play(envtest.Make(t, r, id, nil), seed, envtest.RandomPolicy(seed), spec.MaxTurns)
				if err != nil {
					t.Fatal(err)
				}
				if !tr.Done {
					t.Fatalf("random episode not over after MaxTurns")
				}
				if g := tr.Return(); g > 0.34 {
					t.Fatalf("random policy scored %v", g)
				}
			}
			res, err := envtest.MakeReset(t, r, id, 0).Step("I give up.")
			if err != nil {
				t.Fatal(err)
			}
			if !res.Terminated || !res.Info.FormatError || res.Reward > 0.34 {
				t.Fatalf("garbage: %+v", res)
			}
		})
	}
}

// The conformance suite on a few tasks of different kinds (the suite plays
// about 80 episodes an id; the oracle and random tests above cover the rest).
func TestConformance(t *testing.T) {
	r := registry(t)
	for _, id := range []string{"terminal:hello-file", "terminal:git-merge-conflict", "terminal:harbor-uppercase", MixID} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			envtest.Run(t, r, id)
		})
	}
}

// An episode dropped after k commands is rebuilt in a fresh env by
// replaying them: same files, same shell state, and the replayed flag set.
func TestReplayRebuildsTheEpisode(t *testing.T) {
	r := registry(t)
	const id = "terminal:git-first-commit"
	actions := []string{
		BashAction("cd /app/project && git init -q && export STAGE=inited", 0),
		BashAction("git add -A && git commit -q -m 'initial commit' && echo $STAGE", 0),
		BashAction("echo scratch > /tmp/note && pwd", 0),
	}
	first := envtest.MakeReset(t, r, id, 7)
	var recorded []envs.StepResult
	for _, a := range actions {
		res, err := first.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		recorded = append(recorded, res)
	}
	if got := recorded[2].Observation; got != "<bash_output>/app/project\n</bash_output>" {
		t.Fatalf("the working directory did not carry over: %q", got)
	}
	// The worker dies: its env (and workspace) are gone.
	if err := envs.Close(first); err != nil {
		t.Fatal(err)
	}

	fresh := envtest.MakeReset(t, r, id, 7)
	if !envs.MarkReplay(fresh, true) {
		t.Fatal("the terminal env is not an envs.Replayer")
	}
	for i, a := range actions {
		res, err := fresh.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if res.Observation != recorded[i].Observation || res.Reward != recorded[i].Reward {
			t.Fatalf("replayed step %d: %q, recorded %q", i, res.Observation, recorded[i].Observation)
		}
	}
	envs.MarkReplay(fresh, false)
	res, err := fresh.Step(BashAction("cat /tmp/note; echo $STAGE; git log --format=%s", 0))
	if err != nil {
		t.Fatal(err)
	}
	if want := "<bash_output>scratch\ninited\ninitial commit\n</bash_output>"; res.Observation != want {
		t.Fatalf("after replay: %q, want %q", res.Observation, want)
	}
	if res.Info.Extra["replayed"] != true || res.Info.Extra["replayed_turns"] != 3 {
		t.Fatalf("after replay, Info.Extra = %v, want replayed and replayed_turns 3", res.Info.Extra)
	}
	res, err = fresh.Step(FinishAction("done"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Reward != 1 || res.Info.Extra["replayed"] != true {
		t.Fatalf("finish after replay: reward %v, extra %v", res.Reward, res.Info.Extra)
	}
}

// Commands are bounded: a timeout kills them (a failing command), output
// is cut, and the failing-command count ends the episode as GEM's does.
func TestCommandLimits(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "terminal:hello-file", map[string]any{"max_output_bytes": 1000})
	if _, _, err := e.Reset(0); err != nil {
		t.Fatal(err)
	}
	res, err := e.Step(BashAction("sleep 30", 1))
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Extra["timed_out"] != true || !strings.Contains(res.Observation, "timed out after 1s") || res.Done() {
		t.Fatalf("timeout: %+v", res)
	}
	res, err = e.Step("<bash>\ncmd: 'head -c 3 /dev/zero; printf \"\\\\377\\\\376\"; exit 0'\ntimeout_secs: 1.0e+300\n</bash>")
	if err != nil {
		t.Fatal(err)
	}
	if want := "<bash_output>\x00\x00\x00\uFFFD</bash_output>"; res.Observation != want {
		t.Fatalf("binary output: %q, want %q", res.Observation, want)
	}
	res, err = e.Step(BashAction("yes | head -c 100000", 0))
	if err != nil {
		t.Fatal(err)
	}
	if res.Info.Extra["output_truncated"] != true || len(res.Observation) > 1200 {
		t.Fatalf("output not bounded: %d bytes, extra %v", len(res.Observation), res.Info.Extra)
	}
	// sleep (1), then 4 more failures reach GEM's limit of 5.
	for i := 0; i < 4; i++ {
		if res, err = e.Step(BashAction("false", 0)); err != nil {
			t.Fatal(err)
		}
	}
	if !res.Terminated || !strings.Contains(res.Observation, "failure reaches maximum allowed times") {
		t.Fatalf("5 failing commands did not end the episode: %+v", res)
	}
	if res.Reward != 0 {
		t.Fatalf("reward %v after doing nothing useful", res.Reward)
	}
}

// The agent cannot see the host's files nor reach its network, and cannot
// plant tests: /tests is rewritten before they run.
func TestSandboxIsolation(t *testing.T) {
	r := registry(t)
	secret := t.TempDir() + "/secret"
	if err := os.WriteFile(secret, []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(t.TempDir(), 0o755)
	e := envtest.MakeReset(t, r, "terminal:hello-file", 0)
	wd, _ := os.Getwd()
	res, err := e.Step(BashAction("cat "+secret+" "+wd+"/env.go /var/cache/quarry/*/etc/hostname 2>&1; python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=2)\" 2>&1 | tail -n 1", 0))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Observation, "host secret") || strings.Contains(res.Observation, "package terminal") {
		t.Fatalf("host files visible: %s", res.Observation)
	}
	if !strings.Contains(res.Observation, "Network is unreachable") {
		t.Fatalf("network reachable? %s", res.Observation)
	}
	// A planted test that always passes is replaced by the real one.
	if _, err := e.Step(BashAction("printf 'exit 0\\n' > /tests/check.sh", 0)); err != nil {
		t.Fatal(err)
	}
	res, err = e.Step(FinishAction("done"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Reward != 0 {
		t.Fatalf("a planted test scored %v", res.Reward)
	}
}

func TestLoadTaskLayouts(t *testing.T) {
	fsys := fstest.MapFS{
		"tb/task.yaml":               {Data: []byte("instruction: do it\nmax_test_timeout_sec: 30\n")},
		"tb/tests/test_outputs.py":   {Data: []byte("def test_a():\n    pass\n\ndef test_b():\n    pass\n")},
		"tb/tests/test_weights.json": {Data: []byte(`{"test_a": 3, "test_b": 1}`)},
		"tb/solution.sh":             {Data: []byte("#!/bin/bash\necho a\n\necho b\n")},
		"hb/task.toml":               {Data: []byte("version = \"1.0\"\n[verifier]\ntimeout_sec = 45.0\n[agent]\ntimeout_sec = 10\n")},
		"hb/instruction.md":          {Data: []byte("# Do it\n")},
		"hb/tests/test.sh":           {Data: []byte("echo 1 > /logs/verifier/reward.txt\n")},
		"hb/solution/solve.sh":       {Data: []byte("true\n")},
		"bad/task.yaml":              {Data: []byte("instruction: x\ntests:\n  - file: missing.sh\n")},
		"empty/task.yaml":            {Data: []byte("tests: []\n")},
		"neg/task.yaml":              {Data: []byte("instruction: x\ntests:\n  - file: a.sh\n    weight: -1\n")},
		"neg/tests/a.sh":             {Data: []byte("true\n")},
		"none/instruction.md":        {Data: []byte("x")},
		"quarry/task.yaml":           {Data: []byte("instruction: x\nmax_turns: 5\ntimeout_secs: 5\ntests:\n  - file: a.sh\n    weight: 2\n")},
		"quarry/tests/a.sh":          {Data: []byte("true\n")},
	}
	tb, err := LoadTask(fsys, "tb")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Format != FormatTerminalBench || len(tb.Tests) != 2 || tb.Tests[0].Weight != 3 || tb.TestTimeout.Seconds() != 30 {
		t.Fatalf("terminal-bench task: %+v", tb)
	}
	if got := SolutionCommands(tb.Solution); len(got) != 2 || got[0] != "echo a" {
		t.Fatalf("solution commands %q", got)
	}
	hb, err := LoadTask(fsys, "hb")
	if err != nil {
		t.Fatal(err)
	}
	if hb.Format != FormatHarbor || hb.Tests[0].Kind != KindHarbor || hb.TestTimeout.Seconds() != 45 || hb.Solution != "true\n" {
		t.Fatalf("harbor task: %+v", hb)
	}
	q, err := LoadTask(fsys, "quarry")
	if err != nil {
		t.Fatal(err)
	}
	if q.Format != FormatQuarry || q.MaxTurns != 5 || q.CommandTimeout.Seconds() != 5 || q.MaxFailures != DefaultMaxFailures {
		t.Fatalf("quarry task: %+v", q)
	}
	for _, dir := range []string{"bad", "empty", "neg", "none"} {
		if _, err := LoadTask(fsys, dir); err == nil {
			t.Errorf("LoadTask(%s) succeeded, want an error", dir)
		}
	}
}

func TestSolutionCommandsKeepHeredocs(t *testing.T) {
	script := "#!/bin/bash\n# setup\n\ncat > f <<'EOF'\na\n\nb\nEOF\n\n  \necho done\n"
	got := SolutionCommands(script)
	want := []string{"cat > f <<'EOF'\na\n\nb\nEOF", "echo done"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// end_after_cmd_success ends the episode on a command that succeeds, as
// GEM's prompt documents it; the tests then score it.
func TestEndAfterCommandSuccess(t *testing.T) {
	r := registry(t)
	e := envtest.MakeReset(t, r, "terminal:hello-file", 0)
	res, err := e.Step("<bash>\ncmd: 'false'\nend_after_cmd_success: true\n</bash>")
	if err != nil || res.Done() {
		t.Fatalf("a failing command ended the episode: %+v, %v", res, err)
	}
	res, err = e.Step("<bash>\ncmd: \"echo 'Hello, World!' > /app/hello.txt\"\nend_after_cmd_success: true\n</bash>")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Terminated || res.Truncated || res.Reward != 1 || !res.Info.Success {
		t.Fatalf("end_after_cmd_success: %+v", res)
	}
}

// Task folders outside the binary ($QUARRY_TERMINAL_TASKS) register beside
// the shipped ones, here a Terminal-Bench folder with its Docker files.
func TestExtraTaskDirs(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"my-task/task.yaml":             "instruction: Write 42 to /app/answer.txt\nparser_name: pytest\n",
		"my-task/Dockerfile":            "FROM ubuntu\n",
		"my-task/solution.sh":           "#!/bin/bash\necho 42 > /app/answer.txt\n",
		"my-task/tests/test_outputs.py": "def test_answer():\n    assert open('/app/answer.txt').read().strip() == '42'\n",
		".git/HEAD":                     "ref: refs/heads/main\n",
		// A Harbor test.sh runs as written: a failing command before the
		// reward is written does not abort it.
		"harbor-task/task.toml":         "[verifier]\ntimeout_sec = 30\n",
		"harbor-task/instruction.md":    "Write 42 to /app/answer.txt\n",
		"harbor-task/solution/solve.sh": "echo 42 > /app/answer.txt\n",
		"harbor-task/tests/test.sh":     "ls /nonexistent\nif grep -qx 42 /app/answer.txt; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n",
	}
	for name, body := range files {
		p := dir + "/" + name
		if err := os.MkdirAll(p[:strings.LastIndex(p, "/")], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(EnvTaskDirs, dir)
	r := registry(t)
	spec, err := r.Lookup("terminal:my-task")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := envtest.Play(envtest.Make(t, r, spec.ID, nil), 0, envtest.OraclePolicy, spec.MaxTurns)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Success() || tr.Return() != 1 {
		t.Fatalf("oracle on an outside task: %s", tr)
	}
	hb, _ := r.Lookup("terminal:harbor-task")
	tr, err = envtest.Play(envtest.Make(t, r, hb.ID, nil), 0, envtest.OraclePolicy, hb.MaxTurns)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Success() || tr.Return() != 1 {
		t.Fatalf("oracle on an outside Harbor task: %s", tr)
	}
	// Changing the folder changes the id's version.
	if err := os.WriteFile(dir+"/my-task/solution.sh", []byte("echo 42 > /app/answer.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := registry(t).Lookup(spec.ID); again.Version() == spec.Version() {
		t.Fatal("the version ignores the task folder's content")
	}
}

// BenchmarkCommand measures one command's round trip (a sandbox run of
// bash in the Debian root), and an episode's set-up plus tests.
// `go test -run '^$' -bench . ./envs/terminal`
func BenchmarkCommand(b *testing.B) {
	r := registry(b)
	b.Run("echo", func(b *testing.B) {
		e := envtest.MakeReset(b, r, "terminal:hello-file", 0)
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if _, err := e.Step(BashAction("echo hi", 0)); err != nil {
				b.Fatal(err)
			}
			if n++; n%25 == 0 { // before the turn limit
				if _, _, err := e.Reset(0); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("oracle_episode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := envtest.Play(envtest.Make(b, r, "terminal:csv-region-totals", nil), 0, envtest.OraclePolicy, 10); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// An env dropped mid-episode without Close (a session cache replacing it)
// still releases its workspace once it is garbage.
func TestDroppedEnvReleasesItsWorkspace(t *testing.T) {
	tasks, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	dir := func() string {
		e := New(tasks[0], DefaultOptions(), sandboxFunc(t))
		if _, _, err := e.Reset(0); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Step(BashAction("echo hi > /app/x", 0)); err != nil {
			t.Fatal(err)
		}
		return e.ws.Dir()
	}()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the live workspace is gone already: %v", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the dropped env's workspace was not released")
		}
		runtime.Gosched()
	}
}

// The reward is the weighted fraction of passing tests, for Quarry's test
// scripts and for Terminal-Bench's pytest functions alike.
func TestPartialCreditIsWeighted(t *testing.T) {
	r := registry(t)
	for _, c := range []struct {
		id, cmd string
		want    float64
		tests   map[string]bool
	}{
		// test_count weighs 0.25 of 1 in the task's test_weights.
		{"terminal:tb-reverse-lines", "echo 4 > /app/count.txt", 0.25, map[string]bool{"test_count": true, "test_reversed": false}},
		// header.py weighs 1, rows.py 3.
		{"terminal:csv-region-totals", "echo region,total > /app/totals.csv", 0.25, map[string]bool{"header": true, "rows": false}},
	} {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			e := envtest.MakeReset(t, r, c.id, 0)
			if _, err := e.Step(BashAction(c.cmd, 0)); err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(FinishAction("partly"))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := res.Info.Extra["tests"].(map[string]bool)
			if res.Reward != c.want || res.Info.Success || len(got) != len(c.tests) {
				t.Fatalf("reward %v success %v tests %v, want %v and %v", res.Reward, res.Info.Success, got, c.want, c.tests)
			}
			for k, v := range c.tests {
				if got[k] != v {
					t.Fatalf("tests %v, want %v", got, c.tests)
				}
			}
		})
	}
}

// The Act activity's timeout covers the slowest Step: setup, a command at
// its longest, and every test at its limit.
func TestStepBound(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "terminal:csv-region-totals", nil)
	// setup and a command at 120 s each, two test scripts at 60 s, 30 s overhead.
	if got, want := envs.StepBound(e), 2*120*time.Second+2*60*time.Second+30*time.Second; got != want {
		t.Fatalf("StepBound %v, want %v", got, want)
	}
	// Terminal-Bench's pytest functions run in one pytest.
	if got, want := envs.StepBound(envtest.Make(t, r, "terminal:tb-reverse-lines", nil)), 2*120*time.Second+60*time.Second+30*time.Second; got != want {
		t.Fatalf("StepBound %v, want %v", got, want)
	}
}

// terminal:all plays one task per episode: a row is a task (a job draws
// them without replacement), a seed draws one.
func TestMixDrawsTasks(t *testing.T) {
	r := registry(t)
	tasks, _ := Shipped()
	e := envtest.Make(t, r, MixID, nil)
	if n, err := envs.Rows(e); err != nil || n != len(tasks) {
		t.Fatalf("Rows = %d, %v; want %d", n, err, len(tasks))
	}
	for _, row := range []int{0, len(tasks) - 1} {
		_, info, err := envs.ResetTask(e, row, 0)
		if err != nil {
			t.Fatal(err)
		}
		if info.Extra["task"] != tasks[row].Name {
			t.Fatalf("row %d is task %v, want %s", row, info.Extra["task"], tasks[row].Name)
		}
	}
	seen := map[any]bool{}
	for seed := range uint64(20) {
		_, info, err := e.Reset(seed)
		if err != nil {
			t.Fatal(err)
		}
		seen[info.Extra["task"]] = true
	}
	if len(seen) < 5 {
		t.Fatalf("20 seeds drew %d tasks", len(seen))
	}
	if spec, _ := r.Lookup(MixID); envs.StepBound(e) < envs.StepBound(envtest.Make(t, r, "terminal:csv-region-totals", nil)) || spec.MaxTurns != DefaultMaxTurns {
		t.Fatalf("terminal:all bounds: step %v, turns %d", envs.StepBound(e), spec.MaxTurns)
	}
}

// No process outlives its command: a background job is reaped with it, and
// the episode leaves nothing running as the sandbox's uids.
func TestBackgroundProcessesAreReaped(t *testing.T) {
	r := registry(t)
	e := envtest.MakeReset(t, r, "terminal:hello-file", 0)
	start := time.Now()
	res, err := e.Step(BashAction("(sleep 100; echo late > /app/late) & echo started", 5))
	if err != nil {
		t.Fatal(err)
	}
	if res.Observation != "<bash_output>started\n</bash_output>" || time.Since(start) > 4*time.Second {
		t.Fatalf("background job: %q after %v", res.Observation, time.Since(start))
	}
	if res, err = e.Step(BashAction("ps -e -o comm= | grep -c sleep; ls /app", 0)); err != nil {
		t.Fatal(err)
	}
	if res.Observation != "<bash_output>0\n</bash_output>" {
		t.Fatalf("the background job survived its command: %q", res.Observation)
	}
	if _, err := e.Step(FinishAction("done")); err != nil {
		t.Fatal(err)
	}
	if n, err := shared.Get(t).ProcessCount(); err != nil || n != 0 {
		t.Fatalf("%d processes left as the sandbox's uids (%v)", n, err)
	}
}
