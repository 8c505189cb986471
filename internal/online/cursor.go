package online

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/schema"
)

// ErrAhead reports an ack of a batch the consumer has not reached: its
// cursor is before the batch, so acking it would skip batches unread.
var ErrAhead = errors.New("ack ahead of the cursor")

// ErrInvalidName reports a job or consumer name that cannot name objects.
var ErrInvalidName = errors.New("invalid name")

// CheckNames reports a job id or consumer name that is not valid, naming
// which one and the rule.
func CheckNames(job, consumer string) error {
	if err := CheckJob(job); err != nil {
		return err
	}
	if !schema.ValidConsumer(consumer) {
		return fmt.Errorf("%w: consumer %q: want 1-64 characters of A-Z, a-z, 0-9, '.', '_', '-', starting with a letter or digit", ErrInvalidName, consumer)
	}
	return nil
}

// CheckJob reports a job id that is not valid.
func CheckJob(job string) error {
	if !schema.ValidJobID(job) { // a folder under the output root: nothing else may be read as one
		return fmt.Errorf("%w: job %q: want 1-63 characters of a-z, 0-9, '.', '_', '-', starting with a letter or digit", ErrInvalidName, job)
	}
	return nil
}

// ReadCursor returns consumer's cursor of job; a consumer that never acked
// is at batch 0.
func ReadCursor(ctx context.Context, store blob.Store, job, consumer string) (schema.Cursor, error) {
	c, _, err := readCursor(ctx, store, job, consumer)
	return c, err
}

// readCursor also returns the stored object's bytes (nil when missing), so
// an ack can keep the fields other writers put there.
func readCursor(ctx context.Context, store blob.Store, job, consumer string) (schema.Cursor, []byte, error) {
	if err := CheckNames(job, consumer); err != nil {
		return schema.Cursor{}, nil, err
	}
	key := schema.CursorKey(job, consumer)
	data, err := blob.ReadAll(ctx, store, key)
	if errors.Is(err, blob.ErrNotExist) {
		return schema.Cursor{SchemaVersion: schema.SchemaVersion, Job: job, Consumer: consumer}, nil, nil
	}
	if err != nil {
		return schema.Cursor{}, nil, fmt.Errorf("read cursor %s: %w", key, err)
	}
	c, err := schema.UnmarshalCursor(data)
	if err != nil {
		return schema.Cursor{}, nil, fmt.Errorf("%s: %w", key, err)
	}
	if c.Job != job || c.Consumer != consumer {
		return schema.Cursor{}, nil, fmt.Errorf("%s: the cursor names job %q consumer %q", key, c.Job, c.Consumer)
	}
	return c, data, nil
}

// WriteCursor stores c whole (one Put: a folder store renames a complete
// temporary file, an S3 store sends one object), replacing the cursor.
func WriteCursor(ctx context.Context, store blob.Store, c schema.Cursor) error {
	return writeCursor(ctx, store, c, nil)
}

// writeCursor stores c, keeping any fields of old (the previous object)
// that schema.Cursor does not know.
func writeCursor(ctx context.Context, store blob.Store, c schema.Cursor, old []byte) error {
	if err := CheckNames(c.Job, c.Consumer); err != nil {
		return err
	}
	if c.NextBatch < 0 {
		return fmt.Errorf("write cursor of %s/%s: next_batch %d: want at least 0", c.Job, c.Consumer, c.NextBatch)
	}
	data, err := schema.MarshalCursor(&c)
	if err != nil {
		return err
	}
	if len(old) > 0 {
		if data, err = mergeExtra(data, old); err != nil {
			return fmt.Errorf("write cursor of %s/%s: %w", c.Job, c.Consumer, err)
		}
	}
	if err := blob.PutBytes(ctx, store, schema.CursorKey(c.Job, c.Consumer), data); err != nil {
		return fmt.Errorf("write cursor of %s/%s: %w", c.Job, c.Consumer, err)
	}
	return nil
}

// mergeExtra returns data (a cursor object) with the fields of old that
// data lacks added, indented and newline-terminated like MarshalCursor.
func mergeExtra(data, old []byte) ([]byte, error) {
	var fresh, prev map[string]json.RawMessage
	if err := json.Unmarshal(data, &fresh); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(old, &prev); err != nil {
		return nil, fmt.Errorf("previous cursor: %w", err)
	}
	for k, v := range prev {
		if _, ok := fresh[k]; !ok {
			fresh[k] = v
		}
	}
	out, err := json.MarshalIndent(fresh, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(bytes.TrimSpace(out), '\n'), nil
}

// Ack records that consumer has used batch: its cursor moves to batch+1.
// Acking a batch the cursor is already past is a no-op (a redelivered batch
// acked twice, a trainer re-acking its checkpoint); acking a batch after the
// cursor is ErrAhead. It returns the cursor as stored afterwards. Fields
// other writers keep in the cursor object stay.
//
// Ack reads then writes: two processes acking under one name at once may
// interleave, which is why a name is one trainer.
func Ack(ctx context.Context, store blob.Store, job, consumer string, batch int) (schema.Cursor, error) {
	if batch < 0 {
		return schema.Cursor{}, fmt.Errorf("ack %s/%s: batch %d: want at least 0", job, consumer, batch)
	}
	c, old, err := readCursor(ctx, store, job, consumer)
	if err != nil {
		return schema.Cursor{}, fmt.Errorf("ack: %w", err)
	}
	switch {
	case batch < c.NextBatch:
		return c, nil
	case batch > c.NextBatch:
		return c, fmt.Errorf("ack %s/%s batch %d: %w: the cursor is at batch %d (ack batches in order)", job, consumer, batch, ErrAhead, c.NextBatch)
	}
	c.NextBatch = batch + 1
	if err := writeCursor(ctx, store, c, old); err != nil {
		return schema.Cursor{}, fmt.Errorf("ack: %w", err)
	}
	return c, nil
}

// Cursors reads the cursors of names, in order: one GET each, a few at a
// time (a job names up to schema.MaxConsumers).
func Cursors(ctx context.Context, store blob.Store, job string, names []string) ([]schema.Cursor, error) {
	out := make([]schema.Cursor, len(names))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(cursorReads)
	for i, n := range names {
		g.Go(func() error {
			c, err := ReadCursor(ctx, store, job, n)
			out[i] = c
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// cursorReads bounds the GETs Cursors has in flight.
const cursorReads = 8

// Slowest returns the smallest NextBatch among names' cursors: the batches
// before it are consumed by every one of them. With no names it is 0.
func Slowest(ctx context.Context, store blob.Store, job string, names []string) (int, error) {
	cs, err := Cursors(ctx, store, job, names)
	if err != nil {
		return 0, err
	}
	if len(cs) == 0 {
		return 0, nil
	}
	low := cs[0].NextBatch
	for _, c := range cs[1:] {
		low = min(low, c.NextBatch)
	}
	return low, nil
}
