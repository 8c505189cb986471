package online_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/online/onlinetest"
	"github.com/quarry-rl/quarry/internal/s3test"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

// fast polls often, so waiting tests finish quickly; correctness does not
// depend on it.
const fast = time.Millisecond

// backend opens a fresh, empty store for one test.
type backend struct {
	name string
	open func(t *testing.T) blob.Store
}

func backends(t *testing.T) []backend {
	srv := s3test.Start(t)
	var n atomic.Int64
	return []backend{
		{"folder", func(t *testing.T) blob.Store {
			s, err := blob.Open(context.Background(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"versitygw", func(t *testing.T) blob.Store {
			s, err := blob.Open(context.Background(), srv.URL(fmt.Sprintf("t%d", n.Add(1))),
				blob.WithEndpoint(srv.Endpoint), blob.WithRegion(srv.Region),
				blob.WithStaticCredentials(srv.AccessKey, srv.SecretKey, ""))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
}

func TestConsumer(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Run("DeliversInOrder", func(t *testing.T) { testInOrder(t, b.open(t)) })
			t.Run("NextWaitsForCommit", func(t *testing.T) { testWaits(t, b.open(t)) })
			t.Run("RestartContinuesAfterAck", func(t *testing.T) { testRestart(t, b.open(t)) })
			t.Run("TwoNamesEachSeeEveryBatch", func(t *testing.T) { testTwoNames(t, b.open(t)) })
			t.Run("CorruptFileRefused", func(t *testing.T) { testCorrupt(t, b.open(t)) })
			t.Run("EndOfStream", func(t *testing.T) { testEnd(t, b.open(t)) })
			t.Run("AckRules", func(t *testing.T) { testAckRules(t, b.open(t)) })
			t.Run("Slowest", func(t *testing.T) { testSlowest(t, b.open(t)) })
		})
	}
}

func consumer(store blob.Store, name string) *online.Consumer {
	return &online.Consumer{Store: store, Job: "job-test", Name: name, MinPoll: fast, MaxPoll: fast}
}

// next calls Next with a deadline far beyond any honest wait, so a broken
// consumer fails instead of hanging.
func next(t *testing.T, c *online.Consumer) online.Batch {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := c.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return b
}

// checkBatch asserts b is batch n with rows equal to the manifest's counts
// and to what the stream committed.
func checkBatch(t *testing.T, s *onlinetest.Stream, b online.Batch, n int) {
	t.Helper()
	if b.Number != n || b.Manifest.Batch != n {
		t.Fatalf("got batch %d (manifest says %d), want %d", b.Number, b.Manifest.Batch, n)
	}
	turns, err := schema.ReadTurns(bytes.NewReader(b.Turns), int64(len(b.Turns)))
	if err != nil {
		t.Fatal(err)
	}
	eps, err := schema.ReadEpisodes(bytes.NewReader(b.Episodes), int64(len(b.Episodes)))
	if err != nil {
		t.Fatal(err)
	}
	want := s.Prepared[n]
	if int64(len(turns)) != b.Manifest.TurnRows || len(turns) != len(want.Turns) || len(eps) != len(want.Episodes) {
		t.Fatalf("batch %d: %d turns, %d episodes; manifest %d turns, committed %d turns %d episodes",
			n, len(turns), len(eps), b.Manifest.TurnRows, len(want.Turns), len(want.Episodes))
	}
	for i := range turns {
		if turns[i].Batch != int32(n) || turns[i].EpisodeID != want.Turns[i].EpisodeID || turns[i].Action != want.Turns[i].Action {
			t.Fatalf("batch %d turn %d: %s %q, want %s %q", n, i, turns[i].EpisodeID, turns[i].Action, want.Turns[i].EpisodeID, want.Turns[i].Action)
		}
	}
	fs, err := schema.UnmarshalFailures(b.Failures)
	if err != nil || len(fs) != len(want.Failures) {
		t.Fatalf("batch %d: failures %v (%v), want %d", n, len(fs), err, len(want.Failures))
	}
}

func testInOrder(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	for n := range 3 {
		s.Commit(t, n)
	}
	c := consumer(store, "trainer")
	for n := range 3 {
		checkBatch(t, s, next(t, c), n)
	}
	if got := c.Position(); got != 3 {
		t.Fatalf("position %d after three batches, want 3", got)
	}
}

func testWaits(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	s.Commit(t, 0)
	s.Prepare(t, 1) // the turn log exists; the commit comes once Next waits
	waiting := make(chan int, 1)
	c := consumer(store, "trainer")
	c.OnWait = func(n int) {
		select {
		case waiting <- n:
		default:
		}
	}
	checkBatch(t, s, next(t, c), 0)
	done := make(chan error, 1)
	go func() {
		if n := <-waiting; n != 1 {
			done <- errors.New("Next waited for the wrong batch")
			return
		}
		_, err := s.TryCommit(t, 1)
		done <- err
	}()
	b := next(t, c)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkBatch(t, s, b, 1)
}

func testRestart(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	for n := range 3 {
		s.Commit(t, n)
	}
	ctx := context.Background()
	c := consumer(store, "trainer")
	b0 := next(t, c)
	if err := c.Ack(ctx, b0); err != nil {
		t.Fatal(err)
	}
	next(t, c) // batch 1 read but never acked: the trainer crashes
	again := consumer(store, "trainer")
	checkBatch(t, s, next(t, again), 1)
	cur, err := online.ReadCursor(ctx, store, "job-test", "trainer")
	if err != nil || cur.NextBatch != 1 {
		t.Fatalf("cursor %+v, %v; want next_batch 1", cur, err)
	}
}

func testTwoNames(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	for n := range 2 {
		s.Commit(t, n)
	}
	ctx := context.Background()
	a, b := consumer(store, "actor"), consumer(store, "critic")
	for n := range 2 {
		ba := next(t, a)
		checkBatch(t, s, ba, n)
		if err := a.Ack(ctx, ba); err != nil {
			t.Fatal(err)
		}
	}
	for n := range 2 {
		checkBatch(t, s, next(t, b), n)
	}
	got, err := online.Cursors(ctx, store, "job-test", []string{"actor", "critic"})
	if err != nil || got[0].NextBatch != 2 || got[1].NextBatch != 0 {
		t.Fatalf("cursors %+v, %v; want actor at 2, critic at 0", got, err)
	}
}

func testCorrupt(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	m := s.Commit(t, 0)
	ctx := context.Background()
	key := "job-test/" + m.Files[0].Path
	data, err := blob.ReadAll(ctx, store, key)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := blob.PutBytes(ctx, store, key, data); err != nil {
		t.Fatal(err)
	}
	c := consumer(store, "trainer")
	if _, err := c.Next(ctx); !errors.Is(err, shard.ErrCorruptFile) || !strings.Contains(err.Error(), m.Files[0].Path) {
		t.Fatalf("Next over a corrupted file: %v; want shard.ErrCorruptFile naming %s", err, m.Files[0].Path)
	}
	if c.Position() != 0 {
		t.Fatalf("position %d after a refused batch, want 0", c.Position())
	}
}

func testEnd(t *testing.T, store blob.Store) {
	s := onlinetest.New(store, "job-test")
	s.Commit(t, 0)
	s.Commit(t, 1)
	s.End(t, 2)
	c := consumer(store, "trainer")
	next(t, c)
	next(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := c.Next(ctx); !errors.Is(err, online.ErrEnd) {
		t.Fatalf("Next after the last batch: %v, want ErrEnd", err)
	}
	// A stream that has not ended waits: cancelling ends the wait.
	open := onlinetest.New(store, "job-open")
	open.Commit(t, 0)
	w := &online.Consumer{Store: store, Job: "job-open", Name: "trainer", MinPoll: fast, MaxPoll: fast}
	next(t, w)
	wctx, wcancel := context.WithCancel(context.Background())
	w.OnWait = func(int) { wcancel() }
	if _, err := w.Next(wctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Next on an open stream, cancelled while waiting: %v, want context.Canceled", err)
	}
}

func testAckRules(t *testing.T, store blob.Store) {
	ctx := context.Background()
	if _, err := online.Ack(ctx, store, "job-test", "trainer", 1); !errors.Is(err, online.ErrAhead) {
		t.Fatalf("ack of batch 1 at cursor 0: %v, want ErrAhead", err)
	}
	// A trainer's own field in the cursor object survives acks.
	key := schema.CursorKey("job-test", "trainer")
	own := `{"schema_version":1,"job":"job-test","consumer":"trainer","next_batch":0,"trainer_step":41}`
	if err := blob.PutBytes(ctx, store, key, []byte(own)); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 0} { // the second ack of 0 is a no-op
		if _, err := online.Ack(ctx, store, "job-test", "trainer", n); err != nil {
			t.Fatalf("ack %d: %v", n, err)
		}
	}
	c, err := online.ReadCursor(ctx, store, "job-test", "trainer")
	if err != nil || c.NextBatch != 2 {
		t.Fatalf("cursor %+v, %v; want next_batch 2", c, err)
	}
	data, err := blob.ReadAll(ctx, store, key)
	if err != nil || !strings.Contains(string(data), `"trainer_step": 41`) {
		t.Fatalf("cursor object %s (%v) lost the trainer's field", data, err)
	}
	if _, err := online.Ack(ctx, store, "job-test", "no/slash", 0); !errors.Is(err, online.ErrInvalidName) {
		t.Fatalf("ack with a bad consumer name: %v, want ErrInvalidName", err)
	}
	if _, err := online.ReadCursor(ctx, store, "../up", "trainer"); !errors.Is(err, online.ErrInvalidName) {
		t.Fatalf("cursor of a bad job id: %v, want ErrInvalidName", err)
	}
}

func testSlowest(t *testing.T, store blob.Store) {
	ctx := context.Background()
	for name, n := range map[string]int{"a": 3, "b": 5} {
		if err := online.WriteCursor(ctx, store, schema.Cursor{Job: "job-test", Consumer: name, NextBatch: n}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := online.Slowest(ctx, store, "job-test", []string{"a", "b"}); err != nil || got != 3 {
		t.Fatalf("Slowest(a, b) = %d, %v; want 3", got, err)
	}
	// A named consumer that never acked holds the job at batch 0.
	if got, err := online.Slowest(ctx, store, "job-test", []string{"b", "never"}); err != nil || got != 0 {
		t.Fatalf("Slowest(b, never) = %d, %v; want 0", got, err)
	}
}
