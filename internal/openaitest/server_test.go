package openaitest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

type wireChoice struct {
	Index   int `json:"index"`
	Message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"message"`
	Logprobs *struct {
		Content []struct {
			Token       string            `json:"token"`
			Logprob     float64           `json:"logprob"`
			Bytes       []int             `json:"bytes"`
			TopLogprobs []json.RawMessage `json:"top_logprobs"`
		} `json:"content"`
	} `json:"logprobs"`
	FinishReason string  `json:"finish_reason"`
	StopReason   *string `json:"stop_reason"`
	TokenIDs     []int32 `json:"token_ids"`
}

type wireResponse struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Model   string       `json:"model"`
	Choices []wireChoice `json:"choices"`
	Usage   struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
	PromptTokenIDs []int32 `json:"prompt_token_ids"`
}

type wireError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    any     `json:"code"`
	} `json:"error"`
}

func post(t *testing.T, c *http.Client, url, key string, body any) (*http.Response, []byte, error) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp, out, err
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

func TestChatCompletionWireFormat(t *testing.T) {
	msgs := []openaitest.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "what is six times seven"}}
	srv := openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string {
		return "it is 42 </answer> trailing words"
	}))
	c := &http.Client{}
	body := map[string]any{
		"model": openaitest.DefaultModel, "messages": msgs, "max_tokens": 50, "logprobs": true, "top_logprobs": 2,
		"return_token_ids": true, "stop": "</answer>",
	}
	resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %v err %v: %s", resp, err, out)
	}
	r := decode[wireResponse](t, out)
	if !strings.HasPrefix(r.ID, "chatcmpl-0-") || r.Object != "chat.completion" || r.Model != openaitest.DefaultModel {
		t.Errorf("id %q object %q model %q", r.ID, r.Object, r.Model)
	}
	ch := r.Choices[0]
	if ch.Message.Content != "it is 42 " || ch.FinishReason != "stop" || ch.StopReason == nil || *ch.StopReason != "</answer>" {
		t.Errorf("choice = %+v", ch)
	}
	if want := openaitest.PromptTokenIDs(msgs); !slices.Equal(r.PromptTokenIDs, want) {
		t.Errorf("prompt_token_ids = %v, want %v", r.PromptTokenIDs, want)
	}
	if want := openaitest.Tokenize("it is 42"); !slices.Equal(ch.TokenIDs, want) {
		t.Errorf("token_ids = %v, want %v", ch.TokenIDs, want)
	}
	if r.Usage.PromptTokens != len(r.PromptTokenIDs) || r.Usage.CompletionTokens != 3 || r.Usage.TotalTokens != r.Usage.PromptTokens+3 {
		t.Errorf("usage = %+v", r.Usage)
	}
	lps := ch.Logprobs.Content
	if len(lps) != 3 {
		t.Fatalf("%d logprobs, want 3", len(lps))
	}
	for i, lp := range lps {
		if lp.Logprob != openaitest.Logprob(ch.TokenIDs[i], i) || lp.Logprob >= 0 || len(lp.TopLogprobs) != 2 || string(rune(lp.Bytes[0])) != lp.Token[:1] {
			t.Errorf("logprob %d = %+v", i, lp)
		}
	}

	// max_tokens truncates (finish_reason length); without return_token_ids
	// the ids are null.
	body = map[string]any{"model": openaitest.DefaultModel, "messages": msgs, "max_tokens": 2}
	_, out, _ = post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	r = decode[wireResponse](t, out)
	if ch := r.Choices[0]; ch.Message.Content != "it is" || ch.FinishReason != "length" || ch.TokenIDs != nil || r.PromptTokenIDs != nil || ch.Logprobs != nil {
		t.Errorf("truncated choice = %+v, prompt ids %v", ch, r.PromptTokenIDs)
	}
	if recs := srv.ChatRecords(); len(recs) != 2 || recs[1].ChatSeq != 1 || recs[1].ResponseID != r.ID {
		t.Errorf("records = %+v", recs)
	}
}

func TestModelsAndErrors(t *testing.T) {
	const key = "sk-openaitest-key-0123456789"
	srv := openaitest.Start(t, openaitest.WithAPIKey(key), openaitest.WithMaxModelLen(20), openaitest.WithModel("m1"))
	c := &http.Client{}

	req, _ := http.NewRequest(http.MethodGet, srv.BaseURL()+"/models", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	models := decode[struct {
		Object string `json:"object"`
		Data   []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
		} `json:"data"`
	}](t, out)
	if models.Object != "list" || len(models.Data) != 1 || models.Data[0].ID != "m1" || models.Data[0].MaxModelLen != 20 {
		t.Errorf("models = %s", out)
	}

	cases := []struct {
		name   string
		key    string
		body   map[string]any
		status int
		typ    string
		msg    string
	}{
		{"no key", "", map[string]any{"model": "m1", "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}, 401, "invalid_request_error", "didn't provide an API key"},
		{"wrong key", "sk-wrong-key-9876543210", map[string]any{"model": "m1", "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}, 401, "invalid_request_error", "sk-***3210"},
		{"unknown model", key, map[string]any{"model": "m2", "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}, 404, "NotFoundError", "The model `m2` does not exist."},
		{"prompt too long", key, map[string]any{"model": "m1", "messages": []openaitest.Message{{Role: "user", Content: strings.Repeat("w ", 30)}}}, 400, "BadRequestError", "maximum context length is 20 tokens. However, your request has 35 input tokens"},
		{"max_tokens too large", key, map[string]any{"model": "m1", "max_tokens": 16, "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}, 400, "BadRequestError", "'max_tokens' or 'max_completion_tokens' is too large: 16. This model's maximum context length is 20 tokens and your request has 6 input tokens"},
		{"streaming", key, map[string]any{"model": "m1", "stream": true, "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}, 400, "BadRequestError", "non-streaming"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", tc.key, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			e := decode[wireError](t, out)
			if resp.StatusCode != tc.status || e.Error.Type != tc.typ || !strings.Contains(e.Error.Message, tc.msg) {
				t.Errorf("got %d %s, want %d %s containing %q", resp.StatusCode, out, tc.status, tc.typ, tc.msg)
			}
			if strings.Contains(string(out), key) || strings.Contains(string(out), "sk-wrong-key-9876543210") {
				t.Errorf("a key is echoed in full: %s", out)
			}
		})
	}
	resp, out, _ = post(t, c, srv.URL+"/chat/completions", key, cases[0].body)
	if resp.StatusCode != 404 || string(out) != `{"detail":"Not Found"}` {
		t.Errorf("unknown route: %d %s", resp.StatusCode, out)
	}
	for _, r := range srv.Records() {
		if got := r.Header.Get("Authorization"); got != "" && got != "Bearer <redacted>" {
			t.Errorf("record %d keeps Authorization %q", r.Seq, got)
		}
	}
	if recs := srv.Records(); !recs[0].Authorized || recs[1].Authorized || recs[2].Authorized || !recs[3].Authorized {
		t.Errorf("authorized flags: %v %v %v %v", recs[0].Authorized, recs[1].Authorized, recs[2].Authorized, recs[3].Authorized)
	}
}

func TestFaults(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(
		openaitest.RateLimit(2*time.Second),
		openaitest.Fault{Kind: openaitest.FaultServerError, Status: 503, RetryAfter: 3 * time.Second, RetryAfterDate: true},
		openaitest.Drop(),
		openaitest.Garbage(),
		openaitest.Slow(5*time.Second),
	))
	body := map[string]any{"model": openaitest.DefaultModel, "messages": []openaitest.Message{{Role: "user", Content: "hi"}}}
	c := &http.Client{}

	resp, _, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("rate limit: %v %v", resp, err)
	}
	resp, _, err = post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != 503 {
		t.Fatalf("server error: %v %v", resp, err)
	}
	if at, err := http.ParseTime(resp.Header.Get("Retry-After")); err != nil || time.Until(at) < time.Second || time.Until(at) > 3*time.Second {
		t.Errorf("Retry-After date %q: %v", resp.Header.Get("Retry-After"), err)
	}
	if _, _, err = post(t, c, srv.BaseURL()+"/chat/completions", "", body); err == nil {
		t.Error("dropped connection: no error")
	}
	resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != 200 || json.Valid(out) {
		t.Errorf("garbage: %v %v %q", resp, err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.BaseURL()+"/chat/completions", bytes.NewReader(b))
	start := time.Now()
	if _, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("slow: %v", err)
	}
	// The slow handler notices the client left and finishes early.
	for srv.InFlight() > 0 && time.Since(start) < 3*time.Second {
		time.Sleep(10 * time.Millisecond)
	}
	if srv.InFlight() != 0 {
		t.Error("the slow handler outlived its client")
	}
	resp, _, err = post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("after the plan: %v %v", resp, err)
	}
	var kinds []openaitest.FaultKind
	for _, r := range srv.ChatRecords() {
		kinds = append(kinds, r.Fault)
	}
	want := []openaitest.FaultKind{"rate_limit", "server_error", "drop", "garbage", "slow", ""}
	if !slices.Equal(kinds, want) {
		t.Errorf("recorded faults %v, want %v", kinds, want)
	}
}

func TestTokenizerIsStable(t *testing.T) {
	// Pinned values: tests elsewhere and stored fixtures recompute them.
	if got := openaitest.Tokenize("hello  world\nhello"); !slices.Equal(got, []int32{openaitest.TokenID("hello"), openaitest.TokenID("world"), openaitest.TokenID("hello")}) {
		t.Errorf("Tokenize = %v", got)
	}
	if id := openaitest.TokenID("hello"); id != 1000+int32(1335831723%100000) {
		t.Errorf("TokenID(hello) = %d", id)
	}
	got := openaitest.PromptTokenIDs([]openaitest.Message{{Role: "user", Content: "hi there"}})
	want := []int32{openaitest.TokenIMStart, openaitest.TokenUser, openaitest.TokenID("hi"), openaitest.TokenID("there"), openaitest.TokenIMEnd, openaitest.TokenIMStart, openaitest.TokenAssistant}
	if !slices.Equal(got, want) {
		t.Errorf("PromptTokenIDs = %v, want %v", got, want)
	}
}

// Bad answers are well-formed HTTP 200s that break one promise each; a
// standing fault holds until cleared; GET /models has its own plan.
func TestAnswerFaults(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.NoChoices(), openaitest.NoTokenIDs(), openaitest.ShortLogprobs()),
		openaitest.WithModelsFaults(openaitest.ServerError()),
		openaitest.WithPolicy(func([]openaitest.Message) string { return "one two three" }))
	body := map[string]any{"model": openaitest.DefaultModel, "messages": []openaitest.Message{{Role: "user", Content: "hi"}},
		"logprobs": true, "return_token_ids": true}
	c := &http.Client{}
	answer := func() wireResponse {
		t.Helper()
		resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%v %v %s", resp, err, out)
		}
		return decode[wireResponse](t, out)
	}
	if r := answer(); len(r.Choices) != 0 {
		t.Errorf("no choices: %d choices", len(r.Choices))
	}
	if r := answer(); r.PromptTokenIDs != nil || r.Choices[0].TokenIDs != nil || r.Choices[0].Logprobs == nil {
		t.Errorf("no token ids: %+v", r)
	}
	if r := answer(); len(r.Choices[0].TokenIDs) != 3 || len(r.Choices[0].Logprobs.Content) != 2 {
		t.Errorf("short logprobs: %d ids, %d logprobs", len(r.Choices[0].TokenIDs), len(r.Choices[0].Logprobs.Content))
	}
	srv.SetFault(openaitest.ModelGone())
	for range 2 {
		if resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body); err != nil || resp.StatusCode != 404 {
			t.Fatalf("model gone: %v %v %s", resp, err, out)
		}
	}
	srv.SetFault(openaitest.Fault{})
	if r := answer(); len(r.Choices[0].TokenIDs) != 3 || len(r.Choices[0].Logprobs.Content) != 3 {
		t.Errorf("after clearing: %+v", r)
	}
	req, _ := http.NewRequest(http.MethodGet, srv.BaseURL()+"/models", nil)
	for _, want := range []int{500, 200} {
		resp, err := c.Do(req)
		if err != nil || resp.StatusCode != want {
			t.Fatalf("GET /models: %v %v, want %d", resp, err, want)
		}
		resp.Body.Close()
	}
}
