// Package envtest is the conformance suite every registered env passes:
// determinism, the episode protocol, well-formed random actions, reward
// bounds, termination within the declared turn limit and oracle play. New
// envs get it for free by being in the catalog (Gymnasium's check_env, made a
// test suite).
//
// It also holds what the env packages' own tests share: rule tables (Want,
// Table, Expect), oracle play over many seeds (OracleEpisodes, OracleWins),
// option-error tables (OptionErrors, OptionsAccepted), registry and instance
// helpers (Registry, Make, MakeReset, RunAll) and step benchmarks
// (BenchmarkSteps, BenchmarkStepsOnly, BenchmarkReplay).
package envtest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// Seeds the suite plays; small enough for every id in CI.
const Seeds = 20

// Garbage are actions no env can parse.
var Garbage = []string{"", "I give up.", `\boxed{`, "}}}{{{", "\x00\xff"}

// Run checks one registered id.
func Run(t *testing.T, r *envs.Registry, id string) {
	t.Helper()
	spec, err := r.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("protocol", func(t *testing.T) { checkProtocol(t, r, spec) })
	t.Run("determinism", func(t *testing.T) { checkDeterminism(t, r, spec) })
	t.Run("random_rollouts", func(t *testing.T) { checkRandom(t, r, spec) })
	t.Run("garbage", func(t *testing.T) { checkGarbage(t, r, spec) })
	t.Run("oracle", func(t *testing.T) { checkOracle(t, r, spec) })
	t.Run("version", func(t *testing.T) {
		if spec.Version() != spec.Version() || spec.Version() == "" {
			t.Fatal("version is not stable")
		}
	})
}

func checkProtocol(t *testing.T, r *envs.Registry, spec envs.Spec) {
	e := Make(t, r, spec.ID, nil)
	if _, err := e.Step("x"); !errors.Is(err, envs.ErrNotReset) {
		t.Fatalf("Step before Reset: err = %v, want ErrNotReset", err)
	}
	tr, err := Play(e, 1, RandomPolicy(1), spec.MaxTurns+1)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Done {
		t.Fatalf("random episode not over after %d steps (MaxTurns %d)", len(tr.Steps), spec.MaxTurns)
	}
	if _, err := e.Step(e.SampleRandomAction(envs.NewRand(0))); !errors.Is(err, envs.ErrEpisodeOver) {
		t.Fatalf("Step after the end: err = %v, want ErrEpisodeOver", err)
	}
	// A reset after a finished episode starts cleanly and replays it exactly.
	again, err := Play(e, 1, RandomPolicy(1), spec.MaxTurns+1)
	if err != nil {
		t.Fatal(err)
	}
	if again.Hash() != tr.Hash() {
		t.Fatal("the same seed and actions replayed on a reused instance gave a different episode: state leaks across Reset")
	}
}

func checkDeterminism(t *testing.T, r *envs.Registry, spec envs.Spec) {
	distinct := map[string]bool{}
	for seed := range uint64(Seeds) {
		a, err := Play(Make(t, r, spec.ID, nil), seed, RandomPolicy(seed), spec.MaxTurns+1)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Play(Make(t, r, spec.ID, nil), seed, RandomPolicy(seed), spec.MaxTurns+1)
		if err != nil {
			t.Fatal(err)
		}
		if a.Hash() != b.Hash() {
			t.Fatalf("seed %d: two instances played the same actions differently:\n%s\n---\n%s", seed, a, b)
		}
		distinct[a.Hash()] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("%d seeds gave one identical episode: the env ignores its seed", Seeds)
	}
}

func checkRandom(t *testing.T, r *envs.Registry, spec envs.Spec) {
	for seed := range uint64(Seeds) {
		tr, err := Play(Make(t, r, spec.ID, nil), seed, RandomPolicy(seed+1000), spec.MaxTurns+1)
		if err != nil {
			t.Fatal(err)
		}
		if !tr.Done {
			t.Fatalf("seed %d: not over after MaxTurns=%d steps", seed, spec.MaxTurns)
		}
		for i, s := range tr.Steps {
			if s.Info.FormatError {
				t.Fatalf("seed %d step %d: random action %q was rejected as unparseable", seed, i, s.Action)
			}
		}
		checkBounds(t, spec, tr)
	}
}

func checkGarbage(t *testing.T, r *envs.Registry, spec envs.Spec) {
	for i, g := range Garbage {
		e := Make(t, r, spec.ID, nil)
		if _, _, err := e.Reset(uint64(i)); err != nil {
			t.Fatal(err)
		}
		res, err := e.Step(g)
		if err != nil {
			t.Fatalf("garbage action %q returned a Go error (want an observation and a penalty): %v", g, err)
		}
		// A free-text env (a chat with a simulated customer) takes any
		// non-empty text as a message; only the empty action is malformed.
		if !res.Info.FormatError && (g == "" || !envs.IsFreeText(e)) {
			t.Fatalf("garbage action %q not flagged as a format error", g)
		}
		if res.Reward < spec.RewardMin || res.Reward > spec.RewardMax {
			t.Fatalf("garbage reward %v outside [%v, %v]", res.Reward, spec.RewardMin, spec.RewardMax)
		}
		if res.Observation == "" {
			t.Fatalf("garbage action %q: empty observation; the agent must be told", g)
		}
	}
}

func checkOracle(t *testing.T, r *envs.Registry, spec envs.Spec) {
	if _, ok := envs.AsOracle(Make(t, r, spec.ID, nil)); !ok {
		t.Log("no oracle for this env") // the catalog requires one for every game
		return
	}
	for seed := range uint64(Seeds) {
		tr, err := Play(Make(t, r, spec.ID, nil), seed, OraclePolicy, spec.MaxTurns+1)
		if err != nil {
			t.Fatal(err)
		}
		if !tr.Done {
			t.Fatalf("seed %d: oracle episode not over after MaxTurns", seed)
		}
		for i, s := range tr.Steps {
			if s.Info.FormatError {
				t.Fatalf("seed %d step %d: oracle action %q unparseable", seed, i, s.Action)
			}
		}
		checkBounds(t, spec, tr)
	}
}

func checkBounds(t *testing.T, spec envs.Spec, tr Transcript) {
	t.Helper()
	if len(tr.Steps) > spec.MaxTurns {
		t.Fatalf("episode took %d steps, MaxTurns is %d", len(tr.Steps), spec.MaxTurns)
	}
	for i, s := range tr.Steps {
		if s.Reward < spec.RewardMin || s.Reward > spec.RewardMax {
			t.Fatalf("step %d reward %v outside [%v, %v]", i, s.Reward, spec.RewardMin, spec.RewardMax)
		}
	}
}

// Policy picks the next action for e.
type Policy func(e envs.Env) (string, error)

// RandomPolicy samples the env's random actions from its own generator.
func RandomPolicy(seed uint64) Policy {
	rng := envs.NewRand(seed)
	return func(e envs.Env) (string, error) { return e.SampleRandomAction(rng), nil }
}

// OraclePolicy asks the env's oracle.
func OraclePolicy(e envs.Env) (string, error) {
	o, ok := envs.AsOracle(e)
	if !ok {
		return "", fmt.Errorf("env has no oracle")
	}
	return o.OracleAction()
}

// Step is one recorded step of a transcript.
type Step struct {
	Action string
	envs.StepResult
}

// Transcript is a played episode.
type Transcript struct {
	Seed      uint64
	FirstObs  string
	FirstInfo envs.Info
	Steps     []Step
	Done      bool
}

// Return is the undiscounted sum of rewards.
func (t Transcript) Return() float64 {
	var g float64
	for _, s := range t.Steps {
		g += s.Reward
	}
	return g
}

// Success reports whether the last step solved the task.
func (t Transcript) Success() bool {
	return len(t.Steps) > 0 && t.Steps[len(t.Steps)-1].Info.Success
}

// Hash fingerprints everything observable about the episode.
func (t Transcript) Hash() string {
	b, _ := json.Marshal(t)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (t Transcript) String() string {
	b, _ := json.MarshalIndent(t, "", "  ")
	return string(b)
}

// Play resets e with seed and steps it with p until the episode ends or
// limit steps have been taken.
func Play(e envs.Env, seed uint64, p Policy, limit int) (Transcript, error) {
	obs, info, err := e.Reset(seed)
	if err != nil {
		return Transcript{}, fmt.Errorf("reset %d: %w", seed, err)
	}
	tr := Transcript{Seed: seed, FirstObs: obs, FirstInfo: info}
	for len(tr.Steps) < limit {
		a, err := p(e)
		if err != nil {
			return tr, fmt.Errorf("seed %d step %d: policy: %w", seed, len(tr.Steps), err)
		}
		res, err := e.Step(a)
		if err != nil {
			return tr, fmt.Errorf("seed %d step %d: %w", seed, len(tr.Steps), err)
		}
		tr.Steps = append(tr.Steps, Step{Action: a, StepResult: res})
		if res.Done() {
			tr.Done = true
			break
		}
	}
	return tr, nil
}
