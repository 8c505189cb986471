package blob

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// fileStore keeps objects as files under root. A Put writes a temporary
// file beside its target, fsyncs it, renames it into place and fsyncs the
// folder, so the object appears whole or not at all and survives a power
// cut once Put returns.
//
// A key cannot be both an object and a folder of other objects ("a" and
// "a/b"), which S3 would allow; Quarry's layouts never need it.
type fileStore struct {
	root string // absolute and clean
	url  string
	o    options
}

func openFile(ctx context.Context, root string, o options) *fileStore {
	s := &fileStore{root: root, url: "file://" + filepath.ToSlash(root), o: o}
	if o.autoClean {
		n, err := s.Cleanup(ctx, o.staleAge)
		if err != nil {
			// Not fatal: the debris is invisible to readers, and Preflight
			// reports a folder that cannot be used.
			o.logger.Warn("blob: sweeping stale temporary files failed", "url", s.url, "err", err)
		} else if n > 0 {
			o.logger.Info("blob: swept stale temporary files", "url", s.url, "removed", n)
		}
	}
	return s
}

func (s *fileStore) URL() string { return s.url }

func (s *fileStore) path(key string) string {
	return filepath.Join(s.root, filepath.FromSlash(key))
}

func (s *fileStore) errorf(op, key string, err error) error {
	return fmt.Errorf("%s: %s %s: %w", s.url, op, key, err)
}

func (s *fileStore) Put(ctx context.Context, key string, r io.Reader) error {
	if err := checkKey(key); err != nil {
		return s.errorf("put", key, err)
	}
	if err := s.put(ctx, key, r); err != nil {
		return s.errorf("put", key, err)
	}
	return nil
}

// put writes without checking the key, so Preflight can write its
// reserved probe through the same path as every object.
func (s *fileStore) put(ctx context.Context, key string, r io.Reader) (err error) {
	final := s.path(key)
	dir := filepath.Dir(final)
	if err := s.mkdirAll(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	crashed := false
	defer func() {
		if err == nil {
			return
		}
		f.Close()
		if !crashed {
			os.Remove(tmp)
		}
	}()

	src := &progressReader{ctx: ctx, r: r, key: key, hook: s.o.writeHook}
	if _, err = io.Copy(f, src); err != nil {
		crashed = errors.Is(err, ErrCrash)
		return err
	}
	// CreateTemp makes the file private; objects are meant to be read by
	// other tools and users.
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, final); err != nil {
		return err
	}
	return syncDir(dir)
}

// mkdirAll creates dir and its missing parents inside the store and fsyncs
// each new folder's parent, so the new entries survive a crash along with
// the object.
func (s *fileStore) mkdirAll(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	if dir == s.root || !strings.HasPrefix(dir, s.root) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return syncDir(filepath.Dir(dir))
	}
	parent := filepath.Dir(dir)
	if err := s.mkdirAll(parent); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // a concurrent Put made it
		}
		return err
	}
	return syncDir(parent)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		// EINVAL: the file system cannot sync folders; nothing more to do.
		return err
	}
	return nil
}

func (s *fileStore) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := checkKey(key); err != nil {
		return nil, s.errorf("get", key, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, s.errorf("get", key, err)
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		return nil, s.errorf("get", key, notExist(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, s.errorf("get", key, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, s.errorf("get", key, ErrNotExist)
	}
	return f, nil
}

func (s *fileStore) Stat(ctx context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, s.errorf("stat", key, err)
	}
	fi, err := os.Stat(s.path(key))
	if err != nil {
		return Info{}, s.errorf("stat", key, notExist(err))
	}
	if !fi.Mode().IsRegular() {
		return Info{}, s.errorf("stat", key, ErrNotExist)
	}
	return Info{Key: key, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// notExist maps the ways a path can be missing (including a parent that is
// a file) to ErrNotExist, keeping the cause.
func notExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%w (%w)", ErrNotExist, err)
	}
	return err
}

func (s *fileStore) List(ctx context.Context, prefix string) ([]Info, error) {
	if err := checkPrefix(prefix); err != nil {
		return nil, s.errorf("list", prefix, err)
	}
	// Walk only the deepest folder the prefix names.
	start := s.root
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		start = s.path(prefix[:i])
	}
	var out []Info
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return nil // nothing there, or removed while we walk
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(s.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if d.IsDir() {
			if p == start {
				return nil
			}
			if strings.HasPrefix(d.Name(), reservedPrefix) ||
				!(strings.HasPrefix(key+"/", prefix) || strings.HasPrefix(prefix, key+"/")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), reservedPrefix) || !strings.HasPrefix(key, prefix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		out = append(out, Info{Key: key, Size: fi.Size(), ModTime: fi.ModTime()})
		return nil
	})
	if err != nil {
		return nil, s.errorf("list", prefix, err)
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

func (s *fileStore) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return s.errorf("delete", key, err)
	}
	if err := ctx.Err(); err != nil {
		return s.errorf("delete", key, err)
	}
	p := s.path(key)
	fi, err := os.Lstat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return s.errorf("delete", key, err)
	}
	if fi.IsDir() {
		return nil // a folder of other objects is not an object
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.errorf("delete", key, err)
	}
	return nil
}

// Cleanup removes temporary files and preflight probes older than
// olderThan: what a writer killed between creating and renaming leaves.
func (s *fileStore) Cleanup(ctx context.Context, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	n := 0
	err := filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || !strings.HasPrefix(d.Name(), reservedPrefix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if olderThan > 0 && fi.ModTime().After(cutoff) {
			return nil // possibly a write in progress elsewhere
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("%s: cleanup: %w", s.url, err)
	}
	return n, nil
}

func (s *fileStore) Preflight(ctx context.Context) error {
	probe := probePrefix + randomHex()
	want := []byte("quarry preflight " + probe)
	fail := func(err error) error { return s.preflightError(err) }

	if err := s.put(ctx, probe, bytes.NewReader(want)); err != nil {
		return fail(err)
	}
	defer os.Remove(s.path(probe))
	got, err := os.ReadFile(s.path(probe))
	if err != nil {
		return fail(err)
	}
	if !bytes.Equal(got, want) {
		return &PreflightError{URL: s.url, Reason: ErrNotWritable,
			Msg: "a probe object read back differently from what was written (check the file system)"}
	}
	if err := os.Remove(s.path(probe)); err != nil {
		return fail(err)
	}
	return nil
}

// preflightError explains why the folder cannot be used.
func (s *fileStore) preflightError(err error) error {
	e := &PreflightError{URL: s.url, Reason: ErrNotWritable, Err: err}
	switch {
	case errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EEXIST):
		if f := firstNonDir(s.root); f != "" {
			e.Msg = fmt.Sprintf("cannot create folder %q: %q is a file, not a folder (choose another output path or move the file)", s.root, f)
		} else {
			e.Msg = fmt.Sprintf("cannot create folder %q: a path component is not a folder (choose another output path)", s.root)
		}
	case errors.Is(err, fs.ErrPermission):
		e.Msg = fmt.Sprintf("folder %q is not writable by this user (fix its permissions or choose another output path)", s.root)
	case errors.Is(err, syscall.EROFS):
		e.Msg = fmt.Sprintf("folder %q is on a read-only file system (choose another output path)", s.root)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		e.Msg = fmt.Sprintf("no space left for folder %q (free space or choose another output path)", s.root)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		e.Reason = nil
		e.Msg = fmt.Sprintf("preflight interrupted: %v", err)
	default:
		e.Msg = fmt.Sprintf("cannot write to folder %q: %v", s.root, err)
	}
	return e
}

// firstNonDir returns the deepest existing ancestor of p (or p itself) when
// it is not a folder, or "" when that ancestor is a folder.
func firstNonDir(p string) string {
	for {
		fi, err := os.Stat(p)
		if err == nil {
			if fi.IsDir() {
				return ""
			}
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return ""
		}
		p = parent
	}
}

func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// progressReader stops a copy when ctx ends and reports progress to the
// write hook.
type progressReader struct {
	ctx  context.Context
	r    io.Reader
	key  string
	n    atomic.Int64 // read by S3 part hooks on other goroutines
	hook func(Progress) error
}

func (p *progressReader) Read(b []byte) (int, error) {
	if err := p.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := p.r.Read(b)
	total := p.n.Add(int64(n))
	if p.hook != nil && n > 0 {
		if herr := p.hook(Progress{Key: p.key, Written: total}); herr != nil {
			return n, herr
		}
	}
	return n, err
}
