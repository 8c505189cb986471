package codeenv

import (
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// BenchmarkStep times one graded Step on sample row 0 (Sum of Numbers, 14
// tests, 12 run) in the real sandbox: a response without code (no program
// runs), a wrong program (fail_fast stops after one run) and a correct one
// (twelve runs). Make and Reset are off the clock.
func BenchmarkStep(b *testing.B) {
	r := sampleRegistry(b)
	for _, c := range []struct {
		name, response string
	}{
		{"no_block", "I would add the numbers."},
		{"wrong", pyBlock("input()\nprint(0)")},
		{"correct", pyBlock(references["Sum of Numbers"])},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				e := makeEnv(b, r, IDCodeContest, nil)
				if _, _, err := envs.ResetTask(e, 0, 0); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := e.Step(c.response); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
