package induction

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// acreObjectsJSON is reasoning-gym's data/acre_objects.json (see
// PROVENANCE.md): 48 objects by id, each a colour, material and shape.
//
//go:embed data/acre_objects.json
var acreObjectsJSON []byte

// acreObjects are the objects' descriptions, "color material shape".
var acreObjects = func() []string {
	var m map[string]struct{ Color, Material, Shape string }
	if err := json.Unmarshal(acreObjectsJSON, &m); err != nil {
		panic("induction: data/acre_objects.json: " + err.Error())
	}
	out := make([]string, len(m))
	for k, v := range m {
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(m) {
			panic("induction: data/acre_objects.json: key " + k)
		}
		out[i] = v.Color + " " + v.Material + " " + v.Shape
	}
	return out
}()

// ACREOptions are reasoning-gym's ACREDatasetConfig.
type ACREOptions struct {
	// Train is 1 for the training split (its systematic questions use
	// on-off-off machines), 0 for validation and test (on-on-off).
	Train int `json:"train" range:"0,1"`
}

const acreTemplate = `You are a researcher studying causal relationships using Blicket experiments. In these experiments, certain objects (called 'blickets') have the hidden property of activating a detector, causing its light to turn on.

Each example shows the results of placing different combinations of objects on the detector. Each object is described by color, material and shape. Your task is to determine whether a new combination of objects will cause the detector to activate.

After observing the previous examples, respond with:
- "on" if you can determine the detector light will turn on
- "off" if you can determine the detector light will stay off
- "undetermined" if there is insufficient evidence to reach a conclusion

Do not use quotation marks in your answer.

Previous experimental results:
%s

New test case:
%s

What is the detector light status?`

// reasoning-gym's const.py.
const (
	onOffOffMinPotential, onOffOffMaxPotential = 2, 3
	onOffOffMinNon, onOffOffMaxNon             = 3, 5
	onOnOffMinPotential, onOnOffMaxPotential   = 2, 4
	onOnOffMinNon, onOnOffMaxNon               = 3, 4
	attrConfigSize, allConfigSize              = 24, 48
)

// Labels, reasoning-gym's LIGHT_DICT_TEXT indices.
const (
	labelOff = iota
	labelUndetermined
	labelOn
)

var labelText = []string{"off", "undetermined", "on"}

// fixedSumDraws bounds reasoning-gym's fixed_sum_sample loop (it succeeds
// in a few draws whenever it can).
const fixedSumDraws = 1000

// machineDraws bounds the redraws of a machine whose questions cannot be
// drawn (reasoning-gym asserts; it does not happen at its constants).
const machineDraws = 100

// ACRE is reasoning-gym's acre: six Blicket-detector experiments and a new
// combination of objects: is the light on, off or undetermined?
var ACRE = rg.Task[ACREOptions]{
	Name:        "acre",
	Description: "reasoning-gym acre: from Blicket-detector experiments, whether a new set of objects turns the light on, off or is undetermined.",
	Revision:    1,
	DataDigest:  envs.Digest(acreObjectsJSON),
	Defaults:    ACREOptions{Train: 1},
	Generate: func(rng *rand.Rand, o ACREOptions) (rg.Item, error) {
		for range machineDraws {
			views, questions, ok := drawACRE(rng, o.Train == 1)
			if !ok {
				continue
			}
			q := questions[rng.IntN(len(questions))]
			lines := make([]string, len(views))
			for i, v := range views {
				lines[i] = describe(v.objects) + " → " + v.light
			}
			return rg.Item{
				Question: fmt.Sprintf(acreTemplate, strings.Join(lines, "\n"), describe(q.objects)),
				Answer:   labelText[q.label],
				Meta:     map[string]any{"type": q.kind},
			}, nil
		}
		return rg.Item{}, errors.New("no blicket machine with questions drawn")
	},
	// reasoning-gym compares exactly; Quarry ignores case, quotes and a
	// final period.
	Score: func(answer string, it *rg.Item) float64 {
		a := strings.ToLower(strings.Trim(strings.TrimSpace(answer), `"'.`))
		if a == it.Answer {
			return 1
		}
		return rg.DefaultScore(answer, it.Answer)
	},
	Guess: func(rng *rand.Rand, _ *rg.Item) string { return labelText[rng.IntN(3)] },
}

func describe(objects []int) string {
	s := make([]string, len(objects))
	for i, o := range objects {
		s[i] = acreObjects[o]
	}
	return strings.Join(s, ", ")
}

// drawACRE draws one sample the way reasoning-gym's dataset mixes them
// (60% IID, 20% compositional, 20% systematic; IID and compositional half
// on-off-off, half on-on-off machines; systematic by split), and returns
// its six context views and its four questions.
func drawACRE(rng *rand.Rand, train bool) ([]view, []question, bool) {
	regime, size := "IID", allConfigSize
	switch x := rng.Float64(); {
	case x >= 0.8:
		regime = "Sys"
	case x >= 0.6:
		regime, size = "Comp", attrConfigSize
	}
	onOffOff := rng.IntN(2) == 0
	if regime == "Sys" {
		onOffOff = train
	}
	var m *blicketMachine
	if onOffOff {
		m = newMachine(rng, onOffOffMinPotential, onOffOffMaxPotential, onOffOffMinNon, onOffOffMaxNon, size)
	} else {
		m = newMachine(rng, onOnOffMinPotential, onOnOffMaxPotential, onOnOffMinNon, onOnOffMaxNon, size)
	}
	hab := m.habituation()
	var ev []view
	if onOffOff {
		ev = m.onOffOffEvidence()
	} else {
		ev = m.onOnOffEvidence()
	}
	rng.Shuffle(len(hab), func(i, j int) { hab[i], hab[j] = hab[j], hab[i] })
	rng.Shuffle(len(ev), func(i, j int) { ev[i], ev[j] = ev[j], ev[i] })
	views := append(hab, ev...)
	cause, ok := m.causeQuestions(train, regime)
	if !ok {
		return nil, nil, false
	}
	return views, append(cause, m.interventionQuestions(views)...), true
}

// view is one experiment: objects on the detector and the light.
type view struct {
	objects []int
	light   string // "on" or "off"
}

// question is a test combination and its label.
type question struct {
	objects []int
	label   int
	kind    string // direct, indirect, screen_off or potential
}

// blicketMachine is reasoning-gym's BlicketQuestion: the objects' hidden
// roles and the bookkeeping of how each is known.
type blicketMachine struct {
	rng                         *rand.Rand
	blickets, potential, non    []int
	sets                        [][]int // set blickets, each sorted
	direct, indirect, screenOff []int
}

func newMachine(rng *rand.Rand, minP, maxP, minN, maxN, size int) *blicketMachine {
	p, n := rg.Between(rng, minP, maxP), rg.Between(rng, minN, maxN)
	s := rng.Perm(size)[:p+n]
	return &blicketMachine{rng: rng, potential: slices.Clone(s[:p]), non: slices.Clone(s[p:])}
}

// sample is Python's random.sample: k distinct elements of xs in random
// order.
func (m *blicketMachine) sample(xs []int, k int) []int {
	out := slices.Clone(xs)
	m.rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:k]
}

func (m *blicketMachine) addBlicket(o int) {
	m.potential = slices.DeleteFunc(m.potential, func(x int) bool { return x == o })
	m.blickets = append(m.blickets, o)
}

func subset(a, b []int) bool { // a ⊂ b, strictly
	if len(a) >= len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// addSet is reasoning-gym's add_set_blicket: keep only minimal sets.
func (m *blicketMachine) addSet(s []int) {
	var drop [][]int
	for _, t := range m.sets {
		if subset(s, t) {
			drop = append(drop, t)
		}
		if subset(t, s) {
			drop = append(drop, s)
		}
	}
	m.sets = append(m.sets, s)
	for _, d := range drop {
		if i := slices.IndexFunc(m.sets, func(t []int) bool { return slices.Equal(t, d) }); i >= 0 {
			m.sets = slices.Delete(m.sets, i, i+1)
		}
	}
}

func (m *blicketMachine) hasSet(s []int) bool {
	return slices.ContainsFunc(m.sets, func(t []int) bool { return slices.Equal(t, s) })
}

// habituation: a blicket alone (on), a non-blicket alone (off), both (on).
func (m *blicketMachine) habituation() []view {
	b := m.potential[0]
	m.addBlicket(b)
	n := m.non[0]
	m.direct = append(m.direct, b)
	m.screenOff = append(m.screenOff, n)
	return []view{{[]int{b}, "on"}, {[]int{n}, "off"}, {[]int{b, n}, "on"}}
}

// unionSample is reasoning-gym's union_sample: two subsets covering union,
// the second possibly sharing some of the first.
func (m *blicketMachine) unionSample(union []int) ([]int, []int) {
	first := m.sample(union, rg.Between(m.rng, 1, len(union)))
	var second []int
	for _, x := range union {
		if !slices.Contains(first, x) {
			second = append(second, x)
		}
	}
	lo := 0
	if len(second) == 0 {
		lo = 1
	}
	return first, append(second, m.sample(first, rg.Between(m.rng, lo, len(first)))...)
}

// addNoise adds some of the non-blickets not used in habituation.
func (m *blicketMachine) addNoise(v *view) {
	v.objects = append(v.objects, m.sample(m.non[1:], rg.Between(m.rng, 0, len(m.non)-1))...)
}

func sortedSet(xs ...[]int) []int {
	var out []int
	for _, x := range xs {
		for _, o := range x {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	slices.Sort(out)
	return out
}

func minus(a, b []int) []int {
	return slices.DeleteFunc(slices.Clone(a), func(x int) bool { return slices.Contains(b, x) })
}

func intersect(a, b []int) []int {
	return slices.DeleteFunc(slices.Clone(a), func(x int) bool { return !slices.Contains(b, x) })
}

func appendNew(xs []int, ys ...int) []int {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// onOffOffEvidence: the remaining potential blickets (with noise) turn the
// light on; two covering sets of non-blickets leave it off.
func (m *blicketMachine) onOffOffEvidence() []view {
	a, b := m.unionSample(m.non[1:])
	on := view{objects: slices.Clone(m.potential), light: "on"}
	if len(on.objects) == 1 {
		m.addBlicket(on.objects[0])
	} else {
		m.addSet(sortedSet(on.objects))
	}
	m.addNoise(&on)
	offUnion := sortedSet(m.non[1:])
	onSet := sortedSet(on.objects)
	m.direct = append(m.direct, minus(offUnion, onSet)...)
	m.screenOff = append(m.screenOff, intersect(offUnion, onSet)...)
	if len(onSet) == 1 {
		m.direct = append(m.direct, onSet...)
	} else if d := minus(onSet, offUnion); len(d) == 1 {
		m.indirect = append(m.indirect, d...)
	}
	return []view{on, {a, "off"}, {b, "off"}}
}

// onOnOffEvidence: two covering sets of the potential blickets (with noise)
// turn the light on; the non-blickets leave it off.
func (m *blicketMachine) onOnOffEvidence() []view {
	off := view{objects: slices.Clone(m.non[1:]), light: "off"}
	a, b := m.unionSample(m.potential)
	for _, s := range [][]int{a, b} {
		if len(s) == 1 && !slices.Contains(m.blickets, s[0]) {
			m.addBlicket(s[0])
		}
	}
	for _, s := range [][]int{a, b} {
		if len(intersect(s, m.blickets)) == 0 {
			if set := sortedSet(s); !m.hasSet(set) {
				m.addSet(set)
			}
		}
	}
	v1, v2 := view{slices.Clone(a), "on"}, view{slices.Clone(b), "on"}
	m.addNoise(&v1)
	m.addNoise(&v2)
	onUnion := sortedSet(v1.objects, v2.objects)
	offSet := sortedSet(off.objects)
	m.direct = append(m.direct, minus(offSet, onUnion)...)
	m.screenOff = append(m.screenOff, intersect(offSet, onUnion)...)
	for _, v := range []view{v1, v2} {
		if len(v.objects) == 1 {
			m.direct = appendNew(m.direct, v.objects[0])
		}
	}
	for _, v := range []view{v1, v2} {
		if d := minus(sortedSet(v.objects), offSet); len(v.objects) > 1 && len(d) == 1 && !slices.Contains(m.direct, d[0]) {
			m.indirect = appendNew(m.indirect, d[0])
		}
	}
	return []view{v1, v2, off}
}

// causeQuestions are reasoning-gym's generate_cause_questions: two single
// objects, split between directly and indirectly known ones, screened-off
// ones and (at most one) potential blicket, within the regime's limits.
func (m *blicketMachine) causeQuestions(train bool, regime string) ([]question, bool) {
	slack := 1
	switch {
	case regime == "Comp":
		slack = 2
	case regime == "Sys" && train:
		slack = 3
	}
	upper := [3]int{len(m.direct), len(m.indirect), max(len(m.screenOff)-slack, 0)}
	p := min(len(m.potential), 1)
	total := 2 - p
	if upper[0]+upper[1]+upper[2] < total {
		return nil, false
	}
	var n [3]int
	for try := 0; ; try++ {
		if try == fixedSumDraws {
			return nil, false
		}
		residual := total
		n[0] = rg.Between(m.rng, 0, min(upper[0], residual))
		residual -= n[0]
		n[1] = rg.Between(m.rng, 0, min(upper[1], residual))
		residual -= n[1]
		if residual <= upper[2] {
			n[2] = residual
			break
		}
	}
	var qs []question
	for _, o := range m.sample(m.direct, n[0]) {
		l := labelOff
		if slices.Contains(m.blickets, o) {
			l = labelOn
		}
		qs = append(qs, question{[]int{o}, l, "direct"})
	}
	for _, o := range m.sample(m.indirect, n[1]) {
		qs = append(qs, question{[]int{o}, labelOn, "indirect"})
	}
	for _, o := range m.sample(m.screenOff, n[2]) {
		qs = append(qs, question{[]int{o}, labelOff, "screen_off"})
	}
	for _, o := range m.sample(m.potential, p) {
		qs = append(qs, question{[]int{o}, labelUndetermined, "potential"})
	}
	m.rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	return qs, true
}

// interventionQuestions are reasoning-gym's generate_intervention_questions:
// an off view plus one more object or set blicket, twice.
func (m *blicketMachine) interventionQuestions(views []view) []question {
	var offs []view
	for _, v := range views {
		if v.light == "off" {
			offs = append(offs, v)
		}
	}
	off := offs[m.rng.IntN(len(offs))]
	var choices [][]int
	for _, o := range minus(sortedSet(m.blickets, m.potential, m.non), off.objects) {
		choices = append(choices, []int{o})
	}
	choices = append(choices, m.sets...)
	// reasoning-gym weights potential blickets double.
	for _, o := range minus(sortedSet(m.potential), off.objects) {
		choices = append(choices, []int{o})
	}
	idx := m.rng.Perm(len(choices))[:2]
	var qs []question
	for _, i := range idx {
		c := choices[i]
		kind, label := "indirect", labelOn // a set blicket
		if len(c) == 1 {                   // else a set blicket (at least two objects)
			o := c[0]
			switch {
			case slices.Contains(m.direct, o):
				kind = "direct"
			case slices.Contains(m.indirect, o):
				kind = "indirect"
			case slices.Contains(m.screenOff, o):
				kind = "screen_off"
			default:
				kind = "potential"
			}
			switch {
			case slices.Contains(m.blickets, o):
				label = labelOn
			case slices.Contains(m.potential, o):
				label = labelUndetermined
			default:
				label = labelOff
			}
		}
		qs = append(qs, question{append(slices.Clone(off.objects), c...), label, kind})
	}
	m.rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	return qs
}
