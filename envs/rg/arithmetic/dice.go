package arithmetic

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// DiceOptions are reasoning-gym's DiceConfig. reasoning-gym leaves both
// open; Quarry caps them at 20 dice of up to 100 sides (its curriculum stops
// at 10 and 35): the count of outcomes is exact, and at most 2000 sums.
type DiceOptions struct {
	NumDice     int `json:"num_dice" range:"1,20"`
	MaxDiceSize int `json:"max_dice_size" range:"2,100"`
}

// atLeast returns how many rolls of dice total target or more, and how many
// rolls there are: a count of ways per sum, one die at a time.
func atLeast(dice []int, target int) (ways, total *big.Int) {
	counts := []*big.Int{big.NewInt(1)} // counts[s]: ways to roll s
	total = big.NewInt(1)
	for _, sides := range dice {
		next := make([]*big.Int, len(counts)+sides)
		for s := range next {
			next[s] = new(big.Int)
		}
		// next[s] = counts[s-1] + … + counts[s-sides]: a running window.
		window := new(big.Int)
		for s := 1; s < len(next); s++ {
			if s-1 < len(counts) {
				window.Add(window, counts[s-1])
			}
			if s-1-sides >= 0 && s-1-sides < len(counts) {
				window.Sub(window, counts[s-1-sides])
			}
			next[s].Set(window)
		}
		counts = next
		total.Mul(total, big.NewInt(int64(sides)))
	}
	ways = new(big.Int)
	for s := max(target, 0); s < len(counts); s++ {
		ways.Add(ways, counts[s])
	}
	return ways, total
}

var diceTask = rg.Task[DiceOptions]{
	Name:        "dice",
	Description: "reasoning-gym dice: the probability of rolling at least a total with a few dice, as a reduced fraction.",
	Revision:    1,
	Defaults:    DiceOptions{NumDice: 4, MaxDiceSize: 20},
	Generate: func(rng *rand.Rand, o DiceOptions) (rg.Item, error) {
		// reasoning-gym: one die of the largest size, the others 2 to one
		// side fewer, largest first; the target in the middle third.
		dice := []int{o.MaxDiceSize}
		for range o.NumDice - 1 {
			d := 2
			if o.MaxDiceSize > 2 {
				d = rg.Between(rng, 2, o.MaxDiceSize-1)
			}
			dice = append(dice, d)
		}
		slices.SortFunc(dice, func(a, b int) int { return b - a })
		lo, hi := o.NumDice, 0
		for _, d := range dice {
			hi += d
		}
		target := rg.Between(rng, lo+(hi-lo)/3, lo+2*(hi-lo)/3)
		ways, total := atLeast(dice, target)
		p := new(big.Rat).SetFrac(ways, total)
		names := make([]string, len(dice))
		for i, d := range dice {
			names[i] = fmt.Sprintf("1d%d", d)
		}
		answer := p.Num().String() + "/" + p.Denom().String()
		return rg.Item{
			Question: fmt.Sprintf("I have these dice: %s. What are the odds of rolling %d or higher? (Assume that all dice are rolled at once, and that '1d6' represents one roll of a 6-sided dice.) Please respond with a reduced fraction representing the probability [ex., 1/60].", strings.Join(names, ", "), target),
			Answer:   answer,
			Data:     p,
			Meta:     map[string]any{"dice": dice, "target": target, "num": p.Num().String(), "den": p.Denom().String()},
		}, nil
	},
	Score: scoreDice,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		den := 2 + rng.IntN(1000)
		return fmt.Sprintf("%d/%d", 1+rng.IntN(den-1), den)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		x, ok := parseRatio(answer)
		switch {
		case !ok:
			return "Your answer is not a fraction."
		case x.Cmp(it.Data.(*big.Rat)) > 0:
			return "Your probability is too high."
		}
		return "Your probability is too low."
	},
}

// parseRatio reads a/b or \frac{a}{b} (and $…$ around it) as a rational;
// a/b is a decimal number on each side ("1,234/5,000" included).
func parseRatio(answer string) (*big.Rat, bool) {
	s := strings.TrimSpace(strings.Trim(strings.TrimSpace(answer), "$"))
	if len(s) > maxAnswerLen {
		return nil, false
	}
	var num, den string
	if m := latexRatio.FindStringSubmatch(s); m != nil {
		num, den = m[1], m[2]
	} else {
		var ok bool
		if num, den, ok = strings.Cut(s, "/"); !ok {
			return nil, false
		}
	}
	n, ok1 := parseNumber(num)
	d, ok2 := parseNumber(den)
	if !ok1 || !ok2 || !n.IsInt() || !d.IsInt() || d.Sign() == 0 {
		return nil, false
	}
	return n.Quo(n, d), true
}

// scoreDice: reasoning-gym gives 1 to the reduced fraction as written (case
// and line breaks aside) and 0 to anything else; Quarry gives 1 to any
// fraction of that value ("2/4" for 1/2, spaces, \frac) and 0 otherwise.
func scoreDice(answer string, it *rg.Item) float64 {
	x, ok := parseRatio(strings.ReplaceAll(answer, "\n", ""))
	if ok && x.Cmp(it.Data.(*big.Rat)) == 0 {
		return 1
	}
	return 0
}
