package prompt_test

import (
	"fmt"

	"github.com/quarry-rl/quarry/internal/prompt"
)

// GEM's game recipe: qwen3_game around concat's text, sent as a raw completion.
func ExampleLookup() {
	tm, err := prompt.Lookup("qwen3_game")
	if err != nil {
		panic(err)
	}
	text, err := tm.Render(prompt.Input{Observation: "Guess a number between 1 and 20.\n"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", text)
	_, err = prompt.Lookup("qwen3-game")
	fmt.Println(err)
	// Output:
	// "<|im_start|>user\nYou are playing language games. Make valid actions to win.\nObservation: Guess a number between 1 and 20.\n\nPlease reason step by step, and put your final answer within \\boxed{}.<|im_end|>\n<|im_start|>assistant\n"
	// unknown prompt template "qwen3-game"; did you mean qwen3_game?
}

// A user template, and the text token-in/token-out appends on the next turn.
func ExampleParse() {
	tm, err := prompt.Parse("{{.SystemPrompt}}\n{{.Observation}}")
	if err != nil {
		panic(err)
	}
	first, _ := tm.Render(prompt.Input{Observation: "Guess.\n", SystemPrompt: "Play well."})
	next, _ := tm.Continuation(prompt.WrapperConcatWithAction, `\boxed{7}`, "Too low.")
	fmt.Printf("%q\n%q\n", first, next)
	_, err = prompt.Parse("{{.Obs}}")
	fmt.Println(err)
	// Output:
	// "Play well.\nGuess.\n"
	// "\nToo low.\n"
	// parse template_file: template_file:1:2: unknown field .Obs; the fields are .Observation, .SystemPrompt, .Turn (did you mean .Observation?)
}
