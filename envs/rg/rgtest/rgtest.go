// Package rgtest is the suite every rg: task passes, on top of the envs
// conformance suite (envtest): the oracle scores exactly 1 on every item, a
// random policy scores near 0, items are a pure function of the seed and vary
// with it, every option's extremes generate in bounded time, and the retry
// variant ends as documented without giving the answer away. Family packages
// call Run from a test and BenchmarkItems from a benchmark.
package rgtest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Items is how many seeds the oracle, random and determinism checks draw.
const Items = 200

// DefaultCeiling is the mean score a random policy may reach.
const DefaultCeiling = 0.2

// Config adjusts Run for tasks whose answers a guess can hit.
type Config struct {
	// Ceilings raise the random policy's allowed mean score for an id (a
	// yes/no task: 0.6), keyed by the single-turn id ("rg:<name>"); its
	// retry variant gets the chance of hitting it in DefaultAttempts tries.
	Ceilings map[string]float64
	// MinDistinct lowers the number of distinct questions Items seeds must
	// give for an id (a task with few possible questions), keyed as
	// Ceilings; default Items/4.
	MinDistinct map[string]int
	// Only, when set, limits the run to these ids (a package whose
	// registry also holds other families' tasks, such as rg:composite's).
	Only []string
}

// Item is what a test can ask of an rg env: its current item and its scorer.
type Item interface {
	Item() rg.Item
	Score(answer string) float64
}

// AsItem finds the rg env inside e, looking through wrappers.
func AsItem(e envs.Env) (Item, bool) {
	for e != nil {
		if it, ok := e.(Item); ok {
			return it, true
		}
		u, ok := e.(envs.Unwrapper)
		if !ok {
			return nil, false
		}
		e = u.Unwrap()
	}
	return nil, false
}

// Run checks every rg: id in r (each in a subtest named by its id).
func Run(t *testing.T, r *envs.Registry, c Config) {
	t.Helper()
	n := 0
	for _, id := range r.IDs() {
		if !strings.HasPrefix(id, "rg:") || (c.Only != nil && !slices.Contains(c.Only, id)) {
			continue
		}
		n++
		t.Run(id, func(t *testing.T) {
			envtest.Run(t, r, id)
			retry := strings.HasSuffix(id, rg.RetrySuffix)
			t.Run("oracle_scores_1", func(t *testing.T) { checkOracle(t, r, id) })
			t.Run("random_near_0", func(t *testing.T) { checkRandom(t, r, id, c) })
			t.Run("seeded", func(t *testing.T) { checkSeeded(t, r, id, c) })
			if !retry {
				t.Run("option_extremes", func(t *testing.T) { checkExtremes(t, r, id) })
			} else {
				t.Run("retry", func(t *testing.T) { checkRetry(t, r, id) })
			}
		})
	}
	if n == 0 {
		t.Fatal("no rg: ids registered")
	}
}

// Reset makes id with options and resets it with seed, returning its item.
func Reset(tb testing.TB, r *envs.Registry, id string, options map[string]any, seed uint64) (envs.Env, Item) {
	tb.Helper()
	e := envtest.Make(tb, r, id, options)
	if _, _, err := e.Reset(seed); err != nil {
		tb.Fatalf("%s seed %d: %v", id, seed, err)
	}
	it, ok := AsItem(e)
	if !ok {
		tb.Fatalf("%s is not an rg env", id)
	}
	return e, it
}

func checkOracle(t *testing.T, r *envs.Registry, id string) {
	for seed := range uint64(Items) {
		e, it := Reset(t, r, id, nil, seed)
		o, ok := envs.AsOracle(e)
		if !ok {
			t.Fatal("no oracle")
		}
		a, err := o.OracleAction()
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		if res.Reward != 1 || !res.Info.Success || !res.Done() {
			t.Fatalf("seed %d: oracle %q scored %v (done %v)\nquestion: %s", seed, a, res.Reward, res.Done(), it.Item().Question)
		}
	}
}

func checkRandom(t *testing.T, r *envs.Registry, id string, c Config) {
	ceiling := DefaultCeiling
	if x, ok := c.Ceilings[strings.TrimSuffix(id, rg.RetrySuffix)]; ok {
		ceiling = x
	}
	if strings.HasSuffix(id, rg.RetrySuffix) {
		// Three guesses instead of one.
		ceiling = math.Min(1, 1-math.Pow(1-ceiling, rg.DefaultAttempts))
	}
	sum := 0.0
	for seed := range uint64(Items) {
		tr, err := envtest.Play(envtest.Make(t, r, id, nil), seed, envtest.RandomPolicy(seed+7), rg.MaxAttempts)
		if err != nil {
			t.Fatal(err)
		}
		sum += tr.Return()
	}
	if mean := sum / Items; mean > ceiling {
		t.Fatalf("a random policy scored %.3f on average over %d items, above %.2f", mean, Items, ceiling)
	}
}

func checkSeeded(t *testing.T, r *envs.Registry, id string, c Config) {
	distinct := map[string]bool{}
	for seed := range uint64(Items) {
		_, a := Reset(t, r, id, nil, seed)
		_, b := Reset(t, r, id, nil, seed)
		if a.Item().Question != b.Item().Question || a.Item().Answer != b.Item().Answer {
			t.Fatalf("seed %d gave two items:\n%s\n%s", seed, a.Item().Question, b.Item().Question)
		}
		if strings.TrimSpace(a.Item().Question) == "" || a.Item().Answer == "" {
			t.Fatalf("seed %d: empty question or answer", seed)
		}
		distinct[a.Item().Question] = true
	}
	want := Items / 4
	if x, ok := c.MinDistinct[strings.TrimSuffix(id, rg.RetrySuffix)]; ok {
		want = x
	}
	if len(distinct) < want {
		t.Fatalf("%d seeds gave %d distinct questions, want at least %d", Items, len(distinct), want)
	}
}

// checkExtremes sets each numeric option to its minimum and its maximum,
// alone and all at once: every combination Make accepts must generate
// items the oracle solves, in bounded time (a hang fails the test binary's
// timeout).
func checkExtremes(t *testing.T, r *envs.Registry, id string) {
	spec, err := r.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	var sets []map[string]any
	lows, highs := map[string]any{}, map[string]any{}
	for _, b := range spec.Bounds() {
		if !b.HasRange || b.HasLen {
			continue
		}
		sets = append(sets, map[string]any{b.Option: b.Min}, map[string]any{b.Option: b.Max})
		lows[b.Option], highs[b.Option] = b.Min, b.Max
	}
	if len(lows) > 1 {
		sets = append(sets, lows, highs)
	}
	for _, o := range sets {
		if _, err := r.Make(id, o); err != nil {
			continue // a relation between options refused it, by name
		}
		for seed := range uint64(3) {
			_, it := Reset(t, r, id, o, seed)
			if got := it.Score(it.Item().Answer); got != 1 {
				t.Fatalf("options %v seed %d: the reference answer scores %v", o, seed, got)
			}
		}
	}
}

// checkRetry: wrong answers get feedback without the answer and no reward;
// the episode ends at answer_attempts with the last score, or at once on a
// full score.
func checkRetry(t *testing.T, r *envs.Registry, id string) {
	for seed := range uint64(20) {
		for _, attempts := range []int{1, 2, rg.DefaultAttempts} {
			o := map[string]any{"answer_attempts": attempts}
			e, it := Reset(t, r, id, o, seed)
			answer := it.Item().Answer
			for i := 1; i <= attempts; i++ {
				res, err := e.Step(`\boxed{}`)
				if err != nil {
					t.Fatal(err)
				}
				if i < attempts {
					if res.Done() || res.Reward != 0 {
						t.Fatalf("attempt %d of %d: done %v reward %v", i, attempts, res.Done(), res.Reward)
					}
					if len(answer) >= 4 && strings.Contains(res.Observation, answer) && !strings.Contains(it.Item().Question, answer) {
						t.Fatalf("feedback gives the answer away: %q", res.Observation)
					}
					continue
				}
				if !res.Done() {
					t.Fatalf("not over after answer_attempts=%d", attempts)
				}
				if want := it.Score(""); res.Reward != want {
					t.Fatalf("last attempt's reward %v, want its score %v", res.Reward, want)
				}
			}
			// A correct answer after a wrong one ends the episode with 1.
			if attempts >= 2 {
				e, it := Reset(t, r, id, o, seed)
				if _, err := e.Step(`\boxed{}`); err != nil {
					t.Fatal(err)
				}
				res, err := e.Step(`\boxed{` + it.Item().Answer + `}`)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Done() || res.Reward != 1 {
					t.Fatalf("correct second attempt: done %v reward %v", res.Done(), res.Reward)
				}
			}
		}
	}
}

// BenchmarkItems reports items generated per second for every rg: id in r
// that is not a retry variant (the variant's items are the same), one
// sub-benchmark per id.
func BenchmarkItems(b *testing.B, r *envs.Registry) {
	for _, id := range r.IDs() {
		if !strings.HasPrefix(id, "rg:") || strings.HasSuffix(id, rg.RetrySuffix) {
			continue
		}
		b.Run(strings.TrimPrefix(id, "rg:"), func(b *testing.B) {
			e := envtest.Make(b, r, id, nil)
			seed := uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := e.Reset(seed); err != nil {
					b.Fatal(fmt.Errorf("%s: %w", id, err))
				}
				seed++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "items/s")
		})
	}
}
