package blob

import (
	"errors"
	"log/slog"
	"time"
)

// An Option configures Open. Options that do not apply to the chosen store
// (S3 settings for a folder) are ignored.
type Option func(*options)

type options struct {
	logger    *slog.Logger
	staleAge  time.Duration
	autoClean bool
	writeHook func(Progress) error

	// S3 only.
	endpoint         string
	region           string
	pathStyle        *bool
	accessKey        string
	secretKey        string
	sessionToken     string
	partSize         int64
	concurrency      int
	retryMaxAttempts int
	preflightTimeout time.Duration
}

func defaultOptions() options {
	return options{
		logger:           discardLogger(),
		staleAge:         DefaultStaleAge,
		autoClean:        true,
		preflightTimeout: 30 * time.Second,
	}
}

// WithLogger sets where the stores report what they clean up and what they
// could not. Secrets are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.logger = l
		}
	}
}

// WithStaleAge sets how old a temporary file or an incomplete multipart
// upload must be before automatic cleanup removes it (DefaultStaleAge).
func WithStaleAge(d time.Duration) Option {
	return func(o *options) { o.staleAge = d }
}

// WithoutAutoCleanup turns off the cleanup that a folder store runs at Open
// and an S3 store runs after a successful Preflight. Store.Cleanup still works.
func WithoutAutoCleanup() Option {
	return func(o *options) { o.autoClean = false }
}

// WithEndpoint sets the S3 endpoint URL ("http://127.0.0.1:7070"), for
// S3-compatible stores. Without it the SDK's configuration applies
// (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the shared config file, AWS).
func WithEndpoint(endpoint string) Option {
	return func(o *options) { o.endpoint = endpoint }
}

// WithRegion sets the S3 region. Without it the SDK's configuration
// applies, and us-east-1 when none is configured (what S3-compatible stores
// expect).
func WithRegion(region string) Option {
	return func(o *options) { o.region = region }
}

// WithPathStyle forces path-style (true: http://host/bucket/key) or
// virtual-hosted (false: http://bucket.host/key) addressing. The default is
// path-style when a custom endpoint is configured, virtual-hosted otherwise.
func WithPathStyle(on bool) Option {
	return func(o *options) { o.pathStyle = &on }
}

// WithStaticCredentials uses fixed keys instead of the AWS credential chain.
// Meant for tests and for keys a caller has already resolved from a secret.
func WithStaticCredentials(accessKey, secretKey, sessionToken string) Option {
	return func(o *options) {
		o.accessKey, o.secretKey, o.sessionToken = accessKey, secretKey, sessionToken
	}
}

// WithPartSize sets the multipart part size in bytes (at least 5 MiB; the
// SDK's default when 0). Objects smaller than a part are sent in one request.
func WithPartSize(n int64) Option {
	return func(o *options) { o.partSize = n }
}

// WithConcurrency sets how many parts of one object upload at once. Each
// holds a part-sized buffer.
func WithConcurrency(n int) Option {
	return func(o *options) { o.concurrency = n }
}

// WithRetryMaxAttempts sets how many times the SDK's standard retryer tries
// each request (the SDK's default, 3, when 0).
func WithRetryMaxAttempts(n int) Option {
	return func(o *options) { o.retryMaxAttempts = n }
}

// WithPreflightTimeout bounds Preflight (30 s by default), so an endpoint
// that swallows packets is reported instead of waited on.
func WithPreflightTimeout(d time.Duration) Option {
	return func(o *options) { o.preflightTimeout = d }
}

// Progress tells a write hook how far a Put has got.
type Progress struct {
	Key string // the key being written
	// Written counts the bytes taken from the caller's reader so far; they
	// may still be buffered and not yet stored.
	Written int64
	// Parts counts the multipart parts the server has acknowledged (S3
	// only). The hook is called once after each part, from the goroutine
	// that uploaded it.
	Parts int
}

// ErrCrash, returned (or wrapped) by a write hook, makes the store stop the
// way a killed process would: without removing its temporary file or
// aborting its multipart upload. Any other hook error is an ordinary
// failure, which the store cleans up after.
var ErrCrash = errors.New("blob: simulated crash")

// WithWriteHook installs a hook that Put calls as data flows: after each
// read from the caller's reader and, on S3, after each acknowledged part. A
// non-nil error stops the write and is returned by Put. It exists so tests
// can interrupt a write at a chosen point; the hook may be called from
// several goroutines at once.
func WithWriteHook(h func(Progress) error) Option {
	return func(o *options) { o.writeHook = h }
}
