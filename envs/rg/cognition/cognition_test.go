package cognition

import (
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

func registry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, Register) }

func TestSuite(t *testing.T) {
	rgtest.Run(t, registry(t), rgtest.Config{
		Ceilings: map[string]float64{
			// reasoning-gym's partial credit is the fraction of stickers on
			// their face's colour, which a lightly scrambled cube already
			// mostly has: any move sequence earns it.
			"rg:rubiks_cube": 0.45,
		},
	})
}

func BenchmarkItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }
