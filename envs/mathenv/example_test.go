package mathenv_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/mathenv"
)

// One GSM8K episode on the shipped sample (RegisterSamples; Register reads
// GEM's data from the Hub): the question is shown as the
// dataset has it, and the last \boxed{} of the response is graded. Point the
// dataset option at a JSONL or Parquet file of GEM's data to train on it.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := mathenv.RegisterSamples(r); err != nil {
		panic(err)
	}
	e, err := r.Make("math:GSM8K", map[string]any{"use_format_error_reward": true})
	if err != nil {
		panic(err)
	}
	for _, response := range []string{
		`12 packs of 12 is 144; 144 - 43 + 24 = \boxed{125}.`,
		`I think it is \boxed{124}.`,
		`It is 125.`,
	} {
		obs, _, err := envs.ResetTask(e, 0, 0)
		if err != nil {
			panic(err)
		}
		res, err := e.Step(response)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%.40s… → %v %s\n", obs, res.Reward, res.Observation)
	}
	// Output:
	// Lucas buys 12 packs of stickers with 12 … → 1 Correct: the reference answer is 125.
	// Lucas buys 12 packs of stickers with 12 … → 0 Incorrect: you answered "124"; the reference answer is 125.
	// Lucas buys 12 packs of stickers with 12 … → -0.1 No answer found: the final answer must be inside \boxed{}. The reference answer is 125.
}
