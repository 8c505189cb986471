package codeenv_test

import (
	"fmt"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/codeenv"
)

// ExampleRegister makes code:CodeContest over the shipped sample. A response
// without a code block is graded without running anything, so this needs no
// sandbox; a real worker passes a SandboxFunc returning its sandbox.
func ExampleRegister() {
	r := envs.NewRegistry()
	if err := codeenv.Register(r, nil); err != nil {
		panic(err)
	}
	e, err := r.Make(codeenv.IDCodeContest, map[string]any{"dataset": "sample"})
	if err != nil {
		panic(err)
	}
	obs, _, err := e.Reset(7)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.SplitN(obs, "\n", 2)[0])
	res, err := e.Step("I would add the numbers up.")
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Reward, res.Info.FormatError)
	fmt.Println(res.Observation)
	// Output:
	// Largest Number
	// -0.1 true
	// No code block found: put the program in a fenced code block (```python ... ```).
}
