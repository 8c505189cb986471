package shard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	parquetgo "github.com/parquet-go/parquet-go"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

const (
	benchResponseTokens = 2000
	benchPromptTokens   = 256
	benchTurnsPerEp     = 8
)

var benchWords = strings.Fields(`the of to and a in is it you that he was for on are with as I his they be at one have
this from or had by hot word but what some we can out other were all there when up use your how said an each she
which do their time if will way about many then them write would like so these her long make thing see him two has
\boxed{ } <think> </think> = + - * / ( ) 0 1 2 3 4 5 6 7 8 9 guess lower higher answer step therefore`)

func benchText(rng *rand.Rand, words int) string {
	var b strings.Builder
	for range words {
		b.WriteString(benchWords[rng.IntN(len(benchWords))])
		b.WriteByte(' ')
	}
	return b.String()
}

// benchLog writes the turn log of one batch of endpoint-policy episodes
// (8 linked turns each, every response 2,000 tokens with ids and logprobs
// as served, Zipf-distributed ids over a 152k vocabulary, 256 new prompt
// tokens per turn) and returns the shard input.
func benchLog(b *testing.B, s blob.Store, rows int) shard.Input {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(42, 42))
	zipf := rand.NewZipf(rng, 1.1, 8, 151_935)
	ids := func(k int) []int32 {
		out := make([]int32, k)
		for i := range out {
			out[i] = int32(zipf.Uint64())
		}
		return out
	}
	in := shard.Input{Job: "bench", Batch: 1, Gamma: 1, NormScheme: schema.NormReBN}
	for e := range rows / benchTurnsPerEp {
		ep := shard.Episode{
			Episode: e, Group: e / 8, Sample: e % 8, GroupSize: 8, TaskID: fmt.Sprint("task-", e/8), TaskIndex: int64(e / 8),
			TaskSeed: int64(e / 8), SampleSeed: int64(e), DataSource: "gsm8k", EnvID: "math:GSM8K", EnvVersion: "v1",
			GroundTruth: new(string),
		}
		var prev *schema.TurnRef
		for turn := range benchTurnsPerEp {
			lp := make([]float32, benchResponseTokens)
			for k := range lp {
				lp[k] = -float32(rng.ExpFloat64() * rng.ExpFloat64() * 0.3)
			}
			prompt, _ := json.Marshal([]map[string]string{{"role": "user", "content": benchText(rng, 180)}})
			gen := schema.TurnRecord{
				Phase: schema.PhaseGenerate, Tag: fmt.Sprintf("g%d/%d", e, turn), Job: in.Job, Batch: in.Batch, Episode: e, Turn: turn, Attempt: 1,
				PromptDelta: string(prompt), PromptLen: benchPromptTokens + turn*(benchPromptTokens+benchResponseTokens),
				Action: benchText(rng, 1500), PolicyModel: "Qwen/Qwen3-8B", SamplingParams: `{"temperature":1,"top_p":1,"max_tokens":4096}`,
				TokenSource: schema.TokenSourceServed, PromptTokenIDs: ids(benchPromptTokens), ResponseTokenIDs: ids(benchResponseTokens),
				ResponseLogprobs: lp, ResponseLen: benchResponseTokens, FinishReason: "stop", GenerationMs: 20_000 * rng.Float64(),
			}
			genRef, err := turnlog.PutRecord(ctx, s, &gen)
			if err != nil {
				b.Fatal(err)
			}
			act := schema.TurnRecord{
				Phase: schema.PhaseAct, Tag: fmt.Sprintf("a%d/%d", e, turn), Job: in.Job, Batch: in.Batch, Episode: e, Turn: turn, Attempt: 1,
				ActionTag: gen.Tag, Gen: &genRef, Prev: prev, EnvVersion: "v1", Observation: benchText(rng, 40),
				Reward: float64(rng.IntN(2)), Terminated: turn == benchTurnsPerEp-1, EnvMs: rng.Float64(),
			}
			actRef, err := turnlog.PutRecord(ctx, s, &act)
			if err != nil {
				b.Fatal(err)
			}
			prev = &actRef
		}
		ep.Head = *prev
		in.Episodes = append(in.Episodes, ep)
	}
	return in
}

var benchRows = []int{64, 512}

// BenchmarkWrite measures a whole commit on file:// — read the turn log
// (2 records per turn), build rows, returns and ReBN, write the turns and
// episodes files (zstd) and the manifest, each fsynced and renamed — and,
// on the same turn rows, the baselines: a bare parquet-go write (zstd, to
// memory, no sorting, validation or metadata) and JSON Lines. MB/s counts
// the bytes written: both Parquet files for shard.Write, the file itself
// for the baselines.
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	for _, n := range benchRows {
		s, err := blob.Open(ctx, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		in := benchLog(b, s, n)
		m, err := shard.Write(ctx, s, in)
		if err != nil {
			b.Fatal(err)
		}
		turnsFile, err := shard.ReadFile(ctx, s, in.Job, m.Files[0])
		if err != nil {
			b.Fatal(err)
		}
		rows, err := schema.ReadTurns(bytes.NewReader(turnsFile), int64(len(turnsFile)))
		if err != nil {
			b.Fatal(err)
		}
		epFile, err := shard.ReadFile(ctx, s, in.Job, m.Files[1])
		if err != nil {
			b.Fatal(err)
		}
		eps, err := schema.ReadEpisodes(bytes.NewReader(epFile), int64(len(epFile)))
		if err != nil {
			b.Fatal(err)
		}
		manifest := schema.ShardKeys(in.Job, in.Batch).Manifest

		b.Run(fmt.Sprintf("shard.Write/rows=%d", n), func(b *testing.B) {
			b.SetBytes(m.Files[0].Size + m.Files[1].Size)
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Delete(ctx, manifest); err != nil {
					b.Fatal(err)
				}
				if _, err := shard.Write(ctx, s, in); err != nil {
					b.Fatal(err)
				}
			}
			report(b, n, int(m.Files[0].Size+m.Files[1].Size))
			b.ReportMetric(float64(m.Files[0].Size)/float64(n), "turns_B/row")
		})
		b.Run(fmt.Sprintf("turnlog.ReadEpisode/rows=%d", n), func(b *testing.B) {
			// The turn-log part of shard.Write, one episode after another.
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range in.Episodes {
					if _, err := turnlog.ReadEpisode(ctx, s, e.Head); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
		b.Run(fmt.Sprintf("bare-parquet-go/turns/rows=%d", n), func(b *testing.B) {
			benchBuffer(b, n, func(buf *bytes.Buffer) error { return bareWrite(buf, rows) })
		})
		b.Run(fmt.Sprintf("bare-parquet-go/turns+episodes/rows=%d", n), func(b *testing.B) {
			benchBuffer(b, n, func(buf *bytes.Buffer) error {
				if err := bareWrite(buf, rows); err != nil {
					return err
				}
				return bareWrite(buf, eps)
			})
		})
		b.Run(fmt.Sprintf("jsonl/turns/rows=%d", n), func(b *testing.B) {
			encode := func(buf *bytes.Buffer) error {
				enc := json.NewEncoder(buf)
				for i := range rows {
					if err := enc.Encode(&rows[i]); err != nil {
						return err
					}
				}
				return nil
			}
			var plain bytes.Buffer
			if err := encode(&plain); err != nil {
				b.Fatal(err)
			}
			zw, err := zstd.NewWriter(nil)
			if err != nil {
				b.Fatal(err)
			}
			compressed := zw.EncodeAll(plain.Bytes(), nil)
			benchBuffer(b, n, encode)
			b.ReportMetric(float64(len(compressed))/float64(n), "jsonl.zst_B/row")
		})
	}
}

func bareWrite[T any](buf *bytes.Buffer, rows []T) error {
	w := parquetgo.NewGenericWriter[T](buf, parquetgo.Compression(&parquetgo.Zstd))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	return w.Close()
}

func benchBuffer(b *testing.B, rows int, write func(*bytes.Buffer) error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		b.Fatal(err)
	}
	size := buf.Len()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := write(&buf); err != nil {
			b.Fatal(err)
		}
	}
	report(b, rows, size)
}

// report adds turn rows per second and the bytes written per turn row.
func report(b *testing.B, rows, written int) {
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(written)/float64(rows), "out_B/row")
}
