// Package sandboxtest holds what tests of sandboxed code share: a work-dir
// base the slot uids can reach, a count of the processes left running as
// those uids, and a package-wide shared sandbox.
package sandboxtest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/sandbox"
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

// Shared is a test package's sandbox: made on first use with the package's
// own uid range (packages' tests run at the same time), its work dirs under
// a temp dir that Cleanup removes (call it from TestMain after m.Run).
type Shared struct {
	UIDBase, Slots int

	once sync.Once
	dir  string
	sb   *sandbox.Sandbox
	err  error
}

// Get returns the shared sandbox, failing the test when the host cannot run
// one.
func (s *Shared) Get(tb testing.TB) *sandbox.Sandbox {
	tb.Helper()
	s.once.Do(func() {
		if s.dir, s.err = os.MkdirTemp("", "quarry-sb-shared-"); s.err != nil {
			return
		}
		if s.err = os.Chmod(s.dir, 0o755); s.err != nil { // the slot uids must traverse it
			return
		}
		ctx := context.Background()
		s.sb, s.err = sandbox.New(ctx, sandbox.Options{BaseDir: filepath.Join(s.dir, "base"), Slots: s.Slots, UIDBase: s.UIDBase})
		if s.err == nil {
			s.err = s.sb.Check(ctx)
		}
	})
	if s.err != nil {
		tb.Fatalf("sandbox unavailable: %v (run as root with bwrap installed by scripts/deps/bubblewrap.sh)", s.err)
	}
	return s.sb
}

// Cleanup removes the shared sandbox's work dirs.
func (s *Shared) Cleanup() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
