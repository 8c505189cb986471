package search_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/search"
	"github.com/quarry-rl/quarry/tools/search/retriever"
)

type qaPair struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	DocID    string `json:"doc_id"`
}

func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// serveCorpus indexes the shipped corpus into a temp dir and serves it on a
// loopback port until the test ends; it returns the /retrieve URL.
func serveCorpus(t testing.TB) string {
	t.Helper()
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := filepath.Join(t.TempDir(), "idx")
	if _, err := retriever.Build(context.Background(), f, dir); err != nil {
		t.Fatal(err)
	}
	idx, err := retriever.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := retriever.NewServer(idx, retriever.ServerConfig{})
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
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		_ = idx.Close()
	})
	return "http://" + ln.Addr().String() + "/retrieve"
}

func openSession(t testing.TB, cfg search.Config) tools.Session {
	t.Helper()
	tool, err := search.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, err := tool.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func execute(t testing.TB, s tools.Session, action string) tools.Result {
	t.Helper()
	call, ok := search.Parse(action)
	if !ok {
		t.Fatalf("Parse(%q): no call", action)
	}
	res, err := s.Execute(context.Background(), call)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	return res
}

// TestEndToEnd: the shipped corpus, indexed and served on loopback, answers
// the QA questions through the tool with the answering document as Doc 1, in
// both encodings.
func TestEndToEnd(t *testing.T) {
	url := serveCorpus(t)
	titles := map[string]string{}
	for _, d := range readJSONL[retriever.Document](t, "testdata/corpus.jsonl") {
		titles[d.ID], _, _ = strings.Cut(d.Contents, "\n")
	}
	pairs := readJSONL[qaPair](t, "testdata/qa.jsonl")
	for _, enc := range []search.Encoding{search.Msgpack, search.JSON} {
		t.Run(string(enc), func(t *testing.T) {
			s := openSession(t, search.Config{URL: url, Encoding: enc})
			for _, p := range pairs[:10] {
				res := execute(t, s, "<think>look it up</think>\n<search> "+p.Question+" </search>")
				if res.Error || res.TimedOut {
					t.Fatalf("%q: error observation %q", p.Question, res.Observation)
				}
				first, rest, _ := strings.Cut(res.Observation, "\nDoc 2(Title: ")
				if want := "Doc 1(Title: " + titles[p.DocID] + ") "; !strings.HasPrefix(first, want) {
					t.Errorf("%q: observation starts %q, want %q", p.Question, first, want)
				}
				if !strings.Contains(first, p.Answer) {
					t.Errorf("%q: Doc 1 %q lacks the answer %q", p.Question, first, p.Answer)
				}
				if n := strings.Count(res.Observation, "\nDoc "); n > 2 || !strings.HasSuffix(res.Observation, "\n") ||
					n > 0 && !strings.HasPrefix(rest, "\"") {
					t.Errorf("%q: want at most 3 passages, each ending in a newline, got %q", p.Question, res.Observation)
				}
			}
		})
	}
	t.Run("topk", func(t *testing.T) {
		s := openSession(t, search.Config{URL: url, TopK: 1})
		res := execute(t, s, "<search>copper bells</search>")
		if res.Error || strings.Count(res.Observation, "(Title: ") != 1 {
			t.Errorf("topk 1: %q", res.Observation)
		}
		res = execute(t, openSession(t, search.Config{URL: url}), "<search>copper bells</search>")
		if res.Error || strings.Count(res.Observation, "(Title: ") != search.DefaultTopK {
			t.Errorf("default topk: %q", res.Observation)
		}
	})
	t.Run("empty query", func(t *testing.T) {
		s := openSession(t, search.Config{URL: url})
		res := execute(t, s, "<search>  </search>")
		if res.Error || res.Observation != "" {
			t.Errorf("empty query: %+v, want an empty, error-free observation as GEM", res)
		}
	})
}

// failing returns a loopback server answering every request with h.
func failing(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/retrieve"
}

func TestServerFailuresAreErrorObservations(t *testing.T) {
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/retrieve"
	}()
	for _, tc := range []struct {
		name, url, want string
		enc             search.Encoding
	}{
		{"connection refused", refused, "connection refused", ""},
		{"500", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "index exploded", http.StatusInternalServerError)
		}), "500 Internal Server Error: index exploded", ""},
		{"404", failing(t, http.NotFound), "404 Not Found", ""},
		{"garbage msgpack", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/msgpack")
			_, _ = w.Write([]byte{0xc1, 0xff, 0x00})
		}), "decode msgpack reply", ""},
		{"garbage json", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"result": [`))
		}), "decode json reply", search.JSON},
		{"no result", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"detail": "Not Found"}`))
		}), `no "result"`, ""},
		{"no contents", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"result": [{"document": {"id": "1"}, "score": 1}]}`))
		}), "result 0 has no document.contents", ""},
		{"reply too large", failing(t, func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(`{"result": ["` + strings.Repeat("x", 2048) + `"]}`))
		}), "exceeds 1024 bytes", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openSession(t, search.Config{URL: tc.url, Encoding: tc.enc, MaxResponseBytes: 1024})
			res := execute(t, s, "<search>anything</search>")
			if !res.Error || res.TimedOut {
				t.Errorf("result %+v, want an error observation", res)
			}
			if !strings.HasPrefix(res.Observation, "[SearchTool Error: ") || !strings.HasSuffix(res.Observation, "]") ||
				!strings.Contains(res.Observation, tc.want) {
				t.Errorf("observation %q, want [SearchTool Error: …%s…]", res.Observation, tc.want)
			}
		})
	}
}

// TestRepliesDecodeByContent: replies are decoded by content type, or by
// their first byte when it names neither, and both result shapes (GEM's one
// list, Search-R1's list per query) are read.
func TestRepliesDecodeByContent(t *testing.T) {
	hit := map[string]any{"document": map[string]any{"id": "9", "contents": "\"T\"\nbody"}, "score": 1.5}
	for _, tc := range []struct {
		name, contentType string
		body              func() []byte
	}{
		{"msgpack without type", "", func() []byte { b, _ := msgpack.Marshal(map[string]any{"result": []any{hit}}); return b }},
		{"msgpack nested", "application/octet-stream", func() []byte {
			b, _ := msgpack.Marshal(map[string]any{"result": []any{[]any{hit}}})
			return b
		}},
		{"json as text/plain", "text/plain", func() []byte { b, _ := json.Marshal(map[string]any{"result": []any{hit}}); return b }},
		{"json nested", "application/json; charset=utf-8", func() []byte {
			b, _ := json.Marshal(map[string]any{"result": []any{[]any{hit}}})
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := failing(t, func(w http.ResponseWriter, _ *http.Request) {
				if tc.contentType != "" {
					w.Header().Set("Content-Type", tc.contentType)
				} else {
					w.Header()["Content-Type"] = nil // no sniffing by net/http
				}
				_, _ = w.Write(tc.body())
			})
			res := execute(t, openSession(t, search.Config{URL: url}), "<search>q</search>")
			if res.Error || res.Observation != "Doc 1(Title: \"T\") body\n" {
				t.Errorf("result %+v", res)
			}
		})
	}
}

// TestRequestsMatchTheProtocols checks the bodies sent: GEM's single query
// in msgpack, Search-R1's batch in JSON.
func TestRequestsMatchTheProtocols(t *testing.T) {
	got := make(chan map[string]any, 1)
	gotType := make(chan string, 1)
	url := failing(t, func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		var err error
		if r.Header.Get("Content-Type") == "application/json" {
			err = json.NewDecoder(r.Body).Decode(&body)
		} else {
			err = msgpack.NewDecoder(r.Body).Decode(&body)
		}
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		gotType <- r.Header.Get("Content-Type")
		got <- body
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"result": []}`))
	})
	res := execute(t, openSession(t, search.Config{URL: url}), "<search>who</search>")
	body, ct := <-got, <-gotType
	if res.Error || ct != "application/msgpack" || body["query"] != "who" || body["return_scores"] != true || toInt(body["topk"]) != 3 {
		t.Errorf("msgpack request %q %v (%+v)", ct, body, res)
	}
	res = execute(t, openSession(t, search.Config{URL: url, Encoding: search.JSON, TopK: 5}), "<search>who</search>")
	body, ct = <-got, <-gotType
	qs, _ := body["queries"].([]any)
	if res.Error || ct != "application/json" || len(qs) != 1 || qs[0] != "who" || body["return_scores"] != true || toInt(body["topk"]) != 5 {
		t.Errorf("json request %q %v (%+v)", ct, body, res)
	}
}

func toInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int8:
		return int(n)
	case uint8:
		return int(n)
	case int64:
		return int(n)
	case uint64:
		return int(n)
	}
	return -1
}

// sleeper answers after a long sleep, or when the client gives up.
func sleeper(t *testing.T) string {
	return failing(t, func(w http.ResponseWriter, r *http.Request) {
		// Reading the whole body lets net/http notice the client hanging up.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	})
}

func TestTimeoutIsAnErrorObservation(t *testing.T) {
	const timeout = 300 * time.Millisecond
	s := openSession(t, search.Config{URL: sleeper(t), Timeout: timeout})
	start := time.Now()
	res := execute(t, s, "<search>slow</search>")
	elapsed := time.Since(start)
	if !res.Error || !res.TimedOut || !strings.Contains(res.Observation, "did not answer within 300ms") {
		t.Errorf("result %+v, want a timed-out error observation", res)
	}
	if elapsed < timeout || elapsed > timeout+2*time.Second {
		t.Errorf("returned after %v, want about %v", elapsed, timeout)
	}
}

func TestCancelledContextIsAGoError(t *testing.T) {
	s := openSession(t, search.Config{URL: sleeper(t), Timeout: 10 * time.Second})
	call, _ := search.Parse("<search>slow</search>")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := s.Execute(ctx, call)
	if !errors.Is(err, context.Canceled) || !tools.IsNotExecuted(err) {
		t.Errorf("Execute with a cancelled ctx = %v, want context.Canceled marked NotExecuted", err)
	}
	if _, err := s.Execute(ctx, call); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute with a dead ctx = %v", err)
	}
}

func TestMalformedCallIsAnErrorObservation(t *testing.T) {
	s := openSession(t, search.Config{URL: "http://127.0.0.1:1/retrieve"})
	res, err := s.Execute(context.Background(), tools.Call{Tool: "search", Err: "query too long"})
	if err != nil || !res.Error || res.Observation != "[SearchTool Error: query too long]" {
		t.Errorf("Execute = %+v, %v", res, err)
	}
}

func TestNewValidates(t *testing.T) {
	for _, cfg := range []search.Config{
		{},
		{URL: "127.0.0.1:8000/retrieve"},
		{URL: "ftp://host/retrieve"},
		{URL: "http://h/r", TopK: -1},
		{URL: "http://h/r", Timeout: -time.Second},
		{URL: "http://h/r", Encoding: "xml"},
		{URL: "http://h/r", MaxResponseBytes: -1},
	} {
		if _, err := search.New(cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
	tool, err := search.New(search.Config{URL: "http://127.0.0.1:8000/retrieve"})
	if err != nil {
		t.Fatal(err)
	}
	got := tool.Config()
	if got.TopK != 3 || got.Timeout != 5*time.Second || got.Encoding != search.Msgpack || tool.Name() != "search" {
		t.Errorf("defaults %+v, want GEM's (topk 3, 5 s, msgpack)", got)
	}
	ins, err := tool.Instructions(context.Background())
	if err != nil || !strings.Contains(ins, "<search> your query here </search>") {
		t.Errorf("Instructions = %q, %v", ins, err)
	}
}

func BenchmarkToolExecute(b *testing.B) {
	url := serveCorpus(b)
	pairs := readJSONL[qaPair](b, "testdata/qa.jsonl")
	tool, err := search.New(search.Config{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	calls := make([]tools.Call, len(pairs))
	for i, p := range pairs {
		calls[i], _ = search.Parse("<search>" + p.Question + "</search>")
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		s, _ := tool.Open(context.Background())
		defer s.Close()
		i := 0
		for pb.Next() {
			res, err := s.Execute(context.Background(), calls[i%len(calls)])
			if err != nil || res.Error {
				b.Errorf("%v %q", err, res.Observation)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
}
