package arithmetic

import (
	"fmt"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// registerTasks adds the family's reasoning-gym tasks besides
// basic_arithmetic, each as rg:<name> (and rg:<name>-retry where a second
// attempt makes sense).
func registerTasks(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, chainSumTask) },
		func(r *envs.Registry) error { return rg.Register(r, productsTask) },
		func(r *envs.Registry) error { return rg.Register(r, gcdTask) },
		func(r *envs.Registry) error { return rg.Register(r, lcmTask) },
		func(r *envs.Registry) error { return rg.Register(r, countBitsTask) },
		func(r *envs.Registry) error { return rg.Register(r, primeFactorizationTask) },
		func(r *envs.Registry) error { return rg.Register(r, decimalChainSumTask) },
		func(r *envs.Registry) error { return rg.Register(r, decimalArithmeticTask) },
		func(r *envs.Registry) error { return rg.Register(r, bitwiseArithmeticTask) },
		func(r *envs.Registry) error { return rg.Register(r, powerFunctionTask) },
		func(r *envs.Registry) error { return rg.Register(r, legCountingTask) },
		func(r *envs.Registry) error { return rg.Register(r, numberFormatTask) },
		func(r *envs.Registry) error { return rg.Register(r, fractionSimplificationTask) },
		func(r *envs.Registry) error { return rg.Register(r, timeIntervalsTask) },
		func(r *envs.Registry) error { return rg.Register(r, calendarArithmeticTask) },
		func(r *envs.Registry) error { return rg.Register(r, diceTask) },
		func(r *envs.Registry) error { return rg.Register(r, gsmSymbolicTask) },
	} {
		if err := reg(r); err != nil {
			return fmt.Errorf("arithmetic: %w", err)
		}
	}
	return nil
}
