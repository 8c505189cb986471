package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/envs/catalog"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/mcp/mcptest"
	"github.com/quarry-rl/quarry/tools/toolset"
	"github.com/quarry-rl/quarry/workflows"
)

var codeResult = regexp.MustCompile(`Code execution result: (\d+)`)

// pythonBisect plays GuessTheNumber-hard with the python tool: it asks
// python for the middle of the range left, then guesses what python said;
// after five tool uses it bisects by itself. Each tool call is followed by
// text the server must cut at the stop string </python>.
func pythonBisect(msgs []openaitest.Message) string {
	uses := 0
	for _, m := range msgs {
		if m.Role == "tool" {
			uses++
		}
	}
	if last := msgs[len(msgs)-1]; last.Role == "tool" {
		if m := codeResult.FindStringSubmatch(last.Content); m != nil {
			return "Python says " + m[1] + ". \\boxed{" + m[1] + "}"
		}
	}
	if uses >= 5 {
		return bisect(msgs)
	}
	lo, hi := 1, 50
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		for _, h := range hint.FindAllStringSubmatch(m.Content, -1) {
			g, _ := strconv.Atoi(h[1])
			if h[2] == "higher" {
				lo = max(lo, g+1)
			} else {
				hi = min(hi, g-1)
			}
		}
	}
	return "Let me compute the midpoint.\n<python>\nprint((" + strconv.Itoa(lo) + " + " + strconv.Itoa(hi) + ") // 2)\n</python> and then I will guess it."
}

// A GuessTheNumber job with the python_tool preset end to end: tool calls
// run sandboxed on the tool queue, their turns carry GEM's tool rewards and
// do not spend the game's guesses, generation stops at </python>, and every
// session is closed and its work dir gone when the job ends.
func TestLocalPythonToolJob(t *testing.T) { pythonToolJob(t, "text") }

// The tool job with the sticky cache off: every workflow task replays, tool
// branch and CloseTools included.
func TestLocalPythonToolJobNoStickyCache(t *testing.T) {
	worker.SetStickyWorkflowCacheSize(0)
	defer worker.SetStickyWorkflowCacheSize(10000)
	pythonToolJob(t, "text")
}

// The same job with native tool calling: the tools go to the endpoint as
// function tools, the server (as vLLM's hermes parser) answers with
// tool_calls, and the history sends each call and its tool message linked by
// id — the server refuses a tool message that answers no call.
func TestLocalPythonToolJobNative(t *testing.T) { pythonToolJob(t, "native") }

// nativePythonBisect is pythonBisect writing its calls as a Hermes/Qwen
// model does, for a server with a tool-call parser.
func nativePythonBisect(msgs []openaitest.Message) string {
	reply := pythonBisect(msgs)
	i, j := strings.Index(reply, "<python>"), strings.Index(reply, "</python>")
	if i < 0 || j < 0 {
		return reply
	}
	code, _ := json.Marshal(strings.TrimSpace(reply[i+len("<python>") : j]))
	return reply[:i] + `<tool_call>{"name": "python", "arguments": {"code": ` + string(code) + `}}</tool_call>`
}

func pythonToolJob(t *testing.T, calling string) {
	policy := pythonBisect
	if calling == "native" {
		policy = nativePythonBisect
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	dir := t.TempDir()
	spec, err := loadSpec(writeSpec(t, dir, `
job: pytool
seed: 11
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 2
samples_per_task: 4
batch_size: 8
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {max_tokens: 64}
tools: {preset: python_tool, calling: `+calling+`}
output: `+filepath.Join(dir, "out")+`
`))
	if err != nil {
		t.Fatal(err)
	}
	g := &globals{local: true, stateDir: filepath.Join(dir, "state"), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
	ctx := context.Background()
	sess, err := manage(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	sbDir := sandboxtest.Dir(t)
	const uidBase = 64000
	host := &toolset.Host{Sandbox: sandbox.Options{BaseDir: sbDir, UIDBase: uidBase, Slots: 2}}
	if err := runWithTools(t, ctx, sess, g.queue, host, spec, 2*time.Minute); err != nil {
		// Say why: the first episode's pending activity and its last failure.
		if d, err := sess.client.DescribeWorkflowExecution(ctx, "pytool/b00000/e0000", ""); err == nil {
			for _, pa := range d.PendingActivities {
				t.Logf("pending %s on attempt %d: %v", pa.ActivityType.GetName(), pa.Attempt, pa.LastFailure)
			}
			t.Logf("status %v", d.WorkflowExecutionInfo.Status)
		} else {
			t.Logf("describe: %v", err)
		}
		for _, rec := range srv.ChatRecords() {
			if rec.Status != 200 {
				t.Logf("request %d: status %d: %s", rec.Seq, rec.Status, rec.Response)
				break
			}
		}
		t.Fatal(err)
	}
	if *updateHistories && calling == "text" {
		saveHistory(t, sess.client, "pytool/b00000/e0000", "history_episode_tools.json")
	}
	_, turns, eps := readShards(t, spec.Output, "pytool")
	if len(eps) != 8 {
		t.Fatalf("%d episodes", len(eps))
	}
	for _, e := range eps {
		if !e.Success {
			t.Fatalf("episode %s lost (stop %s after %d turns)", e.EpisodeID, e.StopReason, e.NumTurns)
		}
	}
	toolTurns, guesses := map[string]int{}, map[string]int{}
	for _, r := range turns {
		if r.ToolName == nil {
			guesses[r.EpisodeID]++
			if strings.Contains(r.Action, "<python>") {
				t.Fatalf("turn %s/%d: a python call stepped the env: %q", r.EpisodeID, r.Turn, r.Action)
			}
			continue
		}
		toolTurns[r.EpisodeID]++
		if *r.ToolName != "python" || r.ToolResult == nil || !strings.HasPrefix(*r.ToolResult, "Code execution result: ") ||
			r.Reward != 0.05+0.25 || r.Terminated || r.ErrorClass != nil {
			t.Fatalf("tool turn %s/%d: tool %v result %v reward %v error %v", r.EpisodeID, r.Turn, r.ToolName, r.ToolResult, r.Reward, r.ErrorClass)
		}
		switch calling {
		case "text":
			if !strings.HasSuffix(r.Action, "</python>") {
				t.Fatalf("turn %s/%d: generation did not stop at </python>: %q", r.EpisodeID, r.Turn, r.Action)
			}
		case "native":
			if !strings.Contains(r.Action, `<tool_call>`) || !strings.Contains(r.Action, `{"name": "python", "arguments": {"code": "print((`) {
				t.Fatalf("turn %s/%d: the server's tool call is not in the action: %q", r.EpisodeID, r.Turn, r.Action)
			}
		}
		if r.ToolCall == nil || !strings.Contains(*r.ToolCall, "print((") {
			t.Fatalf("turn %s/%d: tool_call %v", r.EpisodeID, r.Turn, r.ToolCall)
		}
	}
	for _, e := range eps {
		n := toolTurns[e.EpisodeID]
		if n < 1 || n > 5 {
			t.Fatalf("episode %s: %d tool turns, want 1..5 (max_tool_uses 5)", e.EpisodeID, n)
		}
		if int(e.NumTurns) != n+guesses[e.EpisodeID] {
			t.Fatalf("episode %s: %d turns, %d tool + %d guesses", e.EpisodeID, e.NumTurns, n, guesses[e.EpisodeID])
		}
	}
	if calling == "native" {
		linked := 0
		for _, rec := range srv.ChatRecords() {
			var body struct {
				Tools    []json.RawMessage    `json:"tools"`
				Messages []openaitest.Message `json:"messages"`
			}
			if err := json.Unmarshal(rec.Body, &body); err != nil {
				t.Fatal(err)
			}
			if len(body.Tools) != 1 {
				t.Fatalf("request %d offered %d tools, want python", rec.Seq, len(body.Tools))
			}
			for _, m := range body.Messages {
				if m.Role == "tool" && m.ToolCallID != "" {
					linked++
				}
			}
			if rec.Status != 200 {
				t.Fatalf("request %d refused: %s", rec.Seq, rec.Response)
			}
		}
		if linked == 0 {
			t.Fatal("no tool message linked to its call by id")
		}
	}
	// The tool worker closed every session when its episode ended: no
	// session, no process of the sandbox's uids, no work dir.
	if n := host.Sessions(); n != 0 {
		t.Fatalf("%d episodes still hold tool sessions", n)
	}
	if n := sandboxtest.LiveProcesses(t, uidBase, uidBase+1); n != 0 {
		t.Fatalf("%d sandbox processes left", n)
	}
	left, _ := os.ReadDir(sbDir)
	if len(left) != 0 {
		t.Fatalf("work dirs left: %v", left)
	}
}

// Bad tool settings are refused before submission, each naming the field.
func TestToolPreflightErrors(t *testing.T) {
	srv := openaitest.Start(t)
	dir := t.TempDir()
	for name, tt := range map[string]struct{ tools, want string }{
		"no retrieval server": {`{preset: search_tool, search: {url: "http://127.0.0.1:1/retrieve"}}`, "quarry retrieve serve"},
		"bad mcp document":    {`{mcp: {mcpServers: {x: {command: node, bogus: 1}}}}`, "tools.mcp"},
		"mcp server fails":    {`{mcp: {mcpServers: {x: {command: /nonexistent/server}}}}`, "tools"},
		"unknown preset":      {`{preset: calculator}`, "tools.preset"},
	} {
		t.Run(name, func(t *testing.T) {
			path := llmSpec(t, dir, srv.BaseURL(), openaitest.DefaultModel, "tools: "+tt.tools)
			var stdout, stderr strings.Builder
			root := newRoot(&stdout, &stderr)
			root.SetArgs([]string{"--local", "--dry-run", "--state-dir", filepath.Join(dir, "state"), path})
			err := root.ExecuteContext(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want …%s…", err, tt.want)
			}
		})
	}
}

// A dry run starts no MCP server: it checks that the command resolves, and
// a server that would leave a mark when started leaves none.
func TestDryRunStartsNoMCPServer(t *testing.T) {
	srv := openaitest.Start(t)
	dir := t.TempDir()
	shared, err := os.MkdirTemp("", "quarry-dry-run-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(shared)
	if err := os.Chmod(shared, 0o777); err != nil { // whoever the server would run as may write here
		t.Fatal(err)
	}
	mark := filepath.Join(shared, "started")
	path := llmSpec(t, dir, srv.BaseURL(), openaitest.DefaultModel,
		`tools: {mcp: {mcpServers: {x: {command: /bin/sh, args: [-c, "touch `+mark+`; exec cat"]}}}}`)
	var stdout, stderr strings.Builder
	root := newRoot(&stdout, &stderr)
	root.SetArgs([]string{"--dry-run", "--state-dir", filepath.Join(dir, "state"), path})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if _, err := os.Stat(mark); !os.IsNotExist(err) {
		t.Fatalf("the dry run started the MCP server (%s: %v)", mark, err)
	}
	if !strings.Contains(stdout.String(), "tools.mcp: servers not started (dry run)") {
		t.Errorf("output does not say the servers were not started:\n%s", stdout.String())
	}
}

// processesRunning counts processes whose command line contains s.
func processesRunning(t *testing.T, s string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), s) {
			n++
		}
	}
	return n
}

// A job with an MCP tool end to end: the npm reference server runs over
// stdio as the episode's session on the tool worker, its echo tool answers
// GEM-style calls, rows name the MCP tool called (tool_name echo, not mcp),
// and every server process is gone when the job ends.
func TestLocalMCPToolJob(t *testing.T) {
	node, entry := mcptest.Node(t), npm.Entry(t, "@modelcontextprotocol/server-everything")
	policy := func(msgs []openaitest.Message) string {
		if msgs[len(msgs)-1].Role == "tool" {
			return "Done. \\boxed{0}"
		}
		return `Let me try the tool. <tool_call><tool_name>echo</tool_name><arguments>{"message": "hello quarry"}</arguments></tool_call>`
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: mcp
seed: 3
envs: [{id: rg:basic_arithmetic}]
tasks: 4
samples_per_task: 2
batch_size: 8
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 128}}}
tools:
  mcp: {mcpServers: {everything: {command: "`+node+`", args: ["`+entry+`", "stdio"]}}}
  max_tool_uses: 2
`)
	_, turns, eps := readShards(t, spec.Output, "mcp")
	if len(eps) != 8 {
		t.Fatalf("%d episodes", len(eps))
	}
	for _, r := range turns {
		switch r.Turn {
		case 0:
			if r.ToolName == nil || *r.ToolName != "echo" || r.ToolResult == nil || !strings.Contains(*r.ToolResult, "hello quarry") ||
				r.ToolCall == nil || !strings.Contains(*r.ToolCall, `"name":"echo"`) {
				t.Fatalf("turn 0 of %s: tool %v call %v result %v", r.EpisodeID, r.ToolName, r.ToolCall, r.ToolResult)
			}
		case 1:
			if r.ToolName != nil || !r.Terminated {
				t.Fatalf("turn 1 of %s: tool %v terminated %v", r.EpisodeID, r.ToolName, r.Terminated)
			}
		}
	}
	// CloseTools ran for every episode: no server process is left.
	deadline := time.Now().Add(10 * time.Second)
	for processesRunning(t, entry) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d MCP server processes still running after the job", processesRunning(t, entry))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A job whose episodes use @modelcontextprotocol/server-memory with its file
// in ${QUARRY_MCP_HOME}: each episode starts with an empty graph and reads
// back only the entity it created — no episode sees another's (today's
// repro: the file beside the server's code was shared by every episode and
// every job) — and rows name the MCP tools called.
func TestLocalMCPMemoryJob(t *testing.T) {
	node, entry := mcptest.Node(t), npm.Entry(t, "@modelcontextprotocol/server-memory")
	var notes atomic.Int64
	policy := func(msgs []openaitest.Message) string {
		uses := 0
		for _, m := range msgs {
			if m.Role == "tool" {
				uses++
			}
		}
		switch uses {
		case 0, 2:
			return `<tool_call><tool_name>read_graph</tool_name><arguments>{}</arguments></tool_call>`
		case 1:
			return `<tool_call><tool_name>create_entities</tool_name><arguments>{"entities": [{"name": "episode-note-` +
				strconv.FormatInt(notes.Add(1), 10) + `", "entityType": "note", "observations": ["mine"]}]}</arguments></tool_call>`
		}
		return "Done. \\boxed{0}"
	}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy))
	spec := runLocalJob(t, `
job: mcp-memory
seed: 5
envs: [{id: rg:basic_arithmetic}]
tasks: 4
samples_per_task: 2
batch_size: 8
policy: {kind: openai, openai: {endpoints: ["`+srv.BaseURL()+`"], model: `+openaitest.DefaultModel+`, sampling: {max_tokens: 128}}}
tools:
  mcp: {mcpServers: {memory: {command: "`+node+`", args: ["`+entry+`"], env: {MEMORY_FILE_PATH: "${QUARRY_MCP_HOME}/memory.jsonl"}}}}
  max_tool_uses: 3
`)
	_, turns, eps := readShards(t, spec.Output, "mcp-memory")
	if len(eps) != 8 {
		t.Fatalf("%d episodes", len(eps))
	}
	want := map[int32]string{0: "read_graph", 1: "create_entities", 2: "read_graph"}
	for _, r := range turns {
		name, ok := want[r.Turn]
		if !ok {
			continue
		}
		if r.ToolName == nil || *r.ToolName != name || r.ToolResult == nil {
			t.Fatalf("turn %d of %s: tool %v result %v, want %s", r.Turn, r.EpisodeID, r.ToolName, r.ToolResult, name)
		}
		seen := strings.Count(*r.ToolResult, `"episode-note-`)
		switch {
		case r.Turn == 0 && seen != 0:
			t.Errorf("episode %s starts with another episode's entities: %s", r.EpisodeID, *r.ToolResult)
		case r.Turn == 2 && seen != 1:
			t.Errorf("episode %s reads %d notes, want its own one: %s", r.EpisodeID, seen, *r.ToolResult)
		}
	}
}

// npm finds the npm MCP servers where the servers' unprivileged user can
// read them (TestMain removes a copy it made).
var npm = &mcptest.NPM{Dir: "../../tools/mcp/testdata/npm"}

func TestMain(m *testing.M) {
	code := m.Run()
	npm.Close()
	os.Exit(code)
}

// runWithTools runs spec to its end on a worker of its own (every role)
// whose tool calls go to host, and returns the job's error.
func runWithTools(t *testing.T, ctx context.Context, sess *session, queue string, host *toolset.Host, spec schema.JobSpec, timeout time.Duration) error {
	t.Helper()
	reg, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	a := &activities.Activities{Envs: reg, Stores: &activities.Stores{}, Tools: host}
	w := workflows.NewWorkers(sess.client, queue, a, worker.Options{}, workflows.AllRoles)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	run, _, err := startOrAttach(ctx, sess.client, queue, spec)
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return run.Get(wctx, nil)
}
