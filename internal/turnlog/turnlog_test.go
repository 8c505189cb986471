package turnlog_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard/shardtest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

const job = "job-t"

func openStore(t *testing.T) blob.Store {
	t.Helper()
	s, err := blob.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func genRecord(episode, turn, attempt int) schema.TurnRecord {
	return schema.TurnRecord{
		Phase: schema.PhaseGenerate, Tag: fmt.Sprintf("run/e%d/t%d/gen/%d", episode, turn, attempt),
		Job: job, Batch: 3, Episode: episode, Turn: turn, Attempt: attempt,
		PromptDelta: fmt.Sprintf(`[{"role":"user","content":"turn %d"}]`, turn), PromptLen: 10 * (turn + 1),
		Action: fmt.Sprintf("action %d attempt %d", turn, attempt), PolicyModel: "m", SamplingParams: "{}",
		TokenSource: schema.TokenSourceServed, PromptTokenIDs: []int32{int32(turn)}, ResponseTokenIDs: []int32{7, int32(attempt)},
		ResponseLogprobs: []float32{-0.5, -0.25}, ResponseLen: 2, FinishReason: "stop",
	}
}

func actRecord(gen schema.TurnRecord, attempt int, prev *schema.TurnRef) schema.TurnRecord {
	ref := gen.Ref()
	return schema.TurnRecord{
		Phase: schema.PhaseAct, Tag: fmt.Sprintf("run/e%d/t%d/act/%d", gen.Episode, gen.Turn, attempt),
		Job: job, Batch: 3, Episode: gen.Episode, Turn: gen.Turn, Attempt: attempt,
		ActionTag: gen.Tag, Gen: &ref, Prev: prev, EnvVersion: "v1",
		Observation: fmt.Sprintf("obs %d", gen.Turn), Reward: float64(gen.Turn) / 2,
	}
}

// writeChain writes an episode of n turns as the activities would, with
// abandoned attempts beside the accepted ones: turn 1's generation was
// retried (attempt 1 wrote and timed out), and so was turn 2's act step.
// It returns the head ref and the accepted turns.
func writeChain(t *testing.T, s blob.Store, episode, n int) (schema.TurnRef, []turnlog.Turn) {
	t.Helper()
	ctx := context.Background()
	var prev *schema.TurnRef
	var want []turnlog.Turn
	for turn := range n {
		genAttempt := 1
		if turn == 1 {
			zombie := genRecord(episode, turn, 1)
			zombie.Action = "the abandoned attempt"
			if _, err := turnlog.PutRecord(ctx, s, &zombie); err != nil {
				t.Fatal(err)
			}
			genAttempt = 2
		}
		gen := genRecord(episode, turn, genAttempt)
		genRef, err := turnlog.PutRecord(ctx, s, &gen)
		if err != nil {
			t.Fatal(err)
		}
		if genRef != gen.Ref() {
			t.Fatalf("PutRecord returned %+v, want %+v", genRef, gen.Ref())
		}
		actAttempt := 1
		if turn == 2 {
			zombie := actRecord(gen, 1, prev)
			zombie.Reward = 99
			if _, err := turnlog.PutRecord(ctx, s, &zombie); err != nil {
				t.Fatal(err)
			}
			actAttempt = 2
		}
		act := actRecord(gen, actAttempt, prev)
		actRef, err := turnlog.PutRecord(ctx, s, &act)
		if err != nil {
			t.Fatal(err)
		}
		gen.Version, act.Version = schema.TurnRecordVersion, schema.TurnRecordVersion
		want = append(want, turnlog.Turn{Gen: gen, Act: act})
		prev = &actRef
	}
	return *prev, want
}

func TestReadChain(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	head, want := writeChain(t, s, 5, 4)
	got, err := turnlog.ReadEpisode(ctx, s, head)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadEpisode:\n got %+v\nwant %+v", got, want)
	}
	if got[1].Gen.Attempt != 2 || got[2].Act.Attempt != 2 || got[2].Act.Reward == 99 {
		t.Fatal("an abandoned attempt was read instead of the accepted one")
	}
	// A head in the middle reads the episode up to that turn.
	mid, err := turnlog.ReadEpisode(ctx, s, *want[2].Act.Prev)
	if err != nil || len(mid) != 2 || !reflect.DeepEqual(mid, want[:2]) {
		t.Fatalf("ReadEpisode from turn 1: %d turns, %v", len(mid), err)
	}
	one, _ := writeChain(t, s, 6, 1)
	if got, err := turnlog.ReadEpisode(ctx, s, one); err != nil || len(got) != 1 {
		t.Fatalf("one-turn episode: %d turns, %v", len(got), err)
	}
}

func TestReadBundle(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	b := schema.Bundle{Job: job, Batch: 3, Episode: 9, Attempt: 2}
	var want []turnlog.Turn
	for turn := range 3 {
		gen := genRecord(9, turn, 2)
		gen.TokenSource, gen.PromptTokenIDs, gen.ResponseTokenIDs, gen.ResponseLogprobs = schema.TokenSourceNone, nil, nil, nil
		act := actRecord(gen, 2, nil)
		act.Gen = nil
		b.Records = append(b.Records, gen, act)
		gen.Version, act.Version = schema.TurnRecordVersion, schema.TurnRecordVersion
		want = append(want, turnlog.Turn{Gen: gen, Act: act})
	}
	// The first attempt's bundle, abandoned, sits beside it.
	zombie := b
	zombie.Attempt = 1
	zombie.Records = nil
	for _, r := range b.Records {
		r.Attempt = 1
		r.Tag += "-zombie"
		if r.Phase == schema.PhaseAct {
			r.ActionTag += "-zombie"
		}
		zombie.Records = append(zombie.Records, r)
	}
	if _, err := turnlog.PutBundle(ctx, s, &zombie); err != nil {
		t.Fatal(err)
	}
	ref, err := turnlog.PutBundle(ctx, s, &b)
	if err != nil {
		t.Fatal(err)
	}
	if ref != b.Ref() || ref.Key != schema.BundleKey(job, 3, 9, 2) {
		t.Fatalf("PutBundle returned %+v", ref)
	}
	got, err := turnlog.ReadEpisode(ctx, s, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadEpisode of a bundle:\n got %+v\nwant %+v", got, want)
	}
	// The accepted ref with the abandoned attempt's tag is refused.
	if _, err := turnlog.ReadEpisode(ctx, s, schema.TurnRef{Key: ref.Key, Tag: zombie.Ref().Tag}); !errors.Is(err, turnlog.ErrStale) {
		t.Fatalf("bundle with another tag: %v, want ErrStale", err)
	}
	if _, err := turnlog.ReadEpisode(ctx, s, schema.TurnRef{Key: schema.BundleKey(job, 3, 9, 3), Tag: ref.Tag}); !errors.Is(err, turnlog.ErrMissing) {
		t.Fatalf("missing bundle: %v, want ErrMissing", err)
	}
}

// TestReadErrors: each way a turn log can be wrong gives its own reason, and
// the *Error names the ref that could not be followed.
func TestReadErrors(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	head, want := writeChain(t, s, 1, 3)

	check := func(name string, ref schema.TurnRef, reason error, badRef schema.TurnRef) {
		t.Helper()
		_, err := turnlog.ReadEpisode(ctx, s, ref)
		if !errors.Is(err, reason) {
			t.Errorf("%s: %v, want %v", name, err, reason)
			return
		}
		for _, other := range []error{turnlog.ErrMissing, turnlog.ErrStale, turnlog.ErrBrokenChain, turnlog.ErrCorrupt} {
			if other != reason && errors.Is(err, other) {
				t.Errorf("%s: %v also matches %v", name, err, other)
			}
		}
		var te *turnlog.Error
		if !errors.As(err, &te) || te.Ref != badRef {
			t.Errorf("%s: error names %+v, want %+v", name, te, badRef)
		}
	}

	// A head with the tag of an abandoned attempt.
	check("stale head", schema.TurnRef{Key: head.Key, Tag: "run/e1/t2/act/1"}, turnlog.ErrStale, schema.TurnRef{Key: head.Key, Tag: "run/e1/t2/act/1"})
	// A head that is a generate record, or not a key at all.
	genRef := want[2].Gen.Ref()
	check("generate head", genRef, turnlog.ErrBrokenChain, genRef)
	check("not a key", schema.TurnRef{Key: "job-t/shards/x", Tag: "t"}, turnlog.ErrBrokenChain, schema.TurnRef{Key: "job-t/shards/x", Tag: "t"})

	// An accepted generate record deleted.
	g1 := want[1].Gen.Ref()
	if err := s.Delete(ctx, g1.Key); err != nil {
		t.Fatal(err)
	}
	check("missing gen", head, turnlog.ErrMissing, g1)

	// The accepted generate record overwritten by another attempt's
	// content (an attempt-numbering bug).
	other := want[1].Gen
	other.Tag = "run/other"
	data, _ := schema.MarshalTurnRecord(&other)
	if err := blob.PutBytes(ctx, s, g1.Key, data); err != nil {
		t.Fatal(err)
	}
	check("overwritten gen", head, turnlog.ErrStale, g1)

	// Garbage where a record should be.
	if err := blob.PutBytes(ctx, s, g1.Key, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	check("garbage", head, turnlog.ErrCorrupt, g1)

	// An act record with no links (valid on its own, as in a bundle) as head.
	unlinked := want[0].Act
	unlinked.Gen, unlinked.Attempt, unlinked.Tag = nil, 7, "run/unlinked"
	ref, err := turnlog.PutRecord(ctx, s, &unlinked)
	if err != nil {
		t.Fatal(err)
	}
	check("unlinked head", ref, turnlog.ErrBrokenChain, ref)

	// A chain whose turn-1 act record is missing.
	head2, want2 := writeChain(t, s, 2, 3)
	a1 := *want2[2].Act.Prev
	if err := s.Delete(ctx, a1.Key); err != nil {
		t.Fatal(err)
	}
	check("missing prev", head2, turnlog.ErrMissing, a1)
}

func TestPutRejectsInvalid(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	gen := genRecord(1, 0, 1)
	gen.Tag = ""
	if _, err := turnlog.PutRecord(ctx, s, &gen); err == nil {
		t.Fatal("PutRecord accepted a record without a tag")
	}
	act := actRecord(genRecord(1, 1, 1), 1, nil) // turn 1 without prev
	if _, err := turnlog.PutRecord(ctx, s, &act); err == nil {
		t.Fatal("PutRecord accepted a linked act record without prev")
	}
	if _, err := turnlog.PutBundle(ctx, s, &schema.Bundle{Job: job, Attempt: 1}); err == nil {
		t.Fatal("PutBundle accepted an empty bundle")
	}
	if got, err := s.List(ctx, ""); err != nil || len(got) != 0 {
		t.Fatalf("invalid records were written: %v, %v", got, err)
	}
}

func TestReadCancelled(t *testing.T) {
	s := openStore(t)
	head, _ := writeChain(t, s, 1, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := turnlog.ReadEpisode(ctx, s, head); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadEpisode with a cancelled context: %v", err)
	}
}

// TestReadVersion1Records: a worker upgraded mid-episode resumes from
// records written before the binary token arrays: an episode whose first
// turns are version 1 records (token arrays as JSON numbers) reads back
// with the same turns.
func TestReadVersion1Records(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	head, want := writeChain(t, s, 5, 3)
	for turn := range 2 {
		for _, rec := range []*schema.TurnRecord{&want[turn].Gen, &want[turn].Act} {
			data, err := shardtest.MarshalVersion1(rec)
			if err != nil {
				t.Fatal(err)
			}
			if err := blob.PutBytes(ctx, s, rec.Key(), data); err != nil {
				t.Fatal(err)
			}
			rec.Version = 1
		}
	}
	got, err := turnlog.ReadEpisode(ctx, s, head)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadEpisode:\n got %+v\nwant %+v", got, want)
	}
	if got[0].Gen.Version != 1 || got[2].Gen.Version != schema.TurnRecordVersion || got[1].Gen.ResponseLogprobs[1] != -0.25 {
		t.Fatalf("versions %d and %d, logprobs %v", got[0].Gen.Version, got[2].Gen.Version, got[1].Gen.ResponseLogprobs)
	}
}
