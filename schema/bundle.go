package schema

import (
	"bytes"
	"fmt"
)

// Bundle is one attempt of a whole episode played inside one activity by a
// local policy (random, oracle), stored as one object under BundleKey
// instead of two objects per turn: such a turn takes microseconds, and two
// blob writes per turn would dominate the job.
//
// The object is JSON Lines: the turns' records in order, each encoded as
// MarshalTurnRecord encodes a record on its own — the generate record of turn
// 0, its act record, the generate record of turn 1, and so on. Records are
// linked by that order: an act record names its generate record by
// ActionTag and carries no Gen or Prev. Every record has the bundle's job,
// batch, episode and attempt.
//
// As with single records, only the accepted attempt counts: the workflow
// keeps the bundle's Ref, whose tag is the last record's (the episode's
// head act record), and the shard writer checks it with Check.
type Bundle struct {
	Job     string
	Batch   int
	Episode int
	Attempt int
	Records []TurnRecord // generate, act, generate, act, … in turn order
}

// Key is where the bundle lives: BundleKey of its ids.
func (b *Bundle) Key() string { return BundleKey(b.Job, b.Batch, b.Episode, b.Attempt) }

// Ref is the reference the activity returns to the workflow: the bundle's
// key and the tag of its last record. An empty bundle has no tag.
func (b *Bundle) Ref() TurnRef {
	ref := TurnRef{Key: b.Key()}
	if n := len(b.Records); n > 0 {
		ref.Tag = b.Records[n-1].Tag
	}
	return ref
}

// Check verifies that b is the bundle ref accepted.
func (b *Bundle) Check(ref TurnRef) error {
	if got := b.Ref(); got != ref {
		return fmt.Errorf("%w: ref %s (tag %q), bundle %s (tag %q)", ErrStaleRecord, ref.Key, ref.Tag, got.Key, got.Tag)
	}
	return nil
}

// MarshalBundle encodes b as JSON Lines, one MarshalTurnRecord line per
// record, after checking that the records are a well-formed episode (see
// Bundle).
func MarshalBundle(b *Bundle) ([]byte, error) {
	if err := b.validate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	for i := range b.Records {
		line, err := MarshalTurnRecord(&b.Records[i])
		if err != nil {
			return nil, fmt.Errorf("encode bundle %s: %w", b.Key(), err)
		}
		buf.Write(line)
	}
	return buf.Bytes(), nil
}

// UnmarshalBundle decodes a bundle strictly: every line a valid record of
// this build's version, and the records a well-formed episode. The bundle's
// ids are the records'.
func UnmarshalBundle(data []byte) (Bundle, error) {
	var b Bundle
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	for i, line := range lines {
		r, err := UnmarshalTurnRecord(line)
		if err != nil {
			return Bundle{}, fmt.Errorf("decode bundle line %d: %w", i+1, err)
		}
		b.Records = append(b.Records, r)
	}
	if len(b.Records) > 0 {
		r := &b.Records[0]
		b.Job, b.Batch, b.Episode, b.Attempt = r.Job, r.Batch, r.Episode, r.Attempt
	}
	if err := b.validate(); err != nil {
		return Bundle{}, err
	}
	return b, nil
}

func (b *Bundle) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("bundle %s/b%d/e%d-a%d: %s", b.Job, b.Batch, b.Episode, b.Attempt, fmt.Sprintf(format, args...))
	}
	switch {
	case b.Job == "":
		return bad("empty job")
	case b.Batch < 0 || b.Episode < 0 || b.Attempt < 1:
		return bad("negative index or attempt < 1")
	case len(b.Records) == 0:
		return bad("no records: a bundle holds at least one turn")
	case len(b.Records)%2 != 0:
		return bad("%d records: want a generate and an act record per turn", len(b.Records))
	}
	for i := range b.Records {
		r := &b.Records[i]
		turn, phase := i/2, PhaseGenerate
		if i%2 == 1 {
			phase = PhaseAct
		}
		switch {
		case r.Job != b.Job || r.Batch != b.Batch || r.Episode != b.Episode || r.Attempt != b.Attempt:
			return bad("record %d belongs to %s/b%d/e%d attempt %d", i, r.Job, r.Batch, r.Episode, r.Attempt)
		case r.Turn != turn || r.Phase != phase:
			return bad("record %d is the %s record of turn %d, want the %s record of turn %d", i, r.Phase, r.Turn, phase, turn)
		case r.Gen != nil || r.Prev != nil:
			return bad("record %d has gen or prev: records in a bundle are linked by their order", i)
		case phase == PhaseAct && r.ActionTag != b.Records[i-1].Tag:
			return bad("act record of turn %d consumed %q, but the generate record before it is %q", turn, r.ActionTag, b.Records[i-1].Tag)
		}
		if err := r.validate(); err != nil {
			return err
		}
	}
	return nil
}
