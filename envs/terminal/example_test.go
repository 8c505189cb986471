package terminal_test

import (
	"fmt"
	"testing/fstest"

	"github.com/quarry-rl/quarry/envs/terminal"
)

// An agent's response holds one action: GEM's <bash> with a YAML body, or a
// native tool call.
func ExampleParseAction() {
	a, _ := terminal.ParseAction("Let me look around.\n<bash>\ncmd: 'ls -la /app'\ntimeout_secs: 10\n</bash>")
	fmt.Printf("%s %q %v\n", a.Kind, a.Cmd, a.Timeout)
	a, _ = terminal.ParseAction(`<tool_call>{"name": "finish", "arguments": {"message": "done"}}</tool_call>`)
	fmt.Printf("%s %q\n", a.Kind, a.Message)
	_, err := terminal.ParseAction("I think I'm done.")
	fmt.Println(err)
	// Output:
	// bash "ls -la /app" 10
	// finish "done"
	// no action found: wrap a command in <bash>...</bash> or end with <finish>...</finish>
}

// A Harbor task folder read as a terminal task: its test.sh writes the
// reward, its solve.sh is the oracle's.
func ExampleLoadTask() {
	fsys := fstest.MapFS{
		"greet/task.toml":         {Data: []byte("version = \"1.0\"\n[verifier]\ntimeout_sec = 30.0\n")},
		"greet/instruction.md":    {Data: []byte("Write hello to /app/greeting.txt\n")},
		"greet/tests/test.sh":     {Data: []byte("grep -qx hello /app/greeting.txt && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt\n")},
		"greet/solution/solve.sh": {Data: []byte("echo hello > /app/greeting.txt\n")},
	}
	t, err := terminal.LoadTask(fsys, "greet")
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Name, t.Format, t.TestTimeout, t.MaxTurns)
	fmt.Println(terminal.SolutionCommands(t.Solution))
	// Output:
	// greet harbor 30s 30
	// [echo hello > /app/greeting.txt]
}
