package envs_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// counter is a minimal env for registry tests: it ends after Limit steps.
type counter struct {
	opts counterOpts
	n    int
}

type counterOpts struct {
	Limit int     `json:"limit" range:"0,100"`
	Scale float64 `json:"scale" range:"-10,10"`
	Name  *string `json:"name" len:"0,64"`
}

func (o counterOpts) Validate() error {
	if o.Limit < 1 {
		return &envs.OptionError{Option: "limit", Reason: "must be at least 1"}
	}
	return nil
}

func (c *counter) Reset(uint64) (string, envs.Info, error) { c.n = 0; return "start", envs.Info{}, nil }
func (c *counter) Step(string) (envs.StepResult, error) {
	c.n++
	return envs.StepResult{Observation: "tick", Reward: c.opts.Scale, Terminated: c.n >= c.opts.Limit}, nil
}
func (c *counter) SampleRandomAction(*rand.Rand) string { return "x" }

var registered = "registered"

func counterSpec(id string) envs.Spec {
	return envs.Spec{
		ID: id, Description: "counts", MaxTurns: 3, RewardMax: 1, Revision: 1,
		Build: envs.Options(counterOpts{Limit: 3, Scale: 1, Name: &registered}, func(o counterOpts) (envs.Env, error) { return &counter{opts: o}, nil }),
	}
}

func newRegistry(t *testing.T) *envs.Registry {
	t.Helper()
	r := envs.NewRegistry()
	for _, id := range []string{"game:Counter-v0-easy", "game:Counter-v0-hard", "math:Other"} {
		if err := r.Register(counterSpec(id)); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestRegisterRejects(t *testing.T) {
	r := newRegistry(t)
	bad := map[string]envs.Spec{
		"duplicate":      counterSpec("game:Counter-v0-easy"),
		"malformed id":   counterSpec("Counter"),
		"no build":       {ID: "game:X", Description: "d", MaxTurns: 1},
		"no turns":       {ID: "game:Y", Description: "d", Build: counterSpec("game:Y").Build},
		"no description": {ID: "game:Z", MaxTurns: 1, Build: counterSpec("game:Z").Build},
		"bad bounds":     {ID: "game:W", Description: "d", MaxTurns: 1, RewardMin: 1, RewardMax: 0, Build: counterSpec("game:W").Build},
	}
	for name, s := range bad {
		if err := r.Register(s); err == nil {
			t.Errorf("%s: Register accepted %q", name, s.ID)
		}
	}
	if err := r.Alias("game:Counter-v0", "game:Missing"); err == nil {
		t.Error("alias to a missing target accepted")
	}
	if err := r.Alias("game:Counter-v0-hard", "game:Counter-v0-easy"); err == nil {
		t.Error("alias shadowing a registered id accepted")
	}
}

func TestAlias(t *testing.T) {
	r := newRegistry(t)
	if err := r.Alias("game:Counter-v0", "game:Counter-v0-hard"); err != nil {
		t.Fatal(err)
	}
	s, err := r.Lookup("game:Counter-v0")
	if err != nil || s.ID != "game:Counter-v0-hard" {
		t.Fatalf("Lookup(alias) = %q, %v", s.ID, err)
	}
	if got := r.IDs(); len(got) != 3 {
		t.Fatalf("IDs() lists aliases: %v", got)
	}
}

func TestUnknownIDSuggests(t *testing.T) {
	r := newRegistry(t)
	for _, tt := range []struct{ id, want string }{
		{"game:Countr-v0-easy", "game:Counter-v0-easy"},
		{"game:counter", "game:Counter-v0-easy"},
		{"Counter-v0-hard", "game:Counter-v0-hard"},
		{"game:Countre", "game:Counter-v0-easy"},
	} {
		_, err := r.Make(tt.id, nil)
		var ue *envs.UnknownIDError
		if !errors.As(err, &ue) {
			t.Fatalf("Make(%q) err = %v, want *UnknownIDError", tt.id, err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Make(%q): %q does not suggest %q", tt.id, err, tt.want)
		}
	}
	_, err := r.Make("qa:Nothing-like-it-at-all", nil)
	if err == nil || !strings.Contains(err.Error(), "quarry envs") {
		t.Errorf("no-suggestion error should point at the listing: %v", err)
	}
}

func TestOptionsStrict(t *testing.T) {
	r := newRegistry(t)
	tests := []struct {
		opts   map[string]any
		option string
		reason string
	}{
		{map[string]any{"limt": 2}, "limt", "known options: limit, name, scale"},
		{map[string]any{"limit": "two"}, "limit", "want an integer"},
		{map[string]any{"limit": 2.5}, "limit", "want an integer"},
		{map[string]any{"scale": true}, "scale", "want a number"},
		{map[string]any{"limit": 0}, "limit", "at least 1"},
	}
	for _, tt := range tests {
		_, err := r.Make("game:Counter-v0-easy", tt.opts)
		var oe *envs.OptionError
		if !errors.As(err, &oe) {
			t.Fatalf("Make(%v) err = %v, want *OptionError", tt.opts, err)
		}
		if oe.Option != tt.option || oe.Env != "game:Counter-v0-easy" || !strings.Contains(oe.Reason, tt.reason) {
			t.Errorf("Make(%v) = %+v; want option %q reason containing %q", tt.opts, oe, tt.option, tt.reason)
		}
	}
	// Options given to one Make never leak into the registered defaults.
	if _, err := r.Make("game:Counter-v0-easy", map[string]any{"name": "changed"}); err != nil {
		t.Fatal(err)
	}
	s, _ := r.Lookup("game:Counter-v0-easy")
	if s.Defaults()["name"] != "registered" {
		t.Fatalf("defaults changed by a Make: %v", s.Defaults())
	}
	e, err := r.Make("game:Counter-v0-easy", map[string]any{"limit": 1, "name": nil})
	if err != nil {
		t.Fatal(err)
	}
	e.Reset(0)
	if res, _ := e.Step("a"); !res.Terminated {
		t.Fatal("option limit=1 was not applied")
	}
}

func TestProtocolEnforced(t *testing.T) {
	r := newRegistry(t)
	e, _ := r.Make("game:Counter-v0-easy", map[string]any{"limit": 1})
	if _, err := e.Step("a"); !errors.Is(err, envs.ErrNotReset) {
		t.Fatalf("err = %v, want ErrNotReset", err)
	}
	e.Reset(1)
	if _, err := e.Step("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Step("a"); !errors.Is(err, envs.ErrEpisodeOver) {
		t.Fatalf("err = %v, want ErrEpisodeOver", err)
	}
	e.Reset(1)
	if _, err := e.Step("a"); err != nil {
		t.Fatalf("after Reset: %v", err)
	}
}

func TestVersion(t *testing.T) {
	a := counterSpec("game:Counter-v0-easy")
	if a.Version() != counterSpec("game:Counter-v0-easy").Version() {
		t.Fatal("version not deterministic")
	}
	if !strings.HasPrefix(a.Version(), "1.") {
		t.Fatalf("version %q does not start with the revision", a.Version())
	}
	b := a
	b.Revision = 2
	c := a
	c.DataDigest = envs.Digest([]byte("words"))
	d := counterSpec("game:Counter-v0-easy")
	d.Build = envs.Options(counterOpts{Limit: 4, Scale: 1}, nil)
	seen := map[string]bool{a.Version(): true}
	for _, s := range []envs.Spec{b, c, d} {
		if seen[s.Version()] {
			t.Fatalf("version %q did not change with revision, data or defaults", s.Version())
		}
		seen[s.Version()] = true
	}
	if got := a.Defaults(); got["limit"] != float64(3) || got["name"] != "registered" || len(got) != 3 {
		t.Fatalf("Defaults() = %v", got)
	}
	if a.Category() != "game" {
		t.Fatalf("Category() = %q", a.Category())
	}
}

func TestEpisodeTracksAndRenders(t *testing.T) {
	r := newRegistry(t)
	e, _ := r.Make("game:Counter-v0-easy", map[string]any{"limit": 2, "scale": 0.5})
	ep := envs.NewEpisode(e, envs.WrapConcatWithAction, 0)
	p, _, err := ep.Reset(7)
	if err != nil || p.Text != "start\n" {
		t.Fatalf("Reset prompt %q, %v", p.Text, err)
	}
	ep.Step("a")
	p, res, err := ep.Step("b")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Terminated || !ep.Done() || ep.Steps() != 2 || ep.CumulativeReward() != 1 {
		t.Fatalf("tracking: done=%v steps=%d total=%v", ep.Done(), ep.Steps(), ep.CumulativeReward())
	}
	if p.Text != "start\na\ntick\nb\ntick\n" {
		t.Fatalf("prompt %q", p.Text)
	}
	if _, _, err := ep.Step("c"); !errors.Is(err, envs.ErrEpisodeOver) {
		t.Fatalf("step after end: %v", err)
	}
}

// TestRegisterRefusesUnboundedOptions: an option without a range tag, or a
// default outside its range, cannot be registered.
func TestRegisterRefusesUnboundedOptions(t *testing.T) {
	type untagged struct {
		Size int `json:"size"`
	}
	type outOfRange struct {
		Size int `json:"size" range:"1,10"`
	}
	newEnv := func(any) (envs.Env, error) { return &counter{}, nil }
	for name, c := range map[string]struct {
		build envs.Builder
		want  string
	}{
		"untagged":     {envs.Options(untagged{Size: 3}, func(o untagged) (envs.Env, error) { return newEnv(o) }), `option "size" has no range tag`},
		"out of range": {envs.Options(outOfRange{Size: 30}, func(o outOfRange) (envs.Env, error) { return newEnv(o) }), `the default of option "size" is outside its range: got 30, want 1 to 10`},
	} {
		s := counterSpec("game:Bad-v0")
		s.Build = c.build
		err := envs.NewRegistry().Register(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Register = %v, want an error containing %q", name, err, c.want)
		}
	}
}

// TestMakeEnforcesRanges: a value outside its tag's range is refused with
// the env id, the option and the range.
func TestMakeEnforcesRanges(t *testing.T) {
	r := newRegistry(t)
	for _, c := range []struct {
		opts map[string]any
		want string
	}{
		{map[string]any{"limit": 1000}, `env game:Counter-v0-easy: option "limit": got 1000, want 0 to 100`},
		{map[string]any{"scale": -11.5}, `option "scale": got -11.5, want -10 to 10`},
		{map[string]any{"name": strings.Repeat("n", 65)}, `option "name": got 65 bytes, want 0 to 64 bytes`},
	} {
		_, err := r.Make("game:Counter-v0-easy", c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Make(%v) = %v, want %q", c.opts, err, c.want)
		}
	}
	if _, err := r.Make("game:Counter-v0-easy", map[string]any{"limit": 100, "name": nil}); err != nil {
		t.Errorf("in range: %v", err)
	}
}
