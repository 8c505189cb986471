package cognition_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg/cognition"
)

// One rg:color_cube_rotation episode, answered by the oracle.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := cognition.Register(r); err != nil {
		panic(err)
	}
	e, err := r.Make("rg:color_cube_rotation", map[string]any{"max_rotations": 2})
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
	// A cube has:
	// - a pink top side
	// - a silver right side
	// - a cyan front side
	// - a blue left side
	// - a magenta back side
	// - a gold bottom side
	//
	// The cube is rotated so that the side which was before at the front is now at the top.
	//
	// Next, the left side is rotated to become the top face.
	//
	// What is now the color of the right side of the cube?
	// Provide only the color as your final answer.
	// Please reason step by step, and put your final answer within \boxed{}.
	// \boxed{cyan} 1
}
