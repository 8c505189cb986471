package cognition

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SequenceOptions are reasoning-gym's NumberSequenceConfig fields. As
// there, min_value and max_value are validated but do not shape the
// sequence (reasoning-gym keeps every term within ±1000 whatever they are).
// Its curriculum reaches 16 terms and complexity 5; 64 and 10 leave room.
type SequenceOptions struct {
	MinTerms      int `json:"min_terms" range:"4,64"`
	MaxTerms      int `json:"max_terms" range:"4,64"`
	MinValue      int `json:"min_value" range:"-1000000,1000000"`
	MaxValue      int `json:"max_value" range:"-1000000,1000000"`
	MaxComplexity int `json:"max_complexity" range:"1,10"`
}

// Validate checks min_terms ≤ max_terms and min_value < max_value.
func (o SequenceOptions) Validate() error {
	if err := rg.MinMax("min_terms", "max_terms", o.MinTerms, o.MaxTerms); err != nil {
		return err
	}
	if o.MaxValue <= o.MinValue {
		return &envs.OptionError{Option: "max_value", Reason: fmt.Sprintf("%d is not above min_value %d", o.MaxValue, o.MinValue)}
	}
	return nil
}

// Sequence operations, in reasoning-gym's order. alt and compose do nothing
// when applied (reasoning-gym's rules never give compose sub-rules), but
// they are drawn like the others, so they stay.
const (
	opAdd = iota
	opMul
	opSquare
	opDouble
	opHalf
	opPrevPlus
	opAlt
	opCompose
	numSeqOps
)

// termLimit is reasoning-gym's is_interesting bound; overflow guards work
// far above it.
const (
	termLimit     = 1000
	overflowLimit = 1_000_000_000
)

type seqRule struct {
	ops    []int
	params []int64
}

// apply computes the term after seq[pos]; ok is false once a value leaves
// overflowLimit (such a sequence is rejected as too large anyway).
func (r seqRule) apply(seq []int64, pos int) (int64, bool) {
	v := seq[pos]
	for i, op := range r.ops {
		switch op {
		case opAdd:
			v += r.params[i]
		case opMul:
			v *= r.params[i]
		case opSquare:
			v *= v
		case opDouble:
			v *= 2
		case opHalf:
			v = floorDiv2(v)
		case opPrevPlus:
			if pos > 0 {
				v += seq[pos-1]
			}
		}
		if v > overflowLimit || v < -overflowLimit {
			return 0, false
		}
	}
	return v, true
}

func floorDiv2(v int64) int64 {
	if v < 0 {
		return -((-v + 1) / 2)
	}
	return v / 2
}

func (r seqRule) String() string {
	var parts []string
	for i, op := range r.ops {
		switch op {
		case opAdd:
			parts = append(parts, fmt.Sprintf("add %d", r.params[i]))
		case opMul:
			parts = append(parts, fmt.Sprintf("multiply by %d", r.params[i]))
		case opSquare:
			parts = append(parts, "square")
		case opDouble:
			parts = append(parts, "double")
		case opHalf:
			parts = append(parts, "halve")
		case opPrevPlus:
			parts = append(parts, "add previous")
		}
	}
	return strings.Join(parts, " then ")
}

// NumberSequence is rg:number_sequence: continue an integer sequence made
// by a rule of composed operations.
var NumberSequence = rg.Task[SequenceOptions]{
	Name:        "number_sequence",
	Description: "reasoning-gym number_sequence: give the next term of an integer sequence.",
	Revision:    1,
	Defaults:    SequenceOptions{MinTerms: 4, MaxTerms: 8, MinValue: -100, MaxValue: 100, MaxComplexity: 3},
	Generate:    generateSequence,
	Score:       scoreInteger,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		return strconv.Itoa(rng.IntN(2001) - 1000)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		n, _ := strconv.ParseInt(it.Answer, 10, 64)
		return tooHighOrLow(answer, n)
	},
}

func generateSequence(rng *rand.Rand, o SequenceOptions) (rg.Item, error) {
	complexity := rg.Between(rng, 1, o.MaxComplexity)
	var rule seqRule
	var seq []int64
	numTerms := 0
	found := false
	for range 10 { // reasoning-gym's max_attempts
		rule = seqRule{}
		for range rg.Between(rng, 1, complexity+1) {
			op := rng.IntN(numSeqOps)
			var p int64
			if op == opAdd || op == opMul {
				p = int64(rg.Between(rng, 1, 20))
				if p > 10 { // -10..10 without 0
					p = 10 - p
				}
			}
			rule.ops, rule.params = append(rule.ops, op), append(rule.params, p)
		}
		numTerms = rg.Between(rng, o.MinTerms, o.MaxTerms)
		seq = append(seq[:0], int64(rg.Between(rng, -10, 10)))
		ok := true
		for i := range numTerms {
			next, fine := rule.apply(seq, i)
			if !fine {
				ok = false
				break
			}
			seq = append(seq, next)
		}
		if ok && interesting(seq, complexity) {
			found = true
			break
		}
	}
	if !found {
		rule = seqRule{ops: []int{opAdd}, params: []int64{2}}
		seq = seq[:0]
		for i := range numTerms + 1 {
			seq = append(seq, int64(2*i))
		}
	}
	shown := make([]string, len(seq)-1)
	for i, v := range seq[:len(seq)-1] {
		shown[i] = strconv.FormatInt(v, 10)
	}
	return rg.Item{
		Question: strings.Join(shown, ", ") + ", ?",
		Answer:   strconv.FormatInt(seq[len(seq)-1], 10),
		Meta:     map[string]any{"rule": rule.String(), "complexity": complexity, "sequence": seq},
	}, nil
}

// interesting is reasoning-gym's is_interesting: terms within ±1000, not
// constant, and not an arithmetic progression above complexity 1.
func interesting(seq []int64, complexity int) bool {
	constant, arithmetic := true, true
	for i, v := range seq {
		if v > termLimit || v < -termLimit {
			return false
		}
		if v != seq[0] {
			constant = false
		}
		if i >= 2 && v-seq[i-1] != seq[1]-seq[0] {
			arithmetic = false
		}
	}
	return !constant && !(complexity > 1 && arithmetic)
}

// scoreInteger is reasoning-gym's default score_answer for an integer
// answer, with number formats made equal first: "1,000", "1000.0" and
// "+1000" are 1000 (reasoning-gym's exact match would give them partial or
// no credit). Anything else is scored by the default rule on the text.
func scoreInteger(answer string, it *rg.Item) float64 {
	if n, ok := rg.ParseInteger(answer); ok && strconv.FormatInt(n, 10) == it.Answer {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}
