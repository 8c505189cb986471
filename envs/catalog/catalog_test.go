package catalog

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/internal/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/versions.json")

// testSandbox runs the code envs' programs; its uids are this package's
// (other packages' tests run sandboxes at the same time).
var testSandbox = sandbox.Lazy(sandbox.Options{UIDBase: 68000, Slots: 2})

// registry is the catalog with the dataset ids over their shipped samples,
// so every id runs offline.
func registry(tb testing.TB) *envs.Registry {
	tb.Helper()
	r, err := New(WithSamples(), WithSandbox(testSandbox))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// terminalSample is the one terminal id the catalog's suites play in full:
// each terminal episode runs sandboxed commands (tenths of a second each),
// and envs/terminal's own tests play every task (conformance on several,
// oracle and random policies on all).
const terminalSample = "terminal:hello-file"

// played reports whether the catalog's per-id suites play id.
func played(s envs.Spec) bool { return s.Category() != "terminal" || s.ID == terminalSample }

func TestConformance(t *testing.T) {
	r := registry(t)
	for _, s := range r.Specs() {
		if !played(s) {
			continue
		}
		id := s.ID
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			envtest.Run(t, r, id)
		})
	}
}

// Every game and procedural task ships an oracle: it is how tests prove each
// variant winnable and how expert (SFT) data is made.
func TestOraclesExist(t *testing.T) {
	r := registry(t)
	for _, s := range r.Specs() {
		if s.Category() != "game" && s.Category() != "rg" {
			continue
		}
		e, err := r.Make(s.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := envs.AsOracle(e); !ok {
			t.Errorf("%s has no oracle", s.ID)
		}
	}
}

// fingerprint hashes what an id does: random and oracle play over a few seeds.
// A change of rules changes it.
func fingerprint(t *testing.T, r *envs.Registry, id string) string {
	spec, _ := r.Lookup(id)
	seeds := uint64(4)
	if spec.Category() == "terminal" {
		seeds = 1 // sandboxed commands: one random and one oracle episode
	}
	var parts []string
	for seed := range seeds {
		e, _ := r.Make(id, nil)
		tr, err := envtest.Play(e, seed, envtest.RandomPolicy(seed), spec.MaxTurns)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, tr.Hash())
		if _, ok := envs.AsOracle(e); ok {
			tr, err := envtest.Play(e, seed, envtest.OraclePolicy, spec.MaxTurns)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, tr.Hash())
		}
	}
	return envs.Digest([]byte(strings.Join(parts, ",")))
}

type golden struct {
	Version     string         `json:"version"`
	Fingerprint string         `json:"fingerprint"`
	MaxTurns    int            `json:"max_turns"`
	Defaults    map[string]any `json:"defaults"`
}

// TestVersionsGolden guards env versions: when an env's behaviour changes its
// Revision must change too, so datasets never mix rule sets under one version.
// After a deliberate change, bump Revision and run `go test ./envs/catalog -run Golden -update`.
func TestVersionsGolden(t *testing.T) {
	// Versions and defaults as shipped (dataset ids read GEM's data); the
	// behaviour fingerprint over the samples.
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	played := registry(t)
	path := filepath.Join("testdata", "versions.json")
	got := map[string]golden{}
	for _, s := range r.Specs() {
		got[s.ID] = golden{Version: s.Version(), Fingerprint: fingerprint(t, played, s.ID), MaxTurns: s.MaxTurns, Defaults: s.Defaults()}
	}
	if *update {
		b, _ := json.MarshalIndent(got, "", "  ")
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	want := map[string]golden{}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for id, g := range got {
		w, ok := want[id]
		switch {
		case !ok:
			t.Errorf("%s is new: run `go test ./envs/catalog -run Golden -update` and commit testdata/versions.json", id)
		case g.Fingerprint != w.Fingerprint && g.Version == w.Version:
			t.Errorf("%s behaves differently from its recorded version %s: bump its Revision, then -update", id, w.Version)
		case g.Version != w.Version:
			t.Errorf("%s version %s, recorded %s: if intended, run -update and commit", id, g.Version, w.Version)
		}
	}
	for id := range want {
		if _, ok := got[id]; !ok {
			t.Errorf("%s was removed from the catalog; run -update if intended", id)
		}
	}
}

// FuzzStep feeds arbitrary actions to every env: no Go error, rewards in
// bounds, and repeating any action still ends the episode within MaxTurns.
// Of the terminal ids it plays terminalSample only (a sandbox run per
// command; envs/terminal fuzzes their action parser on its own).
func FuzzStep(f *testing.F) {
	r := registry(f)
	var specs []envs.Spec
	for _, s := range r.Specs() {
		if played(s) {
			specs = append(specs, s)
		}
	}
	for _, s := range specs {
		e, _ := r.Make(s.ID, nil)
		e.Reset(0)
		f.Add(uint64(0), e.SampleRandomAction(envs.NewRand(1)))
	}
	for _, g := range envtest.Garbage {
		f.Add(uint64(1), g)
	}
	f.Add(uint64(2), `\boxed{\boxed{1}} \boxed{A C} \boxed{1 2 3 4} \boxed{up}`)
	f.Fuzz(func(t *testing.T, seed uint64, action string) {
		for _, s := range specs {
			e, err := r.Make(s.ID, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := e.Reset(seed); err != nil {
				t.Fatal(err)
			}
			for n := 1; ; n++ {
				res, err := e.Step(action)
				if err != nil {
					t.Fatalf("%s: action %q: Go error %v", s.ID, action, err)
				}
				if res.Reward < s.RewardMin || res.Reward > s.RewardMax {
					t.Fatalf("%s: action %q: reward %v outside [%v, %v]", s.ID, action, res.Reward, s.RewardMin, s.RewardMax)
				}
				if res.Done() {
					break
				}
				if n >= s.MaxTurns {
					t.Fatalf("%s: action %q repeated %d times without the episode ending", s.ID, action, n)
				}
			}
		}
	})
}

// BenchmarkStep measures env steps/s under the random policy for every id,
// episode generation included (see envtest.BenchmarkSteps).
// `go test -run '^$' -bench Step ./envs/catalog`
func BenchmarkStep(b *testing.B) { envtest.BenchmarkSteps(b, registry(b)) }
