//go:build linux

package clustertest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/parquet-go/parquet-go"

	"github.com/quarry-rl/quarry/schema"
)

// Watcher lists a job's folder in the bucket over and over while the job
// runs, as a consumer would, and checks everything it sees: every shard
// object a complete Parquet file (footer and metadata readable, rows > 0)
// that never changes once seen; every manifest a valid commit record whose
// files are present with the sizes and checksums it names. The first
// violation ends the watch.
type Watcher struct {
	client *s3.Client
	bucket string
	prefix string // <prefix>/<job>/

	mu        sync.Mutex
	shards    map[string]int64 // key → size, once verified
	manifests map[string]schema.Manifest
	listings  int
	err       error
	changed   chan struct{} // closed and replaced whenever the manifest count grows
}

// NewWatcher watches s3://bucket/prefix (the job's folder, ending in "/")
// on the cluster's S3 server.
func (c *Cluster) NewWatcher(bucket, prefix string) *Watcher {
	return newWatcher(s3.New(s3.Options{
		BaseEndpoint: aws.String(c.Getenv("AWS_ENDPOINT_URL")),
		Region:       c.Getenv("AWS_REGION"),
		Credentials:  credentials.NewStaticCredentialsProvider(c.Getenv("AWS_ACCESS_KEY_ID"), c.Getenv("AWS_SECRET_ACCESS_KEY"), ""),
		UsePathStyle: true,
	}), bucket, prefix)
}

func newWatcher(client *s3.Client, bucket, prefix string) *Watcher {
	return &Watcher{client: client, bucket: bucket, prefix: prefix, shards: map[string]int64{},
		manifests: map[string]schema.Manifest{}, changed: make(chan struct{})}
}

// Run polls until ctx ends or a check fails, and returns the failure (nil
// when ctx ended).
func (w *Watcher) Run(ctx context.Context) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := w.scan(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			w.mu.Lock()
			w.err = err
			close(w.changed)
			w.changed = make(chan struct{})
			w.mu.Unlock()
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// Committed returns the number of manifests seen, a channel closed when it
// next changes (or the watch fails), and the watch's failure so far.
func (w *Watcher) Committed() (int, <-chan struct{}, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.manifests), w.changed, w.err
}

// Stats returns what the watch has verified: listings made, shard objects
// and manifests.
func (w *Watcher) Stats() (listings, shards, manifests int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.listings, len(w.shards), len(w.manifests)
}

// WaitCommitted blocks until at least n manifests are seen.
func (w *Watcher) WaitCommitted(ctx context.Context, n int) error {
	for {
		got, changed, err := w.Committed()
		if err != nil {
			return err
		}
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d manifests committed: %w", got, n, ctx.Err())
		case <-changed:
		}
	}
}

// Scan makes one listing and checks it (a final pass after the job).
func (w *Watcher) Scan(ctx context.Context) error { return w.scan(ctx) }

func (w *Watcher) scan(ctx context.Context) error {
	var shardKeys, manifestKeys []string
	sizes := map[string]int64{}
	p := s3.NewListObjectsV2Paginator(w.client, &s3.ListObjectsV2Input{Bucket: &w.bucket, Prefix: &w.prefix})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list s3://%s/%s: %w", w.bucket, w.prefix, err)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			rel := strings.TrimPrefix(key, w.prefix)
			sizes[key] = aws.ToInt64(o.Size)
			switch {
			case strings.HasPrefix(rel, "shards/"):
				shardKeys = append(shardKeys, key)
			case strings.HasPrefix(rel, "_manifest/"):
				manifestKeys = append(manifestKeys, key)
			}
		}
	}
	for _, key := range shardKeys {
		if err := w.checkShard(ctx, key, sizes[key]); err != nil {
			return err
		}
	}
	for _, key := range manifestKeys {
		if err := w.checkManifest(ctx, key); err != nil {
			return err
		}
	}
	w.mu.Lock()
	w.listings++
	w.mu.Unlock()
	return nil
}

// checkShard verifies a shard object the first time it is listed, and that
// its size never changes after.
func (w *Watcher) checkShard(ctx context.Context, key string, size int64) error {
	w.mu.Lock()
	seen, ok := w.shards[key]
	w.mu.Unlock()
	if ok {
		if seen != size {
			return fmt.Errorf("s3://%s/%s changed from %d to %d bytes after it was first visible", w.bucket, key, seen, size)
		}
		return nil
	}
	if !strings.HasSuffix(key, ".parquet") {
		return fmt.Errorf("s3://%s/%s: an object in shards/ that is not a Parquet file", w.bucket, key)
	}
	data, err := w.get(ctx, key)
	if err != nil {
		return err
	}
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("s3://%s/%s (%d bytes) is visible but not a complete Parquet file: %w", w.bucket, key, len(data), err)
	}
	if f.NumRows() == 0 {
		return fmt.Errorf("s3://%s/%s is visible with no rows", w.bucket, key)
	}
	w.mu.Lock()
	w.shards[key] = int64(len(data))
	w.mu.Unlock()
	return nil
}

// checkManifest decodes a manifest the first time it is listed and checks
// the files it commits.
func (w *Watcher) checkManifest(ctx context.Context, key string) error {
	w.mu.Lock()
	_, ok := w.manifests[key]
	w.mu.Unlock()
	if ok {
		return nil
	}
	data, err := w.get(ctx, key)
	if err != nil {
		return err
	}
	m, err := schema.UnmarshalManifest(data)
	if err != nil {
		return fmt.Errorf("s3://%s/%s is visible but not a whole manifest: %w", w.bucket, key, err)
	}
	for _, f := range m.Files {
		body, err := w.get(ctx, w.prefix+f.Path)
		if err != nil {
			return fmt.Errorf("manifest %s commits %s: %w", key, f.Path, err)
		}
		if err := f.Verify(body); err != nil {
			return fmt.Errorf("manifest %s: %w", key, err)
		}
	}
	w.mu.Lock()
	w.manifests[key] = m
	close(w.changed)
	w.changed = make(chan struct{})
	w.mu.Unlock()
	return nil
}

// Manifests returns the manifests seen, by key.
func (w *Watcher) Manifests() map[string]schema.Manifest {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]schema.Manifest, len(w.manifests))
	for k, m := range w.manifests {
		out[k] = m
	}
	return out
}

func (w *Watcher) get(ctx context.Context, key string) ([]byte, error) {
	out, err := w.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &w.bucket, Key: &key})
	if err != nil {
		return nil, fmt.Errorf("get s3://%s/%s: %w", w.bucket, key, err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, fmt.Errorf("read s3://%s/%s: %w", w.bucket, key, err)
	}
	if out.ContentLength != nil && int64(len(data)) != *out.ContentLength {
		return nil, fmt.Errorf("read s3://%s/%s: %d of %d bytes", w.bucket, key, len(data), *out.ContentLength)
	}
	return data, nil
}
