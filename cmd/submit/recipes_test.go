package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
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
	bodies := jobCompletions(t, srv)
	if len(bodies) < 6 {
		t.Fatalf("%d completions", len(bodies))
	}
	for _, body := range bodies {
		if p, _ := body["prompt"].(string); !strings.HasPrefix(p, head) || !strings.HasSuffix(p, tail) {
			t.Fatalf("prompt %q: want GEM's qwen3_game text", p)
		}
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

// walker guesses one above the highest "higher" hint: a long game.
func walker(msgs []openaitest.Message) string {
	lo := 0
	for _, m := range msgs {
		for _, h := range hint.FindAllStringSubmatch(m.Content, -1) {
			if g, _ := strconv.Atoi(h[1]); h[2] == "higher" {
				lo = max(lo, g)
			}
		}
	}
	return "Step up. \\boxed{" + strconv.Itoa(lo+1) + "}"
}

// exactJob runs a GuessTheNumber job of 20-turn episodes in tokens: exact
// mode with the given policy lines, and returns the server and the rows.
func exactJob(t *testing.T, policy string, opts ...openaitest.Option) (*openaitest.Server, []schema.TurnRow, []schema.EpisodeRow) {
	t.Helper()
	srv := openaitest.Start(t, append([]openaitest.Option{openaitest.WithPolicy(walker)}, opts...)...)
	dir := t.TempDir()
	spec := writeSpec(t, dir, fmt.Sprintf(`
job: exact
seed: 9
envs: [{id: game:GuessTheNumber-v0-hard, options: {max_number: 1000, max_turns: 20}}]
tasks: 2
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    tokens: exact
    sampling: {max_tokens: 32, logprobs: true}
%s
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, policy, filepath.Join(dir, "out")))
	submitLocal(t, dir, spec)
	_, turns, eps := readShards(t, "file://"+filepath.Join(dir, "out"), "exact")
	return srv, turns, eps
}

// jobCompletions are the bodies of the job's completion requests: all but
// the preflight's capability probes, which ask for one token.
func jobCompletions(t *testing.T, srv *openaitest.Server) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range srv.RecordsAt("/v1/completions") {
		body, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if body["max_tokens"] != float64(1) {
			out = append(out, body)
		}
	}
	return out
}

// sentPrompts are the token-id prompts of the job's completions.
func sentPrompts(t *testing.T, srv *openaitest.Server) [][]int32 {
	t.Helper()
	var out [][]int32
	for _, body := range jobCompletions(t, srv) {
		list, ok := body["prompt"].([]any)
		if !ok {
			continue
		}
		ids := make([]int32, len(list))
		for i, v := range list {
			ids[i] = int32(v.(float64))
		}
		out = append(out, ids)
	}
	return out
}

// Token-in/token-out with the chat form over a 20-turn game: every request
// is a token-id prompt; an episode is one segment whose turns' ids,
// concatenated, are exactly the last request's prompt and response; no
// tokenisation ever included an earlier response.
func TestExactTokensChatForm(t *testing.T) {
	srv, turns, eps := exactJob(t, "")
	checkExactChat(t, srv, turns, eps)
}

// The same when the served ids end with the end-of-turn token the server
// stopped on (vLLM's EOS in token_ids): the template's closing is bridged
// after it, not repeated.
func TestExactTokensChatFormServedEOS(t *testing.T) {
	srv, turns, eps := exactJob(t, "", openaitest.WithEOSInTokenIDs())
	checkExactChat(t, srv, turns, eps)
	ends := 0
	for _, r := range turns {
		if n := len(r.ResponseTokenIDs); n > 0 && r.ResponseTokenIDs[n-1] == openaitest.BPEIMEnd {
			ends++
		}
	}
	if ends == 0 {
		t.Fatal("no served response ended with <|im_end|>")
	}
}

// checkExactChat asserts token-in/token-out's exactness for chat-form
// episodes (TestExactTokensChatForm).
func checkExactChat(t *testing.T, srv *openaitest.Server, turns []schema.TurnRow, eps []schema.EpisodeRow) {
	t.Helper()
	for _, r := range srv.ChatRecords() {
		if body, _ := r.JSON(); body["max_tokens"] != float64(1) {
			t.Errorf("a chat completion %v: exact mode sends token ids to /v1/completions (only the preflight probes chat)", body)
		}
	}
	sent := sentPrompts(t, srv)
	byEp := map[string][]schema.TurnRow{}
	for _, r := range turns {
		byEp[r.EpisodeID] = append(byEp[r.EpisodeID], r)
	}
	long := 0
	for _, e := range eps {
		rows := byEp[e.EpisodeID]
		if len(rows) >= 10 {
			long++
		}
		var seq []int32
		for _, r := range rows {
			if r.Segment != 0 {
				t.Fatalf("episode %s turn %d in segment %d: the chat form extends one sequence", e.EpisodeID, r.Turn, r.Segment)
			}
			seq = append(seq, r.PromptTokenIDs...)
			if r.Turn == rows[len(rows)-1].Turn {
				found := false
				for _, p := range sent {
					found = found || slices.Equal(p, seq)
				}
				if !found {
					t.Errorf("episode %s: the turns' ids up to the last prompt were never sent as one request", e.EpisodeID)
				}
			}
			seq = append(seq, r.ResponseTokenIDs...)
		}
		if !slices.Equal(seq, e.TokenIDs) {
			t.Errorf("episode %s: turns concatenate to %d ids, the episode row holds %d", e.EpisodeID, len(seq), len(e.TokenIDs))
		}
		for i := 1; i < len(seq); i++ {
			if seq[i] == openaitest.BPEIMEnd && seq[i-1] == openaitest.BPEIMEnd {
				t.Fatalf("episode %s: <|im_end|> twice in a row at %d: the closing was repeated", e.EpisodeID, i)
			}
		}
	}
	if long == 0 {
		t.Fatalf("no episode reached 10 turns (%d turns in all)", len(turns))
	}
	for _, r := range srv.RecordsAt("/tokenize") {
		body, _ := r.JSON()
		msgs, _ := body["messages"].([]any)
		for _, m := range msgs {
			mm, _ := m.(map[string]any)
			if mm["role"] == "assistant" && mm["content"] != "x" {
				t.Fatalf("a tokenize request re-tokenised a response: %v", body)
			}
		}
	}
}

// GEM's game recipe in token-in/token-out mode: qwen3_game re-wraps the
// whole history each turn, so every turn is a segment of its own, tokenised
// once and sent as ids; the rows hold exactly the ids sent.
func TestExactTokensGEMGameRecipe(t *testing.T) {
	srv, turns, eps := exactJob(t, "    api: completions\n    template: qwen3_game\nwrapper: concat")
	sent := sentPrompts(t, srv)
	for _, r := range turns {
		if int(r.Segment) != int(r.Turn) {
			t.Errorf("episode %s turn %d in segment %d: each re-wrapped prompt starts a segment", r.EpisodeID, r.Turn, r.Segment)
		}
		if !slices.ContainsFunc(sent, func(p []int32) bool { return slices.Equal(p, r.PromptTokenIDs) }) {
			t.Errorf("episode %s turn %d: its prompt ids were never sent", r.EpisodeID, r.Turn)
		}
	}
	for _, e := range eps {
		if int(e.NumSegments) != int(e.NumTurns) || e.NumTurns < 2 {
			t.Errorf("episode %s: %d segments over %d turns", e.EpisodeID, e.NumSegments, e.NumTurns)
		}
	}
}

// A tool-using math episode in token-in/token-out mode (chat form, text
// tags): the tool's result is tokenised alone and appended; the episode is
// one segment; its turns concatenate to the last request's ids.
func TestExactTokensToolEpisode(t *testing.T) {
	policy := func(msgs []openaitest.Message) string {
		if last := msgs[len(msgs)-1]; strings.Contains(last.Content, "<interpreter>") || last.Role == "tool" {
			if m := codeResult.FindStringSubmatch(last.Content); m != nil {
				return "So the answer is \\boxed{" + m[1] + "}"
			}
		}
		return "Let me compute it.\n<python>\nprint(6*7)\n</python>"
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	dir := t.TempDir()
	spec := writeSpec(t, dir, fmt.Sprintf(`
job: exact-tool
seed: 4
envs: [{id: math:GSM8K, options: {dataset: sample}}]
tasks: 2
policy:
  kind: openai
  openai: {endpoints: ["%s"], model: %s, tokens: exact, sampling: {max_tokens: 64}}
tools: {preset: python_tool}
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, filepath.Join(dir, "out")))
	submitLocal(t, dir, spec)
	_, turns, eps := readShards(t, "file://"+filepath.Join(dir, "out"), "exact-tool")
	sent := sentPrompts(t, srv)
	tools := 0
	for _, e := range eps {
		var seq []int32
		for _, r := range turns {
			if r.EpisodeID != e.EpisodeID {
				continue
			}
			if r.ToolName != nil {
				tools++
			}
			if r.Segment != 0 {
				t.Fatalf("episode %s turn %d in segment %d", e.EpisodeID, r.Turn, r.Segment)
			}
			seq = append(seq, r.PromptTokenIDs...)
			if !slices.ContainsFunc(sent, func(p []int32) bool { return slices.Equal(p, seq) }) {
				t.Errorf("episode %s turn %d: the ids so far were never one request", e.EpisodeID, r.Turn)
			}
			seq = append(seq, r.ResponseTokenIDs...)
		}
		if !slices.Equal(seq, e.TokenIDs) {
			t.Errorf("episode %s: turns concatenate to %d ids, the row holds %d", e.EpisodeID, len(seq), len(e.TokenIDs))
		}
	}
	if tools == 0 {
		t.Fatal("no tool turn was played")
	}
}

// The preflight learns what an endpoint serves and refuses, before anything
// is submitted, a spec that needs what it lacks, naming the field.
func TestPreflightRefusesWhatTheEndpointLacks(t *testing.T) {
	for _, c := range []struct {
		name   string
		opt    openaitest.Option
		policy string
		field  string
	}{
		{"no completions", openaitest.WithoutCompletions(), "    api: completions\n    template: qwen3_game\nwrapper: concat", "policy.openai.api"},
		{"no tokenize", openaitest.WithoutTokenize(), "    tokens: exact", "policy.openai.tokens"},
		{"no token prompts", openaitest.WithoutTokenPrompts(), "    tokens: exact", "policy.openai.tokens"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := openaitest.Start(t, c.opt)
			dir := t.TempDir()
			_, err := dryRun(t, dir, fmt.Sprintf(`
job: lacks
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 1
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
%s
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, c.policy, filepath.Join(dir, "out")))
			if err == nil || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("err %v: want a refusal naming %s", err, c.field)
			}
		})
	}
}

// concat_chat_on_reset is refused before submission until workers can fetch
// the model's chat template, never failed at the first prompt.
func TestConcatChatOnResetRefusedBeforeSubmission(t *testing.T) {
	dir := t.TempDir()
	_, err := dryRun(t, dir, `
job: reset
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 1
wrapper: concat_chat_on_reset
policy: {kind: oracle}
output: `+filepath.Join(dir, "out")+`
`)
	if err == nil || !strings.Contains(err.Error(), "wrapper: concat_chat_on_reset") {
		t.Fatalf("err %v: want a refusal naming wrapper", err)
	}
}

// concat_chat_on_reset (GEM) renders the reset observation with the served
// model's chat template, learnt from the server, then concatenates the
// responses and observations after it.
func TestConcatChatOnResetUsesTheServedTemplate(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	dir := t.TempDir()
	spec := writeSpec(t, dir, fmt.Sprintf(`
job: on-reset
seed: 2
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 1
wrapper: concat_chat_on_reset
policy:
  kind: openai
  openai:
    endpoints: [%s]
    model: %s
    api: completions
    template: "no"
    sampling: {max_tokens: 64}
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, filepath.Join(dir, "out")))
	submitLocal(t, dir, spec)
	var prompts []string
	for _, body := range jobCompletions(t, srv) {
		if p, ok := body["prompt"].(string); ok {
			prompts = append(prompts, p)
		}
	}
	if len(prompts) < 2 {
		t.Fatalf("%d completions", len(prompts))
	}
	for i, p := range prompts {
		head, rest, ok := strings.Cut(p, "<|im_end|>\n<|im_start|>assistant\n")
		if !strings.HasPrefix(p, "<|im_start|>user\n") || !ok || strings.Contains(head, "you guessed") {
			t.Fatalf("prompt %d %q: want the reset observation in ChatML, then the rest", i, p)
		}
		if i > 0 && !strings.Contains(rest, "you guessed") {
			t.Errorf("prompt %d lacks the concatenated turns after the templated reset: %q", i, p)
		}
	}
}

// An endpoint without /tokenize cannot give concat_chat_on_reset its
// template: refused before submission, naming the wrapper.
func TestConcatChatOnResetNeedsTokenize(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithoutTokenize())
	dir := t.TempDir()
	_, err := dryRun(t, dir, fmt.Sprintf(`
job: on-reset
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 1
wrapper: concat_chat_on_reset
policy: {kind: openai, openai: {endpoints: ["%s"], model: %s}}
output: %s
`, srv.BaseURL(), openaitest.DefaultModel, filepath.Join(dir, "out")))
	if err == nil || !strings.Contains(err.Error(), "wrapper: concat_chat_on_reset") || !strings.Contains(err.Error(), "/tokenize") {
		t.Fatalf("err %v: want a refusal naming the wrapper and /tokenize", err)
	}
}
