package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// TurnRecordVersion is the version of the TurnRecord JSON encoding this
// build writes. Version 2 carries the token arrays as base64 of
// little-endian int32 and float32 (prompt_token_ids_i32le,
// response_token_ids_i32le, response_logprobs_f32le) instead of JSON
// number arrays, which cost most of a shard commit's CPU to decode.
// UnmarshalTurnRecord also reads version 1 (JSON arrays), so a worker
// upgraded mid-job reads the records written before.
const TurnRecordVersion = 2

// turnRecordV1 is the version that wrote token arrays as JSON numbers.
const turnRecordV1 = 1

// Phase says which activity wrote a turn record.
type Phase string

const (
	// PhaseGenerate: the policy produced the action (Generate activity).
	PhaseGenerate Phase = "generate"
	// PhaseAct: the env stepped or a tool ran on that action (Act activity).
	PhaseAct Phase = "act"
)

// TurnRecord is one attempt's record in the turn log, the durable home of
// everything a turn produced. The activity writes it to the blob store under
// its Key before returning, then returns only its Ref (and the small results
// the workflow branches on: the action, reward, flags).
//
// Only the accepted attempt's ref counts. A Temporal activity may write its
// record and then time out, and a retry writes another record under a new
// attempt number; the workflow keeps the Ref of the attempt whose result it
// accepted, and the shard writer reads exactly those refs (checking the tag
// with Check), so a record left by an abandoned attempt is never a row.
//
// A turn has one accepted generate record and one accepted act record; the
// act record names the generate record it acted on (ActionTag, and Gen with
// its key) and the previous turn's accepted act record (Prev), so accepted
// records form a chain and the workflow keeps only the head: the ref of the
// episode's last accepted act record. Fields of the other phase are left
// zero. Attempt numbers must not repeat for one (turn, phase): use the
// activity's attempt number offset by the attempts of earlier schedules of
// the same turn.
//
// Local policies (random, oracle) play a whole episode inside one activity
// and write it as one Bundle instead; records inside a bundle are linked by
// their order and carry no Gen or Prev.
type TurnRecord struct {
	Version int    `json:"v"`
	Phase   Phase  `json:"phase"`
	Tag     string `json:"tag"` // unique per attempt: e.g. "<run id>/<activity id>/<attempt>"
	Job     string `json:"job"`
	Batch   int    `json:"batch"`
	Episode int    `json:"episode"`
	Turn    int    `json:"turn"`
	Attempt int    `json:"attempt"`

	// Generate phase.
	Segment        int     `json:"segment"`
	PromptDelta    string  `json:"prompt_delta"` // JSON array of chat messages
	PromptLen      int     `json:"prompt_len"`
	Action         string  `json:"action"`
	PolicyModel    string  `json:"policy_model"`
	PolicyVersion  *string `json:"policy_version"`
	SamplingParams string  `json:"sampling_params"` // JSON object
	TokenSource    string  `json:"token_source"`
	// The token arrays are encoded by recordWire (binary in version 2).
	PromptTokenIDs   []int32   `json:"-"` // the segment's new prompt tokens, as served
	ResponseTokenIDs []int32   `json:"-"`
	ResponseLogprobs []float32 `json:"-"`
	ResponseLen      int       `json:"response_len"`
	FinishReason     string    `json:"finish_reason"`
	ResponseID       string    `json:"response_id,omitempty"` // the endpoint's id of the response
	GenerationMs     float64   `json:"generation_ms"`
	// FailedAttempts counts the failed tries before this accepted one (the
	// failed_attempts column) and LastFault is the last one's class; nil
	// when not tracked (records written before these fields).
	FailedAttempts *int    `json:"failed_attempts,omitempty"`
	LastFault      *string `json:"last_fault,omitempty"`

	// Act phase.
	ActionTag   string   `json:"action_tag"` // Tag of the generate record this act consumed
	Gen         *TurnRef `json:"gen"`        // the accepted generate record this act consumed (Gen.Tag == ActionTag); nil in a bundle
	Prev        *TurnRef `json:"prev"`       // the previous turn's accepted act record; nil on turn 0 and in a bundle
	EnvVersion  string   `json:"env_version"`
	Observation string   `json:"observation"`
	ToolName    *string  `json:"tool_name"`
	ToolCall    *string  `json:"tool_call"`
	ToolResult  *string  `json:"tool_result"`
	Reward      float64  `json:"reward"`
	Terminated  bool     `json:"terminated"`
	Truncated   bool     `json:"truncated"`
	Success     bool     `json:"success"` // the env reported the task solved (meaningful when the episode ends)
	EnvMs       float64  `json:"env_ms"`
	Info        *string  `json:"info"` // JSON object: the env's step info
	// GenInline, when set, is the generate record Gen names, encoded
	// (MarshalTurnRecord) inside this act record instead of in an object of
	// its own: PlayTurns writes one object per turn that calls no tool.
	GenInline json.RawMessage `json:"gen_inline,omitempty"`
	// AgentID and AgentRole name the acting agent of a multi-agent env's
	// turn (the agent_id and agent_role columns); nil for single-agent envs.
	AgentID   *string `json:"agent_id,omitempty"`
	AgentRole *string `json:"agent_role,omitempty"`

	// Both phases.
	ErrorClass *string `json:"error_class"` // a non-fatal problem the turn recorded; nil when none
}

// TurnRef is what the workflow keeps of an accepted attempt: where its record
// is and the tag that must be found there. Only accepted refs are read when a
// shard is written; a record no accepted ref names is never a row.
type TurnRef struct {
	Key string `json:"key"`
	Tag string `json:"tag"`
}

// Key is where the record lives: TurnKey for a generate record, ActKey for
// an act record.
func (r *TurnRecord) Key() string {
	if r.Phase == PhaseAct {
		return ActKey(r.Job, r.Batch, r.Episode, r.Turn, r.Attempt)
	}
	return TurnKey(r.Job, r.Batch, r.Episode, r.Turn, r.Attempt)
}

// Ref is the reference the activity returns to the workflow.
func (r *TurnRecord) Ref() TurnRef { return TurnRef{Key: r.Key(), Tag: r.Tag} }

// ErrStaleRecord means the record read under an accepted ref is not the
// accepted attempt's (its tag differs): a bug in attempt numbering, never
// something to write into a shard.
var ErrStaleRecord = errors.New("turn record is not the accepted attempt")

// Check verifies that r is the record ref accepted.
func (r *TurnRecord) Check(ref TurnRef) error {
	if k := r.Key(); k != ref.Key || r.Tag != ref.Tag {
		return fmt.Errorf("%w: ref %s (tag %q), record %s (tag %q)", ErrStaleRecord, ref.Key, ref.Tag, k, r.Tag)
	}
	return nil
}

// MarshalTurnRecord encodes r as one line of JSON with a fixed key order
// and every key present (null for absent optional values) but the fault
// fields, which are left out when nil, so the encoding of a record never
// depends on the encoder's state. Token arrays are written in the binary
// form of TurnRecordVersion (see recordWire); a nil array is null and an
// empty one "", so the two stay apart. NaN and infinite numbers, logprobs
// included, are errors.
func MarshalTurnRecord(r *TurnRecord) ([]byte, error) {
	if r.Version == 0 {
		c := *r
		c.Version = TurnRecordVersion
		r = &c
	}
	if r.Version != TurnRecordVersion {
		return nil, fmt.Errorf("encode turn record %s: version %d, this build writes %d", r.Key(), r.Version, TurnRecordVersion)
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	w := recordWire{
		turnRecordFields:   turnRecordFields(*r),
		PromptTokenIDsLE:   int32sLE(r.PromptTokenIDs),
		ResponseTokenIDsLE: int32sLE(r.ResponseTokenIDs),
		ResponseLogprobsLE: float32sLE(r.ResponseLogprobs),
	}
	b, err := marshalLine(&w)
	if err != nil {
		return nil, fmt.Errorf("encode turn record %s: %w", r.Key(), err)
	}
	return b, nil
}

// marshalLine encodes v as one line of JSON ending in a newline, leaving <,
// > and & unescaped (actions are full of <think> and <tool_call>).
func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalTurnRecord decodes a record strictly: unknown keys, token
// arrays in the other version's form and versions other than 1 and 2 are
// errors.
func UnmarshalTurnRecord(data []byte) (TurnRecord, error) {
	var w recordWire
	if err := strictJSON(data, &w); err != nil {
		return TurnRecord{}, fmt.Errorf("decode turn record: %w", err)
	}
	r, err := w.record()
	if err != nil {
		return TurnRecord{}, fmt.Errorf("decode turn record: %w", err)
	}
	if err := r.validate(); err != nil {
		return TurnRecord{}, err
	}
	return r, nil
}

func (r *TurnRecord) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("turn record %s/b%d/e%d/t%d-a%d: %s", r.Job, r.Batch, r.Episode, r.Turn, r.Attempt, fmt.Sprintf(format, args...))
	}
	switch {
	case r.Phase != PhaseGenerate && r.Phase != PhaseAct:
		return bad("phase %q: want %s or %s", r.Phase, PhaseGenerate, PhaseAct)
	case r.Tag == "":
		return bad("empty tag")
	case r.Job == "":
		return bad("empty job")
	case r.Batch < 0 || r.Episode < 0 || r.Turn < 0 || r.Attempt < 1:
		return bad("negative index or attempt < 1")
	case r.Phase == PhaseAct && r.ActionTag == "":
		return bad("act record without action_tag")
	case r.Phase == PhaseGenerate && r.TokenSource != TokenSourceServed && r.TokenSource != TokenSourceNone:
		return bad("token_source %q: want %s or %s", r.TokenSource, TokenSourceServed, TokenSourceNone)
	case r.Phase == PhaseGenerate && (r.Gen != nil || r.Prev != nil):
		return bad("generate record with gen or prev (act fields)")
	case r.FailedAttempts != nil && *r.FailedAttempts < 0:
		return bad("negative failed_attempts")
	case r.GenInline != nil && (r.Phase != PhaseAct || r.Gen == nil):
		return bad("gen_inline without gen on an act record")
	}
	for i, lp := range r.ResponseLogprobs {
		if math.IsNaN(float64(lp)) || math.IsInf(float64(lp), 0) {
			return bad("response_logprobs[%d] is %v: want a finite number", i, lp)
		}
	}
	return r.validateLinks(bad)
}

// validateLinks checks an act record's chain links against its own ids: Gen
// must name a generate record of the same turn with the tag ActionTag names,
// and Prev the act record of the turn before. Linked records (Gen set) on a
// turn after the first must have Prev, so a chain cannot end early.
func (r *TurnRecord) validateLinks(bad func(string, ...any) error) error {
	if r.Phase != PhaseAct {
		return nil
	}
	if r.Gen == nil {
		if r.Prev != nil {
			return bad("prev without gen: a linked act record names both")
		}
		return nil
	}
	if r.Gen.Tag != r.ActionTag {
		return bad("gen tag %q differs from action_tag %q", r.Gen.Tag, r.ActionTag)
	}
	job, b, e, t, _, p, err := ParseTurnKey(r.Gen.Key)
	if err != nil || p != PhaseGenerate || job != r.Job || b != r.Batch || e != r.Episode || t != r.Turn {
		return bad("gen %q is not a generate record of this turn", r.Gen.Key)
	}
	switch {
	case r.Turn == 0 && r.Prev != nil:
		return bad("prev set on turn 0")
	case r.Turn > 0 && r.Prev == nil:
		return bad("linked act record of turn %d without prev", r.Turn)
	case r.Turn > 0:
		job, b, e, t, _, p, err := ParseTurnKey(r.Prev.Key)
		if err != nil || p != PhaseAct || job != r.Job || b != r.Batch || e != r.Episode || t != r.Turn-1 || r.Prev.Tag == "" {
			return bad("prev %q (tag %q) is not an act record of turn %d of this episode", r.Prev.Key, r.Prev.Tag, r.Turn-1)
		}
	}
	return nil
}

// lenientJSON decodes one JSON value, allowing unknown fields.
func lenientJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}
