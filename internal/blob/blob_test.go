package blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
)

// backend opens stores of one kind for the shared suite.
type backend struct {
	// location returns a fresh, empty location for one test.
	location func(t *testing.T) string
	// open opens the store at a location with the options a test adds.
	open func(t *testing.T, url string, opts ...blob.Option) blob.Store
	// midway reports when a write has got far enough that a store could
	// have exposed a partial object: half the bytes in a folder, the first
	// acknowledged part in a bucket.
	midway func(p blob.Progress, size int64) bool
	// debris counts the store's leftover temporary files or incomplete
	// multipart uploads, for checks that a failed write cleaned up after
	// itself.
	debris func(t *testing.T, url string) int
}

// runSuite checks the behaviour every store must share.
func runSuite(t *testing.T, b backend) {
	ctx := context.Background()

	t.Run("PutGetStat", func(t *testing.T) {
		s := b.open(t, b.location(t))
		data := []byte("hello, quarry")
		if err := blob.PutBytes(ctx, s, "job/shards/part-00001.turns.parquet", data); err != nil {
			t.Fatal(err)
		}
		got, err := blob.ReadAll(ctx, s, "job/shards/part-00001.turns.parquet")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("Get = %q, want %q", got, data)
		}
		info, err := s.Stat(ctx, "job/shards/part-00001.turns.parquet")
		if err != nil {
			t.Fatal(err)
		}
		if info.Key != "job/shards/part-00001.turns.parquet" || info.Size != int64(len(data)) {
			t.Fatalf("Stat = %+v, want key job/shards/part-00001.turns.parquet size %d", info, len(data))
		}
		if age := time.Since(info.ModTime); age < -time.Minute || age > time.Hour {
			t.Fatalf("Stat ModTime %v is not recent", info.ModTime)
		}
	})

	t.Run("EmptyObject", func(t *testing.T) {
		s := b.open(t, b.location(t))
		if err := blob.PutBytes(ctx, s, "_SUCCESS", nil); err != nil {
			t.Fatal(err)
		}
		got, err := blob.ReadAll(ctx, s, "_SUCCESS")
		if err != nil || len(got) != 0 {
			t.Fatalf("ReadAll = %q, %v; want empty, nil", got, err)
		}
	})

	t.Run("NotFound", func(t *testing.T) {
		s := b.open(t, b.location(t))
		if err := blob.PutBytes(ctx, s, "a/b", []byte("x")); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"missing", "a/missing", "a/b/c", "a"} {
			if _, err := s.Get(ctx, key); !errors.Is(err, blob.ErrNotExist) {
				t.Errorf("Get(%q) error = %v, want ErrNotExist", key, err)
			}
			if _, err := s.Stat(ctx, key); !errors.Is(err, blob.ErrNotExist) {
				t.Errorf("Stat(%q) error = %v, want ErrNotExist", key, err)
			}
		}
	})

	t.Run("Overwrite", func(t *testing.T) {
		s := b.open(t, b.location(t))
		if err := blob.PutBytes(ctx, s, "k", []byte("first version, longer")); err != nil {
			t.Fatal(err)
		}
		if err := blob.PutBytes(ctx, s, "k", []byte("second")); err != nil {
			t.Fatal(err)
		}
		got, err := blob.ReadAll(ctx, s, "k")
		if err != nil || string(got) != "second" {
			t.Fatalf("after overwrite ReadAll = %q, %v; want \"second\"", got, err)
		}
		if info, err := s.Stat(ctx, "k"); err != nil || info.Size != 6 {
			t.Fatalf("after overwrite Stat = %+v, %v; want size 6", info, err)
		}
		if list := keys(t, s, ""); !slices.Equal(list, []string{"k"}) {
			t.Fatalf("List = %q, want [k]", list)
		}
	})

	t.Run("ListPrefixes", func(t *testing.T) {
		s := b.open(t, b.location(t))
		all := []string{
			"job/_manifest/part-00000.json",
			"job/_manifest/part-00001.json",
			"job/_turns/b00000/e0000/t0000-a0",
			"job/_turns/b00000/e0001/t0000-a0",
			"job/_turns/b00001/e0000/t0000-a1",
			"job/shards/part-00000.turns.parquet",
			"job2/_SUCCESS",
			"job-x",
		}
		for i, k := range all {
			if err := blob.PutBytes(ctx, s, k, bytes.Repeat([]byte{'x'}, i+1)); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			prefix string
			want   []string
		}{
			{"", []string{
				"job-x",
				"job/_manifest/part-00000.json",
				"job/_manifest/part-00001.json",
				"job/_turns/b00000/e0000/t0000-a0",
				"job/_turns/b00000/e0001/t0000-a0",
				"job/_turns/b00001/e0000/t0000-a1",
				"job/shards/part-00000.turns.parquet",
				"job2/_SUCCESS",
			}},
			{"job/", []string{
				"job/_manifest/part-00000.json",
				"job/_manifest/part-00001.json",
				"job/_turns/b00000/e0000/t0000-a0",
				"job/_turns/b00000/e0001/t0000-a0",
				"job/_turns/b00001/e0000/t0000-a1",
				"job/shards/part-00000.turns.parquet",
			}},
			// A plain string prefix, not a folder.
			{"job2", []string{"job2/_SUCCESS"}},
			{"job-", []string{"job-x"}},
			{"job/_turns/b00000/", []string{
				"job/_turns/b00000/e0000/t0000-a0",
				"job/_turns/b00000/e0001/t0000-a0",
			}},
			{"job/_turns/b0000", []string{
				"job/_turns/b00000/e0000/t0000-a0",
				"job/_turns/b00000/e0001/t0000-a0",
				"job/_turns/b00001/e0000/t0000-a1",
			}},
			{"job/_manifest/part-00001", []string{"job/_manifest/part-00001.json"}},
			{"job/_manifest/part-00001.json", []string{"job/_manifest/part-00001.json"}},
			{"nothing/", nil},
			{"jobs", nil},
			{"job/shards/part-00000.turns.parquet/", nil},
		}
		for _, c := range cases {
			if got := keys(t, s, c.prefix); !slices.Equal(got, c.want) {
				t.Errorf("List(%q) = %q, want %q", c.prefix, got, c.want)
			}
		}
		infos, err := s.List(ctx, "job2/")
		if err != nil {
			t.Fatal(err)
		}
		if len(infos) != 1 || infos[0].Size != int64(slices.Index(all, "job2/_SUCCESS")+1) {
			t.Fatalf("List(job2/) = %+v, want one object of size %d", infos, slices.Index(all, "job2/_SUCCESS")+1)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := b.open(t, b.location(t))
		for _, k := range []string{"d/1", "d/2"} {
			if err := blob.PutBytes(ctx, s, k, []byte(k)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Delete(ctx, "d/1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stat(ctx, "d/1"); !errors.Is(err, blob.ErrNotExist) {
			t.Fatalf("Stat after Delete: %v, want ErrNotExist", err)
		}
		if got := keys(t, s, ""); !slices.Equal(got, []string{"d/2"}) {
			t.Fatalf("List after Delete = %q, want [d/2]", got)
		}
		if err := s.Delete(ctx, "d/1"); err != nil {
			t.Fatalf("Delete of a missing object: %v, want nil", err)
		}
		if err := s.Delete(ctx, "never/existed"); err != nil {
			t.Fatalf("Delete of a never-written object: %v, want nil", err)
		}
	})

	t.Run("InvalidKeys", func(t *testing.T) {
		s := b.open(t, b.location(t))
		for _, key := range []string{"", "/abs", "a//b", "a/", "../escape", "a/../b", "./a", "a/./b", `a\b`, ".quarry-tmp-x", "a/.quarry-preflight-1"} {
			if err := blob.PutBytes(ctx, s, key, []byte("x")); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("Put(%q) error = %v, want ErrInvalidKey", key, err)
			}
			if _, err := s.Get(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("Get(%q) error = %v, want ErrInvalidKey", key, err)
			}
		}
		if _, err := s.List(ctx, "../"); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("List(../) error = %v, want ErrInvalidKey", err)
		}
	})

	t.Run("LargeObject", func(t *testing.T) {
		s := b.open(t, b.location(t))
		// Two full parts and a partial third when the store has parts.
		size := int64(12<<20 + 12345)
		data := randomBytes(size, 1)
		// A plain io.Reader: the store cannot learn the size up front.
		if err := s.Put(ctx, "big/object.bin", io.MultiReader(bytes.NewReader(data))); err != nil {
			t.Fatal(err)
		}
		got, err := blob.ReadAll(ctx, s, "big/object.bin")
		if err != nil {
			t.Fatal(err)
		}
		if sha256.Sum256(got) != sha256.Sum256(data) {
			t.Fatalf("large object read back differs (%d bytes, want %d)", len(got), len(data))
		}
		if info, err := s.Stat(ctx, "big/object.bin"); err != nil || info.Size != size {
			t.Fatalf("Stat = %+v, %v; want size %d", info, err, size)
		}
	})

	t.Run("ReaderNeverSeesPartialObject", func(t *testing.T) {
		loc := b.location(t)
		size := int64(11 << 20)
		// The hook holds each write at its midway point until the test has
		// looked at the store from another handle.
		reached := make(chan string)
		release := make(chan struct{})
		var mu sync.Mutex
		held := map[string]bool{}
		hook := func(p blob.Progress) error {
			if !b.midway(p, size) {
				return nil
			}
			mu.Lock()
			first := !held[p.Key]
			held[p.Key] = true
			mu.Unlock()
			if first {
				reached <- p.Key
				<-release
			}
			return nil
		}
		writer := b.open(t, loc, blob.WithWriteHook(hook))
		reader := b.open(t, loc)
		old := []byte("the committed version")
		if err := blob.PutBytes(ctx, reader, "shard", old); err != nil {
			t.Fatal(err)
		}
		data := randomBytes(size, 2)
		done := make(chan error, 2)
		go func() {
			done <- writer.Put(ctx, "shard", bytes.NewReader(data)) // an overwrite
			done <- writer.Put(ctx, "fresh", bytes.NewReader(data)) // a new object
		}()
		for _, key := range []string{"shard", "fresh"} {
			select {
			case k := <-reached:
				if k != key {
					t.Fatalf("hook held %q, want %q", k, key)
				}
			case err := <-done:
				t.Fatalf("Put(%s) returned %v before reaching its midway point", key, err)
			case <-time.After(30 * time.Second):
				t.Fatalf("Put(%s) never reached its midway point", key)
			}
			wantShard := old // mid-overwrite: still the committed version
			if key == "fresh" {
				wantShard = data // the overwrite finished before
			}
			got, err := blob.ReadAll(ctx, reader, "shard")
			if err != nil || !bytes.Equal(got, wantShard) {
				t.Errorf("during Put(%s), Get(shard) = %d bytes, %v; want %d bytes", key, len(got), err, len(wantShard))
			}
			if _, err := reader.Stat(ctx, "fresh"); !errors.Is(err, blob.ErrNotExist) {
				t.Errorf("during Put(%s), Stat(fresh) = %v, want ErrNotExist", key, err)
			}
			if got := keys(t, reader, ""); !slices.Equal(got, []string{"shard"}) {
				t.Errorf("during Put(%s), List = %q, want [shard]", key, got)
			}
			release <- struct{}{}
			if err := <-done; err != nil {
				t.Fatalf("Put(%s): %v", key, err)
			}
		}
		for _, key := range []string{"shard", "fresh"} {
			got, err := blob.ReadAll(ctx, reader, key)
			if err != nil || sha256.Sum256(got) != sha256.Sum256(data) {
				t.Fatalf("after Put, Get(%s) = %d bytes, %v; want the new %d bytes", key, len(got), err, len(data))
			}
		}
	})

	t.Run("FailedWriteLeavesNothing", func(t *testing.T) {
		loc := b.location(t)
		boom := errors.New("injected failure")
		size := int64(11 << 20)
		failing := b.open(t, loc, blob.WithWriteHook(func(p blob.Progress) error {
			if b.midway(p, size) {
				return boom
			}
			return nil
		}))
		plain := b.open(t, loc)
		if err := blob.PutBytes(ctx, plain, "kept", []byte("old")); err != nil {
			t.Fatal(err)
		}
		data := randomBytes(size, 3)
		for _, key := range []string{"kept", "new"} {
			if err := failing.Put(ctx, key, bytes.NewReader(data)); !errors.Is(err, boom) {
				t.Fatalf("Put(%s) error = %v, want the injected failure", key, err)
			}
		}
		if got, err := blob.ReadAll(ctx, plain, "kept"); err != nil || string(got) != "old" {
			t.Fatalf("after a failed overwrite Get(kept) = %q, %v; want \"old\"", got, err)
		}
		if _, err := plain.Stat(ctx, "new"); !errors.Is(err, blob.ErrNotExist) {
			t.Fatalf("after a failed write Stat(new) = %v, want ErrNotExist", err)
		}
		if got := keys(t, plain, ""); !slices.Equal(got, []string{"kept"}) {
			t.Fatalf("List = %q, want [kept]", got)
		}
		// An ordinary failure cleans up at once, without waiting for Cleanup.
		if n := b.debris(t, loc); n != 0 {
			t.Fatalf("a failed write left %d temporary files or incomplete uploads", n)
		}
	})

	t.Run("CancelledWriteLeavesNothing", func(t *testing.T) {
		loc := b.location(t)
		size := int64(11 << 20)
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		s := b.open(t, loc, blob.WithWriteHook(func(p blob.Progress) error {
			if b.midway(p, size) {
				cancel()
			}
			return nil
		}))
		err := s.Put(wctx, "cancelled", bytes.NewReader(randomBytes(size, 4)))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Put error = %v, want context.Canceled", err)
		}
		if _, err := s.Stat(ctx, "cancelled"); !errors.Is(err, blob.ErrNotExist) {
			t.Fatalf("Stat after a cancelled Put = %v, want ErrNotExist", err)
		}
		if n := b.debris(t, loc); n != 0 {
			t.Fatalf("a cancelled write left %d temporary files or incomplete uploads", n)
		}
	})

	t.Run("PreflightLeavesNothing", func(t *testing.T) {
		loc := b.location(t)
		s := b.open(t, loc)
		if err := s.Preflight(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.Preflight(ctx); err != nil {
			t.Fatalf("second Preflight: %v", err)
		}
		if got := keys(t, s, ""); len(got) != 0 {
			t.Fatalf("List after Preflight = %q, want nothing", got)
		}
		if n := b.debris(t, loc); n != 0 {
			t.Fatalf("Preflight left %d temporary files or incomplete uploads", n)
		}
	})
}

func keys(t *testing.T, s blob.Store, prefix string) []string {
	t.Helper()
	infos, err := s.List(context.Background(), prefix)
	if err != nil {
		t.Fatalf("List(%q): %v", prefix, err)
	}
	var out []string
	for _, in := range infos {
		out = append(out, in.Key)
	}
	return out
}

func randomBytes(n int64, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// safeName turns a test name into a key segment.
func safeName(t *testing.T) string {
	return strings.NewReplacer("/", "-", " ", "_", "#", "_").Replace(t.Name())
}
