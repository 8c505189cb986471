package composite

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/arithmetic"
	"github.com/quarry-rl/quarry/envs/rg/cognition"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(t testing.TB) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	for _, reg := range []func(*envs.Registry) error{arithmetic.Register, cognition.Register, Register} {
		if err := reg(r); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// The mix passes the rg suite (oracle 1, random near 0, seeded, distinct)
// like any task (its tasks are their packages' to test).
func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{Only: []string{"rg:composite"}})
}

// The default mixes every single-question task registered before it, with
// equal weights; episodes draw them all, each scored by its task.
func TestDefaultMixesEveryTask(t *testing.T) {
	r := registry(t)
	s, err := r.Lookup("rg:composite")
	if err != nil {
		t.Fatal(err)
	}
	def := s.Defaults()["datasets"].([]any)
	var want []string
	for _, id := range r.IDs() {
		name, _ := strings.CutPrefix(id, "rg:")
		if strings.HasPrefix(id, "rg:") && !strings.HasSuffix(id, "-retry") && name != Name {
			want = append(want, name)
		}
	}
	if len(def) != len(want) {
		t.Fatalf("default mixes %d tasks, want %d", len(def), len(want))
	}
	seen := map[string]int{}
	for seed := range uint64(2000) {
		e, it := rgtest.Reset(t, r, "rg:composite", nil, seed)
		_, info, err := e.Reset(seed)
		if err != nil {
			t.Fatal(err)
		}
		name := info.Extra["source_dataset"].(string)
		seen[name]++
		// The same item as the task itself gives for the seed.
		_, direct := rgtest.Reset(t, r, "rg:"+name, nil, seed)
		if direct.Item().Question != it.Item().Question {
			t.Fatalf("seed %d: composite's %s item differs from rg:%s's", seed, name, name)
		}
	}
	for _, n := range want {
		if seen[n] == 0 {
			t.Errorf("2000 episodes never drew %s", n)
		}
	}
}

// Weights and per-task options are the entry's; a zero-weight-free mix of
// two tasks draws by weight.
func TestWeightsAndConfig(t *testing.T) {
	r := registry(t)
	opts := map[string]any{"datasets": []any{
		map[string]any{"name": "gcd", "weight": 3, "config": map[string]any{"min_value": 5, "max_value": 9}},
		map[string]any{"name": "lcm", "weight": 1},
	}}
	counts := map[string]int{}
	for seed := range uint64(4000) {
		e := envtest.Make(t, r, "rg:composite", opts)
		_, info, err := e.Reset(seed)
		if err != nil {
			t.Fatal(err)
		}
		counts[info.Extra["source_dataset"].(string)]++
	}
	if f := float64(counts["gcd"]) / 4000; f < 0.72 || f > 0.78 {
		t.Fatalf("gcd drawn %.3f of the time, want 0.75 (weights 3:1): %v", f, counts)
	}
}

// Bad entries are refused naming the entry and what is wrong.
func TestBadEntriesRefused(t *testing.T) {
	r := registry(t)
	for _, c := range []struct {
		entries []any
		want    string
	}{
		{[]any{map[string]any{"name": "nosuch", "weight": 1}}, "datasets[0].name"},
		{[]any{map[string]any{"name": "gcd", "weight": 0}}, "datasets[0].weight"},
		{[]any{map[string]any{"name": "gcd", "weight": 1}, map[string]any{"name": "gcd", "weight": 2}}, "datasets[1].name: \"gcd\" appears twice"},
		{[]any{map[string]any{"name": "gcd-retry", "weight": 1}}, "not a single-question"},
		{[]any{map[string]any{"name": "composite", "weight": 1}}, "not a single-question"},
		{[]any{map[string]any{"name": "gcd", "weight": 1, "config": map[string]any{"min_value": -5}}}, "datasets[0].config.min_value (rg:gcd)"},
		{[]any{map[string]any{"name": "gcd", "weight": 1, "config": map[string]any{"bogus": 1}}}, "datasets[0].config.bogus (rg:gcd)"},
		{[]any{map[string]any{"name": "gcd", "weigth": 1}}, "weigth"},
		{[]any{}, "1 to 128 entries"},
	} {
		_, err := r.Make("rg:composite", map[string]any{"datasets": c.entries})
		var oe *envs.OptionError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "rg:composite") {
			t.Errorf("%v: got %v, want an option error naming %q", c.entries, err, c.want)
		}
	}
}
