package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/proto"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

const (
	longTurns     = 300
	longWords     = 2000
	longStart     = 50_000
	maxEventBytes = 32 << 10
)

var lastHint = regexp.MustCompile(`At turn (\d+), you guessed (\d+), and the target number is (higher|lower) than`)

// walkAway is a scripted policy for GuessTheNumber over 1..100000 that never
// wins and never makes an illegal move: it opens with longStart, then steps
// away from the target one number at a time (down when the target is higher,
// up when it is lower), so every guess is in range, new and wrong. Each reply
// is ~2,000 words of reasoning before the answer. It reads the last hint from
// the prompt ("last" wrapper: the prompt is the latest observation), so a turn
// built from the wrong observation shows as an illegal (repeated) guess.
func walkAway() openaitest.Policy {
	words := make([]string, longWords)
	for i := range words {
		words[i] = "thought" + strconv.Itoa(i%500)
	}
	reasoning := strings.Join(words, " ")
	return func(msgs []openaitest.Message) string {
		guess := longStart
		if m := lastHint.FindStringSubmatch(msgs[len(msgs)-1].Content); m != nil {
			g, _ := strconv.Atoi(m[2])
			if m[3] == "higher" {
				guess = g - 1
			} else {
				guess = g + 1
			}
		} else if !strings.Contains(msgs[len(msgs)-1].Content, "Enter your first guess") {
			return openaitest.DefaultReply // submit's preflight probe
		}
		return reasoning + ` so my guess is \boxed{` + strconv.Itoa(guess) + `}`
	}
}

// runHistory is one episode run's history and what it holds.
type runHistory struct {
	runID  string
	events []*historypb.HistoryEvent
	bytes  int
	turns  int // Generate activities scheduled
	// perTurn[k] is the bytes of the events from the run's k-th Generate
	// scheduled event to the next (the last one includes the run's end).
	perTurn []int
}

// episodeRuns fetches every run of a workflow id, first run first, following
// the chain of continued-as-new runs back from the latest.
func episodeRuns(t *testing.T, c client.Client, id string) []runHistory {
	t.Helper()
	ctx := context.Background()
	desc, err := c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	var runs []runHistory
	for runID := desc.GetWorkflowExecutionInfo().GetExecution().GetRunId(); runID != ""; {
		r := runHistory{runID: runID}
		it := c.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			n := proto.Size(ev)
			r.events = append(r.events, ev)
			r.bytes += n
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.GenerateName {
				r.turns++
				r.perTurn = append(r.perTurn, 0)
			}
			if len(r.perTurn) > 0 {
				r.perTurn[len(r.perTurn)-1] += n
			}
		}
		if len(r.events) == 0 {
			t.Fatalf("run %s has no events", runID)
		}
		runs = append(runs, r)
		runID = r.events[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId()
	}
	slices.Reverse(runs)
	return runs
}

// The history bound of the per-turn path (episode.activities: turn, as
// online jobs run): a 300-turn episode whose every response is 2,000 tokens
// with ids and logprobs completes; its history holds refs and counters only
// (no event near Temporal's limits, the same cost per turn in every run), and
// it continues as new rather than growing one history without bound.
func TestLongEpisodeHistoryBound(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(walkAway()))
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	state := filepath.Join(dir, "state")
	spec := writeSpec(t, dir, `
job: long
seed: 21
envs: [{id: game:GuessTheNumber-v0-easy, options: {min_number: 1, max_number: 100000, max_turns: `+strconv.Itoa(longTurns)+`}}]
tasks: 1
wrapper: last
episode: {activities: turn}
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {max_tokens: 2100, logprobs: true}
    extra_body: {return_token_ids: true}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", state, spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if want := fmt.Sprintf("job long complete: 1 episodes (0 failed), %d turns", longTurns); !strings.Contains(stdout.String(), want) {
		t.Fatalf("summary:\n%s", stdout.String())
	}

	// The output: 300 turn rows, each with the 2,000+ ids and logprobs the
	// server sent for that very response.
	_, turns, eps := readShards(t, "file://"+out, "long")
	if len(eps) != 1 || eps[0].NumTurns != longTurns || eps[0].Success || !eps[0].Truncated {
		t.Fatalf("episodes: %+v", eps)
	}
	sent := map[string][]int32{} // response text → token ids as served
	for _, r := range srv.ChatRecords() {
		var resp struct {
			Choices []struct {
				Message  struct{ Content string } `json:"message"`
				TokenIDs []int32                  `json:"token_ids"`
			} `json:"choices"`
		}
		if r.Status == 200 && json.Unmarshal(r.Response, &resp) == nil && len(resp.Choices) == 1 {
			sent[resp.Choices[0].Message.Content] = resp.Choices[0].TokenIDs
		}
	}
	if len(turns) != longTurns {
		t.Fatalf("%d turn rows, want %d", len(turns), longTurns)
	}
	for i, r := range turns {
		if r.Turn != int32(i) {
			t.Fatalf("row %d is turn %d", i, r.Turn)
		}
		ids, ok := sent[r.Action]
		if !ok {
			t.Fatalf("turn %d: action was never served: %.80q", i, r.Action)
		}
		if len(r.ResponseTokenIDs) < longWords || !slices.Equal(r.ResponseTokenIDs, ids) {
			t.Fatalf("turn %d: %d response ids, not the %d the server sent", i, len(r.ResponseTokenIDs), len(ids))
		}
		if len(r.ResponseLogprobs) != len(ids) {
			t.Fatalf("turn %d: %d logprobs for %d tokens", i, len(r.ResponseLogprobs), len(ids))
		}
		for k, id := range ids {
			if r.ResponseLogprobs[k] != float32(openaitest.Logprob(id, k)) {
				t.Fatalf("turn %d token %d: logprob %v, served %v", i, k, r.ResponseLogprobs[k], openaitest.Logprob(id, k))
			}
		}
		if r.ErrorClass != nil || (i < longTurns-1 && (r.Terminated || r.Truncated)) {
			t.Fatalf("turn %d: error class %v, terminated %v, truncated %v: the policy's guesses must stay legal and wrong", i, r.ErrorClass, r.Terminated, r.Truncated)
		}
	}

	// The histories: reopen the embedded server on the same state.
	sess, _ := localWorker(t, state)
	defer sess.close()
	runs := episodeRuns(t, sess.client, schema.EpisodeID("long", 0, 0))
	if len(runs) < 2 {
		t.Fatalf("the %d-turn episode ran in %d run(s): it never continued as new", longTurns, len(runs))
	}
	total, largest := 0, 0
	for i, r := range runs {
		last := r.events[len(r.events)-1]
		wantEnd := enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
		if i == len(runs)-1 {
			wantEnd = enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED
		}
		if last.GetEventType() != wantEnd {
			t.Fatalf("run %d (%s) ends with %v, want %v", i, r.runID, last.GetEventType(), wantEnd)
		}
		for _, ev := range r.events {
			if n := proto.Size(ev); n > largest {
				largest = n
			}
		}
		total += r.turns
		t.Logf("run %d: %d turns, %d events, %d bytes (%.1f events, %.0f bytes per turn)",
			i, r.turns, len(r.events), r.bytes, float64(len(r.events))/float64(r.turns), float64(r.bytes)/float64(r.turns))
	}
	t.Logf("largest event: %d bytes", largest)
	if total != longTurns {
		t.Fatalf("the runs scheduled %d generations, want %d", total, longTurns)
	}
	if largest >= maxEventBytes {
		t.Fatalf("largest history event is %d bytes, want under %d", largest, maxEventBytes)
	}
	// Linear growth: every run costs the same per turn, in events and in
	// bytes, and a turn costs far less than one response (2,000 ids and
	// logprobs would be ~20 KB): the history holds refs, not data.
	first := runs[0]
	for i, r := range runs {
		if r.turns == 0 {
			t.Fatalf("run %d played no turn", i)
		}
		ePer := float64(len(r.events)) / float64(r.turns)
		e0 := float64(len(first.events)) / float64(first.turns)
		bPer := float64(r.bytes) / float64(r.turns)
		b0 := float64(first.bytes) / float64(first.turns)
		if ePer > 1.1*e0 || ePer < e0/1.1 {
			t.Errorf("run %d: %.2f events per turn, run 0 %.2f: history is not linear in turns", i, ePer, e0)
		}
		if bPer > 1.25*b0 || bPer < b0/1.25 {
			t.Errorf("run %d: %.0f bytes per turn, run 0 %.0f: history is not linear in turns", i, bPer, b0)
		}
		// Within a run too: a turn late in the run costs what an early one did.
		if len(r.perTurn) > 21 {
			early, late := meanBytes(r.perTurn[:10]), meanBytes(r.perTurn[len(r.perTurn)-11:len(r.perTurn)-1])
			if late > 1.25*early {
				t.Errorf("run %d: the last turns cost %.0f bytes each, the first %.0f: history grows faster than the turns", i, late, early)
			}
		}
		if bPer > 8<<10 {
			t.Errorf("run %d: %.0f history bytes per turn: turn data is leaking into the history", i, bPer)
		}
	}
}

// With the default episode.activities, an episode's turns run in PlayTurns
// activities: a 200-turn episode's history holds a handful of events, the
// same as a short one's, and no Generate; the rows are all there.
func TestPlayTurnsHistoryIsConstant(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(walkAway()))
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out"), filepath.Join(dir, "state")
	const turns = 200
	spec := writeSpec(t, dir, `
job: plays
seed: 21
envs: [{id: game:GuessTheNumber-v0-easy, options: {min_number: 1, max_number: 100000, max_turns: `+strconv.Itoa(turns)+`}}]
tasks: 1
wrapper: last
policy: {kind: openai, openai: {endpoints: ['`+srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`}}
output: `+out+`
`)
	var stdout, stderr bytes.Buffer
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--local", "--state-dir", state, spec})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	if want := fmt.Sprintf("1 episodes (0 failed), %d turns", turns); !strings.Contains(stdout.String(), want) {
		t.Fatalf("summary:\n%s", stdout.String())
	}
	if _, rows, _ := readShards(t, "file://"+out, "plays"); len(rows) != turns {
		t.Fatalf("%d turn rows, want %d", len(rows), turns)
	}
	sess, _ := localWorker(t, state)
	defer sess.close()
	runs := episodeRuns(t, sess.client, schema.EpisodeID("plays", 0, 0))
	events, bytes, plays := 0, 0, 0
	for _, r := range runs {
		if r.turns != 0 {
			t.Fatalf("run %s scheduled %d Generate activities; want PlayTurns only", r.runID, r.turns)
		}
		events += len(r.events)
		bytes += r.bytes
		for _, ev := range r.events {
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.PlayTurnsName {
				plays++
			}
		}
	}
	t.Logf("%d turns: %d run(s), %d PlayTurns, %d events, %d bytes", turns, len(runs), plays, events, bytes)
	if len(runs) != 1 || plays != 1 || events > 20 || bytes > 32<<10 {
		t.Fatalf("%d turns took %d run(s), %d PlayTurns, %d events, %d bytes; want one run, one PlayTurns, at most 20 events and 32 KiB", turns, len(runs), plays, events, bytes)
	}
}

func meanBytes(xs []int) float64 {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}
