package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
)

// defaultHFEndpoint is the Hugging Face Hub, unless HF_ENDPOINT says otherwise.
const defaultHFEndpoint = "https://huggingface.co"

type sourceKind int

const (
	sourceLocal sourceKind = iota
	sourceHTTP
	sourceS3
)

// location is where a dataset's bytes live, resolved from the URL a caller
// gave but not yet fetched.
type location struct {
	kind    sourceKind
	path    string // sourceLocal: absolute path
	url     string // sourceHTTP: the URL to GET; sourceS3: s3://bucket/key
	display string // for messages: the URL as given, without secrets
	name    string // the file name, for the format and the cache entry
	hfHost  string // the Hub's host when url is on it (a token may apply)
}

// key identifies the location in the process registry.
func (l location) key() string {
	if l.kind == sourceLocal {
		return "file://" + l.path
	}
	return l.url
}

// resolve parses a dataset URL. It reads HF_ENDPOINT (hf:// only); it does no
// I/O.
func resolve(raw string) (location, error) {
	if raw == "" {
		return location{}, errors.New("empty dataset location (want a path, file:///…, http(s)://…, s3://bucket/key or hf://datasets/owner/name/path)")
	}
	if !strings.Contains(raw, "://") {
		abs, err := filepath.Abs(raw)
		if err != nil {
			return location{}, fmt.Errorf("dataset %s: %w", raw, err)
		}
		return location{kind: sourceLocal, path: abs, display: abs, name: filepath.Base(abs)}, nil
	}
	scheme, rest, _ := strings.Cut(raw, "://")
	switch strings.ToLower(scheme) {
	case "hf":
		return resolveHF(raw, rest)
	case "file":
		u, err := url.Parse(raw)
		if err != nil {
			return location{}, fmt.Errorf("dataset %s: %w", redact(raw), err)
		}
		if (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
			return location{}, fmt.Errorf("dataset %s: a file URL needs an absolute path, file:///path", raw)
		}
		p := filepath.Clean(u.Path)
		return location{kind: sourceLocal, path: p, display: p, name: filepath.Base(p)}, nil
	case "http", "https":
		u, err := url.Parse(raw)
		if err != nil {
			return location{}, fmt.Errorf("dataset %s: %w", redact(raw), err)
		}
		if u.Host == "" {
			return location{}, fmt.Errorf("dataset %s: no host in URL", redact(raw))
		}
		l := location{kind: sourceHTTP, url: u.String(), display: redact(raw), name: path.Base(u.Path)}
		if hf, err := url.Parse(hfEndpoint()); err == nil && strings.EqualFold(hf.Host, u.Host) {
			l.hfHost = u.Host
		}
		return l, nil
	case "s3":
		u, err := url.Parse(raw)
		if err != nil {
			return location{}, fmt.Errorf("dataset %s: %w", redact(raw), err)
		}
		key := strings.TrimPrefix(u.Path, "/")
		if u.Host == "" || key == "" || strings.HasSuffix(key, "/") {
			return location{}, fmt.Errorf("dataset %s: want s3://bucket/key naming one object", redact(raw))
		}
		if u.User != nil || u.RawQuery != "" {
			return location{}, fmt.Errorf("dataset %s: credentials and query parameters do not belong in an s3:// URL (use the AWS credential chain or WithBlobOptions)", redact(raw))
		}
		return location{kind: sourceS3, url: "s3://" + u.Host + "/" + key, display: redact(raw), name: path.Base(key)}, nil
	default:
		return location{}, fmt.Errorf("dataset %s: unsupported scheme %q (want a path, file:///…, http(s)://…, s3://bucket/key or hf://datasets/owner/name/path)", redact(raw), scheme)
	}
}

func hfEndpoint() string {
	if e := strings.TrimRight(os.Getenv("HF_ENDPOINT"), "/"); e != "" {
		return e
	}
	return defaultHFEndpoint
}

// resolveHF maps hf://datasets/<owner>/<name>[@rev]/<path> to the Hub's
// resolve URL. A revision holding slashes is written URL-encoded
// (@refs%2Fconvert%2Fparquet) or, for the Hub's two well-known forms, plainly
// (@refs/convert/parquet, @refs/pr/7).
func resolveHF(raw, rest string) (location, error) {
	bad := func(why string) (location, error) {
		return location{}, fmt.Errorf("dataset %s: %s (want hf://datasets/<owner>/<name>[@revision]/<path in repo>)", redact(raw), why)
	}
	if rest, _, _ = strings.Cut(rest, "?"); !strings.HasPrefix(rest, "datasets/") {
		return bad("only dataset repositories are supported")
	}
	parts := strings.SplitN(strings.TrimPrefix(rest, "datasets/"), "/", 3)
	if len(parts) < 3 || parts[0] == "" || parts[1] == "" {
		return bad("owner, name and a file path are required")
	}
	owner, name, file := parts[0], parts[1], parts[2]
	rev := "main"
	if n, r, ok := strings.Cut(name, "@"); ok {
		name, rev = n, r
		if rev == "refs" {
			// A plainly written refs/convert/<x> or refs/pr/<n>: the
			// revision continues into what looked like the path.
			full := rev + "/" + file
			for _, special := range []string{"refs/convert/", "refs/pr/"} {
				if strings.HasPrefix(full, special) {
					if seg, rest, ok := strings.Cut(full[len(special):], "/"); ok {
						rev, file = special+seg, rest
					}
					break
				}
			}
		}
		if r, err := url.PathUnescape(rev); err == nil {
			rev = r
		}
		if rev == "" {
			return bad("empty revision after @")
		}
	}
	if file == "" || strings.HasSuffix(file, "/") {
		return bad("the path must name a file")
	}
	for _, seg := range strings.Split(file, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bad("invalid path in repository")
		}
	}
	ep := hfEndpoint()
	epURL, err := url.Parse(ep)
	if err != nil || epURL.Host == "" {
		return location{}, fmt.Errorf("dataset %s: HF_ENDPOINT %q is not a URL", redact(raw), ep)
	}
	escaped := make([]string, 0, 4)
	for _, seg := range strings.Split(file, "/") {
		escaped = append(escaped, url.PathEscape(seg))
	}
	u := fmt.Sprintf("%s/datasets/%s/%s/resolve/%s/%s", ep, url.PathEscape(owner), url.PathEscape(name),
		url.PathEscape(rev), strings.Join(escaped, "/"))
	return location{kind: sourceHTTP, url: u, display: redact(raw), name: path.Base(file), hfHost: epURL.Host}, nil
}

// redact removes what may be secret from a URL for messages: the password of
// userinfo and the value of every query parameter (presigned URLs carry
// signatures there).
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			return raw[:i] + "?REDACTED"
		}
		return raw
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"REDACTED"}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	return u.String()
}

// httpError rewrites a net/http error so that the URL it carries is
// redacted.
func httpError(op, display string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("dataset %s: %s: %w", display, op, err)
}

// fetcher brings remote files into the local cache.
type fetcher struct {
	cacheDir string
	client   *http.Client
	blobOpts []blob.Option
	stall    time.Duration // see WithStallTimeout
}

// localFile returns a local path holding the location's bytes, downloading
// them into the cache first when they are remote.
func (f *fetcher) localFile(ctx context.Context, l location) (string, error) {
	switch l.kind {
	case sourceLocal:
		if _, err := os.Stat(l.path); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return "", fmt.Errorf("dataset %s: %w", l.display, ErrNotFound)
			}
			return "", fmt.Errorf("dataset %s: %w", l.display, err)
		}
		return l.path, nil
	case sourceHTTP:
		return f.fetchHTTP(ctx, l)
	case sourceS3:
		return f.fetchS3(ctx, l)
	}
	return "", fmt.Errorf("dataset %s: unknown source", l.display)
}

// entryPath is the cache file of a remote object: one folder per URL, one
// file per version (ETag and size when the server tells them) named after
// the object, so the extension survives.
func (f *fetcher) entryPath(l location, version string) string {
	return filepath.Join(f.cacheDir, hashHex(l.url, 20), hashHex(version, 12)+"-"+cleanName(l.name))
}

func hashHex(s string, n int) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])[:n]
}

// cleanName keeps a file name safe for any file system.
func cleanName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if len(s) > 100 {
		s = s[len(s)-100:]
	}
	if s == "" {
		s = "data"
	}
	return s
}

func (f *fetcher) authorize(req *http.Request, l location) {
	if l.hfHost == "" || !strings.EqualFold(req.URL.Host, l.hfHost) {
		return
	}
	if tok := os.Getenv("HF_TOKEN"); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
}

// remoteVersion describes one version of a remote object.
type remoteVersion struct {
	etag string
	size int64 // -1 when unknown
}

func (v remoteVersion) String() string {
	return "etag=" + v.etag + ";size=" + strconv.FormatInt(v.size, 10)
}

func (f *fetcher) fetchHTTP(ctx context.Context, l location) (string, error) {
	w := startWatchdog(ctx, f.stall)
	defer w.stop()
	ver, err := f.headVersion(w, l)
	if err != nil {
		return "", err
	}
	dst := f.entryPath(l, ver.String())
	if fi, err := os.Stat(dst); err == nil && (ver.size < 0 || fi.Size() == ver.size) {
		return dst, nil
	}
	w.kick()
	req, err := http.NewRequestWithContext(w.ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return "", httpError("GET", l.display, err)
	}
	f.authorize(req, l)
	// Ask for the bytes as stored: a transparently decompressed body would
	// not match the size the server announced.
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := f.client.Do(req)
	if err != nil {
		return "", httpError("GET", l.display, w.explain(err))
	}
	defer resp.Body.Close()
	w.kick()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return "", fmt.Errorf("dataset %s: GET: %s: %w", l.display, resp.Status, ErrNotFound)
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return "", f.accessError(l, "GET", resp.Status)
	case resp.StatusCode != http.StatusOK:
		return "", fmt.Errorf("dataset %s: GET: unexpected status %s", l.display, resp.Status)
	}
	if et := resp.Header.Get("ETag"); ver.etag != "" && et != "" && et != ver.etag {
		return "", fmt.Errorf("dataset %s: the file changed while it was being fetched (ETag %s, then %s); try again", l.display, ver.etag, et)
	}
	want := resp.ContentLength
	if want < 0 {
		want = ver.size
	}
	if err := writeAtomic(dst, func(out io.Writer) error {
		n, err := io.Copy(out, w.reader(resp.Body))
		if err != nil {
			return httpError("GET", l.display, w.explain(err))
		}
		if want >= 0 && n != want {
			return fmt.Errorf("dataset %s: GET: got %d bytes, want %d", l.display, n, want)
		}
		return nil
	}); err != nil {
		return "", err
	}
	return dst, nil
}

// headVersion asks for the version to look for in the cache. A server that
// refuses HEAD (or a URL signed for GET only) leaves the version unknown:
// the entry is then keyed by the URL alone.
func (f *fetcher) headVersion(w *watchdog, l location) (remoteVersion, error) {
	ver := remoteVersion{size: -1}
	req, err := http.NewRequestWithContext(w.ctx, http.MethodHead, l.url, nil)
	if err != nil {
		return ver, httpError("HEAD", l.display, err)
	}
	f.authorize(req, l)
	resp, err := f.client.Do(req)
	if err != nil {
		return ver, httpError("HEAD", l.display, w.explain(err))
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return ver, fmt.Errorf("dataset %s: HEAD: %s: %w", l.display, resp.Status, ErrNotFound)
	case resp.StatusCode == http.StatusUnauthorized:
		return ver, f.accessError(l, "HEAD", resp.Status)
	case resp.StatusCode/100 == 2:
		ver = remoteVersion{etag: resp.Header.Get("ETag"), size: resp.ContentLength}
	}
	return ver, nil
}

func (f *fetcher) accessError(l location, op, status string) error {
	hint := ""
	if l.hfHost != "" {
		hint = " (set HF_TOKEN on the worker to a Hugging Face token with access to the dataset)"
	}
	return fmt.Errorf("dataset %s: %s: %s%s: %w", l.display, op, status, hint, ErrAccess)
}

func (f *fetcher) fetchS3(ctx context.Context, l location) (string, error) {
	w := startWatchdog(ctx, f.stall)
	defer w.stop()
	dir, key := path.Split(strings.TrimPrefix(l.url, "s3://"))
	store, err := blob.Open(w.ctx, "s3://"+strings.TrimSuffix(dir, "/"), f.blobOpts...)
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", l.display, w.explain(err))
	}
	info, err := store.Stat(w.ctx, key)
	if err != nil {
		if errors.Is(err, blob.ErrNotExist) {
			return "", fmt.Errorf("dataset %s: %w", l.display, ErrNotFound)
		}
		return "", fmt.Errorf("dataset %s: stat: %w", l.display, w.explain(err))
	}
	ver := remoteVersion{etag: "mtime:" + info.ModTime.UTC().Format(time.RFC3339Nano), size: info.Size}
	dst := f.entryPath(l, ver.String())
	if fi, err := os.Stat(dst); err == nil && fi.Size() == ver.size {
		return dst, nil
	}
	w.kick()
	rc, err := store.Get(w.ctx, key)
	if err != nil {
		return "", fmt.Errorf("dataset %s: get: %w", l.display, w.explain(err))
	}
	defer rc.Close()
	w.kick()
	if err := writeAtomic(dst, func(out io.Writer) error {
		n, err := io.Copy(out, w.reader(rc))
		if err != nil {
			return fmt.Errorf("dataset %s: get: %w", l.display, w.explain(err))
		}
		if n != ver.size {
			return fmt.Errorf("dataset %s: get: got %d bytes, want %d", l.display, n, ver.size)
		}
		return nil
	}); err != nil {
		return "", err
	}
	return dst, nil
}

// tempPrefix starts the names of files being written into the cache. They
// never match an entry's name, so no reader opens one.
const tempPrefix = ".tmp-"

// writeAtomic writes dst through a temporary file in the same folder, synced
// and then renamed, so that dst is either absent or complete: concurrent
// processes on one host never see half a file, and a failed or killed writer
// leaves only a temporary file, which later writers in that folder sweep.
func writeAtomic(dst string, write func(io.Writer) error) error {
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("dataset cache: %w", err)
	}
	sweepTemps(dir, time.Hour)
	tmp, err := os.CreateTemp(dir, tempPrefix+filepath.Base(dst)+"-*")
	if err != nil {
		return fmt.Errorf("dataset cache: %w", err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("dataset cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("dataset cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("dataset cache: %w", err)
	}
	done = true
	return nil
}

// sweepTemps removes temporary files older than age: debris of writers that
// died. The age guard spares writes in progress in other processes.
func sweepTemps(dir string, age time.Duration) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > age {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// defaultCacheDir is $XDG_CACHE_HOME/quarry/datasets, else
// ~/.cache/quarry/datasets.
func defaultCacheDir() (string, error) {
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "quarry", "datasets"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("dataset cache: no XDG_CACHE_HOME and no home folder (use WithCacheDir): %w", err)
	}
	return filepath.Join(home, ".cache", "quarry", "datasets"), nil
}
