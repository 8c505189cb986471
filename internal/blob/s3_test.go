package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/s3test"
)

const partSize = 5 << 20 // S3's minimum, so tests reach multipart with small objects

// s3Options points a store at a test server.
func s3Options(srv *s3test.Server, extra ...blob.Option) []blob.Option {
	return append([]blob.Option{
		blob.WithEndpoint(srv.Endpoint),
		blob.WithRegion(srv.Region),
		blob.WithStaticCredentials(srv.AccessKey, srv.SecretKey, ""),
		blob.WithPartSize(partSize),
	}, extra...)
}

func openS3(t *testing.T, srv *s3test.Server, url string, opts ...blob.Option) blob.Store {
	t.Helper()
	s, err := blob.Open(context.Background(), url, s3Options(srv, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// uploads lists the incomplete multipart uploads under prefix, asking the
// server directly rather than the code under test.
func uploads(t *testing.T, srv *s3test.Server, prefix string) []string {
	t.Helper()
	out, err := srv.Client().ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{
		Bucket: aws.String(srv.Bucket), Prefix: aws.String(prefix),
	})
	if err != nil {
		t.Fatalf("ListMultipartUploads: %v", err)
	}
	var keys []string
	for _, u := range out.Uploads {
		keys = append(keys, aws.ToString(u.Key))
	}
	return keys
}

func s3Backend(srv *s3test.Server) backend {
	return backend{
		location: func(t *testing.T) string { return srv.URL(safeName(t)) },
		open: func(t *testing.T, url string, opts ...blob.Option) blob.Store {
			return openS3(t, srv, url, opts...)
		},
		midway: func(p blob.Progress, size int64) bool { return p.Parts >= 1 },
		debris: func(t *testing.T, url string) int {
			return len(uploads(t, srv, strings.TrimPrefix(url, srv.URL("")+"/")+"/"))
		},
	}
}

func TestS3Store(t *testing.T) {
	srv := s3test.Start(t)
	runSuite(t, s3Backend(srv))

	t.Run("LargeObjectIsMultipart", func(t *testing.T) {
		ctx := context.Background()
		s := openS3(t, srv, srv.URL("multipart"))
		data := randomBytes(3*partSize-1, 7)
		if err := blob.PutBytes(ctx, s, "a/b/c.bin", data); err != nil {
			t.Fatal(err)
		}
		// Independent check: the object lives where the URL says, and its
		// ETag has the "-<parts>" suffix of a multipart upload.
		head, err := srv.Client().HeadObject(ctx, &s3.HeadObjectInput{
			Bucket: aws.String(srv.Bucket), Key: aws.String("multipart/a/b/c.bin"),
		})
		if err != nil {
			t.Fatal(err)
		}
		if etag := strings.Trim(aws.ToString(head.ETag), `"`); !strings.HasSuffix(etag, "-3") {
			t.Fatalf("ETag %q: want a 3-part multipart upload", etag)
		}
		if aws.ToInt64(head.ContentLength) != int64(len(data)) {
			t.Fatalf("stored size %d, want %d", aws.ToInt64(head.ContentLength), len(data))
		}
	})

	t.Run("PrefixIsolation", func(t *testing.T) {
		ctx := context.Background()
		a := openS3(t, srv, srv.URL("iso/a"))
		ab := openS3(t, srv, srv.URL("iso/ab"))
		root := openS3(t, srv, srv.URL(""))
		if err := blob.PutBytes(ctx, a, "k", []byte("a")); err != nil {
			t.Fatal(err)
		}
		if err := blob.PutBytes(ctx, ab, "k", []byte("ab")); err != nil {
			t.Fatal(err)
		}
		if got := keys(t, a, ""); len(got) != 1 || got[0] != "k" {
			t.Fatalf("List under iso/a = %q, want [k] (iso/ab must not leak in)", got)
		}
		if got, err := blob.ReadAll(ctx, root, "iso/ab/k"); err != nil || string(got) != "ab" {
			t.Fatalf("bucket-root store Get(iso/ab/k) = %q, %v", got, err)
		}
	})
}

func TestS3CrashLeavesUploadThatCleanupAborts(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	url := srv.URL("crash")
	crashing := openS3(t, srv, url, blob.WithWriteHook(func(p blob.Progress) error {
		if p.Parts >= 1 {
			return fmt.Errorf("killed after the first part: %w", blob.ErrCrash)
		}
		return nil
	}))
	data := randomBytes(3*partSize, 8)
	if err := blob.PutBytes(ctx, crashing, "shards/part-00000.turns.parquet", data); !errors.Is(err, blob.ErrCrash) {
		t.Fatalf("Put error = %v, want the simulated crash", err)
	}
	if got := uploads(t, srv, "crash/"); len(got) != 1 || got[0] != "crash/shards/part-00000.turns.parquet" {
		t.Fatalf("incomplete uploads after the crash: %q, want the one the killed writer left", got)
	}

	s := openS3(t, srv, url)
	if _, err := s.Stat(ctx, "shards/part-00000.turns.parquet"); !errors.Is(err, blob.ErrNotExist) {
		t.Fatalf("Stat after the crash = %v, want ErrNotExist", err)
	}
	if got := keys(t, s, ""); len(got) != 0 {
		t.Fatalf("List after the crash = %q, want nothing", got)
	}

	// Uploads under another prefix are not this store's business.
	other := openS3(t, srv, srv.URL("crash-other"), blob.WithWriteHook(func(p blob.Progress) error {
		if p.Parts >= 1 {
			return blob.ErrCrash
		}
		return nil
	}))
	if err := blob.PutBytes(ctx, other, "x", data); !errors.Is(err, blob.ErrCrash) {
		t.Fatalf("Put error = %v, want the simulated crash", err)
	}

	// Preflight's automatic cleanup spares young uploads: they may belong
	// to a writer that is still alive.
	if err := s.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	if got := uploads(t, srv, "crash/"); len(got) != 1 {
		t.Fatalf("Preflight aborted a recent upload: %q left", got)
	}

	// With a short stale age, Preflight aborts it.
	time.Sleep(1100 * time.Millisecond) // S3 reports initiation times in whole seconds
	quick := openS3(t, srv, url, blob.WithStaleAge(time.Second))
	if err := quick.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	if got := uploads(t, srv, "crash/"); len(got) != 0 {
		t.Fatalf("incomplete uploads after Preflight's cleanup: %q, want none", got)
	}
	if got := uploads(t, srv, "crash-other/"); len(got) != 1 {
		t.Fatalf("cleanup of crash/ touched crash-other/: %q left there", got)
	}

	// Cleanup(0), the explicit form, aborts regardless of age and counts.
	if n, err := other.Cleanup(ctx, 0); err != nil || n != 1 {
		t.Fatalf("Cleanup(0) = %d, %v; want 1, nil", n, err)
	}
	if got := uploads(t, srv, ""); len(got) != 0 {
		t.Fatalf("incomplete uploads after Cleanup: %q, want none", got)
	}

	// The writer's retry commits the object.
	if err := blob.PutBytes(ctx, s, "shards/part-00000.turns.parquet", data); err != nil {
		t.Fatal(err)
	}
	got, err := blob.ReadAll(ctx, s, "shards/part-00000.turns.parquet")
	if err != nil || sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("after the retry Get = %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
}

// The SDK's retryer rides out a server restart in the middle of a
// multipart upload: the same Put succeeds, and the parts stored before the
// restart are part of the object.
func TestS3ServerRestartMidUploadRetries(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	reached := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	s := openS3(t, srv, srv.URL("restart"), blob.WithRetryMaxAttempts(10), blob.WithConcurrency(2),
		blob.WithWriteHook(func(p blob.Progress) error {
			if p.Parts >= 1 {
				once.Do(func() { close(reached); <-release })
			}
			return nil
		}))
	data := randomBytes(4*partSize+1, 9)
	done := make(chan error, 1)
	go func() { done <- blob.PutBytes(ctx, s, "big", data) }()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("Put returned %v before its first part", err)
	case <-time.After(30 * time.Second):
		t.Fatal("Put never finished its first part")
	}
	// Kill the server (SIGKILL) and let the upload go on against the dead
	// port; bring the server back on the same port and folder a moment
	// later, while the SDK is backing off between attempts.
	srv.Stop(t)
	close(release)
	time.Sleep(300 * time.Millisecond)
	srv.Start(t)
	if err := <-done; err != nil {
		t.Fatalf("Put across a server restart: %v", err)
	}
	got, err := blob.ReadAll(ctx, s, "big")
	if err != nil || sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("Get = %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
	if got := uploads(t, srv, "restart/"); len(got) != 0 {
		t.Fatalf("incomplete uploads after the upload: %q, want none", got)
	}
}

// A server that stays down longer than the retries fails the Put; the
// abort cannot reach it either, so the upload lingers until Cleanup, and
// the caller's retry commits the same bytes.
func TestS3ServerDownMidUploadThenRetry(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	url := srv.URL("down")
	reached := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	failing := openS3(t, srv, url, blob.WithRetryMaxAttempts(2), blob.WithConcurrency(1),
		blob.WithWriteHook(func(p blob.Progress) error {
			if p.Parts >= 1 {
				once.Do(func() { close(reached); <-release })
			}
			return nil
		}))
	data := randomBytes(3*partSize, 10)
	done := make(chan error, 1)
	go func() { done <- blob.PutBytes(ctx, failing, "shard", data) }()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("Put returned %v before its first part", err)
	case <-time.After(30 * time.Second):
		t.Fatal("Put never finished its first part")
	}
	srv.Stop(t)
	close(release)
	err := <-done
	if !errors.Is(err, blob.ErrUnreachable) {
		t.Fatalf("Put with the server down = %v, want an error matching ErrUnreachable", err)
	}

	srv.Start(t)
	s := openS3(t, srv, url)
	if _, err := s.Stat(ctx, "shard"); !errors.Is(err, blob.ErrNotExist) {
		t.Fatalf("Stat after the failed Put = %v, want ErrNotExist", err)
	}
	if got := uploads(t, srv, "down/"); len(got) != 1 {
		t.Fatalf("incomplete uploads after the failed Put: %q, want the one the abort could not reach", got)
	}
	if err := blob.PutBytes(ctx, s, "shard", data); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if n, err := s.Cleanup(ctx, 0); err != nil || n != 1 {
		t.Fatalf("Cleanup(0) = %d, %v; want 1, nil", n, err)
	}
	if got := uploads(t, srv, "down/"); len(got) != 0 {
		t.Fatalf("incomplete uploads after Cleanup: %q, want none", got)
	}
	got, err := blob.ReadAll(ctx, s, "shard")
	if err != nil || sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("Get = %d bytes, %v; want %d bytes", len(got), err, len(data))
	}
}

func TestS3Preflight(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	closedPort := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}()

	// An endpoint that accepts connections and never answers, like a
	// firewall that swallows packets or a hung proxy.
	silent := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var conns []net.Conn
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
		t.Cleanup(func() {
			l.Close()
			mu.Lock()
			defer mu.Unlock()
			for _, c := range conns {
				c.Close()
			}
		})
		return "http://" + l.Addr().String()
	}()

	const wrongSecret = "definitely-not-the-secret"
	cases := []struct {
		name   string
		url    string
		opts   []blob.Option
		reason error
		want   string // the whole message
	}{
		{
			name:   "MissingBucket",
			url:    "s3://no-such-bucket/pfx",
			opts:   s3Options(srv),
			reason: blob.ErrNoBucket,
			want:   `s3://no-such-bucket/pfx: bucket "no-such-bucket" does not exist (create it or fix the URL)`,
		},
		{
			name:   "WrongSecretKey",
			url:    srv.URL("pfx"),
			opts:   s3Options(srv, blob.WithStaticCredentials(srv.AccessKey, wrongSecret, "")),
			reason: blob.ErrCredentials,
			want: fmt.Sprintf("s3://%s/pfx: endpoint %s rejected the request signature: the secret key does not match the access key (check AWS_SECRET_ACCESS_KEY or the profile)",
				srv.Bucket, srv.Endpoint),
		},
		{
			name:   "UnknownAccessKey",
			url:    srv.URL("pfx"),
			opts:   s3Options(srv, blob.WithStaticCredentials("nobody", wrongSecret, "")),
			reason: blob.ErrCredentials,
			want: fmt.Sprintf("s3://%s/pfx: endpoint %s does not know the access key (check AWS_ACCESS_KEY_ID, the profile, or the endpoint)",
				srv.Bucket, srv.Endpoint),
		},
		{
			name:   "UnreachableEndpoint",
			url:    srv.URL("pfx"),
			opts:   s3Options(srv, blob.WithEndpoint(closedPort)),
			reason: blob.ErrUnreachable,
			want: fmt.Sprintf("s3://%s/pfx: endpoint %s is unreachable: connection refused (is the S3 server running? check the endpoint URL or AWS_ENDPOINT_URL)",
				srv.Bucket, closedPort),
		},
		{
			name:   "SilentEndpoint",
			url:    srv.URL("pfx"),
			opts:   s3Options(srv, blob.WithEndpoint(silent), blob.WithPreflightTimeout(500*time.Millisecond)),
			reason: blob.ErrUnreachable,
			want: fmt.Sprintf("s3://%s/pfx: endpoint %s did not answer within 500ms (check the endpoint URL and the network)",
				srv.Bucket, silent),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			s, err := blob.Open(ctx, c.url, append(c.opts, blob.WithLogger(logger))...)
			if err != nil {
				t.Fatalf("Open: %v (Open must not fail; Preflight reports)", err)
			}
			err = s.Preflight(ctx)
			var pe *blob.PreflightError
			if !errors.As(err, &pe) {
				t.Fatalf("Preflight = %v, want a *PreflightError", err)
			}
			if !errors.Is(err, c.reason) {
				t.Errorf("Preflight error %q does not match %v", err, c.reason)
			}
			if err.Error() != c.want {
				t.Errorf("Preflight error:\n got %s\nwant %s", err, c.want)
			}
			if strings.Contains(err.Error(), wrongSecret) || strings.Contains(err.Error(), srv.SecretKey) {
				t.Errorf("Preflight error leaks a secret key: %s", err)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("Preflight took %s to report the problem", d)
			}
		})
	}

	t.Run("Healthy", func(t *testing.T) {
		s := openS3(t, srv, srv.URL("pfx"), blob.WithLogger(logger))
		if err := s.Preflight(ctx); err != nil {
			t.Fatal(err)
		}
	})
	if strings.Contains(logs.String(), srv.SecretKey) || strings.Contains(logs.String(), wrongSecret) {
		t.Errorf("logs contain a secret key:\n%s", logs.String())
	}
}

func TestS3OperationsClassifyErrors(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	s := openS3(t, srv, "s3://no-such-bucket/pfx")
	if _, err := s.Get(ctx, "k"); !errors.Is(err, blob.ErrNoBucket) || errors.Is(err, blob.ErrNotExist) {
		t.Errorf("Get in a missing bucket = %v, want ErrNoBucket and not ErrNotExist", err)
	}
	if err := blob.PutBytes(ctx, s, "k", []byte("x")); !errors.Is(err, blob.ErrNoBucket) {
		t.Errorf("Put in a missing bucket = %v, want ErrNoBucket", err)
	}
	bad := openS3(t, srv, srv.URL("pfx"), blob.WithStaticCredentials(srv.AccessKey, "wrong-secret", ""))
	if _, err := bad.List(ctx, ""); !errors.Is(err, blob.ErrCredentials) {
		t.Errorf("List with a wrong secret = %v, want ErrCredentials", err)
	}
}

// The standard chain: keys, endpoint and region from the environment, and
// path-style addressing chosen because an endpoint is configured.
func TestS3CredentialChainFromEnvironment(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	isolateAWSEnv(t)
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	t.Setenv("AWS_REGION", srv.Region)
	// A host name, not an IP: the SDK picks path-style by itself for IP
	// endpoints, so only a name shows that the store chose it.
	t.Setenv("AWS_ENDPOINT_URL", strings.Replace(srv.Endpoint, "127.0.0.1", "localhost", 1))

	s, err := blob.Open(ctx, srv.URL("env"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	if err := blob.PutBytes(ctx, s, "k", []byte("from env")); err != nil {
		t.Fatal(err)
	}
	out, err := srv.Client().GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String("env/k")})
	if err != nil {
		t.Fatalf("the object is not where the URL says: %v", err)
	}
	out.Body.Close()
}

func TestS3PreflightNoCredentials(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	isolateAWSEnv(t)
	s, err := blob.Open(ctx, srv.URL("pfx"), blob.WithEndpoint(srv.Endpoint), blob.WithRegion(srv.Region))
	if err != nil {
		t.Fatal(err)
	}
	err = s.Preflight(ctx)
	if !errors.Is(err, blob.ErrCredentials) {
		t.Fatalf("Preflight = %v, want ErrCredentials", err)
	}
	want := fmt.Sprintf("s3://%s/pfx: no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with an instance or pod role)", srv.Bucket)
	if err.Error() != want {
		t.Fatalf("Preflight error:\n got %s\nwant %s", err, want)
	}
}

// isolateAWSEnv hides the machine's AWS configuration and keeps the
// credential chain away from metadata services, so only what a test sets
// is used and nothing leaves 127.0.0.1.
func isolateAWSEnv(t *testing.T) {
	t.Helper()
	for _, k := range []string{
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
		"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
	} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", dir+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", dir+"/credentials")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// The hook sees every byte read and every acknowledged part, once each.
func TestS3WriteHookCountsParts(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	var mu sync.Mutex
	parts := map[int]bool{}
	var written int64
	s := openS3(t, srv, srv.URL("hook"), blob.WithWriteHook(func(p blob.Progress) error {
		mu.Lock()
		defer mu.Unlock()
		if p.Parts > 0 {
			parts[p.Parts] = true
		} else {
			written = p.Written
		}
		return nil
	}))
	data := randomBytes(2*partSize+10, 11)
	if err := blob.PutBytes(ctx, s, "k", data); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(parts) != 3 || !parts[1] || !parts[2] || !parts[3] || written != int64(len(data)) {
		t.Fatalf("hook saw parts %v and %d bytes, want parts 1-3 and %d bytes", parts, written, len(data))
	}
}
