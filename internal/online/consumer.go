// Package online consumes an online job's stream of committed batches
// through the object store, following the protocol of docs/consume.md: the
// manifests are the log (batch n's manifest appears only after those of
// 0..n-1), and each named consumer keeps its position as a cursor object,
// <job>/_consumers/<name>.json, that it writes after it has used a batch.
//
// A consumer holds no lease. Two processes under one name read the same
// batches and race on the cursor, so a name is one trainer; different names
// each see every batch. Exactly once per name follows from acking only
// after the trainer's step is durable: a crash before the ack redelivers
// the batch, a crash after it does not.
package online

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/schema"
)

// ErrEnd reports that the stream has ended: the job wrote _SUCCESS and every
// batch it names is behind the consumer.
var ErrEnd = errors.New("end of stream")

// Polling of a batch not yet committed: the first wait, doubled after each
// miss up to the cap.
const (
	DefaultMinPoll = 50 * time.Millisecond
	DefaultMaxPoll = time.Second
)

// Batch is one committed batch, its files read and checked against the
// manifest.
type Batch struct {
	Number   int
	Manifest schema.Manifest
	// ManifestJSON is the manifest object as stored.
	ManifestJSON []byte
	// Turns and Episodes are the Parquet files' bytes; Failures is the
	// JSON Lines file of failed episodes, nil when none failed.
	Turns, Episodes, Failures []byte
}

// Consumer reads one job's batches in commit order for one consumer name.
// Next delivers the batch at the stored cursor first (read on the first
// call), then the following ones, so a trainer may read ahead of its acks;
// Ack moves the stored cursor. A new Consumer (a restarted trainer) starts
// again after the last acked batch.
type Consumer struct {
	Store blob.Store
	Job   string
	Name  string
	// MinPoll and MaxPoll bound the wait between two looks at a batch not
	// yet committed (DefaultMinPoll, DefaultMaxPoll when zero).
	MinPoll, MaxPoll time.Duration
	// OnWait, when set, is called each time Next finds its batch not yet
	// committed and is about to wait. Tests use it to commit a batch while
	// Next is known to be waiting.
	OnWait func(batch int)

	next    int
	started bool
}

// Position is the batch the next call of Next delivers (-1 before the
// first call has read the cursor).
func (c *Consumer) Position() int {
	if !c.started {
		return -1
	}
	return c.next
}

// Next returns the next batch, waiting until it is committed or ctx ends.
// It returns ErrEnd once the stream has ended, and an error matching
// shard.ErrCorruptFile when a file differs from its manifest (the batch is
// not delivered; a later call tries it again).
func (c *Consumer) Next(ctx context.Context) (Batch, error) {
	if !c.started {
		cur, err := ReadCursor(ctx, c.Store, c.Job, c.Name)
		if err != nil {
			return Batch{}, err
		}
		c.next, c.started = cur.NextBatch, true
	}
	b, err := Wait(ctx, c.Store, c.Job, c.next, Poll{Min: c.MinPoll, Max: c.MaxPoll, OnWait: c.OnWait})
	if err != nil {
		return Batch{}, err
	}
	c.next++
	return b, nil
}

// Ack records that the trainer has used b (see the package Ack). Call it
// once the step that used b is durable.
func (c *Consumer) Ack(ctx context.Context, b Batch) error {
	_, err := Ack(ctx, c.Store, c.Job, c.Name, b.Number)
	return err
}

// Poll says how Wait looks for a batch not yet committed.
type Poll struct {
	Min, Max time.Duration // DefaultMinPoll, DefaultMaxPoll when zero
	OnWait   func(batch int)
}

// Wait returns batch n of job once it is committed, its files read and
// verified; ErrEnd if the stream ended before it; or ctx's error.
func Wait(ctx context.Context, store blob.Store, job string, n int, p Poll) (Batch, error) {
	m, data, err := WaitManifest(ctx, store, job, n, p)
	if err != nil {
		return Batch{}, err
	}
	return readFiles(ctx, store, m, data)
}

// WaitManifest returns batch n's manifest (decoded and as stored) once it is
// committed, ErrEnd if the stream ended before it, or ctx's error. It polls
// with backoff: one GET of the manifest, and of _SUCCESS while it is
// missing, per look.
func WaitManifest(ctx context.Context, store blob.Store, job string, n int, p Poll) (schema.Manifest, []byte, error) {
	if err := CheckJob(job); err != nil {
		return schema.Manifest{}, nil, err
	}
	delay := cmp.Or(max(p.Min, 0), DefaultMinPoll)
	ceiling := max(cmp.Or(max(p.Max, 0), DefaultMaxPoll), delay)
	for {
		m, data, ok, err := ReadManifest(ctx, store, job, n)
		if err != nil || ok {
			return m, data, err
		}
		if ended, err := endedBefore(ctx, store, job, n); err != nil {
			return schema.Manifest{}, nil, err
		} else if ended {
			return schema.Manifest{}, nil, fmt.Errorf("job %s batch %d: %w", job, n, ErrEnd)
		}
		if p.OnWait != nil {
			p.OnWait(n)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return schema.Manifest{}, nil, fmt.Errorf("wait for job %s batch %d: %w", job, n, ctx.Err())
		case <-t.C:
		}
		delay = min(2*delay, ceiling)
	}
}

// Read returns batch n of job if it is committed (ok false when its
// manifest does not exist yet), its files read and verified.
func Read(ctx context.Context, store blob.Store, job string, n int) (Batch, bool, error) {
	m, data, ok, err := ReadManifest(ctx, store, job, n)
	if err != nil || !ok {
		return Batch{}, false, err
	}
	b, err := readFiles(ctx, store, m, data)
	return b, err == nil, err
}

// ReadManifest returns batch n's manifest, decoded and as stored, if it is
// committed (ok false when it does not exist yet).
func ReadManifest(ctx context.Context, store blob.Store, job string, n int) (m schema.Manifest, data []byte, ok bool, err error) {
	if n < 0 {
		return schema.Manifest{}, nil, false, fmt.Errorf("job %s: batch %d: want at least 0", job, n)
	}
	key := schema.ShardKeys(job, n).Manifest
	data, err = blob.ReadAll(ctx, store, key)
	if errors.Is(err, blob.ErrNotExist) {
		return schema.Manifest{}, nil, false, nil
	}
	if err != nil {
		return schema.Manifest{}, nil, false, fmt.Errorf("read batch %d: %w", n, err)
	}
	if m, err = schema.UnmarshalManifest(data); err != nil {
		return schema.Manifest{}, nil, false, fmt.Errorf("%s: %w", key, err)
	}
	if m.Job != job || m.Batch != n {
		return schema.Manifest{}, nil, false, fmt.Errorf("%s describes job %q batch %d", key, m.Job, m.Batch)
	}
	return m, data, true, nil
}

// Table names a data file of a batch.
type Table string

// The tables of a batch.
const (
	TableTurns    Table = "turns"
	TableEpisodes Table = "episodes"
	TableFailures Table = "failures"
)

// File returns the manifest's entry for table (ok false when the batch has
// none: a failures file exists only when episodes failed).
func File(m schema.Manifest, table Table) (schema.ManifestFile, bool) {
	keys := schema.ShardKeys(m.Job, m.Batch)
	want := map[Table]string{TableTurns: keys.Turns, TableEpisodes: keys.Episodes, TableFailures: keys.Failures}[table]
	for _, f := range m.Files {
		if want != "" && f.Path == schema.RelKey(m.Job, want) {
			return f, true
		}
	}
	return schema.ManifestFile{}, false
}

// readFiles reads and verifies every file m lists.
func readFiles(ctx context.Context, store blob.Store, m schema.Manifest, data []byte) (Batch, error) {
	b := Batch{Number: m.Batch, Manifest: m, ManifestJSON: data}
	for _, t := range []struct {
		table Table
		into  *[]byte
	}{{TableTurns, &b.Turns}, {TableEpisodes, &b.Episodes}, {TableFailures, &b.Failures}} {
		f, ok := File(m, t.table)
		if !ok {
			if t.table != TableFailures {
				return Batch{}, fmt.Errorf("%s lists no %s file", schema.ShardKeys(m.Job, m.Batch).Manifest, t.table)
			}
			continue
		}
		body, err := shard.ReadFile(ctx, store, m.Job, f)
		if err != nil {
			return Batch{}, fmt.Errorf("job %s batch %d: %w", m.Job, m.Batch, err)
		}
		*t.into = body
	}
	return b, nil
}

// endedBefore reports whether job's _SUCCESS exists and counts at most n
// batches, so batch n will never be committed.
func endedBefore(ctx context.Context, store blob.Store, job string, n int) (bool, error) {
	data, err := blob.ReadAll(ctx, store, schema.SuccessKey(job))
	if errors.Is(err, blob.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read _SUCCESS of %s: %w", job, err)
	}
	s, err := schema.UnmarshalSuccess(data)
	if err != nil {
		return false, fmt.Errorf("%s: %w", schema.SuccessKey(job), err)
	}
	return s.Batches <= n, nil
}
