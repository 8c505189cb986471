package logic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// AIWOptions are reasoning-gym's AliceInWonderlandConfig fields.
// reasoning-gym leaves max_entities open; its curriculum reaches 16.
type AIWOptions struct {
	MaleNames       []string  `json:"male_names" len:"1,100"`
	FemaleNames     []string  `json:"female_names" len:"1,100"`
	TaskTypes       []string  `json:"task_types" len:"1,3"`
	TaskTypeWeights []float64 `json:"task_type_weights" len:"1,3" range:"0,1"`
	MaxEntities     int       `json:"max_entities" range:"1,100"`
}

// aiwTaskTypes are reasoning-gym's TaskType values.
var aiwTaskTypes = []string{"siblings", "friends", "colleagues"}

// Validate is reasoning-gym's (names given, Alice among the female names,
// a task type) plus what its generator assumes: known task types, one
// weight per type with a positive sum, names of 1 to 64 bytes.
func (o AIWOptions) Validate() error {
	for _, l := range []struct {
		option string
		names  []string
	}{{"male_names", o.MaleNames}, {"female_names", o.FemaleNames}} {
		for _, n := range l.names {
			if n == "" || len(n) > 64 {
				return &envs.OptionError{Option: l.option, Reason: fmt.Sprintf("name %q: want 1 to 64 bytes", n)}
			}
		}
	}
	if !slices.Contains(o.FemaleNames, "Alice") {
		return &envs.OptionError{Option: "female_names", Reason: `must include "Alice"`}
	}
	for _, t := range o.TaskTypes {
		if !slices.Contains(aiwTaskTypes, t) {
			return &envs.OptionError{Option: "task_types", Reason: fmt.Sprintf("%q is not one of siblings, friends, colleagues", t)}
		}
	}
	if len(o.TaskTypeWeights) != len(o.TaskTypes) {
		return &envs.OptionError{Option: "task_type_weights", Reason: fmt.Sprintf("has %d weights for %d task_types", len(o.TaskTypeWeights), len(o.TaskTypes))}
	}
	sum := 0.0
	for _, w := range o.TaskTypeWeights {
		sum += w
	}
	if sum <= 0 {
		return &envs.OptionError{Option: "task_type_weights", Reason: "weights sum to 0"}
	}
	return nil
}

// weighted is Python's random.choices(k=1) over weights with a positive sum.
func weighted(rng *rand.Rand, weights []float64) int {
	total := 0.0
	for _, w := range weights {
		total += w
	}
	x := rng.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	// Rounding: the last positive weight.
	for i := len(weights) - 1; ; i-- {
		if weights[i] > 0 {
			return i
		}
	}
}

// AIW is rg:aiw, the "Alice in Wonderland" questions (Nezhurina et al.,
// 2024): how many sisters does Alice's brother have, and the like.
var AIW = rg.Task[AIWOptions]{
	Name:        "aiw",
	Description: "reasoning-gym aiw: Alice-in-Wonderland questions (how many sisters does Alice's brother have?); answer a number.",
	Revision:    1,
	Defaults: AIWOptions{
		MaleNames: []string{"James", "John", "Robert", "Michael", "William", "David", "Richard", "Joseph", "Thomas", "Charles", "Bob"},
		FemaleNames: []string{"Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah",
			"Margaret", "Alice"},
		TaskTypes:       []string{"siblings", "friends", "colleagues"},
		TaskTypeWeights: []float64{1.0 / 3, 1.0 / 3, 1.0 / 3},
		MaxEntities:     6,
	},
	Generate: generateAIW,
	Score:    scoreInteger,
}

func generateAIW(rng *rand.Rand, o AIWOptions) (rg.Item, error) {
	kind := o.TaskTypes[weighted(rng, o.TaskTypeWeights)]
	female, male := pick(rng, o.FemaleNames), pick(rng, o.MaleNames)
	n := func() int { return rg.Between(rng, 1, o.MaxEntities) }
	var q string
	var answer int
	switch kind {
	case "siblings":
		brothers, sisters := n(), n()
		answer = sisters + 1
		if rng.IntN(2) == 0 {
			q = fmt.Sprintf("%s has %d brothers and she also has %d sisters. How many sisters does %s's brother have?",
				female, brothers, sisters, female)
		} else {
			// reasoning-gym's second template asks about the male name's
			// brother: the answer is the same.
			q = fmt.Sprintf("%s has %d sisters and she also has %d brothers. How many sisters does %s's brother have?",
				female, sisters, brothers, male)
		}
	case "friends":
		males, females := n(), n()
		answer = females + 1
		q = fmt.Sprintf("%s has %d male friends and she also has %d female friends. They all are friends with each "+
			"other and have no other friends aside. How many female friends does %s, a male friend of %s, have?",
			female, males, females, male, female)
	default: // colleagues
		aliceMale, aliceFemale, bobMale, bobFemale := n(), n(), n(), n()
		answer = aliceFemale + 1
		q = fmt.Sprintf("%[1]s has %[3]d male colleagues and she also has %[4]d female colleagues. "+
			"These are all colleagues that %[1]s has. All these mentioned persons around %[1]s are colleagues of each other. "+
			"%[2]s has %[5]d male colleagues and %[6]d female colleagues in total. "+
			"All these mentioned persons around %[2]s are colleagues of each other. "+
			"The people in the circle around %[2]s do not have other colleagues aside - with the only exception of Matilda. "+
			"She is colleague of %[2]s and she is also colleague of %[1]s, being part of %[1]s's circle. "+
			"How many female colleagues does Matilda have?",
			female, male, aliceMale, aliceFemale, bobMale, bobFemale)
	}
	return rg.Item{
		Question: q,
		Answer:   strconv.Itoa(answer),
		Meta:     map[string]any{"task_type": kind},
	}, nil
}

// scoreInteger is reasoning-gym's default score_answer, lenient about how
// the number is written ("7.0", "+7").
func scoreInteger(answer string, it *rg.Item) float64 {
	if n, ok := rg.ParseInteger(answer); ok {
		if want, _ := strconv.ParseInt(it.Answer, 10, 64); n == want {
			return 1
		}
		return 0
	}
	return rg.DefaultScore(answer, it.Answer)
}
