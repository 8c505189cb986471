package schema

import (
	"reflect"
	"strings"
	"testing"
)

func TestManifestEncoding(t *testing.T) {
	turns, eps := preparedBatch(t, 31, 8, 4)
	stats, err := ApplyReturns(turns, eps, 0.9, NormReBN)
	if err != nil {
		t.Fatal(err)
	}
	keys := ShardKeys("job-test", 42)
	tf, ef := writeTurns(t, turns), writeEpisodes(t, eps)
	failures := []Failure{
		{Job: "job-test", Batch: 42, Episode: 9, Group: 2, Sample: 1, EpisodeID: EpisodeID("job-test", 42, 9), TaskID: "task-2", TaskIndex: 1002,
			EnvID: "game:GuessTheNumber-v0-easy", EnvVersion: "v0.3", ErrorClass: "EpisodeTimeout", Attempts: 3, Turns: 2, Message: "episode exceeded 30m0s"},
		{Job: "job-test", Batch: 42, Episode: 8, Group: 2, Sample: 0, EpisodeID: EpisodeID("job-test", 42, 8), TaskID: "task-2", TaskIndex: 1002,
			EnvID: "game:GuessTheNumber-v0-easy", EnvVersion: "v0.3", ErrorClass: "EnvVersionMismatch", Attempts: 1, Message: "env v0.4 on worker, v0.3 in episode"},
	}
	ff, err := MarshalFailures(failures)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(ff), `{"job":"job-test","batch":42,"episode":8,`) {
		t.Errorf("failures not sorted by episode:\n%s", ff)
	}
	gotFailures, err := UnmarshalFailures(ff)
	if err != nil || len(gotFailures) != 2 || !reflect.DeepEqual(gotFailures[0], failures[1]) {
		t.Fatalf("failures round trip: %+v, %v", gotFailures, err)
	}

	m := Manifest{
		Job: "job-test", Batch: 42,
		Files: []ManifestFile{
			FileEntry("job-test", keys.Turns, tf, int64(len(turns))),
			FileEntry("job-test", keys.Episodes, ef, int64(len(eps))),
			FileEntry("job-test", keys.Failures, ff, int64(len(failures))),
		},
		TurnRows: int64(len(turns)), EpisodeRows: int64(len(eps)), FailedEpisodes: 2,
		Returns: stats, Gamma: 0.9, NormScheme: NormReBN,
		EnvVersions: map[string]string{"game:GuessTheNumber-v0-easy": "v0.3", "game:Sudoku-v0-easy": "v0.1"},
	}
	b, err := MarshalManifest(&m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(string(b)), "time") {
		t.Errorf("a manifest must carry no wall-clock time:\n%s", b)
	}
	got, err := UnmarshalManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	m.SchemaVersion = SchemaVersion
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("manifest round trip:\n got %+v\nwant %+v", got, m)
	}
	for i, data := range [][]byte{tf, ef, ff} {
		if err := got.Files[i].Verify(data); err != nil {
			t.Error(err)
		}
	}
	if err := got.Files[0].Verify(ef); err == nil {
		t.Error("Verify accepted another file's bytes")
	}
	if got.Files[0].Path != "shards/part-00042.turns.parquet" {
		t.Errorf("manifest path %q, want it relative to the job folder", got.Files[0].Path)
	}
	// Byte-identical shards give a byte-identical manifest.
	tf2, ef2 := writeTurns(t, turns), writeEpisodes(t, eps)
	m2 := m
	m2.Files = []ManifestFile{FileEntry("job-test", keys.Turns, tf2, int64(len(turns))), FileEntry("job-test", keys.Episodes, ef2, int64(len(eps))), m.Files[2]}
	b2, _ := MarshalManifest(&m2)
	if string(b) != string(b2) {
		t.Error("rewriting the same shard gave another manifest")
	}

	if _, err := UnmarshalManifest([]byte(strings.Replace(string(b), `"schema_version": 1`, `"schema_version": 2`, 1))); err == nil {
		t.Error("a manifest of a newer schema was accepted")
	}
	if _, err := UnmarshalManifest([]byte(strings.Replace(string(b), `"batch": 42,`, `"batch": 42, "shard": 1,`, 1))); err == nil {
		t.Error("an unknown manifest key was accepted")
	}

	// The encoding of a fixed manifest is pinned.
	fixed := Manifest{Job: "job-test", Batch: 42,
		Files:    []ManifestFile{{Path: "shards/part-00042.turns.parquet", Size: 1234, SHA256: strings.Repeat("ab", 32), Rows: 10}},
		TurnRows: 10, EpisodeRows: 4, Returns: Stats{Count: 10, Sum: 2.5, SumSq: 1.75}, Gamma: 1, NormScheme: NormReBN,
		EnvVersions: map[string]string{"b": "2", "a": "1"}}
	fb, _ := MarshalManifest(&fixed)
	s := Success{Job: "job-test", Batches: 3, TurnRows: 30, EpisodeRows: 12, FailedEpisodes: 1, Returns: Stats{Count: 30, Sum: 7.5, SumSq: 5.25}}
	sb, err := MarshalSuccess(&s)
	if err != nil {
		t.Fatal(err)
	}
	gotS, err := UnmarshalSuccess(sb)
	s.SchemaVersion = SchemaVersion
	if err != nil || gotS != s {
		t.Fatalf("_SUCCESS round trip: %+v, %v", gotS, err)
	}
	golden(t, "manifest.json", fb)
	golden(t, "failures.jsonl", ff)
	golden(t, "success.json", sb)
}
