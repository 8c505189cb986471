package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

// GEM's game recipe (examples/train_oat: --prompt_template qwen3_game
// --wrappers concat, a raw completion) end to end: every request is a
// /v1/completions whose prompt is GEM's template around the concatenated
// observations, byte for byte; the rows record the prompt and the served
// ids.
func TestGEMGameRecipeOverCompletions(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	dir := t.TempDir()
	spec := writeSpec(t, dir, fmt.Sprintf(`
job: gem-game
seed: 3
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 2
samples_per_task: 2
wrapper: concat
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    api: completions
    template: qwen3_game
    sampling: {max_tokens: 64}
    extra_body: {return_token_ids: true}
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, filepath.Join(dir, "out")))
	out := submitLocal(t, dir, spec)
	if !strings.Contains(out, "complete") {
		t.Fatal(out)
	}
	if n := srv.ChatCount(); n != 0 {
		t.Errorf("%d chat requests: the recipe sends completions only", n)
	}
	const head = "<|im_start|>user\nYou are playing language games. Make valid actions to win.\nObservation: "
	const tail = "\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n<|im_start|>assistant\n"
	recs := srv.RecordsAt("/v1/completions")
	if len(recs) < 8 {
		t.Fatalf("%d completions", len(recs))
	}
	for _, r := range recs {
		body, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		p, _ := body["prompt"].(string)
		if body["max_tokens"] == float64(1) || (strings.HasPrefix(p, head) && strings.HasSuffix(p, tail)) {
			continue // the preflight's capability probes ask for one token
		}
		t.Fatalf("prompt %q: want GEM's qwen3_game text", p)
	}
	_, turns, eps := readShards(t, "file://"+filepath.Join(dir, "out"), "gem-game")
	if len(eps) != 4 {
		t.Fatalf("%d episodes", len(eps))
	}
	for _, e := range eps {
		if !e.Success {
			t.Errorf("episode %s did not win: bisecting GuessTheNumber always does", e.EpisodeID)
		}
	}
	for _, r := range turns {
		var delta []struct{ Content string }
		if err := json.Unmarshal([]byte(r.PromptDelta), &delta); err != nil || len(delta) != 1 || !strings.HasPrefix(delta[0].Content, head) {
			t.Fatalf("turn %s/%d prompt_delta %q: want the rendered template", r.EpisodeID, r.Turn, r.PromptDelta)
		}
		if r.Turn > 0 && !strings.Contains(delta[0].Content, "you guessed") {
			t.Errorf("turn %s/%d prompt lacks the concatenated history", r.EpisodeID, r.Turn)
		}
		if len(r.ResponseTokenIDs) == 0 || len(r.PromptTokenIDs) == 0 {
			t.Errorf("turn %s/%d has no served token ids", r.EpisodeID, r.Turn)
		}
	}
}
