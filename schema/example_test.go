package schema_test

import (
	"bytes"
	"fmt"

	"github.com/quarry-rl/quarry/schema"
)

func ExampleDiscountedReturns() {
	// A game with a dense reward on the last turn, γ = 0.9.
	fmt.Println(schema.DiscountedReturns([]float64{0, 0, 1}, 0.9))
	// Output: [0.81 0.9 1]
}

func ExampleNormalize() {
	// Two samples of one task; the second failed for good and is excluded.
	out, stats := schema.Normalize([]schema.EpisodeRewards{
		{Group: 0, Rewards: []float64{0, 1}},
		{Group: 0, Rewards: []float64{0, 0}},
		{Group: 0, Rewards: []float64{5}, Failed: true},
	}, 1)
	fmt.Printf("returns %v %v\n", out[0].Returns, out[1].Returns)
	fmt.Printf("ReBN %.3f %.3f\n", out[0].Advantages, out[1].Advantages)
	fmt.Printf("group %.3f %.3f (size %d)\n", out[0].GroupAdvantage, out[1].GroupAdvantage, out[0].GroupSize)
	fmt.Printf("stats %+v\n", stats)
	// Output:
	// returns [1 1] [0 0]
	// ReBN [1.000 1.000] [-1.000 -1.000]
	// group 1.000 -1.000 (size 2)
	// stats {Count:4 Sum:2 SumSq:2}
}

func ExampleStats_Merge() {
	// Two shards' manifests; their union is normalised without reading them.
	a := schema.Stats{Count: 2, Sum: 1, SumSq: 1}  // returns {0, 1}
	b := schema.Stats{Count: 2, Sum: 5, SumSq: 13} // returns {2, 3}
	u := a.Merge(b)
	fmt.Printf("mean %.2f std %.4f A(3) %.4f\n", u.Mean(), u.Std(), u.Normalize(3))
	// Output: mean 1.50 std 1.1180 A(3) 1.3416
}

func ExampleTurnKey() {
	fmt.Println(schema.TurnKey("myjob", 42, 7, 3, 1))
	fmt.Println(schema.ActKey("myjob", 42, 7, 3, 2))
	k := schema.ShardKeys("myjob", 42)
	fmt.Println(k.Turns)
	fmt.Println(k.Manifest)
	// Output:
	// myjob/_turns/b00042/e0007/t0003-a1
	// myjob/_turns/b00042/e0007/t0003-a2.act
	// myjob/shards/part-00042.turns.parquet
	// myjob/_manifest/part-00042.json
}

func ExampleWriteTurns() {
	turns := []schema.TurnRow{{
		JobID: "myjob", Batch: 0, Episode: 0, Turn: 0, EpisodeID: schema.EpisodeID("myjob", 0, 0),
		EnvID: "game:GuessTheNumber-v0-easy", PromptDelta: `[{"role":"user","content":"Guess 1-10"}]`,
		Action: `\boxed{7}`, Observation: "Correct!", Reward: 1, Terminated: true,
		PolicyModel: "oracle", SamplingParams: "{}", TokenSource: schema.TokenSourceNone,
	}}
	episodes := []schema.EpisodeRow{{JobID: "myjob", EpisodeID: turns[0].EpisodeID, EnvID: turns[0].EnvID,
		GroupSize: 1, Success: true, StopReason: schema.StopTerminated, TokenSource: schema.TokenSourceNone}}
	if err := schema.AssembleEpisode(&episodes[0], turns); err != nil {
		panic(err)
	}
	stats, err := schema.ApplyReturns(turns, episodes, 1, schema.NormReBN)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	if err := schema.WriteTurns(&buf, turns); err != nil {
		panic(err)
	}
	rows, err := schema.ReadTurns(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d row: return %v advantage %v (%s), batch stats %+v\n", len(rows), rows[0].Return, rows[0].Advantage, rows[0].NormScheme, stats)
	// Output: 1 row: return 1 advantage 0 (rebn), batch stats {Count:1 Sum:1 SumSq:1}
}
