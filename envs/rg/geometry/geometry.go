// Package geometry holds reasoning-gym's geometry datasets as rg: envs:
// simple_geometry (the missing interior angle of a polygon) and
// advanced_geometry (orthocenter, incircle radius and angle of a triangle
// with integer vertices). Each is a Task built from reasoning-gym 0.1.23's
// rules (config fields and defaults, question wording, answer form,
// score_answer) with Quarry's own generator; docs/envs.md ("The reasoning-gym catalogue") lists the
// differences.
package geometry

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds both tasks and their retry variants.
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, SimpleGeometry) },
		func(r *envs.Registry) error { return rg.Register(r, AdvancedGeometry) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("geometry: %w", err)
		}
	}
	return nil
}

// maxAnswerLen bounds the answers the parsers read.
const maxAnswerLen = 256

// parseNumber reads a decimal number, a fraction p/q, or either with a
// degree sign or the word degrees after it.
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if len(s) > maxAnswerLen {
		return 0, false
	}
	for _, unit := range []string{"°", "degrees", "degree", "deg", `^\circ`, `^{\circ}`} {
		s = strings.TrimSpace(strings.TrimSuffix(s, unit))
	}
	s = strings.ReplaceAll(s, "−", "-")
	if r, ok := new(big.Rat).SetString(s); ok && s != "" && !strings.ContainsAny(s, "eE") {
		f, _ := r.Float64()
		return f, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
