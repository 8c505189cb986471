package turnlog_test

import (
	"context"
	"fmt"
	"os"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// Two turns of an endpoint policy: each act record links to its generate
// record and to the previous turn's act record, so the workflow keeps only
// the last act record's ref.
func ExampleReadEpisode() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "quarry-example-")
	defer os.RemoveAll(dir)
	store, _ := blob.Open(ctx, dir)

	var head *schema.TurnRef
	for turn, action := range []string{`\boxed{5}`, `\boxed{7}`} {
		gen := schema.TurnRecord{Phase: schema.PhaseGenerate, Tag: fmt.Sprintf("gen-%d", turn), Job: "myjob", Turn: turn, Attempt: 1,
			PromptDelta: "[]", Action: action, PolicyModel: "m", SamplingParams: "{}", TokenSource: schema.TokenSourceNone}
		genRef, err := turnlog.PutRecord(ctx, store, &gen)
		if err != nil {
			panic(err)
		}
		act := schema.TurnRecord{Phase: schema.PhaseAct, Tag: fmt.Sprintf("act-%d", turn), Job: "myjob", Turn: turn, Attempt: 1,
			ActionTag: gen.Tag, Gen: &genRef, Prev: head, EnvVersion: "v0.3", Reward: float64(turn), Terminated: turn == 1}
		actRef, err := turnlog.PutRecord(ctx, store, &act)
		if err != nil {
			panic(err)
		}
		head = &actRef
	}
	fmt.Println("head", head.Key)
	turns, err := turnlog.ReadEpisode(ctx, store, *head)
	if err != nil {
		panic(err)
	}
	for _, t := range turns {
		fmt.Println(t.Gen.Turn, t.Gen.Action, t.Act.Reward)
	}
	// Output:
	// head myjob/_turns/b00000/e0000/t0001-a1.act
	// 0 \boxed{5} 0
	// 1 \boxed{7} 1
}
