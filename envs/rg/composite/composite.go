// Package composite serves reasoning-gym's composite dataset as
// rg:composite: each episode draws one of several rg: tasks by weight, with
// that task's own options, and plays it (reasoning_gym/composite.py at
// 0.1.23). It is registered after every other rg: family, since it makes its
// episodes through the registry.
package composite

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Name is reasoning-gym's dataset name.
const Name = "composite"

// MaxDatasets bounds the datasets one composite mixes: every rg: task once.
const MaxDatasets = 128

// Dataset is one entry of the mix: reasoning-gym's DatasetSpec.
type Dataset struct {
	// Name is the rg: task's dataset name (gcd, not rg:gcd).
	Name string `json:"name"`
	// Weight is the entry's unnormalised weight, above 0.
	Weight float64 `json:"weight"`
	// Config are the task's options, as rg:<name> takes them.
	Config map[string]any `json:"config,omitempty"`
}

// Options are reasoning-gym's CompositeConfig without size and seed (an
// episode's seed picks its entry and its item).
type Options struct {
	Datasets []Dataset `json:"datasets" len:"1,128"`
}

// maxWeight bounds a weight (relative weights need no more range).
const maxWeight = 1e6

// Validate checks the entries on their own; the registry checks each
// entry's name and options when the env is made.
func (o Options) Validate() error {
	seen := map[string]bool{}
	for i, d := range o.Datasets {
		switch {
		case d.Name == "":
			return optErr("datasets[%d].name: empty; name an rg: task, e.g. gcd", i)
		case seen[d.Name]:
			return optErr("datasets[%d].name: %q appears twice (reasoning-gym refuses duplicates)", i, d.Name)
		case !(d.Weight > 0 && d.Weight <= maxWeight):
			return optErr("datasets[%d].weight: got %v, want above 0 and at most 1000000", i, d.Weight)
		}
		seen[d.Name] = true
	}
	return nil
}

func optErr(format string, args ...any) error {
	return &envs.OptionError{Option: "datasets", Reason: fmt.Sprintf(format, args...)}
}

// Register adds rg:composite over the rg: tasks r holds now (not their
// retry variants): its default mixes them all with weight 1 and their
// default options. Call it after every other rg: family.
func Register(r *envs.Registry) error {
	var def Options
	var versions []byte
	for _, s := range r.Specs() {
		name, ok := strings.CutPrefix(s.ID, "rg:")
		if !ok || strings.HasSuffix(name, rg.RetrySuffix) || name == Name {
			continue
		}
		def.Datasets = append(def.Datasets, Dataset{Name: name, Weight: 1})
		versions = fmt.Appendf(versions, "%s=%s\n", s.ID, s.Version())
	}
	if len(def.Datasets) == 0 {
		return errors.New("rg: composite: no rg: tasks registered before it")
	}
	if len(def.Datasets) > MaxDatasets {
		return fmt.Errorf("rg: composite: %d rg: tasks, more than %d", len(def.Datasets), MaxDatasets)
	}
	return r.Register(envs.Spec{
		ID:          rg.ID(Name),
		Description: "reasoning-gym composite: each episode one question from a weighted mix of rg: tasks (default: every task, equal weights), scored by that task.",
		MaxTurns:    1,
		RewardMin:   0,
		RewardMax:   1,
		Revision:    1,
		// The mix's behaviour is its tasks': their versions are its data.
		DataDigest: envs.Digest(versions),
		Build: envs.Options(def, func(o Options) (envs.Env, error) {
			return newEnv(r, o)
		}),
	})
}

// Env plays one entry of the mix per episode.
type Env struct {
	r       *envs.Registry
	names   []string
	weights []float64
	total   float64
	// subs are the entries' envs, made on first use: an entry with
	// options is made (so checked) with the composite, one with its
	// task's defaults only when drawn, so a mix of every task costs one
	// task's make per episode.
	subs []envs.Env
	cur  int // the episode's entry, -1 before Reset
}

func newEnv(r *envs.Registry, o Options) (*Env, error) {
	e := &Env{r: r, cur: -1}
	for i, d := range o.Datasets {
		id := rg.ID(d.Name)
		if strings.HasSuffix(d.Name, rg.RetrySuffix) || d.Name == Name {
			return nil, optErr("datasets[%d].name: %q is not a single-question rg: task", i, d.Name)
		}
		if _, err := r.Lookup(id); err != nil {
			return nil, optErr("datasets[%d].name: %v", i, err)
		}
		var sub envs.Env
		if len(d.Config) > 0 {
			var err error
			if sub, err = r.Make(id, d.Config); err != nil {
				var oe *envs.OptionError
				if errors.As(err, &oe) && oe.Option != "" {
					return nil, optErr("datasets[%d].config.%s (%s): %s", i, oe.Option, id, oe.Reason)
				}
				return nil, optErr("datasets[%d].config (%s): %v", i, id, err)
			}
		}
		e.names = append(e.names, d.Name)
		e.weights = append(e.weights, d.Weight)
		e.total += d.Weight
		e.subs = append(e.subs, sub)
	}
	return e, nil
}

// pick draws an entry by weight, as reasoning-gym's rng.choices.
func (e *Env) pick(rng *rand.Rand) int {
	x := rng.Float64() * e.total
	for i, w := range e.weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(e.weights) - 1
}

// Reset picks the episode's entry from seed, then resets it with the same
// seed: an episode is a pure function of its seed.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	e.cur = e.pick(envs.NewRand(seed ^ 0xc0305173))
	if e.subs[e.cur] == nil {
		sub, err := e.r.Make(rg.ID(e.names[e.cur]), nil)
		if err != nil {
			return "", envs.Info{}, fmt.Errorf("rg:composite: %w", err)
		}
		e.subs[e.cur] = sub
	}
	obs, info, err := e.subs[e.cur].Reset(seed)
	if err != nil {
		return "", envs.Info{}, fmt.Errorf("rg:composite: %w", err)
	}
	info.Extra = withDataset(info.Extra, e.names[e.cur])
	return obs, info, nil
}

// Step answers the episode's entry.
func (e *Env) Step(action string) (envs.StepResult, error) {
	if e.cur < 0 {
		return envs.StepResult{}, envs.ErrNotReset
	}
	res, err := e.subs[e.cur].Step(action)
	if err != nil {
		return res, fmt.Errorf("rg:composite: %s: %w", e.names[e.cur], err)
	}
	res.Info.Extra = withDataset(res.Info.Extra, e.names[e.cur])
	return res, nil
}

// SampleRandomAction is the entry's random answer.
func (e *Env) SampleRandomAction(rng *rand.Rand) string {
	if e.cur < 0 {
		return `\boxed{0}`
	}
	return e.subs[e.cur].SampleRandomAction(rng)
}

// OracleAction is the entry's reference answer.
func (e *Env) OracleAction() (string, error) {
	if e.cur < 0 {
		return "", envs.ErrNotReset
	}
	o, ok := envs.AsOracle(e.subs[e.cur])
	if !ok {
		return "", fmt.Errorf("rg:composite: %s has no oracle", e.names[e.cur])
	}
	return o.OracleAction()
}

// scorer is what an rg env offers besides the Env protocol.
type scorer interface {
	Item() rg.Item
	Score(answer string) float64
}

// current finds the rg env of the episode's entry inside its wrappers.
func (e *Env) current() scorer {
	if e.cur < 0 {
		return nil
	}
	for x := e.subs[e.cur]; x != nil; {
		if s, ok := x.(scorer); ok {
			return s
		}
		u, ok := x.(envs.Unwrapper)
		if !ok {
			return nil
		}
		x = u.Unwrap()
	}
	return nil
}

// Item is the episode's item (for tests and the oracle's checks).
func (e *Env) Item() rg.Item {
	if s := e.current(); s != nil {
		return s.Item()
	}
	return rg.Item{}
}

// Score grades answer as the episode's task does.
func (e *Env) Score(answer string) float64 {
	if s := e.current(); s != nil {
		return s.Score(answer)
	}
	return 0
}

// withDataset records which task the episode drew (reasoning-gym's
// metadata["source_dataset"]).
func withDataset(extra map[string]any, name string) map[string]any {
	if extra == nil {
		extra = map[string]any{}
	}
	extra["source_dataset"] = name
	return extra
}
