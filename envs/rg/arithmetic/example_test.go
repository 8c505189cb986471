package arithmetic_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg/arithmetic"
)

// One episode: the question for seed 3 at curriculum level 2, answered by the
// oracle. The same seed always gives the same question, so a group of samples
// for one task shares the seed.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := arithmetic.Register(r); err != nil {
		panic(err)
	}
	e, err := r.Make(arithmetic.ID, map[string]any{"difficulty": 2})
	if err != nil {
		panic(err)
	}
	obs, _, _ := e.Reset(3)
	fmt.Println(obs)
	o, _ := envs.AsOracle(e)
	action, _ := o.OracleAction()
	res, _ := e.Step(action)
	fmt.Println(action, res.Reward, res.Observation)
	// Output:
	// Calculate -3 + (-2 * -3).
	// Please reason step by step, and put your final answer within \boxed{}.
	// \boxed{3} 1 Correct: the answer is 3.
}
