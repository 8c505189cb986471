// Package sandboxtest holds what tests of sandboxed code share: a work-dir
// base the slot uids can reach, and a count of the processes left running
// as those uids.
package sandboxtest

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Dir is a fresh sandbox base dir (mode 0755, so the slot uids can search
// it), removed when the test ends.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, err := os.MkdirTemp("", "quarry-sb-test-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		tb.Fatal(err)
	}
	return d
}

// LiveProcesses counts the host's live (non-zombie) processes owned by any
// of uids. A zombie orphaned by a killed worker only waits for the host's
// init to reap it.
func LiveProcesses(tb testing.TB, uids ...int) int {
	tb.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil || strings.Contains(string(b), "State:\tZ") {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" {
				if uid, err := strconv.Atoi(f[1]); err == nil && slices.Contains(uids, uid) {
					n++
				}
			}
		}
	}
	return n
}
