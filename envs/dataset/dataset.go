package dataset

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
)

// Reasons a dataset cannot be opened that callers branch on (errors.Is):
// none of them is worth retrying.
var (
	// ErrNotFound: the file or object does not exist.
	ErrNotFound = errors.New("dataset not found")
	// ErrAccess: the server refused the credentials, or there were none.
	ErrAccess = errors.New("access to dataset denied")
	// ErrFormat: the format is unknown, or the file is not in it.
	ErrFormat = errors.New("unsupported or malformed dataset file")
	// ErrTooLarge: a row, or what the file's metadata asks to be read at
	// once, is beyond the reader's bounds (MaxRowBytes, MaxParquetAlloc).
	ErrTooLarge = errors.New("dataset row too large")
)

// MaxRowBytes bounds one JSONL row (one line): a crafted file with one
// enormous line gives an error instead of an allocation of its size. The
// largest rows of the datasets Quarry reads (code problems with their
// tests) are a few megabytes.
const MaxRowBytes = 64 << 20

// MissingColumnError reports required columns a dataset lacks. It names
// what is there, so the fix (a different column option, a different file)
// is plain from the message.
type MissingColumnError struct {
	URL     string   // the dataset, without secrets
	Missing []string // required and absent, in the order required
	Present []string // the dataset's columns
}

// Error names the missing columns and lists the ones present.
func (e *MissingColumnError) Error() string {
	q := func(s []string) string {
		out := make([]string, len(s))
		for i, c := range s {
			out[i] = strconv.Quote(c)
		}
		return strings.Join(out, ", ")
	}
	noun := "column"
	if len(e.Missing) > 1 {
		noun = "columns"
	}
	return fmt.Sprintf("dataset %s: missing %s %s (columns present: %s; name one of those in the env's column options, or use a file that has %s)",
		e.URL, noun, q(e.Missing), q(e.Present), q(e.Missing))
}

// Format names a file format.
type Format string

// The formats Open reads.
const (
	// FormatAuto picks the format from the file name: .jsonl, .ndjson
	// (optionally .gz) or .parquet.
	FormatAuto Format = ""
	// FormatJSONL is JSON Lines: one JSON object per line; blank lines are
	// skipped; gzip-compressed files are recognised by their magic bytes.
	FormatJSONL Format = "jsonl"
	// FormatParquet is Apache Parquet.
	FormatParquet Format = "parquet"
)

// DefaultRowGroupCache is how many bytes (uncompressed, as the file's
// metadata counts them) of decoded Parquet row groups a dataset keeps.
const DefaultRowGroupCache = 64 << 20

type options struct {
	columns       []string
	format        Format
	cacheDir      string
	client        *http.Client
	blobOpts      []blob.Option
	rowGroupCache int64
	stallTimeout  time.Duration
}

// An Option configures Open.
type Option func(*options)

// WithColumns names the columns every row must have. Open checks them (see
// Dataset.Check) and fails with a *MissingColumnError when one is absent.
// JSON Lines has no schema: its first row stands for the file.
func WithColumns(cols ...string) Option {
	return func(o *options) { o.columns = append(o.columns, cols...) }
}

// WithFormat sets the format instead of inferring it from the file name.
func WithFormat(f Format) Option { return func(o *options) { o.format = f } }

// WithCacheDir sets the folder remote files, decompressed copies and line
// indexes are cached in (default $XDG_CACHE_HOME/quarry/datasets, else
// ~/.cache/quarry/datasets).
func WithCacheDir(dir string) Option { return func(o *options) { o.cacheDir = dir } }

// WithHTTPClient sets the client for http(s):// and hf:// downloads. By
// default each load uses a client whose connect, TLS and response-header
// waits are bounded by the stall timeout. Whatever the client, a download
// that makes no progress for the stall timeout fails (WithStallTimeout).
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.client = c } }

// WithStallTimeout sets how long a remote download (http(s)://, hf://,
// s3://) may make no progress — no connection, no response, no body bytes —
// before it fails with ErrStalled (DefaultStallTimeout). It bounds stalls,
// not the length of a download that keeps making progress: the caller's
// context bounds that.
func WithStallTimeout(d time.Duration) Option {
	return func(o *options) { o.stallTimeout = d }
}

// WithBlobOptions passes options (endpoint, region, credentials) to the S3
// store that s3:// datasets are read through.
func WithBlobOptions(opts ...blob.Option) Option {
	return func(o *options) { o.blobOpts = append(o.blobOpts, opts...) }
}

// WithRowGroupCache bounds the bytes of decoded Parquet row groups kept in
// memory (DefaultRowGroupCache). A row group larger than the bound is never
// decoded whole: each row is read by seeking within it. 0 turns the cache
// off.
func WithRowGroupCache(bytes int64) Option {
	return func(o *options) { o.rowGroupCache = bytes }
}

// rowSource is one format's reader.
type rowSource interface {
	len() int
	columns() []string
	row(i int) (map[string]any, error)
	close() error
}

// Dataset is an opened file of rows. Its methods are safe for concurrent use.
type Dataset struct {
	url    string // without secrets
	path   string
	format Format
	src    rowSource
}

// URL returns the dataset's location as given to Open, without secrets.
func (d *Dataset) URL() string { return d.url }

// Path returns the local file rows are read from: the file itself, or its
// copy in the cache.
func (d *Dataset) Path() string { return d.path }

// Format returns the dataset's format.
func (d *Dataset) Format() Format { return d.format }

// Len returns the number of rows.
func (d *Dataset) Len() int { return d.src.len() }

// Columns returns the dataset's column names, sorted: the schema's top-level
// fields for Parquet, the first row's keys for JSONL.
func (d *Dataset) Columns() []string { return slices.Clone(d.src.columns()) }

// Check verifies that the dataset has every named column, and reports the
// ones it lacks in a *MissingColumnError.
func (d *Dataset) Check(cols ...string) error {
	have := d.src.columns()
	var missing []string
	for _, c := range cols {
		if _, ok := slices.BinarySearch(have, c); !ok && !slices.Contains(missing, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return &MissingColumnError{URL: d.url, Missing: missing, Present: slices.Clone(have)}
	}
	return nil
}

// Row returns row i (0 ≤ i < Len) as a fresh map the caller may keep and
// change. Values are what JSON decoding gives — string, bool, nil,
// []any, map[string]any — except that integers are int64 (float64 only
// for numbers with a fraction or exponent, or beyond int64; beyond
// float64's range a row is ErrFormat), so JSONL and
// Parquet rows agree; Parquet adds []byte for binary columns and
// time.Time for dates and timestamps.
func (d *Dataset) Row(ctx context.Context, i int) (map[string]any, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("dataset %s: row %d: %w", d.url, i, err)
	}
	if i < 0 || i >= d.src.len() {
		return nil, fmt.Errorf("dataset %s: row %d out of range [0, %d)", d.url, i, d.src.len())
	}
	row, err := d.src.row(i)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: row %d: %w", d.url, i, err)
	}
	return row, nil
}

// Registry is a process's set of open datasets: opening a location twice
// returns the same *Dataset, so the episodes a worker runs share one file
// handle, one line index and one row-group cache.
type Registry struct {
	mu      sync.Mutex
	entries map[string]*entry
}

type entry struct {
	done chan struct{}
	ds   *Dataset
	err  error
	// abandoned: the load failed because its caller's context ended, not
	// because of the dataset; a waiter with time left loads it again.
	abandoned bool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{entries: map[string]*entry{}} }

// defaultRegistry is the per-process cache of open datasets behind Open: the
// package's only mutable global, so every env on a worker shares handles.
var defaultRegistry = NewRegistry()

// Open opens a dataset through the process's registry; see Registry.Open.
func Open(ctx context.Context, rawURL string, opts ...Option) (*Dataset, error) {
	return defaultRegistry.Open(ctx, rawURL, opts...)
}

// Open returns the dataset at rawURL, opening it on first use:
//
//   - a path, or file:///abs/path: read in place;
//   - http(s)://…: downloaded once into the cache;
//   - s3://bucket/key: downloaded once through internal/blob (endpoint and
//     credentials from WithBlobOptions or the AWS chain);
//   - hf://datasets/<owner>/<name>[@revision]/<path>: the Hugging Face Hub
//     file at $HF_ENDPOINT (https://huggingface.co)/datasets/<owner>/<name>/resolve/<revision>/<path>,
//     revision main by default; HF_TOKEN, when set, is sent as a bearer token
//     to the Hub (never elsewhere, never logged).
//
// A remote file is cached under a name derived from its URL and, when the
// server reports them, its ETag and size (S3: size and modification time),
// written atomically. Later opens — in this process or another — send a
// HEAD (S3: a stat) and reuse the entry. Old versions are not removed.
//
// Opening the same location again (same resolved URL, format and cache
// folder) returns the same *Dataset, whatever the other options; concurrent
// first opens wait for one download. WithColumns is checked on every call.
func (r *Registry) Open(ctx context.Context, rawURL string, opts ...Option) (*Dataset, error) {
	o := options{rowGroupCache: DefaultRowGroupCache, stallTimeout: DefaultStallTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if o.stallTimeout <= 0 {
		return nil, fmt.Errorf("dataset %s: stall timeout %s: want more than 0", redact(rawURL), o.stallTimeout)
	}
	loc, err := resolve(rawURL)
	if err != nil {
		return nil, err
	}
	if o.cacheDir == "" {
		if o.cacheDir, err = defaultCacheDir(); err != nil {
			return nil, err
		}
	}
	if o.cacheDir, err = filepath.Abs(o.cacheDir); err != nil {
		return nil, fmt.Errorf("dataset cache: %w", err)
	}
	key := loc.key() + "\x00" + string(o.format) + "\x00" + o.cacheDir
	for {
		r.mu.Lock()
		e, ok := r.entries[key]
		if !ok {
			e = &entry{done: make(chan struct{})}
			r.entries[key] = e
			r.mu.Unlock()
			e.ds, e.err = load(ctx, loc, o)
			e.abandoned = e.err != nil && ctx.Err() != nil
			if e.err != nil {
				r.mu.Lock()
				delete(r.entries, key)
				r.mu.Unlock()
			}
			close(e.done)
		} else {
			r.mu.Unlock()
		}
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("dataset %s: %w", loc.display, ctx.Err())
		}
		if e.err != nil {
			// Another caller's cancellation is not ours: try again.
			if ok && ctx.Err() == nil && e.abandoned {
				continue
			}
			return nil, e.err
		}
		if err := e.ds.Check(o.columns...); err != nil {
			return nil, err
		}
		return e.ds, nil
	}
}

// Close closes every dataset the registry opened and forgets them. Handles
// returned earlier must not be used afterwards.
func (r *Registry) Close() error {
	r.mu.Lock()
	entries := r.entries
	r.entries = map[string]*entry{}
	r.mu.Unlock()
	var errs []error
	for _, e := range entries {
		<-e.done
		if e.ds != nil {
			errs = append(errs, e.ds.src.close())
		}
	}
	return errors.Join(errs...)
}

// load opens one dataset: fetch, format, index.
func load(ctx context.Context, loc location, o options) (*Dataset, error) {
	f := &fetcher{cacheDir: o.cacheDir, client: o.client, blobOpts: o.blobOpts, stall: o.stallTimeout}
	if f.client == nil && loc.kind == sourceHTTP {
		f.client = newHTTPClient(o.stallTimeout)
		defer f.client.CloseIdleConnections()
	}
	p, err := f.localFile(ctx, loc)
	if err != nil {
		return nil, err
	}
	format := o.format
	if format == FormatAuto {
		name := strings.TrimSuffix(strings.ToLower(loc.name), ".gz")
		switch {
		case strings.HasSuffix(name, ".jsonl"), strings.HasSuffix(name, ".ndjson"):
			format = FormatJSONL
		case strings.HasSuffix(name, ".parquet"):
			format = FormatParquet
		default:
			return nil, fmt.Errorf("dataset %s: cannot tell the format from the name %q (want .jsonl, .jsonl.gz, .ndjson or .parquet, or use WithFormat): %w", loc.display, loc.name, ErrFormat)
		}
	}
	d := &Dataset{url: loc.display, format: format}
	switch format {
	case FormatJSONL:
		if p, err = gunzipIfNeeded(ctx, p, o.cacheDir, loc); err != nil {
			return nil, err
		}
		src, err := openJSONL(ctx, p, indexPath(p, o.cacheDir))
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", loc.display, err)
		}
		d.src = src
	case FormatParquet:
		src, err := openParquet(p, o.rowGroupCache)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", loc.display, err)
		}
		d.src = src
	default:
		return nil, fmt.Errorf("dataset %s: unknown format %q (want %q or %q): %w", loc.display, format, FormatJSONL, FormatParquet, ErrFormat)
	}
	d.path = p
	if d.src.len() == 0 {
		d.src.close()
		return nil, fmt.Errorf("dataset %s: no rows: %w", loc.display, ErrFormat)
	}
	return d, nil
}

// inCache reports whether p lies in the cache folder.
func inCache(p, cacheDir string) bool {
	rel, err := filepath.Rel(cacheDir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileVersion names a local file's version for cache keys.
func fileVersion(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s|%d|%d", p, fi.Size(), fi.ModTime().UnixNano()), nil
}

// indexPath is where a JSONL file's line index lives: beside the file when
// the file is in the cache, else in the cache under a name derived from the
// file's path, size and modification time (a user's data folder may be
// read-only, and is not ours to write in).
func indexPath(p, cacheDir string) string {
	if inCache(p, cacheDir) {
		return p + ".idx"
	}
	v, err := fileVersion(p)
	if err != nil {
		v = p
	}
	return filepath.Join(cacheDir, "index", hashHex(v, 24)+"-"+cleanName(filepath.Base(p))+".idx")
}

// gunzipIfNeeded returns p, or when p is gzip-compressed a decompressed copy
// in the cache (gzip cannot be seeked into).
func gunzipIfNeeded(ctx context.Context, p, cacheDir string, loc location) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", loc.display, err)
	}
	defer f.Close()
	var magic [2]byte
	if n, _ := io.ReadFull(f, magic[:]); n < 2 || magic != [2]byte{0x1f, 0x8b} {
		return p, nil
	}
	v, err := fileVersion(p)
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", loc.display, err)
	}
	name := strings.TrimSuffix(cleanName(filepath.Base(p)), ".gz")
	dst := filepath.Join(cacheDir, "gunzip", hashHex(v, 24)+"-"+name)
	if _, err := os.Stat(dst); err == nil {
		return dst, nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("dataset %s: %w", loc.display, err)
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return "", fmt.Errorf("dataset %s: gunzip: %w", loc.display, err)
	}
	err = writeAtomic(dst, func(w io.Writer) error {
		if _, err := io.Copy(w, ctxReader{ctx, zr}); err != nil {
			return fmt.Errorf("dataset %s: gunzip: %w", loc.display, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return dst, nil
}

// ctxReader stops a long copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
