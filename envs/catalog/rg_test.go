package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// rgNames reads reasoning-gym's 104 dataset names (testdata/rg_names.txt).
func rgNames(t testing.TB) map[string]bool {
	b, err := os.ReadFile(filepath.Join("testdata", "rg_names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, f := range strings.Fields(line) {
			names[f] = true
		}
	}
	if len(names) != 104 {
		t.Fatalf("testdata/rg_names.txt holds %d names, reasoning-gym 0.1.23 has 104", len(names))
	}
	return names
}

// TestReasoningGymCatalogue: every rg: id is rg:<name> or rg:<name>-retry
// for one of reasoning-gym's dataset names, and every one is documented in
// docs/envs.md (its family tables). It logs how many of the 104
// are registered.
func TestReasoningGymCatalogue(t *testing.T) {
	names := rgNames(t)
	var docs strings.Builder
	for _, pattern := range []string{"../../docs/envs.md"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs.Write(b)
		}
	}
	have := map[string]bool{}
	for _, s := range registry(t).Specs() {
		if s.Category() != "rg" {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(s.ID, "rg:"), rg.RetrySuffix)
		if !names[name] {
			t.Errorf("%s: %q is not a reasoning-gym dataset name", s.ID, name)
		}
		have[name] = true
		if !strings.Contains(docs.String(), "`"+s.ID+"`") && !strings.Contains(docs.String(), "`"+strings.TrimSuffix(s.ID, rg.RetrySuffix)+"`") {
			t.Errorf("%s is not documented in docs/envs.md", s.ID)
		}
	}
	var missing []string
	for n := range names {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	t.Logf("%d of reasoning-gym's 104 datasets registered; not yet: %d", len(have), len(missing))
}

// BenchmarkRGItems reports items generated per second for every rg: id
// (BENCHMARKS.md, "reasoning-gym items").
func BenchmarkRGItems(b *testing.B) { rgtest.BenchmarkItems(b, registry(b)) }
