package dataset

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/s3test"
)

// fileServer serves files from memory with ETags, and counts what it is
// asked.
type fileServer struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string][]byte
	gets     map[string]int
	heads    map[string]int
	auth     []string // Authorization headers seen
	truncate atomic.Bool
	noHead   atomic.Bool
}

func newFileServer(t *testing.T) *fileServer {
	s := &fileServer{files: map[string][]byte{}, gets: map[string]int{}, heads: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *fileServer) put(path string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = b
}

func (s *fileServer) count(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if method == http.MethodHead {
		return s.heads[path]
	}
	return s.gets[path]
}

func (s *fileServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b, ok := s.files[r.URL.EscapedPath()]
	if r.Method == http.MethodHead {
		s.heads[r.URL.EscapedPath()]++
	} else {
		s.gets[r.URL.EscapedPath()]++
	}
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	if r.Method == http.MethodHead && s.noHead.Load() {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/private/") && r.Header.Get("Authorization") == "" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", fmt.Sprintf(`"%x"`, sha256.Sum256(b)))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodHead {
		return
	}
	if s.truncate.Load() {
		// Promise the whole file, send half, then drop the connection.
		w.Write(b[:len(b)/2])
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.Write(b)
}

// cacheFiles lists the files in the cache folder, temporary ones included.
func cacheFiles(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestHTTPDownloadedOnce(t *testing.T) {
	rows := makeRows(300)
	srv := newFileServer(t)
	srv.put("/d/train.jsonl", jsonlBytes(t, rows))
	srv.put("/d/train.parquet", parquetBytes(t, rows, 50))
	cache := t.TempDir()
	ctx := context.Background()
	for _, name := range []string{"train.jsonl", "train.parquet"} {
		u := srv.URL + "/d/" + name
		for proc := range 3 { // three "processes", one cache folder
			reg := newRegistry(t)
			d, err := reg.Open(ctx, u, WithCacheDir(cache), WithColumns("problem"))
			if err != nil {
				t.Fatal(err)
			}
			if again, err := reg.Open(ctx, u, WithCacheDir(cache)); err != nil || again != d {
				t.Fatalf("second open in one process: %v", err)
			}
			if !strings.HasPrefix(d.Path(), cache) {
				t.Fatalf("rows read from %s, not from the cache", d.Path())
			}
			checkAll(t, d, rows)
			if proc == 0 && name == "train.jsonl" {
				if _, err := os.Stat(d.Path() + ".idx"); err != nil {
					t.Errorf("no index beside the cached file: %v", err)
				}
			}
		}
		if g := srv.count(http.MethodGet, "/d/"+name); g != 1 {
			t.Errorf("%s: %d GETs for three processes, want 1", name, g)
		}
		if h := srv.count(http.MethodHead, "/d/"+name); h != 3 {
			t.Errorf("%s: %d HEADs, want one per process", name, h)
		}
	}
	// A new version of the file (new ETag) is fetched again.
	srv.put("/d/train.jsonl", jsonlBytes(t, rows[:10]))
	d, err := newRegistry(t).Open(ctx, srv.URL+"/d/train.jsonl", WithCacheDir(cache))
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 10 || srv.count(http.MethodGet, "/d/train.jsonl") != 2 {
		t.Errorf("changed file: Len %d, %d GETs", d.Len(), srv.count(http.MethodGet, "/d/train.jsonl"))
	}
	// A server that refuses HEAD: the entry is keyed by URL alone.
	srv.noHead.Store(true)
	srv.put("/d/nohead.jsonl", jsonlBytes(t, rows))
	for range 2 {
		if _, err := newRegistry(t).Open(ctx, srv.URL+"/d/nohead.jsonl", WithCacheDir(cache)); err != nil {
			t.Fatal(err)
		}
	}
	if g := srv.count(http.MethodGet, "/d/nohead.jsonl"); g != 1 {
		t.Errorf("without HEAD: %d GETs, want 1", g)
	}
}

func TestHTTPConcurrentFirstOpen(t *testing.T) {
	rows := makeRows(100)
	srv := newFileServer(t)
	srv.put("/c.parquet", parquetBytes(t, rows, 30))
	reg := newRegistry(t)
	cache := t.TempDir()
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if _, err := reg.Open(context.Background(), srv.URL+"/c.parquet", WithCacheDir(cache)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if g := srv.count(http.MethodGet, "/c.parquet"); g != 1 {
		t.Errorf("%d GETs for 10 concurrent opens, want 1", g)
	}
}

func TestHTTPTruncatedDownloadNotCached(t *testing.T) {
	rows := makeRows(2000)
	srv := newFileServer(t)
	srv.put("/t.jsonl", jsonlBytes(t, rows))
	cache := t.TempDir()
	srv.truncate.Store(true)
	_, err := newRegistry(t).Open(context.Background(), srv.URL+"/t.jsonl", WithCacheDir(cache))
	if err == nil {
		t.Fatal("a truncated download opened")
	}
	if files := cacheFiles(t, cache); len(files) != 0 {
		t.Fatalf("a truncated download left %v in the cache", files)
	}
	srv.truncate.Store(false)
	d, err := newRegistry(t).Open(context.Background(), srv.URL+"/t.jsonl", WithCacheDir(cache))
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, d, rows)
}

func TestHTTPErrors(t *testing.T) {
	srv := newFileServer(t)
	cache := t.TempDir()
	ctx := context.Background()
	_, err := newRegistry(t).Open(ctx, srv.URL+"/absent.jsonl?X-Amz-Signature=s3cr3t", WithCacheDir(cache))
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("404: %v", err)
	}
	if strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error leaks the signature: %v", err)
	}
	srv.Close()
	_, err = newRegistry(t).Open(ctx, "http://user:hunter2@"+strings.TrimPrefix(srv.URL, "http://")+"/x.jsonl?token=s3cr3t", WithCacheDir(cache))
	if err == nil || strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("unreachable server: %v", err)
	}
}

func TestHuggingFaceLayout(t *testing.T) {
	rows := makeRows(40)
	srv := newFileServer(t)
	srv.put("/datasets/openai/gsm8k/resolve/main/main/test-00000-of-00001.parquet", parquetBytes(t, rows, 16))
	srv.put("/datasets/axon-rl/GSM-8k/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet", parquetBytes(t, rows, 16))
	srv.put("/datasets/owner/private/resolve/v1.0/data/train.jsonl", jsonlBytes(t, rows))
	srv.put("/private/x.jsonl", jsonlBytes(t, rows))
	t.Setenv("HF_ENDPOINT", srv.URL+"/")
	t.Setenv("HF_TOKEN", "hf_s3cr3t")
	cache := t.TempDir()
	ctx := context.Background()
	for _, u := range []string{
		"hf://datasets/openai/gsm8k@main/main/test-00000-of-00001.parquet",
		"hf://datasets/openai/gsm8k/main/test-00000-of-00001.parquet",
		"hf://datasets/axon-rl/GSM-8k@refs/convert/parquet/default/train/0000.parquet",
		"hf://datasets/axon-rl/GSM-8k@refs%2Fconvert%2Fparquet/default/train/0000.parquet",
		"hf://datasets/owner/private@v1.0/data/train.jsonl",
	} {
		d, err := newRegistry(t).Open(ctx, u, WithCacheDir(cache), WithColumns("problem", "answer"))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if d.URL() != u {
			t.Errorf("URL() = %q, want %q", d.URL(), u)
		}
		checkAll(t, d, rows)
	}
	if g := srv.count(http.MethodGet, "/datasets/openai/gsm8k/resolve/main/main/test-00000-of-00001.parquet"); g != 1 {
		t.Errorf("%d GETs of the gsm8k file, want 1 (the two spellings share a cache entry)", g)
	}
	srv.mu.Lock()
	for _, a := range srv.auth {
		if a != "Bearer hf_s3cr3t" {
			t.Errorf("a request to the Hub carried Authorization %q", a)
		}
	}
	srv.mu.Unlock()

	// Without a token, a gated file is an access error that says what to do,
	// and a missing one is not found.
	t.Setenv("HF_TOKEN", "")
	_, err := newRegistry(t).Open(ctx, "hf://datasets/o/n/absent.jsonl", WithCacheDir(cache))
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("absent Hub file: %v", err)
	}
	_, err = newRegistry(t).Open(ctx, srv.URL+"/private/x.jsonl", WithCacheDir(cache))
	if !errors.Is(err, ErrAccess) || !strings.Contains(err.Error(), "HF_TOKEN") {
		t.Errorf("unauthorised Hub file: %v", err)
	}

	// The token goes to the Hub only.
	other := newFileServer(t)
	other.put("/x.jsonl", jsonlBytes(t, rows))
	t.Setenv("HF_TOKEN", "hf_s3cr3t")
	if _, err := newRegistry(t).Open(ctx, other.URL+"/x.jsonl", WithCacheDir(cache)); err != nil {
		t.Fatal(err)
	}
	for _, a := range other.auth {
		if a != "" {
			t.Errorf("a non-Hub server received Authorization %q", a)
		}
	}
}

func TestResolveHF(t *testing.T) {
	t.Setenv("HF_ENDPOINT", "")
	for in, want := range map[string]string{
		"hf://datasets/openai/gsm8k@main/main/test-00000-of-00001.parquet": "https://huggingface.co/datasets/openai/gsm8k/resolve/main/main/test-00000-of-00001.parquet",
		"hf://datasets/a/b/x y.jsonl":                                      "https://huggingface.co/datasets/a/b/resolve/main/x%20y.jsonl",
		"hf://datasets/a/b@refs/pr/7/data/x.jsonl":                         "https://huggingface.co/datasets/a/b/resolve/refs%2Fpr%2F7/data/x.jsonl",
	} {
		l, err := resolve(in)
		if err != nil || l.url != want || l.hfHost != "huggingface.co" {
			t.Errorf("resolve(%q) = %q (host %q), %v; want %q", in, l.url, l.hfHost, err, want)
		}
	}
	for _, bad := range []string{"hf://datasets/a/b", "hf://datasets/a/b/", "hf://datasets/a/b@/x.jsonl", "hf://datasets/a/b/../x.jsonl", "hf://spaces/a/b/x"} {
		if _, err := resolve(bad); err == nil {
			t.Errorf("resolve(%q): no error", bad)
		}
	}
}

func TestS3(t *testing.T) {
	srv := s3test.Start(t)
	rows := makeRows(200)
	ctx := context.Background()
	for key, b := range map[string][]byte{
		"datasets/math/train.jsonl":   jsonlBytes(t, rows),
		"datasets/math/train.parquet": parquetBytes(t, rows, 64),
		"root.jsonl.gz":               gzipBytes(t, jsonlBytes(t, rows)),
	} {
		if _, err := srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String(key), Body: strings.NewReader(string(b))}); err != nil {
			t.Fatal(err)
		}
	}
	cache := t.TempDir()
	opts := []Option{WithCacheDir(cache), WithColumns("problem", "answer"), WithBlobOptions(
		blob.WithEndpoint(srv.Endpoint), blob.WithRegion(srv.Region), blob.WithStaticCredentials(srv.AccessKey, srv.SecretKey, ""))}
	for _, key := range []string{"datasets/math/train.jsonl", "datasets/math/train.parquet", "root.jsonl.gz"} {
		u := srv.URL(key)
		d, err := newRegistry(t).Open(ctx, u, opts...)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if !strings.HasPrefix(d.Path(), cache) {
			t.Errorf("%s read from %s", u, d.Path())
		}
		checkAll(t, d, rows)
	}
	// Reopening uses the cache entry: a stat, no new download.
	before := len(cacheFiles(t, cache))
	d, err := newRegistry(t).Open(ctx, srv.URL("datasets/math/train.parquet"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	checkAll(t, d, rows)
	if after := len(cacheFiles(t, cache)); after != before {
		t.Errorf("reopening added cache files: %d → %d", before, after)
	}
	if _, err := newRegistry(t).Open(ctx, srv.URL("datasets/absent.jsonl"), opts...); !errors.Is(err, ErrNotFound) {
		t.Errorf("absent object: %v", err)
	}
}
