package schema

import (
	"encoding/binary"
	"fmt"
	"math"
)

// turnRecordFields is TurnRecord without its methods, so recordWire can
// embed it and let encoding/json encode its fields in order.
type turnRecordFields TurnRecord

// recordWire is the JSON form of a TurnRecord. Every field but the token
// arrays comes from the embedded TurnRecord; the arrays are written
// (version 2) as base64 of their little-endian int32 or float32 values
// under their own keys, a fifth of the bytes to scan and no number to
// parse, and read in either form: version 1 records carry them as JSON
// number arrays under the old keys. A nil array is null and an empty one
// "" (version 1: null and []).
type recordWire struct {
	turnRecordFields

	// Version 1: JSON arrays. Never written by this build.
	PromptTokenIDs   []int32   `json:"prompt_token_ids,omitempty"`
	ResponseTokenIDs []int32   `json:"response_token_ids,omitempty"`
	ResponseLogprobs []float32 `json:"response_logprobs,omitempty"`

	// Version 2: base64 of little-endian int32 (ids) and float32 (logprobs).
	PromptTokenIDsLE   []byte `json:"prompt_token_ids_i32le"`
	ResponseTokenIDsLE []byte `json:"response_token_ids_i32le"`
	ResponseLogprobsLE []byte `json:"response_logprobs_f32le"`
}

// record returns the decoded record, refusing the token arrays of one
// version in a record of the other.
func (w *recordWire) record() (TurnRecord, error) {
	r := TurnRecord(w.turnRecordFields)
	switch r.Version {
	case turnRecordV1:
		if w.PromptTokenIDsLE != nil || w.ResponseTokenIDsLE != nil || w.ResponseLogprobsLE != nil {
			return TurnRecord{}, fmt.Errorf("version %d record with binary token arrays (*_i32le, *_f32le: version %d keys)", r.Version, TurnRecordVersion)
		}
		r.PromptTokenIDs, r.ResponseTokenIDs, r.ResponseLogprobs = w.PromptTokenIDs, w.ResponseTokenIDs, w.ResponseLogprobs
		return r, nil
	case TurnRecordVersion:
		if w.PromptTokenIDs != nil || w.ResponseTokenIDs != nil || w.ResponseLogprobs != nil {
			return TurnRecord{}, fmt.Errorf("version %d record with JSON token arrays (prompt_token_ids, response_token_ids, response_logprobs: version %d keys)", r.Version, turnRecordV1)
		}
		var err error
		if r.PromptTokenIDs, err = int32sFromLE("prompt_token_ids_i32le", w.PromptTokenIDsLE); err != nil {
			return TurnRecord{}, err
		}
		if r.ResponseTokenIDs, err = int32sFromLE("response_token_ids_i32le", w.ResponseTokenIDsLE); err != nil {
			return TurnRecord{}, err
		}
		if r.ResponseLogprobs, err = float32sFromLE("response_logprobs_f32le", w.ResponseLogprobsLE); err != nil {
			return TurnRecord{}, err
		}
		return r, nil
	default:
		return TurnRecord{}, fmt.Errorf("version %d, this build reads %d and %d", r.Version, turnRecordV1, TurnRecordVersion)
	}
}

func int32sLE(v []int32) []byte {
	if v == nil {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

func float32sLE(v []float32) []byte {
	if v == nil {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func int32sFromLE(field string, b []byte) ([]int32, error) {
	if b == nil {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%s: %d bytes, want a multiple of 4 (little-endian int32)", field, len(b))
	}
	v := make([]int32, len(b)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}

func float32sFromLE(field string, b []byte) ([]float32, error) {
	if b == nil {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("%s: %d bytes, want a multiple of 4 (little-endian float32)", field, len(b))
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
