package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// BaseConversionOptions are reasoning-gym's BaseConversionConfig. Quarry
// caps values at 10^15 (JSON doubles are exact below 2^53).
type BaseConversionOptions struct {
	MinBase  int   `json:"min_base" range:"2,36"`
	MaxBase  int   `json:"max_base" range:"2,36"`
	MinValue int64 `json:"min_value" range:"0,1000000000000000"`
	MaxValue int64 `json:"max_value" range:"0,1000000000000000"`
}

// Validate is reasoning-gym's (min_value < max_value) but also refuses
// min_base = max_base: the source and target bases differ, and
// reasoning-gym's draw loops forever when only one base is allowed.
func (o BaseConversionOptions) Validate() error {
	if o.MaxBase <= o.MinBase {
		return &envs.OptionError{Option: "max_base", Reason: fmt.Sprintf("%d must exceed min_base %d (the two bases differ)", o.MaxBase, o.MinBase)}
	}
	if o.MaxValue <= o.MinValue {
		return &envs.OptionError{Option: "max_value", Reason: fmt.Sprintf("%d must exceed min_value %d", o.MaxValue, o.MinValue)}
	}
	return nil
}

func baseName(b int) string {
	switch b {
	case 2:
		return "binary"
	case 16:
		return "hexadecimal"
	}
	return fmt.Sprintf("base-%d", b)
}

type baseData struct {
	value int64
	base  int
}

var baseConversionTask = rg.Task[BaseConversionOptions]{
	Name:        "base_conversion",
	Description: "reasoning-gym base_conversion: convert an integer between two bases from 2 to 36.",
	Revision:    1,
	Defaults:    BaseConversionOptions{MinBase: 2, MaxBase: 16, MinValue: 0, MaxValue: 1000},
	Generate: func(rng *rand.Rand, o BaseConversionOptions) (rg.Item, error) {
		value := o.MinValue + rng.Int64N(o.MaxValue-o.MinValue+1)
		src := numRandInt(rng, o.MinBase, o.MaxBase)
		// Uniform over the other bases, as reasoning-gym's redraw loop is.
		dst := numRandInt(rng, o.MinBase, o.MaxBase-1)
		if dst >= src {
			dst++
		}
		answer := strconv.FormatInt(value, dst)
		srcRepr := strconv.FormatInt(value, src)
		return rg.Item{
			Question: fmt.Sprintf("Your task is to convert a number between two different bases.\n\n"+
				"If the target base is > 10, use lowercase letters a-z for digits above 9.\n\n"+
				"Now, convert the %s number %s to %s\n", baseName(src), srcRepr, baseName(dst)),
			Answer: answer,
			Data:   baseData{value: value, base: dst},
			Meta:   map[string]any{"decimal_value": value, "source_base": src, "target_base": dst, "source_repr": srcRepr, "target_repr": answer},
		}, nil
	},
	Score: scoreBase,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		d := it.Data.(baseData)
		return strconv.FormatInt(rng.Int64N(2*d.value+10), d.base)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		d := it.Data.(baseData)
		v, ok := parseBase(answer, d.base)
		switch {
		case !ok:
			return fmt.Sprintf("Your answer is not a number in %s.", baseName(d.base))
		case v > d.value:
			return "Your answer is too high."
		case v < d.value:
			return "Your answer is too low."
		}
		return "Your answer has the right value but is not in the expected form."
	},
}

// parseBase reads a number in base, in either case, with the prefix 0b,
// 0o or 0x where it names base.
func parseBase(s string, base int) (int64, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > 80 {
		return 0, false
	}
	if p, ok := map[int]string{2: "0b", 8: "0o", 16: "0x"}[base]; ok {
		s = strings.TrimPrefix(s, p)
	}
	v, err := strconv.ParseInt(s, base, 64)
	return v, err == nil && !strings.HasPrefix(s, "+") && !strings.HasPrefix(s, "-")
}

// scoreBase is reasoning-gym's default (exact match, else the containment
// credit), lenient where the digits are the same number: upper-case
// letters, leading zeros, a 0b/0o/0x prefix for bases 2/8/16.
func scoreBase(answer string, it *rg.Item) float64 {
	d := it.Data.(baseData)
	if v, ok := parseBase(answer, d.base); ok && v == d.value {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
