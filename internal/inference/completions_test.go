package inference_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// A completion with a token prompt: the ids sent come back as the prompt
// ids, the response ids are the BPE of the reply, the logprobs are the
// server's for those ids, and the body is vLLM's completions request.
func TestCompletionTokenRoundTrip(t *testing.T) {
	const reply = "I guess \\boxed{crane}."
	srv := openaitest.Start(t, openaitest.WithCompletionPolicy(func(string) string { return reply }))
	p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
		s.Sampling = schema.Sampling{MaxTokens: 64, Stop: []string{"</s>"}, Logprobs: true, Temperature: ptr(0.7)}
	})
	ids := openaitest.EncodeBPE("<|im_start|>user\nGuess a word.<|im_end|>\n<|im_start|>assistant\n")
	res, err := p.Generate(context.Background(), inference.Request{PromptIDs: ids, Affinity: "ep-1"})
	if err != nil {
		t.Fatal(err)
	}
	want := openaitest.EncodeBPE(reply)
	if res.Text != reply || res.FinishReason != "stop" || !slices.Equal(res.PromptTokenIDs, ids) || !slices.Equal(res.ResponseTokenIDs, want) {
		t.Errorf("result %+v; want prompt ids %v, response ids %v", res, ids, want)
	}
	if res.TokenSource() != schema.TokenSourceServed || res.PromptTokens != len(ids) || res.CompletionTokens != len(want) || !strings.HasPrefix(res.ResponseID, "cmpl-") {
		t.Errorf("result %+v", res)
	}
	if len(res.Logprobs) != len(want) {
		t.Fatalf("%d logprobs for %d tokens", len(res.Logprobs), len(want))
	}
	for i, id := range want {
		if res.Logprobs[i] != float32(openaitest.Logprob(id, i)) {
			t.Errorf("logprob %d = %v, want %v", i, res.Logprobs[i], openaitest.Logprob(id, i))
		}
	}
	body, err := srv.RecordsAt("/v1/completions")[0].JSON()
	if err != nil {
		t.Fatal(err)
	}
	if body["max_tokens"] != 64.0 || body["logprobs"] != 1.0 || body["return_token_ids"] != true || body["temperature"] != 0.7 ||
		len(body["prompt"].([]any)) != len(ids) || body["model"] != openaitest.DefaultModel || body["messages"] != nil {
		t.Errorf("request body %v", body)
	}
	if strings.Contains(res.SamplingParams, "prompt") || !strings.Contains(res.SamplingParams, `"max_tokens":64`) {
		t.Errorf("sampling params %s", res.SamplingParams)
	}

	// A text prompt is tokenised by the server.
	res, err = p.Generate(context.Background(), inference.Request{Prompt: "Guess a word.", ExtraBody: map[string]any{"return_token_ids": true}})
	if err != nil || !slices.Equal(res.PromptTokenIDs, openaitest.EncodeBPE("Guess a word.")) || res.Text != reply {
		t.Errorf("text prompt: %+v, %v", res, err)
	}
}

// A bad completions answer is a bad answer, retried like chat's.
func TestCompletionBadAnswersAreRetried(t *testing.T) {
	for _, f := range []openaitest.Fault{openaitest.Garbage(), openaitest.NoChoices(), openaitest.NoTokenIDs(), openaitest.ShortLogprobs()} {
		t.Run(string(f.Kind), func(t *testing.T) {
			t.Parallel()
			srv := openaitest.Start(t, openaitest.WithFaults(f, f), openaitest.WithCompletionPolicy(func(string) string { return "three little words" }))
			p := newPool(t, []string{srv.BaseURL()}, withTokens)
			res, err := p.Generate(context.Background(), inference.Request{PromptIDs: []int32{64, 65}})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if n := len(srv.RecordsAt("/v1/completions")); res.Attempts != 3 || n != 3 || !slices.Equal(res.Faults, []string{inference.FaultBadAnswer, inference.FaultBadAnswer}) {
				t.Errorf("attempts %d, server saw %d, faults %v", res.Attempts, n, res.Faults)
			}
			if len(res.ResponseTokenIDs) != 3 || len(res.Logprobs) != 3 {
				t.Errorf("accepted answer: %d ids, %d logprobs", len(res.ResponseTokenIDs), len(res.Logprobs))
			}
		})
	}
	// Outages are retried too; a refusal is not.
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.ServerError(), openaitest.Drop()))
	res, err := newPool(t, []string{srv.BaseURL()}, nil).Generate(context.Background(), inference.Request{Prompt: "go"})
	if err != nil || !slices.Equal(res.Faults, []string{inference.FaultServerError, inference.FaultConnection}) {
		t.Errorf("outages: %+v, %v", res.Faults, err)
	}
	_, err = newPool(t, []string{srv.BaseURL()}, nil).Generate(context.Background(), inference.Request{PromptIDs: []int32{100256}})
	if !errors.Is(err, inference.ErrBadRequest) || !strings.Contains(err.Error(), "invalid token: 100256") {
		t.Errorf("a bad token id: %v", err)
	}
}

func TestRequestNeedsExactlyOnePrompt(t *testing.T) {
	srv := openaitest.Start(t)
	p := newPool(t, []string{srv.BaseURL()}, nil)
	for _, req := range []inference.Request{
		{},
		{Messages: chat("go"), Prompt: "go"},
		{Prompt: "go", PromptIDs: []int32{1}},
		{PromptIDs: []int32{}},
	} {
		if _, err := p.Generate(context.Background(), req); !errors.Is(err, inference.ErrBadRequest) {
			t.Errorf("%+v: err %v, want ErrBadRequest", req, err)
		}
	}
	if n := len(srv.Records()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// Tokenize by text and by messages (the server's chat template, with
// extra_body's chat_template_kwargs), routed like the generations of the
// same affinity key.
func TestTokenize(t *testing.T) {
	a, b := openaitest.Start(t), openaitest.Start(t)
	p := newPool(t, []string{a.BaseURL(), b.BaseURL()}, func(s *schema.OpenAIPolicy) {
		s.ExtraBody = map[string]any{"chat_template_kwargs": map[string]any{"enable_thinking": false}, "top_k": 20}
	})
	ctx := context.Background()
	ids, err := p.Tokenize(ctx, inference.TokenizeRequest{Text: "Hello, world", Affinity: "episode-7"})
	if err != nil || !slices.Equal(ids, openaitest.EncodeBPE("Hello, world")) {
		t.Fatalf("text: %v, %v", ids, err)
	}
	msgs := chat("Your move.")
	ids, err = p.Tokenize(ctx, inference.TokenizeRequest{Messages: msgs, AddGenerationPrompt: true, Affinity: "episode-7"})
	want := openaitest.EncodeBPE(openaitest.ChatTemplate(asServer(msgs), true, false))
	if err != nil || !slices.Equal(ids, want) {
		t.Fatalf("messages: %v, %v; want %v", ids, err, want)
	}
	if _, err := p.Generate(ctx, inference.Request{Prompt: "go", Affinity: "episode-7"}); err != nil {
		t.Fatal(err)
	}
	// The same replica tokenised and generated.
	var used *openaitest.Server
	for _, srv := range []*openaitest.Server{a, b} {
		if len(srv.RecordsAt("/tokenize")) > 0 {
			used = srv
		}
	}
	if used == nil || len(used.RecordsAt("/tokenize")) != 2 || len(used.RecordsAt("/v1/completions")) != 1 {
		t.Fatalf("routing: a %d/%d, b %d/%d", len(a.RecordsAt("/tokenize")), len(a.RecordsAt("/v1/completions")), len(b.RecordsAt("/tokenize")), len(b.RecordsAt("/v1/completions")))
	}
	body, _ := used.RecordsAt("/tokenize")[1].JSON()
	kw, _ := body["chat_template_kwargs"].(map[string]any)
	if body["add_generation_prompt"] != true || kw["enable_thinking"] != false || body["top_k"] != nil || body["prompt"] != nil {
		t.Errorf("tokenize body %v", body)
	}
	if _, err := p.Tokenize(ctx, inference.TokenizeRequest{Text: "a", Messages: msgs}); !errors.Is(err, inference.ErrBadRequest) {
		t.Errorf("text and messages: %v", err)
	}
}

// Tokenize retries outages and bad answers, with heartbeats; a server
// without /tokenize is ErrUnsupported at once.
func TestTokenizeFaults(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.RateLimit(0), openaitest.Garbage()))
	var mu sync.Mutex
	var beats []inference.Progress
	hb := func(pr inference.Progress) { mu.Lock(); beats = append(beats, pr); mu.Unlock() }
	ids, err := newPool(t, []string{srv.BaseURL()}, nil).Tokenize(context.Background(), inference.TokenizeRequest{Text: "abc", Heartbeat: hb})
	if err != nil || !slices.Equal(ids, openaitest.EncodeBPE("abc")) || len(srv.RecordsAt("/tokenize")) != 3 {
		t.Fatalf("ids %v, err %v, %d requests", ids, err, len(srv.RecordsAt("/tokenize")))
	}
	mu.Lock()
	if len(beats) < 2 || !slices.Equal(beats[len(beats)-1].Faults, []string{inference.FaultRateLimited, inference.FaultBadAnswer}) {
		t.Errorf("heartbeats %+v", beats)
	}
	mu.Unlock()

	old := openaitest.Start(t, openaitest.WithoutTokenize(), openaitest.WithoutCompletions())
	p := newPool(t, []string{old.BaseURL()}, nil)
	_, err = p.Tokenize(context.Background(), inference.TokenizeRequest{Text: "abc"})
	if !errors.Is(err, inference.ErrUnsupported) || !strings.Contains(err.Error(), "does not serve POST /tokenize") || len(old.RecordsAt("/tokenize")) != 1 {
		t.Errorf("no /tokenize: %v", err)
	}
	_, err = p.Generate(context.Background(), inference.Request{Prompt: "abc"})
	if !errors.Is(err, inference.ErrUnsupported) || !strings.Contains(err.Error(), "does not serve POST /v1/completions") {
		t.Errorf("no /v1/completions: %v", err)
	}
}

func TestPreflightCapabilities(t *testing.T) {
	exact := func(s *schema.OpenAIPolicy) { s.Tokens = schema.TokensExact }
	completions := func(s *schema.OpenAIPolicy) { s.API, s.Template = schema.APICompletions, "qwen3_game" }
	ctx := context.Background()

	t.Run("a vLLM-like server serves everything", func(t *testing.T) {
		srv := openaitest.Start(t)
		rep, err := newPool(t, []string{srv.BaseURL()}, exact).Preflight(ctx)
		want := inference.Capabilities{Probed: true, Completions: true, TokenPrompts: true, Tokenize: true}
		if err != nil || rep.Capabilities != want || rep.Endpoints[0].Capabilities != want || !rep.TokenIDs {
			t.Fatalf("report %+v, err %v", rep, err)
		}
		probe, _ := srv.RecordsAt("/v1/completions")[1].JSON()
		if ids, _ := probe["prompt"].([]any); len(ids) != len(openaitest.EncodeBPE("a")) || probe["max_tokens"] != 1.0 {
			t.Errorf("token probe %v", probe)
		}
	})
	t.Run("api completions probes with a completion, not a chat", func(t *testing.T) {
		srv := openaitest.Start(t)
		rep, err := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { completions(s); withTokens(s) }).Preflight(ctx)
		if err != nil || !rep.Capabilities.Completions || !rep.TokenIDs || !rep.Endpoints[0].Logprobs || srv.ChatCount() != 0 {
			t.Fatalf("report %+v, err %v, %d chat probes", rep, err, srv.ChatCount())
		}
	})
	t.Run("a chat spec probes nothing more", func(t *testing.T) {
		srv := openaitest.Start(t)
		rep, err := newPool(t, []string{srv.BaseURL()}, nil).Preflight(ctx)
		if err != nil || rep.Capabilities.Probed || len(srv.RecordsAt("/tokenize")) != 0 || len(srv.RecordsAt("/v1/completions")) != 0 {
			t.Fatalf("report %+v, err %v", rep, err)
		}
		rep, err = newPool(t, []string{srv.BaseURL()}, nil, inference.WithCapabilityProbes()).Preflight(ctx)
		if err != nil || !rep.Capabilities.Probed || !rep.Capabilities.Tokenize {
			t.Fatalf("with probes: %+v, %v", rep, err)
		}
	})
	t.Run("an older server", func(t *testing.T) {
		old := openaitest.Start(t, openaitest.WithoutCompletions(), openaitest.WithoutTokenize())
		_, err := newPool(t, []string{old.BaseURL()}, exact).Preflight(ctx)
		if !errors.Is(err, inference.ErrUnsupported) || !strings.Contains(err.Error(), old.BaseURL()) ||
			!strings.Contains(err.Error(), "policy.openai.tokens: exact needs /v1/completions to take a prompt of token ids") ||
			!strings.Contains(err.Error(), "policy.openai.tokens: exact needs POST /tokenize") {
			t.Errorf("exact on an older server: %v", err)
		}
		_, err = newPool(t, []string{old.BaseURL()}, completions).Preflight(ctx)
		if !errors.Is(err, inference.ErrUnsupported) || !strings.Contains(err.Error(), "policy.openai.api: completions needs POST /v1/completions") {
			t.Errorf("completions on an older server: %v", err)
		}
		rep, err := newPool(t, []string{old.BaseURL()}, nil, inference.WithCapabilityProbes()).Preflight(ctx)
		if err != nil || rep.Capabilities != (inference.Capabilities{Probed: true}) {
			t.Errorf("a chat spec on an older server: %+v, %v", rep, err)
		}
	})
	t.Run("text prompts only", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithoutTokenPrompts())
		_, err := newPool(t, []string{srv.BaseURL()}, exact).Preflight(ctx)
		if !errors.Is(err, inference.ErrUnsupported) || !strings.Contains(err.Error(), "prompt of token ids") || strings.Contains(err.Error(), "/tokenize") {
			t.Errorf("exact on a text-only server: %v", err)
		}
		rep, err := newPool(t, []string{srv.BaseURL()}, completions).Preflight(ctx)
		if err != nil || rep.Capabilities != (inference.Capabilities{Probed: true, Completions: true, Tokenize: true}) {
			t.Errorf("completions on a text-only server: %+v, %v", rep, err)
		}
	})
	t.Run("transient faults on a probe are retried", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaults(openaitest.ServerError(), openaitest.Garbage()))
		rep, err := newPool(t, []string{srv.BaseURL()}, exact).Preflight(ctx)
		if err != nil || !rep.Capabilities.TokenPrompts || len(srv.RecordsAt("/tokenize")) != 3 {
			t.Errorf("report %+v, err %v, %d tokenize probes", rep, err, len(srv.RecordsAt("/tokenize")))
		}
	})
}

func TestRequireNamesTheField(t *testing.T) {
	none := inference.Capabilities{Probed: true}
	spec := schema.OpenAIPolicy{API: schema.APICompletions, Tokens: schema.TokensExact}
	err := none.Require(spec, "http://gpu-3:8000/v1")
	for _, s := range []string{
		"inference http://gpu-3:8000/v1: endpoint lacks what the spec needs: ",
		"policy.openai.api: completions needs POST /v1/completions, which this endpoint does not serve",
		"policy.openai.tokens: exact needs /v1/completions to take a prompt of token ids and return the response's token ids",
		"policy.openai.tokens: exact needs POST /tokenize at the server's root",
	} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Errorf("%v does not say %q", err, s)
		}
	}
	all := inference.Capabilities{Probed: true, Completions: true, TokenPrompts: true, Tokenize: true}
	if err := all.Require(spec, "x"); err != nil {
		t.Errorf("everything served: %v", err)
	}
	if err := (inference.Capabilities{}).Require(spec, "x"); err != nil {
		t.Errorf("not probed: %v", err)
	}
	if err := none.Require(schema.OpenAIPolicy{}, "x"); err != nil {
		t.Errorf("a chat spec: %v", err)
	}
}

func pngDataURL(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// Image parts reach the server as OpenAI content parts, in chat and in
// tokenize; a bad data URL is the server's 400, a refusal.
func TestImageParts(t *testing.T) {
	var seen []openaitest.Message
	srv := openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string { seen = m; return "a square" }))
	p := newPool(t, []string{srv.BaseURL()}, withTokens)
	url := pngDataURL(t)
	msgs := []inference.Message{{Role: "user", Parts: []inference.ContentPart{
		{Type: inference.PartText, Text: "Find the angle. "},
		{Type: inference.PartImage, ImageURL: url},
	}}}
	res, err := p.Generate(context.Background(), inference.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0].Content != "Find the angle. " || seen[0].Images() != 1 || seen[0].Parts[1].ImageURL.URL != url {
		t.Fatalf("server saw %+v", seen)
	}
	if !slices.Equal(res.PromptTokenIDs, openaitest.PromptTokenIDs(seen)) || res.Text != "a square" {
		t.Errorf("result %+v", res)
	}
	ids, err := p.Tokenize(context.Background(), inference.TokenizeRequest{Messages: msgs, AddGenerationPrompt: true})
	if err != nil || !slices.Equal(ids, openaitest.EncodeBPE(openaitest.ChatTemplate(seen, true, false))) || !slices.Contains(ids, openaitest.BPEImagePad) {
		t.Errorf("tokenize: %v, %v", ids, err)
	}

	msgs[0].Parts[1].ImageURL = "data:image/png;base64,bm90IGEgcG5n"
	_, err = p.Generate(context.Background(), inference.Request{Messages: msgs})
	if !errors.Is(err, inference.ErrBadRequest) || !strings.Contains(err.Error(), "messages[0].content[1].image_url.url") {
		t.Errorf("a bad image: %v", err)
	}
	msgs[0].Parts[1] = inference.ContentPart{Type: "audio"}
	if _, err := p.Generate(context.Background(), inference.Request{Messages: msgs}); !errors.Is(err, inference.ErrBadRequest) || !strings.Contains(err.Error(), `messages[0].parts[1]: type "audio"`) {
		t.Errorf("an unknown part: %v", err)
	}
}
