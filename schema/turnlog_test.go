package schema

import (
	"errors"
	"math"
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

// TestTurnRecordEncoding pins the JSON encoding (golden) and checks that it
// round-trips exactly, including null versus empty token lists.
func TestTurnRecordEncoding(t *testing.T) {
	gen, act := sampleRecords()
	tool := act
	tool.Observation, tool.Reward, tool.Terminated, tool.Success = "2\n", 0.05, false, false
	tool.ToolName, tool.ToolCall, tool.ToolResult, tool.ErrorClass = ptr("python"), ptr(`{"code":"print(1+1)"}`), ptr("2\n"), ptr("tool_timeout")
	none := gen
	none.TokenSource, none.PromptTokenIDs, none.ResponseTokenIDs, none.ResponseLogprobs, none.PolicyModel = TokenSourceNone, nil, nil, nil, "random"
	empty := gen
	empty.ResponseTokenIDs, empty.ResponseLogprobs = []int32{}, []float32{}
	linked := linkedAct(gen, act)

	var all []byte
	for _, r := range []TurnRecord{gen, act, tool, none, empty, linked} {
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
	golden(t, "turnrecords.jsonl", all)
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
		"unknown key":   strings.Replace(string(b), `"v":1,`, `"v":1,"colour":"red",`, 1),
		"other version": strings.Replace(string(b), `"v":1,`, `"v":2,`, 1),
		"trailing":      string(b) + "{}",
		"not JSON":      "hello",
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
