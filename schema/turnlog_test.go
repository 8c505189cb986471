package schema

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

func sampleRecords() (gen, act TurnRecord) {
	gen = TurnRecord{
		Phase: PhaseGenerate, Tag: "run-1/act-7/1", Job: "job-test", Batch: 42, Episode: 7, Turn: 3, Attempt: 1,
		Segment: 0, PromptDelta: `[{"role":"user","content":"Too low — try again."}]`, PromptLen: 812,
		Action: `<think>7 & up</think>\boxed{7}`, PolicyModel: "Qwen/Qwen3-0.6B", PolicyVersion: ptr("step-12"),
		SamplingParams: `{"max_tokens":512,"temperature":1}`, TokenSource: TokenSourceServed,
		PromptTokenIDs: []int32{198, 151644, 872}, ResponseTokenIDs: []int32{59, 79075, 90, 22, 92, 151645},
		ResponseLogprobs: []float32{-0.25, -1.5e-05, 0, -3.1415927, -0.001, -0.5},
		ResponseLen:      6, FinishReason: "stop", GenerationMs: 842.5,
	}
	act = TurnRecord{
		Phase: PhaseAct, Tag: "run-1/act-8/2", Job: "job-test", Batch: 42, Episode: 7, Turn: 3, Attempt: 2,
		ActionTag: gen.Tag, EnvVersion: "v0.3", Observation: "Correct!", Reward: 1, Terminated: true, Success: true,
		EnvMs: 0.25, Info: ptr(`{"correct":true}`),
	}
	return gen, act
}

// encodingRecords are the records the encoding goldens hold, one per line.
func encodingRecords() []TurnRecord {
	gen, act := sampleRecords()
	tool := act
	tool.Observation, tool.Reward, tool.Terminated, tool.Success = "2\n", 0.05, false, false
	tool.ToolName, tool.ToolCall, tool.ToolResult, tool.ErrorClass = ptr("python"), ptr(`{"code":"print(1+1)"}`), ptr("2\n"), ptr("tool_timeout")
	none := gen
	none.TokenSource, none.PromptTokenIDs, none.ResponseTokenIDs, none.ResponseLogprobs, none.PolicyModel = TokenSourceNone, nil, nil, nil, "random"
	empty := gen
	empty.ResponseTokenIDs, empty.ResponseLogprobs = []int32{}, []float32{}
	linked := linkedAct(gen, act)
	return []TurnRecord{gen, act, tool, none, empty, linked}
}

// TestTurnRecordEncoding pins the JSON encoding (golden) and checks that it
// round-trips exactly, including null versus empty token lists.
func TestTurnRecordEncoding(t *testing.T) {
	var all []byte
	for _, r := range encodingRecords() {
		b, err := MarshalTurnRecord(&r)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), "\n") != 1 || !strings.HasSuffix(string(b), "\n") {
			t.Fatalf("not one line: %s", b)
		}
		if r.Action != "" && !strings.Contains(string(b), "<think>7 & up</think>") {
			t.Fatalf("the action is escaped in %s", b)
		}
		again, _ := MarshalTurnRecord(&r)
		if string(again) != string(b) {
			t.Fatal("encoding the same record twice differs")
		}
		got, err := UnmarshalTurnRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		r.Version = TurnRecordVersion
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, r)
		}
		all = append(all, b...)
	}
	if strings.Contains(string(all), `"prompt_token_ids"`) || !strings.Contains(string(all), `"response_logprobs_f32le":"`) {
		t.Errorf("token arrays are not in the binary form:\n%s", all)
	}
	golden(t, "turnrecords-v2.jsonl", all)
}

// TestTurnRecordReadsVersion1: records written by builds before the binary
// token arrays (testdata/turnrecords-v1.jsonl, written by such a build from
// the same records) decode to exactly the same records, null and empty
// arrays apart, and encode again in the current version.
func TestTurnRecordReadsVersion1(t *testing.T) {
	data, err := os.ReadFile("testdata/turnrecords-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	want := encodingRecords()
	if len(lines) != len(want) {
		t.Fatalf("%d version 1 lines, want %d", len(lines), len(want))
	}
	for i, line := range lines {
		if !strings.Contains(line, `"v":1,`) {
			t.Fatalf("line %d is not a version 1 record: %s", i+1, line)
		}
		got, err := UnmarshalTurnRecord([]byte(line))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		w := want[i]
		w.Version = 1
		if !reflect.DeepEqual(got, w) {
			t.Fatalf("line %d:\n got %+v\nwant %+v", i+1, got, w)
		}
		got.Version = 0
		again, err := MarshalTurnRecord(&got)
		if err != nil {
			t.Fatal(err)
		}
		v2, err := UnmarshalTurnRecord(again)
		w.Version = TurnRecordVersion
		if err != nil || !reflect.DeepEqual(v2, w) {
			t.Fatalf("line %d re-encoded: %v\n got %+v\nwant %+v", i+1, err, v2, w)
		}
	}
	got := v1Record(t, `"prompt_token_ids":[198,151644,872]`)
	if got.PromptTokenIDs[1] != 151644 {
		t.Fatalf("hand-written version 1 record: %+v", got.PromptTokenIDs)
	}
}

// v1Record decodes the first record of the version 1 golden with its
// prompt_token_ids key replaced by field.
func v1Record(t *testing.T, field string) TurnRecord {
	t.Helper()
	data, err := os.ReadFile("testdata/turnrecords-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	line = strings.Replace(line, `"prompt_token_ids":[198,151644,872]`, field, 1)
	got, err := UnmarshalTurnRecord([]byte(line))
	if err != nil {
		t.Fatalf("%s: %v", field, err)
	}
	return got
}

// TestTurnRecordTokenArrays: the binary arrays keep every int32 and every
// float32 bit pattern that JSON could carry (extremes, negative zero,
// subnormals), and NaN or infinite logprobs are refused as before.
func TestTurnRecordTokenArrays(t *testing.T) {
	gen, _ := sampleRecords()
	gen.PromptTokenIDs = []int32{0, -1, math.MaxInt32, math.MinInt32, 1 << 24}
	gen.ResponseTokenIDs = []int32{7}
	gen.ResponseLogprobs = []float32{float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -math.MaxFloat32, -1e-30}
	b, err := MarshalTurnRecord(&gen)
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalTurnRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.PromptTokenIDs, gen.PromptTokenIDs) || !reflect.DeepEqual(got.ResponseTokenIDs, gen.ResponseTokenIDs) {
		t.Errorf("ids: got %v %v", got.PromptTokenIDs, got.ResponseTokenIDs)
	}
	for i, lp := range gen.ResponseLogprobs {
		if math.Float32bits(got.ResponseLogprobs[i]) != math.Float32bits(lp) {
			t.Errorf("logprob %d: got %v (bits %x), want %v", i, got.ResponseLogprobs[i], math.Float32bits(got.ResponseLogprobs[i]), lp)
		}
	}
	for _, lp := range []float32{float32(math.NaN()), float32(math.Inf(-1))} {
		bad := gen
		bad.ResponseLogprobs = []float32{-0.5, lp}
		if _, err := MarshalTurnRecord(&bad); err == nil || !strings.Contains(err.Error(), "response_logprobs[1]") {
			t.Errorf("logprob %v: MarshalTurnRecord error %v, want one naming response_logprobs[1]", lp, err)
		}
	}
}

func TestTurnRecordRejects(t *testing.T) {
	gen, act := sampleRecords()
	bad := map[string]TurnRecord{}
	r := gen
	r.Phase = "think"
	bad["phase"] = r
	r = gen
	r.Tag = ""
	bad["tag"] = r
	r = gen
	r.Attempt = 0
	bad["attempt 0"] = r
	r = gen
	r.TokenSource = "x"
	bad["token source"] = r
	r = act
	r.ActionTag = ""
	bad["act without action tag"] = r
	r = act
	r.Reward = math.NaN()
	bad["NaN reward"] = r
	for name, r := range bad {
		if _, err := MarshalTurnRecord(&r); err == nil {
			t.Errorf("%s: MarshalTurnRecord accepted it", name)
		}
	}
	b, _ := MarshalTurnRecord(&gen)
	for name, data := range map[string]string{
		"unknown key":             strings.Replace(string(b), `"v":2,`, `"v":2,"colour":"red",`, 1),
		"other version":           strings.Replace(string(b), `"v":2,`, `"v":3,`, 1),
		"v2 with JSON arrays":     strings.Replace(string(b), `"v":2,`, `"v":2,"prompt_token_ids":[1,2],`, 1),
		"v1 with binary arrays":   strings.Replace(string(b), `"v":2,`, `"v":1,`, 1),
		"ids not a multiple of 4": strings.Replace(string(b), `"prompt_token_ids_i32le":"xgAAAFxQAgBoAwAA"`, `"prompt_token_ids_i32le":"xgAAAFxQAgBoAw=="`, 1),
		"logprob NaN":             strings.Replace(string(b), `"response_logprobs_f32le":"`, `"response_logprobs_f32le":"AADAfw`, 1),
		"trailing":                string(b) + "{}",
		"not JSON":                "hello",
	} {
		if _, err := UnmarshalTurnRecord([]byte(data)); err == nil {
			t.Errorf("%s: UnmarshalTurnRecord accepted it", name)
		}
	}
}

// TestAcceptedRef: the workflow keeps the ref of the attempt it accepted; a
// record under that key with another tag (an abandoned attempt's) is refused.
func TestAcceptedRef(t *testing.T) {
	gen, act := sampleRecords()
	if got := gen.Ref(); got != (TurnRef{Key: "job-test/_turns/b00042/e0007/t0003-a1", Tag: "run-1/act-7/1"}) {
		t.Errorf("generate ref %+v", got)
	}
	if got := act.Key(); got != "job-test/_turns/b00042/e0007/t0003-a2.act" {
		t.Errorf("act key %q", got)
	}
	ref := gen.Ref()
	if err := gen.Check(ref); err != nil {
		t.Errorf("accepted record refused: %v", err)
	}
	zombie := gen
	zombie.Tag = "run-1/act-7/1-late"
	if err := zombie.Check(ref); !errors.Is(err, ErrStaleRecord) {
		t.Errorf("a record with another tag: %v, want ErrStaleRecord", err)
	}
	other := gen
	other.Attempt = 2
	if err := other.Check(ref); !errors.Is(err, ErrStaleRecord) {
		t.Errorf("another attempt's record: %v, want ErrStaleRecord", err)
	}
}

func TestKeys(t *testing.T) {
	if got := TurnKey("job", 42, 7, 3, 1); got != "job/_turns/b00042/e0007/t0003-a1" {
		t.Errorf("TurnKey = %q", got)
	}
	if got := TurnPrefix("job", 42, 7); !strings.HasPrefix(TurnKey("job", 42, 7, 0, 1), got) || got != "job/_turns/b00042/e0007/" {
		t.Errorf("TurnPrefix = %q", got)
	}
	want := Shard{
		Turns:    "job/shards/part-00042.turns.parquet",
		Episodes: "job/shards/part-00042.episodes.parquet",
		Failures: "job/_failures/part-00042.jsonl",
		Manifest: "job/_manifest/part-00042.json",
	}
	if got := ShardKeys("job", 42); got != want {
		t.Errorf("ShardKeys = %+v", got)
	}
	if SuccessKey("job") != "job/_SUCCESS" || ManifestPrefix("job") != "job/_manifest/" {
		t.Error("SuccessKey or ManifestPrefix")
	}
	if RelKey("job", want.Turns) != "shards/part-00042.turns.parquet" {
		t.Errorf("RelKey = %q", RelKey("job", want.Turns))
	}
	for _, c := range []struct {
		batch, episode, turn, attempt int
		phase                         Phase
	}{{0, 0, 0, 1, PhaseGenerate}, {42, 7, 3, 2, PhaseAct}, {123456, 4095, 10000, 17, PhaseGenerate}} {
		key := TurnKey("my-job.v2", c.batch, c.episode, c.turn, c.attempt)
		if c.phase == PhaseAct {
			key = ActKey("my-job.v2", c.batch, c.episode, c.turn, c.attempt)
		}
		job, b, e, tu, a, p, err := ParseTurnKey(key)
		if err != nil || job != "my-job.v2" || b != c.batch || e != c.episode || tu != c.turn || a != c.attempt || p != c.phase {
			t.Errorf("ParseTurnKey(%q) = %s %d %d %d %d %s %v", key, job, b, e, tu, a, p, err)
		}
	}
	for _, k := range []string{"job/_turns/b1/e1/t1", "job/_turns/b1/e1/t1-a1.step", "job/shards/x", "_turns/b1/e1/t1-a1"} {
		if _, _, _, _, _, _, err := ParseTurnKey(k); err == nil {
			t.Errorf("ParseTurnKey(%q) accepted it", k)
		}
	}
	if b, err := ParseManifestKey(want.Manifest); err != nil || b != 42 {
		t.Errorf("ParseManifestKey = %d, %v", b, err)
	}
	if _, err := ParseManifestKey("job/_manifest/part-00042.json.tmp"); err == nil {
		t.Error("ParseManifestKey accepted a temporary name")
	}
	// Zero padding keeps listings in id order.
	if !(ShardKeys("j", 9).Manifest < ShardKeys("j", 10).Manifest) || !(TurnKey("j", 0, 9, 0, 1) < TurnKey("j", 0, 10, 0, 1)) {
		t.Error("keys do not sort in id order")
	}
}
