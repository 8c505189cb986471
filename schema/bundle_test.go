package schema

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// linkedAct is act linked into a chain: it names gen and the act record of
// the turn before.
func linkedAct(gen, act TurnRecord) TurnRecord {
	gen.Turn, act.Turn = 3, 3
	act.Gen = &TurnRef{Key: gen.Key(), Tag: gen.Tag}
	act.ActionTag = gen.Tag
	act.Prev = &TurnRef{Key: ActKey(act.Job, act.Batch, act.Episode, 2, 1), Tag: "run-1/act-6/1"}
	return act
}

// TestTurnRecordLinks: an act record's Gen and Prev must point inside its
// own episode, at the right phase and turn, and Gen must agree with
// ActionTag.
func TestTurnRecordLinks(t *testing.T) {
	gen, act := sampleRecords()
	linked := linkedAct(gen, act)
	if _, err := MarshalTurnRecord(&linked); err != nil {
		t.Fatalf("a well-linked act record was refused: %v", err)
	}
	first := linked
	first.Turn, first.Prev = 0, nil
	first.Gen = &TurnRef{Key: TurnKey(first.Job, first.Batch, first.Episode, 0, 1), Tag: gen.Tag}
	if _, err := MarshalTurnRecord(&first); err != nil {
		t.Fatalf("a linked act record of turn 0 was refused: %v", err)
	}
	cases := map[string]func(r *TurnRecord){
		"gen tag differs from action_tag": func(r *TurnRecord) { r.Gen.Tag = "other" },
		"gen of another turn":             func(r *TurnRecord) { r.Gen.Key = TurnKey(r.Job, r.Batch, r.Episode, 2, 1) },
		"gen of another episode":          func(r *TurnRecord) { r.Gen.Key = TurnKey(r.Job, r.Batch, r.Episode+1, r.Turn, 1) },
		"gen of another job":              func(r *TurnRecord) { r.Gen.Key = TurnKey("other", r.Batch, r.Episode, r.Turn, 1) },
		"gen names an act record":         func(r *TurnRecord) { r.Gen.Key = ActKey(r.Job, r.Batch, r.Episode, r.Turn, 1) },
		"gen is not a key":                func(r *TurnRecord) { r.Gen.Key = "x" },
		"no prev after turn 0":            func(r *TurnRecord) { r.Prev = nil },
		"prev two turns back":             func(r *TurnRecord) { r.Prev.Key = ActKey(r.Job, r.Batch, r.Episode, 1, 1) },
		"prev names a generate record":    func(r *TurnRecord) { r.Prev.Key = TurnKey(r.Job, r.Batch, r.Episode, 2, 1) },
		"prev without tag":                func(r *TurnRecord) { r.Prev.Tag = "" },
		"prev without gen":                func(r *TurnRecord) { r.Gen = nil },
	}
	for name, mutate := range cases {
		r := linkedAct(gen, act)
		mutate(&r)
		if _, err := MarshalTurnRecord(&r); err == nil {
			t.Errorf("%s: MarshalTurnRecord accepted it", name)
		}
	}
	zero := first
	zero.Prev = &TurnRef{Key: ActKey(zero.Job, zero.Batch, zero.Episode, 0, 1), Tag: "x"}
	if _, err := MarshalTurnRecord(&zero); err == nil {
		t.Error("prev on turn 0 was accepted")
	}
	g := gen
	g.Gen = &TurnRef{Key: gen.Key(), Tag: gen.Tag}
	if _, err := MarshalTurnRecord(&g); err == nil {
		t.Error("a generate record with gen was accepted")
	}
	// The links survive a round trip and are strict JSON.
	b, _ := MarshalTurnRecord(&linked)
	got, err := UnmarshalTurnRecord(b)
	if err != nil || !reflect.DeepEqual(got.Gen, linked.Gen) || !reflect.DeepEqual(got.Prev, linked.Prev) {
		t.Fatalf("links round trip: %+v %+v, %v", got.Gen, got.Prev, err)
	}
	if _, err := UnmarshalTurnRecord([]byte(strings.Replace(string(b), `"gen":{"key"`, `"gen":{"colour":"red","key"`, 1))); err == nil {
		t.Error("an unknown key inside gen was accepted")
	}
}

// sampleBundle is a three-turn random-policy episode, turn 1 a tool call.
func sampleBundle() Bundle {
	b := Bundle{Job: "job-test", Batch: 42, Episode: 7, Attempt: 2}
	for turn := range 3 {
		gen := TurnRecord{
			Phase: PhaseGenerate, Tag: fmt.Sprintf("run-9/play-7/2/t%d/gen", turn), Job: b.Job, Batch: b.Batch, Episode: b.Episode,
			Turn: turn, Attempt: b.Attempt, PromptDelta: "[]", Action: fmt.Sprintf(`\boxed{%d}`, 5+turn),
			PolicyModel: "random", SamplingParams: "{}", TokenSource: TokenSourceNone, GenerationMs: 0.003,
		}
		act := TurnRecord{
			Phase: PhaseAct, Tag: fmt.Sprintf("run-9/play-7/2/t%d/act", turn), Job: b.Job, Batch: b.Batch, Episode: b.Episode,
			Turn: turn, Attempt: b.Attempt, ActionTag: gen.Tag, EnvVersion: "v0.3", Observation: "Too low — again.",
			Reward: -0.1, EnvMs: 0.002,
		}
		if turn == 1 {
			act.ToolName, act.ToolCall, act.ToolResult = ptr("python"), ptr(`{"code":"print(6)"}`), ptr("6\n")
		}
		if turn == 2 {
			act.Observation, act.Reward, act.Terminated, act.Success = "Correct!", 1, true, true
		}
		b.Records = append(b.Records, gen, act)
	}
	return b
}

func TestBundle(t *testing.T) {
	b := sampleBundle()
	if got := b.Key(); got != "job-test/_turns/b00042/e0007/bundle-a2.jsonl" {
		t.Errorf("Key = %q", got)
	}
	if got := b.Ref(); got != (TurnRef{Key: b.Key(), Tag: "run-9/play-7/2/t2/act"}) {
		t.Errorf("Ref = %+v, want the key and the last record's tag", got)
	}
	if !strings.HasPrefix(b.Key(), TurnPrefix("job-test", 42, 7)) {
		t.Error("a bundle key is outside its episode's turn prefix")
	}
	job, batch, ep, attempt, err := ParseBundleKey(b.Key())
	if err != nil || job != "job-test" || batch != 42 || ep != 7 || attempt != 2 {
		t.Errorf("ParseBundleKey = %s %d %d %d %v", job, batch, ep, attempt, err)
	}
	for _, k := range []string{TurnKey("j", 1, 1, 1, 1), "j/_turns/b1/e1/bundle-a1.json", "j/_turns/b1/e1/bundle.jsonl", "_turns/b1/e1/bundle-a1.jsonl"} {
		if _, _, _, _, err := ParseBundleKey(k); err == nil {
			t.Errorf("ParseBundleKey(%q) accepted it", k)
		}
	}
	if _, _, _, _, _, _, err := ParseTurnKey(b.Key()); err == nil {
		t.Error("ParseTurnKey accepted a bundle key")
	}

	data, err := MarshalBundle(&b)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != len(b.Records) {
		t.Fatalf("%d lines for %d records", n, len(b.Records))
	}
	// Each line is the record's own encoding.
	for i, line := range strings.SplitAfter(string(data), "\n")[:len(b.Records)] {
		one, _ := MarshalTurnRecord(&b.Records[i])
		if line != string(one) {
			t.Fatalf("line %d differs from MarshalTurnRecord", i)
		}
	}
	got, err := UnmarshalBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.Records {
		b.Records[i].Version = TurnRecordVersion
	}
	if !reflect.DeepEqual(got, b) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, b)
	}
	if err := got.Check(b.Ref()); err != nil {
		t.Errorf("the accepted bundle was refused: %v", err)
	}
	if err := got.Check(TurnRef{Key: b.Key(), Tag: "run-9/play-7/1/t2/act"}); !errors.Is(err, ErrStaleRecord) {
		t.Errorf("another attempt's tag: %v, want ErrStaleRecord", err)
	}
	if err := got.Check(TurnRef{Key: BundleKey("job-test", 42, 7, 1), Tag: b.Ref().Tag}); !errors.Is(err, ErrStaleRecord) {
		t.Errorf("another key: %v, want ErrStaleRecord", err)
	}
	golden(t, "bundle-v2.jsonl", data)
}

// TestBundleReadsVersion1: a bundle written before the binary token arrays
// (testdata/bundle-v1.jsonl, the same bundle) decodes to the same records.
func TestBundleReadsVersion1(t *testing.T) {
	data, err := os.ReadFile("testdata/bundle-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"v":1,`) || !strings.Contains(string(data), `"response_logprobs":null`) {
		t.Fatal("testdata/bundle-v1.jsonl is not a version 1 bundle")
	}
	got, err := UnmarshalBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleBundle()
	for i := range want.Records {
		want.Records[i].Version = 1
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("version 1 bundle:\n got %+v\nwant %+v", got, want)
	}
}

func TestBundleRejects(t *testing.T) {
	cases := map[string]func(b *Bundle){
		"empty":               func(b *Bundle) { b.Records = nil },
		"odd":                 func(b *Bundle) { b.Records = b.Records[:3] },
		"act first":           func(b *Bundle) { b.Records[0], b.Records[1] = b.Records[1], b.Records[0] },
		"turns out of order":  func(b *Bundle) { b.Records[2].Turn, b.Records[3].Turn = 5, 5 },
		"other attempt":       func(b *Bundle) { b.Records[4].Attempt = 1 },
		"other episode":       func(b *Bundle) { b.Records[4].Episode = 8 },
		"action tag mismatch": func(b *Bundle) { b.Records[3].ActionTag = "run-9/play-7/2/t0/gen" },
		"linked record": func(b *Bundle) {
			r := &b.Records[1]
			r.Gen = &TurnRef{Key: TurnKey(r.Job, r.Batch, r.Episode, 0, 2), Tag: r.ActionTag}
		},
		"invalid record": func(b *Bundle) { b.Records[2].TokenSource = "x" },
		"no job":         func(b *Bundle) { b.Job = "" },
	}
	for name, mutate := range cases {
		b := sampleBundle()
		mutate(&b)
		if _, err := MarshalBundle(&b); err == nil {
			t.Errorf("%s: MarshalBundle accepted it", name)
		}
	}
	good := sampleBundle()
	data, _ := MarshalBundle(&good)
	lines := strings.SplitAfter(string(data), "\n")
	for name, text := range map[string]string{
		"empty":          "",
		"blank line":     lines[0] + "\n" + strings.Join(lines[1:], ""),
		"missing turn":   strings.Join(lines[:2], "") + strings.Join(lines[4:], ""),
		"not JSON":       string(data) + "hello\n",
		"unknown key":    strings.Replace(string(data), `"v":2,`, `"v":2,"x":0,`, 1),
		"other versions": strings.ReplaceAll(string(data), `"v":2,`, `"v":3,`),
	} {
		if _, err := UnmarshalBundle([]byte(text)); err == nil {
			t.Errorf("%s: UnmarshalBundle accepted it", name)
		}
	}
}
