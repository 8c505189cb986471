// Package stream serves online jobs' committed batches over Arrow Flight,
// so a trainer with pyarrow gets a batch without listing the store:
//
//	reader = client.do_get(flight.Ticket(b'{"job":"j","consumer":"trainer"}'))
//	table = reader.read_all()               # batch at the consumer's cursor
//	client.do_action(flight.Action("ack", b'{"job":"j","consumer":"trainer","batch":0}'))
//
// The service is stateless: every DoGet reads the consumer's cursor from the
// store and streams the batch there (waiting for its commit), and "ack"
// writes the cursor exactly as the object-store protocol does
// (internal/online). A trainer that reconnects, to this server or another
// over the same store, continues after its last ack; a DoGet without an ack
// redelivers the same batch.
package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/flight"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/arrow/util"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

// Schema metadata keys of a streamed batch.
const (
	MetaBatch    = "quarry.batch"    // the batch number, decimal
	MetaManifest = "quarry.manifest" // the batch's manifest JSON, as stored
	MetaTable    = "quarry.table"    // turns or episodes
)

// Action names.
const (
	ActionAck    = "ack"
	ActionCursor = "cursor"
)

// Rows per record batch read from Parquet, and the size past which a record
// batch is split before it is sent: gRPC clients refuse messages over 4 MiB
// unless told otherwise (Go's default), so no message comes near it.
const (
	readRows     = 4096
	maxSendBytes = 2 << 20
)

// Service is the Flight service over one output root (any number of jobs).
type Service struct {
	flight.BaseFlightServer
	Store blob.Store
	Log   *slog.Logger     // nil: discard
	Mem   memory.Allocator // nil: memory.DefaultAllocator
	// Poll says how a DoGet waits for an uncommitted batch (internal/online's
	// defaults when zero). Its OnWait, when set, is called while one waits.
	Poll online.Poll
}

// Ticket is a DoGet's ticket, JSON-encoded.
type Ticket struct {
	Job      string `json:"job"`
	Consumer string `json:"consumer"`
	// Table is turns (default) or episodes.
	Table string `json:"table,omitempty"`
	// WaitMS bounds the wait for the batch's commit, in milliseconds: past
	// it the call fails with DeadlineExceeded. 0 waits as long as the call
	// lives (the client's deadline or cancel).
	WaitMS int64 `json:"wait_ms,omitempty"`
}

// Body of the ack and cursor actions, JSON-encoded. Batch is used by ack only.
type actionBody struct {
	Job      string `json:"job"`
	Consumer string `json:"consumer"`
	Batch    *int   `json:"batch,omitempty"`
}

func (s *Service) log() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}

func (s *Service) mem() memory.Allocator {
	if s.Mem == nil {
		return memory.DefaultAllocator
	}
	return s.Mem
}

// Listen binds addr and registers s on a new Flight server; the caller runs
// Serve and Shutdown.
func Listen(addr string, s *Service) (flight.Server, error) {
	srv := flight.NewServerWithMiddleware(nil)
	if err := srv.Init(addr); err != nil {
		return nil, fmt.Errorf("flight: listen on %s: %w", addr, err)
	}
	srv.RegisterFlightService(s)
	return srv, nil
}

// DoGet streams the consumer's next batch (the one at its cursor) as Arrow
// record batches, waiting for its commit.
func (s *Service) DoGet(tkt *flight.Ticket, fs flight.FlightService_DoGetServer) error {
	t, err := parseTicket(tkt.GetTicket())
	if err != nil {
		return status.Error(codes.InvalidArgument, err.Error())
	}
	ctx := fs.Context()
	cur, err := online.ReadCursor(ctx, s.Store, t.Job, t.Consumer)
	if err != nil {
		return s.fail(err, t)
	}
	wctx := ctx
	if t.WaitMS > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, time.Duration(t.WaitMS)*time.Millisecond)
		defer cancel()
	}
	m, mdata, err := online.WaitManifest(wctx, s.Store, t.Job, cur.NextBatch, s.Poll)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return status.Errorf(codes.DeadlineExceeded, "job %s batch %d (consumer %s's next) is not committed after wait_ms %d; ask again",
				t.Job, cur.NextBatch, t.Consumer, t.WaitMS)
		}
		return s.fail(err, t)
	}
	f, ok := online.File(m, online.Table(t.Table))
	if !ok {
		return s.fail(fmt.Errorf("job %s batch %d: the manifest lists no %s file", t.Job, m.Batch, t.Table), t)
	}
	data, err := shard.ReadFile(ctx, s.Store, t.Job, f)
	if err != nil {
		return s.fail(fmt.Errorf("job %s batch %d: %w", t.Job, m.Batch, err), t)
	}
	if err := s.send(ctx, fs, data, map[string]string{
		MetaBatch: strconv.Itoa(m.Batch), MetaManifest: string(mdata), MetaTable: t.Table,
	}); err != nil {
		return s.fail(fmt.Errorf("job %s batch %d %s: %w", t.Job, m.Batch, t.Table, err), t)
	}
	return nil
}

// parseTicket decodes and checks a ticket, naming the bad field.
func parseTicket(raw []byte) (Ticket, error) {
	var t Ticket
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Ticket{}, fmt.Errorf(`ticket: %v (want JSON {"job":…,"consumer":…,"table":"turns"|"episodes","wait_ms":…})`, err)
	}
	if t.Table == "" {
		t.Table = string(online.TableTurns)
	}
	switch {
	case online.CheckJob(t.Job) != nil:
		return Ticket{}, fmt.Errorf("ticket.job: %v", online.CheckJob(t.Job))
	case !schema.ValidConsumer(t.Consumer):
		return Ticket{}, fmt.Errorf("ticket.consumer: %v", online.CheckNames(t.Job, t.Consumer))
	case t.Table != string(online.TableTurns) && t.Table != string(online.TableEpisodes):
		return Ticket{}, fmt.Errorf("ticket.table: %q: want turns or episodes", t.Table)
	case t.WaitMS < 0:
		return Ticket{}, fmt.Errorf("ticket.wait_ms: %d: want 0 (wait as long as the call lives) or more", t.WaitMS)
	}
	return t, nil
}

// send streams a Parquet file as Arrow record batches whose schema carries
// meta beside the file's own metadata.
func (s *Service) send(ctx context.Context, fs flight.FlightService_DoGetServer, data []byte, meta map[string]string) error {
	mem := s.mem()
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return fmt.Errorf("open parquet: %w", err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: readRows}, mem)
	if err != nil {
		return fmt.Errorf("read parquet as arrow: %w", err)
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return fmt.Errorf("read parquet as arrow: %w", err)
	}
	defer rr.Release()
	sc := withMetadata(rr.Schema(), meta)
	w := flight.NewRecordWriter(fs, ipc.WithSchema(sc), ipc.WithAllocator(mem))
	for rr.Next() {
		if err := writeSplit(w, rr.Record()); err != nil {
			w.Close()
			return err
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		w.Close()
		return fmt.Errorf("read parquet: %w", err)
	}
	return w.Close()
}

// writeSplit writes rec, halved until each piece is under maxSendBytes.
func writeSplit(w *flight.Writer, rec arrow.Record) error {
	if rec.NumRows() <= 1 || util.TotalRecordSize(rec) <= maxSendBytes {
		if err := w.Write(rec); err != nil {
			return fmt.Errorf("send record batch: %w", err)
		}
		return nil
	}
	half := rec.NumRows() / 2
	for _, r := range [][2]int64{{0, half}, {half, rec.NumRows()}} {
		piece := rec.NewSlice(r[0], r[1])
		err := writeSplit(w, piece)
		piece.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// withMetadata returns sc with meta added to its metadata.
func withMetadata(sc *arrow.Schema, meta map[string]string) *arrow.Schema {
	md := sc.Metadata()
	keys, vals := append([]string(nil), md.Keys()...), append([]string(nil), md.Values()...)
	for k, v := range meta {
		keys, vals = append(keys, k), append(vals, v)
	}
	m := arrow.NewMetadata(keys, vals)
	return arrow.NewSchema(sc.Fields(), &m)
}

// fail maps an error to a gRPC status a trainer can act on, logging what
// the client cannot fix.
func (s *Service) fail(err error, t Ticket) error {
	switch {
	case errors.Is(err, online.ErrEnd):
		return status.Errorf(codes.NotFound, "end of stream: %v", err)
	case errors.Is(err, online.ErrInvalidName):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.Is(err, online.ErrAhead):
		return status.Error(codes.FailedPrecondition, err.Error())
	case errors.Is(err, shard.ErrCorruptFile):
		s.log().Error("refused a corrupt shard file", "job", t.Job, "consumer", t.Consumer, "err", err)
		return status.Error(codes.DataLoss, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	s.log().Error("flight call failed", "job", t.Job, "consumer", t.Consumer, "err", err)
	return status.Error(codes.Internal, err.Error())
}

// DoAction runs "ack" (body {"job","consumer","batch"}: the cursor moves
// past batch, per the protocol) and "cursor" (body {"job","consumer"}).
// Both answer with the cursor object as JSON.
func (s *Service) DoAction(a *flight.Action, fs flight.FlightService_DoActionServer) error {
	var body actionBody
	dec := json.NewDecoder(bytes.NewReader(a.GetBody()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return status.Errorf(codes.InvalidArgument, `action %s body: %v (want JSON {"job":…,"consumer":…,"batch":…})`, a.GetType(), err)
	}
	t := Ticket{Job: body.Job, Consumer: body.Consumer}
	if err := online.CheckNames(body.Job, body.Consumer); err != nil {
		return status.Errorf(codes.InvalidArgument, "action %s body: %v", a.GetType(), err)
	}
	var (
		c   schema.Cursor
		err error
	)
	switch a.GetType() {
	case ActionAck:
		if body.Batch == nil {
			return status.Error(codes.InvalidArgument, "action ack body.batch: required (the batch the trainer has used)")
		}
		c, err = online.Ack(fs.Context(), s.Store, body.Job, body.Consumer, *body.Batch)
	case ActionCursor:
		c, err = online.ReadCursor(fs.Context(), s.Store, body.Job, body.Consumer)
	default:
		return status.Errorf(codes.InvalidArgument, "action %q: want %s or %s", a.GetType(), ActionAck, ActionCursor)
	}
	if err != nil {
		return s.fail(err, t)
	}
	out, err := schema.MarshalCursor(&c)
	if err != nil {
		return s.fail(err, t)
	}
	return fs.Send(&flight.Result{Body: out})
}

// ListActions describes the actions DoAction runs.
func (s *Service) ListActions(_ *flight.Empty, fs flight.FlightService_ListActionsServer) error {
	for _, a := range []*flight.ActionType{
		{Type: ActionAck, Description: `{"job","consumer","batch"}: the consumer has used batch; its cursor moves to batch+1 (a no-op when already past, an error when ahead)`},
		{Type: ActionCursor, Description: `{"job","consumer"}: the consumer's cursor`},
	} {
		if err := fs.Send(a); err != nil {
			return err
		}
	}
	return nil
}
