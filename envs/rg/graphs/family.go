package graphs

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// FamilyOptions are reasoning-gym's FamilyRelationshipsConfig. reasoning-gym
// leaves max_family_size open; Quarry allows up to 100 (children stop when
// names run out, as there) and names of up to 64 bytes.
type FamilyOptions struct {
	MinFamilySize int      `json:"min_family_size" range:"3,100"`
	MaxFamilySize int      `json:"max_family_size" range:"3,100"`
	MaleNames     []string `json:"male_names" len:"1,1000"`
	FemaleNames   []string `json:"female_names" len:"1,1000"`
}

// Validate is reasoning-gym's (min ≤ max, names given), plus: enough
// distinct names for the grandparents, parents, aunts and uncles the
// largest family has (reasoning-gym names them None when the lists run out).
func (o FamilyOptions) Validate() error {
	if err := rg.MinMax("min_family_size", "max_family_size", o.MinFamilySize, o.MaxFamilySize); err != nil {
		return err
	}
	males, females := fixedMembers(o.MaxFamilySize)
	for _, l := range []struct {
		name  string
		names []string
		need  int
	}{{"male_names", o.MaleNames, males}, {"female_names", o.FemaleNames, females}} {
		distinct := map[string]bool{}
		for _, n := range l.names {
			if strings.TrimSpace(n) == "" || len(n) > 64 {
				return &envs.OptionError{Option: l.name, Reason: fmt.Sprintf("name %q: want 1 to 64 bytes, not blank", n)}
			}
			distinct[n] = true
		}
		if len(distinct) < l.need {
			return &envs.OptionError{Option: l.name, Reason: fmt.Sprintf("%d distinct names, a family of max_family_size %d needs at least %d", len(distinct), o.MaxFamilySize, l.need)}
		}
	}
	for _, n := range o.MaleNames {
		if slices.Contains(o.FemaleNames, n) {
			return &envs.OptionError{Option: "female_names", Reason: fmt.Sprintf("%q is also a male name", n)}
		}
	}
	return nil
}

// fixedMembers counts the men and women a family of size has before its
// children: grandparents, parents, an uncle and an aunt with spouses.
func fixedMembers(size int) (males, females int) {
	males, females = 2, 1
	if size > 3 {
		females++
	}
	if size > 6 {
		males, females = males+1, females+1
	}
	if size > 8 {
		males, females = males+1, females+1
	}
	if size > 10 {
		males, females = males+1, females+1
	}
	return males, females
}

var defaultMaleNames = strings.Fields(`James John Robert Michael William David Richard Joseph Thomas Charles
	Peter Daniel Matthew Christopher Andrew George Edward Benjamin Henry Samuel Alexander Oliver Jack Harry
	Jacob Noah Ethan Lucas Mason Logan Sebastian Theodore Owen Liam Aiden Kai Jayden Zion Phoenix Atlas Axel
	Ryder Finn`)

var defaultFemaleNames = strings.Fields(`Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah
	Karen Emma Lisa Anna Margaret Victoria Charlotte Sophia Isabella Olivia Ava Mia Emily Abigail Amelia
	Eleanor Grace Alice Lucy Chloe Sophie Lily Hannah Zoe Luna Nova Aria Willow Aurora Sage River Winter Sky
	Rain`)

var familyTemplates = []string{
	"What is %s to %s? Respond only with the word that describes their relationship.",
	"How is %s related to %s? Provide the relationship in one word.",
	"What relation is %s to %s? Answer with a single word.",
}

type person struct {
	name     string
	female   bool
	id       int
	spouse   *person
	parents  []*person
	children []*person
}

func (p *person) addChild(c *person) {
	if !slices.Contains(p.children, c) {
		p.children = append(p.children, c)
	}
	if !slices.Contains(c.parents, p) {
		c.parents = append(c.parents, p)
	}
}

func marry(a, b *person) { a.spouse, b.spouse = b, a }

// FamilyRelationships is reasoning-gym's family_relationships: a story of
// marriages and children, and the relationship of one member to another.
var FamilyRelationships = rg.Task[FamilyOptions]{
	Name:        "family_relationships",
	Description: "reasoning-gym family_relationships: name one family member's relationship to another (mother, uncle, …) from a story.",
	Revision:    1,
	Defaults: FamilyOptions{MinFamilySize: 4, MaxFamilySize: 8,
		MaleNames: defaultMaleNames, FemaleNames: defaultFemaleNames},
	Generate: func(rng *rand.Rand, o FamilyOptions) (rg.Item, error) {
		size := rg.Between(rng, o.MinFamilySize, o.MaxFamilySize)
		family := buildFamily(rng, o, size)
		var pairs [][3]string
		for _, a := range family {
			for _, b := range family {
				if a == b {
					continue
				}
				if rel := relationship(a, b); rel != "" {
					pairs = append(pairs, [3]string{a.name, b.name, rel})
				}
			}
		}
		// reasoning-gym redraws a random pair until it has a relationship:
		// a uniform draw among the related pairs.
		q := pairs[rng.IntN(len(pairs))]
		question := fmt.Sprintf(familyTemplates[rng.IntN(len(familyTemplates))], q[0], q[1])
		return rg.Item{
			Question: familyStory(family) + "\n\n" + question,
			Answer:   q[2],
			Meta:     map[string]any{"person1": q[0], "person2": q[1], "relationship": q[2], "family_size": len(family)},
		}, nil
	},
	Score: scoreRelationship,
	Guess: func(rng *rand.Rand, _ *rg.Item) string { return relationships[rng.IntN(len(relationships))] },
}

// relationships are reasoning-gym's Relationship values.
var relationships = []string{"mother", "father", "sister", "brother", "daughter", "son", "wife", "husband",
	"grandmother", "grandfather", "aunt", "uncle", "niece", "nephew", "mother-in-law", "father-in-law"}

// buildFamily is reasoning-gym's _generate_family: paternal grandparents,
// the father, and by size the mother, maternal grandparents, an uncle and
// an aunt with their spouses, then children of random couples.
func buildFamily(rng *rand.Rand, o FamilyOptions, size int) []*person {
	used := map[string]bool{}
	var family []*person
	add := func(female bool) *person {
		names := o.MaleNames
		if female {
			names = o.FemaleNames
		}
		var free []string
		for _, n := range names {
			if !used[n] {
				free = append(free, n)
			}
		}
		if len(free) == 0 {
			return nil
		}
		n := free[rng.IntN(len(free))]
		used[n] = true
		p := &person{name: n, female: female, id: len(family)}
		family = append(family, p)
		return p
	}
	gf, gm := add(false), add(true)
	marry(gf, gm)
	var mgf, mgm *person
	if size > 6 {
		mgf, mgm = add(false), add(true)
		marry(mgf, mgm)
	}
	var couples [][2]*person
	father := add(false)
	gf.addChild(father)
	gm.addChild(father)
	if size > 3 {
		mother := add(true)
		marry(father, mother)
		couples = append(couples, [2]*person{father, mother})
		if size > 6 {
			mgf.addChild(mother)
			mgm.addChild(mother)
		}
	}
	if size > 8 {
		uncle, wife := add(false), add(true)
		marry(uncle, wife)
		gf.addChild(uncle)
		gm.addChild(uncle)
		couples = append(couples, [2]*person{uncle, wife})
	}
	if size > 10 {
		aunt, husband := add(true), add(false)
		marry(aunt, husband)
		gf.addChild(aunt)
		gm.addChild(aunt)
		couples = append(couples, [2]*person{aunt, husband})
	}
	for len(family) < size && len(couples) > 0 {
		child := add(rng.IntN(2) == 1)
		if child == nil {
			break
		}
		c := couples[rng.IntN(len(couples))]
		c[0].addChild(child)
		c[1].addChild(child)
	}
	return family
}

func grandparents(p *person) []*person {
	var out []*person
	for _, parent := range p.parents {
		out = append(out, parent.parents...)
	}
	return out
}

func sameSet(a, b []*person) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// relationship is what p1 is to p2, in reasoning-gym's order of checks, or
// "" for none. Two of reasoning-gym's checks answer for the wrong person:
// niece or nephew goes by p1's gender here, not p2's, and its in-law check names p2's relationship to p1
// (p2 is the parent of p1's spouse) while asking for p1's; Quarry asks that
// question the other way round: p1 is the in-law parent of p2.
func relationship(p1, p2 *person) string {
	gendered := func(p *person, f, m string) string {
		if p.female {
			return f
		}
		return m
	}
	g2 := grandparents(p2)
	switch {
	case slices.Contains(p2.parents, p1):
		return gendered(p1, "mother", "father")
	case slices.Contains(p1.parents, p2):
		return gendered(p1, "daughter", "son")
	case p1.spouse == p2:
		return gendered(p1, "wife", "husband")
	case len(p1.parents) > 0 && len(p2.parents) > 0 && sameSet(p1.parents, p2.parents):
		return gendered(p1, "sister", "brother")
	case slices.Contains(g2, p1):
		return gendered(p1, "grandmother", "grandfather")
	case slices.ContainsFunc(p1.parents, func(x *person) bool { return slices.Contains(g2, x) }):
		return gendered(p1, "aunt", "uncle")
	case slices.ContainsFunc(p2.parents, func(x *person) bool { return slices.Contains(grandparents(p1), x) }):
		// reasoning-gym genders this by p2, who is the aunt or uncle.
		return gendered(p1, "niece", "nephew")
	case p2.spouse != nil && slices.Contains(p2.spouse.parents, p1):
		return gendered(p1, "mother-in-law", "father-in-law")
	}
	return ""
}

// familyStory is reasoning-gym's _generate_story: each couple's marriage and
// the children not yet described, couples in the order of their first
// member.
func familyStory(family []*person) string {
	var parts []string
	described := map[*person]bool{}
	for _, p := range family { // by id
		if p.spouse == nil || p.spouse.id < p.id {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s is married to %s.", p.name, p.spouse.name))
		var names []string
		for _, c := range p.children {
			if !described[c] {
				described[c] = true
				names = append(names, c.name)
			}
		}
		switch len(names) {
		case 0:
		case 1:
			parts = append(parts, fmt.Sprintf("They have a child called %s.", names[0]))
		default:
			parts = append(parts, fmt.Sprintf("They have children called %s and %s.", strings.Join(names[:len(names)-1], ", "), names[len(names)-1]))
		}
	}
	return strings.Join(parts, " ")
}

// scoreRelationship is reasoning-gym's score_answer (case-insensitive
// equality); Quarry also ignores a final period, an article and spaces or
// hyphens in the in-law words ("mother in law").
func scoreRelationship(answer string, it *rg.Item) float64 {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		s = strings.TrimSuffix(s, ".")
		for _, a := range []string{"the ", "a ", "an ", "her ", "his "} {
			s = strings.TrimPrefix(s, a)
		}
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' }), "-")
	}
	if norm(answer) == norm(it.Answer) {
		return 1
	}
	return 0
}
