package codecheck

import (
	"os"
	"testing"

	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
)

// shared is this package's sandbox, uids 66000…66003 (other packages' tests
// use other ranges at the same time).
var shared = &sandboxtest.Shared{UIDBase: 66000, Slots: 4}

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Cleanup()
	os.Exit(code)
}

// testSandbox returns the package's shared sandbox; a host that cannot run
// it fails the test.
func testSandbox(tb testing.TB) *sandbox.Sandbox { return shared.Get(tb) }
