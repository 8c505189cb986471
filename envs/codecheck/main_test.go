package codecheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/sandbox"
)

// testUIDBase is this package's uid range (66000…66003); other packages'
// tests use 61000–65010 at the same time.
const (
	testUIDBase = 66000
	testSlots   = 4
)

var (
	baseDir   string // searchable by the slot uids; removed by TestMain
	sbOnce    sync.Once
	sharedSB  *sandbox.Sandbox
	sharedErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "codecheck-test-")
	if err == nil {
		err = os.Chmod(dir, 0o755) // the slot uids must traverse it
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "codecheck tests: temp dir:", err)
		os.Exit(1)
	}
	baseDir = filepath.Join(dir, "base")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testSandbox returns the package's shared sandbox; a host that cannot run
// it fails the test.
func testSandbox(t testing.TB) *sandbox.Sandbox {
	t.Helper()
	sbOnce.Do(func() {
		ctx := context.Background()
		sharedSB, sharedErr = sandbox.New(ctx, sandbox.Options{BaseDir: baseDir, Slots: testSlots, UIDBase: testUIDBase})
		if sharedErr == nil {
			sharedErr = sharedSB.Check(ctx)
		}
	})
	if sharedErr != nil {
		t.Fatalf("sandbox unavailable: %v (run as root with bwrap installed by scripts/deps/bubblewrap.sh)", sharedErr)
	}
	return sharedSB
}
