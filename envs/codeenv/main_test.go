package codeenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/quarry-rl/quarry/internal/sandbox"
)

// This package's uid range is 67000…67001; other packages' tests use other
// ranges at the same time.
const (
	testUIDBase = 67000
	testSlots   = 2
)

var (
	baseDir   string // searchable by the slot uids; removed by TestMain
	sbOnce    sync.Once
	sharedSB  *sandbox.Sandbox
	sharedErr error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "codeenv-test-")
	if err == nil {
		err = os.Chmod(dir, 0o755) // the slot uids must traverse it
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "codeenv tests: temp dir:", err)
		os.Exit(1)
	}
	baseDir = filepath.Join(dir, "base")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testSandbox returns the package's shared sandbox; a host that cannot run
// it fails the test.
func testSandbox(tb testing.TB) *sandbox.Sandbox {
	tb.Helper()
	sbOnce.Do(func() {
		ctx := context.Background()
		sharedSB, sharedErr = sandbox.New(ctx, sandbox.Options{BaseDir: baseDir, Slots: testSlots, UIDBase: testUIDBase})
		if sharedErr == nil {
			sharedErr = sharedSB.Check(ctx)
		}
	})
	if sharedErr != nil {
		tb.Fatalf("sandbox unavailable: %v (run as root with bwrap installed by scripts/deps/bubblewrap.sh)", sharedErr)
	}
	return sharedSB
}

// sandboxFunc is the SandboxFunc the tests register: the shared sandbox.
func sandboxFunc(tb testing.TB) SandboxFunc {
	return func(context.Context) (*sandbox.Sandbox, error) { return testSandbox(tb), nil }
}
