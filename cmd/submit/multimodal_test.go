package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
)

// geometryRow is one row of the shipped Geometry3K sample as the env reads it.
type geometryRow struct {
	question string
	image    envs.Image
	answer   string // the oracle's boxed reference
}

func geometryRows(t *testing.T) []geometryRow {
	t.Helper()
	r, err := catalog.New(catalog.WithSamples())
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Make("math:Geometry3K", nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := envs.Rows(e)
	if err != nil {
		t.Fatal(err)
	}
	oracle, _ := envs.AsOracle(e)
	rows := make([]geometryRow, n)
	for i := range rows {
		q, info, err := envs.ResetTask(e, i, 0)
		if err != nil || len(info.Images) != 1 {
			t.Fatalf("row %d: %d images, %v", i, len(info.Images), err)
		}
		a, err := oracle.OracleAction()
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = geometryRow{question: q, image: info.Images[0], answer: a}
	}
	return rows
}

// A math:Geometry3K job end to end (issue 13's last item): every request
// carries the task's diagram as an image part whose decoded bytes are the
// dataset row's image, in place of the question's <image> marker; the
// policy answers from the image alone (it knows the answer of each image),
// so a right reward proves the image arrived; the rows record the image by
// reference (its sha256), never its bytes.
func TestLocalGeometry3KJob(t *testing.T) {
	rows := geometryRows(t)
	byImage := map[string]string{} // sha256 of a row's image → its answer
	for _, r := range rows {
		byImage[r.image.Ref().SHA256] = r.answer
	}
	var mu sync.Mutex
	var seen [][]openaitest.ContentPart // the question message's parts of every request
	policy := func(msgs []openaitest.Message) string {
		for _, m := range msgs {
			if m.Role != "user" || m.Images() == 0 {
				continue
			}
			mu.Lock()
			seen = append(seen, m.Parts)
			mu.Unlock()
			_, data, _ := strings.Cut(m.Parts[0].ImageURL.URL, ";base64,")
			raw, _ := base64.StdEncoding.DecodeString(data)
			sum := sha256.Sum256(raw)
			if a, ok := byImage[hex.EncodeToString(sum[:])]; ok {
				return "From the figure: " + a
			}
		}
		return `\boxed{0}`
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: geometry
seed: 5
envs: [{id: math:Geometry3K, options: {dataset: sample}}]
tasks: 6
samples_per_task: 2
batch_size: 6
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, system_prompt: "Answer in \\boxed{}.", sampling: {max_tokens: 64}}}
`)
	_, turns, eps := readShards(t, spec.Output, "geometry")
	if len(eps) != 12 || len(turns) != 12 || len(seen) != 12 {
		t.Fatalf("%d episodes, %d turns, %d requests with images; want 12 each", len(eps), len(turns), len(seen))
	}
	for _, e := range eps {
		if !e.Success || e.TotalReward != 1 {
			t.Errorf("episode %s (%s): success %v, reward %v", e.EpisodeID, e.TaskID, e.Success, e.TotalReward)
		}
	}
	for _, parts := range seen {
		if len(parts) != 2 || parts[0].Type != "image_url" || parts[1].Type != "text" {
			t.Fatalf("question parts %+v: want the image, then the text", parts)
		}
		row := rowOfQuestion(t, rows, parts[1].Text)
		_, data, _ := strings.Cut(parts[0].ImageURL.URL, "data:image/png;base64,")
		raw, err := base64.StdEncoding.DecodeString(data)
		if err != nil || !bytes.Equal(raw, row.image.Data) {
			t.Fatalf("image of %q: %d bytes (%v), want the row's %d-byte PNG", parts[1].Text, len(raw), err, len(row.image.Data))
		}
	}
	for _, tr := range turns {
		_, idx, _ := strings.Cut(tr.TaskID, "#")
		i, err := strconv.Atoi(idx)
		if err != nil || i >= len(rows) {
			t.Fatalf("task_id %q", tr.TaskID)
		}
		checkImageDelta(t, tr.PromptDelta, rows[i])
		if tr.GroundTruth == nil || `\boxed{`+*tr.GroundTruth+`}` != rows[i].answer {
			t.Errorf("turn of %s: ground truth %v, want %s", tr.TaskID, tr.GroundTruth, rows[i].answer)
		}
	}
}

func rowOfQuestion(t *testing.T, rows []geometryRow, text string) geometryRow {
	t.Helper()
	for _, r := range rows {
		if envs.ImageMarker+text == r.question {
			return r
		}
	}
	t.Fatalf("no row asks %q", text)
	return geometryRow{}
}

// checkImageDelta: a turn's prompt_delta is the system prompt and the
// question, its image by reference (the row's size and sha256), no bytes.
func checkImageDelta(t *testing.T, delta string, row geometryRow) {
	t.Helper()
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal([]byte(delta), &msgs); err != nil || len(msgs) != 2 || msgs[0].Role != "system" {
		t.Fatalf("prompt_delta %.200s (%v): want the system prompt and the question", delta, err)
	}
	var parts []struct {
		Type  string        `json:"type"`
		Text  string        `json:"text"`
		Image envs.ImageRef `json:"image"`
	}
	if err := json.Unmarshal(msgs[1].Content, &parts); err != nil || len(parts) != 2 {
		t.Fatalf("question content %.200s (%v): want an image part and a text part", msgs[1].Content, err)
	}
	if parts[0].Type != "image" || parts[0].Image != row.image.Ref() || envs.ImageMarker+parts[1].Text != row.question {
		t.Fatalf("recorded question %+v, want image %+v then %q", parts, row.image.Ref(), row.question)
	}
	if len(delta) > 2048 {
		t.Errorf("prompt_delta is %d bytes: images must not be stored in rows", len(delta))
	}
}

// Submission refuses a Geometry3K spec whose policy cannot send images,
// naming the field, before anything runs.
func TestGeometry3KRefusesTextPolicies(t *testing.T) {
	base := "job: g\nenvs: [{id: math:Geometry3K, options: {dataset: sample}}]\ntasks: 1\n"
	for field, policy := range map[string]string{
		"policy.openai.api":    "wrapper: last\npolicy: {kind: openai, openai: {endpoints: [\"http://127.0.0.1:1/v1\"], model: m, api: completions, template: qwen3_general}}\n",
		"policy.openai.tokens": "policy: {kind: openai, openai: {endpoints: [\"http://127.0.0.1:1/v1\"], model: m, tokens: exact}}\n",
	} {
		_, err := loadSpec(writeSpec(t, t.TempDir(), base+policy+"output: "+t.TempDir()+"\n"))
		if err == nil || !strings.Contains(err.Error(), field) || !strings.Contains(err.Error(), "shows images") {
			t.Errorf("%s: %v, want a refusal naming it", field, err)
		}
	}
}
