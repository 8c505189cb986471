// Package onlinetest writes an online job's stream for tests of its
// consumers: real turn logs (internal/shard/shardtest) committed batch by
// batch with the real shard writer, so every batch is real Parquet with a
// real manifest.
package onlinetest

import (
	"context"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
	"github.com/quarry-rl/quarry/schema"
)

// Stream is one job's batches: Prepare writes a batch's turn log, Commit
// writes its shard (the manifest last, which is the commit).
type Stream struct {
	Store blob.Store
	Job   string
	// ResponseTokens is the largest response of a turn (shardtest's
	// default when 0); large values make batches of many megabytes.
	ResponseTokens int
	// Prepared holds the batches whose turn logs are written, by number.
	Prepared map[int]*shardtest.Batch
}

// New returns an empty stream of job in store.
func New(store blob.Store, job string) *Stream {
	return &Stream{Store: store, Job: job, Prepared: map[int]*shardtest.Batch{}}
}

// Prepare writes batch n's turn log (not committed yet).
func (s *Stream) Prepare(t testing.TB, n int) *shardtest.Batch {
	t.Helper()
	b := shardtest.Write(context.Background(), t, s.Store, shardtest.Options{Job: s.Job, Batch: n, Seed: uint64(n) + 1, Gamma: 1, ResponseTokens: s.ResponseTokens})
	s.Prepared[n] = b
	return b
}

// Commit writes batch n's shard, preparing it first if needed, and returns
// its manifest.
func (s *Stream) Commit(t testing.TB, n int) schema.Manifest {
	t.Helper()
	m, err := s.TryCommit(t, n)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TryCommit is Commit returning the error, for goroutines (which may not
// call t.Fatal).
func (s *Stream) TryCommit(t testing.TB, n int) (schema.Manifest, error) {
	b := s.Prepared[n]
	if b == nil {
		b = s.Prepare(t, n)
	}
	return shard.Write(context.Background(), s.Store, b.Input)
}

// End writes _SUCCESS for batches 0..batches-1 (all committed).
func (s *Stream) End(t testing.TB, batches int) {
	t.Helper()
	if _, err := shard.WriteSuccess(context.Background(), s.Store, s.Job, batches); err != nil {
		t.Fatal(err)
	}
}
