package mathcheck

import "testing"

// BenchmarkEquivalent checks the table's cases in turn and reports answers
// checked per second. Run:
//
//	go test ./envs/mathcheck -run '^$' -bench Equivalent -benchmem
func BenchmarkEquivalent(b *testing.B) {
	var mix []tc
	for _, g := range table {
		mix = append(mix, g.cases...)
	}
	b.Run("table", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			c := mix[i%len(mix)]
			Equivalent(c.pred, c.gold)
			i++
		}
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "answers/s")
	})
	b.Run("adversarial", func(b *testing.B) {
		in := adversarial()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			Equivalent(in[i%len(in)], "x+1")
			i++
		}
		b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "answers/s")
	})
}
