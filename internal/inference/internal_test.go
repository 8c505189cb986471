package inference

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"3":   3 * time.Second,
		" 1 ": time.Second,
		"0.5": 500 * time.Millisecond,
		now.Add(5 * time.Second).Format(http.TimeFormat):  5 * time.Second,
		"Monday, 30-Nov-26 12:00:07 GMT":                  7 * time.Second, // RFC 850, still a valid HTTP-date
		now.Add(-5 * time.Second).Format(http.TimeFormat): 0,
		"":         0,
		"0":        0,
		"-2":       0,
		"NaN":      0,
		"Inf":      0,
		"tomorrow": 0,
		"99999999": 0,
	}
	for in, want := range cases {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestClassifyStatus(t *testing.T) {
	const key = "sk-internal-test-key-123456"
	now := time.Now()
	cases := []struct {
		name    string
		status  int
		header  http.Header
		body    string
		want    error
		message string
		retry   time.Duration
	}{
		{"vLLM ≥0.10 prompt too long", 400, nil,
			`{"error":{"message":"This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages.","type":"BadRequestError","param":null,"code":400}}`,
			ErrContextLength, "maximum context length is 4096", 0},
		{"vLLM max_tokens too large", 400, nil,
			`{"error":{"message":"'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778). None","type":"BadRequestError","param":null,"code":400}}`,
			ErrContextLength, "too large: 8000", 0},
		{"older vLLM, top-level error", 400, nil,
			`{"object":"error","message":"The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure that max_model_len is no smaller than the number of text tokens.","type":"BadRequestError","param":null,"code":400}`,
			ErrContextLength, "decoder prompt", 0},
		{"SGLang", 400, nil,
			`{"object":"error","message":"The input (5000 tokens) is longer than the model's context length (4096 tokens).","type":"BadRequestError","param":null,"code":400}`,
			ErrContextLength, "input (5000 tokens)", 0},
		{"OpenAI code", 400, nil,
			`{"error":{"message":"Your messages resulted in too many tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			ErrContextLength, "too many tokens", 0},
		{"the phrase in a 5xx stays transient", 500, nil,
			`{"error":{"message":"worker crashed while checking the maximum context length","type":"InternalServerError","code":500}}`,
			ErrUnavailable, "worker crashed", 0},
		{"OpenAI wrong key", 401, nil,
			`{"error":{"message":"Incorrect API key provided: sk-in***3456.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			ErrAuth, "api_key_env", 0},
		{"vLLM --api-key middleware", 401, nil, `{"error":"Unauthorized"}`, ErrAuth, "api_key_env", 0},
		{"forbidden", 403, nil, `{"error":{"message":"Project does not have access to model","type":"invalid_request_error"}}`, ErrAuth, "api_key_env", 0},
		{"vLLM unknown model", 404, nil,
			`{"error":{"message":"The model ` + "`x`" + ` does not exist.","type":"NotFoundError","param":"model","code":404}}`,
			ErrModelNotFound, "does not exist", 0},
		{"FastAPI unknown route", 404, nil, `{"detail":"Not Found"}`, ErrModelNotFound, "base URL ends in /v1", 0},
		{"unknown model as 400", 400, nil, `{"error":{"message":"model x not found","type":"NotFoundError","code":400}}`, ErrModelNotFound, "not found", 0},
		{"OpenAI model_not_found", 400, nil, `{"error":{"message":"no such model","type":"invalid_request_error","code":"model_not_found"}}`, ErrModelNotFound, "no such model", 0},
		{"other 400", 400, nil, `{"error":{"message":"top_k must be -1 or at least 1, got 0.","type":"BadRequestError","param":"top_k","code":400}}`, ErrBadRequest, "top_k", 0},
		{"422", 422, nil, `{"detail":[{"loc":["body","temperature"],"msg":"Input should be a valid number"}]}`, ErrBadRequest, "valid number", 0},
		{"429 with Retry-After", 429, http.Header{"Retry-After": {"2"}}, `{"error":{"message":"slow down","type":"RateLimitError","code":429}}`, ErrUnavailable, "slow down", 2 * time.Second},
		{"503 not JSON", 503, nil, "upstream connect error", ErrUnavailable, "upstream connect error", 0},
		{"408", 408, nil, "", ErrUnavailable, "", 0},
		{"the key echoed in a message", 400, nil, `{"error":{"message":"bad header Bearer ` + key + `","type":"BadRequestError","code":400}}`, ErrBadRequest, "Bearer <redacted>", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.header
			if h == nil {
				h = http.Header{}
			}
			e := classifyStatus("http://x/v1", tc.status, h, []byte(tc.body), key, now)
			if !errors.Is(e, tc.want) || e.Status != tc.status || !strings.Contains(e.Error(), tc.message) || e.RetryAfter != tc.retry {
				t.Errorf("got %v (kind %v, retry %v), want %v containing %q, retry %v", e, e.Kind, e.RetryAfter, tc.want, tc.message, tc.retry)
			}
			if strings.Contains(fmt.Sprintf("%v %+v", e, e), key) {
				t.Errorf("the key is in %v", e)
			}
		})
	}
}

func TestMergeBody(t *testing.T) {
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":false,"temperature":0.5,"max_tokens":16}`)
	extra := map[string]json.RawMessage{
		"temperature":      json.RawMessage(`0`),
		"return_token_ids": json.RawMessage(`true`),
		"odd \"key\"\n":    json.RawMessage(`{"a":[1,2]}`),
	}
	merged, params, err := mergeBody(body, extra)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"max_tokens":16,"messages":[{"role":"user","content":"hi"}],"model":"m","odd \"key\"\n":{"a":[1,2]},"return_token_ids":true,"stream":false,"temperature":0}`
	if string(merged) != want {
		t.Errorf("merged\n%s\nwant\n%s", merged, want)
	}
	if want := `{"max_tokens":16,"odd \"key\"\n":{"a":[1,2]},"return_token_ids":true,"temperature":0}`; string(params) != want {
		t.Errorf("params\n%s\nwant\n%s", params, want)
	}
	if !json.Valid(merged) || !json.Valid(params) {
		t.Error("invalid JSON")
	}
	if _, _, err := mergeBody([]byte(`[1]`), nil); err == nil {
		t.Error("a body that is not an object was merged")
	}
}

func TestRouterBoundedLoad(t *testing.T) {
	newRouter := func(n int, epsilon float64) *router {
		r := &router{epsilon: epsilon}
		for i := range n {
			u := fmt.Sprintf("http://replica-%d.invalid:8000/v1", i)
			r.eps = append(r.eps, &endpoint{url: u, index: i, seed: mix(fnv64(u))})
		}
		return r
	}
	now := time.Now()

	// One hot key: no replica ever holds more than ⌈(1+ε)·L/n⌉ of L in
	// flight, and the key's first choice is always at that cap.
	r := newRouter(4, 0.25)
	var picked []*endpoint
	for total := 1; total <= 40; total++ {
		picked = append(picked, r.pick("hot", 0, now))
		limit := int(math.Ceil(1.25 * float64(total) / 4))
		for _, ep := range r.eps {
			if ep.load > limit {
				t.Fatalf("at %d in flight, %s holds %d > %d", total, ep.url, ep.load, limit)
			}
		}
		if first := r.rank("hot", nil)[0]; first.load != limit {
			t.Fatalf("at %d in flight, the key's replica holds %d, want %d", total, first.load, limit)
		}
	}
	for _, ep := range picked {
		r.release(ep)
	}
	if r.total != 0 {
		t.Fatalf("total %d after releasing everything", r.total)
	}

	// Many keys, one at a time: spread evenly.
	counts := map[string]int{}
	for i := range 20000 {
		ep := r.pick(fmt.Sprintf("job/b%05d/g%04d", i/64, i), 0, now)
		counts[ep.url]++
		r.release(ep)
	}
	for u, c := range counts {
		if c < 4500 || c > 5500 {
			t.Errorf("%s got %d of 20000 keys: %v", u, c, counts)
		}
	}

	// Removing a replica moves only the keys it held.
	smaller := &router{epsilon: 0.25, eps: r.eps[:3]}
	for i := range 2000 {
		k := fmt.Sprint("key", i)
		before := r.pick(k, 0, now)
		r.release(before)
		after := smaller.pick(k, 0, now)
		smaller.release(after)
		if before.index != 3 && after != before {
			t.Fatalf("key %s moved from %s to %s", k, before.url, after.url)
		}
	}

	// Avoided and ejected replicas are skipped while another is usable.
	ep := r.pick("hot", 0, now)
	r.release(ep)
	next := r.pick("hot", bit(ep.index), now)
	r.release(next)
	if next == ep {
		t.Error("an avoided replica was picked")
	}
	r.markDown(ep, now.Add(time.Minute))
	if got := r.pick("hot", 0, now); got == ep {
		t.Error("an ejected replica was picked")
	} else {
		r.release(got)
	}
	if got := r.pick("hot", 0, now.Add(2*time.Minute)); got != ep {
		t.Error("the replica did not come back after its ejection")
	} else {
		r.release(got)
	}
}
