// Package shardtest writes realistic turn logs for tests of the shard
// writer and of the tools that read its output: a batch of several groups
// of multi-turn episodes — linked records with served token ids (with and
// without logprobs, one split into two segments), bundles of a random
// policy with tool turns, abandoned attempts beside accepted ones, and an
// episode that failed for good — together with the rows a correct writer
// must produce, built independently of package shard.
package shardtest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// Options shape a batch. Zero values take the defaults noted.
type Options struct {
	Job        string  // "job-test"
	Batch      int     // 0
	Groups     int     // 3
	GroupSize  int     // 3
	Seed       uint64  // 1
	Gamma      float64 // used as given (0 is a valid discount)
	NormScheme string  // schema.NormReBN
	// ResponseTokens is the largest response of a served turn (40); each
	// turn's is drawn between half of it and all of it.
	ResponseTokens int
	// Turns is the largest number of turns of an episode (4); each
	// episode's is drawn from 1 to Turns.
	Turns int
	// NoFailure leaves out the failed episode (episode 4).
	NoFailure bool
	// Version1Turns writes the records of turns below it, and every
	// bundle when it is positive, in the version 1 encoding (token arrays
	// as JSON numbers), as a build before the binary arrays wrote them: an
	// episode longer than that is one a worker upgraded mid-episode wrote.
	// The expected rows do not change.
	Version1Turns int
}

func (o Options) withDefaults() Options {
	o.Job = cmp.Or(o.Job, "job-test")
	o.Groups = cmp.Or(o.Groups, 3)
	o.GroupSize = cmp.Or(o.GroupSize, 3)
	o.Seed = cmp.Or(o.Seed, 1)
	o.NormScheme = cmp.Or(o.NormScheme, schema.NormReBN)
	o.ResponseTokens = cmp.Or(o.ResponseTokens, 40)
	o.Turns = cmp.Or(o.Turns, 4)
	return o
}

// Batch is a written turn log and what committing it must give.
type Batch struct {
	Input shard.Input
	// Turns and Episodes are the expected rows, sorted by ids. Return,
	// advantage and advantage_group are computed here in the plain
	// two-pass way, so they match the writer's to rounding (compare them
	// with a tolerance); every other column must match exactly.
	Turns    []schema.TurnRow
	Episodes []schema.EpisodeRow
	Failures []schema.Failure // sorted by episode
	Returns  schema.Stats     // count exact, sums to rounding
}

// Env ids, versions and data sources the batch uses, by group kind.
var envs = []struct{ id, version, source string }{
	{"game:GuessTheNumber-v0-easy", "v0.3", "game"},
	{"game:Mastermind-v0-easy", "v0.2", "game"},
	{"math:GSM8K", "v2", "gsm8k"},
}

// FailedEpisode is the index of the episode that fails for good (unless
// Options.NoFailure).
const FailedEpisode = 4

// Write writes the turn log of a batch to store and returns the batch.
// Group kinds cycle: linked records with served tokens (GuessTheNumber), a
// random policy's bundles with tool turns (Mastermind), linked records with
// served tokens and ground truth (GSM8K).
func Write(ctx context.Context, t testing.TB, store blob.Store, o Options) *Batch {
	t.Helper()
	o = o.withDefaults()
	rng := rand.New(rand.NewPCG(o.Seed, 11))
	b := &Batch{Input: shard.Input{Job: o.Job, Batch: o.Batch, Gamma: o.Gamma, NormScheme: o.NormScheme}}
	w := &writer{ctx: ctx, t: t, store: store, rng: rng, o: o}
	for g := range o.Groups {
		kind := g % 3
		env := envs[kind]
		taskSeed := int64(rng.Uint64())
		var truth *string
		if kind == 2 {
			truth = ptr(fmt.Sprint(17 * (g + 1)))
		}
		for s := range o.GroupSize {
			e := g*o.GroupSize + s
			ep := shard.Episode{
				Episode: e, Group: g, Sample: s, GroupSize: o.GroupSize,
				TaskID: fmt.Sprintf("task-%d-%d", o.Batch, g), TaskIndex: int64(1000*o.Batch + g),
				TaskSeed: taskSeed, SampleSeed: -int64(rng.Uint32()) - int64(s),
				DataSource: env.source, EnvID: env.id, EnvVersion: env.version, GroundTruth: truth,
			}
			if e%2 == 0 {
				ep.ExtraInfo = ptr(fmt.Sprintf(`{"split":"train","π":%d}`, e))
			}
			if e == FailedEpisode && !o.NoFailure {
				// It played a turn before failing; its records stay in the
				// turn log and must never be read.
				w.chain(&ep, 1, false)
				ep.Failure = &shard.Failure{ErrorClass: "EpisodeTimeout", Attempts: 3, Turns: 1, Message: "episode exceeded 30m0s"}
				b.Input.Episodes = append(b.Input.Episodes, ep)
				b.Failures = append(b.Failures, schema.Failure{
					Job: o.Job, Batch: o.Batch, Episode: e, Group: g, Sample: s, EpisodeID: schema.EpisodeID(o.Job, o.Batch, e),
					TaskID: ep.TaskID, TaskIndex: ep.TaskIndex, EnvID: ep.EnvID, EnvVersion: ep.EnvVersion,
					ErrorClass: "EpisodeTimeout", Attempts: 3, Turns: 1, Message: "episode exceeded 30m0s",
				})
				continue
			}
			n := 1 + rng.IntN(o.Turns)
			var rows []schema.TurnRow
			var row schema.EpisodeRow
			if kind == 1 {
				rows, row = w.bundle(&ep, n)
			} else {
				rows, row = w.chain(&ep, n, true)
			}
			b.Input.Episodes = append(b.Input.Episodes, ep)
			b.Turns = append(b.Turns, rows...)
			b.Episodes = append(b.Episodes, row)
		}
	}
	// The workflow lists episodes in any order; the files must not care.
	rng.Shuffle(len(b.Input.Episodes), func(i, j int) {
		b.Input.Episodes[i], b.Input.Episodes[j] = b.Input.Episodes[j], b.Input.Episodes[i]
	})
	b.Returns = expectReturns(b.Turns, b.Episodes, o.Gamma, o.NormScheme)
	return b
}

type writer struct {
	ctx   context.Context
	t     testing.TB
	store blob.Store
	rng   *rand.Rand
	o     Options
}

func (w *writer) put(rec *schema.TurnRecord) schema.TurnRef {
	w.t.Helper()
	if rec.Turn < w.o.Version1Turns {
		data, err := MarshalVersion1(rec)
		if err == nil {
			err = blob.PutBytes(w.ctx, w.store, rec.Key(), data)
		}
		if err != nil {
			w.t.Fatal(err)
		}
		return rec.Ref()
	}
	ref, err := turnlog.PutRecord(w.ctx, w.store, rec)
	if err != nil {
		w.t.Fatal(err)
	}
	return ref
}

func (w *writer) putBundle(b *schema.Bundle) schema.TurnRef {
	w.t.Helper()
	if w.o.Version1Turns <= 0 {
		ref, err := turnlog.PutBundle(w.ctx, w.store, b)
		if err != nil {
			w.t.Fatal(err)
		}
		return ref
	}
	var data []byte
	for i := range b.Records {
		line, err := MarshalVersion1(&b.Records[i])
		if err != nil {
			w.t.Fatal(err)
		}
		data = append(data, line...)
	}
	if err := blob.PutBytes(w.ctx, w.store, b.Key(), data); err != nil {
		w.t.Fatal(err)
	}
	return b.Ref()
}

// MarshalVersion1 encodes rec as a build before the binary token arrays
// did (schema.TurnRecord version 1): one line of JSON with the token
// arrays as JSON numbers under prompt_token_ids, response_token_ids and
// response_logprobs. Keys come in another order than that build's, which
// decoding ignores.
func MarshalVersion1(rec *schema.TurnRecord) ([]byte, error) {
	line, err := schema.MarshalTurnRecord(rec)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, err
	}
	delete(m, "prompt_token_ids_i32le")
	delete(m, "response_token_ids_i32le")
	delete(m, "response_logprobs_f32le")
	m["v"] = json.RawMessage("1")
	for key, v := range map[string]any{
		"prompt_token_ids": rec.PromptTokenIDs, "response_token_ids": rec.ResponseTokenIDs, "response_logprobs": rec.ResponseLogprobs,
	} {
		if m[key], err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	out, err := json.Marshal(m)
	return append(out, '\n'), err
}

func (w *writer) ids(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(w.rng.IntN(151_936))
	}
	return ids
}

// base is the episode row without the columns that follow from its turns.
func (w *writer) base(ep *shard.Episode) schema.EpisodeRow {
	o := w.o
	return schema.EpisodeRow{
		JobID: o.Job, Batch: int32(o.Batch), Episode: int32(ep.Episode), Group: int32(ep.Group), Sample: int32(ep.Sample),
		EpisodeID: schema.EpisodeID(o.Job, o.Batch, ep.Episode), GroupID: schema.GroupID(o.Job, o.Batch, ep.Group),
		TaskID: ep.TaskID, TaskIndex: ep.TaskIndex, DataSource: ep.DataSource, EnvID: ep.EnvID, EnvVersion: ep.EnvVersion,
		TaskSeed: ep.TaskSeed, SampleSeed: ep.SampleSeed, GroupSize: int32(ep.GroupSize),
		GroundTruth: ep.GroundTruth, ExtraInfo: ep.ExtraInfo,
	}
}

func (w *writer) turnBase(ep *shard.Episode, turn int) schema.TurnRow {
	o := w.o
	return schema.TurnRow{
		JobID: o.Job, Batch: int32(o.Batch), Episode: int32(ep.Episode), Turn: int32(turn), Group: int32(ep.Group), Sample: int32(ep.Sample),
		EpisodeID: schema.EpisodeID(o.Job, o.Batch, ep.Episode), GroupID: schema.GroupID(o.Job, o.Batch, ep.Group),
		TaskID: ep.TaskID, TaskIndex: ep.TaskIndex, DataSource: ep.DataSource, EnvID: ep.EnvID, EnvVersion: ep.EnvVersion,
		TaskSeed: ep.TaskSeed, SampleSeed: ep.SampleSeed, GroundTruth: ep.GroundTruth,
	}
}

// chain writes an endpoint-policy episode of n turns as linked records, as
// the Generate and Act activities would, and sets ep.Head. With rows false
// it only writes (the failed episode).
func (w *writer) chain(ep *shard.Episode, n int, rows bool) ([]schema.TurnRow, schema.EpisodeRow) {
	o, rng, e := w.o, w.rng, ep.Episode
	noLogprobs := e%5 == 1
	segmented := e%3 == 2 && n >= 3
	stop := ""
	switch e % 4 {
	case 3:
		stop = schema.StopMaxTurns // the job's cap: the last turn is truncated, not terminal
	case 1:
		stop = schema.StopTruncated // the env's own limit; derived by the writer from the flag
	}
	row := w.base(ep)
	row.PolicyModel, row.PolicyVersion, row.PolicyVersions = "Qwen/Qwen3-0.6B", ptr("step-12"), 1
	row.TokenSource = schema.TokenSourceServed
	var turns []schema.TurnRow
	var seq []int32
	var mask []int8
	var lps []float32
	var spans []schema.TurnSpan
	var segs []schema.Segment
	var prev *schema.TurnRef
	for turn := range n {
		last := turn == n-1
		segment := 0
		if segmented && turn >= 2 {
			segment = 1
		}
		if segmented && turn == 2 { // the template rewrote history: a new segment
			segs = append(segs, schema.Segment{Segment: 0, TokenIDs: seq, LossMask: mask, Logprobs: lps, TurnSpans: spans})
			seq, mask, lps, spans = nil, nil, nil, nil
		}
		np := 3 + rng.IntN(6)
		if turn == 0 && e == 0 {
			np = 0 // an empty prompt delta: an empty list, not null
		}
		nr := o.ResponseTokens/2 + rng.IntN(o.ResponseTokens/2+1)
		gen := schema.TurnRecord{
			Phase: schema.PhaseGenerate, Job: o.Job, Batch: o.Batch, Episode: e, Turn: turn, Attempt: 1,
			Segment: segment, PromptDelta: fmt.Sprintf(`[{"role":"user","content":"Guess — turn %d ✓ <b>&</b>"}]`, turn),
			PromptLen: len(seq) + np, Action: fmt.Sprintf(`<think>%d & more</think>\boxed{%d}`, turn, rng.IntN(100)),
			PolicyModel: "Qwen/Qwen3-0.6B", PolicyVersion: ptr("step-12"),
			SamplingParams: `{"max_tokens":512,"temperature":1}`, TokenSource: schema.TokenSourceServed,
			PromptTokenIDs: w.ids(np), ResponseTokenIDs: w.ids(nr), ResponseLen: nr, FinishReason: "stop",
			GenerationMs: float64(rng.IntN(50_000)) / 7,
		}
		if !noLogprobs {
			gen.ResponseLogprobs = make([]float32, nr)
			for i := range gen.ResponseLogprobs {
				gen.ResponseLogprobs[i] = -float32(rng.ExpFloat64())
			}
		}
		if turn == 1 && e%2 == 0 {
			// Attempt 1 wrote its record and timed out; attempt 2 was accepted.
			zombie := gen
			zombie.Tag = fmt.Sprintf("run/e%d/t%d/gen/1", e, turn)
			zombie.Action = "the abandoned attempt"
			w.put(&zombie)
			gen.Attempt = 2
		}
		gen.Tag = fmt.Sprintf("run/e%d/t%d/gen/%d", e, turn, gen.Attempt)
		if turn == 0 && e%3 == 0 {
			gen.ErrorClass = ptr("format_error")
		}
		genRef := w.put(&gen)

		act := schema.TurnRecord{
			Phase: schema.PhaseAct, Job: o.Job, Batch: o.Batch, Episode: e, Turn: turn, Attempt: 1,
			ActionTag: gen.Tag, Gen: &genRef, Prev: prev, EnvVersion: ep.EnvVersion,
			Observation: fmt.Sprintf("too low — %d", turn), Reward: math.Round(rng.NormFloat64()*100) / 100,
			EnvMs: float64(rng.IntN(1000)) / 8,
		}
		if turn%2 == 1 {
			act.Info = ptr(`{"correct":false}`)
		}
		if last {
			switch stop {
			case "":
				act.Terminated, act.Success = true, e%2 == 0
			default:
				act.Truncated = true
			}
		}
		if turn == 2 {
			zombie := act
			zombie.Tag = fmt.Sprintf("run/e%d/t%d/act/1", e, turn)
			zombie.Reward = 1000
			w.put(&zombie)
			act.Attempt = 2
		}
		act.Tag = fmt.Sprintf("run/e%d/t%d/act/%d", e, turn, act.Attempt)
		actRef := w.put(&act)
		prev = &actRef

		tr := w.turnBase(ep, turn)
		tr.Attempt, tr.Segment = int32(gen.Attempt), int32(segment)
		tr.PromptDelta, tr.PromptLen, tr.Action = gen.PromptDelta, int32(gen.PromptLen), gen.Action
		tr.Observation, tr.Reward, tr.Terminated, tr.Truncated = act.Observation, act.Reward, act.Terminated, act.Truncated
		tr.PolicyModel, tr.PolicyVersion, tr.SamplingParams, tr.TokenSource = gen.PolicyModel, gen.PolicyVersion, gen.SamplingParams, gen.TokenSource
		tr.PromptTokenIDs, tr.ResponseTokenIDs, tr.ResponseLogprobs = gen.PromptTokenIDs, gen.ResponseTokenIDs, gen.ResponseLogprobs
		tr.ResponseLen, tr.FinishReason, tr.GenerationMs, tr.EnvMs = int32(nr), "stop", gen.GenerationMs, act.EnvMs
		tr.ErrorClass, tr.ExtraInfo = gen.ErrorClass, act.Info
		turns = append(turns, tr)

		seq = append(seq, gen.PromptTokenIDs...)
		mask = append(mask, make([]int8, np)...)
		start := len(seq)
		seq = append(seq, gen.ResponseTokenIDs...)
		for range nr {
			mask = append(mask, 1)
		}
		lps = append(lps, make([]float32, np)...)
		lps = append(lps, gen.ResponseLogprobs...)
		spans = append(spans, schema.TurnSpan{Turn: int32(turn), Start: int32(start), End: int32(len(seq))})

		row.Retries += int32(gen.Attempt - 1 + act.Attempt - 1)
		row.PromptTokens += int64(gen.PromptLen)
		row.ResponseTokens += int64(nr)
		row.GenerationMs += gen.GenerationMs
		row.EnvMs += act.EnvMs
		if last {
			row.Success, row.Terminated, row.Truncated = act.Success, act.Terminated, act.Truncated
		}
	}
	ep.Head = *prev
	ep.StopReason = stop
	if stop == "" {
		row.StopReason = schema.StopTerminated
	} else {
		row.StopReason = stop
	}
	if stop == schema.StopTruncated {
		ep.StopReason = "" // the writer derives it from the last turn's flag
	}
	if noLogprobs {
		lps = nil
		for i := range segs {
			segs[i].Logprobs = nil
		}
	}
	if segmented {
		segs = append(segs, schema.Segment{Segment: 1, TokenIDs: seq, LossMask: mask, Logprobs: lps, TurnSpans: spans})
		row.Segments, row.NumSegments = segs, 2
	} else {
		row.TokenIDs, row.LossMask, row.Logprobs, row.TurnSpans, row.NumSegments = seq, mask, lps, spans, 1
	}
	row.NumTurns = int32(n)
	if !rows {
		return nil, schema.EpisodeRow{}
	}
	return turns, row
}

// bundle writes a random-policy episode of n turns as one bundle (after an
// abandoned first attempt's bundle) and sets ep.Head. Turn 1 is a tool call.
func (w *writer) bundle(ep *shard.Episode, n int) ([]schema.TurnRow, schema.EpisodeRow) {
	o, rng, e := w.o, w.rng, ep.Episode
	row := w.base(ep)
	row.PolicyModel, row.TokenSource, row.StopReason, row.Retries = "random", schema.TokenSourceNone, schema.StopTerminated, 1
	tag := fmt.Sprintf("run/e%d/bundle/2", e)
	b := schema.Bundle{Job: o.Job, Batch: o.Batch, Episode: e, Attempt: 2}
	var turns []schema.TurnRow
	for turn := range n {
		last := turn == n-1
		gen := schema.TurnRecord{
			Phase: schema.PhaseGenerate, Tag: tag, Job: o.Job, Batch: o.Batch, Episode: e, Turn: turn, Attempt: 2,
			Action:      fmt.Sprintf("[%d %d %d %d]", rng.IntN(6), rng.IntN(6), rng.IntN(6), rng.IntN(6)),
			PolicyModel: "random", TokenSource: schema.TokenSourceNone, GenerationMs: 0.004,
		}
		if turn == 0 {
			gen.PromptDelta, gen.SamplingParams = `[{"role":"user","content":"Crack the code"}]`, "{}"
		} // later turns leave both empty: the writer fills [] and {}
		act := schema.TurnRecord{
			Phase: schema.PhaseAct, Tag: tag, Job: o.Job, Batch: o.Batch, Episode: e, Turn: turn, Attempt: 2,
			ActionTag: tag, EnvVersion: ep.EnvVersion, Observation: fmt.Sprintf("%d black, %d white", rng.IntN(3), rng.IntN(3)),
			Reward: math.Round(rng.Float64()*10) / 10, Terminated: last, Success: last && e%2 == 1, EnvMs: 0.002,
		}
		if turn == 1 {
			act.ToolName, act.ToolCall, act.ToolResult = ptr("python"), ptr(`{"code":"print(6*7)"}`), ptr("42\n")
			act.ErrorClass = ptr("tool_timeout")
		}
		b.Records = append(b.Records, gen, act)

		tr := w.turnBase(ep, turn)
		tr.Attempt = 2
		tr.PromptDelta, tr.SamplingParams = cmp.Or(gen.PromptDelta, "[]"), cmp.Or(gen.SamplingParams, "{}")
		tr.Action, tr.Observation, tr.Reward, tr.Terminated = gen.Action, act.Observation, act.Reward, act.Terminated
		tr.ToolName, tr.ToolCall, tr.ToolResult, tr.ErrorClass = act.ToolName, act.ToolCall, act.ToolResult, act.ErrorClass
		tr.PolicyModel, tr.TokenSource, tr.GenerationMs, tr.EnvMs = "random", schema.TokenSourceNone, gen.GenerationMs, act.EnvMs
		turns = append(turns, tr)
		row.GenerationMs += gen.GenerationMs
		row.EnvMs += act.EnvMs
		if last {
			row.Success, row.Terminated = act.Success, true
		}
		if act.ToolName != nil {
			row.NumToolTurns++
		}
	}
	zombie := b
	zombie.Attempt = 1
	zombie.Records = nil
	for _, r := range b.Records {
		r.Attempt, r.Tag, r.Reward = 1, "run/zombie", r.Reward+5
		if r.Phase == schema.PhaseAct {
			r.ActionTag = r.Tag
		}
		zombie.Records = append(zombie.Records, r)
	}
	for _, bb := range []*schema.Bundle{&zombie, &b} {
		ep.Head = w.putBundle(bb)
	}
	row.NumTurns = int32(n)
	return turns, row
}

// expectReturns fills return, advantage, advantage_group, gamma,
// norm_scheme, total_reward and group_size_effective the plain way, sorts
// the rows, and returns the batch's return statistics.
func expectReturns(turns []schema.TurnRow, eps []schema.EpisodeRow, gamma float64, scheme string) schema.Stats {
	slices.SortFunc(turns, func(a, b schema.TurnRow) int {
		return cmp.Or(cmp.Compare(a.Episode, b.Episode), cmp.Compare(a.Turn, b.Turn))
	})
	slices.SortFunc(eps, func(a, b schema.EpisodeRow) int { return cmp.Compare(a.Episode, b.Episode) })
	byEpisode := map[int32][]int{}
	for i := range turns {
		byEpisode[turns[i].Episode] = append(byEpisode[turns[i].Episode], i)
	}
	var all []float64
	g0 := map[int32]float64{}
	groups := map[int32][]float64{}
	for _, e := range eps {
		idx := byEpisode[e.Episode]
		g := 0.0
		for k := len(idx) - 1; k >= 0; k-- {
			g = turns[idx[k]].Reward + gamma*g
			turns[idx[k]].Return = g
		}
		for _, i := range idx {
			all = append(all, turns[i].Return)
		}
		g0[e.Episode] = turns[idx[0]].Return
		groups[e.Group] = append(groups[e.Group], turns[idx[0]].Return)
	}
	norm := func(xs []float64, x float64) float64 {
		mean, std := meanStd(xs)
		if std == 0 {
			return 0
		}
		return (x - mean) / (std + schema.NormEpsilon)
	}
	var stats schema.Stats
	for _, x := range all {
		stats.Add(x)
	}
	for i := range eps {
		e := &eps[i]
		e.Gamma, e.Return = gamma, g0[e.Episode]
		e.AdvantageGroup = norm(groups[e.Group], e.Return)
		e.GroupSizeEffective = int32(len(groups[e.Group]))
		e.TotalReward = 0
		for _, k := range byEpisode[e.Episode] {
			t := &turns[k]
			e.TotalReward += t.Reward
			t.Gamma, t.NormScheme, t.AdvantageGroup = gamma, scheme, e.AdvantageGroup
			switch scheme {
			case schema.NormReBN:
				t.Advantage = norm(all, t.Return)
			case schema.NormGroup:
				t.Advantage = e.AdvantageGroup
			default:
				t.Advantage = t.Return
			}
		}
	}
	return stats
}

func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	std = math.Sqrt(std / float64(len(xs)))
	if std < 1e-12*math.Max(1, math.Abs(mean)) {
		std = 0 // a constant population, up to rounding
	}
	return mean, std
}

func ptr[T any](v T) *T { return &v }
