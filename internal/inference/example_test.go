package inference_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

func ExamplePool_Generate() {
	srv := openaitest.New(openaitest.WithPolicy(func([]openaitest.Message) string { return "My guess is 50" }))
	defer srv.Close()

	pool, err := inference.NewPool(schema.OpenAIPolicy{
		Endpoints:      []string{srv.BaseURL()},
		Model:          openaitest.DefaultModel,
		Sampling:       schema.Sampling{MaxTokens: 64, Logprobs: true},
		ExtraBody:      map[string]any{"return_token_ids": true},
		RequestTimeout: schema.Duration(time.Minute),
		Concurrency:    8,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()

	res, err := pool.Generate(context.Background(), inference.Request{
		Messages: []inference.Message{{Role: "user", Content: "Guess a number between 1 and 100."}},
		Affinity: "job/b00000/g0000", // the group: its samples share a prefix cache
	})
	switch {
	case errors.Is(err, inference.ErrContextLength):
		fmt.Println("truncate the episode:", err)
	case err != nil:
		fmt.Println(err)
	default:
		fmt.Printf("%q %s %s ids=%d logprobs=%d\n", res.Text, res.FinishReason, res.TokenSource(), len(res.ResponseTokenIDs), len(res.Logprobs))
	}
	// Output: "My guess is 50" stop served ids=4 logprobs=4
}
