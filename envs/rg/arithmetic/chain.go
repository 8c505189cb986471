package arithmetic

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// ChainSumOptions are reasoning-gym's ChainSumConfig. reasoning-gym bounds
// neither count; Quarry caps terms at 100 and digits at 18 (the result is
// exact in big.Int either way; longer questions are no new exercise).
type ChainSumOptions struct {
	MinTerms      int  `json:"min_terms" range:"1,100"`
	MaxTerms      int  `json:"max_terms" range:"1,100"`
	MinDigits     int  `json:"min_digits" range:"1,18"`
	MaxDigits     int  `json:"max_digits" range:"1,18"`
	AllowNegation bool `json:"allow_negation"`
}

func (o ChainSumOptions) Validate() error {
	if o.MaxTerms < o.MinTerms {
		return below("max_terms", o.MaxTerms, "min_terms", o.MinTerms)
	}
	if o.MaxDigits < o.MinDigits {
		return below("max_digits", o.MaxDigits, "min_digits", o.MinDigits)
	}
	return nil
}

// ProductsOptions are reasoning-gym's ProductsConfig: the same fields.
type ProductsOptions ChainSumOptions

func (o ProductsOptions) Validate() error { return ChainSumOptions(o).Validate() }

// below is the error for a max option set under its min.
func below(maxName string, hi int, minName string, lo int) error {
	return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%d is below %s %d", hi, minName, lo)}
}

var chainSumTask = rg.Task[ChainSumOptions]{
	Name:        "chain_sum",
	Description: "reasoning-gym chain_sum: add and subtract a chain of integers; answer the value.",
	Revision:    1,
	Defaults:    ChainSumOptions{MinTerms: 2, MaxTerms: 6, MinDigits: 1, MaxDigits: 4},
	Generate: func(rng *rand.Rand, o ChainSumOptions) (rg.Item, error) {
		terms := rg.Between(rng, o.MinTerms, o.MaxTerms)
		digits := rg.Between(rng, o.MinDigits, o.MaxDigits)
		lo, hi := digitRange(digits, o.AllowNegation)
		var expr strings.Builder
		sum := new(big.Int)
		for i := range terms {
			c := randBig(rng, lo, hi)
			op := byte('+')
			if i > 0 {
				op = "+-"[rng.IntN(2)]
				expr.WriteString(" " + string(op) + " ")
			}
			expr.WriteString(c.String())
			if op == '+' {
				sum.Add(sum, c)
			} else {
				sum.Sub(sum, c)
			}
		}
		return rg.Item{
			Question: "State the final answer to the following arithmetic problem: " + expr.String() + " =",
			Answer:   sum.String(),
			Meta:     map[string]any{"num_terms": terms, "num_digits": digits, "expression": expr.String()},
		}, nil
	},
	Score:    scoreDecimal,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return guessSigned(rng, it.Answer) },
	Retry:    true,
	Feedback: numericFeedback,
}

var productsTask = rg.Task[ProductsOptions]{
	Name:        "products",
	Description: "reasoning-gym products: multiply integers; answer the product.",
	Revision:    1,
	Defaults:    ProductsOptions{MinTerms: 2, MaxTerms: 2, MinDigits: 1, MaxDigits: 5},
	Generate: func(rng *rand.Rand, o ProductsOptions) (rg.Item, error) {
		terms := rg.Between(rng, o.MinTerms, o.MaxTerms)
		digits := rg.Between(rng, o.MinDigits, o.MaxDigits)
		lo, hi := digitRange(digits, o.AllowNegation)
		parts := make([]string, terms)
		prod := big.NewInt(1)
		for i := range parts {
			c := randBig(rng, lo, hi)
			parts[i] = c.String()
			prod.Mul(prod, c)
		}
		expr := strings.Join(parts, " * ")
		return rg.Item{
			Question: "Solve the following multiplication: " + expr + ". Give only the result as your final answer.",
			Answer:   prod.String(),
			Meta:     map[string]any{"num_terms": terms, "num_digits": digits, "expression": expr},
		}, nil
	},
	Score:    scoreDecimal,
	Guess:    func(rng *rand.Rand, it *rg.Item) string { return guessSigned(rng, it.Answer) },
	Retry:    true,
	Feedback: numericFeedback,
}

// digitRange is reasoning-gym's operand range for a digit count: 0..9 for
// one digit, else 10^(d-1)..10^d-1; with negation chain_sum draws from
// -(10^d-1)..10^d-1, products from -10^d+1..10^d-1 (the same range).
func digitRange(digits int, negation bool) (lo, hi *big.Int) {
	hi = new(big.Int).Sub(bigPow10(digits), big.NewInt(1))
	switch {
	case negation:
		lo = new(big.Int).Neg(hi)
	case digits == 1:
		lo = big.NewInt(0)
	default:
		lo = bigPow10(digits - 1)
	}
	return lo, hi
}

// guessSigned is a random integer of the truth's magnitude and either sign.
func guessSigned(rng *rand.Rand, truth string) string {
	g := guessNear(rng, truth)
	if strings.HasPrefix(truth, "-") && rng.IntN(2) == 0 {
		return "-" + g
	}
	return g
}
