package inference_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

func ptr[T any](v T) *T { return &v }

// newPool builds a pool over endpoints with fast backoff; edit adjusts the
// spec first.
func newPool(t testing.TB, endpoints []string, edit func(*schema.OpenAIPolicy), opts ...inference.Option) *inference.Pool {
	t.Helper()
	spec := schema.OpenAIPolicy{
		Endpoints:      endpoints,
		Model:          openaitest.DefaultModel,
		RequestTimeout: schema.Duration(5 * time.Second),
		Concurrency:    16,
	}
	if edit != nil {
		edit(&spec)
	}
	opts = append([]inference.Option{inference.WithBackoff(5*time.Millisecond, 50*time.Millisecond)}, opts...)
	p, err := inference.NewPool(spec, opts...)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	t.Cleanup(p.Close)
	return p
}

func chat(content string) []inference.Message {
	return []inference.Message{{Role: "system", Content: "You play a game."}, {Role: "user", Content: content}}
}

func asServer(msgs []inference.Message) []openaitest.Message {
	out := make([]openaitest.Message, len(msgs))
	for i, m := range msgs {
		out[i] = openaitest.Message{Role: m.Role, Content: m.Content}
	}
	return out
}

// closedURL is a loopback base URL nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestExtraBodyMergedIntoRequest(t *testing.T) {
	srv := openaitest.Start(t)
	p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
		s.Sampling = schema.Sampling{Temperature: ptr(0.0), TopP: ptr(0.7), MaxTokens: 64, Stop: []string{"</answer>"}, Logprobs: true}
		s.ExtraBody = map[string]any{
			"return_token_ids":           true,
			"chat_template_kwargs":       map[string]any{"enable_thinking": false},
			"top_k":                      20,
			"min_p":                      0.05,
			"seed":                       7,
			"include_stop_str_in_output": true,
		}
	})
	msgs := []inference.Message{{Role: "user", Content: "guess"}, {Role: "assistant", Content: ""}, {Role: "user", Content: "again"}}
	res, err := p.Generate(context.Background(), inference.Request{Messages: msgs, ExtraBody: map[string]any{"seed": 8}})
	if err != nil {
		t.Fatal(err)
	}
	recs := srv.ChatRecords()
	if len(recs) != 1 {
		t.Fatalf("%d requests, want 1", len(recs))
	}
	body, err := recs[0].JSON()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model":    openaitest.DefaultModel,
		"stream":   false,
		"messages": []any{map[string]any{"role": "user", "content": "guess"}, map[string]any{"role": "assistant", "content": ""}, map[string]any{"role": "user", "content": "again"}},
		// temperature 0 survives (go-openai alone would drop it) and
		// top_p keeps its float64 value (go-openai would send 0.699999988).
		"temperature":                0.0,
		"top_p":                      0.7,
		"max_tokens":                 64.0,
		"stop":                       []any{"</answer>"},
		"logprobs":                   true,
		"return_token_ids":           true,
		"chat_template_kwargs":       map[string]any{"enable_thinking": false},
		"top_k":                      20.0,
		"min_p":                      0.05,
		"seed":                       8.0, // the request's extra_body wins over the spec's
		"include_stop_str_in_output": true,
	}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("server received\n%v\nwant\n%v", body, want)
	}
	var params map[string]any
	if err := json.Unmarshal([]byte(res.SamplingParams), &params); err != nil {
		t.Fatalf("SamplingParams %q: %v", res.SamplingParams, err)
	}
	for _, k := range []string{"model", "messages", "stream"} {
		delete(want, k)
	}
	if !reflect.DeepEqual(params, want) {
		t.Errorf("SamplingParams = %v, want %v", params, want)
	}
}

func TestTokenIDsAndLogprobsAsServed(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string {
		return "my guess is " + fmt.Sprint(len(m)*7) + " final"
	}))
	p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
		s.Sampling = schema.Sampling{Logprobs: true}
		s.ExtraBody = map[string]any{"return_token_ids": true}
	})
	msgs := chat("Guess a number between 1 and 100.")
	res, err := p.Generate(context.Background(), inference.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	rec := srv.ChatRecords()[0]
	var sent struct {
		ID             string  `json:"id"`
		PromptTokenIDs []int32 `json:"prompt_token_ids"`
		Choices        []struct {
			TokenIDs     []int32 `json:"token_ids"`
			FinishReason string  `json:"finish_reason"`
			Message      struct{ Content string }
			Logprobs     struct {
				Content []struct {
					Logprob float64 `json:"logprob"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(rec.Response, &sent); err != nil {
		t.Fatal(err)
	}
	ch := sent.Choices[0]
	if res.Text != "my guess is 14 final" || res.Text != ch.Message.Content || res.FinishReason != "stop" {
		t.Errorf("text %q finish %q", res.Text, res.FinishReason)
	}
	if !slices.Equal(res.PromptTokenIDs, sent.PromptTokenIDs) || !slices.Equal(res.PromptTokenIDs, openaitest.PromptTokenIDs(asServer(msgs))) {
		t.Errorf("prompt ids %v, served %v", res.PromptTokenIDs, sent.PromptTokenIDs)
	}
	if len(res.ResponseTokenIDs) != 5 || !slices.Equal(res.ResponseTokenIDs, ch.TokenIDs) {
		t.Errorf("response ids %v, served %v", res.ResponseTokenIDs, ch.TokenIDs)
	}
	if len(res.Logprobs) != len(ch.Logprobs.Content) {
		t.Fatalf("%d logprobs, served %d", len(res.Logprobs), len(ch.Logprobs.Content))
	}
	for i, lp := range ch.Logprobs.Content {
		if res.Logprobs[i] != float32(lp.Logprob) || lp.Logprob != openaitest.Logprob(ch.TokenIDs[i], i) {
			t.Errorf("logprob %d = %v, served %v", i, res.Logprobs[i], lp.Logprob)
		}
	}
	if res.PromptTokens != sent.Usage.PromptTokens || res.CompletionTokens != 5 || res.ResponseID != sent.ID ||
		res.ResponseID != rec.ResponseID || res.Endpoint != srv.BaseURL() || res.Attempts != 1 || res.Latency <= 0 ||
		res.Model != openaitest.DefaultModel || res.TokenSource() != schema.TokenSourceServed {
		t.Errorf("result = %+v", res)
	}

	// max_tokens cuts the reply: finish_reason length, ids of the cut reply.
	res, err = p.Generate(context.Background(), inference.Request{Messages: msgs, Sampling: &schema.Sampling{MaxTokens: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "my guess" || res.FinishReason != "length" || !slices.Equal(res.ResponseTokenIDs, openaitest.Tokenize("my guess")) || res.Logprobs != nil {
		t.Errorf("truncated: %+v", res)
	}

	// Without return_token_ids there are no ids, and the token source says so.
	plain := newPool(t, []string{srv.BaseURL()}, nil)
	res, err = plain.Generate(context.Background(), inference.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if res.PromptTokenIDs != nil || res.ResponseTokenIDs != nil || res.TokenSource() != schema.TokenSourceNone {
		t.Errorf("unrequested ids: %+v", res)
	}
	if ids := srv.ChatRecords(); len(ids) != 3 || ids[0].ResponseID == ids[1].ResponseID || ids[1].ResponseID == ids[2].ResponseID {
		t.Errorf("response ids are not unique: %q %q %q", ids[0].ResponseID, ids[1].ResponseID, ids[2].ResponseID)
	}
}

func TestTransientFaultsAreRetried(t *testing.T) {
	cases := []struct {
		name  string
		fault openaitest.Fault
	}{
		{"429", openaitest.RateLimit(0)},
		{"500", openaitest.ServerError()},
		{"503", openaitest.Fault{Kind: openaitest.FaultServerError, Status: 503}},
		{"dropped connection", openaitest.Drop()},
		{"garbage body", openaitest.Garbage()},
		{"slower than the timeout", openaitest.Slow(10 * time.Second)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := openaitest.Start(t, openaitest.WithFaults(tc.fault, tc.fault))
			p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
				s.RequestTimeout = schema.Duration(300 * time.Millisecond)
			}, inference.WithRetry(inference.DefaultMaxAttempts, 5*time.Second))
			res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Affinity: "e1"})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			if res.Attempts != 3 || srv.ChatCount() != 3 || res.Text != openaitest.DefaultReply {
				t.Errorf("attempts %d, server saw %d, text %q; want 3, 3, %q", res.Attempts, srv.ChatCount(), res.Text, openaitest.DefaultReply)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	cases := []struct {
		name  string
		fault openaitest.Fault
		min   time.Duration
	}{
		{"seconds", openaitest.RateLimit(time.Second), 950 * time.Millisecond},
		// An HTTP-date has one-second resolution: 2s ahead is at least 1s.
		{"http-date", openaitest.Fault{Kind: openaitest.FaultServerError, Status: 503, RetryAfter: 2 * time.Second, RetryAfterDate: true}, 950 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := openaitest.Start(t, openaitest.WithFaults(tc.fault))
			p := newPool(t, []string{srv.BaseURL()}, nil) // backoff alone would wait ~5ms
			res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
			if err != nil {
				t.Fatal(err)
			}
			recs := srv.ChatRecords()
			if res.Attempts != 2 || len(recs) != 2 {
				t.Fatalf("attempts %d, requests %d", res.Attempts, len(recs))
			}
			if wait := recs[1].Received.Sub(recs[0].Done); wait < tc.min {
				t.Errorf("retried after %v, want at least %v", wait, tc.min)
			}
		})
	}
}

func TestRetriesAreBounded(t *testing.T) {
	t.Run("attempts", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaultFunc(func(int) openaitest.Fault { return openaitest.ServerError() }))
		p := newPool(t, []string{srv.BaseURL()}, nil, inference.WithRetry(3, time.Minute))
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		var e *inference.Error
		if !errors.As(err, &e) || !errors.Is(err, inference.ErrUnavailable) || !inference.Retryable(err) || e.Attempts != 3 || e.Status != 500 {
			t.Fatalf("err = %v (%+v)", err, e)
		}
		if n := srv.ChatCount(); n != 3 {
			t.Errorf("server saw %d requests, want 3", n)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		// A Retry-After beyond the total deadline ends the call at once.
		srv := openaitest.Start(t, openaitest.WithFaults(openaitest.RateLimit(5*time.Second)))
		p := newPool(t, []string{srv.BaseURL()}, nil, inference.WithRetry(10, time.Second))
		start := time.Now()
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		if !errors.Is(err, inference.ErrUnavailable) || time.Since(start) > 900*time.Millisecond || srv.ChatCount() != 1 {
			t.Errorf("err %v after %v and %d requests", err, time.Since(start), srv.ChatCount())
		}
	})
	t.Run("cancel", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithLatency(5*time.Second))
		p := newPool(t, []string{srv.BaseURL()}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err := p.Generate(ctx, inference.Request{Messages: chat("go")})
		if !errors.Is(err, context.Canceled) || errors.Is(err, inference.ErrUnavailable) || time.Since(start) > 2*time.Second {
			t.Errorf("err %v after %v", err, time.Since(start))
		}
	})
}

func TestPermanentErrorsAreTypedAndNotRetried(t *testing.T) {
	const key = "sk-quarry-test-key-0123456789"
	t.Setenv("QUARRY_TEST_RIGHT_KEY", key)
	t.Setenv("QUARRY_TEST_WRONG_KEY", "sk-quarry-wrong-key-987654321")
	cases := []struct {
		name   string
		server []openaitest.Option
		spec   func(*schema.OpenAIPolicy)
		req    inference.Request
		want   error
		status int
	}{
		{
			name:   "prompt beyond the context",
			server: []openaitest.Option{openaitest.WithMaxModelLen(40)},
			req:    inference.Request{Messages: chat(strings.Repeat("word ", 50))},
			want:   inference.ErrContextLength, status: 400,
		},
		{
			name:   "max_tokens beyond the context",
			server: []openaitest.Option{openaitest.WithMaxModelLen(40)},
			spec:   func(s *schema.OpenAIPolicy) { s.Sampling.MaxTokens = 39 },
			req:    inference.Request{Messages: chat("short")},
			want:   inference.ErrContextLength, status: 400,
		},
		{
			name:   "wrong key",
			server: []openaitest.Option{openaitest.WithAPIKey(key)},
			spec:   func(s *schema.OpenAIPolicy) { s.APIKeyEnv = "QUARRY_TEST_WRONG_KEY" },
			req:    inference.Request{Messages: chat("go")},
			want:   inference.ErrAuth, status: 401,
		},
		{
			name:   "no key",
			server: []openaitest.Option{openaitest.WithAPIKey(key)},
			req:    inference.Request{Messages: chat("go")},
			want:   inference.ErrAuth, status: 401,
		},
		{
			name: "model not served",
			spec: func(s *schema.OpenAIPolicy) { s.Model = "no-such-model" },
			req:  inference.Request{Messages: chat("go")},
			want: inference.ErrModelNotFound, status: 404,
		},
		{
			name: "bad request",
			req:  inference.Request{Messages: chat("go"), ExtraBody: map[string]any{"stop": 5}},
			want: inference.ErrBadRequest, status: 400,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.Start(t, tc.server...)
			p := newPool(t, []string{srv.BaseURL()}, tc.spec)
			_, err := p.Generate(context.Background(), tc.req)
			var e *inference.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &e) || e.Status != tc.status || inference.Retryable(err) {
				t.Fatalf("err = %v, want %v with HTTP %d", err, tc.want, tc.status)
			}
			for _, other := range []error{inference.ErrContextLength, inference.ErrAuth, inference.ErrModelNotFound, inference.ErrBadRequest, inference.ErrUnavailable} {
				if other != tc.want && errors.Is(err, other) {
					t.Errorf("err also matches %v", other)
				}
			}
			if n := srv.ChatCount(); n != 1 {
				t.Errorf("server saw %d requests, want 1 (no retry)", n)
			}
			if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "sk-quarry-wrong") {
				t.Errorf("a key leaked into %q", err)
			}
		})
	}

	t.Run("refused before sending", func(t *testing.T) {
		srv := openaitest.Start(t)
		p := newPool(t, []string{srv.BaseURL()}, nil)
		for _, req := range []inference.Request{
			{},
			{Messages: chat("go"), ExtraBody: map[string]any{"messages": []string{}}},
			{Messages: chat("go"), ExtraBody: map[string]any{"n": 4}},
		} {
			if _, err := p.Generate(context.Background(), req); !errors.Is(err, inference.ErrBadRequest) {
				t.Errorf("Generate(%+v) = %v, want ErrBadRequest", req, err)
			}
		}
		if srv.ChatCount() != 0 {
			t.Errorf("server saw %d requests", srv.ChatCount())
		}
	})
	t.Run("refused by go-openai", func(t *testing.T) {
		// go-openai checks OpenAI reasoning models by name (no max_tokens);
		// its refusal is permanent, not a connection failure to retry.
		srv := openaitest.Start(t, openaitest.WithModel("o1-mini"))
		p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Model = "o1-mini"; s.Sampling.MaxTokens = 16 })
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		if !errors.Is(err, inference.ErrBadRequest) || !errors.Is(err, openai.ErrReasoningModelMaxTokensDeprecated) || srv.ChatCount() != 0 {
			t.Errorf("err = %v; server saw %d", err, srv.ChatCount())
		}
	})
	t.Run("unset key variable", func(t *testing.T) {
		_, err := inference.NewPool(schema.OpenAIPolicy{Endpoints: []string{"http://127.0.0.1:1/v1"}, Model: "m", APIKeyEnv: "QUARRY_TEST_UNSET_VARIABLE"})
		if !errors.Is(err, inference.ErrAuth) || !strings.Contains(err.Error(), "QUARRY_TEST_UNSET_VARIABLE") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestAffinity(t *testing.T) {
	var urls []string
	for range 3 {
		urls = append(urls, openaitest.Start(t).BaseURL())
	}
	p := newPool(t, urls, nil)
	ctx := context.Background()
	route := func(p *inference.Pool, key string) string {
		t.Helper()
		res, err := p.Generate(ctx, inference.Request{Messages: chat("go"), Affinity: key})
		if err != nil {
			t.Fatal(err)
		}
		return res.Endpoint
	}

	first := route(p, "job/b00001/g0003")
	for range 5 {
		if got := route(p, "job/b00001/g0003"); got != first {
			t.Fatalf("same key went to %s, then %s", first, got)
		}
	}

	perEndpoint := map[string]int{}
	keys := map[string]string{}
	// Each key picks an endpoint independently (rendezvous hashing), so an
	// endpoint's share is binomial: 600 keys give each about 200 ± 12, and
	// fewer than 120 is a spread that is broken, not unlucky (with random
	// test ports, 60 keys and a bound of 8 failed now and then).
	const n = 600
	for i := range n {
		k := fmt.Sprintf("job/b%05d/g%04d", i/8, i)
		keys[k] = route(p, k)
		perEndpoint[keys[k]]++
	}
	for _, u := range urls {
		if perEndpoint[u] < n/5 {
			t.Errorf("endpoint %s got %d of %d keys: %v", u, perEndpoint[u], n, perEndpoint)
		}
	}

	// Another worker with the endpoints listed in another order routes
	// every key alike.
	other := newPool(t, []string{urls[2], urls[0], urls[1]}, nil)
	for k, ep := range keys {
		if got := route(other, k); got != ep {
			t.Errorf("key %s: %s here, %s on the first pool", k, got, ep)
		}
	}
}

func TestLoadCapSpillsKeys(t *testing.T) {
	a := openaitest.Start(t, openaitest.WithLatency(400*time.Millisecond))
	b := openaitest.Start(t, openaitest.WithLatency(400*time.Millisecond))
	const key = "job/b00000/g0000"
	burst := func(p *inference.Pool) map[string]int {
		var mu sync.Mutex
		got := map[string]int{}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Affinity: key})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got[res.Endpoint]++
				mu.Unlock()
			})
		}
		wg.Wait()
		return got
	}

	// With ε = 0.25 a replica takes at most ⌈1.25·(L+1)/2⌉ of L in flight:
	// 8 requests of one key split 5 (its replica) and 3 (the next).
	capped := newPool(t, []string{a.BaseURL(), b.BaseURL()}, nil, inference.WithLoadFactor(0.25))
	warm, err := capped.Generate(context.Background(), inference.Request{Messages: chat("go"), Affinity: key})
	if err != nil {
		t.Fatal(err)
	}
	primary, secondary := warm.Endpoint, a.BaseURL()
	if primary == secondary {
		secondary = b.BaseURL()
	}
	if got := burst(capped); got[primary] != 5 || got[secondary] != 3 {
		t.Errorf("with the cap: %v, want 5 on %s and 3 on %s", got, primary, secondary)
	}

	// Without a cap worth the name, the key stays on its replica.
	uncapped := newPool(t, []string{a.BaseURL(), b.BaseURL()}, nil, inference.WithLoadFactor(100))
	if got := burst(uncapped); got[primary] != 8 {
		t.Errorf("without the cap: %v, want all 8 on %s", got, primary)
	}
}

func TestRetryMovesToTheNextReplica(t *testing.T) {
	servers := []*openaitest.Server{openaitest.Start(t), openaitest.Start(t)}
	p := newPool(t, []string{servers[0].BaseURL(), servers[1].BaseURL()}, nil)
	const key = "job/b00002/g0001"
	req := inference.Request{Messages: chat("go"), Affinity: key}
	warm, err := p.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	home := servers[0]
	if warm.Endpoint != home.BaseURL() {
		home = servers[1]
	}
	home.Inject(openaitest.ServerError())
	res, err := p.Generate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Attempts != 2 || res.Endpoint == home.BaseURL() {
		t.Errorf("retry: %d attempts on %s, want 2 on the other replica", res.Attempts, res.Endpoint)
	}
	if res, err = p.Generate(context.Background(), req); err != nil || res.Endpoint != home.BaseURL() {
		t.Errorf("after the retry the key went to %s (%v), want its own replica %s", res.Endpoint, err, home.BaseURL())
	}
}

func TestUnreachableReplicaIsEjected(t *testing.T) {
	srv := openaitest.Start(t)
	p := newPool(t, []string{closedURL(t), srv.BaseURL()}, nil)
	attempts := 0
	for i := range 20 {
		res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Affinity: fmt.Sprintf("k%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		attempts += res.Attempts
	}
	// Only the first request routed to the dead replica pays a retry.
	if attempts != 21 || srv.ChatCount() != 20 {
		t.Errorf("%d attempts for 20 requests (server saw %d), want 21", attempts, srv.ChatCount())
	}
}

func TestConcurrencyLimit(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithLatency(100*time.Millisecond))
	p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Concurrency = 3 })
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			if _, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Affinity: fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := srv.MaxInFlight(); got != 3 {
		t.Errorf("server saw %d requests in flight at once, want 3", got)
	}

	// Waiting for a slot gives up with the caller's context.
	slow := openaitest.Start(t, openaitest.WithLatency(time.Second))
	onePool := newPool(t, []string{slow.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Concurrency = 1 })
	wg.Go(func() {
		if _, err := onePool.Generate(context.Background(), inference.Request{Messages: chat("hold")}); err != nil {
			t.Error(err)
		}
	})
	defer wg.Wait()
	for slow.InFlight() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := onePool.Generate(ctx, inference.Request{Messages: chat("wait")})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 500*time.Millisecond || slow.ChatCount() != 1 {
		t.Errorf("err %v after %v; server saw %d", err, time.Since(start), slow.ChatCount())
	}
}

func TestHeartbeatDuringSlowGeneration(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithLatency(400*time.Millisecond))
	p := newPool(t, []string{srv.BaseURL()}, nil, inference.WithHeartbeatInterval(20*time.Millisecond))
	var mu sync.Mutex
	var beats []inference.Progress
	_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Heartbeat: func(pr inference.Progress) {
		mu.Lock()
		beats = append(beats, pr)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	n := len(beats)
	last := beats[n-1]
	mu.Unlock()
	if n < 5 || last.Attempt != 1 || last.Endpoint != srv.BaseURL() || last.Elapsed < 200*time.Millisecond {
		t.Errorf("%d heartbeats, last %+v", n, last)
	}
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(beats) != n {
		t.Errorf("heartbeats went on after Generate returned (%d → %d)", n, len(beats))
	}
}

func TestPreflight(t *testing.T) {
	const key = "sk-quarry-preflight-key-0123456789"
	t.Setenv("QUARRY_TEST_KEY", key)
	t.Setenv("QUARRY_TEST_BAD_KEY", "sk-quarry-bad-key-0123456789")
	withKey := func(env string) func(*schema.OpenAIPolicy) {
		return func(s *schema.OpenAIPolicy) { s.APIKeyEnv = env }
	}

	t.Run("ok", func(t *testing.T) {
		a := openaitest.Start(t, openaitest.WithMaxModelLen(8192), openaitest.WithAPIKey(key))
		b := openaitest.Start(t, openaitest.WithMaxModelLen(4096), openaitest.WithAPIKey(key))
		p := newPool(t, []string{a.BaseURL(), b.BaseURL()}, withKey("QUARRY_TEST_KEY"))
		rep, err := p.Preflight(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rep.MaxModelLen != 4096 || !rep.TokenIDs || len(rep.Endpoints) != 2 {
			t.Fatalf("report %+v", rep)
		}
		in := rep.Endpoints[0]
		if in.Endpoint != a.BaseURL() || in.MaxModelLen != 8192 || !in.TokenIDs || !in.Logprobs || !slices.Equal(in.Models, []string{openaitest.DefaultModel}) {
			t.Errorf("endpoint info %+v", in)
		}
		probe, err := a.ChatRecords()[0].JSON()
		if err != nil {
			t.Fatal(err)
		}
		if probe["return_token_ids"] != true || probe["max_tokens"] != 1.0 || probe["logprobs"] != true {
			t.Errorf("probe body %v", probe)
		}
	})
	t.Run("no token ids", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithoutTokenIDs())
		rep, err := newPool(t, []string{srv.BaseURL()}, nil).Preflight(context.Background())
		if err != nil || rep.TokenIDs || rep.Endpoints[0].TokenIDs || !rep.Endpoints[0].Logprobs || rep.MaxModelLen != openaitest.DefaultMaxModelLen {
			t.Errorf("report %+v, err %v", rep, err)
		}
	})

	srv := openaitest.Start(t, openaitest.WithAPIKey(key), openaitest.WithMaxModelLen(1024))
	dead := closedURL(t)
	cases := []struct {
		name string
		urls []string
		spec func(*schema.OpenAIPolicy)
		want error
		text []string
	}{
		{"unreachable", []string{dead}, withKey("QUARRY_TEST_KEY"), inference.ErrUnavailable, []string{dead, "unreachable", "connection refused"}},
		{"wrong model", []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Model = "Qwen/Qwen3-8B"; s.APIKeyEnv = "QUARRY_TEST_KEY" },
			inference.ErrModelNotFound, []string{`"Qwen/Qwen3-8B" is not served`, "served: " + openaitest.DefaultModel}},
		{"wrong key", []string{srv.BaseURL()}, withKey("QUARRY_TEST_BAD_KEY"), inference.ErrAuth, []string{"HTTP 401", "api_key_env"}},
		{"max_tokens fills the context", []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Sampling.MaxTokens = 1024; s.APIKeyEnv = "QUARRY_TEST_KEY" },
			inference.ErrContextLength, []string{"max_tokens 1024", "1024 tokens"}},
		{"one bad endpoint of two", []string{srv.BaseURL(), dead}, withKey("QUARRY_TEST_KEY"), inference.ErrUnavailable, []string{dead}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newPool(t, tc.urls, tc.spec).Preflight(context.Background())
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			for _, s := range tc.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), "sk-quarry") {
				t.Errorf("a key leaked into %q", err)
			}
		})
	}
}

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	const key = "sk-quarry-SECRET-4f9a2c7e1b"
	t.Setenv("QUARRY_TEST_SECRET", key)
	var logs lockedBuffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	withKey := func(s *schema.OpenAIPolicy) { s.APIKeyEnv = "QUARRY_TEST_SECRET" }
	var errs []error
	ctx := context.Background()

	// Retries (logged at debug) on a server that takes the key.
	good := openaitest.Start(t, openaitest.WithAPIKey(key),
		openaitest.WithFaults(openaitest.ServerError(), openaitest.RateLimit(0), openaitest.Drop(), openaitest.Garbage()))
	p := newPool(t, []string{good.BaseURL()}, withKey, inference.WithLogger(logger))
	if _, err := p.Generate(ctx, inference.Request{Messages: chat("go")}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	// Refusals and give-ups on a server with another key, an always
	// failing one and an unreachable one.
	other := openaitest.Start(t, openaitest.WithAPIKey("sk-quarry-other-key-000000"))
	failing := openaitest.Start(t, openaitest.WithAPIKey(key), openaitest.WithFaultFunc(func(int) openaitest.Fault { return openaitest.ServerError() }))
	for _, urls := range [][]string{{other.BaseURL()}, {failing.BaseURL()}, {closedURL(t)}} {
		p := newPool(t, urls, withKey, inference.WithLogger(logger), inference.WithRetry(2, time.Minute),
			inference.WithPreflightTimeout(300*time.Millisecond)) // the preflight retries 5xx within its budget
		_, err := p.Generate(ctx, inference.Request{Messages: chat("go")})
		errs = append(errs, err)
		_, err = p.Preflight(ctx)
		errs = append(errs, err)
	}
	if strings.Count(logs.String(), "inference: retrying") < 6 {
		t.Fatalf("the scenarios logged too little to check:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), key) {
		t.Errorf("the key is in the logs:\n%s", logs.String())
	}
	for _, err := range errs {
		if err == nil {
			t.Fatal("a failing scenario succeeded")
		}
		if msg := fmt.Sprintf("%v %+v %#v", err, err, err); strings.Contains(msg, key) {
			t.Errorf("the key is in an error: %s", msg)
		}
	}
	logger.Info("pool", "pool", p)
	if s := fmt.Sprintf("%v %+v %#v %s", p, p, p, logs.String()); strings.Contains(s, key) {
		t.Errorf("printing the pool shows the key: %s", s)
	}
	// The server did get it, and its records keep it out.
	for _, r := range good.Records() {
		if !r.Authorized || r.Header.Get("Authorization") != "Bearer <redacted>" || strings.Contains(string(r.Body), key) {
			t.Errorf("record %d: authorized %v, Authorization %q", r.Seq, r.Authorized, r.Header.Get("Authorization"))
		}
	}
}
