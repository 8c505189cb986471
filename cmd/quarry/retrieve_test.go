package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/tools/search"
	"github.com/quarry-rl/quarry/tools/search/retriever"
)

const testCorpus = "../../tools/search/testdata/corpus.jsonl"

// syncBuffer is a bytes.Buffer safe to read while a command writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRetrieveIndexAndServe runs `quarry retrieve index`, then `quarry
// retrieve serve` on a loopback port, queries it with the search tool in both
// encodings, and stops it by cancelling its context.
func TestRetrieveIndexAndServe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idx")
	out, err := run(t, "", "retrieve", "index", "--corpus", testCorpus, "--index", dir, "--batch-size", "64")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "indexed 200 documents (200 corpus lines)") {
		t.Errorf("index output %q", out)
	}
	if _, err := run(t, "", "retrieve", "index", "--corpus", testCorpus, "--index", dir); !errors.Is(err, retriever.ErrExists) {
		t.Errorf("indexing into an existing dir = %v, want ErrExists", err)
	}

	var stdout, stderr syncBuffer
	root := newRoot(strings.NewReader(""), &stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"retrieve", "serve", "--index", dir, "--addr", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()

	served := regexp.MustCompile(`serving 200 documents on (http://127\.0\.0\.1:\d+/retrieve)`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == ""; time.Sleep(10 * time.Millisecond) {
		if m := served.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("serve exited early: %v\n%s%s", err, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %q %q", stdout.String(), stderr.String())
		}
	}

	for _, enc := range []search.Encoding{search.Msgpack, search.JSON} {
		tool, err := search.New(search.Config{URL: url, Encoding: enc})
		if err != nil {
			t.Fatal(err)
		}
		s, err := tool.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for query, title := range map[string]string{
			"Who founded the town of Thorkholt?": `"Thorkholt"`,
			"Who invented the Skeimthaer lens?":  `"Skeimthaer lens"`,
		} {
			call, _ := search.Parse("<search>" + query + "</search>")
			res, err := s.Execute(ctx, call)
			if err != nil || res.Error || !strings.HasPrefix(res.Observation, "Doc 1(Title: "+title+") ") {
				t.Errorf("%s %q: %+v, %v; want Doc 1 titled %s", enc, query, res, err, title)
			}
		}
		_ = s.Close()
	}
	resp, err := http.Get(strings.TrimSuffix(url, "/retrieve") + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("health: %d", resp.StatusCode)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if c, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/retrieve")); err == nil {
		c.Close()
		t.Error("server still accepts connections after shutdown")
	}
}

func TestRetrieveFlagsAndErrors(t *testing.T) {
	for _, args := range [][]string{
		{"retrieve", "index", "--corpus", testCorpus},
		{"retrieve", "index", "--index", filepath.Join(t.TempDir(), "x")},
		{"retrieve", "index", "--corpus", "no-such-file.jsonl", "--index", filepath.Join(t.TempDir(), "x")},
		{"retrieve", "serve"},
		{"retrieve", "serve", "--index", filepath.Join(t.TempDir(), "missing")},
	} {
		if _, err := run(t, "", args...); err == nil {
			t.Errorf("quarry %s: no error", strings.Join(args, " "))
		}
	}
	dir := filepath.Join(t.TempDir(), "idx")
	if _, err := run(t, "", "retrieve", "index", "--corpus", testCorpus, "--index", dir); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, "", "retrieve", "serve", "--index", dir, "--addr", "127.0.0.1:0", "--topk", "0", "--max-topk", "-1")
	if err == nil || !strings.Contains(err.Error(), "topk") {
		t.Errorf("serve with a bad --max-topk = %v", err)
	}
}
