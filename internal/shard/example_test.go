package shard_test

import (
	"context"
	"fmt"
	"os"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/shard"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

func ExampleWrite() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "quarry-example-")
	defer os.RemoveAll(dir)
	store, _ := blob.Open(ctx, dir)

	// An oracle played episode 0 of batch 0 in one activity (attempt 1).
	b := schema.Bundle{Job: "myjob", Batch: 0, Episode: 0, Attempt: 1, Records: []schema.TurnRecord{
		{Phase: schema.PhaseGenerate, Tag: "run/a/1", Job: "myjob", Turn: 0, Attempt: 1,
			PromptDelta: `[{"role":"user","content":"Guess 1-10"}]`, Action: `\boxed{7}`,
			PolicyModel: "oracle", SamplingParams: "{}", TokenSource: schema.TokenSourceNone},
		{Phase: schema.PhaseAct, Tag: "run/a/1", Job: "myjob", Turn: 0, Attempt: 1, ActionTag: "run/a/1",
			EnvVersion: "v0.3", Observation: "Correct!", Reward: 1, Terminated: true, Success: true},
	}}
	head, err := turnlog.PutBundle(ctx, store, &b)
	if err != nil {
		panic(err)
	}
	m, err := shard.Write(ctx, store, shard.Input{
		Job: "myjob", Batch: 0, Gamma: 1, NormScheme: schema.NormReBN,
		Episodes: []shard.Episode{{Episode: 0, GroupSize: 1, TaskID: "t0", DataSource: "game",
			EnvID: "game:GuessTheNumber-v0-easy", EnvVersion: "v0.3", Head: head}},
	})
	if err != nil {
		panic(err)
	}
	for _, f := range m.Files {
		fmt.Println(f.Path, f.Rows)
	}
	fmt.Printf("returns %+v\n", m.Returns)
	// Output:
	// shards/part-00000.turns.parquet 1
	// shards/part-00000.episodes.parquet 1
	// returns {Count:1 Sum:1 SumSq:1}
}
