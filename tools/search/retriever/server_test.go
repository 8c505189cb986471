package retriever

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// startServer serves idx on a loopback port until the test ends and returns
// the base URL and a function that stops the server and returns Serve's error.
func startServer(t testing.TB, idx *Index, cfg ServerConfig) (string, func() error) {
	t.Helper()
	srv, err := NewServer(idx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	stopped := false
	var serveErr error
	stop := func() error {
		if !stopped {
			stopped = true
			cancel()
			serveErr = <-done
		}
		return serveErr
	}
	t.Cleanup(func() { _ = stop() })
	return "http://" + ln.Addr().String(), stop
}

type wireReply[T any] struct {
	Result T `json:"result" msgpack:"result"`
}

func post(t testing.TB, url, contentType string, body []byte) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), data
}

func mustMsgpack(t testing.TB, v any) []byte {
	t.Helper()
	b, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServerProtocols(t *testing.T) {
	idx := buildTestIndex(t)
	base, _ := startServer(t, idx, ServerConfig{})
	url := base + "/retrieve"
	pairs := readQA(t)
	q0, q1 := pairs[0], pairs[1]

	t.Run("gem msgpack without content type", func(t *testing.T) {
		// GEM's client: requests.post(url, data=msgspec.msgpack.encode(payload)).
		body := mustMsgpack(t, map[string]any{"query": q0.Question, "topk": 2, "return_scores": true})
		code, ct, data := post(t, url, "", body)
		if code != http.StatusOK || ct != "application/msgpack" {
			t.Fatalf("status %d, content type %q: %s", code, ct, data)
		}
		var r wireReply[[]wireHit]
		if err := msgpack.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Result) != 2 || r.Result[0].Document.ID != q0.DocID || r.Result[0].Score == nil || *r.Result[0].Score <= 0 {
			t.Errorf("result %+v, want 2 hits, doc %s first, with a score", r.Result, q0.DocID)
		}
	})
	t.Run("search-r1 json batch", func(t *testing.T) {
		body, _ := json.Marshal(map[string]any{"queries": []string{q0.Question, q1.Question}, "topk": 3, "return_scores": true})
		code, ct, data := post(t, url, "application/json", body)
		if code != http.StatusOK || ct != "application/json" {
			t.Fatalf("status %d, content type %q: %s", code, ct, data)
		}
		var r wireReply[[][]struct {
			Document map[string]any `json:"document"`
			Score    float64        `json:"score"`
		}]
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Result) != 2 {
			t.Fatalf("result %+v, want one list per query", r.Result)
		}
		for i, want := range []string{q0.DocID, q1.DocID} {
			if len(r.Result[i]) == 0 || r.Result[i][0].Document["id"] != want {
				t.Errorf("query %d: %+v, want doc %s first", i, r.Result[i], want)
			}
			if c, _ := r.Result[i][0].Document["contents"].(string); !strings.HasPrefix(c, `"`) {
				t.Errorf("query %d: contents %q do not start with the quoted title", i, c)
			}
		}
	})
	t.Run("msgpack batch and json single", func(t *testing.T) {
		code, _, data := post(t, url, "application/x-msgpack", mustMsgpack(t, map[string]any{"queries": []string{q0.Question}}))
		var batch wireReply[[][]wireHit]
		if code != http.StatusOK || msgpack.Unmarshal(data, &batch) != nil || len(batch.Result) != 1 || len(batch.Result[0]) != DefaultTopK {
			t.Errorf("msgpack batch: %d %q", code, data)
		}
		code, _, data = post(t, url, "", []byte(` {"query": "`+q1.Question+`"}`))
		var single wireReply[[]wireHit]
		if code != http.StatusOK || json.Unmarshal(data, &single) != nil || len(single.Result) != DefaultTopK || single.Result[0].Document.ID != q1.DocID {
			t.Errorf("sniffed json single: %d %s", code, data)
		}
		if single.Result[0].Score != nil {
			t.Errorf("score %v without return_scores, want null", *single.Result[0].Score)
		}
	})
	t.Run("topk 0 or null means the default", func(t *testing.T) {
		for _, body := range []string{`{"query": "river", "topk": 0}`, `{"query": "river", "topk": null}`} {
			code, _, data := post(t, url, "application/json", []byte(body))
			var r wireReply[[]wireHit]
			if code != http.StatusOK || json.Unmarshal(data, &r) != nil || len(r.Result) != DefaultTopK {
				t.Errorf("%s: %d %s", body, code, data)
			}
		}
	})
	t.Run("empty query and empty batch", func(t *testing.T) {
		code, _, data := post(t, url, "application/json", []byte(`{"query": ""}`))
		if code != http.StatusOK || string(bytes.TrimSpace(data)) != `{"result":[]}` {
			t.Errorf("empty query: %d %s", code, data)
		}
		code, _, data = post(t, url, "application/json", []byte(`{"queries": []}`))
		if code != http.StatusOK || string(bytes.TrimSpace(data)) != `{"result":[]}` {
			t.Errorf("empty batch: %d %s", code, data)
		}
	})
}

func TestServerRejectsBadRequests(t *testing.T) {
	idx := buildTestIndex(t)
	base, _ := startServer(t, idx, ServerConfig{MaxQueries: 2, MaxRequestBytes: 4096})
	url := base + "/retrieve"
	for _, tc := range []struct {
		name, contentType string
		body              []byte
		code              int
		want              string
	}{
		{"empty", "application/json", nil, 400, "empty body"},
		{"garbage json", "application/json", []byte(`{"query": `), 400, "bad json request body"},
		{"garbage msgpack", "application/msgpack", []byte{0xc1, 0x00}, 400, "bad msgpack request body"},
		{"not a map", "", []byte{0x93, 0x01, 0x02, 0x03}, 400, "bad msgpack request body"},
		{"query not a string", "application/json", []byte(`{"query": 5}`), 400, "bad json request body"},
		{"queries not strings", "application/json", []byte(`{"queries": [1]}`), 400, "bad json request body"},
		{"trailing data", "application/json", []byte(`{"query": "a"} {"query": "b"}`), 400, "data after the JSON object"},
		{"trailing msgpack", "application/msgpack", append(mustMsgpack(t, map[string]any{"query": "a"}), 0x01), 400, "data after the msgpack map"},
		{"both", "application/json", []byte(`{"query": "a", "queries": ["b"]}`), 400, "not both"},
		{"neither", "application/json", []byte(`{}`), 400, `missing "query"`},
		{"topk too big", "application/json", []byte(`{"query": "a", "topk": 101}`), 400, `"topk" 101`},
		{"topk negative", "application/json", []byte(`{"query": "a", "topk": -1}`), 400, `"topk" -1`},
		{"too many queries", "application/json", []byte(`{"queries": ["a", "b", "c"]}`), 400, "at most 2"},
		{"too large", "application/json", []byte(`{"query": "` + strings.Repeat("a", 5000) + `"}`), 413, "exceeds 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, ct, data := post(t, url, tc.contentType, tc.body)
			if code != tc.code || !strings.Contains(string(data), tc.want) || !strings.HasPrefix(ct, "text/plain") {
				t.Errorf("status %d (%s) %q, want %d containing %q", code, ct, data, tc.code, tc.want)
			}
		})
	}

	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /retrieve: %d, want 405", resp.StatusCode)
	}
}

func TestServerHealth(t *testing.T) {
	idx := buildTestIndex(t)
	base, _ := startServer(t, idx, ServerConfig{})
	resp, err := http.Get(base + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		Status    string `json:"status"`
		Documents int    `json:"documents"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || h.Status != "ok" || h.Documents != 200 {
		t.Errorf("health %d %+v", resp.StatusCode, h)
	}
}

// TestServerShutsDownGracefully sends half a request, stops the server, then
// sends the rest: the request in flight is answered, Serve returns nil, and
// new connections are refused.
func TestServerShutsDownGracefully(t *testing.T) {
	idx := buildTestIndex(t)
	base, stop := startServer(t, idx, ServerConfig{})
	addr := strings.TrimPrefix(base, "http://")

	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"query": "copper bells", "topk": 1}`
	fmt.Fprintf(conn, "POST /retrieve HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", addr, len(body), body[:10])

	stopped := make(chan error, 1)
	time.Sleep(50 * time.Millisecond) // let the server read the headers
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := io.WriteString(conn, body[10:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(`"result"`)) {
		t.Errorf("request in flight: %d %s", resp.StatusCode, data)
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve = %v, want nil after a graceful shutdown", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the last request")
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Error("server still accepts connections")
	}
}

func TestNewServerValidates(t *testing.T) {
	for _, cfg := range []ServerConfig{{TopK: -1}, {TopK: 5, MaxTopK: 4}, {MaxQueries: -1}, {MaxRequestBytes: -1}, {ShutdownTimeout: -time.Second}} {
		if _, err := NewServer(nil, cfg); err == nil {
			t.Errorf("NewServer(%+v): no error", cfg)
		}
	}
}

func BenchmarkServeHTTP(b *testing.B) {
	idx := buildTestIndex(b)
	base, _ := startServer(b, idx, ServerConfig{})
	url := base + "/retrieve"
	pairs := readQA(b)
	bodies := make([][]byte, len(pairs))
	for i, p := range pairs {
		bodies[i] = mustMsgpack(b, map[string]any{"query": p.Question, "topk": 3, "return_scores": true})
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			resp, err := client.Post(url, "application/msgpack", bytes.NewReader(bodies[i%len(bodies)]))
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}
