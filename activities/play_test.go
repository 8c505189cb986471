package activities

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// playEnv runs PlayTurns for a one-episode GuessTheNumber job against srv.
func playEnv(t *testing.T, srv *openaitest.Server, extra string) (*Activities, *testsuite.TestActivityEnvironment, EpisodeRef) {
	t.Helper()
	a, ep := endpointEpisode(t, srv, extra, "")
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.PlayTurns)
	return a, env, ep
}

func play(t *testing.T, a *Activities, env *testsuite.TestActivityEnvironment, in PlayInput) PlayResult {
	t.Helper()
	v, err := env.ExecuteActivity(a.PlayTurns, in)
	if err != nil {
		t.Fatal(err)
	}
	var res PlayResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

// One PlayTurns run plays an episode to its end, writing every turn to the
// turn log as a chain the shard writer reads; a zero slice plays one turn
// and hands back the head, from which the next run goes on.
func TestPlayTurns(t *testing.T) {
	var asked int
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string {
		asked++
		return "\\boxed{" + []string{"500", "250", "750", "125"}[asked%4] + "}"
	}))
	a, env, ep := playEnv(t, srv, "max_turns: 6, ")
	one := play(t, a, env, PlayInput{Episode: ep, Slice: 0})
	if one.Turn != 1 || one.Head == nil || one.Done || one.Tool != "" {
		t.Fatalf("a zero slice: turn %d, head %v, done %v; want one turn played", one.Turn, one.Head, one.Done)
	}
	rest := play(t, a, env, PlayInput{Episode: ep, Turn: one.Turn, Head: one.Head, Slice: time.Minute})
	if !rest.Done || rest.Turn != 6 || rest.StopReason != schema.StopMaxTurns {
		t.Fatalf("the rest: turn %d, done %v, stop %q; want the episode ended by max_turns at 6", rest.Turn, rest.Done, rest.StopReason)
	}
	if asked != 6 || rest.PromptTokens == 0 || rest.ResponseTokens == 0 {
		t.Fatalf("%d requests, %d/%d tokens; want 6 requests with their token counts", asked, rest.PromptTokens, rest.ResponseTokens)
	}
	store, err := blob.Open(context.Background(), ep.Spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	turns, err := turnlog.ReadEpisode(context.Background(), store, *rest.Head)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 6 || turns[0].Gen.Turn != 0 || !turns[5].Act.Truncated {
		t.Fatalf("the turn log holds %d turns; want the 6 played, the last truncated", len(turns))
	}
	// One object a turn: each act record carries its generate record.
	dir := filepath.Join(strings.TrimPrefix(ep.Spec.Output, "file://"), ep.Spec.Job, "_turns", "b00000", "e0000")
	if objs, err := os.ReadDir(dir); err != nil || len(objs) != 6 {
		t.Fatalf("%d objects in %s (%v); want 6, one a turn", len(objs), dir, err)
	}
	var sum float64
	for _, tr := range turns[1:] {
		sum += tr.Act.Reward
	}
	if sum != rest.Reward {
		t.Fatalf("the second run's reward %v, its records' %v", rest.Reward, sum)
	}
}

// An action that calls a tool ends the run with the tool named and the
// generate record's ref, and writes no act record for that turn.
func TestPlayTurnsStopsAtToolCall(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string {
		return "<python>print(1)</python>"
	}))
	a, env, ep := playEnv(t, srv, "tools: {preset: python_tool}, ")
	res := play(t, a, env, PlayInput{Episode: ep, Slice: time.Minute})
	if res.Tool != "python" || res.Turn != 0 || res.Head != nil || res.Gen.Key == "" {
		t.Fatalf("tool %q at turn %d (head %v, gen %q); want python at turn 0 with the generate record", res.Tool, res.Turn, res.Head, res.Gen.Key)
	}
	store, err := blob.Open(context.Background(), ep.Spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	if gen, err := turnlog.ReadRecord(context.Background(), store, res.Gen); err != nil || gen.Phase != schema.PhaseGenerate {
		t.Fatalf("generate record: %v (%v)", gen.Phase, err)
	}
}

// A retried run finds the turns its dead predecessors finished from the
// act records they wrote, linked head to head, so none is played again;
// a record that does not follow the head is not taken.
func TestPlayTurnsResume(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithPolicy(func([]openaitest.Message) string { return "\\boxed{7}" }))
	a, env, ep := playEnv(t, srv, "max_turns: 5, ")
	// Three runs of attempt 1 (record attempt 1) play turns 0, 1 and 2.
	var p PlayProgress
	for range 3 {
		p = play(t, a, env, PlayInput{Episode: ep, Turn: p.Turn, Head: p.Head, Slice: 0}).PlayProgress
	}
	store, err := blob.Open(context.Background(), ep.Spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	// Attempt 3 starts from turn 0 (its heartbeat was never sent).
	got, err := resume(context.Background(), store, PlayInput{Episode: ep, Slice: time.Minute}, PlayProgress{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Turn != 3 || got.Head == nil || *got.Head != *p.Head || got.Done || got.Reward != p.Reward {
		t.Fatalf("resumed at turn %d (head %v, reward %v); want turn 3 at %v, reward %v", got.Turn, got.Head, got.Reward, *p.Head, p.Reward)
	}
	// From another head, turn 1's record does not follow: nothing is taken.
	other := schema.TurnRef{Key: "elsewhere", Tag: "x"}
	got, err = resume(context.Background(), store, PlayInput{Episode: ep}, PlayProgress{Turn: 1, Head: &other}, 3)
	if err != nil || got.Turn != 1 || *got.Head != other {
		t.Fatalf("from a foreign head: turn %d, head %v (%v); want nothing taken", got.Turn, got.Head, err)
	}
	// A run from there plays the two turns left; the chain holds five.
	res := play(t, a, env, PlayInput{Episode: ep, Turn: 3, Head: p.Head, Slice: time.Minute})
	if !res.Done || res.Turn != 5 {
		t.Fatalf("turn %d, done %v; want the episode over at 5", res.Turn, res.Done)
	}
	if turns, err := turnlog.ReadEpisode(context.Background(), store, *res.Head); err != nil || len(turns) != 5 {
		t.Fatalf("%d turns in the log (%v); want 5", len(turns), err)
	}
}
