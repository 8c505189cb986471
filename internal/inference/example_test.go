package inference_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// Token-in/token-out: tokenise the new text where the generations are
// served, send the prompt as ids, and keep the response ids as served.
func ExamplePool_Tokenize() {
	srv := openaitest.New(openaitest.WithCompletionPolicy(func(string) string { return "\\boxed{crane}" }))
	defer srv.Close()

	pool, err := inference.NewPool(schema.OpenAIPolicy{
		Endpoints: []string{srv.BaseURL()},
		Model:     openaitest.DefaultModel,
		Sampling:  schema.Sampling{MaxTokens: 64},
		API:       schema.APICompletions,
		Template:  "qwen3_game",
		Tokens:    schema.TokensExact,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer pool.Close()
	ctx := context.Background()
	rep, err := pool.Preflight(ctx) // refuses an endpoint without /tokenize or token prompts
	if err != nil {
		fmt.Println(err)
		return
	}
	prompt, err := pool.Tokenize(ctx, inference.TokenizeRequest{
		Messages:            []inference.Message{{Role: "user", Content: "Guess the word."}},
		AddGenerationPrompt: true,
		Affinity:            "job/b00000/g0000/e0",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := pool.Generate(ctx, inference.Request{PromptIDs: prompt, Affinity: "job/b00000/g0000/e0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%+v\n%q prompt ids as sent: %v, response ids: %d\n", rep.Capabilities, res.Text,
		slices.Equal(res.PromptTokenIDs, prompt), len(res.ResponseTokenIDs))
	// Output:
	// {Probed:true Completions:true TokenPrompts:true Tokenize:true}
	// "\\boxed{crane}" prompt ids as sent: true, response ids: 6
}
