package logic

import (
	"math/rand/v2"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// SyllogismOptions are reasoning-gym's SyllogismConfig fields.
type SyllogismOptions struct {
	AllowAll             bool    `json:"allow_all"`
	AllowNo              bool    `json:"allow_no"`
	AllowSome            bool    `json:"allow_some"`
	AllowSomeNot         bool    `json:"allow_some_not"`
	InvalidRatio         float64 `json:"invalid_ratio" range:"0,1"`
	InversionProbability float64 `json:"inversion_probability" range:"0,1"`
}

// Validate is reasoning-gym's: at least one quantifier.
func (o SyllogismOptions) Validate() error {
	if !o.AllowAll && !o.AllowNo && !o.AllowSome && !o.AllowSomeNot {
		return &envs.OptionError{Option: "allow_all", Reason: "at least one of allow_all, allow_no, allow_some and allow_some_not must be true"}
	}
	return nil
}

// A quantifier of a categorical statement: All (A), No (E), Some (I),
// Some … are not (O).
type quantifier int

const (
	qAll quantifier = iota
	qNo
	qSome
	qSomeNot
)

func (q quantifier) negative() bool   { return q == qNo || q == qSomeNot }
func (q quantifier) particular() bool { return q == qSome || q == qSomeNot }
func (q quantifier) universal() bool  { return q == qAll || q == qNo }

// distributed reports whether the subject and the predicate are
// distributed (A: subject; E: both; I: neither; O: predicate).
func (q quantifier) distributed() (subj, pred bool) {
	switch q {
	case qAll:
		return true, false
	case qNo:
		return true, true
	case qSome:
		return false, false
	}
	return false, true
}

// syllogismTerms are reasoning-gym's DEFAULT_TERMS, as plurals (the only
// form a statement uses).
var syllogismTerms = []string{
	"mortals", "humans", "children", "adults", "parents", "grandparents",
	"philosophers", "students", "teachers", "doctors", "scientists", "artists",
	"musicians", "writers", "programmers", "engineers", "lawyers", "chefs",
	"animals", "mammals", "dogs", "cats", "birds", "fish", "reptiles", "insects",
	"butterflies", "bees", "ants", "spiders", "horses", "elephants", "lions",
	"tigers", "whales", "dolphins",
}

// statement is a categorical proposition over term indices.
type statement struct {
	q          quantifier
	subj, pred int
}

func (s statement) String() string {
	if s.q == qSomeNot {
		return "Some " + syllogismTerms[s.subj] + " are not " + syllogismTerms[s.pred]
	}
	return [...]string{"All", "No", "Some"}[s.q] + " " + syllogismTerms[s.subj] + " are " + syllogismTerms[s.pred]
}

func (s statement) has(term int) bool { return s.subj == term || s.pred == term }

// validSyllogism is reasoning-gym's _is_valid_syllogism: the classical
// rules (one middle term, no two negative or two particular premises, a
// universal conclusion needs universal premises, negative premise ⇔
// negative conclusion) and the distribution rule.
func validSyllogism(p1, p2, c statement) bool {
	terms := map[int]int{}
	for _, t := range []int{p1.subj, p1.pred} {
		terms[t] |= 1
	}
	for _, t := range []int{p2.subj, p2.pred} {
		terms[t] |= 2
	}
	middle, common := -1, 0
	for t, in := range terms {
		if in == 3 {
			middle, common = t, common+1
		}
	}
	if common != 1 || len(terms) != 3 {
		return false
	}
	// The conclusion uses the two other terms.
	if c.subj == c.pred || c.subj == middle || c.pred == middle || terms[c.subj] == 0 || terms[c.pred] == 0 {
		return false
	}
	major, minor := p1, p2
	switch {
	case p1.has(c.pred):
	case p2.has(c.pred):
		major, minor = p2, p1
	default:
		return false
	}
	if !minor.has(c.subj) {
		return false
	}
	q1, q2, q3 := p1.q, p2.q, c.q
	if q1.negative() && q2.negative() || q1.particular() && q2.particular() {
		return false
	}
	if q3.universal() && (q1.particular() || q2.particular()) {
		return false
	}
	if q3.negative() != (q1.negative() || q2.negative()) {
		return false
	}
	cs, cp := q3.distributed()
	if cs {
		ms, mp := minor.q.distributed()
		if c.subj == minor.subj && !ms || c.subj == minor.pred && !mp {
			return false
		}
	}
	if cp {
		ms, mp := major.q.distributed()
		if c.pred == major.subj && !ms || c.pred == major.pred && !mp {
			return false
		}
	}
	return true
}

// validInversion is reasoning-gym's _check_logical_equivalence: the
// conversions that hold are No A are B ⇒ No B are A, All A are B ⇒ Some B
// are A, Some A are B ⇒ Some B are A.
func validInversion(p, c statement) bool {
	swapped := p.subj == c.pred && p.pred == c.subj
	switch p.q {
	case qNo:
		return c.q == qNo && swapped
	case qAll, qSome:
		return c.q == qSome && swapped
	}
	return false
}

func (o SyllogismOptions) quantifiers() []quantifier {
	var qs []quantifier
	for q, ok := range []bool{o.AllowAll, o.AllowNo, o.AllowSome, o.AllowSomeNot} {
		if ok {
			qs = append(qs, quantifier(q))
		}
	}
	return qs
}

// Syllogism is rg:syllogism: does a categorical conclusion follow from two
// premises (or is it a valid conversion of one of them)? Yes or No.
var Syllogism = rg.Task[SyllogismOptions]{
	Name:        "syllogism",
	Description: "reasoning-gym syllogism: does a categorical conclusion follow from two premises? Answer Yes or No.",
	Revision:    1,
	Defaults: SyllogismOptions{
		AllowAll: true, AllowNo: true, AllowSome: true, AllowSomeNot: true,
		InvalidRatio: 0.3, InversionProbability: 0.3,
	},
	Generate: generateSyllogism,
	Score:    scoreYesNo,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		return pick(rng, []string{"Yes", "No"})
	},
}

func generateSyllogism(rng *rand.Rand, o SyllogismOptions) (rg.Item, error) {
	perm := rng.Perm(len(syllogismTerms))
	t0, t1, t2 := perm[0], perm[1], perm[2]
	qs := o.quantifiers()
	if rng.Float64() < o.InversionProbability {
		return inversion(rng, o, qs, t0, t1, t2), nil
	}
	valid := rng.Float64() > o.InvalidRatio
	var p1, p2, c statement
	found := false
	for range 100 {
		p1 = statement{pick(rng, qs), t0, t1}
		p2 = statement{pick(rng, qs), t1, t2}
		c = statement{pick(rng, qs), t0, t2}
		if validSyllogism(p1, p2, c) == valid {
			found = true
			break
		}
	}
	if !found {
		// reasoning-gym's fallback: Barbara, which is valid.
		p1, p2, c = statement{qAll, t0, t1}, statement{qAll, t1, t2}, statement{qAll, t0, t2}
		valid = true
	}
	return syllogismItem(p1, p2, c, valid, map[string]any{"type": "syllogism"}), nil
}

// inversion is reasoning-gym's inversion problem: two premises, and a
// conclusion that converts one of them, validly or not.
func inversion(rng *rand.Rand, o SyllogismOptions, qs []quantifier, t0, t1, t2 int) rg.Item {
	p1 := statement{pick(rng, qs), t0, t1}
	p2 := statement{pick(rng, qs), t1, t2}
	sel := &p1
	selected := 1
	if rng.Float64() >= 0.5 {
		sel, selected = &p2, 2
	}
	// The quantifiers other than Some … are not. reasoning-gym fails when
	// Some … are not is the only one allowed; Quarry draws from All, No and
	// Some then.
	others := make([]quantifier, 0, 3)
	for _, q := range qs {
		if q != qSomeNot {
			others = append(others, q)
		}
	}
	if len(others) == 0 {
		others = []quantifier{qAll, qNo, qSome}
	}
	target := rng.Float64() > o.InvalidRatio
	var c statement
	if target {
		if sel.q == qSomeNot {
			// No valid conversion exists: the premise changes quantifier.
			sel.q = pick(rng, others)
		}
		switch sel.q {
		case qNo:
			c = statement{qNo, sel.pred, sel.subj}
		default: // All ⇒ Some, Some ⇒ Some
			c = statement{qSome, sel.pred, sel.subj}
		}
	} else {
		switch sel.q {
		case qNo:
			c = statement{pick(rng, []quantifier{qAll, qSome}), sel.pred, sel.subj}
		case qAll, qSome:
			c = statement{pick(rng, []quantifier{qAll, qNo}), sel.pred, sel.subj}
		default:
			c = statement{pick(rng, others), sel.pred, sel.subj}
		}
	}
	return syllogismItem(p1, p2, c, validInversion(*sel, c), map[string]any{"type": "inversion", "selected_premise": selected})
}

func syllogismItem(p1, p2, c statement, valid bool, meta map[string]any) rg.Item {
	answer := "No"
	if valid {
		answer = "Yes"
	}
	meta["premise1"], meta["premise2"], meta["conclusion"], meta["is_valid"] = p1.String(), p2.String(), c.String(), valid
	return rg.Item{
		Question: "Consider these statements:\n1. " + p1.String() + "\n2. " + p2.String() +
			"\n\nDoes it logically follow that:\n" + c.String() + "?\n(Answer Yes or No)",
		Answer: answer,
		Meta:   meta,
	}
}

// scoreYesNo is reasoning-gym's default score_answer, lenient about case
// and the punctuation around a bare Yes or No ("yes", "No.").
func scoreYesNo(answer string, it *rg.Item) float64 {
	switch w := normWord(answer); w {
	case "yes", "no":
		if w == normWord(it.Answer) {
			return 1
		}
		return 0
	}
	return rg.DefaultScore(answer, it.Answer)
}
