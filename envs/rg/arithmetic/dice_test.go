package arithmetic

import (
	"math/big"
	"testing"

	"github.com/quarry-rl/quarry/envs/rg"
)

// rollsAtLeast counts by enumerating every roll.
func rollsAtLeast(dice []int, target int) (ways, total int) {
	var walk func(i, sum int)
	walk = func(i, sum int) {
		if i == len(dice) {
			total++
			if sum >= target {
				ways++
			}
			return
		}
		for f := 1; f <= dice[i]; f++ {
			walk(i+1, sum+f)
		}
	}
	walk(0, 0)
	return ways, total
}

func TestDiceItems(t *testing.T) {
	for seed := range uint64(50) {
		it := item(t, diceTask, DiceOptions{NumDice: 3, MaxDiceSize: 12}, seed)
		dice, target := it.Meta["dice"].([]int), it.Meta["target"].(int)
		if dice[0] != 12 || len(dice) != 3 || dice[1] < dice[2] || dice[1] >= 12 || dice[2] < 2 {
			t.Fatalf("dice %v", dice)
		}
		w, n := rollsAtLeast(dice, target)
		if want := big.NewRat(int64(w), int64(n)); want.Num().String()+"/"+want.Denom().String() != it.Answer {
			t.Fatalf("%v at least %d: %v, item says %s", dice, target, want, it.Answer)
		}
	}
	if it := item(t, diceTask, DiceOptions{NumDice: 1, MaxDiceSize: 2}, 0); it.Answer != "1/2" && it.Answer != "1/1" {
		t.Fatalf("one coin: %s", it.Answer)
	}
	if it := item(t, diceTask, DiceOptions{NumDice: 20, MaxDiceSize: 100}, 0); it.Data.(*big.Rat).Sign() <= 0 {
		t.Fatalf("20d100: %s", it.Answer)
	}
}

func TestDiceScore(t *testing.T) {
	it := &rg.Item{Answer: "47/96", Data: big.NewRat(47, 96)}
	checkScores(t, scoreDice, it, []scoreCase{
		{"47/96", 1}, {" 47 / 96 ", 1}, {"94/192", 1}, {`\frac{47}{96}`, 1}, {`$\dfrac{47}{96}$`, 1}, {"47/\n96", 1},
		{"96/47", 0}, {"0.4896", 0}, {"47/0", 0}, {"47", 0}, {"", 0},
	})
}
