package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"github.com/cenkalti/backoff/v5"
)

// s3Store keeps objects under prefix in bucket. S3 makes an object visible
// only when its single PUT or its CompleteMultipartUpload succeeds, so
// atomicity comes from the service; what a killed writer can leave behind
// is an incomplete multipart upload (invisible, but billed), which Put
// aborts on failure and Cleanup aborts after a crash.
type s3Store struct {
	url      string
	bucket   string
	prefix   string // "" or ends with "/"
	endpoint string // for messages; "" means AWS's own
	client   *s3.Client
	o        options
}

// abortTimeout bounds the AbortMultipartUpload a failed Put sends, which
// must run even when the Put's own context is already cancelled.
const abortTimeout = 30 * time.Second

func openS3(ctx context.Context, bucket, path string, o options) (*s3Store, error) {
	prefix := strings.Trim(path, "/")
	loc := "s3://" + bucket
	if prefix != "" {
		loc += "/" + prefix
		prefix += "/"
	}
	if bucket == "" {
		return nil, fmt.Errorf("blob: %s: no bucket named (want s3://bucket/prefix)", loc)
	}
	if prefix != "" {
		if err := checkKey(strings.TrimSuffix(prefix, "/")); err != nil {
			return nil, fmt.Errorf("blob: %s: bad prefix: %w", loc, err)
		}
	}
	if o.partSize != 0 && o.partSize < manager.MinUploadPartSize {
		return nil, fmt.Errorf("blob: %s: part size %d is below S3's minimum of %d bytes", loc, o.partSize, manager.MinUploadPartSize)
	}

	var loadOpts []func(*config.LoadOptions) error
	if o.region != "" {
		loadOpts = append(loadOpts, config.WithRegion(o.region))
	}
	if o.accessKey != "" || o.secretKey != "" {
		loadOpts = append(loadOpts, config.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(o.accessKey, o.secretKey, o.sessionToken)))
	}
	if o.retryMaxAttempts > 0 {
		loadOpts = append(loadOpts, config.WithRetryMaxAttempts(o.retryMaxAttempts))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return nil, fmt.Errorf("blob: %s: load AWS configuration: %w", loc, err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1" // S3-compatible stores rarely care; the SDK insists
	}
	if cfg.Credentials != nil {
		cfg.Credentials = markedCredentials{cfg.Credentials}
	}

	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.endpoint != "" {
			so.BaseEndpoint = aws.String(o.endpoint)
		}
		// S3-compatible stores are usually reached by an address, not by
		// a DNS name per bucket.
		so.UsePathStyle = so.BaseEndpoint != nil
		if o.pathStyle != nil {
			so.UsePathStyle = *o.pathStyle
		}
		// Reading a multipart object back cannot check its composite
		// checksum; the SDK would print a warning on stderr every time.
		so.DisableLogOutputChecksumValidationSkipped = true
	})
	s := &s3Store{url: loc, bucket: bucket, prefix: prefix, client: client, o: o}
	if ep := client.Options().BaseEndpoint; ep != nil {
		s.endpoint = *ep
		if u, err := url.Parse(*ep); err == nil {
			s.endpoint = redactURL(u)
		}
	}
	return s, nil
}

func (s *s3Store) URL() string { return s.url }

func (s *s3Store) errorf(op, key string, err error) error {
	if reason := s3Reason(err); reason != nil && !errors.Is(err, reason) {
		return fmt.Errorf("%s: %s %s: %w: %w", s.url, op, key, reason, err)
	}
	return fmt.Errorf("%s: %s %s: %w", s.url, op, key, err)
}

func (s *s3Store) Put(ctx context.Context, key string, r io.Reader) error {
	if err := checkKey(key); err != nil {
		return s.errorf("put", key, err)
	}
	if err := s.put(ctx, key, r); err != nil {
		return s.errorf("put", key, err)
	}
	return nil
}

func (s *s3Store) put(ctx context.Context, key string, r io.Reader) error {
	var crashed atomic.Bool
	var api manager.UploadAPIClient = s.client
	if h := s.o.writeHook; h != nil {
		hook := func(p Progress) error {
			err := h(p)
			if errors.Is(err, ErrCrash) {
				crashed.Store(true)
			}
			return err
		}
		pr := &progressReader{ctx: ctx, r: r, key: key, hook: hook}
		api = &hookedClient{Client: s.client, key: key, hook: hook, written: pr.n.Load}
		r = pr
	}
	up := manager.NewUploader(api, func(u *manager.Uploader) {
		if s.o.partSize > 0 {
			u.PartSize = s.o.partSize
		}
		if s.o.concurrency > 0 {
			u.Concurrency = s.o.concurrency
		}
		// Aborting is done below, with a context that outlives a
		// cancelled Put; the uploader's own abort would reuse the
		// cancelled one and silently leave the parts behind.
		u.LeavePartsOnError = true
		u.RequestChecksumCalculation = s.client.Options().RequestChecksumCalculation
	})
	full := s.prefix + key
	_, err := up.Upload(ctx, &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(full), Body: r})
	if err == nil {
		return nil
	}
	var mu manager.MultiUploadFailure
	if errors.As(err, &mu) && mu.UploadID() != "" && !crashed.Load() {
		s.abort(ctx, full, mu.UploadID())
	}
	return err
}

// abort gives up an upload that failed. A part whose request was still
// in flight on the server can land after the abort and bring the upload
// back (AWS documents that an upload may need aborting more than once), so
// abort repeats until the server no longer knows the upload. If that does
// not happen in time (the endpoint is down), the upload stays until Cleanup
// finds it.
func (s *s3Store) abort(ctx context.Context, key, uploadID string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortTimeout)
	defer cancel()
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 20 * time.Millisecond
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
			Bucket: aws.String(s.bucket), Key: aws.String(key), UploadId: aws.String(uploadID),
		})
		if err != nil && !isAPICode(err, "NoSuchUpload") {
			return struct{}{}, err
		}
		_, err = s.client.ListParts(ctx, &s3.ListPartsInput{
			Bucket: aws.String(s.bucket), Key: aws.String(key), UploadId: aws.String(uploadID),
		})
		if isAPICode(err, "NoSuchUpload") {
			return struct{}{}, nil
		}
		if err == nil {
			err = errUploadLingers
		}
		return struct{}{}, err
	}, backoff.WithBackOff(b), backoff.WithMaxElapsedTime(abortTimeout))
	if err != nil {
		s.o.logger.Warn("blob: could not abort a failed multipart upload; Cleanup will remove it",
			"url", s.url, "key", key, "upload_id", uploadID, "err", err)
	}
}

// errUploadLingers says an aborted upload is still listed: a part that was
// in flight landed after the abort.
var errUploadLingers = errors.New("the upload is still there after AbortMultipartUpload")

// hookedClient reports each acknowledged part to a write hook.
type hookedClient struct {
	*s3.Client
	key     string
	hook    func(Progress) error
	written func() int64
	parts   atomic.Int32
}

func (c *hookedClient) UploadPart(ctx context.Context, in *s3.UploadPartInput, opts ...func(*s3.Options)) (*s3.UploadPartOutput, error) {
	out, err := c.Client.UploadPart(ctx, in, opts...)
	if err != nil {
		return out, err
	}
	n := c.parts.Add(1)
	if herr := c.hook(Progress{Key: c.key, Written: c.written(), Parts: int(n)}); herr != nil {
		return nil, herr
	}
	return out, nil
}

func (s *s3Store) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, s.errorf("get", key, err)
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err != nil {
		return nil, s.errorf("get", key, s.notExist(err))
	}
	return out.Body, nil
}

func (s *s3Store) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, s.errorf("stat", key, err)
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err != nil {
		return Info{}, s.errorf("stat", key, s.notExist(err))
	}
	return Info{Key: key, Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)}, nil
}

// notExist maps a missing object (but not a missing bucket, also a 404)
// to ErrNotExist.
func (s *s3Store) notExist(err error) error {
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	switch {
	case errors.As(err, &nsk), errors.As(err, &nf), isAPICode(err, "NoSuchKey"), isAPICode(err, "NotFound"):
		return fmt.Errorf("%w (%w)", ErrNotExist, err)
	case isAPICode(err, "NoSuchBucket"):
		return err
	case httpStatus(err) == http.StatusNotFound:
		return fmt.Errorf("%w (%w)", ErrNotExist, err)
	}
	return err
}

func (s *s3Store) List(ctx context.Context, prefix string) ([]Info, error) {
	if err := checkPrefix(prefix); err != nil {
		return nil, s.errorf("list", prefix, err)
	}
	var out []Info
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(s.prefix + prefix),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, s.errorf("list", prefix, err)
		}
		for _, obj := range page.Contents {
			key := strings.TrimPrefix(aws.ToString(obj.Key), s.prefix)
			if isReserved(key) || strings.HasSuffix(key, "/") {
				continue // our probes; folder markers made by other tools
			}
			out = append(out, Info{Key: key, Size: aws.ToInt64(obj.Size), ModTime: aws.ToTime(obj.LastModified)})
		}
	}
	// S3 lists in byte order already; S3-compatible stores may not.
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

func (s *s3Store) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return s.errorf("delete", key, err)
	}
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err != nil && !isAPICode(err, "NoSuchKey") {
		return s.errorf("delete", key, err)
	}
	return nil
}

// Cleanup aborts the incomplete multipart uploads under the store's prefix
// that started more than olderThan ago.
func (s *s3Store) Cleanup(ctx context.Context, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	in := &s3.ListMultipartUploadsInput{Bucket: aws.String(s.bucket), Prefix: aws.String(s.prefix)}
	n := 0
	for {
		out, err := s.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return n, s.errorf("cleanup", "incomplete uploads", err)
		}
		for _, u := range out.Uploads {
			if olderThan > 0 && aws.ToTime(u.Initiated).After(cutoff) {
				continue // possibly still being written by another process
			}
			_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
				Bucket: aws.String(s.bucket), Key: u.Key, UploadId: u.UploadId,
			})
			if err != nil && !isAPICode(err, "NoSuchUpload") {
				return n, s.errorf("cleanup", aws.ToString(u.Key), err)
			}
			n++
		}
		if !aws.ToBool(out.IsTruncated) || (aws.ToString(out.NextKeyMarker) == "" && aws.ToString(out.NextUploadIdMarker) == "") {
			return n, nil
		}
		in.KeyMarker, in.UploadIdMarker = out.NextKeyMarker, out.NextUploadIdMarker
	}
}

// Preflight writes, reads back and deletes a probe object under the prefix,
// then aborts stale incomplete uploads left by killed writers.
func (s *s3Store) Preflight(ctx context.Context) error {
	if s.o.preflightTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.o.preflightTimeout)
		defer cancel()
	}
	probe := probePrefix + randomHex()
	want := []byte("quarry preflight " + probe)
	full := s.prefix + probe
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(full), Body: bytes.NewReader(want),
	})
	if err != nil {
		return s.preflightError("write a probe object", err)
	}
	got, err := s.getAll(ctx, full)
	if err != nil {
		return s.preflightError("read back a probe object", err)
	}
	if !bytes.Equal(got, want) {
		return &PreflightError{URL: s.url,
			Msg: fmt.Sprintf("a probe object read back differently from what was written (%d bytes instead of %d; check the endpoint)", len(got), len(want))}
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(full)}); err != nil {
		return s.preflightError("delete a probe object", err)
	}
	if s.o.autoClean {
		n, err := s.Cleanup(ctx, s.o.staleAge)
		switch {
		case err != nil:
			// Typically a policy without s3:ListBucketMultipartUploads:
			// writing still works, and a lifecycle rule can do this job.
			s.o.logger.Warn("blob: could not clean up incomplete multipart uploads", "url", s.url, "err", err)
		case n > 0:
			s.o.logger.Info("blob: aborted stale incomplete multipart uploads", "url", s.url, "aborted", n)
		}
	}
	return nil
}

func (s *s3Store) getAll(ctx context.Context, key string) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		return nil, err
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

// preflightError explains, in one line, why the bucket cannot be used.
func (s *s3Store) preflightError(step string, err error) error {
	reason := s3Reason(err)
	e := &PreflightError{URL: s.url, Reason: reason, Err: err}
	endpoint := "the AWS S3 endpoint"
	if s.endpoint != "" {
		endpoint = "endpoint " + s.endpoint
	}
	switch {
	case errors.Is(err, errNoCredentials):
		e.Msg = "no AWS credentials found (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with an instance or pod role)"
	case isAPICode(err, "NoSuchBucket"):
		e.Msg = fmt.Sprintf("bucket %q does not exist (create it or fix the URL)", s.bucket)
	case isAPICode(err, "InvalidAccessKeyId", "XAdminUserNotFound"):
		e.Msg = fmt.Sprintf("%s does not know the access key (check AWS_ACCESS_KEY_ID, the profile, or the endpoint)", endpoint)
	case isAPICode(err, "SignatureDoesNotMatch"):
		e.Msg = fmt.Sprintf("%s rejected the request signature: the secret key does not match the access key (check AWS_SECRET_ACCESS_KEY or the profile)", endpoint)
	case isAPICode(err, "ExpiredToken", "TokenRefreshRequired", "InvalidToken", "RequestExpired"):
		e.Msg = "the credentials have expired or the session token is invalid (refresh them, e.g. aws sso login)"
	case isAPICode(err, "RequestTimeTooSkewed"):
		e.Msg = "the local clock differs too much from the server's (sync the clock, e.g. with NTP)"
	case isAPICode(err, "AccessDenied", "AllAccessDisabled", "AccountProblem"):
		e.Msg = fmt.Sprintf("access denied when trying to %s (grant s3:PutObject, s3:GetObject, s3:DeleteObject and s3:ListBucket on %s)", step, s.url)
	case isAPICode(err, "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException") || httpStatus(err) == http.StatusMovedPermanently:
		e.Msg = fmt.Sprintf("bucket %q is in another region than the configured one (set AWS_REGION to the bucket's region)", s.bucket)
	case reason == ErrUnreachable && errors.Is(err, context.DeadlineExceeded):
		e.Msg = fmt.Sprintf("%s did not answer within %s (check the endpoint URL and the network)", endpoint, s.o.preflightTimeout)
	case reason == ErrUnreachable:
		e.Msg = fmt.Sprintf("%s is unreachable: %s (is the S3 server running? check the endpoint URL or AWS_ENDPOINT_URL)", endpoint, netCause(err))
	case errors.Is(err, context.Canceled):
		e.Msg = fmt.Sprintf("preflight interrupted: %v", err)
	default:
		e.Msg = fmt.Sprintf("cannot %s: %v", step, err)
	}
	return e
}

// s3Reason classifies an S3 error into one of the package's reasons, or nil.
func s3Reason(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errNoCredentials):
		return ErrCredentials
	case isAPICode(err, "NoSuchBucket"):
		return ErrNoBucket
	case isAPICode(err, credentialCodes...):
		return ErrCredentials
	case isAPICode(err, "AccessDenied", "AllAccessDisabled", "AccountProblem"):
		return ErrAccessDenied
	}
	var opErr *net.OpError
	var dnsErr *net.DNSError
	if errors.As(err, &opErr) && opErr.Op == "dial" || errors.As(err, &dnsErr) {
		return ErrUnreachable
	}
	// A deadline that ran out before any answer arrived (the SDK reports
	// status 0 then).
	if errors.Is(err, context.DeadlineExceeded) && httpStatus(err) == 0 {
		return ErrUnreachable
	}
	return nil
}

// netCause names the network failure behind err in a few words.
func netCause(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.Error()
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		var sys interface{ Unwrap() error }
		if errors.As(opErr.Err, &sys) && sys.Unwrap() != nil {
			return sys.Unwrap().Error() // "connection refused", not "connect: connection refused"
		}
		return opErr.Err.Error()
	}
	return err.Error()
}

// credentialCodes are the error codes of rejected credentials.
// XAdminUserNotFound is versitygw's answer to an unknown access key.
var credentialCodes = []string{
	"InvalidAccessKeyId", "XAdminUserNotFound", "SignatureDoesNotMatch",
	"ExpiredToken", "TokenRefreshRequired", "InvalidToken",
}

func isAPICode(err error, codes ...string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && slices.Contains(codes, ae.ErrorCode())
}

func httpStatus(err error) int {
	var re *smithyhttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// errNoCredentials marks a failure to find credentials, which the SDK
// reports only as text.
var errNoCredentials = errors.New("no credentials")

// markedCredentials tags credential-chain failures with errNoCredentials.
type markedCredentials struct{ aws.CredentialsProvider }

func (m markedCredentials) Retrieve(ctx context.Context) (aws.Credentials, error) {
	c, err := m.CredentialsProvider.Retrieve(ctx)
	if err != nil {
		return c, fmt.Errorf("%w: %w", errNoCredentials, err)
	}
	return c, nil
}
