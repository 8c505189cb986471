package inference

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// go-openai's ChatCompletionRequest has no free-form fields and its
// response type drops vLLM's token ids, so one attempt's extra request
// fields travel to the HTTP layer, and its raw answer back, in an exchange
// carried by the request's context. The transport below — the client's own
// HTTPClient, not a second client library — merges the fields into the JSON
// body and keeps the response body.
type exchange struct {
	// extra is merged over the encoded request's top-level fields.
	extra map[string]json.RawMessage
	// Filled by the transport.
	sent   bool   // the request reached the transport (go-openai did not refuse it)
	params []byte // JSON object: the fields sent besides model, messages, prompt and stream
	status int    // 0 when no response arrived
	header http.Header
	body   []byte
}

type exchangeKey struct{}

func withExchange(ctx context.Context, ex *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, ex)
}

// maxResponseBody bounds what one answer may hold: 2,000-token responses
// with ids and logprobs are ~100 KB; anything near this is not an answer.
const maxResponseBody = 64 << 20

type transport struct {
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if ex == nil {
		return t.base.RoundTrip(req)
	}
	ex.sent = true
	if req.Body != nil && req.Method == http.MethodPost {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("read request body: %w", err)
		}
		merged, params, err := mergeBody(body, ex.extra)
		if err != nil {
			return nil, err
		}
		ex.params = params
		r2 := *req // a RoundTripper must not modify the caller's request
		r2.Body = io.NopCloser(bytes.NewReader(merged))
		r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(merged)), nil }
		r2.ContentLength = int64(len(merged))
		req = &r2
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody+1))
	resp.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read response body: %w", err)
	}
	if len(body) > maxResponseBody {
		return nil, fmt.Errorf("response body exceeds %d bytes", maxResponseBody)
	}
	ex.status, ex.header, ex.body = resp.StatusCode, resp.Header, body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// base transport.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// reserved are the fields Quarry sets itself; they are not sampling
// parameters and extra_body may not override them.
var reserved = []string{"messages", "model", "prompt", "stream"}

// mergeBody sets extra's fields over body's top-level fields (extra wins,
// as extra_body does in the OpenAI Python client) and returns the merged
// body and the sampling parameters: every field sent but model, messages
// and stream. Both are encoded with sorted keys, values verbatim.
func mergeBody(body []byte, extra map[string]json.RawMessage) (merged, params []byte, err error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, nil, fmt.Errorf("merge extra_body: the request body is not a JSON object: %w", err)
	}
	for k, v := range extra {
		fields[k] = v
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	merged = encodeObject(make([]byte, 0, len(body)+64*len(extra)), keys, fields, nil)
	params = encodeObject(nil, keys, fields, reserved)
	return merged, params, nil
}

func encodeObject(b []byte, keys []string, fields map[string]json.RawMessage, skip []string) []byte {
	b = append(b, '{')
	first := true
	for _, k := range keys {
		if slices.Contains(skip, k) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendKey(b, k)
		b = append(b, ':')
		b = append(b, fields[k]...)
	}
	return append(b, '}')
}

func appendKey(b []byte, k string) []byte {
	for i := range len(k) {
		if c := k[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			q, _ := json.Marshal(k)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"')
}
