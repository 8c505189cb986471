package terminal

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// Task is one terminal task, read from a folder by LoadTask.
type Task struct {
	// Name is the folder's name; the env id is "terminal:" + Name.
	Name string
	// Format is the layout it was read from: FormatQuarry,
	// FormatTerminalBench or FormatHarbor.
	Format string
	// Instruction is the task as the agent is told it.
	Instruction string
	// Setup runs (bash, as the agent, in /app) before the agent's first
	// command; empty for none.
	Setup string
	// Solution is the oracle's script: its blank-line-separated blocks are
	// the oracle's commands. Empty when the task ships none.
	Solution string
	// Tests score the episode; their weights need not sum to 1.
	Tests []Test
	// Files are the tests' files by path relative to tests/, written to
	// /tests only when the tests run.
	Files map[string][]byte
	// Limits of an episode.
	MaxTurns       int           // steps before truncation
	MaxFailures    int           // failing commands that end the episode (GEM's max_retry)
	CommandTimeout time.Duration // a command's default timeout_secs
	MaxTimeout     time.Duration // the largest timeout_secs a command may ask for
	TestTimeout    time.Duration // all tests together
}

// Test is one scored check.
type Test struct {
	// Name identifies it in Info and, for pytest, is the test function.
	Name string
	// Kind is how it runs: KindScript (a file of tests/ run by bash or
	// python3; passed when it exits 0), KindPytest (a pytest file; each
	// test function is a Test of this kind, scored from one pytest run),
	// KindHarbor (tests/test.sh writes the reward to
	// /logs/verifier/reward.txt or reward.json).
	Kind   string
	File   string // the file under tests/
	Weight float64
}

// Task folder formats.
const (
	FormatQuarry        = "quarry"
	FormatTerminalBench = "terminal-bench"
	FormatHarbor        = "harbor"
)

// Test kinds.
const (
	KindScript = "script"
	KindPytest = "pytest"
	KindHarbor = "harbor"
)

// Defaults of a task's limits (GEM's DockerEnv: 30 s commands, 5 failing
// commands).
const (
	DefaultMaxTurns       = 30
	DefaultMaxFailures    = 5
	DefaultCommandTimeout = 30 * time.Second
	DefaultMaxTimeout     = 120 * time.Second
	DefaultTestTimeout    = 60 * time.Second
)

// Caps on what a task folder may ask for, so no task holds a worker long.
const (
	capMaxTurns = 200
	capTimeout  = 10 * time.Minute
)

// quarryYAML is task.yaml in Quarry's layout; Terminal-Bench's task.yaml is
// read into the same struct (its keys are a subset, plus the max_*_sec ones).
type quarryYAML struct {
	Instruction    string             `yaml:"instruction"`
	MaxTurns       int                `yaml:"max_turns"`
	MaxFailures    int                `yaml:"max_failures"`
	TimeoutSecs    float64            `yaml:"timeout_secs"`
	MaxTimeoutSecs float64            `yaml:"max_timeout_secs"`
	TestTimeout    float64            `yaml:"test_timeout_secs"`
	Tests          []testYAML         `yaml:"tests"`
	TestWeights    map[string]float64 `yaml:"test_weights"`
	// Terminal-Bench's keys.
	MaxAgentTimeoutSec float64 `yaml:"max_agent_timeout_sec"`
	MaxTestTimeoutSec  float64 `yaml:"max_test_timeout_sec"`
}

type testYAML struct {
	Name   string  `yaml:"name"`
	File   string  `yaml:"file"`
	Weight float64 `yaml:"weight"`
}

// LoadTask reads the task folder dir of fsys in whichever layout it has
// (docs/envs.md, "Terminal"):
//   - Quarry: task.yaml with a tests: list (scripts and weights),
//     instruction.md or task.yaml's instruction, setup.sh, solution.sh, tests/.
//   - Terminal-Bench: task.yaml with instruction (no tests: list),
//     tests/test_*.py run by pytest, weights from test_weights (task.yaml,
//     or test_weights.json beside it as GEM reads it, or in tests/),
//     solution.sh.
//   - Harbor: task.toml, instruction.md, tests/test.sh writing
//     /logs/verifier/reward.txt, solution/solve.sh.
//
// Docker files (Dockerfile, docker-compose.yaml, environment/) are not
// built: the task runs in the project's Debian root; setup.sh stands in for
// what a Dockerfile would RUN.
func LoadTask(fsys fs.FS, dir string) (*Task, error) {
	t := &Task{Name: path.Base(dir), Files: map[string][]byte{}}
	read := func(name string) (string, bool, error) {
		b, err := fs.ReadFile(fsys, path.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		return string(b), err == nil, err
	}
	if err := readTests(fsys, path.Join(dir, "tests"), t.Files); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, err)
	}
	var err error
	if toml, ok, rerr := read("task.toml"); rerr != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, rerr)
	} else if ok {
		err = t.loadHarbor(toml, read)
	} else if y, ok, rerr := read("task.yaml"); rerr != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, rerr)
	} else if ok {
		err = t.loadYAML(y, read)
	} else {
		err = errors.New("no task.yaml or task.toml")
	}
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, err)
	}
	if err := t.check(); err != nil {
		return nil, fmt.Errorf("task %s: %w", t.Name, err)
	}
	return t, nil
}

// readTests reads every file under dir into files (paths relative to dir).
func readTests(fsys fs.FS, dir string, files map[string][]byte) error {
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[strings.TrimPrefix(p, dir+"/")] = b
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (t *Task) loadYAML(src string, read func(string) (string, bool, error)) error {
	var y quarryYAML
	if err := yaml.Unmarshal([]byte(src), &y); err != nil {
		return fmt.Errorf("task.yaml: %w", err)
	}
	t.Instruction = y.Instruction
	if md, ok, err := read("instruction.md"); err != nil {
		return err
	} else if ok && strings.TrimSpace(t.Instruction) == "" {
		t.Instruction = md
	}
	t.MaxTurns, t.MaxFailures = y.MaxTurns, y.MaxFailures
	t.CommandTimeout = seconds(y.TimeoutSecs)
	t.MaxTimeout = seconds(y.MaxTimeoutSecs)
	t.TestTimeout = seconds(y.TestTimeout)
	if t.TestTimeout == 0 {
		t.TestTimeout = seconds(y.MaxTestTimeoutSec)
	}
	var err error
	if t.Setup, _, err = read("setup.sh"); err != nil {
		return err
	}
	if t.Solution, _, err = read("solution.sh"); err != nil {
		return err
	}
	if len(y.Tests) > 0 {
		t.Format = FormatQuarry
		for _, ty := range y.Tests {
			w := ty.Weight
			if w == 0 {
				w = 1
			}
			name := ty.Name
			if name == "" {
				name = strings.TrimSuffix(ty.File, path.Ext(ty.File))
			}
			t.Tests = append(t.Tests, Test{Name: name, Kind: KindScript, File: ty.File, Weight: w})
		}
		return nil
	}
	t.Format = FormatTerminalBench
	// GEM reads test_weights.json beside task.yaml; tests/ is accepted too.
	weights := y.TestWeights
	for _, name := range []string{"test_weights.json", "tests/test_weights.json"} {
		if weights != nil {
			break
		}
		src, ok, err := read(name)
		if err != nil {
			return err
		}
		if ok {
			if err := json.Unmarshal([]byte(src), &weights); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return t.pytestTests(weights)
}

// pytestFunc finds pytest test functions at the top level of a file.
var pytestFunc = regexp.MustCompile(`(?m)^def (test_\w+)\s*\(`)

// pytestTests makes one Test per test function of the tests/test_*.py
// files, weighted by weights (equal weights when nil; a function missing
// from a non-nil map weighs 0, as GEM's weighted score ignores it).
func (t *Task) pytestTests(weights map[string]float64) error {
	var files []string
	for f := range t.Files {
		if !strings.Contains(f, "/") && strings.HasPrefix(f, "test_") && strings.HasSuffix(f, ".py") {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	for _, f := range files {
		for _, m := range pytestFunc.FindAllStringSubmatch(string(t.Files[f]), -1) {
			w := 1.0
			if weights != nil {
				w = weights[m[1]]
			}
			t.Tests = append(t.Tests, Test{Name: m[1], Kind: KindPytest, File: f, Weight: w})
		}
	}
	if len(t.Tests) == 0 {
		return errors.New("no tests: want a tests: list in task.yaml or tests/test_*.py with test functions")
	}
	return nil
}

func (t *Task) loadHarbor(toml string, read func(string) (string, bool, error)) error {
	t.Format = FormatHarbor
	kv, err := parseTOML(toml)
	if err != nil {
		return fmt.Errorf("task.toml: %w", err)
	}
	t.TestTimeout = seconds(kv.num("verifier.timeout_sec"))
	t.MaxTurns = int(kv.num("quarry.max_turns"))
	t.MaxFailures = int(kv.num("quarry.max_failures"))
	if t.Instruction, _, err = read("instruction.md"); err != nil {
		return err
	}
	if t.Setup, _, err = read("setup.sh"); err != nil {
		return err
	}
	if t.Solution, _, err = read("solution/solve.sh"); err != nil {
		return err
	}
	if _, ok := t.Files["test.sh"]; !ok {
		return errors.New("harbor task without tests/test.sh")
	}
	t.Tests = []Test{{Name: "reward", Kind: KindHarbor, File: "test.sh", Weight: 1}}
	return nil
}

func (t *Task) check() error {
	if strings.TrimSpace(t.Instruction) == "" {
		return errors.New("no instruction")
	}
	setDefault := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
		*v = min(*v, capTimeout)
	}
	if t.MaxTurns <= 0 {
		t.MaxTurns = DefaultMaxTurns
	}
	t.MaxTurns = min(t.MaxTurns, capMaxTurns)
	if t.MaxFailures <= 0 {
		t.MaxFailures = DefaultMaxFailures
	}
	setDefault(&t.CommandTimeout, DefaultCommandTimeout)
	setDefault(&t.MaxTimeout, DefaultMaxTimeout)
	setDefault(&t.TestTimeout, DefaultTestTimeout)
	t.MaxTimeout = max(t.MaxTimeout, t.CommandTimeout)
	total := 0.0
	for _, x := range t.Tests {
		if x.Weight < 0 || math.IsNaN(x.Weight) || math.IsInf(x.Weight, 0) {
			return fmt.Errorf("test %s: weight %v, want a finite number ≥ 0", x.Name, x.Weight)
		}
		if _, ok := t.Files[x.File]; !ok {
			return fmt.Errorf("test %s: no file tests/%s", x.Name, x.File)
		}
		total += x.Weight
	}
	if total <= 0 {
		return errors.New("the tests' weights sum to 0")
	}
	return nil
}

func seconds(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) || s > capTimeout.Seconds() {
		if s > capTimeout.Seconds() {
			return capTimeout
		}
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// tomlValues are a TOML file's scalar values by dotted key ("verifier.timeout_sec").
type tomlValues map[string]string

func (kv tomlValues) num(key string) float64 {
	f, err := strconv.ParseFloat(kv[key], 64)
	if err != nil {
		return 0
	}
	return f
}

// parseTOML reads the part of TOML Harbor's task.toml uses for what Quarry
// needs: [section] headers and key = scalar lines. Arrays, inline tables and
// multi-line strings are skipped (metadata Quarry does not read).
func parseTOML(src string) (tomlValues, error) {
	kv := tomlValues{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(nil, 1<<20)
	inMulti := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if inMulti {
			if strings.Contains(line, `"""`) || strings.Contains(line, `'''`) {
				inMulti = false
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue // the continuation of a multi-line array
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, `'''`) {
			inMulti = strings.Count(v, v[:3]) < 2
			continue
		}
		if i := strings.Index(v, " #"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		v = strings.Trim(v, `"'`)
		if section != "" {
			k = section + "." + k
		}
		kv[k] = v
	}
	return kv, sc.Err()
}
