package code

import (
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{})
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }
