package codeenv

import (
	"context"
	"os"
	"testing"

	"github.com/quarry-rl/quarry/internal/sandbox"
	"github.com/quarry-rl/quarry/internal/sandbox/sandboxtest"
)

// shared is this package's sandbox, uids 67000…67001 (other packages' tests
// use other ranges at the same time).
var shared = &sandboxtest.Shared{UIDBase: 67000, Slots: 2}

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Cleanup()
	os.Exit(code)
}

// testSandbox returns the package's shared sandbox; a host that cannot run
// it fails the test.
func testSandbox(tb testing.TB) *sandbox.Sandbox { return shared.Get(tb) }

// sandboxFunc is the SandboxFunc the tests register: the shared sandbox.
func sandboxFunc(tb testing.TB) SandboxFunc {
	return func(context.Context) (*sandbox.Sandbox, error) { return testSandbox(tb), nil }
}
