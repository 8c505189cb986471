package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/apache/arrow/go/v17/arrow/flight"
	"github.com/apache/arrow/go/v17/arrow/util"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/online"
	"github.com/quarry-rl/quarry/internal/online/stream"
	"github.com/quarry-rl/quarry/schema"
)

// reader is a trainer's side of one consumption path.
type reader interface {
	// read waits for batch n and returns once its turn rows are held,
	// with how many rows and bytes it received.
	read(ctx context.Context, n int) (rows, size int64, err error)
	ack(ctx context.Context, n int) error
}

const consumerName = "bench"

func newReader(ctx context.Context, store blob.Store, job, path string, poll online.Poll) (reader, func(), error) {
	if path == "object-store" {
		c := &online.Consumer{Store: store, Job: job, Name: consumerName, MinPoll: poll.Min, MaxPoll: poll.Max}
		return protocolReader{c}, func() {}, nil
	}
	srv, err := stream.Listen("127.0.0.1:0", &stream.Service{Store: store, Poll: poll})
	if err != nil {
		return nil, nil, err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	client, err := flight.NewClientWithMiddleware(srv.Addr().String(), nil, nil,
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		srv.Shutdown()
		<-served
		return nil, nil, err
	}
	stop := func() {
		client.Close()
		srv.Shutdown()
		<-served
	}
	return flightReader{client: client, job: job}, stop, nil
}

type protocolReader struct{ c *online.Consumer }

func (r protocolReader) read(ctx context.Context, n int) (int64, int64, error) {
	b, err := r.c.Next(ctx)
	if err != nil {
		return 0, 0, err
	}
	if b.Number != n {
		return 0, 0, fmt.Errorf("got batch %d, want %d", b.Number, n)
	}
	rows, err := schema.ReadTurns(bytes.NewReader(b.Turns), int64(len(b.Turns)))
	if err != nil {
		return 0, 0, err
	}
	return int64(len(rows)), int64(len(b.Turns)), nil
}

func (r protocolReader) ack(ctx context.Context, n int) error {
	_, err := online.Ack(ctx, r.c.Store, r.c.Job, r.c.Name, n)
	return err
}

type flightReader struct {
	client flight.Client
	job    string
}

func (r flightReader) read(ctx context.Context, n int) (int64, int64, error) {
	tk := fmt.Sprintf(`{"job":%q,"consumer":%q}`, r.job, consumerName)
	s, err := r.client.DoGet(ctx, &flight.Ticket{Ticket: []byte(tk)})
	if err != nil {
		return 0, 0, err
	}
	rr, err := flight.NewRecordReader(s)
	if err != nil {
		return 0, 0, err
	}
	defer rr.Release()
	if v, _ := rr.Schema().Metadata().GetValue(stream.MetaBatch); v != strconv.Itoa(n) {
		return 0, 0, fmt.Errorf("got batch %s, want %d", v, n)
	}
	var rows, size int64
	for rr.Next() {
		rows += rr.Record().NumRows()
		size += util.TotalRecordSize(rr.Record())
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, err
	}
	return rows, size, nil
}

func (r flightReader) ack(ctx context.Context, n int) error {
	body := fmt.Sprintf(`{"job":%q,"consumer":%q,"batch":%d}`, r.job, consumerName, n)
	s, err := r.client.DoAction(ctx, &flight.Action{Type: stream.ActionAck, Body: []byte(body)})
	if err != nil {
		return err
	}
	_, err = s.Recv()
	return err
}
