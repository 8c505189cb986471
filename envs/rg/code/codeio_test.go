package code

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func TestCodeIOScore(t *testing.T) {
	// want is reasoning-gym 0.1.23's score_answer (with zss 1.2.0) on the
	// same pair, except where marked lenient.
	for _, c := range []struct {
		answer, oracle string
		want           float64
	}{
		{`{"a": 1, "b": [1, 2]}`, `{"a": 1, "b": [1, 2]}`, 1},
		{`{"b": [1, 2], "a": 1}`, `{"a": 1, "b": [1, 2]}`, 1},
		{`{"a":1,"b":[1,2]}`, `{"a": 1, "b": [1, 2]}`, 1},
		{`The answer is {"a": 1, "b": [1, 2]}`, `{"a": 1, "b": [1, 2]}`, 0.75},
		{`{"a": 2, "b": [1, 2]}`, `{"a": 1, "b": [1, 2]}`, 0.7619047619047619},
		{`{"a": 1, "b": [1, 3]}`, `{"a": 1, "b": [1, 2]}`, 0.8809523809523809},
		{`{"a": 1.5}`, `{"a": 1.25}`, 0.6363636363636364},
		{`{"result": "hello"}`, `{"result": "hallo"}`, 0.736842105263158},
		{`{"result": "12"}`, `{"result": "abc"}`, 0.01},
		{`{"x": 1}`, `{"y": [1, 2, 3], "z": {"k": "v"}}`, 0.01},
		{`{"a": 1`, `{"a": 1}`, 0},
		{`x {"a": 1} y`, `42`, 0.01},
		{`no json here`, `{"a": 1}`, 0},
		{`{"a": 1e-05}`, `{"a": 2e-05}`, 0.5833333333333334},
		{`{"a": true}`, `{"a": false}`, 0.01},
		{`{"a": null, "b": "é"}`, `{"a": 0, "b": "e"}`, 0.01},
		{`{"a": 2.0}`, `{"a": 2}`, 1},  // reasoning-gym: 2 == 2.0 too
		{`{"return": 42}`, `42`, 1},    // lenient: reasoning-gym 0.01
		{`42.0`, `42`, 1},              // lenient: reasoning-gym 0 (no braces)
		{`[1, 2]`, `[1,2]`, 1},         // lenient: reasoning-gym 0
		{`{"return": 41}`, `42`, 0.01}, // one key, wrong value
		{``, `{"a": 1}`, 0},
	} {
		if got := scoreCodeIO(c.answer, c.oracle); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Score(%s) against %s = %v, want %v", c.answer, c.oracle, got, c.want)
		}
	}
}

func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{
		1: "1.0", 0.1: "0.1", 1.5e-5: "1.5e-05", 1e16: "1e+16", 123456789012345.6: "123456789012345.6",
		-2.5: "-2.5", 0.0001: "0.0001", 1e22: "1e+22", 3.14159: "3.14159",
	} {
		if got := pyFloat(f); got != want {
			t.Errorf("pyFloat(%v) = %s, want %s", f, got, want)
		}
	}
	for _, s := range []string{`{"a": [1, 2.5, "x\n", null, true]}`, `"é"`, `[]`, `{"k": {"l": -3}}`} {
		v, err := decodeJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{`"é"`: 8}[s] // ensure_ascii: "\u00e9"
		if want == 0 {
			want = len(s)
		}
		if got := pyDumpsLen(v); got != want {
			t.Errorf("pyDumpsLen(%s) = %d, want %d", s, got, want)
		}
	}
}

func TestCodeIOItems(t *testing.T) {
	es := codeioEntries()
	if len(es) < 100 {
		t.Fatalf("%d entries", len(es))
	}
	for _, e := range es {
		for _, p := range e.Pairs {
			if !json.Valid([]byte(p.InputJSON)) || !json.Valid([]byte(p.OutputJSON)) {
				t.Fatalf("line %d: a pair is not JSON", e.Line)
			}
		}
	}
	// reasoning-gym's own rule: below the probability, the input is shown.
	r := registry(t)
	for seed := range uint64(30) {
		_, e := rgtest.Reset(t, r, "rg:codeio", map[string]any{"input_prediction_probability": 0}, seed)
		it := e.Item()
		if !strings.Contains(it.Question, "Given the following output:") || it.Answer != string(it.Meta["input_data"].(json.RawMessage)) {
			t.Fatalf("seed %d: input prediction asks\n%s\nanswer %s", seed, it.Question, it.Answer)
		}
		_, e = rgtest.Reset(t, r, "rg:codeio", map[string]any{"input_prediction_probability": 1}, seed)
		it = e.Item()
		if !strings.Contains(it.Question, "Given the following input:") || it.Answer != string(it.Meta["output_data"].(json.RawMessage)) {
			t.Fatalf("seed %d: output prediction asks\n%s\nanswer %s", seed, it.Question, it.Answer)
		}
	}
	envtest.OptionErrors(t, r, "rg:codeio", []envtest.OptionCase{
		{Options: map[string]any{"input_prediction_probability": 1.5}, Option: "input_prediction_probability"},
		{Options: map[string]any{"difficulty": 0}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": 11}, Option: "difficulty"},
		{Options: map[string]any{"difficulty": 1}, Option: "difficulty"},
	})
}
