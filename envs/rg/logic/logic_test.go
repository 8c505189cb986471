package logic

import (
	"math"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{
		Ceilings: map[string]float64{
			"rg:syllogism":     0.6, // Yes or No
			"rg:circuit_logic": 0.6, // 0 or 1
			// reasoning-gym gives 0.3 + 0.7·k/n for k of n roles right: a
			// random assignment of two people averages 0.575.
			"rg:knights_knaves": 0.7,
		},
	})
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }

type scoreCase struct {
	answer string
	want   float64
}

// checkScores grades each answer against it with score.
func checkScores(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []scoreCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

// item generates the task's item for seed with options o.
func item[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

// TestRegister: every task is registered, with a retry variant exactly
// where documented.
func TestRegister(t *testing.T) {
	r := registry(t)
	retry := map[string]bool{"propositional_logic": true}
	names := []string{"syllogism", "propositional_logic", "aiw", "circuit_logic", "knights_knaves", "self_reference", "zebra_puzzles"}
	for _, name := range names {
		if _, err := r.Lookup(rg.ID(name)); err != nil {
			t.Error(err)
		}
		_, err := r.Lookup(rg.ID(name) + rg.RetrySuffix)
		if (err == nil) != retry[name] {
			t.Errorf("%s: retry variant registered %v, want %v", name, err == nil, retry[name])
		}
	}
	if n := len(r.IDs()); n != len(names)+len(retry) {
		t.Errorf("%d ids registered, want %d", n, len(names)+len(retry))
	}
}
