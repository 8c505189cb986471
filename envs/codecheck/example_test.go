package codecheck_test

import (
	"context"
	"fmt"

	"github.com/quarry-rl/quarry/envs/codecheck"
	"github.com/quarry-rl/quarry/internal/sandbox"
)

func ExampleLastCodeBlock() {
	response := "First try:\n```python\nprint(1)\n```\nBetter:\n```py\nprint(int(input()) * 2)\n```\n"
	code, lang, ok := codecheck.LastCodeBlock(response)
	fmt.Printf("%v %s %q\n", ok, lang, code)
	// Output: true py "print(int(input()) * 2)"
}

func ExampleParseTests() {
	// TACO's input_output column, as GEM's "tests" column stores it.
	tests, err := codecheck.ParseTests(`{"inputs": ["2\n", "5\n"], "outputs": ["4\n", "10\n"]}`)
	fmt.Println(len(tests), err)
	// Output: 2 <nil>
}

// ExampleScore grades a response; it needs root and bwrap, so it is only
// compiled.
func ExampleScore() {
	ctx := context.Background()
	sb, err := sandbox.New(ctx, sandbox.Options{})
	if err != nil {
		fmt.Println("sandbox:", err)
		return
	}
	tests, _ := codecheck.ParseTests(`{"inputs": ["2\n"], "outputs": ["4\n"]}`)
	s, err := codecheck.Score(ctx, sb, "```python\nprint(int(input()) * 2)\n```", tests, codecheck.Options{FailFast: true})
	if err != nil {
		fmt.Println("score:", err)
		return
	}
	fmt.Println(s.Reward, s.Result.Outcomes[0].Status)
}
