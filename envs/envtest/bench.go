package envtest

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// benchName makes an id a sub-benchmark name: game:Sudoku-v0-easy becomes
// game_Sudoku-v0-easy.
var benchName = strings.NewReplacer(":", "_", "/", "_").Replace

// BenchmarkSteps runs one sub-benchmark per id (every registered id when none
// is given), named as benchName says. Each iteration is one Step with an
// action from SampleRandomAction; when an episode ends the env is Reset with
// the next seed inside the timed loop, so the figure includes episode
// generation. It reports allocations and steps/s.
func BenchmarkSteps(b *testing.B, r *envs.Registry, ids ...string) {
	benchmarkSteps(b, r, ids, true)
}

// BenchmarkStepsOnly is BenchmarkSteps with every Reset off the clock: it
// times Step alone.
func BenchmarkStepsOnly(b *testing.B, r *envs.Registry, ids ...string) {
	benchmarkSteps(b, r, ids, false)
}

func benchmarkSteps(b *testing.B, r *envs.Registry, ids []string, timeReset bool) {
	if len(ids) == 0 {
		ids = r.IDs()
	}
	for _, id := range ids {
		b.Run(benchName(id), func(b *testing.B) {
			e := Make(b, r, id, nil)
			rng := envs.NewRand(1)
			seed := uint64(0)
			if _, _, err := e.Reset(seed); err != nil {
				b.Fatalf("%s: %v", id, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				res, err := e.Step(e.SampleRandomAction(rng))
				if err != nil {
					b.Fatalf("%s: %v", id, err)
				}
				if res.Done() {
					if !timeReset {
						b.StopTimer()
					}
					seed++
					if _, _, err := e.Reset(seed); err != nil {
						b.Fatalf("%s: %v", id, err)
					}
					if !timeReset {
						b.StartTimer()
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkReplay times Step alone on recorded play, one sub-benchmark per
// id (every registered id when none is given). It first records 20 episodes
// of oracle play with one move in four random (mostly refused), then replays
// them on batches of 256 instances, each batch made and reset off the clock
// so the timer stops once per batch rather than once per episode. It reports
// allocations and steps/s.
func BenchmarkReplay(b *testing.B, r *envs.Registry, ids ...string) {
	if len(ids) == 0 {
		ids = r.IDs()
	}
	for _, id := range ids {
		b.Run(benchName(id), func(b *testing.B) {
			const episodes = 20
			var actions [episodes][]string
			e := Make(b, r, id, nil)
			rng := envs.NewRand(1)
			for seed := range uint64(episodes) {
				if _, _, err := e.Reset(seed); err != nil {
					b.Fatalf("%s: %v", id, err)
				}
				for done := false; !done; {
					a, err := OraclePolicy(e)
					if err != nil {
						b.Fatalf("%s: %v", id, err)
					}
					if rng.IntN(4) == 0 {
						a = e.SampleRandomAction(rng)
					}
					res, err := e.Step(a)
					if err != nil {
						b.Fatalf("%s: %v", id, err)
					}
					actions[seed] = append(actions[seed], a)
					done = res.Done()
				}
			}
			batch := make([]envs.Env, 256)
			prepare := func() {
				for i := range batch {
					batch[i] = Make(b, r, id, nil)
					if _, _, err := batch[i].Reset(uint64(i % episodes)); err != nil {
						b.Fatalf("%s: %v", id, err)
					}
				}
			}
			prepare()
			ep, k := 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := batch[ep].Step(actions[ep%episodes][k]); err != nil {
					b.Fatalf("%s: %v", id, err)
				}
				if k++; k == len(actions[ep%episodes]) {
					ep, k = ep+1, 0
					if ep == len(batch) {
						b.StopTimer()
						prepare()
						ep = 0
						b.StartTimer()
					}
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
