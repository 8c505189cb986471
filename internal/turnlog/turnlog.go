// Package turnlog writes turn-log records to a blob store and reads an
// episode's accepted turns back.
//
// Activities write one record per attempt (PutRecord) or, for local
// policies that play a whole episode inside one activity, one bundle per
// attempt (PutBundle), and return the ref. The workflow keeps one ref per
// episode, its head: the last accepted act record, which links back through
// Gen and Prev to every earlier accepted record, or the accepted bundle.
// ReadEpisode follows that head and checks every link, so a record left by
// an abandoned attempt can never become a row.
//
// Errors from ReadEpisode are *Error values matching one of ErrMissing,
// ErrStale (schema.ErrStaleRecord), ErrBrokenChain or ErrCorrupt, so the
// shard writer can tell a bug in the turn log (never worth retrying) from a
// store outage (everything else, worth retrying).
package turnlog

import (
	"context"
	"errors"
	"fmt"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/schema"
)

// Turn is one accepted turn: the generate record and the act record that
// consumed it.
type Turn struct {
	Gen schema.TurnRecord
	Act schema.TurnRecord
}

// Reasons an episode cannot be read. Each *Error matches exactly one.
var (
	// ErrMissing: no object exists where an accepted ref points.
	ErrMissing = errors.New("turn log: accepted record is missing")
	// ErrStale: the object found carries another tag than the accepted
	// ref, the record of an abandoned attempt (an attempt-numbering bug).
	// It is schema.ErrStaleRecord.
	ErrStale = schema.ErrStaleRecord
	// ErrBrokenChain: the records do not link up into an episode: a head
	// that is not an act record, a missing or inconsistent Gen or Prev
	// link, turn numbers that skip, a record of another episode.
	ErrBrokenChain = errors.New("turn log: broken chain")
	// ErrCorrupt: the object is not a record or bundle this build can
	// decode.
	ErrCorrupt = errors.New("turn log: undecodable record")
)

// Error reports which ref could not be followed and why. Reason is one of
// the Err* values above; Err, when set, is the underlying error.
type Error struct {
	Ref    schema.TurnRef
	Reason error
	Msg    string
	Err    error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("turn log %s (tag %q): %s", e.Ref.Key, e.Ref.Tag, e.Msg)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap exposes the reason and the underlying error to errors.Is and As.
func (e *Error) Unwrap() []error {
	errs := []error{e.Reason}
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	return errs
}

func fail(ref schema.TurnRef, reason error, err error, format string, args ...any) *Error {
	return &Error{Ref: ref, Reason: reason, Msg: fmt.Sprintf(format, args...), Err: err}
}

// PutRecord writes rec under rec.Key() and returns its ref, the value the
// activity hands back to the workflow. The record is validated (links
// included) before anything is written.
func PutRecord(ctx context.Context, store blob.Store, rec *schema.TurnRecord) (schema.TurnRef, error) {
	data, err := schema.MarshalTurnRecord(rec)
	if err != nil {
		return schema.TurnRef{}, err
	}
	if err := blob.PutBytes(ctx, store, rec.Key(), data); err != nil {
		return schema.TurnRef{}, fmt.Errorf("write turn record: %w", err)
	}
	return rec.Ref(), nil
}

// PutBundle writes b under b.Key() and returns its ref.
func PutBundle(ctx context.Context, store blob.Store, b *schema.Bundle) (schema.TurnRef, error) {
	data, err := schema.MarshalBundle(b)
	if err != nil {
		return schema.TurnRef{}, err
	}
	if err := blob.PutBytes(ctx, store, b.Key(), data); err != nil {
		return schema.TurnRef{}, fmt.Errorf("write turn bundle: %w", err)
	}
	return b.Ref(), nil
}

// ReadRecord reads the record ref points at and checks that it is the
// accepted one (schema.TurnRecord.Check).
func ReadRecord(ctx context.Context, store blob.Store, ref schema.TurnRef) (schema.TurnRecord, error) {
	data, err := read(ctx, store, ref)
	if err != nil {
		return schema.TurnRecord{}, err
	}
	rec, err := schema.UnmarshalTurnRecord(data)
	if err != nil {
		return schema.TurnRecord{}, fail(ref, ErrCorrupt, err, "decode")
	}
	if err := rec.Check(ref); err != nil {
		return schema.TurnRecord{}, fail(ref, ErrStale, err, "not the accepted record")
	}
	return rec, nil
}

// GenOf returns the generate record an act record consumed: inline
// (schema.TurnRecord.GenInline) or read from the object its Gen names, and
// checked against that ref either way.
func GenOf(ctx context.Context, store blob.Store, act schema.TurnRecord) (schema.TurnRecord, error) {
	if act.Gen == nil {
		return schema.TurnRecord{}, fmt.Errorf("%w: act record of turn %d has no gen link", ErrBrokenChain, act.Turn)
	}
	if act.GenInline == nil {
		return ReadRecord(ctx, store, *act.Gen)
	}
	gen, err := schema.UnmarshalTurnRecord(act.GenInline)
	if err != nil {
		return schema.TurnRecord{}, fail(*act.Gen, ErrCorrupt, err, "decode inline generate record")
	}
	if err := gen.Check(*act.Gen); err != nil {
		return schema.TurnRecord{}, fail(*act.Gen, ErrStale, err, "inline generate record")
	}
	return gen, nil
}

// ReadBundle reads the bundle ref points at and checks that it is the
// accepted one.
func ReadBundle(ctx context.Context, store blob.Store, ref schema.TurnRef) (schema.Bundle, error) {
	data, err := read(ctx, store, ref)
	if err != nil {
		return schema.Bundle{}, err
	}
	b, err := schema.UnmarshalBundle(data)
	if err != nil {
		return schema.Bundle{}, fail(ref, ErrCorrupt, err, "decode bundle")
	}
	if err := b.Check(ref); err != nil {
		return schema.Bundle{}, fail(ref, ErrStale, err, "not the accepted bundle")
	}
	return b, nil
}

func read(ctx context.Context, store blob.Store, ref schema.TurnRef) ([]byte, error) {
	data, err := blob.ReadAll(ctx, store, ref.Key)
	if errors.Is(err, blob.ErrNotExist) {
		return nil, fail(ref, ErrMissing, err, "no such object")
	}
	if err != nil {
		return nil, fmt.Errorf("read turn log %s: %w", ref.Key, err)
	}
	return data, nil
}

// ReadEpisode returns the accepted turns of the episode whose head is given,
// in turn order. The head is either the ref of the episode's last accepted
// act record or the ref of an accepted bundle (schema.BundleKey).
//
// From an act record, ReadEpisode follows Gen to the turn's generate record
// and Prev to the previous turn's act record, down to turn 0, checking every
// record's tag against the ref that named it, that the turns are
// contiguous, and that each act record consumed the generate record its Gen
// names (ActionTag). It reads 2·turns objects, one after another (one a
// turn where the generate record is inline).
func ReadEpisode(ctx context.Context, store blob.Store, head schema.TurnRef) ([]Turn, error) {
	if _, _, _, _, err := schema.ParseBundleKey(head.Key); err == nil {
		return readBundle(ctx, store, head)
	}
	job, batch, episode, turn, _, phase, err := schema.ParseTurnKey(head.Key)
	if err != nil {
		return nil, fail(head, ErrBrokenChain, err, "head is neither a turn-log key nor a bundle key")
	}
	if phase != schema.PhaseAct {
		return nil, fail(head, ErrBrokenChain, nil, "head is a generate record: the head of an episode is its last act record")
	}
	turns := make([]Turn, turn+1)
	ref := head
	for t := turn; t >= 0; t-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		act, err := ReadRecord(ctx, store, ref)
		if err != nil {
			return nil, err
		}
		// Check (inside ReadRecord) compared the record's key, built from
		// its own ids, with the ref's; the ids are therefore the ref's.
		if act.Phase != schema.PhaseAct || act.Job != job || act.Batch != batch || act.Episode != episode || act.Turn != t {
			return nil, fail(ref, ErrBrokenChain, nil, "want the act record of %s turn %d", schema.EpisodeID(job, batch, episode), t)
		}
		if act.Gen == nil {
			return nil, fail(ref, ErrBrokenChain, nil, "act record of turn %d has no gen link", t)
		}
		gen, err := GenOf(ctx, store, act)
		if err != nil {
			return nil, err
		}
		if gen.Phase != schema.PhaseGenerate || gen.Turn != t || gen.Tag != act.ActionTag {
			return nil, fail(*act.Gen, ErrBrokenChain, nil, "act record %s consumed %q, found the %s record of turn %d tagged %q",
				ref.Key, act.ActionTag, gen.Phase, gen.Turn, gen.Tag)
		}
		turns[t] = Turn{Gen: gen, Act: act}
		switch {
		case t == 0 && act.Prev != nil:
			return nil, fail(ref, ErrBrokenChain, nil, "turn 0 links to a previous turn")
		case t > 0 && act.Prev == nil:
			return nil, fail(ref, ErrBrokenChain, nil, "act record of turn %d has no prev link", t)
		case t > 0:
			ref = *act.Prev
		}
	}
	return turns, nil
}

func readBundle(ctx context.Context, store blob.Store, head schema.TurnRef) ([]Turn, error) {
	b, err := ReadBundle(ctx, store, head)
	if err != nil {
		return nil, err
	}
	// UnmarshalBundle checked the order, the ids and the ActionTags.
	turns := make([]Turn, len(b.Records)/2)
	for i := range turns {
		turns[i] = Turn{Gen: b.Records[2*i], Act: b.Records[2*i+1]}
	}
	return turns, nil
}
