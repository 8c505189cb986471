package report

import (
	"cmp"
	"math"
	"slices"
)

// Report is a job's summary. Every number is defined in docs/report.md by
// the DuckDB query that recomputes it over the committed files.
type Report struct {
	Job      string
	Location string
	Summary  Summary
	Batches  []BatchStats
	Envs     []EnvStats
	// TurnsPerEpisode is the histogram of the episodes' num_turns;
	// ResponseTokens and PromptTokens those of response_len and prompt_len
	// over model turns (turns with response_len > 0).
	TurnsPerEpisode Histogram
	ResponseTokens  Histogram
	PromptTokens    Histogram
	Tools           []ToolStats
	Latency         []LatencyStats
	// Failures counts the _failures/ records by error_class; TurnErrors the
	// turns' non-fatal error_class; Faults the generation faults retried
	// before an accepted answer, by last_fault.
	Failures   []ClassCount
	TurnErrors []ClassCount
	Faults     []FaultStats
}

// Summary holds the job's totals over its committed shards.
type Summary struct {
	Batches        int
	Episodes       int64
	FailedEpisodes int64
	Turns          int64
	ToolTurns      int64
	SuccessRate    float64 // over committed episodes
	MeanReward     float64 // mean total_reward per episode
	MeanReturn     float64 // mean return (G at turn 0) per episode
	PromptTokens   int64
	ResponseTokens int64
	Retries        int64
}

// BatchStats is one committed batch (shard).
type BatchStats struct {
	Batch          int
	Episodes       int64
	FailedEpisodes int64
	Turns          int64
	MeanReward     float64
	MeanReturn     float64
	SuccessRate    float64
}

// EnvStats is one env id (and version) over the committed episodes.
type EnvStats struct {
	EnvID       string
	EnvVersion  string
	Episodes    int64
	Failed      int64 // failure records of this env id
	Turns       int64
	MeanTurns   float64
	SuccessRate float64
	MeanReward  float64
	MeanReturn  float64
}

// Histogram counts integer values in equal-width bins: bin i holds the
// values v with Lo+i*Width <= v < Lo+(i+1)*Width.
type Histogram struct {
	Lo, Width int64
	Counts    []int64
}

// maxBins bounds a histogram: one bin per value up to this many values,
// wider bins beyond.
const maxBins = 40

// ToolStats is one tool over the turns that called it.
type ToolStats struct {
	Tool            string
	Calls           int64
	Errors          int64 // calls whose turn recorded an error_class
	ErrorRate       float64
	CallsPerEpisode float64 // calls over all committed episodes
	MeanMs          float64
	P50Ms, P95Ms    float64
}

// LatencyStats are the percentiles of one kind of latency, in milliseconds.
type LatencyStats struct {
	Kind               string // generation, env_step or tool_call
	Count              int64
	Mean               float64
	P50, P90, P99, Max float64
}

// ClassCount is a number of records of one class.
type ClassCount struct {
	Class string
	Count int64
}

// FaultStats counts the turns whose accepted generation followed failed
// attempts whose last fault was Class, and those attempts.
type FaultStats struct {
	Class    string
	Turns    int64
	Attempts int64
}

func compute(d *dataset) *Report {
	r := &Report{
		Batches: batchStats(d),
		Envs:    envStats(d),
		Tools:   toolStats(d),
		Latency: latencyStats(d),
	}
	r.Summary = summary(d)
	turns := make([]int64, len(d.episodes))
	for i, e := range d.episodes {
		turns[i] = int64(e.NumTurns)
	}
	var resp, prompt []int64
	for _, t := range d.turns {
		if t.ResponseLen > 0 {
			resp = append(resp, int64(t.ResponseLen))
			prompt = append(prompt, int64(t.PromptLen))
		}
	}
	r.TurnsPerEpisode = histogram(turns)
	r.ResponseTokens = histogram(resp)
	r.PromptTokens = histogram(prompt)
	r.Failures, r.TurnErrors, r.Faults = faultStats(d)
	return r
}

func summary(d *dataset) Summary {
	s := Summary{Batches: len(d.manifests), Episodes: int64(len(d.episodes)), Turns: int64(len(d.turns))}
	for _, m := range d.manifests {
		s.FailedEpisodes += m.FailedEpisodes
	}
	var success, reward, ret float64
	for _, e := range d.episodes {
		s.ToolTurns += int64(e.NumToolTurns)
		s.PromptTokens += e.PromptTokens
		s.ResponseTokens += e.ResponseTokens
		s.Retries += int64(e.Retries)
		success += b2f(e.Success)
		reward += e.TotalReward
		ret += e.Return
	}
	s.SuccessRate = ratio(success, s.Episodes)
	s.MeanReward = ratio(reward, s.Episodes)
	s.MeanReturn = ratio(ret, s.Episodes)
	return s
}

func batchStats(d *dataset) []BatchStats {
	idx := map[int]int{}
	out := make([]BatchStats, len(d.manifests))
	for i, m := range d.manifests {
		out[i] = BatchStats{Batch: m.Batch, FailedEpisodes: m.FailedEpisodes}
		idx[m.Batch] = i
	}
	for _, e := range d.episodes {
		b := &out[idx[int(e.Batch)]]
		b.Episodes++
		b.Turns += int64(e.NumTurns)
		b.MeanReward += e.TotalReward
		b.MeanReturn += e.Return
		b.SuccessRate += b2f(e.Success)
	}
	for i := range out {
		b := &out[i]
		b.MeanReward = ratio(b.MeanReward, b.Episodes)
		b.MeanReturn = ratio(b.MeanReturn, b.Episodes)
		b.SuccessRate = ratio(b.SuccessRate, b.Episodes)
	}
	return out
}

func envStats(d *dataset) []EnvStats {
	type key struct{ id, version string }
	m := map[key]*EnvStats{}
	get := func(id, version string) *EnvStats {
		k := key{id, version}
		if m[k] == nil {
			m[k] = &EnvStats{EnvID: id, EnvVersion: version}
		}
		return m[k]
	}
	for _, e := range d.episodes {
		s := get(e.EnvID, e.EnvVersion)
		s.Episodes++
		s.Turns += int64(e.NumTurns)
		s.SuccessRate += b2f(e.Success)
		s.MeanReward += e.TotalReward
		s.MeanReturn += e.Return
	}
	for _, f := range d.failures {
		get(f.EnvID, f.EnvVersion).Failed++
	}
	out := make([]EnvStats, 0, len(m))
	for _, s := range m {
		s.MeanTurns = ratio(float64(s.Turns), s.Episodes)
		s.SuccessRate = ratio(s.SuccessRate, s.Episodes)
		s.MeanReward = ratio(s.MeanReward, s.Episodes)
		s.MeanReturn = ratio(s.MeanReturn, s.Episodes)
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b EnvStats) int {
		return cmp.Or(cmp.Compare(a.EnvID, b.EnvID), cmp.Compare(a.EnvVersion, b.EnvVersion))
	})
	return out
}

func toolStats(d *dataset) []ToolStats {
	ms := map[string][]float64{}
	errs := map[string]int64{}
	for _, t := range d.turns {
		if t.ToolName == nil {
			continue
		}
		ms[*t.ToolName] = append(ms[*t.ToolName], t.EnvMs)
		if t.ErrorClass != nil {
			errs[*t.ToolName]++
		}
	}
	var out []ToolStats
	for tool, xs := range ms {
		slices.Sort(xs)
		n := int64(len(xs))
		out = append(out, ToolStats{
			Tool: tool, Calls: n, Errors: errs[tool], ErrorRate: ratio(float64(errs[tool]), n),
			CallsPerEpisode: ratio(float64(n), int64(len(d.episodes))),
			MeanMs:          mean(xs), P50Ms: quantile(xs, 0.5), P95Ms: quantile(xs, 0.95),
		})
	}
	slices.SortFunc(out, func(a, b ToolStats) int { return cmp.Compare(a.Tool, b.Tool) })
	return out
}

func latencyStats(d *dataset) []LatencyStats {
	var gen, env, tool []float64
	for _, t := range d.turns {
		gen = append(gen, t.GenerationMs)
		if t.ToolName == nil {
			env = append(env, t.EnvMs)
		} else {
			tool = append(tool, t.EnvMs)
		}
	}
	var out []LatencyStats
	for _, k := range []struct {
		kind string
		xs   []float64
	}{{"generation", gen}, {"env_step", env}, {"tool_call", tool}} {
		if len(k.xs) == 0 {
			continue
		}
		slices.Sort(k.xs)
		out = append(out, LatencyStats{
			Kind: k.kind, Count: int64(len(k.xs)), Mean: mean(k.xs),
			P50: quantile(k.xs, 0.5), P90: quantile(k.xs, 0.9), P99: quantile(k.xs, 0.99), Max: k.xs[len(k.xs)-1],
		})
	}
	return out
}

func faultStats(d *dataset) (failures, turnErrors []ClassCount, faults []FaultStats) {
	fc, tc := map[string]int64{}, map[string]int64{}
	fs := map[string]*FaultStats{}
	for _, f := range d.failures {
		fc[f.ErrorClass]++
	}
	for _, t := range d.turns {
		if t.ErrorClass != nil {
			tc[*t.ErrorClass]++
		}
		if t.FailedAttempts != nil && *t.FailedAttempts > 0 {
			class := "unknown"
			if t.LastFault != nil {
				class = *t.LastFault
			}
			if fs[class] == nil {
				fs[class] = &FaultStats{Class: class}
			}
			fs[class].Turns++
			fs[class].Attempts += int64(*t.FailedAttempts)
		}
	}
	for _, f := range fs {
		faults = append(faults, *f)
	}
	slices.SortFunc(faults, func(a, b FaultStats) int { return cmp.Compare(a.Class, b.Class) })
	return classCounts(fc), classCounts(tc), faults
}

func classCounts(m map[string]int64) []ClassCount {
	out := make([]ClassCount, 0, len(m))
	for c, n := range m {
		out = append(out, ClassCount{c, n})
	}
	slices.SortFunc(out, func(a, b ClassCount) int { return cmp.Compare(a.Class, b.Class) })
	return out
}

// histogram bins integer values: one bin per value from the smallest to the
// largest when there are at most maxBins of them, else bins of the smallest
// width that keeps their number at most maxBins.
func histogram(xs []int64) Histogram {
	if len(xs) == 0 {
		return Histogram{}
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	width := max(1, (hi-lo+maxBins)/maxBins) // ceil((hi-lo+1)/maxBins)
	h := Histogram{Lo: lo, Width: width, Counts: make([]int64, (hi-lo)/width+1)}
	for _, x := range xs {
		h.Counts[(x-lo)/width]++
	}
	return h
}

// quantile is the linearly interpolated q-quantile of sorted xs (numpy's
// default, DuckDB's quantile_cont): position q·(n−1) between its neighbours.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	pos := q * float64(len(xs)-1)
	i := int(math.Floor(pos))
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	frac := pos - float64(i)
	return xs[i] + frac*(xs[i+1]-xs[i])
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return ratio(s, int64(len(xs)))
}

func ratio(x float64, n int64) float64 {
	if n == 0 {
		return 0
	}
	return x / float64(n)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
