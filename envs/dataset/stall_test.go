package dataset

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/s3test"
)

// How a stallServer answers.
const (
	answer      int32 = iota
	stallHeader       // accept the request, never send a response
	stallBody         // send the headers and half the body, then nothing
)

// stallServer is a loopback HTTP server that serves one file, or stalls.
// A stalled handler returns when its client gives up (or the test ends).
type stallServer struct {
	*httptest.Server
	body    []byte
	mode    atomic.Int32
	stalled chan string // the method of each request that stalled
}

func newStallServer(t *testing.T, body []byte) *stallServer {
	s := &stallServer{body: body, stalled: make(chan string, 64)}
	quit := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, quit)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(quit) }) // runs first: stalled handlers return
	return s
}

func (s *stallServer) serve(w http.ResponseWriter, r *http.Request, quit <-chan struct{}) {
	hang := func() {
		select {
		case s.stalled <- r.Method:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-quit:
		}
	}
	mode := s.mode.Load()
	if mode == stallHeader {
		hang()
		return
	}
	w.Header().Set("ETag", `"v1"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(s.body)))
	if r.Method == http.MethodHead {
		return
	}
	if mode == stallBody {
		w.Write(s.body[:len(s.body)/2])
		w.(http.Flusher).Flush()
		hang()
		return
	}
	w.Write(s.body)
}

// openSoon opens u and fails the test if Open has not returned by a
// generous deadline: the stall timeout, not the test's guard, must end it.
func openSoon(t *testing.T, reg *Registry, u string, opts ...Option) (*Dataset, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := reg.Open(ctx, u, opts...)
	if ctx.Err() != nil {
		t.Fatalf("Open(%s) ran into the test's guard deadline: the stall was not detected: %v", u, err)
	}
	return d, err
}

func TestHTTPStallFailsThenRetries(t *testing.T) {
	rows := makeRows(3000)
	for _, tc := range []struct {
		name   string
		mode   int32
		client *http.Client // nil: the package's default client
	}{
		{"no response", stallHeader, nil},
		{"body stalls", stallBody, nil},
		// A caller's client without any timeout is bounded all the same.
		{"no response, caller's client", stallHeader, &http.Client{}},
		{"body stalls, caller's client", stallBody, &http.Client{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newStallServer(t, jsonlBytes(t, rows))
			srv.mode.Store(tc.mode)
			reg := newRegistry(t)
			cache := t.TempDir()
			opts := []Option{WithCacheDir(cache), WithStallTimeout(200 * time.Millisecond)}
			if tc.client != nil {
				opts = append(opts, WithHTTPClient(tc.client))
			}
			u := srv.URL + "/train.jsonl"
			_, err := openSoon(t, reg, u, opts...)
			if !errors.Is(err, ErrStalled) {
				t.Fatalf("stalled server: got %v, want ErrStalled", err)
			}
			if !strings.Contains(err.Error(), u) || !strings.Contains(err.Error(), "200ms") {
				t.Errorf("error does not name the dataset and the stall: %v", err)
			}
			if len(srv.stalled) == 0 {
				t.Fatal("the server never stalled a request: the test proves nothing")
			}
			if files := cacheFiles(t, cache); len(files) != 0 {
				t.Errorf("a stalled download left %v in the cache", files)
			}
			// The server answers now: the same registry loads the dataset,
			// the failure was not remembered.
			srv.mode.Store(answer)
			d, err := openSoon(t, reg, u, opts...)
			if err != nil {
				t.Fatalf("after the server recovered: %v", err)
			}
			checkAll(t, d, rows)
		})
	}
}

// A stalled first open must not hold every later open of that dataset:
// concurrent opens all fail with the stall, none waits forever.
func TestHTTPStallReleasesWaiters(t *testing.T) {
	srv := newStallServer(t, jsonlBytes(t, makeRows(10)))
	srv.mode.Store(stallHeader)
	reg := newRegistry(t)
	opts := []Option{WithCacheDir(t.TempDir()), WithStallTimeout(200 * time.Millisecond)}
	u := srv.URL + "/train.jsonl"
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, errs[i] = openSoon(t, reg, u, opts...) })
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, ErrStalled) {
			t.Errorf("open %d: got %v, want ErrStalled", i, err)
		}
	}
	srv.mode.Store(answer)
	if _, err := openSoon(t, reg, u, opts...); err != nil {
		t.Fatalf("after the server recovered: %v", err)
	}
}

// A download that keeps making progress is not cut by the stall timeout,
// however long it takes in all: the server paces its chunks below the
// stall timeout, and the whole download lasts longer than it.
func TestHTTPSlowButSteadyDownload(t *testing.T) {
	rows := makeRows(200)
	body := jsonlBytes(t, rows)
	const (
		stall  = 2 * time.Second
		gap    = 250 * time.Millisecond
		chunks = 12 // 3 s in all
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if r.Method == http.MethodHead {
			return
		}
		for i := range chunks {
			select {
			case <-time.After(gap): // the server's pace, not test synchronisation
			case <-r.Context().Done():
				return
			}
			w.Write(body[i*len(body)/chunks : (i+1)*len(body)/chunks])
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	start := time.Now()
	d, err := openSoon(t, newRegistry(t), srv.URL+"/slow.jsonl", WithCacheDir(t.TempDir()), WithStallTimeout(stall))
	if err != nil {
		t.Fatalf("a steady download failed: %v", err)
	}
	if took := time.Since(start); took <= stall {
		t.Fatalf("the download took %s, not more than the stall timeout %s: the test proves nothing", took, stall)
	}
	checkAll(t, d, rows)
}

// s3:// reads are bounded the same way: a proxy in front of a real S3
// server stalls, then lets requests through.
func TestS3StallFailsThenRetries(t *testing.T) {
	s3srv := s3test.Start(t)
	rows := makeRows(500)
	ctx := context.Background()
	key := "stall/train.jsonl"
	if _, err := s3srv.Client().PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s3srv.Bucket), Key: aws.String(key), Body: strings.NewReader(string(jsonlBytes(t, rows)))}); err != nil {
		t.Fatal(err)
	}
	target, err := url.Parse(s3srv.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var stall atomic.Bool
	quit := make(chan struct{})
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if stall.Load() {
			select {
			case <-r.Context().Done():
			case <-quit:
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	t.Cleanup(func() { close(quit) })
	opts := []Option{WithCacheDir(t.TempDir()), WithStallTimeout(300 * time.Millisecond), WithBlobOptions(
		blob.WithEndpoint(front.URL), blob.WithRegion(s3srv.Region), blob.WithRetryMaxAttempts(1),
		blob.WithStaticCredentials(s3srv.AccessKey, s3srv.SecretKey, ""))}
	reg := newRegistry(t)
	stall.Store(true)
	if _, err := openSoon(t, reg, s3srv.URL(key), opts...); !errors.Is(err, ErrStalled) {
		t.Fatalf("stalled S3: got %v, want ErrStalled", err)
	}
	stall.Store(false)
	d, err := openSoon(t, reg, s3srv.URL(key), opts...)
	if err != nil {
		t.Fatalf("after S3 recovered: %v", err)
	}
	checkAll(t, d, rows)
}
