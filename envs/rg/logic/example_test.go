package logic_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg/logic"
)

// One rg:syllogism episode, answered by the oracle.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := logic.Register(r); err != nil {
		panic(err)
	}
	e, err := r.Make("rg:syllogism", map[string]any{"inversion_probability": 0})
	if err != nil {
		panic(err)
	}
	obs, _, _ := e.Reset(3)
	fmt.Println(obs)
	o, _ := envs.AsOracle(e)
	action, _ := o.OracleAction()
	res, _ := e.Step(action)
	fmt.Println(action, res.Reward)
	// Output:
	// Consider these statements:
	// 1. All mammals are cats
	// 2. All cats are artists
	//
	// Does it logically follow that:
	// All mammals are artists?
	// (Answer Yes or No)
	// Please reason step by step, and put your final answer within \boxed{}.
	// \boxed{Yes} 1
}
