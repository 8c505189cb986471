package qaenv_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/qaenv"
)

func ExampleRegister() {
	r := envs.NewRegistry()
	if err := qaenv.Register(r); err != nil {
		panic(err)
	}
	// By default the id reads GEM's dataset from the Hugging Face Hub; the
	// shipped sample is one option away.
	e, err := r.Make("qa:NaturalQuestions", map[string]any{"dataset": "sample"})
	if err != nil {
		panic(err)
	}
	obs, _, err := envs.ResetTask(e, 0, 0)
	if err != nil {
		panic(err)
	}
	fmt.Print(obs)
	res, err := e.Step("<think>Doc 31 says so.</think>\n<answer>Kovkraend Teshek</answer>")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Reward, res.Info.Success, res.Info.Extra["em"], res.Info.Extra["f1"])
	// Output:
	// For any question, always reason through your thought process using:
	// <think> your reasoning here </think>
	// Then, provide your final answer using:
	// <answer> your answer here </answer>
	//
	// Question: Who founded the town of Thorkholt?
	// 1 true 1 1
}

func ExampleF1() {
	golds := []string{"Skeithow", "Skeithow river"}
	fmt.Println(qaenv.ExactMatch("The Skeithow River.", golds), qaenv.F1("the Skeithow stream", golds))
	// Output: true 0.6666666666666666
}
