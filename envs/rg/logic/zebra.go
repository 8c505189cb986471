package logic

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// ZebraOptions are reasoning-gym's ZebraConfig fields, with its bounds.
type ZebraOptions struct {
	NumPeople          int `json:"num_people" range:"2,7"`
	NumCharacteristics int `json:"num_characteristics" range:"2,7"`
}

// zebraKind is one kind of attribute (colour, drink, …): reasoning-gym's
// Literal classes, in zebra_data.go.
type zebraKind struct {
	name, description string
	members           []zebraMember
}

// zebraMember is a value: its name (listed in the puzzle) and the phrase
// clues use ("the tea drinker").
type zebraMember struct{ name, phrase string }

// zlit is one value of a puzzle: kind k (an index into the puzzle's kinds)
// and value a (into that kind's values).
type zlit struct{ k, a int }

// Clue kinds, the three reasoning-gym's generator uses.
const (
	clueFoundAt = iota
	clueSameHouse
	clueConsecutive // x is directly left of y
	clueBeside
)

type zclue struct {
	kind  int
	x, y  zlit
	house int // clueFoundAt, from 0
}

// zebraPuzzle is a puzzle's values and clues.
type zebraPuzzle struct {
	houses int
	kinds  []zebraKind
	values [][]zebraMember // values[k]: the kind's values in the puzzle
	house  [][]int         // the solution: house[k][a] is where value a of kind k is
}

var ordinals = []string{"first", "second", "third", "fourth", "fifth", "sixth", "seventh"}

func (p *zebraPuzzle) phrase(l zlit) string { return p.values[l.k][l.a].phrase }

// text is the clue as reasoning-gym words it, first letter capitalised.
func (p *zebraPuzzle) text(c zclue) string {
	var s string
	switch c.kind {
	case clueFoundAt:
		s = p.phrase(c.x) + " is in the " + ordinals[c.house] + " house."
	case clueSameHouse:
		s = p.phrase(c.x) + " is " + p.phrase(c.y) + "."
	case clueConsecutive:
		s = p.phrase(c.x) + " is directly left of " + p.phrase(c.y) + "."
	default:
		s = p.phrase(c.x) + " and " + p.phrase(c.y) + " are next to each other."
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// zdomains holds, per value, the houses it may be in (bit h: house h).
type zdomains [7][7]uint8

// solutions counts the assignments the clues allow, stopping at limit.
func (p *zebraPuzzle) solutions(clues []zclue, limit int) int {
	var d zdomains
	full := uint8(1)<<p.houses - 1
	for k := range p.kinds {
		for a := range p.houses {
			d[k][a] = full
		}
	}
	for _, c := range clues {
		if c.kind == clueFoundAt {
			d[c.x.k][c.x.a] &= 1 << c.house
		}
	}
	n := 0
	p.search(&d, clues, full, limit, &n)
	return n
}

func (p *zebraPuzzle) search(d *zdomains, clues []zclue, full uint8, limit int, n *int) {
	if !p.propagate(d, clues, full) {
		return
	}
	// Branch on the undecided value with the fewest houses left.
	best, bk, ba := 8, -1, -1
	for k := range p.kinds {
		for a := range p.houses {
			if c := bits.OnesCount8(d[k][a]); c > 1 && c < best {
				best, bk, ba = c, k, a
			}
		}
	}
	if bk < 0 {
		*n++
		return
	}
	for m := d[bk][ba]; m != 0 && *n < limit; m &= m - 1 {
		next := *d
		next[bk][ba] = m & -m
		p.search(&next, clues, full, limit, n)
	}
}

// propagate narrows the domains to a fixpoint: each kind's values are in
// different houses (a decided value's house is taken; a house only one
// value can take is that value's), and each clue's relation holds. It
// reports false when some value has no house left.
func (p *zebraPuzzle) propagate(d *zdomains, clues []zclue, full uint8) bool {
	for changed := true; changed; {
		changed = false
		set := func(l zlit, m uint8) {
			if m != d[l.k][l.a] {
				d[l.k][l.a], changed = m, true
			}
		}
		for _, c := range clues {
			x, y := d[c.x.k][c.x.a], d[c.y.k][c.y.a]
			switch c.kind {
			case clueSameHouse:
				set(c.x, x&y)
				set(c.y, x&y)
			case clueConsecutive:
				set(c.y, y&(x<<1)&full)
				set(c.x, x&(y>>1))
			case clueBeside:
				set(c.y, y&(x<<1|x>>1)&full)
				set(c.x, x&(y<<1|y>>1)&full)
			}
		}
		for k := range p.kinds {
			for a := range p.houses {
				m := d[k][a]
				if m == 0 {
					return false
				}
				if m&(m-1) == 0 {
					for b := range p.houses {
						if b != a {
							set(zlit{k, b}, d[k][b]&^m)
						}
					}
				}
			}
			for h := range p.houses {
				only, count := -1, 0
				for a := range p.houses {
					if d[k][a]&(1<<h) != 0 {
						only, count = a, count+1
					}
				}
				switch {
				case count == 0:
					return false
				case count == 1:
					set(zlit{k, only}, 1<<h)
				}
			}
		}
	}
	return true
}

func (p *zebraPuzzle) unique(clues []zclue) bool { return p.solutions(clues, 2) == 1 }

// Zebra is rg:zebra_puzzles: a logic grid puzzle of people in houses with
// attributes; who lives in the first house?
var Zebra = rg.Task[ZebraOptions]{
	Name:        "zebra_puzzles",
	Description: "reasoning-gym zebra_puzzles: a zebra (Einstein) puzzle with a unique solution; name the person in the first house.",
	Revision:    1,
	Defaults:    ZebraOptions{NumPeople: 4, NumCharacteristics: 4},
	Generate:    generateZebra,
	Score: func(answer string, it *rg.Item) float64 {
		// reasoning-gym's: case and line breaks ignored. Quarry also
		// ignores surrounding punctuation and space ("Arnold.").
		if normWord(strings.ReplaceAll(answer, "\n", "")) == normWord(it.Answer) {
			return 1
		}
		return 0
	},
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		return pick(rng, zebraKinds[0].members).name
	},
}

func generateZebra(rng *rand.Rand, o ZebraOptions) (rg.Item, error) {
	k, m := o.NumPeople, o.NumCharacteristics
	p := newZebraPuzzle(rng, k, m)
	clues := p.allClues(rng)
	clues = p.reduce(rng, clues)

	var q strings.Builder
	q.WriteString("This is a logic puzzle. There are " + strconv.Itoa(k) + " houses (numbered 1 on the left, " +
		strconv.Itoa(k) + " on the right), from the perspective of someone standing across the street from them. " +
		"Each has a different person in them. They have different characteristics:\n")
	for i, kind := range p.kinds {
		names := make([]string, k)
		for j, v := range p.values[i] {
			names[j] = strings.ReplaceAll(v.name, "_", " ")
		}
		rng.Shuffle(len(names), func(a, b int) { names[a], names[b] = names[b], names[a] })
		desc, _, _ := strings.Cut(kind.description, ":")
		q.WriteString(" - " + desc + ": " + strings.Join(names, ", ") + "\n")
	}
	q.WriteString("\n")
	rng.Shuffle(len(clues), func(a, b int) { clues[a], clues[b] = clues[b], clues[a] })
	texts := make([]string, len(clues))
	for i, c := range clues {
		texts[i] = p.text(c)
		q.WriteString(strconv.Itoa(i+1) + ". " + texts[i] + "\n")
	}
	// reasoning-gym's question ends in "?" and its suffix adds another.
	q.WriteString("\nWhat is Name of the person who lives in House 1?? Provide only the name of the person as your final answer.")
	answer := ""
	for a, h := range p.house[0] {
		if h == 0 {
			answer = strings.ReplaceAll(p.values[0][a].name, "_", " ")
		}
	}
	return rg.Item{
		Question: q.String(),
		Answer:   answer,
		Meta:     map[string]any{"num_people": k, "num_characteristics": m, "clues": texts},
	}, nil
}

// newZebraPuzzle draws reasoning-gym's puzzle: Name and m-1 other kinds;
// each kind's values are the first k by phrase (reasoning-gym sorts the
// members that way and keeps k), placed in a random order of the houses.
func newZebraPuzzle(rng *rand.Rand, k, m int) *zebraPuzzle {
	others := rng.Perm(len(zebraKinds) - 1)
	p := &zebraPuzzle{houses: k, kinds: []zebraKind{zebraKinds[0]}}
	for _, i := range others[:m-1] {
		p.kinds = append(p.kinds, zebraKinds[1+i])
	}
	for _, kind := range p.kinds {
		vs := slices.Clone(kind.members)
		slices.SortStableFunc(vs, func(a, b zebraMember) int { return strings.Compare(a.phrase, b.phrase) })
		p.values = append(p.values, vs[:k])
		p.house = append(p.house, rng.Perm(k))
	}
	return p
}

// allClues is every true clue of reasoning-gym's three generators: each
// value's house, each ordered pair sharing a house, and for each pair in
// neighbouring houses a coin between "directly left of" and "next to".
func (p *zebraPuzzle) allClues(rng *rand.Rand) []zclue {
	at := make([][]zlit, p.houses)
	for k := range p.kinds {
		for a, h := range p.house[k] {
			at[h] = append(at[h], zlit{k, a})
		}
	}
	var clues []zclue
	for h, ls := range at {
		for _, x := range ls {
			clues = append(clues, zclue{kind: clueFoundAt, x: x, house: h})
			for _, y := range ls {
				if x != y {
					clues = append(clues, zclue{kind: clueSameHouse, x: x, y: y})
				}
			}
		}
	}
	for h := 0; h+1 < p.houses; h++ {
		for _, x := range at[h] {
			for _, y := range at[h+1] {
				kind := clueConsecutive
				if rng.IntN(2) == 1 {
					kind = clueBeside
				}
				clues = append(clues, zclue{kind: kind, x: x, y: y})
			}
		}
	}
	return clues
}

// removalWeight is reasoning-gym's relative chance of a clue being tried
// for removal.
func removalWeight(c zclue) float64 {
	switch c.kind {
	case clueBeside:
		return 1.2
	case clueConsecutive:
		return 1
	}
	return 0.75
}

// reduce is reasoning-gym's reduce_clues: shuffle, then remove batches of
// a tenth, a twentieth and single clues (drawn by weight, with
// replacement) while the solution stays unique, then try each remaining
// clue alone in a random order. reasoning-gym repeats that last pass until
// nothing goes; a second pass never removes anything (fewer clues cannot
// make a needed clue unneeded), so Quarry makes one.
func (p *zebraPuzzle) reduce(rng *rand.Rand, clues []zclue) []zclue {
	clues = slices.Clone(clues)
	rng.Shuffle(len(clues), func(a, b int) { clues[a], clues[b] = clues[b], clues[a] })
	for {
		n := len(clues)
		if clues = p.tryRemove(rng, clues, n/10); len(clues) < n {
			continue
		}
		if clues = p.tryRemove(rng, clues, n/20); len(clues) < n {
			continue
		}
		if clues = p.tryRemove(rng, clues, 1); len(clues) == n {
			break
		}
	}
	order := rng.Perm(len(clues))
	keep := make([]bool, len(clues))
	for i := range keep {
		keep[i] = true
	}
	for _, i := range order {
		keep[i] = false
		if !p.unique(kept(clues, keep)) {
			keep[i] = true
		}
	}
	return kept(clues, keep)
}

func kept(clues []zclue, keep []bool) []zclue {
	var out []zclue
	for i, c := range clues {
		if keep[i] {
			out = append(out, c)
		}
	}
	return out
}

// tryRemove drops n clues drawn by weight (with replacement) if the
// solution stays unique without them, else keeps them all.
func (p *zebraPuzzle) tryRemove(rng *rand.Rand, clues []zclue, n int) []zclue {
	weights := make([]float64, len(clues))
	for i, c := range clues {
		weights[i] = removalWeight(c)
	}
	keep := make([]bool, len(clues))
	for i := range keep {
		keep[i] = true
	}
	for range n {
		keep[weighted(rng, weights)] = false
	}
	if rest := kept(clues, keep); p.unique(rest) {
		return rest
	}
	return clues
}
