package qaenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/dataenv"
	"github.com/quarry-rl/quarry/envs/envtest"
)

// sampleRegistry registers every id with the shipped sample as its default
// dataset: the real sources are on the Hub, out of reach of tests.
func sampleRegistry(tb testing.TB) *envs.Registry {
	tb.Helper()
	return envtest.Registry(tb, func(r *envs.Registry) error {
		return register(r, func(entry) string { return dataenv.Sample })
	})
}

// ids lists GEM's registrations this package owns.
var (
	logicIDs = []string{"logic:RuleTaker-d0", "logic:RuleTaker-d1", "logic:RuleTaker-d2", "logic:RuleTaker-d3", "logic:RuleTaker-d5"}
	qaIDs    = []string{"qa:NaturalQuestions", "qa:HotpotQA"}
	evalIDs  = []string{"eval:QaOpen", "eval:2Wiki", "eval:PopQA", "eval:TriviaQA", "eval:HotpotQA", "eval:Bamboogle", "eval:NaturalQuestions", "eval:Musique"}
)

func allIDs() []string { return append(append(append([]string{}, logicIDs...), qaIDs...), evalIDs...) }

func TestConformance(t *testing.T) {
	r := sampleRegistry(t)
	if got, want := r.IDs(), allIDs(); len(got) != len(want) {
		t.Fatalf("registered %v, want %v", got, want)
	}
	envtest.RunAll(t, r, allIDs()...)
}

// The oracle's answer (the first gold) scores on every row of every
// sample, through the registry: the samples are consistent with the rules.
func TestEveryRowAnswerable(t *testing.T) {
	r := sampleRegistry(t)
	for _, id := range allIDs() {
		e := envtest.Make(t, r, id, nil)
		n, err := envs.Rows(e)
		if err != nil || n < 30 {
			t.Fatalf("%s: %d rows, %v", id, n, err)
		}
		for i := range n {
			if _, _, err := envs.ResetTask(e, i, 0); err != nil {
				t.Fatalf("%s row %d: %v", id, i, err)
			}
			a, err := envtest.OraclePolicy(e)
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(a)
			if err != nil || res.Reward != 1 || !res.Info.Success || res.Info.Extra["f1"] != 1.0 {
				t.Fatalf("%s row %d: oracle %q got %+v, %v", id, i, a, res, err)
			}
		}
	}
}

func TestRegistration(t *testing.T) {
	r := envs.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"qa:NaturalQuestions":   {"dataset": "hf://datasets/axon-rl/NaturalQuestions@refs/convert/parquet/default/train/0000.parquet", "question_key": "problem", "answer_key": "answer", "extract_boxed": false},
		"qa:HotpotQA":           {"dataset": "hf://datasets/axon-rl/HotpotQA@refs/convert/parquet/default/train/0000.parquet", "question_key": "problem", "answer_key": "answer", "extract_boxed": false},
		"logic:RuleTaker-d0":    {"dataset": "hf://datasets/axon-rl/RuleTaker-d0-70k@refs/convert/parquet/default/train/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": true},
		"logic:RuleTaker-d5":    {"dataset": "hf://datasets/axon-rl/RuleTaker-d5-70k@refs/convert/parquet/default/train/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": true},
		"eval:QaOpen":           {"dataset": "hf://datasets/google-research-datasets/nq_open@refs/convert/parquet/nq_open/validation/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": false},
		"eval:2Wiki":            {"dataset": "hf://datasets/axon-rl/search-eval@refs/convert/parquet/default/2wiki/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": false},
		"eval:TriviaQA":         {"dataset": "hf://datasets/axon-rl/search-eval@refs/convert/parquet/default/tq/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": false},
		"eval:NaturalQuestions": {"dataset": "hf://datasets/axon-rl/search-eval@refs/convert/parquet/default/nq/0000.parquet", "question_key": "question", "answer_key": "answer", "extract_boxed": false},
	}
	for id, w := range want {
		spec, err := r.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.Defaults(); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s defaults %v, want %v", id, got, w)
		}
		if spec.MaxTurns != 1 || spec.RewardMin != 0 || spec.RewardMax != 1 || spec.Revision != 1 || spec.DataDigest == "" || spec.Description == "" {
			t.Errorf("%s: spec %+v", id, spec)
		}
	}
	// Making an env does no I/O: the Hub is only contacted on first use.
	if _, err := r.Make("qa:HotpotQA", nil); err != nil {
		t.Fatal(err)
	}
	// The sample is one option away.
	e, err := r.Make("eval:Musique", map[string]any{"dataset": "sample"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reset(0); err != nil {
		t.Fatal(err)
	}
}

// The digest follows the sample each id embeds.
func TestDataDigest(t *testing.T) {
	r := sampleRegistry(t)
	digest := func(id string) string {
		s, err := r.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		return s.DataDigest
	}
	if digest("qa:HotpotQA") != digest("eval:QaOpen") {
		t.Error("the QA ids share one sample but not its digest")
	}
	if digest("logic:RuleTaker-d0") == digest("logic:RuleTaker-d1") || digest("logic:RuleTaker-d0") == digest("qa:HotpotQA") {
		t.Error("different samples, same digest")
	}
}

func TestPrompt(t *testing.T) {
	const want = "For any question, always reason through your thought process using:\n" +
		"<think> your reasoning here </think>\n" +
		"Then, provide your final answer using:\n" +
		"<answer> your answer here </answer>\n\n" +
		"Question: Who founded the town of Thorkholt?\n"
	e := envtest.Make(t, sampleRegistry(t), "qa:NaturalQuestions", nil)
	obs, _, err := envs.ResetTask(e, 0, 0)
	if err != nil || obs != want {
		t.Fatalf("row 0 observation %q, %v; want %q", obs, err, want)
	}
	if Prompt("Who founded the town of Thorkholt?") != want {
		t.Fatal("Prompt differs from the env's observation")
	}
}

// resetOn makes id (with options) and resets it on row.
func resetOn(t *testing.T, r *envs.Registry, id string, options map[string]any, row int) envs.Env {
	t.Helper()
	e := envtest.Make(t, r, id, options)
	if _, _, err := envs.ResetTask(e, row, 0); err != nil {
		t.Fatal(err)
	}
	return e
}

type stepCase struct {
	name, action string
	reward, em   float64
	f1           float64
	format       bool
	parsed       string
	obs          string
}

func checkStep(t *testing.T, e envs.Env, c stepCase) {
	t.Helper()
	res, err := e.Step(c.action)
	if err != nil {
		t.Fatal(err)
	}
	if res.Reward != c.reward || res.Info.Success != (c.reward == 1) || res.Info.FormatError != c.format ||
		!res.Terminated || res.Truncated {
		t.Fatalf("%s: %+v", c.name, res)
	}
	if res.Info.Extra["em"] != c.em || fmt.Sprintf("%.6f", res.Info.Extra["f1"]) != fmt.Sprintf("%.6f", c.f1) {
		t.Fatalf("%s: em %v f1 %v; want %v %v", c.name, res.Info.Extra["em"], res.Info.Extra["f1"], c.em, c.f1)
	}
	if res.Info.ParsedAction != c.parsed {
		t.Fatalf("%s: parsed %q, want %q", c.name, res.Info.ParsedAction, c.parsed)
	}
	if !strings.Contains(res.Observation, c.obs) {
		t.Fatalf("%s: observation %q lacks %q", c.name, res.Observation, c.obs)
	}
	if _, err := e.Step(c.action); !errors.Is(err, envs.ErrEpisodeOver) {
		t.Fatalf("%s: second Step: %v", c.name, err)
	}
}

func TestStepQA(t *testing.T) {
	r := sampleRegistry(t)
	// Row 0: "Who founded the town of Thorkholt?" — "Kovkraend Teshek".
	// Row 2: the river Skeithow, with two other acceptable forms.
	cases := []struct {
		row int
		stepCase
	}{
		{0, stepCase{"exact", "<think>It is in doc 31.</think><answer>Kovkraend Teshek</answer>", 1, 1, 1, false, "<answer>Kovkraend Teshek</answer>", "Correct"}},
		{0, stepCase{"normalised", "<answer> the kovkraend teshek. </answer>", 1, 1, 1, false, "<answer>the kovkraend teshek.</answer>", "Correct"}},
		{0, stepCase{"partial", "<answer>Teshek</answer>", 0, 0, 2.0 / 3, false, "<answer>Teshek</answer>", `Incorrect: you answered "Teshek"`}},
		{0, stepCase{"last tag wins", "<answer>Kovkraend Teshek</answer> or rather <answer>Chovlash Fethard</answer>", 0, 0, 0, false, "<answer>Chovlash Fethard</answer>", `"Kovkraend Teshek"`}},
		{0, stepCase{"last tag wins, right", "<answer>Chovlash Fethard</answer> no: <answer>Kovkraend Teshek</answer>", 1, 1, 1, false, "<answer>Kovkraend Teshek</answer>", "Correct"}},
		{0, stepCase{"no tag", "Kovkraend Teshek", 0, 0, 0, true, "", "<answer> your answer here </answer>"}},
		{0, stepCase{"boxed is not the format", `\boxed{Kovkraend Teshek}`, 0, 0, 0, true, "", "No answer found"}},
		{2, stepCase{"gold list, first", "<answer>Skeithow</answer>", 1, 1, 1, false, "<answer>Skeithow</answer>", "Correct"}},
		{2, stepCase{"gold list, other", "<answer>the River Skeithow</answer>", 1, 1, 1, false, "<answer>the River Skeithow</answer>", "Correct"}},
		{2, stepCase{"gold list, partial", "<answer>Skeithow stream</answer>", 0, 0, 2.0 / 3, false, "<answer>Skeithow stream</answer>", `any of "Skeithow", "Skeithow river", "River Skeithow"`}},
	}
	for _, id := range append(append([]string{}, qaIDs...), evalIDs...) {
		for _, c := range cases {
			t.Run(id+"/"+c.name, func(t *testing.T) { checkStep(t, resetOn(t, r, id, nil, c.row), c.stepCase) })
		}
	}
}

func TestStepLogic(t *testing.T) {
	r := sampleRegistry(t)
	for _, id := range logicIDs {
		e := resetOn(t, r, id, nil, 0)
		truth := e.(envs.Unwrapper).Unwrap().(*env).Row()["answer"].(string)
		wrong := map[string]string{"True": "False", "False": "True"}[truth]
		if wrong == "" {
			t.Fatalf("%s: answer %q is not True or False", id, truth)
		}
		obs := "Question: Facts:\n"
		first, _, _ := envs.ResetTask(e, 0, 0)
		if !strings.Contains(first, obs) || !strings.Contains(first, `within \boxed{}`) {
			t.Fatalf("%s: observation %q", id, first)
		}
		for _, c := range []stepCase{
			{"boxed", `so \boxed{` + truth + `}`, 1, 1, 1, false, `\boxed{` + truth + `}`, "Correct"},
			{"case", `\boxed{ ` + strings.ToLower(truth) + `. }`, 1, 1, 1, false, `\boxed{ ` + strings.ToLower(truth) + `. }`, "Correct"},
			{"last box wins", `\boxed{` + truth + `} hmm, \boxed{` + wrong + `}`, 0, 0, 0, false, `\boxed{` + wrong + `}`, "Incorrect"},
			{"last box wins, right", `\boxed{` + wrong + `} hmm, \boxed{` + truth + `}`, 1, 1, 1, false, `\boxed{` + truth + `}`, "Correct"},
			{"tag is not the format", "<answer>" + truth + "</answer>", 0, 0, 0, true, "", `\boxed{your answer here}`},
			{"unclosed box", `\boxed{` + truth, 0, 0, 0, true, "", "No answer found"},
		} {
			t.Run(id+"/"+c.name, func(t *testing.T) { checkStep(t, resetOn(t, r, id, nil, 0), c) })
		}
	}
}

// extract_boxed is GEM's switch between the two extractors, for any id.
func TestExtractBoxedOption(t *testing.T) {
	r := sampleRegistry(t)
	e := resetOn(t, r, "qa:NaturalQuestions", map[string]any{"extract_boxed": true}, 0)
	checkStep(t, e, stepCase{"boxed qa", `\boxed{Kovkraend Teshek}`, 1, 1, 1, false, `\boxed{Kovkraend Teshek}`, "Correct"})
	e = resetOn(t, r, "logic:RuleTaker-d1", map[string]any{"extract_boxed": false}, 0)
	res, err := e.Step(`\boxed{True}`)
	if err != nil || !res.Info.FormatError {
		t.Fatalf("boxed answer with extract_boxed false: %+v %v", res, err)
	}
}

// The step info carries the ground truth: a list of acceptable answers as
// a JSON array, one answer as itself.
func TestGroundTruth(t *testing.T) {
	r := sampleRegistry(t)
	for row, want := range map[int]string{0: "Kovkraend Teshek", 1: `["1590","in 1590"]`} {
		e := resetOn(t, r, "eval:PopQA", nil, row)
		res, err := e.Step("<answer>x</answer>")
		if err != nil || res.Info.Extra["ground_truth"] != want {
			t.Fatalf("row %d: ground truth %v, %v; want %s", row, res.Info.Extra["ground_truth"], err, want)
		}
	}
}

// Random actions are well formed, vary, and rarely score.
func TestRandomAction(t *testing.T) {
	r := sampleRegistry(t)
	for _, id := range []string{"qa:HotpotQA", "logic:RuleTaker-d2"} {
		e := resetOn(t, r, id, nil, 3)
		seen := map[string]bool{}
		rng := envs.NewRand(7)
		for range 50 {
			seen[e.SampleRandomAction(rng)] = true
		}
		if len(seen) < 2 {
			t.Fatalf("%s: random actions %v", id, seen)
		}
		for a := range seen {
			if _, ok := (family{opts: Options{ExtractBoxed: strings.HasPrefix(id, "logic:")}}).extract(a); !ok {
				t.Fatalf("%s: random action %q does not parse", id, a)
			}
		}
	}
}

func TestOptionErrors(t *testing.T) {
	r := sampleRegistry(t)
	envtest.OptionErrors(t, r, "qa:NaturalQuestions", []envtest.OptionCase{
		{Options: map[string]any{"datasets": "x.jsonl"}, Option: "datasets"},
		{Options: map[string]any{"split": "train"}, Option: "split"},
		{Options: map[string]any{"dataset": 3}, Option: "dataset"},
		{Options: map[string]any{"dataset": " "}, Option: "dataset"},
		{Options: map[string]any{"question_key": ""}, Option: "question_key"},
		{Options: map[string]any{"answer_key": ""}, Option: "answer_key"},
		{Options: map[string]any{"answer_key": "problem"}, Option: "answer_key"},
		{Options: map[string]any{"extract_boxed": "yes"}, Option: "extract_boxed"},
	})
	envtest.OptionsAccepted(t, r, "logic:RuleTaker-d3",
		map[string]any{"dataset": "/data/rt.parquet", "question_key": "context", "answer_key": "label", "extract_boxed": false})
}

// A question_key the data lacks fails at first use, naming the column.
func TestMissingColumn(t *testing.T) {
	r := sampleRegistry(t)
	e := envtest.Make(t, r, "logic:RuleTaker-d0", map[string]any{"question_key": "problem"})
	if _, _, err := e.Reset(0); err == nil || !strings.Contains(err.Error(), `"problem"`) {
		t.Fatalf("err %v, want one naming \"problem\"", err)
	}
}

// Rows GEM could not score (no answer) fail at reset as data faults;
// numbers, booleans and lists are read as GEM's str() renders them.
func TestAnswerTypes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.jsonl")
	rows := "" +
		`{"question":"q0","answer":42}` + "\n" +
		`{"question":"q1","answer":true}` + "\n" +
		`{"question":"q2","answer":["x",7]}` + "\n" +
		`{"question":"q3","answer":null}` + "\n"
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	r := sampleRegistry(t)
	for row, action := range []string{"<answer>42</answer>", `<answer>true</answer>`, "<answer>7</answer>"} {
		e := resetOn(t, r, "eval:QaOpen", map[string]any{"dataset": path}, row)
		if res, err := e.Step(action); err != nil || res.Reward != 1 {
			t.Fatalf("row %d: %+v %v", row, res, err)
		}
	}
	e := envtest.Make(t, r, "eval:QaOpen", map[string]any{"dataset": path})
	if _, _, err := envs.ResetTask(e, 3, 0); err == nil || !strings.Contains(err.Error(), "null") {
		t.Fatalf("null answer: err %v", err)
	}
}

// Every QA sample row is answerable from the search tool's corpus: its
// document holds the first answer. So a QA job with the search tool over
// that corpus can be solved.
func TestQASampleMatchesCorpus(t *testing.T) {
	corpus := map[string]string{}
	eachLine(t, filepath.Join("..", "..", "tools", "search", "testdata", "corpus.jsonl"), func(b []byte) {
		var d struct{ ID, Contents string }
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		corpus[d.ID] = d.Contents
	})
	n := 0
	lists := 0
	eachLine(t, filepath.Join("samples", "qa.jsonl"), func(b []byte) {
		var row struct {
			Problem, Question string
			Answer            any
			DocID             string `json:"doc_id"`
		}
		if err := json.Unmarshal(b, &row); err != nil {
			t.Fatal(err)
		}
		gs, err := golds(row.Answer)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := row.Answer.([]any); ok {
			lists++
		}
		if row.Problem == "" || row.Problem != row.Question || !strings.Contains(corpus[row.DocID], gs[0]) {
			t.Fatalf("row %d %+v: not answerable from document %s", n, row, row.DocID)
		}
		n++
	})
	if n != 30 || lists == 0 {
		t.Fatalf("%d rows, %d with a list of answers", n, lists)
	}
}

func eachLine(t *testing.T, path string, f func([]byte)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f(sc.Bytes())
	}
}

func BenchmarkStep(b *testing.B) {
	r := sampleRegistry(b)
	envtest.BenchmarkSteps(b, r, "qa:NaturalQuestions", "eval:TriviaQA", "logic:RuleTaker-d3")
}

func BenchmarkScore(b *testing.B) {
	for _, c := range []struct {
		name, response string
		golds          []string
	}{
		{"short", "<think>It is in doc 31.</think><answer>Kovkraend Teshek</answer>", []string{"Kovkraend Teshek"}},
		{"long", strings.Repeat("Let me think about the town. ", 200) + "<answer>The River Skeithow</answer>", []string{"Skeithow", "Skeithow river", "River Skeithow"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, _ := lastTagged(c.response)
				_ = ExactMatch(a, c.golds)
				_ = F1(a, c.golds)
			}
		})
	}
}
