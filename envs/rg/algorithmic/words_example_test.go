package algorithmic_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg/algorithmic"
)

// A retry episode of a words task: a wrong answer gets feedback that never
// gives the answer away, and the next answer ends the episode.
func ExampleRegister_words() {
	r := envs.NewRegistry()
	if err := algorithmic.Register(r); err != nil {
		panic(err)
	}
	e, err := r.Make("rg:spell_backward-retry", map[string]any{"min_word_len": 5, "max_word_len": 5, "answer_attempts": 2})
	if err != nil {
		panic(err)
	}
	obs, _, _ := e.Reset(7)
	fmt.Println(obs)
	res, _ := e.Step(`\boxed{egadm}`)
	fmt.Println(res.Observation)
	o, _ := envs.AsOracle(e)
	action, _ := o.OracleAction()
	res, _ = e.Step(action)
	fmt.Println(action, res.Reward, res.Observation)
	// Output:
	// Spell this word backward (example: sun -> nus): Madge
	// Please reason step by step, and put your final answer within \boxed{}. You have 2 attempts.
	// Your answer is incorrect: 3 of the 5 letters are in the right place. Try again: 1 of 2 attempts left.
	// \boxed{egdaM} 1 Correct.
}
