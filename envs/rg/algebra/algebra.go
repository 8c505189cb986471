// Package algebra is GEM's rg: ids for reasoning-gym's algebra datasets:
// complex_arithmetic, intermediate_integration, polynomial_equations,
// polynomial_multiplication, simple_equations and simple_integration, each
// with its -retry variant.
//
// The generators are Quarry's own, written from reasoning-gym 0.1.23's
// rules (reasoning_gym/algebra/*.py): the same options and defaults, the
// same question templates and instructions, items from the same
// distributions. Where reasoning-gym leans on sympy, this package has its
// own small machinery: exact polynomials over big.Rat printed the way
// sympy's str prints them (poly.go), a reader for sympy's expression syntax
// (expr.go), forward-mode differentiation to check antiderivatives
// (calculus.go), and Sturm sequences for real roots (roots.go).
//
// The scorers follow reasoning-gym's score_answer, and accept equivalent
// answers its sympy calls turn down: implicit multiplication (2x), ^ for
// powers, any term order, any antiderivative. docs/envs.md ("The reasoning-gym catalogue") lists
// every rule and every place this package is more lenient.
package algebra

import (
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// Register adds every algebra task and its retry variant.
func Register(r *envs.Registry) error {
	for _, f := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, ComplexArithmetic) },
		func(r *envs.Registry) error { return rg.Register(r, IntermediateIntegration) },
		func(r *envs.Registry) error { return rg.Register(r, PolynomialEquations) },
		func(r *envs.Registry) error { return rg.Register(r, PolynomialMultiplication) },
		func(r *envs.Registry) error { return rg.Register(r, SimpleEquations) },
		func(r *envs.Registry) error { return rg.Register(r, SimpleIntegration) },
	} {
		if err := f(r); err != nil {
			return err
		}
	}
	return nil
}
