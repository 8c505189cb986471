// Package mcptest finds the npm MCP servers the tests run (installed by
// scripts/deps/mcp.sh into tools/mcp/testdata/npm) where the unprivileged
// user that stdio servers run as can read them.
//
// When the tests run as root, servers run as nobody, who cannot enter a
// checkout under a private folder (a CI clone in a 0700 temporary dir, or
// under /root). NPM then copies the installed node_modules once to a
// world-readable temporary folder, which Close removes.
package mcptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// NPM is one test binary's view of the installed npm servers. Declare one
// per test package and call Close from TestMain.
type NPM struct {
	// Dir is the folder holding package.json and node_modules, relative to
	// the test's working directory (e.g. "testdata/npm").
	Dir string

	mu      sync.Mutex
	modules string // the node_modules folder in use, once found
	copied  string // the temporary folder holding a copy, if one was made
}

// Node returns the path of node, failing the test when it is missing.
func Node(tb testing.TB) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Fatalf("node not found (%v): run scripts/deps/mcp.sh", err)
	}
	return node
}

// Entry returns the absolute path of pkg's entry script (pkg such as
// "@modelcontextprotocol/server-everything"), failing the test, never
// skipping it, when the server is not installed.
func (n *NPM) Entry(tb testing.TB, pkg string) string {
	tb.Helper()
	modules, err := n.nodeModules()
	if err != nil {
		tb.Fatal(err)
	}
	entry := filepath.Join(modules, pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		tb.Fatalf("the npm MCP server %s is not installed (%v): run scripts/deps/mcp.sh", pkg, err)
	}
	return entry
}

func (n *NPM) nodeModules() (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.modules != "" {
		return n.modules, nil
	}
	src, err := filepath.Abs(filepath.Join(n.Dir, "node_modules"))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(src); err != nil {
		return "", fmt.Errorf("the npm MCP servers are not installed (%v): run scripts/deps/mcp.sh", err)
	}
	if os.Geteuid() != 0 || othersCanEnter(src) {
		n.modules = src
		return src, nil
	}
	dir, err := os.MkdirTemp("", "quarry-mcp-npm-")
	if err != nil {
		return "", err
	}
	n.copied = dir
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, "node_modules")
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copy %s where the servers' user can read it: %v: %s", src, err, out)
	}
	n.modules = dst
	return dst, nil
}

// othersCanEnter reports whether every folder from / down to dir can be
// searched by any user.
func othersCanEnter(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

// Close removes the copy, if one was made.
func (n *NPM) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.copied != "" {
		os.RemoveAll(n.copied)
		n.copied, n.modules = "", ""
	}
}
