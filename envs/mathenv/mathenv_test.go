package mathenv

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/envs/dataset"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/mathcheck"
)

var update = flag.Bool("update", false, "rewrite samples/*.jsonl from the generator")

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, RegisterSamples) }

// GEM's math ids and math eval ids (gem/envs/__init__.py), the visual
// math:Geometry3K included.
var gemIDs = []string{
	"eval:AIME24", "eval:AMC", "eval:MATH500", "eval:Minerva", "eval:OlympiadBench",
	"math:ASDiv2K", "math:DeepScaleR40K", "math:GSM8K", "math:Geometry3K", "math:Math12K", "math:Math8K-3to5", "math:Orz57K",
}

func TestRegistered(t *testing.T) {
	r := registry(t)
	if got := r.IDs(); !slices.Equal(got, gemIDs) {
		t.Fatalf("ids %v, want %v", got, gemIDs)
	}
	for _, s := range r.Specs() {
		if s.MaxTurns != 1 || s.RewardMin != -0.1 || s.RewardMax != 1 || s.DataDigest == "" {
			t.Errorf("%s: MaxTurns %d, rewards [%v, %v], digest %q", s.ID, s.MaxTurns, s.RewardMin, s.RewardMax, s.DataDigest)
		}
		want := map[string]any{"dataset": "sample", "question_key": "problem", "answer_key": "answer", "use_format_error_reward": false}
		if s.ID == Geometry3K.ID {
			want["image_key"] = "images" // GEM's MathVisualEnv
		}
		if s.Images != (s.ID == Geometry3K.ID) {
			t.Errorf("%s: Images %v", s.ID, s.Images)
		}
		if d := s.Defaults(); !mapsEqual(d, want) {
			t.Errorf("%s: defaults %v, want %v", s.ID, d, want)
		}
	}
	// Each id's version covers its own sample.
	a, _ := r.Lookup("math:GSM8K")
	b, _ := r.Lookup("math:ASDiv2K")
	if a.DataDigest == b.DataDigest {
		t.Error("two ids share a data digest")
	}
	// GEM's eval sets are splits of one dataset.
	for _, d := range Datasets() {
		if strings.HasPrefix(d.ID, "eval:") != (d.Name == "axon-rl/math-eval" && d.Split != "") {
			t.Errorf("%s: GEM dataset %s split %q", d.ID, d.Name, d.Split)
		}
	}
}

func mapsEqual(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestConformance(t *testing.T) {
	envtest.RunAll(t, registry(t))
}

// TestSamples: the committed samples are what the generator writes, and every
// row is graded as the generator says — the reference and its other forms
// score 1, the near misses 0 — with the question shown verbatim.
func TestSamples(t *testing.T) {
	files := sampleFiles()
	var want []string
	for _, d := range Datasets() {
		want = append(want, d.Sample)
	}
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Fatalf("generator writes %v, ids use %v", files, want)
	}
	for _, f := range files {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // keep < and > readable in the questions
		for _, it := range generate(f) {
			if err := enc.Encode(it); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join("samples", f)
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s differs from the generator's output; run `go test ./envs/mathenv -run TestSamples -update` (and bump Revision)", path)
		}
	}
	if *update {
		t.Skip("samples rewritten; rebuild to embed them")
	}

	r := registry(t)
	for _, d := range Datasets() {
		t.Run(d.ID, func(t *testing.T) {
			items := generate(d.Sample)
			e := envtest.Make(t, r, d.ID, nil)
			if n, err := envs.Rows(e); err != nil || n != len(items) {
				t.Fatalf("rows %d, %v; want %d", n, err, len(items))
			}
			kinds := map[string]bool{}
			for i, it := range items {
				kinds[it.Kind] = true
				if it.expr != "" && !mathcheck.Equivalent(it.expr, it.Answer) {
					t.Errorf("row %d (%s): the problem's expression %q does not evaluate to the answer %q", i, it.Kind, it.expr, it.Answer)
				}
				if !strings.Contains(it.Problem, `\boxed{}`) {
					t.Errorf("row %d: the question does not ask for \\boxed{}", i)
				}
				step := func(answer string) envs.StepResult {
					obs, _, err := envs.ResetTask(e, i, 0)
					if err != nil {
						t.Fatal(err)
					}
					if obs != it.Problem {
						t.Fatalf("row %d: observation %q, want the question %q", i, obs, it.Problem)
					}
					res, err := e.Step(`So the answer is $\boxed{` + answer + `}$.`)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				if _, _, err := envs.ResetTask(e, i, 0); err != nil {
					t.Fatal(err)
				}
				if o, err := envtest.OraclePolicy(e); err != nil || o != `\boxed{`+it.Answer+`}` {
					t.Errorf("row %d: oracle %q, %v", i, o, err)
				}
				for _, a := range append([]string{it.Answer}, it.alts...) {
					if res := step(a); res.Reward != 1 || !res.Info.Success {
						t.Errorf("row %d (%s): answer %q for reference %q scored %v", i, it.Kind, a, it.Answer, res.Reward)
					}
				}
				if len(it.wrong) == 0 {
					t.Errorf("row %d: no near misses", i)
				}
				for _, a := range it.wrong {
					if res := step(a); res.Reward != 0 || res.Info.Success {
						t.Errorf("row %d (%s): wrong answer %q for reference %q scored %v", i, it.Kind, a, it.Answer, res.Reward)
					}
				}
			}
			if len(kinds) != len(sampleKinds[d.Sample]) {
				t.Errorf("sample has kinds %v, want every kind of its mix", kinds)
			}
		})
	}
}

// TestScore is GEM's rule on hand-written rows: the reference as a string, a
// number, a list and a boxed string, in testdata/answers.jsonl.
func TestScore(t *testing.T) {
	r := registry(t)
	const (
		frac  = iota // "\frac{3}{4}"
		num          // 42 (a JSON number)
		flt          // 0.125 (a JSON number)
		list         // ["2", "-2"]
		boxed        // "\boxed{2x+1}"
		expr         // "x^2 - 1"
	)
	truth := []string{`\frac{3}{4}`, "42", "0.125", `["2","-2"]`, `\boxed{2x+1}`, "x^2 - 1"}
	type tc struct {
		name     string
		row      int
		response string
		penalty  bool // use_format_error_reward
		reward   float64
		format   bool   // FormatError
		parsed   string // ParsedAction
	}
	right := func(name string, row int, response, parsed string) tc {
		return tc{name, row, response, false, 1, false, parsed}
	}
	wrong := func(name string, row int, response, parsed string) tc {
		return tc{name, row, response, false, 0, false, parsed}
	}
	tests := []tc{
		right("fraction", frac, `The answer is $\boxed{\frac{3}{4}}$.`, `\boxed{\frac{3}{4}}`),
		right("slash", frac, `\boxed{3/4}`, `\boxed{3/4}`),
		right("decimal", frac, `\boxed{0.75}`, `\boxed{0.75}`),
		right("trailing zero", frac, `\boxed{0.750}`, `\boxed{0.750}`),
		right("dfrac short", frac, `\boxed{\dfrac34}`, `\boxed{\dfrac34}`),
		right("unreduced", frac, `\boxed{\frac{6}{8}}`, `\boxed{\frac{6}{8}}`),
		right("assignment", frac, `\boxed{x = \frac{3}{4}}`, `\boxed{x = \frac{3}{4}}`),
		right("percent", frac, `\boxed{75\%}`, `\boxed{75\%}`),
		right("spaces", frac, `\boxed{ 3 / 4 }`, `\boxed{ 3 / 4 }`),
		wrong("rounded", frac, `\boxed{0.7}`, `\boxed{0.7}`),
		wrong("inverted", frac, `\boxed{\frac{4}{3}}`, `\boxed{\frac{4}{3}}`),
		wrong("empty box", frac, `\boxed{}`, `\boxed{}`),
		right("last box wins (right)", frac, `\boxed{1} no, wait: \boxed{3/4}`, `\boxed{3/4}`),
		wrong("last box wins (wrong)", frac, `\boxed{3/4} no, wait: \boxed{1}`, `\boxed{1}`),
		right("nested braces", frac, `\boxed{\frac{3}{{4}}}`, `\boxed{\frac{3}{{4}}}`),
		{"no box", frac, "The answer is 3/4.", false, 0, true, ""},
		{"no box, format reward", frac, "The answer is 3/4.", true, -0.1, true, ""},
		{"unclosed box", frac, `\boxed{3/4`, false, 0, true, ""},
		{"unclosed box, format reward", frac, `\boxed{3/4`, true, -0.1, true, ""},
		{"box without braces", frac, `\boxed 3/4`, true, -0.1, true, ""},
		{"fbox is not an answer", frac, `\fbox{3/4}`, true, -0.1, true, ""},
		{"empty response", frac, "", true, -0.1, true, ""},
		{"wrong answer, format reward", frac, `\boxed{1}`, true, 0, false, `\boxed{1}`},
		{"right answer, format reward", frac, `\boxed{3/4}`, true, 1, false, `\boxed{3/4}`},
		right("number", num, `\boxed{42}`, `\boxed{42}`),
		right("number as decimal", num, `\boxed{42.0}`, `\boxed{42.0}`),
		right("number with unit", num, `\boxed{42 \text{ dollars}}`, `\boxed{42 \text{ dollars}}`),
		wrong("number off by one", num, `\boxed{41}`, `\boxed{41}`),
		right("float", flt, `\boxed{\frac18}`, `\boxed{\frac18}`),
		right("float as decimal", flt, `\boxed{0.125}`, `\boxed{0.125}`),
		wrong("float rounded", flt, `\boxed{0.13}`, `\boxed{0.13}`),
		right("list: first", list, `\boxed{2}`, `\boxed{2}`),
		right("list: second", list, `\boxed{-2}`, `\boxed{-2}`),
		wrong("list: neither", list, `\boxed{4}`, `\boxed{4}`),
		right("boxed reference", boxed, `\boxed{1 + 2x}`, `\boxed{1 + 2x}`),
		wrong("boxed reference, wrong", boxed, `\boxed{2x - 1}`, `\boxed{2x - 1}`),
		right("expression reordered", expr, `\boxed{-1 + x^2}`, `\boxed{-1 + x^2}`),
		right("expression factored", expr, `\boxed{(x-1)(x+1)}`, `\boxed{(x-1)(x+1)}`),
		wrong("expression", expr, `\boxed{x^2 + 1}`, `\boxed{x^2 + 1}`),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := map[string]any{"dataset": filepath.Join("testdata", "answers.jsonl")}
			if tt.penalty {
				opts["use_format_error_reward"] = true
			}
			e := envtest.Make(t, r, "math:Math12K", opts)
			if _, _, err := envs.ResetTask(e, tt.row, 0); err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(tt.response)
			if err != nil {
				t.Fatal(err)
			}
			correct := tt.reward == 1
			switch {
			case res.Reward != tt.reward:
				t.Errorf("reward %v, want %v", res.Reward, tt.reward)
			case res.Info.FormatError != tt.format:
				t.Errorf("FormatError %v, want %v", res.Info.FormatError, tt.format)
			case res.Info.Success != correct || res.Info.Extra["correct"] != correct:
				t.Errorf("Success %v, extra.correct %v; want %v", res.Info.Success, res.Info.Extra["correct"], correct)
			case res.Info.ParsedAction != tt.parsed:
				t.Errorf("ParsedAction %q, want %q", res.Info.ParsedAction, tt.parsed)
			case !res.Terminated || res.Truncated:
				t.Errorf("terminated %v, truncated %v; want only terminated", res.Terminated, res.Truncated)
			case res.Info.Extra["ground_truth"] != truth[tt.row]:
				t.Errorf("ground truth %q, want %q", res.Info.Extra["ground_truth"], truth[tt.row])
			case res.Observation == "":
				t.Error("empty observation")
			}
			if _, err := e.Step(tt.response); !errors.Is(err, envs.ErrEpisodeOver) {
				t.Errorf("second Step: %v, want ErrEpisodeOver", err)
			}
		})
	}
}

// Rows whose answer GEM could not grade fail the Reset onto them, naming
// the column, rather than scoring every answer wrong.
func TestMalformedRows(t *testing.T) {
	r := registry(t)
	e := envtest.Make(t, r, "math:GSM8K", map[string]any{"dataset": filepath.Join("testdata", "malformed.jsonl")})
	for row, want := range []string{
		`answer column "answer": holds nothing`,
		`answer column "answer": holds a boolean`,
		`answer column "answer": an empty list`,
		`answer column "answer": element 1 holds a list`,
		`question column "problem" holds a number, want a string`,
	} {
		_, _, err := envs.ResetTask(e, row, 0)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("row %d: err %v, want it to say %q", row, err, want)
		}
	}
}

func TestOptions(t *testing.T) {
	r := registry(t)
	envtest.OptionErrors(t, r, "math:GSM8K", []envtest.OptionCase{
		{Options: map[string]any{"split": "train"}, Option: "split"},
		{Options: map[string]any{"dataset_name": "axon-rl/GSM-8k"}, Option: "dataset_name"},
		{Options: map[string]any{"use_format_error_reward": "yes"}, Option: "use_format_error_reward"},
		{Options: map[string]any{"question_key": 3}, Option: "question_key"},
		{Options: map[string]any{"dataset": ""}, Option: "dataset"},
		{Options: map[string]any{"answer_key": " "}, Option: "answer_key"},
	})
	envtest.OptionsAccepted(t, r, "eval:AIME24",
		map[string]any{"use_format_error_reward": true},
		// Making an env does no I/O: a remote dataset is opened on first use.
		map[string]any{"dataset": "s3://bucket/math/aime24.parquet"},
	)

	// A column the data lacks is named when the dataset is opened.
	for _, opts := range []map[string]any{{"answer_key": "solution"}, {"question_key": "question"}} {
		e := envtest.Make(t, r, "math:GSM8K", opts)
		_, err := envs.Rows(e)
		var mc *dataset.MissingColumnError
		var col string
		for _, v := range opts {
			col = v.(string)
		}
		if !errors.As(err, &mc) || !slices.Equal(mc.Missing, []string{col}) || !strings.Contains(err.Error(), `"`+col+`"`) {
			t.Errorf("options %v: err %v, want a MissingColumnError naming %q", opts, err, col)
		}
		if _, _, err := e.Reset(0); err == nil {
			t.Errorf("options %v: Reset succeeded", opts)
		}
	}

	// Renamed columns, as GEM's question_key and answer_key.
	e := envtest.Make(t, r, "math:GSM8K", map[string]any{
		"dataset": filepath.Join("testdata", "renamed.jsonl"), "question_key": "question", "answer_key": "final",
	})
	obs, _, err := envs.ResetTask(e, 0, 0)
	if err != nil || obs != "What is 6 times 7?" {
		t.Fatalf("renamed columns: %q, %v", obs, err)
	}
	if res, err := e.Step(`\boxed{42}`); err != nil || res.Reward != 1 {
		t.Fatalf("renamed columns: %+v, %v", res, err)
	}
}

func TestRandomAction(t *testing.T) {
	e := envtest.MakeReset(t, registry(t), "math:GSM8K", 0)
	rng := envs.NewRand(1)
	distinct := map[string]bool{}
	for range 200 {
		a := e.SampleRandomAction(rng)
		got, ok := envs.LastBoxed(a)
		if !ok {
			t.Fatalf("random action %q has no \\boxed{}", a)
		}
		if _, ok := new(big.Int).SetString(got, 10); !ok {
			t.Fatalf("random action %q is not a boxed integer", a)
		}
		distinct[got] = true
	}
	if len(distinct) < 50 {
		t.Fatalf("200 random actions gave %d distinct answers", len(distinct))
	}
}

func TestOracleBeforeReset(t *testing.T) {
	if _, err := newEnv(DefaultOptions(dataenv.Sample), "samples/gsm8k.jsonl").OracleAction(); err == nil {
		t.Fatal("OracleAction before Reset succeeded")
	}
}

// BenchmarkStep measures answers scored per second, by kind of answer: one
// row, stepped repeatedly on the bare env (the protocol wrapper would demand a
// Reset, a dataset read, between answers).
// `go test -run '^$' -bench Step ./envs/mathenv`
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		name     string
		row      int
		response string
	}{
		{"integer", 1, `Adding up, the total is \boxed{42}.`},
		{"integer_wrong", 1, `Adding up, the total is \boxed{41}.`},
		{"fraction_as_decimal", 0, `So $x = \boxed{0.75}$.`},
		{"fraction_wrong", 0, `So $x = \boxed{\frac{2}{3}}$.`},
		{"list", 3, `\boxed{-2}`},
		{"expression", 5, `\boxed{(x-1)(x+1)}`},
		{"no_box", 0, strings.Repeat("Let me think about this step by step. ", 50)},
		{"long_response", 1, strings.Repeat("Let me think about this step by step. ", 200) + `\boxed{42}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			o := DefaultOptions(dataenv.Sample)
			o.Dataset = filepath.Join("testdata", "answers.jsonl")
			e := newEnv(o, "")
			if _, _, err := e.ResetTask(c.row); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Step(c.response); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "answers/s")
		})
	}
}
