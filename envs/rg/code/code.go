// Package code serves reasoning-gym's code datasets (reasoning_gym/code at
// 0.1.23) as rg: envs: predict what a program prints (bf) and what a
// Python function returns or was given (codeio). No program is run when an
// item is drawn: bf programs run in Quarry's own Brainf*ck interpreter, and
// codeio's input/output pairs were recorded once, offline (PROVENANCE.md).
package code

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
)

// Register adds every task of the family.
func Register(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		registerBF,
		registerCodeIO,
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}

func optErr(option, format string, args ...any) error {
	return &envs.OptionError{Option: option, Reason: fmt.Sprintf(format, args...)}
}
