package blob_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
)

func fileBackend() backend {
	return backend{
		location: func(t *testing.T) string { return "file://" + t.TempDir() },
		open: func(t *testing.T, url string, opts ...blob.Option) blob.Store {
			t.Helper()
			s, err := blob.Open(context.Background(), url, opts...)
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		midway: func(p blob.Progress, size int64) bool { return p.Written >= size/2 },
		debris: func(t *testing.T, url string) int {
			return len(tempFiles(t, strings.TrimPrefix(url, "file://")))
		},
	}
}

func TestFileStore(t *testing.T) {
	runSuite(t, fileBackend())
}

// tempFiles lists the store's own temporary files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".quarry-") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

func TestFileCrashLeavesOnlySweepableDebris(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	size := int64(1 << 20)
	crashing, err := blob.Open(ctx, dir, blob.WithWriteHook(func(p blob.Progress) error {
		if p.Written >= size/2 {
			return fmt.Errorf("killed mid-write: %w", blob.ErrCrash)
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := crashing.Put(ctx, "job/shards/part-00000.turns.parquet", bytes.NewReader(randomBytes(size, 5))); !errors.Is(err, blob.ErrCrash) {
		t.Fatalf("Put error = %v, want the simulated crash", err)
	}

	// The "killed" writer left a half-written temporary file beside the
	// target, as a real kill between write and rename would.
	tmp := tempFiles(t, dir)
	if len(tmp) != 1 {
		t.Fatalf("temporary files after the crash: %q, want exactly one", tmp)
	}
	if filepath.Dir(tmp[0]) != filepath.Join(dir, "job", "shards") {
		t.Fatalf("temporary file %s is not beside its target", tmp[0])
	}
	if fi, err := os.Stat(tmp[0]); err != nil || fi.Size() == 0 || fi.Size() >= size {
		t.Fatalf("temporary file: %v, %v; want a partial write", fi, err)
	}

	// Readers see nothing of it.
	s, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Stat(ctx, "job/shards/part-00000.turns.parquet"); !errors.Is(err, blob.ErrNotExist) {
		t.Fatalf("Stat after the crash = %v, want ErrNotExist", err)
	}
	if got := keys(t, s, ""); len(got) != 0 {
		t.Fatalf("List after the crash = %q, want nothing", got)
	}

	// A young temporary file may be another process's write in progress:
	// Open leaves it.
	if got := tempFiles(t, dir); len(got) != 1 {
		t.Fatalf("Open removed a recent temporary file: %q left", got)
	}

	// Once older than the stale age, the next Open sweeps it.
	old := time.Now().Add(-2 * blob.DefaultStaleAge)
	if err := os.Chtimes(tmp[0], old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := blob.Open(ctx, dir, blob.WithoutAutoCleanup()); err != nil {
		t.Fatal(err)
	}
	if got := tempFiles(t, dir); len(got) != 1 {
		t.Fatalf("Open with WithoutAutoCleanup swept: %q left", got)
	}
	if _, err := blob.Open(ctx, "file://"+dir); err != nil {
		t.Fatal(err)
	}
	if got := tempFiles(t, dir); len(got) != 0 {
		t.Fatalf("temporary files after Open's sweep: %q, want none", got)
	}

	// Cleanup(0) removes even fresh debris and counts it.
	if err := crashing.Put(ctx, "again", bytes.NewReader(randomBytes(size, 6))); !errors.Is(err, blob.ErrCrash) {
		t.Fatalf("Put error = %v, want the simulated crash", err)
	}
	if n, err := s.Cleanup(ctx, 0); err != nil || n != 1 {
		t.Fatalf("Cleanup(0) = %d, %v; want 1, nil", n, err)
	}
	if got := tempFiles(t, dir); len(got) != 0 {
		t.Fatalf("temporary files after Cleanup: %q, want none", got)
	}

	// And the store works normally afterwards.
	if err := blob.PutBytes(ctx, s, "job/shards/part-00000.turns.parquet", []byte("ok")); err != nil {
		t.Fatal(err)
	}
	if got := keys(t, s, ""); len(got) != 1 {
		t.Fatalf("List = %q, want the one object", got)
	}
}

func TestFileObjectsAreReadableByOthers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := blob.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := blob.PutBytes(ctx, s, "a/b.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "a", "b.json"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Fatalf("object mode %v, want 0644 (CreateTemp's 0600 must not leak)", fi.Mode().Perm())
	}
}

func TestOpenLocations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Chdir(dir)

	for _, loc := range []string{"out", "./out", dir + "/out", "file://" + dir + "/out", "file://localhost" + dir + "/out"} {
		s, err := blob.Open(ctx, loc)
		if err != nil {
			t.Fatalf("Open(%q): %v", loc, err)
		}
		if s.URL() != "file://"+dir+"/out" {
			t.Errorf("Open(%q).URL() = %q, want %q", loc, s.URL(), "file://"+dir+"/out")
		}
	}
	s, _ := blob.Open(ctx, "out")
	if err := blob.PutBytes(ctx, s, "x", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "x")); err != nil {
		t.Fatalf("a relative location did not resolve against the working folder: %v", err)
	}

	for _, loc := range []string{"", "file://relative/path", "file://", "gs://bucket/x", "s3:///prefix", "s3://bucket/x?endpoint=http://127.0.0.1:1", "s3://key:secret@bucket/x", "s3://bucket/a//b"} {
		if _, err := blob.Open(ctx, loc); err == nil {
			t.Errorf("Open(%q) succeeded, want an error", loc)
		} else if strings.Contains(err.Error(), "secret") && !strings.Contains(err.Error(), "credentials do not belong") {
			t.Errorf("Open(%q) error leaks the secret: %v", loc, err)
		}
	}
	if _, err := blob.Open(ctx, "s3://bucket/x", blob.WithPartSize(1<<20)); err == nil {
		t.Error("Open with a 1 MiB part size succeeded, want an error (S3's minimum is 5 MiB)")
	}
}

func TestFilePreflightUnwritable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// Tests run as root, which ignores permission bits; a folder path
	// that runs through a regular file cannot be created by anyone.
	file := filepath.Join(dir, "results.txt")
	if err := os.WriteFile(file, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{file, filepath.Join(file, "out"), filepath.Join(file, "out", "deeper")} {
		s, err := blob.Open(ctx, root)
		if err != nil {
			t.Fatalf("Open(%q): %v (Open must not fail; Preflight reports)", root, err)
		}
		err = s.Preflight(ctx)
		var pe *blob.PreflightError
		if !errors.As(err, &pe) || !errors.Is(err, blob.ErrNotWritable) {
			t.Fatalf("Preflight(%q) = %v, want a *PreflightError matching ErrNotWritable", root, err)
		}
		want := fmt.Sprintf("file://%s: cannot create folder %q: %q is a file, not a folder (choose another output path or move the file)", root, root, file)
		if err.Error() != want {
			t.Errorf("Preflight(%q) error:\n got %s\nwant %s", root, err, want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("Preflight error spans lines: %q", err)
		}
		if err := blob.PutBytes(ctx, s, "x", []byte("x")); err == nil {
			t.Errorf("Put under %q succeeded", root)
		}
	}
	if got, _ := os.ReadFile(file); string(got) != "not a folder" {
		t.Fatalf("Preflight changed the file in the way: %q", got)
	}
}

func TestFilePreflightCreatesFolder(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "new", "output")
	s, err := blob.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open created %s; it should not touch the disk", root)
	}
	if err := s.Preflight(ctx); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatalf("Preflight did not create the folder: %v", err)
	}
	if len(entries) != 0 {
		t.Fatalf("Preflight left %d entries in the folder", len(entries))
	}
}

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "quarry-example-")
	defer os.RemoveAll(dir)

	store, err := blob.Open(ctx, "file://"+dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := store.Preflight(ctx); err != nil {
		fmt.Println(err)
		return
	}
	_ = blob.PutBytes(ctx, store, "job/_manifest/part-00000.json", []byte(`{"rows":2}`))
	data, _ := blob.ReadAll(ctx, store, "job/_manifest/part-00000.json")
	fmt.Println(string(data))

	_, err = store.Stat(ctx, "job/_SUCCESS")
	fmt.Println(errors.Is(err, blob.ErrNotExist))
	// Output:
	// {"rows":2}
	// true
}
