package arc_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg/arc"
)

// One rg:arc_1d episode, answered by the oracle.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := arc.Register(r); err != nil {
		panic(err)
	}
	e, err := r.Make("rg:arc_1d", map[string]any{"min_size": 10, "max_size": 10, "num_train": 2})
	if err != nil {
		panic(err)
	}
	obs, _, _ := e.Reset(1)
	fmt.Println(obs)
	o, _ := envs.AsOracle(e)
	action, _ := o.OracleAction()
	res, _ := e.Step(action)
	fmt.Println(action, res.Reward)
	// Output:
	// Find the common rule that maps an input grid to an output grid, given the examples below.
	//
	// Example 1:
	// Input:  0 0 0 1 0 0 0 1 1 0
	// Output: 1 1 1 0 0 0 0 0 0 0
	//
	// Example 2:
	// Input:  0 2 2 1 2 2 0 0 2 0
	// Output: 2 2 2 2 2 1 0 0 0 0
	//
	// Below is a test input grid. Predict the corresponding output grid by applying the rule you found. Describe how you derived the rule and your overall reasoning process in detail before you submit your answer. Your final answer should be just the test output grid itself.
	//
	// Input:
	// 1 0 2 1 1 0 0 0 1 1
	// Please reason step by step, and put your final answer within \boxed{}.
	// \boxed{2 1 1 1 1 1 0 0 0 0} 1
}
