package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools/toolset"
	"github.com/quarry-rl/quarry/workflows"
)

// escapeUIDBase is this test's sandbox uid range (the package's other
// tests use 64000 and 69000).
const escapeUIDBase = 64100

// escapeTargets are what an agent must not reach from its python calls,
// all outside /tmp as on a cluster: a planted file, the job's output
// folder, the embedded server's SQLite database, a host Unix socket, and
// the sandbox's own base dir holding the sibling episode's workspace.
type escapeTargets struct {
	planted, output, database, socket, sandboxDir string
}

var markerToken = regexp.MustCompile(`marker ([0-9a-f]{16})`)

// escapePolicy scripts the agent of each episode: a first python call
// leaves a marker with a random token in its own workspace; once both
// episodes have theirs (both workspaces exist at once), a second call tries
// every target and any other workspace's marker; then it plays on.
type escapePolicy struct {
	targets escapeTargets
	mu      sync.Mutex
	tokens  map[string]bool
	both    chan struct{} // closed when two episodes have left a marker
}

func (p *escapePolicy) reply(msgs []openaitest.Message) string {
	var tools []string
	for _, m := range msgs {
		if m.Role == "tool" {
			tools = append(tools, m.Content)
		}
	}
	switch len(tools) {
	case 0:
		return "<python>\nimport secrets\nt = secrets.token_hex(8)\nopen('marker', 'w').write(t)\nprint('marker', t)\n</python>"
	case 1:
		if m := markerToken.FindStringSubmatch(tools[0]); m != nil {
			p.mu.Lock()
			if p.tokens[m[1]] = true; len(p.tokens) == 2 {
				select {
				case <-p.both:
				default:
					close(p.both)
				}
			}
			p.mu.Unlock()
		}
		select { // the other episode's marker exists before this one looks for it
		case <-p.both:
		case <-time.After(time.Minute):
		}
		return "<python>\n" + p.probe() + "\n</python>"
	}
	return bisect(msgs)
}

func (p *escapePolicy) probe() string {
	t := p.targets
	return fmt.Sprintf(`import glob, os, socket
def attempt(name, f):
    try:
        print(name, "READ", f())
    except OSError as e:
        print(name, type(e).__name__)
attempt("planted", lambda: open(%q).read())
attempt("output", lambda: os.listdir(%q))
attempt("database", lambda: len(open(%q, "rb").read(100)))
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect(%q)
    return "connected"
attempt("socket", connect)
attempt("sandbox-dir", lambda: os.listdir(%q))
print("siblings", [open(m).read() for m in glob.glob(%q + "/*/marker") + glob.glob("/*/marker") if m != "/work/marker"])
print("root", sorted(os.listdir("/")))`, t.planted, t.output, t.database, t.socket, t.sandboxDir, t.sandboxDir)
}

// From inside a real job, the agent's python sees nothing of the host: a
// file planted under /srv, the job's own output folder, the embedded
// server's database and a host Unix socket do not exist for it, and two
// episodes running at once cannot see each other's workspaces. The
// observations are read from the job's shards.
func TestSandboxEscapeFromAJob(t *testing.T) {
	if err := os.MkdirAll("/srv", 0o755); err != nil {
		t.Fatal(err)
	}
	host, err := os.MkdirTemp("/srv", "quarry-escape-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(host) })
	os.Chmod(host, 0o755) // as a shared cluster folder: readable by anyone
	targets := escapeTargets{
		planted:    filepath.Join(host, "answers.txt"),
		output:     filepath.Join(host, "out"),
		database:   filepath.Join(host, "state", "temporal", "temporal.db"), // submit --local --state-dir host/state
		socket:     filepath.Join(host, "host.sock"),
		sandboxDir: filepath.Join(host, "sandbox"),
	}
	if err := os.WriteFile(targets.planted, []byte("the answer is 42"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(targets.sandboxDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", targets.socket)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(targets.socket, 0o777)
	connected := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connected <- struct{}{}
			c.Close()
		}
	}()
	defer ln.Close()

	policy := &escapePolicy{targets: targets, tokens: map[string]bool{}, both: make(chan struct{})}
	srv := openaitest.Start(t, openaitest.WithPolicy(policy.reply))
	turns := runEscapeJob(t, srv, targets)

	probes := 0
	for _, r := range turns {
		if r.ToolResult == nil || !strings.Contains(*r.ToolResult, "siblings ") {
			continue
		}
		probes++
		obs := *r.ToolResult
		for _, want := range []string{"planted FileNotFoundError", "output FileNotFoundError", "database FileNotFoundError",
			"socket FileNotFoundError", "sandbox-dir FileNotFoundError", "siblings []"} {
			if !strings.Contains(obs, want) {
				t.Errorf("episode %s: %q not in the observation:\n%s", r.EpisodeID, want, obs)
			}
		}
		if strings.Contains(obs, "READ") || strings.Contains(obs, "the answer is 42") {
			t.Errorf("episode %s read a host target:\n%s", r.EpisodeID, obs)
		}
	}
	if probes != 2 {
		t.Fatalf("%d probing tool turns in the shards, want one per episode (2)", probes)
	}
	select {
	case <-connected:
		t.Error("the host socket accepted a connection from a sandbox")
	default:
	}
	if n := sandboxtest.LiveProcesses(t, escapeUIDBase, escapeUIDBase+1); n != 0 {
		t.Fatalf("%d sandbox processes left", n)
	}
}

// runEscapeJob runs a two-episode python-tool job in-process, its state
// and output under the targets' folder, and returns its turn rows.
func runEscapeJob(t *testing.T, srv *openaitest.Server, targets escapeTargets) []schema.TurnRow {
	dir := t.TempDir()
	spec, err := loadSpec(writeSpec(t, dir, `
job: escape
seed: 5
envs: [{id: game:GuessTheNumber-v0-hard}]
tasks: 2
samples_per_task: 1
batch_size: 2
max_turns: 12
policy:
  kind: openai
  openai:
    endpoints: [`+srv.BaseURL()+`]
    model: `+openaitest.DefaultModel+`
    sampling: {max_tokens: 64}
tools: {preset: python_tool}
output: `+targets.output+`
`))
	if err != nil {
		t.Fatal(err)
	}
	g := &globals{local: true, stateDir: filepath.Dir(filepath.Dir(targets.database)), queue: workflows.DefaultTaskQueue, out: io.Discard, err: io.Discard}
	ctx := context.Background()
	sess, err := manage(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.close()
	if _, err := os.Stat(targets.database); err != nil {
		t.Fatalf("the embedded server's database is not where the test looks: %v", err)
	}
	host := &toolset.Host{Sandbox: sandbox.Options{BaseDir: targets.sandboxDir, UIDBase: escapeUIDBase, Slots: 2}}
	if err := runWithTools(t, ctx, sess, g.queue, host, spec, 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	_, turns, _ := readShards(t, spec.Output, "escape")
	return turns
}
