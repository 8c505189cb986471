package toolenv_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/python"
	"github.com/quarry-rl/quarry/tools/search"
	"github.com/quarry-rl/quarry/tools/search/retriever"
	"github.com/quarry-rl/quarry/tools/toolenv"
)

// testUIDBase keeps this package's sandbox uids apart from other packages'
// tests, which go test runs in parallel.
const testUIDBase = 63000

func pythonTool(t *testing.T) *python.Tool {
	t.Helper()
	sb, err := sandbox.New(context.Background(), sandbox.Options{BaseDir: sandboxtest.Dir(t), Slots: 2, UIDBase: testUIDBase})
	if err != nil {
		t.Fatalf("%v (install with scripts/deps/bubblewrap.sh)", err)
	}
	tool, err := python.New(sb, python.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func game(t *testing.T) envs.Env {
	t.Helper()
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	env, err := reg.Make("game:GuessTheNumber-v0-hard", nil)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// wrap builds a tool env over GuessTheNumber-hard with the python_tool
// preset and an open session.
func wrap(t *testing.T, tool tools.Tool, preset string) (*toolenv.Env, tools.Session) {
	t.Helper()
	_, cfg, ok := toolenv.Preset(preset)
	if !ok {
		t.Fatalf("no preset %s", preset)
	}
	ctx := context.Background()
	ins, err := toolenv.Instructions(ctx, []tools.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	s, err := tool.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	e, err := toolenv.New(game(t), cfg, []tools.Tool{tool}, ins, toolenv.WithSessions(map[string]tools.Session{tool.Name(): s}))
	if err != nil {
		t.Fatal(err)
	}
	return e, s
}

type step struct {
	action string
	res    envs.StepResult
}

// GEM's semantics with the python_tool preset: tool turns earn 0.05 (+0.25
// when the code ran cleanly), never end the episode and do not spend the
// env's turns; the fifth use carries the notice and the sixth call is an
// ordinary (unparseable) action for the env.
func TestPythonToolTurns(t *testing.T) {
	tool := pythonTool(t)
	e, _ := wrap(t, tool, "python_tool")
	obs, info, err := e.Reset(7)
	if err != nil {
		t.Fatal(err)
	}
	ins, _ := tool.Instructions(context.Background())
	if !strings.HasSuffix(obs, "\n"+ins) || info.UseTool {
		t.Fatalf("first observation does not end with the tool's instructions:\n%s", obs)
	}
	var played []step
	play := func(action string) envs.StepResult {
		t.Helper()
		res, err := e.Step(action)
		if err != nil {
			t.Fatalf("step %q: %v", action, err)
		}
		played = append(played, step{action, res})
		return res
	}
	res := play("Let me compute. <python>print(6*7)</python>")
	if !res.Info.UseTool || res.Done() || res.Reward != 0.05+0.25 || !strings.Contains(res.Observation, "Code execution result: 42") {
		t.Fatalf("clean call: %+v", res)
	}
	res = play("```python\nraise ValueError('boom')\n```")
	if !res.Info.UseTool || res.Reward != 0.05 || !strings.Contains(res.Observation, "ValueError: boom") {
		t.Fatalf("failing call: %+v", res)
	}
	// A guess between tool calls is an env turn.
	res = play("My guess is \\boxed{25}")
	if res.Info.UseTool || res.Done() {
		t.Fatalf("guess: %+v", res)
	}
	for i := 3; i <= 5; i++ {
		res = play("<python>print('use', " + strconv.Itoa(i) + ")</python>")
		if !res.Info.UseTool {
			t.Fatalf("use %d not a tool turn: %+v", i, res)
		}
		if got := strings.HasSuffix(res.Observation, toolenv.MaxUsesNotice); got != (i == 5) {
			t.Fatalf("use %d: notice %v:\n%s", i, got, res.Observation)
		}
		if c := res.Info.Extra["tool_use_counter"]; c != i {
			t.Fatalf("use %d: tool_use_counter %v", i, c)
		}
	}
	res = play("<python>print('one too many')</python>")
	if res.Info.UseTool || !res.Info.FormatError {
		t.Fatalf("a call past max_tool_uses must go to the env (a format error for GuessTheNumber): %+v", res)
	}

	// The same episode replayed from the recorded results, with no session:
	// Call and Apply reproduce every step without running any code.
	replay, err := toolenv.New(game(t), mustConfig(t, "python_tool"), []tools.Tool{tool}, []string{ins})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := replay.Reset(7); err != nil {
		t.Fatal(err)
	}
	for i, p := range played {
		var got envs.StepResult
		if call, ok := replay.Call(p.action); ok {
			got = replay.Apply(call, tools.Result{Observation: strings.TrimSuffix(p.res.Observation, toolenv.MaxUsesNotice), Error: p.res.Reward == 0.05})
		} else if got, err = replay.Step(p.action); err != nil {
			t.Fatal(err)
		}
		if got.Observation != p.res.Observation || got.Reward != p.res.Reward || got.Info.UseTool != p.res.Info.UseTool || got.Done() != p.res.Done() {
			t.Fatalf("replay step %d: %+v, played %+v", i, got, p.res)
		}
	}
}

func mustConfig(t *testing.T, preset string) toolenv.Config {
	_, cfg, ok := toolenv.Preset(preset)
	if !ok {
		t.Fatal(preset)
	}
	return cfg
}

// Tool turns do not spend the env's turn budget: GuessTheNumber-hard allows
// a fixed number of guesses, and tool calls between them change nothing.
func TestToolTurnsDoNotCountAgainstMaxTurns(t *testing.T) {
	tool := pythonTool(t)
	e, _ := wrap(t, tool, "python_tool_no_int_reward")
	if _, _, err := e.Reset(3); err != nil {
		t.Fatal(err)
	}
	plain := game(t)
	if _, _, err := plain.Reset(3); err != nil {
		t.Fatal(err)
	}
	for guess := 1; ; guess++ {
		if guess <= 4 {
			res, err := e.Step("<python>print(1)</python>")
			if err != nil || !res.Info.UseTool || res.Reward != 0 {
				t.Fatalf("tool turn: %+v %v", res, err)
			}
		}
		action := "\\boxed{" + strconv.Itoa(guess) + "}"
		got, err := e.Step(action)
		if err != nil {
			t.Fatal(err)
		}
		want, err := plain.Step(action)
		if err != nil {
			t.Fatal(err)
		}
		if got.Observation != want.Observation || got.Reward != want.Reward || got.Done() != want.Done() {
			t.Fatalf("guess %d: wrapped %+v, plain %+v", guess, got, want)
		}
		if want.Done() {
			return
		}
	}
}

// Without sessions, Step refuses a tool call: in the pipeline, calls go
// through Call and Apply on tool workers.
func TestStepWithoutSession(t *testing.T) {
	tool := pythonTool(t)
	e, err := toolenv.New(game(t), mustConfig(t, "python_tool"), []tools.Tool{tool}, []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Step("<python>print(1)</python>"); !errors.Is(err, toolenv.ErrNoSession) {
		t.Fatalf("err %v, want ErrNoSession", err)
	}
}

// The search_tool preset against the built-in retrieval server over the
// project's corpus: 0.3 per search, the passages as the observation.
func TestSearchToolTurn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	corpus, err := os.Open("../search/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer corpus.Close()
	dir := t.TempDir() + "/index"
	if _, err := retriever.Build(ctx, corpus, dir); err != nil {
		t.Fatal(err)
	}
	idx, err := retriever.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	srv, err := retriever.NewServer(idx, retriever.ServerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx, ln)
	tool, err := search.New(search.Config{URL: "http://" + ln.Addr().String() + "/retrieve"})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := wrap(t, tool, "search_tool")
	if _, _, err := e.Reset(2); err != nil {
		t.Fatal(err)
	}
	res, err := e.Step("<think>I need facts.</think><search>inventions</search>")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Info.UseTool || res.Reward != 0.3 || !strings.HasPrefix(strings.TrimSpace(res.Observation), "Doc 1(Title:") {
		t.Fatalf("search turn: %+v", res)
	}
}

func TestConfigValidate(t *testing.T) {
	for name, c := range map[string]toolenv.Config{
		"negative cap":          {MaxToolUses: -2},
		"positive error reward": {ToolErrorReward: 0.1},
		"error with tool":       {ToolErrorReward: -0.1, ToolReward: 0.05},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := (toolenv.Config{ToolErrorReward: -0.1, MaxToolUses: 5}).Validate(); err != nil {
		t.Error(err)
	}
}

// echoTool calls on "<echo>…</echo>" and answers with the text; no sandbox.
type echoTool struct{}

func (echoTool) Name() string { return "echo" }
func (echoTool) Parse(action string) (tools.Call, bool) {
	i, j := strings.Index(action, "<echo>"), strings.Index(action, "</echo>")
	if i < 0 || j < i {
		return tools.Call{}, false
	}
	return tools.Call{Tool: "echo", Input: action[i+6 : j], Raw: action[i : j+7]}, true
}
func (echoTool) Instructions(context.Context) (string, error) {
	return "Echo with <echo>…</echo>.", nil
}
func (echoTool) Open(context.Context) (tools.Session, error) { return echoSession{}, nil }

type echoSession struct{}

func (echoSession) Execute(_ context.Context, c tools.Call) (tools.Result, error) {
	return tools.Result{Observation: c.Input}, nil
}
func (echoSession) Close() error { return nil }

// max_tool_uses 0 disables tool turns, as in GEM (its counter is never below
// the cap): every call goes to the env, and the instructions are still
// shown. NoCap (GEM's None) never stops them.
func TestMaxToolUsesZeroAndNoCap(t *testing.T) {
	uses := func(limit, calls int) (toolTurns int) {
		t.Helper()
		e, err := toolenv.New(game(t), toolenv.Config{MaxToolUses: limit}, []tools.Tool{echoTool{}}, []string{"Echo."},
			toolenv.WithSessions(map[string]tools.Session{"echo": echoSession{}}))
		if err != nil {
			t.Fatal(err)
		}
		obs, _, err := e.Reset(1)
		if err != nil || !strings.HasSuffix(obs, "\nEcho.") {
			t.Fatalf("reset %q %v", obs, err)
		}
		for i := 0; i < calls; i++ {
			if _, ok := e.Call("<echo>hi</echo>"); !ok {
				return toolTurns
			}
			res, err := e.Step("<echo>hi</echo>")
			if err != nil || !res.Info.UseTool {
				t.Fatalf("tool turn %d: %+v %v", i, res, err)
			}
			toolTurns++
		}
		return toolTurns
	}
	if n := uses(0, 3); n != 0 {
		t.Errorf("max_tool_uses 0: %d tool turns, want none", n)
	}
	if n := uses(2, 5); n != 2 {
		t.Errorf("max_tool_uses 2: %d tool turns", n)
	}
	if n := uses(toolenv.NoCap, 50); n != 50 {
		t.Errorf("no cap: %d tool turns of 50", n)
	}
}

// A tool turn's parsed action is its tool's parsed_action in GEM, which
// concat_with_action shows: python and search show the response up to the
// end of the call (thinking included, the rest dropped), MCP the call alone.
func TestToolTurnParsedActionAsGEM(t *testing.T) {
	py, _ := python.Parse("Think first. <python>print(1)</python> and then more")
	se, _ := search.Parse("<think>facts</think><search>towns</search> trailing")
	mcpCall := tools.Call{Tool: "mcp", Name: "echo", Raw: `<tool_call>{"name": "echo", "arguments": {}}</tool_call>`}
	for _, tt := range []struct {
		call tools.Call
		want string
	}{
		{py, "Think first. <python>print(1)</python>"},
		{se, "<think>facts</think><search>towns</search>"},
		{mcpCall, mcpCall.Raw},
	} {
		res := toolenv.Outcome(toolenv.Config{MaxToolUses: 5}, 0, 0, tt.call, tools.Result{Observation: "out"})
		if res.Info.ParsedAction != tt.want || envs.ShownAction("ignored", res.Info) != tt.want {
			t.Errorf("%s: parsed action %q, want %q", tt.call.Tool, res.Info.ParsedAction, tt.want)
		}
	}
	ep := envs.NewEpisode(game(t), envs.WrapConcatWithAction, 0)
	if _, _, err := ep.Reset(1); err != nil {
		t.Fatal(err)
	}
	action := "Think first. <python>print(1)</python> and then more"
	p, _, err := ep.Record(action, toolenv.Outcome(toolenv.Config{MaxToolUses: 5}, 0, 0, py, tools.Result{Observation: "Code execution result: 1\n"}))
	if want := strings.TrimSuffix(ep.History().Observations[0].Text, "\n") + "\nThink first. <python>print(1)</python>\nCode execution result: 1\n"; err != nil || p.Text != want {
		t.Fatalf("prompt\n got %q\nwant %q (%v)", p.Text, want, err)
	}
}
