package schema

import (
	"fmt"
	"math"
)

// NormEpsilon is added to the standard deviation so a constant population
// normalises to zeros instead of dividing by zero (GEM/Oat use the same).
const NormEpsilon = 1e-9

// DiscountedReturns returns G_t = r_t + γ·G_{t+1} for one episode's per-turn
// rewards (G past the last turn is 0). With γ = 1 it is the reward-to-go.
func DiscountedReturns(rewards []float64, gamma float64) []float64 {
	g := make([]float64, len(rewards))
	next := 0.0
	for t := len(rewards) - 1; t >= 0; t-- {
		next = rewards[t] + gamma*next
		g[t] = next
	}
	return g
}

// Stats are the sufficient statistics of a population of returns: count, ΣG
// and ΣG². The manifest keeps a shard's, so the union of any shards can be
// normalised exactly without reading them: Merge the shards' Stats and
// Normalize each return with the result.
type Stats struct {
	Count int64   `json:"count"`
	Sum   float64 `json:"sum"`
	SumSq float64 `json:"sum_sq"`
}

// StatsOf computes the Stats of xs with compensated (Neumaier) summation, so
// a large batch loses no precision to the order of the additions.
func StatsOf(xs []float64) Stats {
	var sum, c, sq, csq float64
	for _, x := range xs {
		sum, c = neumaier(sum, c, x)
		sq, csq = neumaier(sq, csq, x*x)
	}
	return Stats{Count: int64(len(xs)), Sum: sum + c, SumSq: sq + csq}
}

func neumaier(sum, c, x float64) (float64, float64) {
	t := sum + x
	if math.Abs(sum) >= math.Abs(x) {
		c += (sum - t) + x
	} else {
		c += (x - t) + sum
	}
	return t, c
}

// Add adds one value.
func (s *Stats) Add(x float64) {
	s.Count++
	s.Sum += x
	s.SumSq += x * x
}

// Merge returns the Stats of the union of two populations.
func (s Stats) Merge(o Stats) Stats {
	return Stats{Count: s.Count + o.Count, Sum: s.Sum + o.Sum, SumSq: s.SumSq + o.SumSq}
}

// Mean is the population mean; 0 when empty.
func (s Stats) Mean() float64 {
	if s.Count == 0 {
		return 0
	}
	return s.Sum / float64(s.Count)
}

// Var is the population variance, E[G²] − mean². A variance within the
// rounding error of that difference is taken as exactly 0, so a constant
// population has std 0 rather than a few ulps of noise. The difference loses
// about 2·log10(|mean|/std) of float64's 16 digits: negligible for returns
// (ratios below 1e3 keep 10 digits), which is why sufficient statistics are
// enough to re-normalise a union of shards.
func (s Stats) Var() float64 {
	if s.Count == 0 {
		return 0
	}
	n := float64(s.Count)
	mean := s.Sum / n
	meanSq := s.SumSq / n
	v := meanSq - mean*mean
	if v <= 32*epsilon*meanSq {
		return 0
	}
	return v
}

const epsilon = 0x1p-52 // float64 machine epsilon

// Std is the population standard deviation.
func (s Stats) Std() float64 { return math.Sqrt(s.Var()) }

// Normalize returns (g − mean) / (population std + 1e-9). When the std is 0
// every member equals the mean, so the result is exactly 0: a constant batch
// gives zeros, not NaN or rounding noise.
func (s Stats) Normalize(g float64) float64 {
	std := s.Std()
	if std == 0 {
		return 0
	}
	return (g - s.Mean()) / (std + NormEpsilon)
}

// EpisodeRewards is one episode of a batch as normalisation sees it.
type EpisodeRewards struct {
	Group   int       // group index within the batch
	Rewards []float64 // per-turn rewards in turn order, tool turns included
	// Failed marks a permanently failed episode: it contributes to no
	// statistic and gets no returns or advantages.
	Failed bool
}

// EpisodeAdvantages is the result for one episode; zero for a failed one.
type EpisodeAdvantages struct {
	Returns        []float64 // G_t per turn
	Advantages     []float64 // ReBN per turn
	GroupAdvantage float64   // the episode return G_0 normalised within its group
	GroupSize      int       // non-failed members of the episode's group
}

// Normalize computes, for a batch, every turn's discounted return, its ReBN
// advantage over every turn of every non-failed episode of the batch, and each
// episode's group advantage: its return G_0 normalised over the non-failed
// members of its group. It also returns the batch's return Stats (the
// population ReBN normalised over), which the manifest keeps.
//
// The mean and std used here are computed in two passes over the returns,
// exact to rounding whatever the ratio of mean to std; Stats.Normalize gives
// the same result from the sufficient statistics up to rounding (see Var).
func Normalize(batch []EpisodeRewards, gamma float64) ([]EpisodeAdvantages, Stats) {
	out := make([]EpisodeAdvantages, len(batch))
	var all []float64
	groups := map[int][]float64{}
	for i, ep := range batch {
		if ep.Failed {
			continue
		}
		g := DiscountedReturns(ep.Rewards, gamma)
		out[i].Returns = g
		all = append(all, g...)
		groups[ep.Group] = append(groups[ep.Group], episodeReturn(g))
	}
	batchNorm := normalizerOf(all)
	groupNorm := make(map[int]normalizer, len(groups))
	for k, v := range groups {
		groupNorm[k] = normalizerOf(v)
	}
	for i, ep := range batch {
		if ep.Failed {
			continue
		}
		a := make([]float64, len(out[i].Returns))
		for t, g := range out[i].Returns {
			a[t] = batchNorm.apply(g)
		}
		out[i].Advantages = a
		gn := groupNorm[ep.Group]
		out[i].GroupAdvantage = gn.apply(episodeReturn(out[i].Returns))
		out[i].GroupSize = gn.n
	}
	return out, StatsOf(all)
}

// normalizer holds a population's mean and population std.
type normalizer struct {
	n         int
	mean, std float64
}

// normalizerOf computes mean and std in two passes, the second compensated
// (Σ(x−mean)² corrected by (Σ(x−mean))²/n). A population whose members are
// all equal has std exactly 0.
func normalizerOf(xs []float64) normalizer {
	if len(xs) == 0 {
		return normalizer{}
	}
	n := float64(len(xs))
	var sum, c float64
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		sum, c = neumaier(sum, c, x)
		lo, hi = min(lo, x), max(hi, x)
	}
	mean := (sum + c) / n
	if lo == hi {
		return normalizer{n: len(xs), mean: lo}
	}
	var ss, d float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
		d += x - mean
	}
	return normalizer{n: len(xs), mean: mean, std: math.Sqrt(max(0, (ss-d*d/n)/n))}
}

func (z normalizer) apply(g float64) float64 {
	if z.std == 0 {
		return 0
	}
	return (g - z.mean) / (z.std + NormEpsilon)
}

func episodeReturn(g []float64) float64 {
	if len(g) == 0 {
		return 0
	}
	return g[0]
}

// ApplyReturns fills the derived columns of one batch's rows: per turn
// return, advantage (by scheme), advantage_group, gamma and norm_scheme; per
// episode return, total_reward, advantage_group, gamma, num_turns,
// num_tool_turns and group_size_effective. Rows are the batch's accepted,
// non-failed episodes (failed ones are in _failures/ and never rows), so
// every turn given counts. turns is sorted by ids in place. It returns the
// batch's return Stats for the manifest.
func ApplyReturns(turns []TurnRow, episodes []EpisodeRow, gamma float64, scheme string) (Stats, error) {
	if !(gamma >= 0 && gamma <= 1) {
		return Stats{}, fmt.Errorf("apply returns: gamma %v: want 0 ≤ gamma ≤ 1", gamma)
	}
	if !validNorm(scheme) {
		return Stats{}, fmt.Errorf("apply returns: norm scheme %q: want %s, %s or %s", scheme, NormReBN, NormGroup, NormNone)
	}
	SortTurns(turns)
	type key struct {
		job            string
		batch, episode int32
	}
	index := make(map[key]int, len(episodes))
	for i := range episodes {
		e := &episodes[i]
		k := key{e.JobID, e.Batch, e.Episode}
		if _, dup := index[k]; dup {
			return Stats{}, fmt.Errorf("apply returns: duplicate episode %s", EpisodeID(e.JobID, int(e.Batch), int(e.Episode)))
		}
		index[k] = i
	}
	// Turns are sorted, so each episode's turns are one run.
	type run struct{ ep, start, end int }
	var runs []run
	batch := make([]EpisodeRewards, 0, len(episodes))
	for start := 0; start < len(turns); {
		t0 := &turns[start]
		k := key{t0.JobID, t0.Batch, t0.Episode}
		end := start
		for end < len(turns) && turns[end].JobID == k.job && turns[end].Batch == k.batch && turns[end].Episode == k.episode {
			if turns[end].Turn != int32(end-start) {
				return Stats{}, fmt.Errorf("apply returns: episode %s: turn %d at position %d: turns must be 0, 1, 2, ... without gaps",
					EpisodeID(k.job, int(k.batch), int(k.episode)), turns[end].Turn, end-start)
			}
			end++
		}
		ep, ok := index[k]
		if !ok {
			return Stats{}, fmt.Errorf("apply returns: turns of episode %s have no episode row", EpisodeID(k.job, int(k.batch), int(k.episode)))
		}
		rewards := make([]float64, end-start)
		for i := range rewards {
			rewards[i] = turns[start+i].Reward
		}
		runs = append(runs, run{ep, start, end})
		batch = append(batch, EpisodeRewards{Group: int(episodes[ep].Group), Rewards: rewards})
		start = end
	}
	if len(runs) != len(episodes) {
		return Stats{}, fmt.Errorf("apply returns: %d episode rows but %d episodes have turns", len(episodes), len(runs))
	}
	// Groups are keyed by index within the batch; a shard holds one batch.
	if len(episodes) > 0 {
		first := episodes[0]
		for _, e := range episodes[1:] {
			if e.JobID != first.JobID || e.Batch != first.Batch {
				return Stats{}, fmt.Errorf("apply returns: rows of more than one batch (%s/b%05d and %s/b%05d)", first.JobID, first.Batch, e.JobID, e.Batch)
			}
		}
	}
	adv, stats := Normalize(batch, gamma)
	for i, r := range runs {
		a := adv[i]
		e := &episodes[r.ep]
		e.Gamma = gamma
		e.Return = episodeReturn(a.Returns)
		e.AdvantageGroup = a.GroupAdvantage
		e.GroupSizeEffective = int32(a.GroupSize)
		e.NumTurns = int32(r.end - r.start)
		e.NumToolTurns = 0
		total := 0.0
		for t := r.start; t < r.end; t++ {
			row := &turns[t]
			g := a.Returns[t-r.start]
			total += row.Reward
			if row.ToolName != nil {
				e.NumToolTurns++
			}
			row.Gamma = gamma
			row.Return = g
			row.AdvantageGroup = a.GroupAdvantage
			row.NormScheme = scheme
			switch scheme {
			case NormReBN:
				row.Advantage = a.Advantages[t-r.start]
			case NormGroup:
				row.Advantage = a.GroupAdvantage
			case NormNone:
				row.Advantage = g
			}
		}
		e.TotalReward = total
	}
	return stats, nil
}
