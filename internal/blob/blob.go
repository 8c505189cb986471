// Package blob stores immutable objects — turn logs, Parquet shards, manifest
// entries — in a local folder (file://) or an S3 bucket (s3://), behind one
// small interface.
//
// Both stores give the guarantee the output layer builds exactly-once commits
// on: an object is either absent or complete. A reader never sees a
// half-written object; a writer killed mid-way leaves only debris that the
// store itself recognises and removes (temporary files in a folder,
// incomplete multipart uploads in a bucket), never a visible object.
//
// Open chooses the store from a URL; Preflight, run once before any work,
// turns a missing bucket, rejected credentials, an unreachable endpoint or an
// unwritable folder into one actionable error.
package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// Store is a flat namespace of immutable objects under one location.
//
// Keys are slash-separated relative paths ("job/shards/part-00001.turns.parquet").
// A key's segments may not be empty, "." or "..", and may not start with
// ".quarry-", which the stores reserve for their own temporary objects.
type Store interface {
	// Put writes the object at key from r, replacing any previous object.
	// The object becomes visible only once complete: a failed or cancelled
	// Put leaves the previous state (absent, or the old object) in place.
	Put(ctx context.Context, key string, r io.Reader) error
	// Get opens the object at key; the caller closes it. A missing object
	// is reported with an error that matches ErrNotExist.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	// Stat describes the object at key, or reports ErrNotExist.
	Stat(ctx context.Context, key string) (Info, error)
	// List returns every object whose key starts with prefix (a plain string
	// prefix, as in S3, not necessarily ending in "/"), sorted by key.
	List(ctx context.Context, prefix string) ([]Info, error)
	// Delete removes the object at key. Deleting a missing object is not an
	// error.
	Delete(ctx context.Context, key string) error
	// Preflight writes, reads back and deletes a probe object, and reports
	// any problem as one *PreflightError that says what to fix.
	Preflight(ctx context.Context) error
	// Cleanup removes the debris of writers that died mid-write — temporary
	// files in a folder, incomplete multipart uploads in a bucket — started
	// more than olderThan ago, and reports how many it removed. The age
	// guard protects writes still in progress in other processes; pass 0
	// only when no other writer can be active.
	Cleanup(ctx context.Context, olderThan time.Duration) (int, error)
	// URL names the store's location, for messages. It never holds secrets.
	URL() string
}

// Info describes one stored object.
type Info struct {
	Key     string // relative to the store's location
	Size    int64
	ModTime time.Time
}

// ErrNotExist is matched (errors.Is) by errors reporting a missing object.
var ErrNotExist = errors.New("object does not exist")

// ErrInvalidKey is matched by errors reporting a key the stores refuse.
var ErrInvalidKey = errors.New("invalid key")

// reservedPrefix starts the names of the stores' own objects: temporary
// files and preflight probes. List never returns them and Put refuses them.
const (
	reservedPrefix = ".quarry-"
	tempPrefix     = reservedPrefix + "tmp-"
	probePrefix    = reservedPrefix + "preflight-"
)

// DefaultStaleAge is how old a temporary file or an incomplete multipart
// upload must be before cleanup treats it as the debris of a dead writer.
// It is far longer than any single write takes.
const DefaultStaleAge = time.Hour

// Open returns the store at rawURL:
//
//   - file:///abs/path, or a plain path (relative paths are made absolute):
//     a local folder, created on the first write. Open sweeps temporary
//     files older than the stale age (WithStaleAge) left by killed writers.
//   - s3://bucket/prefix: an S3 bucket, or an S3-compatible store via
//     WithEndpoint or AWS_ENDPOINT_URL (path-style addressing is then used
//     unless WithPathStyle says otherwise). Credentials and region come from
//     the standard AWS chain unless given as options, and so do the SDK's
//     other settings (AWS_RETRY_MODE, AWS_REQUEST_CHECKSUM_CALCULATION=when_required
//     for stores that reject the default CRC32 checksums, …). Open makes no
//     network call; Preflight checks access and then aborts stale
//     incomplete multipart uploads under the prefix.
func Open(ctx context.Context, rawURL string, opts ...Option) (Store, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	if !strings.Contains(rawURL, "://") {
		if rawURL == "" {
			return nil, errors.New("blob: empty location (want a folder path, file:///path or s3://bucket/prefix)")
		}
		abs, err := filepath.Abs(rawURL)
		if err != nil {
			return nil, fmt.Errorf("blob: %s: %w", rawURL, err)
		}
		return openFile(ctx, abs, o), nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("blob: parse location: %w", err)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("blob: %s: query parameters are not supported (configure the store with options or AWS_* environment variables)", redactURL(u))
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("blob: %s: a file URL needs an absolute path, file:///path (host %q given)", rawURL, u.Host)
		}
		if u.Path == "" || !filepath.IsAbs(u.Path) {
			return nil, fmt.Errorf("blob: %s: a file URL needs an absolute path, file:///path", rawURL)
		}
		return openFile(ctx, filepath.Clean(u.Path), o), nil
	case "s3":
		if u.User != nil {
			return nil, fmt.Errorf("blob: %s: credentials do not belong in the URL (use the AWS credential chain)", redactURL(u))
		}
		return openS3(ctx, u.Host, u.Path, o)
	default:
		return nil, fmt.Errorf("blob: %s: unsupported scheme %q (use a folder path, file:///path or s3://bucket/prefix)", redactURL(u), u.Scheme)
	}
}

// ReadAll reads the whole object at key.
func ReadAll(ctx context.Context, s Store, key string) ([]byte, error) {
	rc, err := s.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", s.URL(), key, err)
	}
	return data, nil
}

// PutBytes writes data as the object at key.
func PutBytes(ctx context.Context, s Store, key string, data []byte) error {
	return s.Put(ctx, key, bytes.NewReader(data))
}

// checkKey refuses keys that could escape the store's location, collide
// with the stores' own temporary objects, or mean different things in a
// folder and in a bucket.
func checkKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	return checkSegments(key, false)
}

// checkPrefix is checkKey for List prefixes: empty and a trailing "/" are fine.
func checkPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	return checkSegments(prefix, true)
}

func checkSegments(s string, isPrefix bool) error {
	if strings.ContainsAny(s, "\\\x00") {
		return fmt.Errorf("%w %q: backslash and NUL are not allowed", ErrInvalidKey, s)
	}
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		switch {
		case seg == "" && isPrefix && last:
			// "a/b/" lists everything under a/b.
		case seg == "", seg == ".", seg == "..":
			return fmt.Errorf("%w %q: empty, \".\" and \"..\" path segments are not allowed", ErrInvalidKey, s)
		case strings.HasPrefix(seg, reservedPrefix):
			return fmt.Errorf("%w %q: names starting with %q are reserved", ErrInvalidKey, s, reservedPrefix)
		}
	}
	return nil
}

// isReserved reports whether a key holds a segment the stores reserve.
func isReserved(key string) bool {
	for seg := range strings.SplitSeq(key, "/") {
		if strings.HasPrefix(seg, reservedPrefix) {
			return true
		}
	}
	return false
}

// redactURL drops user info so a URL can appear in messages.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.Fragment = ""
	return c.String()
}

// discardLogger is used when no logger is given.
func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
