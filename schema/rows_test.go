package schema

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// sampleBatch builds one batch of rows exercising every column: null and
// empty lists, tool turns, a segmented episode, a token-less episode,
// multi-byte text and negative logprobs. It is deterministic for a seed.
func sampleBatch(seed uint64, episodes, groupSize int) ([]TurnRow, []EpisodeRow) {
	rng := rand.New(rand.NewPCG(seed, 7))
	const job = "job-test"
	var turns []TurnRow
	var eps []EpisodeRow
	for e := range episodes {
		g, s := e/groupSize, e%groupSize
		served := e%5 != 4 // every fifth episode has no token ids
		segmented := served && e%3 == 1
		nTurns := 1 + rng.IntN(4)
		ep := EpisodeRow{
			JobID: job, Batch: 42, Episode: int32(e), Group: int32(g), Sample: int32(s),
			EpisodeID: EpisodeID(job, 42, e), GroupID: GroupID(job, 42, g),
			TaskID: fmt.Sprintf("task-%d", g), TaskIndex: int64(1000 + g),
			DataSource: "game", EnvID: "game:GuessTheNumber-v0-easy", EnvVersion: "v0.3",
			TaskSeed: int64(rng.Uint64()), SampleSeed: -int64(rng.Uint32()),
			PolicyModel: "Qwen/Qwen3-0.6B", PolicyVersion: ptr("step-12"),
			Success: e%2 == 0, Terminated: true, StopReason: StopTerminated,
			GroupSize: int32(groupSize), Retries: int32(e % 3),
			TokenSource: TokenSourceNone,
			GroundTruth: ptr(fmt.Sprint(g * 7)),
		}
		if e%4 == 0 {
			ep.ExtraInfo = ptr(`{"split":"train","π":3.14}`)
		}
		var seq []int32
		var mask []int8
		var lps []float32
		var spans []TurnSpan
		var segs []Segment
		for t := range nTurns {
			tr := TurnRow{
				JobID: job, Batch: 42, Episode: int32(e), Turn: int32(t), Group: int32(g), Sample: int32(s),
				Attempt: int32(1 + (e+t)%2), EpisodeID: ep.EpisodeID, GroupID: ep.GroupID,
				TaskID: ep.TaskID, TaskIndex: ep.TaskIndex, DataSource: ep.DataSource,
				EnvID: ep.EnvID, EnvVersion: ep.EnvVersion, TaskSeed: ep.TaskSeed, SampleSeed: ep.SampleSeed,
				PromptDelta:    fmt.Sprintf(`[{"role":"user","content":"Guess — turn %d ✓"}]`, t),
				Action:         fmt.Sprintf(`<think>hm</think>\boxed{%d}`, rng.IntN(10)),
				Observation:    strings.Repeat("too low. ", 1+t),
				Reward:         math.Round(rng.NormFloat64()*100) / 100,
				Terminated:     t == nTurns-1,
				Truncated:      t == nTurns-1 && e%7 == 3,
				PolicyModel:    ep.PolicyModel,
				PolicyVersion:  ep.PolicyVersion,
				SamplingParams: `{"temperature":1,"top_p":1,"max_tokens":512}`,
				TokenSource:    TokenSourceNone,
				FinishReason:   "stop",
				GenerationMs:   float64(rng.IntN(5000)) / 7,
				EnvMs:          0.125,
				GroundTruth:    ep.GroundTruth,
			}
			if t == 1 {
				tr.ToolName = ptr("python")
				tr.ToolCall = ptr(`{"code":"print(1+1)"}`)
				tr.ToolResult = ptr("2\n")
				tr.ErrorClass = ptr("tool_timeout")
			}
			if t == 0 && e%2 == 1 {
				tr.AgentID = ptr("player_1")
				tr.AgentRole = ptr("solver")
				tr.ExtraInfo = ptr(`{"correct":false}`)
			}
			if served {
				tr.TokenSource = TokenSourceServed
				tr.Segment = 0
				if segmented && t >= 2 {
					tr.Segment = 1
				}
				np, nr := 3+rng.IntN(5), rng.IntN(6) // a zero-length response happens (finish "length" at 0)
				if e == 0 && t == 0 {
					np = 0 // empty prompt delta: an empty list, not null
				}
				tr.PromptTokenIDs = randIDs(rng, np)
				tr.ResponseTokenIDs = randIDs(rng, nr)
				if e%6 != 2 {
					tr.ResponseLogprobs = make([]float32, nr)
					for i := range tr.ResponseLogprobs {
						tr.ResponseLogprobs[i] = -float32(rng.ExpFloat64())
					}
				}
				if segmented && t == 2 { // the template rewrote history: a new segment
					segs = append(segs, Segment{Segment: 0, TokenIDs: seq, LossMask: mask, Logprobs: lps, TurnSpans: spans})
					seq, mask, lps, spans = nil, nil, nil, nil
				}
				tr.PromptLen = int32(len(seq) + np)
				tr.ResponseLen = int32(nr)
				seq = append(seq, tr.PromptTokenIDs...)
				mask = append(mask, make([]int8, np)...)
				start := len(seq)
				seq = append(seq, tr.ResponseTokenIDs...)
				for range nr {
					mask = append(mask, 1)
				}
				if tr.ResponseLogprobs != nil {
					lps = append(lps, make([]float32, np)...)
					lps = append(lps, tr.ResponseLogprobs...)
				}
				spans = append(spans, TurnSpan{Turn: int32(t), Start: int32(start), End: int32(len(seq))})
				ep.PromptTokens += int64(tr.PromptLen)
				ep.ResponseTokens += int64(nr)
			}
			ep.GenerationMs += tr.GenerationMs
			ep.EnvMs += tr.EnvMs
			turns = append(turns, tr)
		}
		ep.Truncated = turns[len(turns)-1].Truncated
		if served {
			ep.TokenSource = TokenSourceServed
			if e%6 == 2 {
				lps = nil
			}
			if segmented && len(segs) > 0 {
				segs = append(segs, Segment{Segment: 1, TokenIDs: seq, LossMask: mask, Logprobs: lps, TurnSpans: spans})
				ep.Segments = segs
				ep.NumSegments = 2
			} else {
				ep.TokenIDs, ep.LossMask, ep.Logprobs, ep.TurnSpans = seq, mask, lps, spans
				ep.NumSegments = 1
			}
		}
		eps = append(eps, ep)
	}
	return turns, eps
}

func randIDs(rng *rand.Rand, n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(rng.IntN(151_936))
	}
	return ids
}

// preparedBatch is sampleBatch with returns applied, ready to write.
func preparedBatch(t testing.TB, seed uint64, episodes, groupSize int) ([]TurnRow, []EpisodeRow) {
	t.Helper()
	turns, eps := sampleBatch(seed, episodes, groupSize)
	if _, err := ApplyReturns(turns, eps, 0.9, NormReBN); err != nil {
		t.Fatal(err)
	}
	return turns, eps
}

func TestSampleBatchIsValid(t *testing.T) {
	turns, eps := preparedBatch(t, 1, 12, 4)
	for i := range turns {
		if err := turns[i].Validate(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range eps {
		if err := eps[i].Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestValidateRejects(t *testing.T) {
	turns, eps := preparedBatch(t, 2, 24, 2)
	var served, segmented int = -1, -1
	for i, e := range eps {
		if e.NumSegments == 1 && served < 0 {
			served = i
		}
		if e.NumSegments == 2 && segmented < 0 {
			segmented = i
		}
	}
	if served < 0 || segmented < 0 {
		t.Fatal("sample batch lacks a served or segmented episode")
	}
	turnCases := map[string]func(*TurnRow){
		"empty job":           func(r *TurnRow) { r.JobID = "" },
		"negative turn":       func(r *TurnRow) { r.Turn = -1 },
		"NaN reward":          func(r *TurnRow) { r.Reward = math.NaN() },
		"infinite advantage":  func(r *TurnRow) { r.Advantage = math.Inf(1) },
		"unknown norm scheme": func(r *TurnRow) { r.NormScheme = "zscore" },
		"prompt not JSON":     func(r *TurnRow) { r.PromptDelta = "hello" },
		"params not JSON":     func(r *TurnRow) { r.SamplingParams = "" },
		"tool call not JSON":  func(r *TurnRow) { r.ToolCall = ptr("{") },
		"unknown token source": func(r *TurnRow) {
			r.TokenSource = "retokenized"
		},
		"none with ids": func(r *TurnRow) {
			r.TokenSource = TokenSourceNone
			r.ResponseTokenIDs = []int32{1}
			r.PromptTokenIDs, r.ResponseLogprobs = nil, nil
		},
		"served without ids": func(r *TurnRow) {
			r.TokenSource = TokenSourceServed
			r.ResponseTokenIDs, r.ResponseLogprobs = nil, nil
		},
		"logprobs misaligned": func(r *TurnRow) {
			r.TokenSource = TokenSourceServed
			r.ResponseTokenIDs = []int32{1, 2}
			r.ResponseLogprobs = []float32{-1}
		},
	}
	for name, mutate := range turnCases {
		r := turns[0]
		mutate(&r)
		if err := r.Validate(); !errors.Is(err, ErrInvalidRow) {
			t.Errorf("turn %s: Validate = %v, want ErrInvalidRow", name, err)
		}
		if err := WriteTurns(new(strings.Builder), []TurnRow{r}); !errors.Is(err, ErrInvalidRow) {
			t.Errorf("turn %s: WriteTurns = %v, want ErrInvalidRow", name, err)
		}
	}
	epCases := map[string]struct {
		i      int
		mutate func(*EpisodeRow)
	}{
		"no turns":              {served, func(r *EpisodeRow) { r.NumTurns = 0 }},
		"group too large":       {served, func(r *EpisodeRow) { r.GroupSizeEffective = r.GroupSize + 1 }},
		"unknown stop":          {served, func(r *EpisodeRow) { r.StopReason = "bored" }},
		"NaN return":            {served, func(r *EpisodeRow) { r.Return = math.NaN() }},
		"mask value 2":          {served, func(r *EpisodeRow) { r.LossMask = append([]int8{2}, r.LossMask[1:]...) }},
		"mask too short":        {served, func(r *EpisodeRow) { r.LossMask = r.LossMask[1:] }},
		"span past end":         {served, func(r *EpisodeRow) { r.TurnSpans = []TurnSpan{{Turn: 0, Start: 0, End: int32(len(r.TokenIDs) + 1)}} }},
		"spans out of order":    {served, func(r *EpisodeRow) { r.TurnSpans = []TurnSpan{{0, 2, 3}, {1, 0, 1}} }},
		"one segment, segments": {served, func(r *EpisodeRow) { r.Segments = []Segment{{}} }},
		"stitched segments":     {segmented, func(r *EpisodeRow) { r.TokenIDs = []int32{1} }},
		"segment count":         {segmented, func(r *EpisodeRow) { r.NumSegments = 3 }},
		"none with sequence":    {served, func(r *EpisodeRow) { r.TokenSource = TokenSourceNone }},
		"extra info not JSON":   {served, func(r *EpisodeRow) { r.ExtraInfo = ptr("x") }},
	}
	for name, c := range epCases {
		r := eps[c.i]
		c.mutate(&r)
		if err := r.Validate(); !errors.Is(err, ErrInvalidRow) {
			t.Errorf("episode %s: Validate = %v, want ErrInvalidRow", name, err)
		}
	}
}

func TestSortAndDuplicates(t *testing.T) {
	rows := []TurnRow{
		{JobID: "b", Batch: 0, Episode: 0, Turn: 0},
		{JobID: "a", Batch: 1, Episode: 0, Turn: 0},
		{JobID: "a", Batch: 0, Episode: 2, Turn: 1},
		{JobID: "a", Batch: 0, Episode: 2, Turn: 0},
		{JobID: "a", Batch: 0, Episode: 10, Turn: 0},
	}
	SortTurns(rows)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s/%d/%d/%d", r.JobID, r.Batch, r.Episode, r.Turn))
	}
	want := "a/0/2/0 a/0/2/1 a/0/10/0 a/1/0/0 b/0/0/0"
	if strings.Join(got, " ") != want {
		t.Errorf("SortTurns: %v, want %s", got, want)
	}
	eps := []EpisodeRow{{JobID: "a", Batch: 1, Episode: 0}, {JobID: "a", Batch: 0, Episode: 3}, {JobID: "a", Batch: 0, Episode: 1}}
	SortEpisodes(eps)
	if eps[0].Episode != 1 || eps[1].Episode != 3 || eps[2].Batch != 1 {
		t.Errorf("SortEpisodes: %+v", eps)
	}

	turns, episodes := preparedBatch(t, 3, 4, 2)
	dup := append([]TurnRow{turns[0]}, turns...)
	dup[0].Attempt = 9
	if err := WriteTurns(new(strings.Builder), dup); !errors.Is(err, ErrInvalidRow) || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("WriteTurns with a duplicate turn: %v", err)
	}
	if err := WriteEpisodes(new(strings.Builder), append(episodes, episodes[1])); !errors.Is(err, ErrInvalidRow) || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("WriteEpisodes with a duplicate episode: %v", err)
	}
}

func TestIDs(t *testing.T) {
	if got := EpisodeID("j", 42, 7); got != "j/b00042/e0007" {
		t.Errorf("EpisodeID = %q", got)
	}
	if got := GroupID("j", 42, 3); got != "j/b00042/g0003" {
		t.Errorf("GroupID = %q", got)
	}
}

// TestAssembleEpisode rebuilds every episode's sequence and totals from its
// turn rows and compares them with the sample batch's, which builds them
// independently (segmented, token-less and logprob-less episodes included).
func TestAssembleEpisode(t *testing.T) {
	turns, eps := preparedBatch(t, 4, 60, 3)
	byEpisode := map[int32][]TurnRow{}
	for _, r := range turns {
		byEpisode[r.Episode] = append(byEpisode[r.Episode], r)
	}
	kinds := map[int32]bool{}
	for _, want := range eps {
		got := want
		got.TokenIDs, got.Segments, got.NumTurns, got.PromptTokens, got.GenerationMs = nil, nil, 0, 0, 0
		if err := AssembleEpisode(&got, byEpisode[want.Episode]); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("episode %d:\n got %+v\nwant %+v", want.Episode, got, want)
		}
		kinds[want.NumSegments] = true
	}
	if !kinds[0] || !kinds[1] || !kinds[2] {
		t.Fatalf("sample batch lacks token-less, one-segment or two-segment episodes: %v", kinds)
	}

	var served []TurnRow
	for _, rows := range byEpisode {
		if len(rows) >= 3 && rows[0].TokenSource == TokenSourceServed && rows[2].Segment == 0 {
			served = rows
			break
		}
	}
	if served == nil {
		t.Fatal("no three-turn single-segment episode")
	}
	cases := map[string]func([]TurnRow){
		"prompt_len off by one": func(r []TurnRow) { r[1].PromptLen++ },
		"prompt drift":          func(r []TurnRow) { r[1].PromptTokenIDs = r[1].PromptTokenIDs[1:] },
		"segment skipped":       func(r []TurnRow) { r[1].Segment, r[2].Segment = 2, 2 },
		"mixed token sources": func(r []TurnRow) {
			r[2].TokenSource, r[2].PromptTokenIDs, r[2].ResponseTokenIDs, r[2].ResponseLogprobs = TokenSourceNone, nil, nil, nil
		},
		"turn gap": func(r []TurnRow) { r[2].Turn = 5 },
	}
	for name, mutate := range cases {
		rows := make([]TurnRow, len(served))
		for i := range served {
			rows[i] = served[i]
			rows[i].PromptTokenIDs = slices.Clone(served[i].PromptTokenIDs)
		}
		mutate(rows)
		var ep EpisodeRow
		if err := AssembleEpisode(&ep, rows); err == nil {
			t.Errorf("%s: AssembleEpisode accepted it", name)
		}
	}
	if err := AssembleEpisode(&EpisodeRow{}, nil); err == nil {
		t.Error("AssembleEpisode accepted an episode without turns")
	}
}
