package stream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/flight"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/arrow/util"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/online/onlinetest"
	"github.com/quarry-rl/quarry/internal/online/stream"
	"github.com/quarry-rl/quarry/schema"
)

const job = "job-test"

// fixture is a real Flight server on 127.0.0.1:0 over a folder store.
type fixture struct {
	store  blob.Store
	stream *onlinetest.Stream
	addr   string
	waits  chan int // batch numbers DoGets are waiting for
	mem    *memory.CheckedAllocator
}

func start(t *testing.T) *fixture {
	t.Helper()
	store, err := blob.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{store: store, stream: onlinetest.New(store, job), waits: make(chan int, 64),
		mem: memory.NewCheckedAllocator(memory.NewGoAllocator())}
	svc := &stream.Service{Store: store, Mem: f.mem, Poll: online.Poll{Min: time.Millisecond, Max: time.Millisecond,
		OnWait: func(n int) {
			select {
			case f.waits <- n:
			default:
			}
		}}}
	srv, err := stream.Listen("127.0.0.1:0", svc)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	t.Cleanup(func() {
		srv.Shutdown()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
		f.mem.AssertSize(t, 0)
	})
	f.addr = srv.Addr().String()
	return f
}

func (f *fixture) client(t *testing.T) flight.Client {
	t.Helper()
	c, err := flight.NewClientWithMiddleware(f.addr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ticket(t *testing.T, v any) *flight.Ticket {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return &flight.Ticket{Ticket: b}
}

func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// get reads one DoGet as a table, with its schema metadata.
func get(t *testing.T, c flight.Client, consumer, table string) (arrow.Table, arrow.Metadata) {
	t.Helper()
	tbl, md, err := tryGet(callCtx(t), c, map[string]any{"job": job, "consumer": consumer, "table": table})
	if err != nil {
		t.Fatalf("DoGet: %v", err)
	}
	t.Cleanup(tbl.Release)
	return tbl, md
}

func tryGet(ctx context.Context, c flight.Client, tk any) (arrow.Table, arrow.Metadata, error) {
	b, _ := json.Marshal(tk)
	s, err := c.DoGet(ctx, &flight.Ticket{Ticket: b})
	if err != nil {
		return nil, arrow.Metadata{}, err
	}
	r, err := flight.NewRecordReader(s)
	if err != nil {
		return nil, arrow.Metadata{}, err
	}
	defer r.Release()
	var recs []arrow.Record
	for r.Next() {
		rec := r.Record()
		rec.Retain()
		recs = append(recs, rec)
	}
	if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, arrow.Metadata{}, err
	}
	tbl := array.NewTableFromRecords(r.Schema(), recs)
	for _, rec := range recs {
		rec.Release()
	}
	return tbl, r.Schema().Metadata(), nil
}

func ack(t *testing.T, c flight.Client, consumer string, batch int) schema.Cursor {
	t.Helper()
	cur, err := action(callCtx(t), c, stream.ActionAck, map[string]any{"job": job, "consumer": consumer, "batch": batch})
	if err != nil {
		t.Fatalf("ack %d: %v", batch, err)
	}
	return cur
}

func action(ctx context.Context, c flight.Client, name string, body any) (schema.Cursor, error) {
	b, _ := json.Marshal(body)
	s, err := c.DoAction(ctx, &flight.Action{Type: name, Body: b})
	if err != nil {
		return schema.Cursor{}, err
	}
	res, err := s.Recv()
	if err != nil {
		return schema.Cursor{}, err
	}
	return schema.UnmarshalCursor(res.Body)
}

// parquetTable reads the committed Parquet file of batch n's table, as the
// stream must deliver it.
func (f *fixture) parquetTable(t *testing.T, m schema.Manifest, table online.Table) arrow.Table {
	t.Helper()
	ent, ok := online.File(m, table)
	if !ok {
		t.Fatalf("batch %d has no %s file", m.Batch, table)
	}
	data, err := blob.ReadAll(context.Background(), f.store, job+"/"+ent.Path)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tbl.Release)
	return tbl
}

// checkBatch asserts tbl is batch m's table, row for row, with the batch
// and its manifest in the schema metadata.
func (f *fixture) checkBatch(t *testing.T, tbl arrow.Table, md arrow.Metadata, m schema.Manifest, table online.Table) {
	t.Helper()
	if v, _ := md.GetValue(stream.MetaBatch); v != strconv.Itoa(m.Batch) {
		t.Fatalf("%s = %q, want %d", stream.MetaBatch, v, m.Batch)
	}
	mj, _ := md.GetValue(stream.MetaManifest)
	got, err := schema.UnmarshalManifest([]byte(mj))
	if err != nil || got.Batch != m.Batch || got.TurnRows != m.TurnRows {
		t.Fatalf("%s: %+v (%v), want batch %d", stream.MetaManifest, got, err, m.Batch)
	}
	want := f.parquetTable(t, m, table)
	if tbl.NumRows() != want.NumRows() || !array.TableEqual(tbl, want) {
		t.Fatalf("batch %d %s: %d rows that differ from the Parquet's %d rows", m.Batch, table, tbl.NumRows(), want.NumRows())
	}
	if table == online.TableTurns && tbl.NumRows() != m.TurnRows {
		t.Fatalf("batch %d: %d turn rows, manifest says %d", m.Batch, tbl.NumRows(), m.TurnRows)
	}
}

func TestFollowsJobAndAcks(t *testing.T) {
	f := start(t)
	c := f.client(t)
	m0 := f.stream.Commit(t, 0)
	tbl, md := get(t, c, "trainer", "turns")
	f.checkBatch(t, tbl, md, m0, online.TableTurns)
	// Without an ack, the same batch again; episodes on request.
	etbl, emd := get(t, c, "trainer", "episodes")
	f.checkBatch(t, etbl, emd, m0, online.TableEpisodes)
	if cur := ack(t, c, "trainer", 0); cur.NextBatch != 1 {
		t.Fatalf("cursor after ack 0: %+v", cur)
	}

	// Batch 1 is not committed: the DoGet waits until it is.
	f.stream.Prepare(t, 1)
	committed := make(chan schema.Manifest, 1)
	go func() {
		if n := <-f.waits; n != 1 {
			close(committed)
			return
		}
		m, err := f.stream.TryCommit(t, 1)
		if err != nil {
			close(committed)
			return
		}
		committed <- m
	}()
	tbl1, md1 := get(t, c, "trainer", "turns")
	m1, ok := <-committed
	if !ok {
		t.Fatal("the DoGet did not wait for batch 1, or committing it failed")
	}
	f.checkBatch(t, tbl1, md1, m1, online.TableTurns)
	ack(t, c, "trainer", 1)
	ctx := context.Background()
	if cur, err := online.ReadCursor(ctx, f.store, job, "trainer"); err != nil || cur.NextBatch != 2 {
		t.Fatalf("stored cursor %+v, %v; want next_batch 2", cur, err)
	}
	if cur, err := action(callCtx(t), c, stream.ActionCursor, map[string]any{"job": job, "consumer": "trainer"}); err != nil || cur.NextBatch != 2 {
		t.Fatalf("cursor action: %+v, %v; want next_batch 2", cur, err)
	}
	// Acking an old batch again is a no-op; one ahead is refused.
	ack(t, c, "trainer", 0)
	_, err := action(callCtx(t), c, stream.ActionAck, map[string]any{"job": job, "consumer": "trainer", "batch": 5})
	if status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("ack ahead of the cursor: %v, want FailedPrecondition", err)
	}
}

func TestReconnectContinuesAfterLastAck(t *testing.T) {
	f := start(t)
	ms := []schema.Manifest{f.stream.Commit(t, 0), f.stream.Commit(t, 1), f.stream.Commit(t, 2)}
	first := f.client(t)
	get(t, first, "trainer", "turns")
	ack(t, first, "trainer", 0)
	get(t, first, "trainer", "turns") // batch 1, never acked: the trainer dies
	first.Close()

	again := f.client(t)
	tbl, md := get(t, again, "trainer", "turns")
	f.checkBatch(t, tbl, md, ms[1], online.TableTurns)
}

func TestTwoConsumersEachGetEveryBatch(t *testing.T) {
	f := start(t)
	ms := []schema.Manifest{f.stream.Commit(t, 0), f.stream.Commit(t, 1)}
	c := f.client(t)
	for _, name := range []string{"actor", "critic"} {
		for _, m := range ms {
			tbl, md := get(t, c, name, "turns")
			f.checkBatch(t, tbl, md, m, online.TableTurns)
			ack(t, c, name, m.Batch)
		}
	}
}

func TestBadTicketNamesField(t *testing.T) {
	f := start(t)
	c := f.client(t)
	for _, tc := range []struct {
		ticket any
		field  string
	}{
		{"not an object", "ticket"},
		{map[string]any{"consumer": "trainer"}, "ticket.job"},
		{map[string]any{"job": "../etc", "consumer": "trainer"}, "ticket.job"},
		{map[string]any{"job": job, "consumer": "a/b"}, "ticket.consumer"},
		{map[string]any{"job": job, "consumer": "trainer", "table": "rows"}, "ticket.table"},
		{map[string]any{"job": job, "consumer": "trainer", "wait_ms": -1}, "ticket.wait_ms"},
		{map[string]any{"job": job, "consumer": "trainer", "batch": 3}, `unknown field "batch"`},
	} {
		_, _, err := tryGet(callCtx(t), c, tc.ticket)
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), tc.field) {
			t.Errorf("ticket %v: %v; want InvalidArgument naming %s", tc.ticket, err, tc.field)
		}
	}
	_, err := action(callCtx(t), c, stream.ActionAck, map[string]any{"job": job, "consumer": "trainer"})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "body.batch") {
		t.Errorf("ack without a batch: %v; want InvalidArgument naming body.batch", err)
	}
}

// A batch far over gRPC's default 4 MiB message limit (which the Go client
// keeps here) arrives whole, in several record batches.
func TestLargeBatchArrivesWhole(t *testing.T) {
	f := start(t)
	f.stream.ResponseTokens = 150000
	m := f.stream.Commit(t, 0)
	if ent, _ := online.File(m, online.TableTurns); ent.Size < 1<<20 {
		t.Fatalf("turns file of %d bytes: the test needs a batch of megabytes", ent.Size)
	}
	c := f.client(t)
	tbl, md := get(t, c, "trainer", "turns")
	f.checkBatch(t, tbl, md, m, online.TableTurns)
	var arrowBytes int64
	rdr := array.NewTableReader(tbl, 1<<30)
	for rdr.Next() {
		arrowBytes += util.TotalRecordSize(rdr.Record())
	}
	rdr.Release()
	if arrowBytes < 4<<20 {
		t.Fatalf("%d bytes of Arrow: the test needs a batch over gRPC's 4 MiB message limit", arrowBytes)
	}
	if n := len(tbl.Column(0).Data().Chunks()); n < 2 {
		t.Fatalf("%d record batch(es): a batch this size must be split", n)
	}
}

func TestWaitBoundAndEndOfStream(t *testing.T) {
	f := start(t)
	c := f.client(t)
	_, _, err := tryGet(callCtx(t), c, map[string]any{"job": job, "consumer": "trainer", "wait_ms": 1})
	if status.Code(err) != codes.DeadlineExceeded || !strings.Contains(err.Error(), "wait_ms") {
		t.Fatalf("DoGet of an uncommitted batch with wait_ms: %v, want DeadlineExceeded", err)
	}
	f.stream.Commit(t, 0)
	f.stream.End(t, 1)
	get(t, c, "trainer", "turns")
	ack(t, c, "trainer", 0)
	_, _, err = tryGet(callCtx(t), c, map[string]any{"job": job, "consumer": "trainer"})
	if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), "end of stream") {
		t.Fatalf("DoGet past the last batch: %v, want NotFound (end of stream)", err)
	}
}

func TestCorruptFileIsDataLoss(t *testing.T) {
	f := start(t)
	m := f.stream.Commit(t, 0)
	ent, _ := online.File(m, online.TableTurns)
	ctx := context.Background()
	data, err := blob.ReadAll(ctx, f.store, job+"/"+ent.Path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 0x55
	if err := blob.PutBytes(ctx, f.store, job+"/"+ent.Path, data); err != nil {
		t.Fatal(err)
	}
	_, _, err = tryGet(callCtx(t), f.client(t), map[string]any{"job": job, "consumer": "trainer"})
	if status.Code(err) != codes.DataLoss || !strings.Contains(err.Error(), ent.Path) {
		t.Fatalf("DoGet of a corrupted batch: %v, want DataLoss naming %s", err, ent.Path)
	}
}
