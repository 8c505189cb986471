package main

import (
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/tools/mcp"
)

// A worker asked to run MCP stdio servers as root refuses to start, naming
// the flags, before it dials anything.
func TestMCPRootRefused(t *testing.T) {
	for _, args := range [][]string{{"--mcp-uid", "0"}, {"--mcp-gid", "0"}, {"--mcp-uid", "-1"}} {
		cmd := newRoot()
		cmd.SetArgs(append(args, "--address", "127.0.0.1:1"))
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), "--mcp-uid") || !strings.Contains(err.Error(), "never run as root") {
			t.Errorf("%v: %v, want a refusal naming --mcp-uid", args, err)
		}
	}
	if got := mcpOptions(mcp.User{UID: 1000, GID: 1000}, "/srv/mcp"); len(got) != 2 {
		t.Errorf("a user and a home dir make %d MCP options, want 2", len(got))
	}
}
