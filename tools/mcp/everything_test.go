package mcp

import (
	"bufio"
	"context"
	"flag"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/tools/mcp/mcptest"
)

// The reference server @modelcontextprotocol/server-everything, pinned in
// testdata/npm and installed by scripts/deps/mcp.sh, run with node.

var dumpToolsList = flag.String("dump-tools-list", "", "write the everything server's raw tools/list result to this file (input of testdata/gem_instructions.py)")

const goldenInstructions = "testdata/everything_instructions.golden"

// everything returns node and the server's entry script, failing the test
// (never skipping it) when they are missing.
func everything(t testing.TB) (node, entry string) {
	t.Helper()
	return mcptest.Node(t), npm.Entry(t, "@modelcontextprotocol/server-everything")
}

// npm finds the npm servers where the servers' unprivileged user can read
// them (TestMain removes a copy it made).
var npm = &mcptest.NPM{Dir: "testdata/npm"}

func everythingStdio(t testing.TB, env map[string]string) Server {
	node, entry := everything(t)
	return Server{Command: node, Args: []string{entry, "stdio"}, Env: env}
}

// everythingHTTP starts the server's streamable HTTP transport on a free
// loopback port (testdata/loopback.cjs pins its listener to 127.0.0.1) and
// returns its endpoint.
func everythingHTTP(t testing.TB) string {
	t.Helper()
	node, entry := everything(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	preload, _ := filepath.Abs("testdata/loopback.cjs")
	cmd := exec.Command(node, "--require", preload, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the everything server exited before listening")
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the everything server did not start listening")
	}
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
}

func TestEverythingStdio(t *testing.T) {
	env := map[string]string{"PATH": os.Getenv("PATH"), "QUARRY_TEST_SECRET": "tok-1234567890", "QUARRY_WORKER_ONLY": "x"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv := everythingStdio(t, map[string]string{"QUARRY_SECRET": "${QUARRY_TEST_SECRET}"})
	tool := newTool(t, Config{Servers: map[string]Server{"everything": srv}}, WithLookupEnv(lookup))

	instr, err := tool.Instructions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, instr)

	s := openT(t, tool)
	cases := []struct{ action, want string }{
		{gemCall("echo", `{"message": "hello"}`), "Echo: hello"},
		{`<tool_call>{"name": "get-sum", "arguments": {"a": 2, "b": 3.5}}</tool_call>`, "The sum of 2 and 3.5 is 5.5."},
		{gemCall("get-structured-content", `{"location": "Chicago"}`), // Structured content wins over the text blocks, as in GEM; the SDK
			// decodes it into a map, so it prints with sorted keys.
			`{"conditions": "Light rain / drizzle", "humidity": 82, "temperature": 36}`},
	}
	for _, c := range cases {
		if res := run(t, tool, s, c.action); res.Observation != c.want || res.Error {
			t.Errorf("%s: got %q (error %v), want %q", c.action, res.Observation, res.Error, c.want)
		}
	}
	img := run(t, tool, s, gemCall("get-tiny-image", `{}`))
	if lines := strings.Split(img.Observation, "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], "Binary data: ") || !strings.HasSuffix(lines[1], " bytes") {
		t.Errorf("get-tiny-image: %q, want text, binary, text lines", img.Observation)
	}
	// The server rejects arguments that fail its schema with isError.
	if res := run(t, tool, s, gemCall("get-sum", `{"a": "two"}`)); !res.Error || !strings.HasPrefix(res.Observation, "[Tool execution error: ") {
		t.Errorf("get-sum with bad arguments: %+v", res)
	}
	envObs := run(t, tool, s, gemCall("get-env", `{}`)).Observation
	if !strings.Contains(envObs, `"QUARRY_SECRET": "${QUARRY_TEST_SECRET}"`) || strings.Contains(envObs, "tok-1234567890") {
		t.Errorf("get-env: the resolved secret is missing or not redacted:\n%s", envObs)
	}
	if strings.Contains(envObs, "QUARRY_WORKER_ONLY") {
		t.Errorf("get-env: the worker's own variables leaked to the server:\n%s", envObs)
	}

	pid := s.(*session).conns["everything"].cmd.Process.Pid
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

func TestEverythingHTTP(t *testing.T) {
	tool := newTool(t, Config{Servers: map[string]Server{"everything": {URL: everythingHTTP(t)}}})
	instr, err := tool.Instructions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, instr)
	s := openT(t, tool)
	if res := run(t, tool, s, gemCall("echo", `{"message": "over http"}`)); res.Observation != "Echo: over http" {
		t.Errorf("echo: %+v", res)
	}
	if res := run(t, tool, s, gemCall("get-sum", `{"a": 1, "b": 2}`)); res.Observation != "The sum of 1 and 2 is 3." {
		t.Errorf("get-sum: %+v", res)
	}
}

// checkGolden compares instructions with the output of GEM's rendering
// (testdata/gem_instructions.py) on the server's raw tools/list result.
func checkGolden(t *testing.T, instr string) {
	t.Helper()
	want, err := os.ReadFile(goldenInstructions)
	if err != nil {
		t.Fatal(err)
	}
	if instr != string(want) {
		t.Errorf("instructions differ from %s:\n got: %s\nwant: %s", goldenInstructions, instr, want)
	}
}

// TestDumpToolsList writes the raw tools/list result the golden file is
// built from, when asked with -dump-tools-list.
func TestDumpToolsList(t *testing.T) {
	if *dumpToolsList == "" {
		return
	}
	tool := newTool(t, Config{Servers: map[string]Server{"everything": everythingStdio(t, nil)}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	home, err := tool.makeHome("everything")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	sc, _, err := tool.dial(ctx, "everything", false, home, &secrets{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.close()
	if _, err := sc.cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*dumpToolsList, sc.raw.lastResult, 0o644); err != nil {
		t.Fatal(err)
	}
}
