package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	parquetgo "github.com/parquet-go/parquet-go"
)

const benchResponseTokens = 2000

var benchWords = strings.Fields(`the of to and a in is it you that he was for on are with as I his they be at one have
this from or had by hot word but what some we can out other were all there when up use your how said an each she
which do their time if will way about many then them write would like so these her long make thing see him two has
look more day could go come did number sound no most people my over know water than call first who may down side
\boxed{ } <think> </think> = + - * / ( ) 0 1 2 3 4 5 6 7 8 9 guess lower higher answer step therefore`)

func benchText(rng *rand.Rand, words int) string {
	var b strings.Builder
	for range words {
		b.WriteString(benchWords[rng.IntN(len(benchWords))])
		b.WriteByte(' ')
	}
	return b.String()
}

// benchTurns builds n turn rows shaped like a reasoning model's turns: a
// 2,000-token response with ids and logprobs as served, a 256-token prompt
// delta, and the matching text. Token ids follow a Zipf law over a 152k
// vocabulary, logprobs are mostly near 0, as real ones are.
func benchTurns(n int) []TurnRow {
	rng := rand.New(rand.NewPCG(42, 42))
	zipf := rand.NewZipf(rng, 1.1, 8, 151_935)
	ids := func(k int) []int32 {
		out := make([]int32, k)
		for i := range out {
			out[i] = int32(zipf.Uint64())
		}
		return out
	}
	rows := make([]TurnRow, n)
	for i := range rows {
		ep, turn := i/8, i%8
		lp := make([]float32, benchResponseTokens)
		for k := range lp {
			lp[k] = -float32(rng.ExpFloat64() * rng.ExpFloat64() * 0.3)
		}
		prompt, _ := json.Marshal([]map[string]string{{"role": "user", "content": benchText(rng, 180)}})
		rows[i] = TurnRow{
			JobID: "bench", Batch: 1, Episode: int32(ep), Turn: int32(turn), Group: int32(ep / 8), Sample: int32(ep % 8), Attempt: 1,
			EpisodeID: EpisodeID("bench", 1, ep), GroupID: GroupID("bench", 1, ep/8), TaskID: fmt.Sprint("task-", ep/8), TaskIndex: int64(ep / 8),
			DataSource: "math", EnvID: "math:GSM8K", EnvVersion: "v1", TaskSeed: int64(rng.Uint64()), SampleSeed: int64(rng.Uint64()),
			PromptDelta: string(prompt), PromptLen: int32(256 + turn*2256),
			Action: benchText(rng, 1500), Observation: benchText(rng, 40),
			Reward: float64(rng.IntN(2)), Terminated: turn == 7, Gamma: 1, Return: 1, Advantage: rng.NormFloat64(),
			AdvantageGroup: rng.NormFloat64(), NormScheme: NormReBN,
			PolicyModel: "Qwen/Qwen3-8B", SamplingParams: `{"temperature":1,"top_p":1,"max_tokens":4096}`,
			TokenSource: TokenSourceServed, PromptTokenIDs: ids(256), ResponseTokenIDs: ids(benchResponseTokens), ResponseLogprobs: lp,
			ResponseLen: benchResponseTokens, FinishReason: "stop", GenerationMs: 20_000 * rng.Float64(), EnvMs: rng.Float64(),
			GroundTruth: ptr("42"),
		}
	}
	return rows
}

var benchSizes = []int{64, 512}

// BenchmarkWriteTurns measures WriteTurns (copy, sort, validate, zstd
// Parquet); MB/s counts the bytes of the file written.
func BenchmarkWriteTurns(b *testing.B) {
	for _, n := range benchSizes {
		rows := benchTurns(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			benchWrite(b, n, func(buf *bytes.Buffer) error { return WriteTurns(buf, rows) })
		})
	}
}

// BenchmarkBareParquetGo is the baseline: parquet-go writing the same rows
// with no sorting, validation or metadata, once with zstd (the overhead of
// WriteTurns is the difference) and once with the library's defaults.
func BenchmarkBareParquetGo(b *testing.B) {
	for _, n := range benchSizes {
		rows := benchTurns(n)
		for name, opts := range map[string][]parquetgo.WriterOption{
			"zstd":    {parquetgo.Compression(&parquetgo.Zstd)},
			"default": nil,
		} {
			b.Run(fmt.Sprintf("%s/rows=%d", name, n), func(b *testing.B) {
				benchWrite(b, n, func(buf *bytes.Buffer) error {
					w := parquetgo.NewGenericWriter[TurnRow](buf, opts...)
					if _, err := w.Write(rows); err != nil {
						return err
					}
					return w.Close()
				})
			})
		}
	}
}

// BenchmarkJSONL encodes the same rows as JSON Lines, what most peers
// export, for size and speed comparison; jsonl.zst_B/row is the size after
// zstd (default level).
func BenchmarkJSONL(b *testing.B) {
	for _, n := range benchSizes {
		rows := benchTurns(n)
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
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
			benchWrite(b, n, encode)
			b.ReportMetric(float64(len(compressed))/float64(n), "jsonl.zst_B/row")
		})
	}
}

func benchWrite(b *testing.B, rows int, write func(*bytes.Buffer) error) {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		b.Fatal(err)
	}
	size := buf.Len()
	b.SetBytes(int64(size))
	b.ReportAllocs()
	iters := 0
	for b.Loop() {
		buf.Reset()
		if err := write(&buf); err != nil {
			b.Fatal(err)
		}
		iters++
	}
	b.ReportMetric(float64(rows*iters)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(size)/float64(rows), "file_B/row")
}
