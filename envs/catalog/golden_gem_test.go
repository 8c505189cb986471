package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// gemExceptions are GEM registration parameters Quarry deliberately does not
// mirror, each with its reason (docs/envs.md lists them too).
var gemExceptions = map[string]string{
	// GEM registers room_size=None for the random variant and never reads it;
	// the random draw picks dim_room itself.
	"game:Sokoban-v0-random/room_size": "ignored by GEM",
}

// TestGEMGameCatalogue: the registry holds exactly GEM's 39 game ids (plus
// the GuessTheNumber-v0 alias), each with GEM's registration parameters.
// testdata/gem_games.json was extracted from GEM's gem/envs/__init__.py
// (axon-rl/gem @ 4069f2f).
func TestGEMGameCatalogue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "gem_games.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gem map[string]map[string]any
	if err := json.Unmarshal(b, &gem); err != nil {
		t.Fatal(err)
	}
	if len(gem) != 39 {
		t.Fatalf("fixture has %d ids, GEM registers 39", len(gem))
	}
	r := registry(t)
	var ours []string
	for _, s := range r.Specs() {
		if s.Category() == "game" {
			ours = append(ours, s.ID)
		}
	}
	var want []string
	for id := range gem {
		want = append(want, id)
	}
	slices.Sort(want)
	if !slices.Equal(ours, want) {
		t.Fatalf("game ids differ from GEM's:\n ours %v\n GEM  %v", ours, want)
	}
	if target := r.Aliases()["game:GuessTheNumber-v0"]; target != "game:GuessTheNumber-v0-hard" {
		t.Fatalf("alias game:GuessTheNumber-v0 → %q", target)
	}
	for _, id := range want {
		s, _ := r.Lookup(id)
		defaults := s.Defaults()
		for key, gv := range gem[id] {
			if _, ok := gemExceptions[id+"/"+key]; ok {
				continue
			}
			ov, ok := defaults[key]
			if !ok {
				t.Errorf("%s: GEM parameter %s=%v has no Quarry option (options: %v)", id, key, gv, keys(defaults))
				continue
			}
			if !reflect.DeepEqual(ov, gv) {
				t.Errorf("%s: %s = %v, GEM registers %v", id, key, ov, gv)
			}
		}
	}
}

func keys(m map[string]any) string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return strings.Join(k, ", ")
}
