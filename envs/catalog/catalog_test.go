package catalog

import (
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

func registry(tb testing.TB) *envs.Registry {
	tb.Helper()
	r, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func TestConformance(t *testing.T) {
	r := registry(t)
	for _, id := range r.IDs() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			envtest.Run(t, r, id)
		})
	}
}
