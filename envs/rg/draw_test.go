package rg

import (
	"errors"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

func TestParseInteger(t *testing.T) {
	for in, want := range map[string]int64{"12": 12, " 12.0 ": 12, "+12": 12, "1,000": 1000, "-7.": -7} {
		if got, ok := ParseInteger(in); !ok || got != want {
			t.Errorf("ParseInteger(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "12.5", "twelve", "1e16", "0x10"} {
		if got, ok := ParseInteger(in); ok {
			t.Errorf("ParseInteger(%q) = %d, want not a number", in, got)
		}
	}
}

func TestMinMaxBlamesTheMax(t *testing.T) {
	if err := MinMax("min_x", "max_x", 3, 3); err != nil {
		t.Fatal(err)
	}
	var oe *envs.OptionError
	if err := MinMax("min_x", "max_x", 7, 5); !errors.As(err, &oe) || oe.Option != "max_x" || !strings.Contains(oe.Reason, "5 is below min_x 7") {
		t.Fatalf("got %v", err)
	}
}

func TestBetweenCoversBothEnds(t *testing.T) {
	rng := envs.NewRand(1)
	seen := map[int]bool{}
	for range 200 {
		v := Between(rng, 2, 4)
		if v < 2 || v > 4 {
			t.Fatalf("Between(2, 4) = %d", v)
		}
		seen[v] = true
	}
	if len(seen) != 3 {
		t.Fatalf("200 draws from [2, 4] gave %v", seen)
	}
}
