package schema

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestDiscountedReturnsByHand(t *testing.T) {
	cases := []struct {
		rewards []float64
		gamma   float64
		want    []float64
	}{
		{[]float64{1, 0, 2}, 0.5, []float64{1.5, 1, 2}},              // 2; 0+.5·2; 1+.5·1
		{[]float64{0, 0, 0, 1}, 0.9, []float64{0.729, 0.81, 0.9, 1}}, // sparse terminal reward
		{[]float64{-0.1, 0.2, 1}, 1, []float64{1.1, 1.2, 1}},         // γ = 1: reward-to-go
		{[]float64{3, 4}, 0, []float64{3, 4}},                        // γ = 0: the reward
		{[]float64{0.7}, 0.9, []float64{0.7}},                        // one turn: its reward
		{nil, 0.9, []float64{}},
	}
	for _, c := range cases {
		got := DiscountedReturns(c.rewards, c.gamma)
		if len(got) != len(c.want) {
			t.Fatalf("DiscountedReturns(%v, %v) = %v, want %v", c.rewards, c.gamma, got, c.want)
		}
		for i := range got {
			if !near(got[i], c.want[i], 1e-12) {
				t.Errorf("DiscountedReturns(%v, %v) = %v, want %v", c.rewards, c.gamma, got, c.want)
				break
			}
		}
	}
}

func TestDiscountedReturnsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		rewards := make([]float64, 1+rng.IntN(30))
		for i := range rewards {
			rewards[i] = rng.NormFloat64()
		}
		// γ = 1 gives the reward-to-go.
		g := DiscountedReturns(rewards, 1)
		for t0 := range rewards {
			sum := 0.0
			for _, r := range rewards[t0:] {
				sum += r
			}
			if !near(g[t0], sum, 1e-9) {
				t.Fatalf("γ=1: G_%d = %v, reward-to-go %v", t0, g[t0], sum)
			}
		}
		// The recursion holds for any γ, and the last return is the last reward.
		gamma := rng.Float64()
		g = DiscountedReturns(rewards, gamma)
		n := len(rewards)
		if g[n-1] != rewards[n-1] {
			t.Fatalf("last return %v, last reward %v", g[n-1], rewards[n-1])
		}
		for t0 := 0; t0 < n-1; t0++ {
			if !near(g[t0], rewards[t0]+gamma*g[t0+1], 1e-12) {
				t.Fatalf("G_%d = %v ≠ r + γ·G_{t+1}", t0, g[t0])
			}
		}
		// A one-turn episode's return is its reward.
		if one := DiscountedReturns(rewards[:1], gamma); one[0] != rewards[0] {
			t.Fatalf("one-turn return %v, reward %v", one[0], rewards[0])
		}
	}
}

func TestNormalizeByHand(t *testing.T) {
	// γ = 1. Turn returns: A [1, 1], B [0, 0], C [2]; a failed episode D is
	// ignored. Batch: {1, 1, 0, 0, 2}: mean 0.8, population var
	// (0.04·2 + 0.64·2 + 1.44)/5 = 0.56.
	batch := []EpisodeRewards{
		{Group: 0, Rewards: []float64{0, 1}},
		{Group: 0, Rewards: []float64{0, 0}},
		{Group: 1, Rewards: []float64{2}},
		{Group: 1, Rewards: []float64{1000, -5}, Failed: true},
	}
	out, stats := Normalize(batch, 1)
	if stats != (Stats{Count: 5, Sum: 4, SumSq: 6}) {
		t.Fatalf("stats %+v, want {5 4 6}", stats)
	}
	std := math.Sqrt(0.56)
	a := func(g float64) float64 { return (g - 0.8) / (std + 1e-9) }
	want := [][]float64{{a(1), a(1)}, {a(0), a(0)}, {a(2)}, nil}
	for i := range want {
		if len(out[i].Advantages) != len(want[i]) {
			t.Fatalf("episode %d: advantages %v, want %v", i, out[i].Advantages, want[i])
		}
		for k := range want[i] {
			if !near(out[i].Advantages[k], want[i][k], 1e-12) {
				t.Errorf("episode %d: advantages %v, want %v", i, out[i].Advantages, want[i])
			}
		}
	}
	// Group 0: episode returns {1, 0}: mean 0.5, std 0.5. Group 1: C alone (D failed).
	g1 := 0.5 / (0.5 + 1e-9)
	for i, w := range []float64{g1, -g1, 0, 0} {
		if !near(out[i].GroupAdvantage, w, 1e-12) {
			t.Errorf("episode %d: group advantage %v, want %v", i, out[i].GroupAdvantage, w)
		}
	}
	for i, w := range []int{2, 2, 1, 0} {
		if out[i].GroupSize != w {
			t.Errorf("episode %d: effective group size %d, want %d", i, out[i].GroupSize, w)
		}
	}
	if out[3].Returns != nil || out[3].Advantages != nil {
		t.Errorf("a failed episode got returns %v / advantages %v", out[3].Returns, out[3].Advantages)
	}
}

func TestNormalizeProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		var batch []EpisodeRewards
		for e := range 8 + rng.IntN(40) {
			r := make([]float64, 1+rng.IntN(10))
			for i := range r {
				r[i] = rng.NormFloat64()*float64(1+trial) + float64(trial)
			}
			batch = append(batch, EpisodeRewards{Group: e / 4, Rewards: r, Failed: rng.IntN(10) == 0})
		}
		out, _ := Normalize(batch, 0.9)
		var all []float64
		for _, o := range out {
			all = append(all, o.Advantages...)
		}
		mean, std := twoPass(all)
		if !near(mean, 0, 1e-9) || !near(std, 1, 1e-6) {
			t.Fatalf("trial %d: advantages have mean %v and std %v, want 0 and 1", trial, mean, std)
		}
		// Group advantages have mean 0 within every group of two or more.
		sums := map[int]float64{}
		for i, o := range out {
			if !batch[i].Failed {
				sums[batch[i].Group] += o.GroupAdvantage
			}
		}
		for g, s := range sums {
			if !near(s, 0, 1e-9) {
				t.Fatalf("trial %d: group %d advantages sum to %v", trial, g, s)
			}
		}
	}
}

func TestConstantBatchGivesZeros(t *testing.T) {
	for _, c := range []float64{0, 0.1, 1, -0.3, 1e6 + 0.1} {
		var batch []EpisodeRewards
		for e := range 1000 {
			batch = append(batch, EpisodeRewards{Group: e / 8, Rewards: []float64{c}})
		}
		out, stats := Normalize(batch, 0.9)
		if stats.Std() != 0 {
			t.Errorf("constant %v: std %v, want 0", c, stats.Std())
		}
		for i, o := range out {
			if o.Advantages[0] != 0 || o.GroupAdvantage != 0 {
				t.Fatalf("constant %v: episode %d advantage %v, group advantage %v, want 0, 0", c, i, o.Advantages[0], o.GroupAdvantage)
			}
		}
	}
	// A tiny but real spread is not mistaken for a constant.
	out, _ := Normalize([]EpisodeRewards{{Rewards: []float64{1000}}, {Rewards: []float64{1000.001}}}, 1)
	if !near(out[0].Advantages[0], -1, 1e-5) || !near(out[1].Advantages[0], 1, 1e-5) {
		t.Errorf("spread of 1e-3 around 1000: %v %v, want -1 and 1", out[0].Advantages, out[1].Advantages)
	}
}

func TestSingleElementGroup(t *testing.T) {
	out, _ := Normalize([]EpisodeRewards{{Group: 0, Rewards: []float64{5}}, {Group: 1, Rewards: []float64{-2, 1}}}, 1)
	for i, o := range out {
		if o.GroupAdvantage != 0 || o.GroupSize != 1 {
			t.Errorf("episode %d alone in its group: advantage %v, size %d; want 0, 1", i, o.GroupAdvantage, o.GroupSize)
		}
	}
}

func twoPass(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(len(xs)))
}

// TestUnionRenormalisation: two shards' Stats, merged after a trip through
// the manifest's JSON, re-normalise the union exactly as a direct two-pass
// normalisation of all the union's returns does.
func TestUnionRenormalisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	shard := func(offset, scale float64, n int) ([]float64, Stats) {
		var batch []EpisodeRewards
		for e := range n {
			r := make([]float64, 1+rng.IntN(12))
			for i := range r {
				r[i] = offset + scale*rng.NormFloat64()
			}
			batch = append(batch, EpisodeRewards{Group: e / 4, Rewards: r})
		}
		out, stats := Normalize(batch, 0.95)
		var returns []float64
		for _, o := range out {
			returns = append(returns, o.Returns...)
			// The shard's own advantages are what its Stats give.
			for k, g := range o.Returns {
				if !near(o.Advantages[k], stats.Normalize(g), 1e-9) {
					t.Fatalf("advantage %v, from the shard's Stats %v", o.Advantages[k], stats.Normalize(g))
				}
			}
		}
		// What the manifest stores must give the same Stats back.
		b, err := MarshalManifest(&Manifest{Job: "j", Returns: stats})
		if err != nil {
			t.Fatal(err)
		}
		m, err := UnmarshalManifest(b)
		if err != nil {
			t.Fatal(err)
		}
		if m.Returns != stats {
			t.Fatalf("stats changed through the manifest: %+v → %+v", stats, m.Returns)
		}
		return returns, m.Returns
	}
	ra, sa := shard(5, 0.1, 300)
	rb, sb := shard(-1, 2, 170)
	merged := sa.Merge(sb)
	union := append(slices.Clone(ra), rb...)
	if merged.Count != int64(len(union)) {
		t.Fatalf("merged count %d, union %d", merged.Count, len(union))
	}
	mean, std := twoPass(union)
	if !near(merged.Mean(), mean, 1e-12) || !near(merged.Std(), std, 1e-12) {
		t.Fatalf("merged mean/std %v/%v, direct %v/%v", merged.Mean(), merged.Std(), mean, std)
	}
	for i, g := range union {
		want := (g - mean) / (std + 1e-9)
		if got := merged.Normalize(g); !near(got, want, 1e-9) {
			t.Fatalf("return %d: re-normalised %v, direct %v", i, got, want)
		}
	}
	// Merging is order-free and Add agrees with StatsOf.
	if sb.Merge(sa) != merged {
		t.Error("Merge is not symmetric")
	}
	var added Stats
	for _, g := range union {
		added.Add(g)
	}
	if added.Count != merged.Count || !near(added.Sum, merged.Sum, 1e-9) || !near(added.SumSq, merged.SumSq, 1e-7) {
		t.Errorf("Add %+v, StatsOf+Merge %+v", added, merged)
	}
	if (Stats{}).Normalize(3) != 0 || (Stats{}).Mean() != 0 {
		t.Error("empty Stats must normalise to 0")
	}
}

func TestStatsJSON(t *testing.T) {
	b, _ := json.Marshal(Stats{Count: 3, Sum: 1.5, SumSq: 0.1})
	if string(b) != `{"count":3,"sum":1.5,"sum_sq":0.1}` {
		t.Errorf("Stats JSON %s", b)
	}
}

func TestApplyReturns(t *testing.T) {
	turns, eps := sampleBatch(21, 16, 4)
	stats, err := ApplyReturns(turns, eps, 0.9, NormReBN)
	if err != nil {
		t.Fatal(err)
	}
	// Every turn counts, tool turns included.
	tools := 0
	for _, r := range turns {
		if r.ToolName != nil {
			tools++
		}
	}
	if tools == 0 || stats.Count != int64(len(turns)) {
		t.Fatalf("stats count %d, %d turns (%d tool turns)", stats.Count, len(turns), tools)
	}
	byEpisode := map[int32][]TurnRow{}
	for _, r := range turns {
		byEpisode[r.Episode] = append(byEpisode[r.Episode], r)
	}
	var returns []float64
	for _, r := range turns {
		returns = append(returns, r.Return)
	}
	mean, std := twoPass(returns)
	for _, e := range eps {
		rows := byEpisode[e.Episode]
		var rewards []float64
		tools := int32(0)
		for _, r := range rows {
			rewards = append(rewards, r.Reward)
			if r.ToolName != nil {
				tools++
			}
		}
		g := DiscountedReturns(rewards, 0.9)
		total := 0.0
		for i, r := range rows {
			total += r.Reward
			if r.Return != g[i] || r.Gamma != 0.9 || r.NormScheme != NormReBN || !near(r.Advantage, (g[i]-mean)/(std+1e-9), 1e-9) {
				t.Fatalf("episode %d turn %d: return %v (want %v), advantage %v, scheme %q", e.Episode, i, r.Return, g[i], r.Advantage, r.NormScheme)
			}
			if r.AdvantageGroup != e.AdvantageGroup {
				t.Fatalf("episode %d turn %d: advantage_group %v, episode's %v", e.Episode, i, r.AdvantageGroup, e.AdvantageGroup)
			}
		}
		if e.Return != g[0] || e.TotalReward != total || e.NumTurns != int32(len(rows)) || e.NumToolTurns != tools || e.GroupSizeEffective != 4 || e.Gamma != 0.9 {
			t.Fatalf("episode %d: %+v", e.Episode, e)
		}
	}

	// Other schemes.
	for _, scheme := range []string{NormGroup, NormNone} {
		if _, err := ApplyReturns(turns, eps, 0.9, scheme); err != nil {
			t.Fatal(err)
		}
		for _, r := range turns {
			want := r.AdvantageGroup
			if scheme == NormNone {
				want = r.Return
			}
			if r.Advantage != want || r.NormScheme != scheme {
				t.Fatalf("scheme %s: advantage %v, want %v", scheme, r.Advantage, want)
			}
		}
	}
}

func TestApplyReturnsRejects(t *testing.T) {
	cases := map[string]struct {
		mutate func([]TurnRow, []EpisodeRow) ([]TurnRow, []EpisodeRow)
		gamma  float64
		scheme string
		want   string
	}{
		"gamma > 1":      {nil, 1.5, NormReBN, "gamma"},
		"gamma NaN":      {nil, math.NaN(), NormReBN, "gamma"},
		"unknown scheme": {nil, 1, "zscore", "norm scheme"},
		"gap in turns": {func(tr []TurnRow, e []EpisodeRow) ([]TurnRow, []EpisodeRow) {
			for i := range tr {
				if tr[i].Turn == 1 {
					return slices.Delete(tr, i, i+1), e
				}
			}
			panic("no episode with two turns")
		}, 1, NormReBN, "without gaps"},
		"missing episode row": {func(tr []TurnRow, e []EpisodeRow) ([]TurnRow, []EpisodeRow) {
			return tr, e[1:]
		}, 1, NormReBN, "no episode row"},
		"episode without turns": {func(tr []TurnRow, e []EpisodeRow) ([]TurnRow, []EpisodeRow) {
			extra := e[0]
			extra.Episode = 99
			return tr, append(e, extra)
		}, 1, NormReBN, "episodes have turns"},
		"duplicate episode": {func(tr []TurnRow, e []EpisodeRow) ([]TurnRow, []EpisodeRow) {
			return tr, append(e, e[0])
		}, 1, NormReBN, "duplicate"},
		"two batches": {func(tr []TurnRow, e []EpisodeRow) ([]TurnRow, []EpisodeRow) {
			for i := range tr {
				if tr[i].Episode == 1 {
					tr[i].Batch = 7
				}
			}
			e[1].Batch = 7
			return tr, e
		}, 1, NormReBN, "more than one batch"},
	}
	for name, c := range cases {
		turns, eps := sampleBatch(22, 6, 2)
		SortTurns(turns)
		if c.mutate != nil {
			turns, eps = c.mutate(turns, eps)
		}
		_, err := ApplyReturns(turns, eps, c.gamma, c.scheme)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", name, err, c.want)
		}
	}
}
