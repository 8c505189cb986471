package inference_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// BenchmarkGenerate measures the client's overhead against the test server
// at zero latency: request encoding, the extra_body merge, HTTP on
// loopback, decoding (twice: go-openai's response and the token ids) and
// routing. Allocations include the server's, which runs in this process.
func BenchmarkGenerate(b *testing.B) {
	words := func(n int) string {
		s := ""
		for i := range n {
			s += fmt.Sprintf("w%d ", i)
		}
		return s
	}
	for _, size := range []struct {
		name   string
		prompt int // words in the user message
		reply  int // words in the reply
	}{{"small", 16, 16}, {"turn", 512, 256}} {
		reply := words(size.reply)
		srv := openaitest.Start(b, openaitest.WithMaxModelLen(1<<20),
			openaitest.WithPolicy(func([]openaitest.Message) string { return reply }))
		p := newPool(b, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
			s.Concurrency = 64
			s.Sampling.Logprobs = true
			s.ExtraBody = map[string]any{"return_token_ids": true, "top_k": 20}
		})
		msgs := chat(words(size.prompt))
		b.Run(size.name+"/serial", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Generate(context.Background(), inference.Request{Messages: msgs, Affinity: "e"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
		b.Run(size.name+"/parallel", func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := p.Generate(context.Background(), inference.Request{Messages: msgs}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
		})
	}
}

// BenchmarkExactTurn measures one token-in/token-out turn against the test
// server at zero latency — a /tokenize of the new observation, then a
// completion with the whole sequence as token ids — next to the same turn
// as one chat completion (BenchmarkGenerate). The BPE runs in the server,
// in this process, so its cost is in the numbers.
func BenchmarkExactTurn(b *testing.B) {
	for _, size := range []struct {
		name   string
		prompt int // words in the observation
		reply  int // words in the reply
	}{{"small", 16, 16}, {"turn", 512, 256}} {
		reply := ""
		for i := range size.reply {
			reply += fmt.Sprintf("w%d ", i)
		}
		srv := openaitest.Start(b, openaitest.WithMaxModelLen(1<<20),
			openaitest.WithCompletionPolicy(func(string) string { return reply }))
		p := newPool(b, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
			s.Concurrency = 64
			s.Sampling.Logprobs = true
		})
		obs := chat("")[1:]
		for i := range size.prompt {
			obs[0].Content += fmt.Sprintf("w%d ", i)
		}
		ctx := context.Background()
		b.Run(size.name+"/serial", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ids, err := p.Tokenize(ctx, inference.TokenizeRequest{Messages: obs, AddGenerationPrompt: true, Affinity: "e"})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Generate(ctx, inference.Request{PromptIDs: ids, Affinity: "e"}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
		})
	}
}
