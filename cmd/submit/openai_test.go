package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/workflows"
)

var hint = regexp.MustCompile(`you guessed (\d+), and the target number is (higher|lower)`)

// bisect is a scripted policy for GuessTheNumber-hard (1..50): it reads the
// hints in the conversation and guesses the middle of what is left, with a
// little reasoning text around the answer as a model would write.
func bisect(msgs []openaitest.Message) string {
	lo, hi := 1, 50
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		for _, h := range hint.FindAllStringSubmatch(m.Content, -1) {
			g, _ := strconv.Atoi(h[1])
			if h[2] == "higher" {
				lo = max(lo, g+1)
			} else {
				hi = min(hi, g-1)
			}
		}
	}
	if len(msgs) > 0 && strings.Contains(msgs[0].Content, "Calculate") {
		return "I am not sure. \\boxed{0}" // arithmetic: a wrong but well-formed answer
	}
	return "Let me bisect the range. My guess is \\boxed{" + strconv.Itoa((lo+hi)/2) + "}"
}

// An endpoint-policy job end to end: every turn is a real HTTP chat
// completion; the shards hold the served token ids and logprobs.
func TestLocalOpenAIEndToEnd(t *testing.T) { openAIEndToEnd(t) }

// The endpoint job again with the sticky cache off: every workflow task of
// the job, its batches and episodes replays from the start.
func TestLocalOpenAIEndToEndNoStickyCache(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	openAIEndToEnd(t)
}

func openAIEndToEnd(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, dir, `
job: llm
seed: 9
envs: [{id: game:GuessTheNumber-v0-hard}, {id: rg:basic_arithmetic, options: {difficulty: 1}}]
tasks: 4
samples_per_task: 8
batch_size: 32
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {temperature: 0.8, max_tokens: 64, logprobs: true}
    extra_body: {return_token_ids: true, top_k: 20}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "job llm complete: 32 episodes (0 failed)") || !strings.Contains(stdout.String(), "tokens: ") {
		t.Fatalf("summary:\n%s", stdout.String())
	}
	if *updateHistories {
		g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
		sess, err := manage(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		saveHistory(t, sess.client, "llm/b00000/e0000", "history_episode.json")
		sess.close()
	}
	_, turns, eps := readShards(t, "file://"+out, "llm")
	if len(eps) != 32 {
		t.Fatalf("%d episodes", len(eps))
	}
	groups := map[string][]float64{}
	for _, e := range eps {
		if e.EnvID == "game:GuessTheNumber-v0-hard" && !e.Success {
			t.Fatalf("the bisecting policy lost %s", e.EpisodeID)
		}
		if e.GroupSize != 8 || e.TokenSource != "served" || len(e.TokenIDs) == 0 || len(e.LossMask) != len(e.TokenIDs) {
			t.Fatalf("episode row %s: group %d, %q, %d ids, %d mask", e.EpisodeID, e.GroupSize, e.TokenSource, len(e.TokenIDs), len(e.LossMask))
		}
		groups[e.GroupID] = append(groups[e.GroupID], e.AdvantageGroup)
	}
	if len(groups) != 4 {
		t.Fatalf("%d groups, want 4", len(groups))
	}
	for id, adv := range groups {
		var sum float64
		for _, a := range adv {
			sum += a
		}
		if len(adv) != 8 || sum/8 > 1e-9 || sum/8 < -1e-9 {
			t.Fatalf("group %s: %d members, mean advantage_group %v", id, len(adv), sum/8)
		}
	}
	chats := completions(srv)
	if chats != len(turns) {
		t.Fatalf("%d chat completions served, %d turn rows: every accepted generation is one row", chats, len(turns))
	}
	served := map[string]bool{}
	for _, rec := range srv.ChatRecords() {
		if rec.Status == 200 {
			served[rec.ResponseID] = true
		}
	}
	rowOf := map[string]bool{}
	for _, r := range turns {
		if r.ResponseID == nil || !served[*r.ResponseID] || rowOf[*r.ResponseID] {
			t.Fatalf("turn %s/%d: response_id %v is not one response the server sent, or is on two rows", r.EpisodeID, r.Turn, r.ResponseID)
		}
		rowOf[*r.ResponseID] = true
		if r.TokenSource != "served" || r.PolicyModel != openaitest.DefaultModel {
			t.Fatalf("turn %s/%d: token source %q model %q", r.EpisodeID, r.Turn, r.TokenSource, r.PolicyModel)
		}
		if want := openaitest.Tokenize(r.Action); !slices.Equal(r.ResponseTokenIDs, want) {
			t.Fatalf("turn %s/%d: response ids %v, the server sent %v", r.EpisodeID, r.Turn, r.ResponseTokenIDs, want)
		}
		if len(r.ResponseLogprobs) != len(r.ResponseTokenIDs) {
			t.Fatalf("turn %s/%d: %d logprobs for %d tokens", r.EpisodeID, r.Turn, len(r.ResponseLogprobs), len(r.ResponseTokenIDs))
		}
		// The conversation only grows: after the first turn each request adds
		// one message, and the episode stays one token segment.
		if r.Turn > 0 && (strings.Count(r.PromptDelta, `"role"`) != 1 || r.Segment != 0) {
			t.Fatalf("turn %s/%d: delta %s in segment %d", r.EpisodeID, r.Turn, r.PromptDelta, r.Segment)
		}
		if !strings.Contains(r.SamplingParams, `"top_k":20`) {
			t.Fatalf("extra_body not recorded: %s", r.SamplingParams)
		}
	}
	// The extra body reached the server.
	rec, err := srv.ChatRecords()[0].JSON()
	if err != nil {
		t.Fatal(err)
	}
	if rec["top_k"] != float64(20) || rec["return_token_ids"] != true {
		t.Fatalf("request body %v", rec)
	}
}

func llmSpec(t *testing.T, dir, endpoint, model, extra string) string {
	return writeSpec(t, dir, `
job: llm-bad
envs: [{id: game:GuessTheNumber-v0-easy}]
tasks: 1
policy:
  kind: openai
  openai:
    endpoints: [`+endpoint+`]
    model: `+model+`
`+extra+`
output: `+filepath.Join(dir, "out")+`
`)
}

// Bad endpoints are refused before anything is submitted, each with a clear
// error; the key never appears in it.
func TestEndpointPreflightErrors(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithAPIKey("sk-right-key"))
	dir := t.TempDir()
	for _, tt := range []struct{ name, endpoint, model, key, want string }{
		{"unreachable", "http://127.0.0.1:1/v1", openaitest.DefaultModel, "sk-right-key", "127.0.0.1:1"},
		{"wrong model", srv.BaseURL(), "no-such-model", "sk-right-key", "no-such-model"},
		{"wrong key", srv.BaseURL(), openaitest.DefaultModel, "sk-wrong-key", "401"},
	} {
		t.Setenv("QUARRY_TEST_KEY", tt.key)
		spec := llmSpec(t, dir, tt.endpoint, tt.model, "    api_key_env: QUARRY_TEST_KEY")
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
		err := root.ExecuteContext(context.Background())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err %v, want it to mention %q", tt.name, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "sk-") || strings.Contains(stdout.String()+stderr.String(), "sk-") {
			t.Errorf("%s: the API key leaked into the output: %v", tt.name, err)
		}
	}
}

// A flaky endpoint (429 with Retry-After, 500s, dropped connections) still
// yields every episode exactly once, each turn built from the accepted
// response only.
func TestFlakyEndpoint(t *testing.T) {
	faults := []openaitest.Fault{openaitest.RateLimit(0), openaitest.ServerError(), openaitest.Drop()}
	srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithFaultFunc(func(seq int) openaitest.Fault {
		if seq%3 == 1 {
			return faults[(seq/3)%len(faults)]
		}
		return openaitest.Fault{}
	}))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	spec := writeSpec(t, dir, `
job: flaky
seed: 4
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 4
samples_per_task: 2
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    extra_body: {return_token_ids: true}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", filepath.Join(dir, "state"), spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	_, turns, eps := readShards(t, "file://"+out, "flaky")
	if len(eps) != 8 {
		t.Fatalf("%d episodes, want 8", len(eps))
	}
	faulted := 0
	for _, r := range srv.ChatRecords() {
		if r.Fault != "" {
			faulted++
		}
	}
	ok := completions(srv)
	if faulted == 0 {
		t.Fatal("no fault was injected")
	}
	if ok != len(turns) {
		t.Fatalf("%d successful completions but %d turn rows (%d faults): a response was recorded twice or lost", ok, len(turns), faulted)
	}
	for _, e := range eps {
		if !e.Success {
			t.Fatalf("%s lost", e.EpisodeID)
		}
	}
}

// completions counts the chat completions served successfully, leaving out
// injected faults and the submit-time preflight probe (max_tokens 1).
func completions(srv *openaitest.Server) int {
	n := 0
	for _, r := range srv.ChatRecords() {
		body, _ := r.JSON()
		if r.Fault == "" && body["max_tokens"] != float64(1) {
			n++
		}
	}
	return n
}

// maxConcurrent is the most chat completions the server was serving at once.
func maxConcurrent(srv *openaitest.Server) int {
	recs := srv.ChatRecords()
	most := 0
	for _, r := range recs {
		n := 0
		for _, o := range recs {
			if !o.Received.After(r.Received) && (o.Done.IsZero() || o.Done.After(r.Received)) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// A running local job is managed from a second command: set-in-flight raises
// its limits (the endpoint sees more requests at once), and status reports
// tokens. Episodes that outgrow the model's context end truncated, with their
// last turn row marked so.
func TestManageRunningJobAndContextLimit(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithLatency(150*time.Millisecond), openaitest.WithMaxModelLen(170),
		openaitest.WithPolicy(func([]openaitest.Message) string { return "Is it one? \\boxed{1}" }))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	path := writeSpec(t, dir, `
job: managed
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 4
samples_per_task: 2
batch_size: 4
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {max_tokens: 16}
in_flight: {batches: 1, episodes: 1}
output: `+out+`
`)
	state := filepath.Join(dir, "state")
	ctx := context.Background()
	sess, _, run := startLocalJob(t, path, state)
	defer sess.close()
	cli := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		root := newRoot(&stdout, &stderr)
		root.SetArgs(append([]string{"--local", "--state-dir", state}, args...))
		if err := root.ExecuteContext(ctx); err != nil {
			t.Fatalf("submit %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String()
	}
	// The state dir is served by this process: the commands attach to it.
	// Limits the spec could not run with are refused before any signal,
	// naming the field, as at submission.
	var refusedOut bytes.Buffer
	refuse := newRoot(&refusedOut, &refusedOut)
	refuse.SetArgs([]string{"--local", "--state-dir", state, "set-in-flight", "managed", "--episodes", "100000"})
	if err := refuse.ExecuteContext(ctx); err == nil || !strings.Contains(err.Error(), "in_flight.episodes") {
		t.Fatalf("set-in-flight --episodes 100000: %v\n%s", err, refusedOut.String())
	}
	if got := cli("set-in-flight", "managed", "--batches", "2", "--episodes", "4"); !strings.Contains(got, "in-flight limits sent") {
		t.Fatalf("set-in-flight: %s", got)
	}
	if got := cli("status", "managed"); !strings.Contains(got, "job managed: Running") {
		t.Fatalf("status of the running job:\n%s", got)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if n := maxConcurrent(srv); n < 3 || n > 5 {
		t.Fatalf("at most %d requests at once; want 3..5 after raising the limits to 2 batches × 4 episodes", n)
	}
	status := cli("status", "managed")
	var prompt, response int
	if _, err := fmt.Sscanf(status[strings.Index(status, "tokens"):], "tokens   %d prompt, %d response", &prompt, &response); err != nil {
		t.Fatalf("status has no token line: %v\n%s", err, status)
	}
	var usage [2]int
	for _, r := range srv.ChatRecords() {
		if r.Status != 200 {
			continue
		}
		var body struct {
			Usage struct {
				Prompt     int `json:"prompt_tokens"`
				Completion int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(r.Response, &body); err != nil {
			t.Fatal(err)
		}
		usage[0] += body.Usage.Prompt
		usage[1] += body.Usage.Completion
	}
	if prompt != usage[0] || response != usage[1] {
		t.Fatalf("status reports %d/%d tokens, the server sent usage %v\n%s", prompt, response, usage, status)
	}
	_, turns, eps := readShards(t, "file://"+out, "managed")
	if len(eps) != 8 {
		t.Fatalf("%d episodes", len(eps))
	}
	cut := 0
	for _, e := range eps {
		if e.StopReason != "context" {
			continue
		}
		cut++
		if !e.Truncated || e.Terminated {
			t.Fatalf("episode %s stopped by the context: truncated %v terminated %v", e.EpisodeID, e.Truncated, e.Terminated)
		}
		last := -1
		for i, r := range turns {
			if r.EpisodeID == e.EpisodeID && (last < 0 || r.Turn > turns[last].Turn) {
				last = i
			}
		}
		if !turns[last].Truncated {
			t.Fatalf("episode %s: last turn %d not marked truncated", e.EpisodeID, turns[last].Turn)
		}
		t.Logf("episode %s: %d turns before the context ran out", e.EpisodeID, e.NumTurns)
	}
	if cut == 0 {
		t.Fatal("no episode ran out of context")
	}
}

// With two workers, on the per-turn path (episode.activities: turn, as
// online jobs run) each episode's Generate is dispatched eagerly to the
// worker whose workflow task just ran its Act, so no session is rebuilt from
// the turn log; the control run with eager dispatch off shows the rebuilds
// that saves (Generates land on either worker). On the default path an
// episode's turns stay inside one PlayTurns activity: no rebuild even
// without eager dispatch.
func TestEpisodeAffinity(t *testing.T) {
	for _, c := range []struct {
		eager   bool
		perTurn bool
	}{{true, true}, {false, true}, {false, false}} {
		eager := c.eager
		activitiesMode := schema.ActivitiesEpisode
		if c.perTurn {
			activitiesMode = schema.ActivitiesTurn
		}
		t.Run(fmt.Sprintf("eager=%v,activities=%s", eager, activitiesMode), func(t *testing.T) {
			srv := openaitest.Start(t, openaitest.WithPolicy(bisect), openaitest.WithLatency(5*time.Millisecond))
			dir := t.TempDir()
			spec, err := loadSpec(writeSpec(t, dir, `
job: affine
seed: 4
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 4
samples_per_task: 4
batch_size: 16
episode: {activities: `+activitiesMode+`}
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
output: `+filepath.Join(dir, "out")+`
`))
			if err != nil {
				t.Fatal(err)
			}
			g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
			ctx := context.Background()
			sess, err := manage(ctx, g) // the server alone: the test runs two workers
			if err != nil {
				t.Fatal(err)
			}
			defer sess.close()
			reg, err := catalog.New()
			if err != nil {
				t.Fatal(err)
			}
			var acts [2]*activities.Activities
			for i := range acts {
				acts[i] = &activities.Activities{Envs: reg, Stores: &activities.Stores{}}
				w := workflows.NewWorkers(sess.client, g.queue, acts[i], worker.Options{DisableEagerActivities: !eager}, workflows.AllRoles)
				if err := w.Start(); err != nil {
					t.Fatal(err)
				}
				defer w.Stop()
			}
			run, _, err := startOrAttach(ctx, sess.client, g.queue, spec)
			if err != nil {
				t.Fatal(err)
			}
			if err := run.Get(ctx, nil); err != nil {
				t.Fatal(err)
			}
			_, turns, _ := readShards(t, spec.Output, "affine")
			replays := acts[0].SessionReplays() + acts[1].SessionReplays()
			t.Logf("%d turns, %d sessions rebuilt from the turn log", len(turns), replays)
			// With eager dispatch a rebuild happens only when a workflow moves
			// to the other worker (a sticky task timing out under load): rare.
			// Without it about half the Generates land on the wrong worker.
			if eager && replays > int64(len(turns)/20) {
				t.Fatalf("%d sessions rebuilt for %d turns with eager dispatch, want almost none", replays, len(turns))
			}
			if !eager && c.perTurn && replays < int64(len(turns)/8) {
				t.Fatalf("control run without eager dispatch rebuilt %d sessions for %d turns: the test does not exercise two workers", replays, len(turns))
			}
			if !c.perTurn && replays != 0 {
				t.Fatalf("%d sessions rebuilt for %d turns played inside PlayTurns, want none", replays, len(turns))
			}
		})
	}
}
