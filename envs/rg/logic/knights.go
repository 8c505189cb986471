package logic

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/quarry-rl/quarry/envs/rg"
)

// KnightsOptions are reasoning-gym's KnightsKnavesConfig fields. Its
// curriculum reaches 5 of each. reasoning-gym accepts depth 1, where no
// puzzle has a unique solution (flipping everyone preserves every
// statement) and it fails, and width 1, which its sampler cannot draw.
type KnightsOptions struct {
	NPeople         int `json:"n_people" range:"1,8"`
	DepthConstraint int `json:"depth_constraint" range:"2,5"`
	WidthConstraint int `json:"width_constraint" range:"2,5"`
}

// Kinds of statement.
const (
	kTruth = iota // "X is a knight"
	kLie          // "X is a knave"
	kNot
	kAnd
	kOr
	kImplies
	kIff
)

// kStatement is what an inhabitant says.
type kStatement struct {
	kind   int
	person int // kTruth, kLie
	subs   []*kStatement
}

func (s *kStatement) primitive() bool { return s.kind == kTruth || s.kind == kLie }

func (s *kStatement) equal(t *kStatement) bool {
	return s.kind == t.kind && s.person == t.person &&
		slices.EqualFunc(s.subs, t.subs, func(a, b *kStatement) bool { return a.equal(b) })
}

// holds reports whether s is true when knight[i] says who is a knight.
func (s *kStatement) holds(knight []bool) bool {
	switch s.kind {
	case kTruth:
		return knight[s.person]
	case kLie:
		return !knight[s.person]
	case kNot:
		return !s.subs[0].holds(knight)
	case kAnd:
		for _, x := range s.subs {
			if !x.holds(knight) {
				return false
			}
		}
		return true
	case kOr:
		for _, x := range s.subs {
			if x.holds(knight) {
				return true
			}
		}
		return false
	case kImplies:
		return !s.subs[0].holds(knight) || s.subs[1].holds(knight)
	}
	return s.subs[0].holds(knight) == s.subs[1].holds(knight)
}

// kkSolutions lists the assignments (bit i set: person i is a knight) under
// which every knight's statement is true and every knave's false, stopping
// after two.
func kkSolutions(statements []*kStatement) []uint {
	n := len(statements)
	knight := make([]bool, n)
	var out []uint
	for a := range uint(1) << n {
		for i := range knight {
			knight[i] = a>>i&1 == 1
		}
		ok := true
		for i, s := range statements {
			if s.holds(knight) != knight[i] {
				ok = false
				break
			}
		}
		if ok {
			if out = append(out, a); len(out) == 2 {
				break
			}
		}
	}
	return out
}

type kkSampler struct {
	rng          *rand.Rand
	n            int
	depth, width int
}

// statement is reasoning-gym's _sample_statement: at depth 1, or with
// probability 1/6, "X is a knight/knave" (never "I am a knave"); else a
// negation, a conjunction or disjunction of 2 to width parts, an
// implication or a biconditional.
func (k *kkSampler) statement(self, depth int) *kStatement {
	dice := k.rng.IntN(6)
	if depth == 1 || dice == 0 {
		for {
			kind := []int{kTruth, kLie}[k.rng.IntN(2)]
			person := k.rng.IntN(k.n)
			if kind != kLie || person != self {
				return &kStatement{kind: kind, person: person}
			}
		}
	}
	switch dice {
	case 1:
		return &kStatement{kind: kNot, subs: []*kStatement{k.statement(self, depth-1)}}
	case 2, 3:
		return k.compound([]int{kAnd, kOr}[dice-2], self, depth, rg.Between(k.rng, 2, k.width))
	}
	return k.compound([]int{kImplies, kIff}[dice-4], self, depth, 2)
}

// compound draws count distinct parts. reasoning-gym draws until it has
// them, which never ends when fewer exist (one inhabitant, or two with a
// width of 4); Quarry stops after 50 draws with the parts it has, and a
// single part stands alone.
func (k *kkSampler) compound(kind, self, depth, count int) *kStatement {
	var subs []*kStatement
	for tries := 0; len(subs) < count && tries < 50; tries++ {
		s := k.statement(self, depth-1)
		if !slices.ContainsFunc(subs, s.equal) {
			subs = append(subs, s)
		}
	}
	if len(subs) == 1 {
		return subs[0]
	}
	return &kStatement{kind: kind, subs: subs}
}

// pinned is Quarry's fallback when 1000 samples give no puzzle with one
// solution (reasoning-gym then fails): each inhabitant says "I am a knave
// or A" (a knight, A true) or "I am a knave and A" (a knave, A false),
// with A a claim about the next inhabitant; each statement fixes its
// speaker, so the solution is unique.
func pinned(knight []bool) []*kStatement {
	n := len(knight)
	out := make([]*kStatement, n)
	for i := range out {
		j := (i + 1) % n
		claimTrue := knight[j] // "j is a knight" is true
		if !knight[i] {
			claimTrue = !claimTrue
		}
		claim := &kStatement{kind: kLie, person: j}
		if claimTrue {
			claim.kind = kTruth
		}
		kind := kOr
		if !knight[i] {
			kind = kAnd
		}
		// "I am a knave", which the sampler never draws.
		knave := &kStatement{kind: kLie, person: i}
		out[i] = &kStatement{kind: kind, subs: []*kStatement{knave, claim}}
	}
	return out
}

// kkNames are reasoning-gym's COMMON_NAMES.
var kkNames = []string{
	"Emma", "Liam", "Olivia", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella", "William", "Mia", "James",
	"Charlotte", "Benjamin", "Amelia", "Lucas", "Harper", "Henry", "Evelyn", "Alexander", "Abigail", "Michael",
	"Emily", "Daniel", "Elizabeth", "Jacob", "Sofia", "Logan", "Avery", "Jackson", "Ella", "Sebastian", "Scarlett",
	"Jack", "Grace", "Aiden", "Chloe", "Owen", "Victoria", "Samuel", "Riley", "Matthew", "Aria", "Joseph", "Lily",
	"Luke", "Aurora", "David", "Zoey", "Oliver", "Penelope",
}

// kkPairs are reasoning-gym's KNIGHT_KNAVE_PAIRS: the truthful and the
// lying kind.
var kkPairs = [][2]string{
	{"a knight", "a knave"}, {"a pioneer", "a laggard"}, {"a saint", "a sinner"}, {"a hero", "a villain"},
	{"an angel", "a devil"}, {"an altruist", "an egoist"}, {"a sage", "a fool"},
}

// kkTemplates are reasoning-gym's TEMPLATES.
var kkTemplates = []string{
	"{name} said that {content}.",
	"{name} told you that {content}.",
	`{name} said, "{content}."`,
	`{name} stated, "{content}".`,
	`According to {name}, "{content}".`,
	`In {name}'s words: "{content}".`,
	`{name} remarked, "{content}".`,
	`"{content}," {name} declared.`,
	`{name} was heard saying, "{content}".`,
	"{name} expressed that {content}.",
	`"{content}" - {name}.`,
	`As {name} put it, "{content}".`,
	`{name} asserted: "{content}".`,
	`"{content}," {name} mentioned.`,
	`{name} commented, "{content}".`,
	`In a statement by {name}: "{content}".`,
	`{name} noted, "{content}".`,
	`"{content}," {name} claimed.`,
}

// kkRoles maps every role word to its pair: (truthful, lying).
var kkRoles = func() map[string][2]string {
	m := map[string][2]string{}
	for _, p := range kkPairs {
		pair := [2]string{roleWord(p[0]), roleWord(p[1])}
		m[pair[0]], m[pair[1]] = pair, pair
	}
	return m
}()

func roleWord(article string) string { return article[strings.IndexByte(article, ' ')+1:] }

// kkData is what the scorer needs: the names and each one's role word.
type kkData struct {
	names []string
	roles []string
}

// KnightsKnaves is rg:knights_knaves: who on the island always tells the
// truth and who always lies?
var KnightsKnaves = rg.Task[KnightsOptions]{
	Name:        "knights_knaves",
	Description: "reasoning-gym knights_knaves: from what each inhabitant says, tell who is a knight (truthful) and who a knave (liar).",
	Revision:    1,
	Defaults:    KnightsOptions{NPeople: 2, DepthConstraint: 2, WidthConstraint: 2},
	Generate:    generateKnights,
	Score:       scoreKnights,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		d := it.Data.(*kkData)
		pair := kkRoles[d.roles[0]]
		parts := make([]string, len(d.names))
		for i, name := range d.names {
			parts[i] = name + " is a " + pair[rng.IntN(2)]
		}
		return strings.Join(parts, ", ")
	},
}

func generateKnights(rng *rand.Rand, o KnightsOptions) (rg.Item, error) {
	k := &kkSampler{rng: rng, n: o.NPeople, depth: o.DepthConstraint, width: o.WidthConstraint}
	var statements []*kStatement
	var solution uint
	found := false
	for range 1000 {
		statements = make([]*kStatement, o.NPeople)
		for i := range statements {
			statements[i] = k.statement(i, o.DepthConstraint)
		}
		if sols := kkSolutions(statements); len(sols) == 1 {
			solution, found = sols[0], true
			break
		}
	}
	knight := make([]bool, o.NPeople)
	if !found {
		for i := range knight {
			knight[i] = rng.IntN(2) == 0
		}
		statements = pinned(knight)
	} else {
		for i := range knight {
			knight[i] = solution>>i&1 == 1
		}
	}
	return knightsItem(rng, statements, knight, !found), nil
}

// knightsItem words the puzzle as reasoning-gym's KKProblemFormatter does.
func knightsItem(rng *rand.Rand, statements []*kStatement, knight []bool, fallback bool) rg.Item {
	n := len(statements)
	perm := rng.Perm(len(kkNames))
	names := make([]string, n)
	for i := range names {
		names[i] = kkNames[perm[i]]
	}
	pair := kkPairs[rng.IntN(len(kkPairs))]
	kn, kv := roleWord(pair[0]), roleWord(pair[1])
	say := func(s *kStatement) string { return kkSay(names, pair, s) }

	var q strings.Builder
	q.WriteString("A very special island is inhabited only by " + kn + "s and " + kv + "s. " +
		capitalize(kn) + "s always tell the truth, and " + kv + "s always lie. ")
	q.WriteString("You meet " + strconv.Itoa(n) + " inhabitants: " + strings.Join(names[:n-1], ", ") + ", and " + names[n-1] + ".")
	for i, s := range statements {
		t := pick(rng, kkTemplates)
		q.WriteString(" " + strings.NewReplacer("{name}", names[i], "{content}", say(s)).Replace(t))
	}
	q.WriteString(" So who is " + pair[0] + " and who is " + pair[1] + "?")
	format := make([]string, n)
	for i, name := range names {
		format[i] = name + " is a " + kn + "/" + kv
	}
	f := format[0]
	if n > 1 {
		f = strings.Join(format[:n-1], ", ") + ", and " + format[n-1]
	}
	q.WriteString(` (Format your answer like: "` + f + `")`)

	sol := make([]string, n)
	roles := make([]string, n)
	for i, name := range names {
		article := pair[1]
		if knight[i] {
			article = pair[0]
		}
		sol[i], roles[i] = name+" is "+article, roleWord(article)
	}
	answer := sol[0] + "."
	if n > 1 {
		answer = strings.Join(sol[:n-1], ", ") + ", and " + sol[n-1] + "."
	}
	said := make([]string, n)
	for i, s := range statements {
		said[i] = say(s)
	}
	return rg.Item{
		Question: q.String(),
		Answer:   answer,
		Data:     &kkData{names: names, roles: roles},
		Meta: map[string]any{
			"names": names, "statements": said, "solution": knight,
			"knight_knave_terms": map[string]any{"a_knight": pair[0], "a_knave": pair[1]},
			"fallback":           fallback,
		},
	}
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// kkSay is reasoning-gym's _format_statement: a negated claim about
// someone flips knight and knave, compound parts go in parentheses.
func kkSay(names []string, pair [2]string, s *kStatement) string {
	part := func(x *kStatement) string {
		if x.primitive() {
			return kkSay(names, pair, x)
		}
		return "(" + kkSay(names, pair, x) + ")"
	}
	switch s.kind {
	case kTruth:
		return names[s.person] + " is " + pair[0]
	case kLie:
		return names[s.person] + " is " + pair[1]
	case kNot:
		if x := s.subs[0]; x.primitive() {
			return kkSay(names, pair, &kStatement{kind: kTruth + kLie - x.kind, person: x.person})
		}
		return "it is not the case that " + part(s.subs[0])
	case kAnd, kOr:
		parts := make([]string, len(s.subs))
		for i, x := range s.subs {
			parts[i] = part(x)
		}
		return strings.Join(parts, map[int]string{kAnd: " and ", kOr: " or "}[s.kind])
	case kImplies:
		return "if " + part(s.subs[0]) + " then " + part(s.subs[1])
	}
	return part(s.subs[0]) + " if and only if " + part(s.subs[1])
}

// scoreKnights is reasoning-gym's score_answer: the answer's (name, role)
// pairs against the solution's, 1 when they are the same set, else
// 0.3 + 0.7·matches/n when it names as many pairs and one matches. Its
// reading takes any word before a role as a name; Quarry's takes the
// puzzle's names only (so "Emma is definitely a knight" counts), reads
// "not a knight" as a knave, plural roles ("Emma and Liam are knights")
// and any punctuation.
func scoreKnights(answer string, it *rg.Item) float64 {
	d := it.Data.(*kkData)
	got := readRoles(answer, d.names)
	want := map[[2]string]bool{}
	for i, name := range d.names {
		want[[2]string{strings.ToLower(name), d.roles[i]}] = true
	}
	if len(got) != len(want) {
		return 0
	}
	match := 0
	for p := range got {
		if want[p] {
			match++
		}
	}
	switch {
	case match == len(want):
		return 1
	case match > 0:
		return 0.3 + 0.7*float64(match)/float64(len(want))
	}
	return 0
}

// readRoles reads (lower-cased name, role word) pairs from an answer.
func readRoles(answer string, names []string) map[[2]string]bool {
	known := map[string]bool{}
	for _, n := range names {
		known[strings.ToLower(n)] = true
	}
	words := strings.FieldsFunc(strings.ToLower(answer), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '\'')
	})
	out := map[[2]string]bool{}
	var pending []string
	negate := false
	for _, w := range words {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		role := w // or a plural: knights, heroes
		for _, suffix := range []string{"s", "es"} {
			if _, ok := kkRoles[role]; !ok {
				role = strings.TrimSuffix(w, suffix)
			}
		}
		switch pair, ok := kkRoles[role]; {
		case known[w]:
			pending = append(pending, w)
		case w == "not":
			negate = true
		case ok:
			if negate {
				if role == pair[0] {
					role = pair[1]
				} else {
					role = pair[0]
				}
			}
			for _, n := range pending {
				out[[2]string{n, role}] = true
			}
			pending, negate = nil, false
		}
	}
	return out
}
