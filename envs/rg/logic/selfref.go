package logic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// SelfReferenceOptions are reasoning-gym's SelfReferenceConfig fields. As
// there, difficulty is recorded but does not shape the puzzle.
type SelfReferenceOptions struct {
	Difficulty int `json:"difficulty" range:"1,10"`
}

func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for i := 2; i*i <= n; i++ {
		if n%i == 0 {
			return false
		}
	}
	return true
}

func isComposite(n int) bool { return n > 1 && !isPrime(n) }

// selfRefPuzzle holds the numbers of statements 1–4: at least a true, at
// most b false, exactly c true, exactly d false.
type selfRefPuzzle struct{ a, b, c, d int }

// consistent is reasoning-gym's verify_solution_dynamic: every statement
// marked true holds and every one marked false does not.
func (p selfRefPuzzle) consistent(sol [7]bool) bool {
	t := 0
	for _, v := range sol {
		if v {
			t++
		}
	}
	f := 7 - t
	claims := [7]bool{t >= p.a, f <= p.b, t == p.c, f == p.d, sol[2] != sol[3], isPrime(t), isComposite(f)}
	return claims == sol
}

// solutions counts the consistent truth assignments of the 2^7.
func (p selfRefPuzzle) solutions() int {
	n := 0
	for a := range 1 << 7 {
		var sol [7]bool
		for i := range sol {
			sol[i] = a>>i&1 == 1
		}
		if p.consistent(sol) {
			n++
		}
	}
	return n
}

// SelfReference is rg:self_reference: seven statements about how many of
// them are true; how many truth assignments are consistent?
var SelfReference = rg.Task[SelfReferenceOptions]{
	Name:        "self_reference",
	Description: "reasoning-gym self_reference: seven self-referential statements; answer how many truth assignments are consistent.",
	Revision:    1,
	Defaults:    SelfReferenceOptions{Difficulty: 5},
	Generate:    generateSelfReference,
	Score:       scoreInteger,
}

// generateSelfReference is reasoning-gym's generate_dynamic_puzzle: plant
// a number T of true statements, draw which of statements 1–5 are meant
// true, and choose the numbers of statements 1–4 to agree. The answer is
// counted over all assignments, not the planted one.
func generateSelfReference(rng *rand.Rand, o SelfReferenceOptions) (rg.Item, error) {
	const n = 7
	t := 1 + rng.IntN(n-1)
	forced := 0
	if isPrime(t) {
		forced++
	}
	if isComposite(n - t) {
		forced++
	}
	var meant [5]bool
	if k := t - forced; k < 0 || k > 5 {
		// reasoning-gym's fallback (T = 6 needs six of five).
		t, meant = 4, [5]bool{true, true, true, true, false}
	} else {
		for _, i := range rng.Perm(5)[:k] {
			meant[i] = true
		}
	}
	var p selfRefPuzzle
	if meant[0] {
		p.a = rg.Between(rng, 1, t)
	} else if t+1 > n {
		p.a = n
	} else {
		p.a = rg.Between(rng, t+1, n)
	}
	if meant[1] {
		p.b = rg.Between(rng, n-t, n)
	} else {
		p.b = rg.Between(rng, 0, max(n-t-1, 0))
	}
	p.c = t
	if !meant[2] {
		p.c = exceptOne(rng, n, t)
	}
	p.d = n - t
	if !meant[3] {
		p.d = exceptOne(rng, n, n-t)
	}
	statements := []string{
		fmt.Sprintf("Statement 1: 'At least %d of these 7 statements are true.'", p.a),
		fmt.Sprintf("Statement 2: 'At most %d of these 7 statements are false.'", p.b),
		fmt.Sprintf("Statement 3: 'Exactly %d of these 7 statements are true.'", p.c),
		fmt.Sprintf("Statement 4: 'Exactly %d of these 7 statements are false.'", p.d),
		"Statement 5: 'Either Statement 3 or Statement 4 is true, but not both.'",
		"Statement 6: 'The number of true statements is a prime number.'",
		"Statement 7: 'The number of false statements is a composite number.'",
	}
	var q strings.Builder
	q.WriteString("Given the truthfulness of these statements, please tell me the number of possible solutions: \n")
	for _, s := range statements {
		q.WriteString(" - " + s + "\n")
	}
	return rg.Item{
		Question: q.String(),
		Answer:   strconv.Itoa(p.solutions()),
		Meta:     map[string]any{"difficulty": o.Difficulty, "parameters": map[string]any{"a": p.a, "b": p.b, "c": p.c, "d": p.d}},
	}, nil
}

// exceptOne draws from 0..n other than x.
func exceptOne(rng *rand.Rand, n, x int) int {
	v := rng.IntN(n)
	if v >= x {
		v++
	}
	return v
}
