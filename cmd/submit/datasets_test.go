package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/search/retriever"
	"github.com/quarry-rl/quarry/workflows"
)

// sampleRows reads a shipped sample's rows.
func sampleRows(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// firstUser is the episode's task as the env showed it.
func firstUser(msgs []openaitest.Message) string {
	for _, m := range msgs {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// runLocal submits a spec to the embedded server with an in-process worker
// and waits for it, failing with the first episode's pending activity.
func runLocalJob(t *testing.T, specYAML string) schema.JobSpec {
	t.Helper()
	return runLocalJobUIDs(t, specYAML, 69000) // this package's uids
}

// runLocalJobUIDs is runLocalJob with the worker's sandbox on the slot uids
// uidBase and uidBase+1.
func runLocalJobUIDs(t *testing.T, specYAML string, uidBase int) schema.JobSpec {
	t.Helper()
	dir := t.TempDir()
	spec, err := loadSpec(writeSpec(t, dir, specYAML+"output: "+filepath.Join(dir, "out")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard,
		sandbox: sandbox.Options{BaseDir: sandboxtest.Dir(t), UIDBase: uidBase, Slots: 2}}
	ctx := context.Background()
	sess, err := connect(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	run, _, err := startOrAttach(ctx, sess.client, g.queue, spec)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if err := run.Get(wctx, nil); err != nil {
		if d, derr := sess.client.DescribeWorkflowExecution(ctx, schema.EpisodeID(spec.Job, 0, 0), ""); derr == nil {
			for _, pa := range d.PendingActivities {
				t.Logf("pending %s attempt %d: %v", pa.ActivityType.GetName(), pa.Attempt, pa.LastFailure)
			}
		}
		t.Fatal(err)
	}
	return spec
}

// A math job with the python tool end to end (issue 7's math + python_tool):
// the scripted policy asks python to print the answer, then boxes what it
// printed; the checker accepts it, and tool turns carry GEM's rewards.
func TestLocalMathPythonJob(t *testing.T) {
	answers := map[string]string{}
	for _, r := range sampleRows(t, "../../envs/mathenv/samples/gsm8k.jsonl") {
		answers[r["problem"].(string)] = strings.TrimSpace(toString(r["answer"]))
	}
	policy := func(msgs []openaitest.Message) string {
		if last := msgs[len(msgs)-1]; last.Role == "tool" {
			if m := codeResult.FindStringSubmatch(last.Content); m != nil {
				return "So the answer is \\boxed{" + m[1] + "}"
			}
			return "I could not compute it. \\boxed{0}"
		}
		task := firstUser(msgs)
		for q, a := range answers {
			if strings.Contains(task, q) {
				b, _ := json.Marshal(a)
				return "Let me compute it.\n<python>\nprint(" + string(b) + ")\n</python>"
			}
		}
		return "\\boxed{0}"
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: math-py
seed: 4
envs: [{id: math:GSM8K, options: {dataset: sample}}]
tasks: 8
samples_per_task: 2
batch_size: 16
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 256}}}
tools: {preset: python_tool}
`)
	_, turns, eps := readShards(t, spec.Output, "math-py")
	if len(eps) != 16 {
		t.Fatalf("%d episodes", len(eps))
	}
	tasks := map[string]int{}
	for _, e := range eps {
		tasks[e.TaskID]++
		if !e.Success || e.NumTurns != 2 || e.GroundTruth == nil || *e.GroundTruth == "" {
			t.Fatalf("episode %s: success %v, %d turns, ground truth %v", e.EpisodeID, e.Success, e.NumTurns, e.GroundTruth)
		}
	}
	if len(tasks) != 8 {
		t.Fatalf("8 tasks drew %d distinct rows: %v", len(tasks), tasks)
	}
	for _, r := range turns {
		switch r.Turn {
		case 0:
			if r.ToolName == nil || *r.ToolName != "python" || r.Reward != 0.3 {
				t.Fatalf("turn 0 of %s: tool %v reward %v", r.EpisodeID, r.ToolName, r.Reward)
			}
		case 1:
			if r.ToolName != nil || r.Reward != 1 || !r.Terminated {
				t.Fatalf("turn 1 of %s: tool %v reward %v terminated %v", r.EpisodeID, r.ToolName, r.Reward, r.Terminated)
			}
		}
	}
}

// A QA job with the search tool against the built-in retrieval server (issue
// 6's QA job): the policy searches for the question, then answers only what
// the retrieved passages say.
func TestLocalQASearchJob(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	corpus, err := os.Open("../../tools/search/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer corpus.Close()
	index := filepath.Join(t.TempDir(), "index")
	if _, err := retriever.Build(ctx, corpus, index); err != nil {
		t.Fatal(err)
	}
	idx, err := retriever.Open(index)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	rs, err := retriever.NewServer(idx, retriever.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go rs.Serve(ctx, ln)

	answers := map[string][]string{}
	for _, r := range sampleRows(t, "../../envs/qaenv/samples/qa.jsonl") {
		switch a := r["answer"].(type) {
		case string:
			answers[r["problem"].(string)] = []string{a}
		case []any:
			for _, x := range a {
				answers[r["problem"].(string)] = append(answers[r["problem"].(string)], toString(x))
			}
		}
	}
	question := func(msgs []openaitest.Message) string {
		task := firstUser(msgs)
		for q := range answers {
			if strings.Contains(task, q) {
				return q
			}
		}
		return ""
	}
	policy := func(msgs []openaitest.Message) string {
		q := question(msgs)
		last := msgs[len(msgs)-1]
		if last.Role != "tool" {
			return "<think>I should look this up.</think>\n<search>" + q + "</search>"
		}
		for _, a := range answers[q] {
			if strings.Contains(strings.ToLower(last.Content), strings.ToLower(a)) {
				return "<think>The passage says it.</think> <answer>" + a + "</answer>"
			}
		}
		return "<answer>unknown</answer>"
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: qa-search
seed: 2
envs: [{id: qa:HotpotQA, options: {dataset: sample}}]
tasks: 12
samples_per_task: 2
batch_size: 24
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 128}}}
tools: {preset: search_tool, search: {url: "http://`+ln.Addr().String()+`/retrieve"}}
`)
	_, turns, eps := readShards(t, spec.Output, "qa-search")
	if len(eps) != 24 {
		t.Fatalf("%d episodes", len(eps))
	}
	solved := 0
	for _, e := range eps {
		if e.Success {
			solved++
		}
	}
	// The retriever ranks every question's document first (tools/search's
	// tests), so every episode is answered from a passage.
	if solved != len(eps) {
		t.Fatalf("%d of %d episodes answered correctly from the retrieved passages", solved, len(eps))
	}
	for _, r := range turns {
		if r.Turn == 0 && (r.ToolName == nil || *r.ToolName != "search" || r.ToolResult == nil ||
			!strings.HasPrefix(*r.ToolResult, "Doc 1(Title:") || r.Reward != 0.3) {
			t.Fatalf("turn 0 of %s: tool %v result %v reward %v", r.EpisodeID, r.ToolName, r.ToolResult, r.Reward)
		}
	}
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		b, _ := json.Marshal(x)
		return string(b)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// codeSolutions solve some of the code sample's problem kinds (keyed by the
// statement's first line); the scripted policy answers the others in prose.
var codeSolutions = map[string]string{
	"Sum of Numbers":   "input()\nprint(sum(map(int, input().split())))",
	"Reverse a String": "print(input()[::-1])",
	"Count the Words":  "print(len(input().split()))",
	"Largest Number":   "input()\nprint(max(map(int, input().split())))",
	"FizzBuzz":         "for i in range(1, int(input()) + 1):\n    print('FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else i)",
}

// A code job end to end (issue 7): programs graded in the sandbox against
// the problems' tests; solved kinds earn 1, answers without a code block −0.1.
func TestLocalCodeJob(t *testing.T) {
	policy := func(msgs []openaitest.Message) string {
		title, _, _ := strings.Cut(firstUser(msgs), "\n")
		if code, ok := codeSolutions[title]; ok {
			return "Here is my program.\n\n```python\n" + code + "\n```\n"
		}
		return "I would loop over the input and print the result."
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: code
seed: 6
envs: [{id: code:CodeContest, options: {dataset: sample}}]
tasks: 30
batch_size: 30
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 512}}}
`)
	_, turns, eps := readShards(t, spec.Output, "code")
	if len(eps) != 30 {
		t.Fatalf("%d episodes", len(eps))
	}
	solved, prose := 0, 0
	for _, r := range turns {
		switch {
		case strings.Contains(r.Action, "```python"):
			if r.Reward != 1 || r.ErrorClass != nil {
				t.Fatalf("%s: a correct program scored %v (%v): %s", r.EpisodeID, r.Reward, r.ErrorClass, r.Observation)
			}
			solved++
		default:
			if r.Reward != -0.1 || r.ErrorClass == nil || *r.ErrorClass != "format_error" {
				t.Fatalf("%s: an answer without code scored %v (%v)", r.EpisodeID, r.Reward, r.ErrorClass)
			}
			prose++
		}
	}
	// The 30 tasks visit the sample's 30 rows once each (12 kinds, 2 or 3 rows
	// a kind): the 5 solved kinds are a share of them, not all or none.
	if solved == 0 || prose == 0 || solved+prose != 30 {
		t.Fatalf("%d solved, %d answered without code", solved, prose)
	}
	tasks := map[string]bool{}
	for _, e := range eps {
		tasks[e.TaskID] = true
	}
	if len(tasks) != 30 {
		t.Fatalf("30 tasks over a 30-row sample drew %d distinct rows: not without replacement", len(tasks))
	}
}

// Every example spec parses, validates and resolves (envs, options,
// datasets, tools' documents) as submit would before submitting it.
func TestExamplesAreValid(t *testing.T) {
	paths, err := filepath.Glob("../../examples/*.yaml")
	if err != nil || len(paths) < 5 {
		t.Fatalf("examples: %v %v", paths, err)
	}
	for _, p := range paths {
		if _, err := loadSpec(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// The offline dataset example end to end: every sample row the oracle plays
// scores 1, rows carry their ground truth, and tasks draw distinct rows.
func TestExampleDatasets(t *testing.T) {
	b, err := os.ReadFile("../../examples/datasets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(b), "output: ./out\n", "", 1)
	spec := runLocalJob(t, body)
	_, turns, eps := readShards(t, spec.Output, "datasets")
	if len(eps) != 128 || len(turns) != 128 {
		t.Fatalf("%d episodes, %d turns", len(eps), len(turns))
	}
	envsSeen := map[string]int{}
	for _, e := range eps {
		envsSeen[e.EnvID]++
		if !e.Success || e.GroundTruth == nil || e.NumTurns != 1 || !strings.Contains(e.TaskID, "#") {
			t.Fatalf("episode %s (%s): success %v truth %v turns %d task %s", e.EpisodeID, e.EnvID, e.Success, e.GroundTruth, e.NumTurns, e.TaskID)
		}
	}
	if len(envsSeen) != 4 {
		t.Fatalf("mixture: %v", envsSeen)
	}
}

// A dataset that lacks the env's columns is refused before submission, the
// error naming the missing column and the option that renames it.
func TestDatasetColumnsCheckedBeforeSubmission(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "mine.jsonl")
	if err := os.WriteFile(data, []byte(`{"question": "1+1?", "solution": "2"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := writeSpec(t, dir, `
job: cols
envs: [{id: math:GSM8K, options: {dataset: `+data+`}}]
tasks: 1
policy: {kind: random}
output: `+filepath.Join(dir, "out")+`
`)
	_, err := loadSpec(spec)
	if err == nil || !strings.Contains(err.Error(), `"problem"`) || !strings.Contains(err.Error(), "envs[0].options") {
		t.Fatalf("err %v, want the missing column named under envs[0].options", err)
	}
	// Renaming the columns through the options fixes it.
	spec = writeSpec(t, dir, `
job: cols
envs: [{id: math:GSM8K, options: {dataset: `+data+`, question_key: question, answer_key: solution}}]
tasks: 1
policy: {kind: random}
output: `+filepath.Join(dir, "out")+`
`)
	if _, err := loadSpec(spec); err != nil {
		t.Fatal(err)
	}
}
