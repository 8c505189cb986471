package shard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

const partSize = 5 << 20 // S3's minimum, so a shard of a few MB goes multipart

// backend is a place to write shards: a folder or a versitygw bucket.
type backend struct {
	name string
	srv  *s3test.Server // nil for file://
	dir  string
	n    atomic.Int32
}

// backends returns a file:// backend and an S3 backend on a real versitygw
// (a missing versitygw fails the test).
func backends(t *testing.T) []*backend {
	return []*backend{{name: "file", dir: t.TempDir()}, {name: "s3", srv: s3test.Start(t)}}
}

// location returns a fresh, empty location.
func (b *backend) location() string {
	n := b.n.Add(1)
	if b.srv != nil {
		return b.srv.URL(fmt.Sprintf("loc%d", n))
	}
	return filepath.Join(b.dir, fmt.Sprint("loc", n))
}

func (b *backend) open(t testing.TB, loc string, opts ...blob.Option) blob.Store {
	t.Helper()
	if b.srv != nil {
		opts = append([]blob.Option{
			blob.WithEndpoint(b.srv.Endpoint), blob.WithRegion(b.srv.Region),
			blob.WithStaticCredentials(b.srv.AccessKey, b.srv.SecretKey, ""), blob.WithPartSize(partSize),
		}, opts...)
	}
	s, err := blob.Open(context.Background(), loc, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// debris counts what killed writers left at loc, asking the folder or the
// server directly: temporary files, or incomplete multipart uploads.
func (b *backend) debris(t testing.TB, loc string) int {
	t.Helper()
	if b.srv == nil {
		n := 0
		err := filepath.WalkDir(loc, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(d.Name(), ".quarry-") {
				n++
			}
			return err
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		return n
	}
	prefix := strings.TrimPrefix(loc, b.srv.URL("")+"/") + "/"
	out, err := b.srv.Client().ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{
		Bucket: aws.String(b.srv.Bucket), Prefix: aws.String(prefix),
	})
	if err != nil {
		t.Fatalf("ListMultipartUploads: %v", err)
	}
	return len(out.Uploads)
}

// shardObjects returns every object of the job outside the turn log, by key.
func shardObjects(t testing.TB, s blob.Store, job string) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	infos, err := s.List(ctx, job+"/")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, info := range infos {
		if strings.HasPrefix(info.Key, job+"/_turns/") {
			continue
		}
		data, err := blob.ReadAll(ctx, s, info.Key)
		if err != nil {
			t.Fatal(err)
		}
		out[info.Key] = data
	}
	return out
}

// checkCommitted asserts the commit invariant at s: every manifest's files
// exist with the size and checksum it records.
func checkCommitted(t testing.TB, s blob.Store, job string) []schema.Manifest {
	t.Helper()
	ctx := context.Background()
	ms, err := shard.Committed(ctx, s, job)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if len(m.Files) < 2 {
			t.Fatalf("manifest of batch %d lists %d files", m.Batch, len(m.Files))
		}
		for _, f := range m.Files {
			if _, err := shard.ReadFile(ctx, s, job, f); err != nil {
				t.Fatalf("manifest of batch %d: %v", m.Batch, err)
			}
		}
	}
	return ms
}

func sameObjects(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d objects %v, want %d", what, len(got), keyList(got), len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !bytes.Equal(g, w) {
			t.Fatalf("%s: %s differs from the reference (%d bytes, want %d)", what, k, len(g), len(w))
		}
	}
}

func keyList(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var (
	refMu    sync.Mutex
	refCache = map[string]map[string][]byte{}
)

// reference commits the batch o describes on a fresh folder and returns
// its shard objects: what any correct commit of that batch must hold.
func reference(t *testing.T, o shardtest.Options) map[string][]byte {
	t.Helper()
	refMu.Lock()
	defer refMu.Unlock()
	id := fmt.Sprintf("%+v", o)
	if r, ok := refCache[id]; ok {
		return r
	}
	ctx := context.Background()
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := shardtest.Write(ctx, t, s, o)
	if _, err := shard.Write(ctx, s, b.Input); err != nil {
		t.Fatal(err)
	}
	r := shardObjects(t, s, b.Input.Job)
	refCache[id] = r
	return r
}

// countingStore counts writes.
type countingStore struct {
	blob.Store
	puts atomic.Int32
}

func (c *countingStore) Put(ctx context.Context, key string, r io.Reader) error {
	c.puts.Add(1)
	return c.Store.Put(ctx, key, r)
}

var small = shardtest.Options{Job: "job-s", Batch: 7, Gamma: 0.9}

// TestWriteReadBack commits a batch of several groups of multi-turn
// episodes (one failed) on a folder and on S3, then reads every file back
// with pqarrow and with DuckDB and compares every column of every row with
// what was written.
func TestWriteReadBack(t *testing.T) {
	ctx := context.Background()
	written := map[string]map[string][]byte{}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			loc := be.location()
			s := be.open(t, loc)
			b := shardtest.Write(ctx, t, s, small)
			m, err := shard.Write(ctx, s, b.Input)
			if err != nil {
				t.Fatal(err)
			}
			keys := schema.ShardKeys(small.Job, small.Batch)
			if m.Job != small.Job || m.Batch != small.Batch || m.SchemaVersion != schema.SchemaVersion ||
				m.TurnRows != int64(len(b.Turns)) || m.EpisodeRows != int64(len(b.Episodes)) || m.FailedEpisodes != 1 ||
				m.Gamma != 0.9 || m.NormScheme != schema.NormReBN {
				t.Fatalf("manifest %+v", m)
			}
			if len(b.Turns) < 15 || len(b.Episodes) != 8 {
				t.Fatalf("fixture too small: %d turns, %d episodes", len(b.Turns), len(b.Episodes))
			}
			wantPaths := []string{schema.RelKey(small.Job, keys.Turns), schema.RelKey(small.Job, keys.Episodes), schema.RelKey(small.Job, keys.Failures)}
			for i, f := range m.Files {
				if i >= len(wantPaths) || f.Path != wantPaths[i] {
					t.Fatalf("manifest files %+v, want paths %v", m.Files, wantPaths)
				}
			}
			if m.Files[0].Rows != m.TurnRows || m.Files[1].Rows != m.EpisodeRows || m.Files[2].Rows != 1 {
				t.Fatalf("file row counts %+v", m.Files)
			}
			wantVersions := map[string]string{"game:GuessTheNumber-v0-easy": "v0.3", "game:Mastermind-v0-easy": "v0.2", "math:GSM8K": "v2"}
			if !reflect.DeepEqual(m.EnvVersions, wantVersions) {
				t.Errorf("env versions %v, want %v", m.EnvVersions, wantVersions)
			}
			if m.Returns.Count != b.Returns.Count || math.Abs(m.Returns.Sum-b.Returns.Sum) > 1e-9 || math.Abs(m.Returns.SumSq-b.Returns.SumSq) > 1e-9 {
				t.Errorf("return stats %+v, want %+v", m.Returns, b.Returns)
			}
			// The manifest on the store is the one returned, and the files
			// match its sizes and checksums.
			ms := checkCommitted(t, s, small.Job)
			if len(ms) != 1 || !reflect.DeepEqual(ms[0], m) {
				t.Fatalf("committed manifests %+v, want [%+v]", ms, m)
			}
			tf, err := shard.ReadFile(ctx, s, small.Job, m.Files[0])
			if err != nil {
				t.Fatal(err)
			}
			ef, err := shard.ReadFile(ctx, s, small.Job, m.Files[1])
			if err != nil {
				t.Fatal(err)
			}
			ff, err := shard.ReadFile(ctx, s, small.Job, m.Files[2])
			if err != nil {
				t.Fatal(err)
			}

			t.Run("pqarrow", func(t *testing.T) {
				compareRows(t, "pqarrow turns", b.Turns, readArrow[schema.TurnRow](t, tf), true)
				compareRows(t, "pqarrow episodes", b.Episodes, readArrow[schema.EpisodeRow](t, ef), true)
			})
			t.Run("duckdb", func(t *testing.T) {
				compareRows(t, "duckdb turns", b.Turns, readDuckDB[schema.TurnRow](t, tf), true)
				compareRows(t, "duckdb episodes", b.Episodes, readDuckDB[schema.EpisodeRow](t, ef), true)
			})
			t.Run("readers agree exactly", func(t *testing.T) {
				compareRows(t, "turns", readArrow[schema.TurnRow](t, tf), readDuckDB[schema.TurnRow](t, tf), false)
				compareRows(t, "episodes", readArrow[schema.EpisodeRow](t, ef), readDuckDB[schema.EpisodeRow](t, ef), false)
			})
			fails, err := schema.UnmarshalFailures(ff)
			if err != nil || !reflect.DeepEqual(fails, b.Failures) {
				t.Fatalf("failures %+v, %v; want %+v", fails, err, b.Failures)
			}

			// A retried activity finds the manifest and writes nothing.
			cs := &countingStore{Store: s}
			again, err := shard.Write(ctx, cs, b.Input)
			if err != nil || !reflect.DeepEqual(again, m) || cs.puts.Load() != 0 {
				t.Fatalf("retry: %+v, %v, %d writes; want the manifest and no writes", again, err, cs.puts.Load())
			}
			written[be.name] = shardObjects(t, s, small.Job)
		})
	}
	// The folder and the bucket hold the same bytes.
	if len(written) == 2 {
		sameObjects(t, "s3 vs file", written["s3"], written["file"])
	}
}

// TestFaults stops the writer at each point of the commit, on a folder and
// on S3, and checks that no manifest exists without its files, that the
// files a manifest names match its checksums, that Cleanup leaves no
// debris, and that a rerun commits the reference bytes.
func TestFaults(t *testing.T) {
	ctx := context.Background()
	want := reference(t, small)
	keys := schema.ShardKeys(small.Job, small.Batch)
	crash := fmt.Errorf("killed: %w", blob.ErrCrash)
	faults := []struct {
		name    string
		step    shard.Step // stop at this step, or
		upload  string     // crash while uploading this key
		present []string   // shard objects left behind
	}{
		{name: "between the data files", step: shard.AfterTurns, present: []string{keys.Turns}},
		{name: "after the failures file", step: shard.AfterFailures, present: []string{keys.Turns, keys.Episodes, keys.Failures}},
		{name: "between the files and the manifest", step: shard.BeforeManifest, present: []string{keys.Turns, keys.Episodes, keys.Failures}},
		{name: "mid-upload of the episodes file", upload: keys.Episodes, present: []string{keys.Turns}},
		{name: "mid-upload of the manifest", upload: keys.Manifest, present: []string{keys.Turns, keys.Episodes, keys.Failures}},
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			for _, f := range faults {
				t.Run(f.name, func(t *testing.T) {
					loc := be.location()
					var opts []blob.Option
					if f.upload != "" {
						opts = append(opts, blob.WithWriteHook(func(p blob.Progress) error {
							if p.Key == f.upload && p.Written > 0 {
								return crash
							}
							return nil
						}))
					}
					s := be.open(t, loc, opts...)
					b := shardtest.Write(ctx, t, s, small)
					var sopts []shard.Option
					if f.step != "" {
						sopts = append(sopts, shard.WithStepHook(func(st shard.Step) error {
							if st == f.step {
								return crash
							}
							return nil
						}))
					}
					if _, err := shard.Write(ctx, s, b.Input, sopts...); !errors.Is(err, blob.ErrCrash) {
						t.Fatalf("Write = %v, want the crash", err)
					}
					// A new process finds: no manifest, the files written
					// before the crash, nothing half-written.
					s2 := be.open(t, loc, blob.WithoutAutoCleanup())
					got := shardObjects(t, s2, small.Job)
					if len(got) != len(f.present) {
						t.Fatalf("after the crash: %v, want %v", keyList(got), f.present)
					}
					for _, k := range f.present {
						if !bytes.Equal(got[k], want[k]) {
							t.Fatalf("after the crash %s is not the reference's", k)
						}
					}
					if ms := checkCommitted(t, s2, small.Job); len(ms) != 0 {
						t.Fatalf("a manifest exists after the crash: %+v", ms)
					}
					if f.upload != "" && be.srv == nil && be.debris(t, loc) != 1 {
						t.Fatalf("a crash mid-write left %d temporary files, want 1", be.debris(t, loc))
					}
					if _, err := s2.Cleanup(ctx, 0); err != nil {
						t.Fatal(err)
					}
					if n := be.debris(t, loc); n != 0 {
						t.Fatalf("debris after Cleanup: %d", n)
					}
					// The rerun commits the reference bytes.
					m, err := shard.Write(ctx, s2, b.Input)
					if err != nil {
						t.Fatal(err)
					}
					sameObjects(t, "after the rerun", shardObjects(t, s2, small.Job), want)
					if ms := checkCommitted(t, s2, small.Job); len(ms) != 1 || !reflect.DeepEqual(ms[0], m) {
						t.Fatalf("committed %+v", ms)
					}
				})
			}
		})
	}
}

// big is a batch whose files span several multipart parts.
var big = shardtest.Options{Job: "job-big", Batch: 2, Gamma: 1, Groups: 6, Turns: 8, ResponseTokens: 24_000}

// TestS3RestartMidUpload kills versitygw while the turns file is half
// uploaded: once for longer than the SDK retries (the write fails, the
// upload lingers until Cleanup, the rerun commits the reference bytes), and
// once for a moment (the SDK rides it out and the commit completes).
func TestS3RestartMidUpload(t *testing.T) {
	ctx := context.Background()
	want := reference(t, big)
	turnsKey := schema.ShardKeys(big.Job, big.Batch).Turns
	if len(want[turnsKey]) <= partSize+partSize/8 {
		t.Fatalf("the turns file has %d bytes: too small to span two parts", len(want[turnsKey]))
	}
	srv := s3test.Start(t)
	be := &backend{name: "s3", srv: srv}

	// pauseAfterFirstPart blocks the upload of the turns file after its
	// first acknowledged part until release is closed.
	pauseAfterFirstPart := func(reached, release chan struct{}) blob.Option {
		var once sync.Once
		return blob.WithWriteHook(func(p blob.Progress) error {
			if p.Key == turnsKey && p.Parts >= 1 {
				once.Do(func() { close(reached); <-release })
			}
			return nil
		})
	}
	await := func(reached chan struct{}, done chan error) {
		t.Helper()
		select {
		case <-reached:
		case err := <-done:
			t.Fatalf("Write returned %v before the first part", err)
		case <-time.After(60 * time.Second):
			t.Fatal("the first part never finished")
		}
	}

	t.Run("down longer than the retries", func(t *testing.T) {
		loc := be.location()
		b := shardtest.Write(ctx, t, be.open(t, loc), big)
		reached, release := make(chan struct{}), make(chan struct{})
		s := be.open(t, loc, blob.WithRetryMaxAttempts(2), blob.WithConcurrency(1), pauseAfterFirstPart(reached, release))
		done := make(chan error, 1)
		go func() { _, err := shard.Write(ctx, s, b.Input); done <- err }()
		await(reached, done)
		srv.Stop(t)
		close(release)
		if err := <-done; !errors.Is(err, blob.ErrUnreachable) {
			t.Fatalf("Write with the server down = %v, want ErrUnreachable", err)
		}
		srv.Start(t)
		s2 := be.open(t, loc)
		if got := shardObjects(t, s2, big.Job); len(got) != 0 {
			t.Fatalf("objects after the failed upload: %v, want none", keyList(got))
		}
		if n := be.debris(t, loc); n != 1 {
			t.Fatalf("incomplete uploads after the failed write: %d, want the one the abort could not reach", n)
		}
		if _, err := shard.Write(ctx, s2, b.Input); err != nil {
			t.Fatal(err)
		}
		if n, err := s2.Cleanup(ctx, 0); err != nil || n != 1 {
			t.Fatalf("Cleanup(0) = %d, %v; want 1 aborted", n, err)
		}
		if n := be.debris(t, loc); n != 0 {
			t.Fatalf("incomplete uploads after Cleanup: %d", n)
		}
		sameObjects(t, "after the rerun", shardObjects(t, s2, big.Job), want)
		checkCommitted(t, s2, big.Job)
	})

	t.Run("restarted within the retries", func(t *testing.T) {
		loc := be.location()
		b := shardtest.Write(ctx, t, be.open(t, loc), big)
		reached, release := make(chan struct{}), make(chan struct{})
		s := be.open(t, loc, blob.WithRetryMaxAttempts(10), blob.WithConcurrency(2), pauseAfterFirstPart(reached, release))
		done := make(chan error, 1)
		go func() { _, err := shard.Write(ctx, s, b.Input); done <- err }()
		await(reached, done)
		srv.Stop(t)
		close(release)
		time.Sleep(300 * time.Millisecond)
		srv.Start(t)
		if err := <-done; err != nil {
			t.Fatalf("Write across a server restart: %v", err)
		}
		s2 := be.open(t, loc)
		if n := be.debris(t, loc); n != 0 {
			t.Fatalf("incomplete uploads after the write: %d", n)
		}
		sameObjects(t, "after the restart", shardObjects(t, s2, big.Job), want)
		checkCommitted(t, s2, big.Job)
	})

	t.Run("crash after a part", func(t *testing.T) {
		loc := be.location()
		b := shardtest.Write(ctx, t, be.open(t, loc), big)
		s := be.open(t, loc, blob.WithWriteHook(func(p blob.Progress) error {
			if p.Key == turnsKey && p.Parts >= 1 {
				return blob.ErrCrash
			}
			return nil
		}))
		if _, err := shard.Write(ctx, s, b.Input); !errors.Is(err, blob.ErrCrash) {
			t.Fatalf("Write = %v, want the crash", err)
		}
		s2 := be.open(t, loc)
		if got := shardObjects(t, s2, big.Job); len(got) != 0 {
			t.Fatalf("objects after the crash: %v, want none", keyList(got))
		}
		if n := be.debris(t, loc); n != 1 {
			t.Fatalf("incomplete uploads after the crash: %d, want 1", n)
		}
		if n, err := s2.Cleanup(ctx, 0); err != nil || n != 1 {
			t.Fatalf("Cleanup(0) = %d, %v", n, err)
		}
		if _, err := shard.Write(ctx, s2, b.Input); err != nil {
			t.Fatal(err)
		}
		if n := be.debris(t, loc); n != 0 {
			t.Fatalf("incomplete uploads after the rerun: %d", n)
		}
		sameObjects(t, "after the rerun", shardObjects(t, s2, big.Job), want)
	})
}

// TestUnionRenormalisation commits two batches and re-normalises the
// union of their turns from the manifests' statistics alone; the result
// equals ReBN computed directly over every return of both shards.
func TestUnionRenormalisation(t *testing.T) {
	ctx := context.Background()
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var returns []float64
	var rows []schema.TurnRow
	var union schema.Stats
	for batch, seed := range []uint64{3, 4} {
		b := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-u", Batch: batch, Seed: seed, Gamma: 0.95, Groups: 4})
		m, err := shard.Write(ctx, s, b.Input)
		if err != nil {
			t.Fatal(err)
		}
		data, err := shard.ReadFile(ctx, s, "job-u", m.Files[0])
		if err != nil {
			t.Fatal(err)
		}
		got := readArrow[schema.TurnRow](t, data)
		if int64(len(got)) != m.Returns.Count {
			t.Fatalf("batch %d: %d rows, stats count %d", batch, len(got), m.Returns.Count)
		}
		for _, r := range got {
			// Each shard's advantages are its own statistics applied.
			if d := math.Abs(r.Advantage - m.Returns.Normalize(r.Return)); d > 1e-9 {
				t.Fatalf("batch %d: advantage %v, its stats give %v", batch, r.Advantage, m.Returns.Normalize(r.Return))
			}
			returns = append(returns, r.Return)
		}
		rows = append(rows, got...)
		union = union.Merge(m.Returns)
	}
	var mean, ss float64
	for _, g := range returns {
		mean += g
	}
	mean /= float64(len(returns))
	for _, g := range returns {
		ss += (g - mean) * (g - mean)
	}
	std := math.Sqrt(ss / float64(len(returns)))
	if union.Count != int64(len(returns)) || std == 0 {
		t.Fatalf("union of %d returns, stats %+v, std %v", len(returns), union, std)
	}
	for _, r := range rows {
		direct := (r.Return - mean) / (std + schema.NormEpsilon)
		if got := union.Normalize(r.Return); math.Abs(got-direct) > 1e-12 {
			t.Fatalf("return %v: union advantage %v from the manifests, %v directly", r.Return, got, direct)
		}
	}
}

func TestWriteSuccess(t *testing.T) {
	ctx := context.Background()
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var ms []schema.Manifest
	for batch := range 2 {
		b := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-w", Batch: batch, Seed: uint64(batch + 1), Gamma: 1})
		m, err := shard.Write(ctx, s, b.Input)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	if _, err := shard.WriteSuccess(ctx, s, "job-w", 3); !errors.Is(err, shard.ErrIncomplete) {
		t.Fatalf("WriteSuccess with batch 2 missing = %v, want ErrIncomplete", err)
	}
	if _, err := s.Stat(ctx, schema.SuccessKey("job-w")); !errors.Is(err, blob.ErrNotExist) {
		t.Fatalf("_SUCCESS written for an incomplete job: %v", err)
	}
	if _, err := shard.WriteSuccess(ctx, s, "job-w", 1); err == nil {
		t.Fatal("WriteSuccess accepted a committed batch beyond the job's batches")
	}
	got, err := shard.WriteSuccess(ctx, s, "job-w", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := schema.Success{SchemaVersion: schema.SchemaVersion, Job: "job-w", Batches: 2,
		TurnRows: ms[0].TurnRows + ms[1].TurnRows, EpisodeRows: ms[0].EpisodeRows + ms[1].EpisodeRows,
		FailedEpisodes: 2, Returns: ms[0].Returns.Merge(ms[1].Returns)}
	if got != want {
		t.Fatalf("_SUCCESS %+v, want %+v", got, want)
	}
	data, err := blob.ReadAll(ctx, s, schema.SuccessKey("job-w"))
	if err != nil {
		t.Fatal(err)
	}
	if onDisk, err := schema.UnmarshalSuccess(data); err != nil || onDisk != want {
		t.Fatalf("stored _SUCCESS %+v, %v", onDisk, err)
	}
	if _, err := shard.WriteSuccess(ctx, s, "job-w", 2); err != nil {
		t.Fatal(err)
	}
	if again, _ := blob.ReadAll(ctx, s, schema.SuccessKey("job-w")); !bytes.Equal(again, data) {
		t.Fatal("rewriting _SUCCESS changed its bytes")
	}
}

// TestWriteRejects: inputs and turn logs that cannot make a shard are
// refused with a reason the activity can classify, and nothing is written.
func TestWriteRejects(t *testing.T) {
	ctx := context.Background()
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-r", Gamma: 1})
	find := func(in *shard.Input, pred func(e *shard.Episode) bool) *shard.Episode {
		for i := range in.Episodes {
			if pred(&in.Episodes[i]) {
				return &in.Episodes[i]
			}
		}
		t.Fatal("no such episode in the fixture")
		return nil
	}
	chained := func(e *shard.Episode) bool {
		return e.Failure == nil && !strings.Contains(e.Head.Key, "bundle") && e.Head.Key != ""
	}
	clone := func() shard.Input {
		in := b.Input
		in.Episodes = append([]shard.Episode(nil), b.Input.Episodes...)
		return in
	}
	cases := []struct {
		name   string
		mutate func(in *shard.Input)
		reason error
	}{
		{"no job", func(in *shard.Input) { in.Job = "" }, shard.ErrInvalidInput},
		{"gamma above 1", func(in *shard.Input) { in.Gamma = 1.5 }, shard.ErrInvalidInput},
		{"unknown norm scheme", func(in *shard.Input) { in.NormScheme = "zscore" }, shard.ErrInvalidInput},
		{"no episodes", func(in *shard.Input) { in.Episodes = nil }, shard.ErrInvalidInput},
		{"duplicate episode", func(in *shard.Input) { in.Episodes = append(in.Episodes, in.Episodes[0]) }, shard.ErrInvalidInput},
		{"sample outside the group", func(in *shard.Input) { in.Episodes[0].Sample = in.Episodes[0].GroupSize }, shard.ErrInvalidInput},
		{"two tasks in a group", func(in *shard.Input) { in.Episodes[0].TaskID = "other" }, shard.ErrInvalidInput},
		{"two versions of an env", func(in *shard.Input) {
			e := find(in, func(e *shard.Episode) bool { return e.Failure == nil })
			e2 := *e
			e2.Episode, e2.Group, e2.EnvVersion = 99, 99, "v9"
			in.Episodes = append(in.Episodes, e2)
		}, shard.ErrInvalidInput},
		{"head of another episode", func(in *shard.Input) {
			e := find(in, chained)
			e.Head = find(in, func(o *shard.Episode) bool { return chained(o) && o.Episode != e.Episode }).Head
		}, shard.ErrInvalidInput},
		{"unknown stop reason", func(in *shard.Input) { find(in, chained).StopReason = "bored" }, shard.ErrInvalidInput},
		{"extra info not JSON", func(in *shard.Input) { find(in, chained).ExtraInfo = new(string) }, shard.ErrInvalidInput},
		{"failure without class", func(in *shard.Input) {
			find(in, func(e *shard.Episode) bool { return e.Failure != nil }).Failure = &shard.Failure{Attempts: 1}
		}, shard.ErrInvalidInput},
	}
	for _, c := range cases {
		in := clone()
		c.mutate(&in)
		if _, err := shard.Write(ctx, s, in); !errors.Is(err, c.reason) {
			t.Errorf("%s: Write = %v, want %v", c.name, err, c.reason)
		}
		if got := shardObjects(t, s, "job-r"); len(got) != 0 {
			t.Fatalf("%s: objects written: %v", c.name, keyList(got))
		}
	}
	// A data file changed after the commit is caught by ReadFile.
	m, err := shard.Write(ctx, s, b.Input)
	if err != nil {
		t.Fatal(err)
	}
	if err := blob.PutBytes(ctx, s, "job-r/"+m.Files[1].Path, []byte("not parquet")); err != nil {
		t.Fatal(err)
	}
	if _, err := shard.ReadFile(ctx, s, "job-r", m.Files[1]); !errors.Is(err, shard.ErrCorruptFile) {
		t.Fatalf("ReadFile of a changed file = %v, want ErrCorruptFile", err)
	}
}

// TestBadEpisodeFailsAlone: an episode whose accepted turns cannot be read
// or make no valid rows never stops the commit: it is recorded in the
// failures file with a class, and the rest of the batch is committed.
func TestBadEpisodeFailsAlone(t *testing.T) {
	ctx := context.Background()
	find := func(in *shard.Input, pred func(e *shard.Episode) bool) *shard.Episode {
		for i := range in.Episodes {
			if pred(&in.Episodes[i]) {
				return &in.Episodes[i]
			}
		}
		t.Fatal("no such episode in the fixture")
		return nil
	}
	chained := func(e *shard.Episode) bool {
		return e.Failure == nil && !strings.Contains(e.Head.Key, "bundle") && e.Head.Key != ""
	}
	cases := []struct {
		name   string
		mutate func(in *shard.Input, st blob.Store)
		class  string
	}{
		{"act records of another env version", func(in *shard.Input, _ blob.Store) {
			e := find(in, chained)
			for i := range in.Episodes {
				if in.Episodes[i].EnvID == e.EnvID {
					in.Episodes[i].EnvVersion = "v9"
				}
			}
		}, shard.ClassInvalidTurns},
		{"truncated stop reason contradicted", func(in *shard.Input, _ blob.Store) {
			find(in, func(e *shard.Episode) bool { return chained(e) && e.StopReason == "" && e.Episode%4 != 1 }).StopReason = schema.StopTruncated
		}, shard.ClassInvalidTurns},
		{"terminated stop reason contradicted", func(in *shard.Input, _ blob.Store) {
			find(in, func(e *shard.Episode) bool { return e.StopReason == schema.StopMaxTurns }).StopReason = schema.StopTerminated
		}, shard.ClassInvalidTurns},
		{"missing head", func(in *shard.Input, _ blob.Store) {
			e := find(in, chained)
			e.Head.Key = schema.ActKey(in.Job, in.Batch, e.Episode, 40, 1)
		}, shard.ClassUnreadableTurns},
		{"stale head", func(in *shard.Input, _ blob.Store) { find(in, chained).Head.Tag = "run/abandoned" }, shard.ClassUnreadableTurns},
		{"served logprobs that do not match the tokens", func(in *shard.Input, st blob.Store) {
			// What a bad answer accepted on main left in the turn log.
			gen := lastGen(t, st, find(in, chained).Head)
			gen.TokenSource, gen.ResponseTokenIDs, gen.ResponseLogprobs = schema.TokenSourceServed, []int32{1, 2, 3}, []float32{-0.5}
			putRecord(t, st, gen)
		}, shard.ClassInvalidTurns},
		{"token ids missing on one turn of a served episode", func(in *shard.Input, st blob.Store) {
			gen := lastGen(t, st, find(in, func(e *shard.Episode) bool {
				return chained(e) && !strings.Contains(e.Head.Key, "/t0000-")
			}).Head)
			gen.TokenSource, gen.PromptTokenIDs, gen.ResponseTokenIDs, gen.ResponseLogprobs = schema.TokenSourceNone, nil, nil, nil
			putRecord(t, st, gen)
		}, shard.ClassInvalidTurns},
	}
	for _, c := range cases {
		st, err := blob.Open(ctx, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		b := shardtest.Write(ctx, t, st, shardtest.Options{Job: "job-r", Gamma: 1})
		in := b.Input
		in.Episodes = slices.Clone(b.Input.Episodes)
		c.mutate(&in, st)
		before := map[int]bool{}
		for _, e := range in.Episodes {
			before[e.Episode] = e.Failure != nil
		}
		m, err := shard.Write(ctx, st, in)
		if err != nil {
			t.Errorf("%s: Write = %v, want the shard committed with the episode failed", c.name, err)
			continue
		}
		fs, err := shard.Failures(ctx, st, m)
		if err != nil {
			t.Fatal(err)
		}
		newly := 0
		for _, f := range fs {
			if before[f.Episode] {
				continue
			}
			newly++
			if f.ErrorClass != c.class || f.Message == "" {
				t.Errorf("%s: episode %d failed as %q (%s), want %s", c.name, f.Episode, f.ErrorClass, f.Message, c.class)
			}
		}
		if newly == 0 || int(m.EpisodeRows)+len(fs) != len(in.Episodes) || m.EpisodeRows == 0 {
			t.Errorf("%s: %d newly failed, %d rows + %d failures for %d episodes", c.name, newly, m.EpisodeRows, len(fs), len(in.Episodes))
		}
	}
}

// lastGen reads the generate record of an episode's last turn.
func lastGen(t *testing.T, st blob.Store, head schema.TurnRef) schema.TurnRecord {
	t.Helper()
	act, err := turnlog.ReadRecord(context.Background(), st, head)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := turnlog.ReadRecord(context.Background(), st, *act.Gen)
	if err != nil {
		t.Fatal(err)
	}
	return gen
}

// putRecord overwrites a record in place, as a bad answer accepted before
// validation would have left it.
func putRecord(t *testing.T, st blob.Store, rec schema.TurnRecord) {
	t.Helper()
	if _, err := turnlog.PutRecord(context.Background(), st, &rec); err != nil {
		t.Fatal(err)
	}
}

// TestShuffledInputSameBytes: the order in which the workflow lists
// episodes does not change a byte.
func TestShuffledInputSameBytes(t *testing.T) {
	ctx := context.Background()
	want := reference(t, small)
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := shardtest.Write(ctx, t, s, small)
	in := b.Input
	in.Episodes = append([]shard.Episode(nil), b.Input.Episodes...)
	for i, j := 0, len(in.Episodes)-1; i < j; i, j = i+1, j-1 {
		in.Episodes[i], in.Episodes[j] = in.Episodes[j], in.Episodes[i]
	}
	if _, err := shard.Write(ctx, s, in, shard.WithConcurrency(1)); err != nil {
		t.Fatal(err)
	}
	sameObjects(t, "reversed input", shardObjects(t, s, small.Job), want)
}

// TestAllFailed: a batch whose every episode failed still commits: empty
// data files, the failures, and a manifest that says so.
func TestAllFailed(t *testing.T) {
	ctx := context.Background()
	s, err := blob.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := shardtest.Write(ctx, t, s, shardtest.Options{Job: "job-f", Gamma: 1, Groups: 1, GroupSize: 2})
	in := b.Input
	for i := range in.Episodes {
		in.Episodes[i].Failure = &shard.Failure{ErrorClass: "EnvVersionMismatch", Attempts: 1, Message: "v0.4 on the worker"}
	}
	m, err := shard.Write(ctx, s, in)
	if err != nil {
		t.Fatal(err)
	}
	if m.TurnRows != 0 || m.EpisodeRows != 0 || m.FailedEpisodes != 2 || len(m.Files) != 3 || m.Returns.Count != 0 || len(m.EnvVersions) != 0 {
		t.Fatalf("manifest %+v", m)
	}
	checkCommitted(t, s, "job-f")
	tf, err := shard.ReadFile(ctx, s, "job-f", m.Files[0])
	if err != nil {
		t.Fatal(err)
	}
	if rows := readArrow[schema.TurnRow](t, tf); len(rows) != 0 {
		t.Fatalf("%d turn rows in an all-failed shard", len(rows))
	}
	if rows := readDuckDB[schema.TurnRow](t, tf); len(rows) != 0 {
		t.Fatalf("duckdb: %d turn rows in an all-failed shard", len(rows))
	}
}

// TestVersion1TurnLogSameBytes: a turn log written in the version 1
// encoding (token arrays as JSON numbers), wholly or for the first turns
// of each episode as by a worker upgraded mid-job, commits to exactly the
// bytes of the same turn log in the current encoding.
func TestVersion1TurnLogSameBytes(t *testing.T) {
	ctx := context.Background()
	want := reference(t, small)
	for _, v1Turns := range []int{1, 2, 1 << 20} {
		t.Run(fmt.Sprintf("version1_turns=%d", v1Turns), func(t *testing.T) {
			s, err := blob.Open(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			o := small
			o.Version1Turns = v1Turns
			b := shardtest.Write(ctx, t, s, o)
			v1, v2 := countVersions(t, s, small.Job)
			if v1 == 0 || (v1Turns < 4) != (v2 > 0) {
				t.Fatalf("turn log holds %d version 1 and %d version 2 objects", v1, v2)
			}
			if _, err := shard.Write(ctx, s, b.Input); err != nil {
				t.Fatal(err)
			}
			sameObjects(t, "version 1 turn log", shardObjects(t, s, small.Job), want)
		})
	}
}

// countVersions counts the turn-log objects of job whose first record is
// in the version 1 and in the version 2 encoding.
func countVersions(t *testing.T, s blob.Store, job string) (v1, v2 int) {
	t.Helper()
	ctx := context.Background()
	infos, err := s.List(ctx, job+"/_turns/")
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range infos {
		data, err := blob.ReadAll(ctx, s, info.Key)
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := bytes.Cut(data, []byte("\n"))
		var rec struct {
			V int `json:"v"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatalf("%s: %v", info.Key, err)
		}
		switch rec.V {
		case 1:
			v1++
		case 2:
			v2++
		}
	}
	return v1, v2
}
