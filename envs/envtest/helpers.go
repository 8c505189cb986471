package envtest

import (
	"errors"
	"iter"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// Registry returns a registry holding what each register function adds
// (an env package's Register), failing tb if one fails.
func Registry(tb testing.TB, register ...func(*envs.Registry) error) *envs.Registry {
	tb.Helper()
	r := envs.NewRegistry()
	for _, f := range register {
		if err := f(r); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}

// Make builds id with options, failing tb if it cannot.
func Make(tb testing.TB, r *envs.Registry, id string, options map[string]any) envs.Env {
	tb.Helper()
	e, err := r.Make(id, options)
	if err != nil {
		if options != nil {
			tb.Fatalf("make %s %v: %v", id, options, err)
		}
		tb.Fatalf("make %s: %v", id, err)
	}
	return e
}

// RunAll runs the suite (Run) on each id, every registered id when none is
// given, each in a subtest named by its id.
func RunAll(t *testing.T, r *envs.Registry, ids ...string) {
	t.Helper()
	if len(ids) == 0 {
		ids = r.IDs()
	}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) { Run(t, r, id) })
	}
}

// OracleEpisodes plays seeds 0 to seeds-1 on e with its oracle, each episode
// for at most limit steps. It yields every transcript while e still holds
// that episode's final state, and fails tb on a Go error.
func OracleEpisodes(tb testing.TB, e envs.Env, seeds, limit int) iter.Seq[Transcript] {
	return func(yield func(Transcript) bool) {
		tb.Helper()
		for seed := range uint64(seeds) {
			tr, err := Play(e, seed, OraclePolicy, limit)
			if err != nil {
				tb.Fatal(err)
			}
			if !yield(tr) {
				return
			}
		}
	}
}

// OracleWins plays seeds 0 to seeds-1 of id, made without options, with its
// oracle, each episode for at most the spec's MaxTurns steps. It returns how
// many episodes ended in success and every transcript, in seed order.
func OracleWins(tb testing.TB, r *envs.Registry, id string, seeds int) (wins int, trs []Transcript) {
	tb.Helper()
	spec, err := r.Lookup(id)
	if err != nil {
		tb.Fatal(err)
	}
	for tr := range OracleEpisodes(tb, Make(tb, r, id, nil), seeds, spec.MaxTurns) {
		if tr.Success() {
			wins++
		}
		trs = append(trs, tr)
	}
	return wins, trs
}

// OptionCase is a row of an option-error table: options Make must reject
// with an *envs.OptionError naming Option.
type OptionCase struct {
	Options map[string]any
	Option  string
}

// OptionErrors checks every case: Make(id, c.Options) fails with an
// *envs.OptionError naming the env id and the option c.Option.
func OptionErrors(tb testing.TB, r *envs.Registry, id string, cases []OptionCase) {
	tb.Helper()
	for _, c := range cases {
		_, err := r.Make(id, c.Options)
		var oe *envs.OptionError
		if !errors.As(err, &oe) || oe.Option != c.Option || oe.Env != id {
			tb.Errorf("%s options %v: err = %v, want an OptionError naming %q", id, c.Options, err, c.Option)
		}
	}
}

// OptionsAccepted checks that Make(id, o) succeeds for every o.
func OptionsAccepted(tb testing.TB, r *envs.Registry, id string, options ...map[string]any) {
	tb.Helper()
	for _, o := range options {
		if _, err := r.Make(id, o); err != nil {
			tb.Errorf("%s options %v: %v", id, o, err)
		}
	}
}

// MakeReset makes id without options and resets it with seed, failing tb if
// either fails: the start of a hand-set game.
func MakeReset(tb testing.TB, r *envs.Registry, id string, seed uint64) envs.Env {
	tb.Helper()
	e := Make(tb, r, id, nil)
	if _, _, err := e.Reset(seed); err != nil {
		tb.Fatalf("reset %s seed %d: %v", id, seed, err)
	}
	return e
}
