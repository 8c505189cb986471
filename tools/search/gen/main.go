// Command gen writes the search tool's test corpus and QA pairs: about 200
// short documents about invented towns, people and inventions, in Search-R1's
// corpus format ({"id", "contents": "\"Title\"\nbody"}), and 30 questions
// answerable from them ({"question", "answer", "doc_id"}, doc_id naming the
// document that holds the answer). Everything is generated from a seed; no
// text comes from elsewhere.
//
//	go run ./gen -seed 1 -out testdata
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("out", "testdata", "output directory")
	flag.Parse()
	corpus, qa, err := generate(*seed)
	if err == nil {
		err = write(*out, corpus, qa)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func write(dir string, corpus, qa []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "corpus.jsonl"), corpus, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "qa.jsonl"), qa, 0o644)
}

// Sizes of the generated world: 50 towns, 100 people (the 50 founders of the
// towns and 50 inventors) and 50 inventions: 200 documents.
const (
	numTowns      = 50
	numPeople     = 2 * numTowns
	numInventions = numPeople - numTowns
	numQA         = 30
)

type town struct {
	name, river, region, product, festival, month string
	founded, population                           int
	founder                                       *person
	id                                            string
}

type person struct {
	first, last, occupation, pronoun string
	born, died                       int
	home                             *town
	invention                        *invention
	id                               string
}

func (p *person) name() string { return p.first + " " + p.last }

type invention struct {
	name, kind, purpose, material string
	year                          int
	inventor                      *person
	id                            string
}

type doc struct {
	ID       string `json:"id"`
	Contents string `json:"contents"`
}

type qaPair struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	DocID    string `json:"doc_id"`
}

// world draws names without repeats.
type world struct {
	rng  *rand.Rand
	used map[string]bool
}

var (
	onsets  = []string{"b", "br", "d", "dr", "f", "g", "gr", "h", "k", "kr", "l", "m", "n", "p", "qu", "r", "s", "sk", "t", "th", "v", "w", "z", "ch", "st"}
	nuclei  = []string{"a", "e", "i", "o", "u", "ae", "ei", "ou", "y"}
	codas   = []string{"", "n", "r", "l", "m", "s", "th", "nd", "rk", "sh", "x", "v"}
	endings = []string{"mere", "holt", "wick", "ford", "stead", "vale", "moor", "gard", "lun", "brae", "thorp", "combe"}

	regions     = []string{"Ossery", "Tarnwold", "Velmark", "Quillon", "Hesperine", "Draskel", "Umbrith", "Caldera Fen"}
	products    = []string{"copper bells", "blue glass", "smoked cheese", "rope bridges", "salt crystals", "woven baskets", "clockwork toys", "ink made from walnuts", "stone lanterns", "honey wine", "felt hats", "paper kites"}
	festivals   = []string{"Lantern", "Harvest Drum", "River Boat", "Frost Bell", "Kite", "Quiet Candle", "Apple Toss", "Long Table"}
	months      = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	sizes       = []string{"small", "hill", "river", "market", "walled", "lakeside", "mining", "fishing"}
	occupations = []string{"weaver", "clockmaker", "glassblower", "cartographer", "brewer", "stonemason", "astronomer", "boatwright", "apothecary", "bellfounder", "potter", "surveyor"}
	// uses pairs a kind of device with what it was made to do.
	uses = [][2]string{
		{"weaving", "sort wool by colour"}, {"measuring", "measure the depth of rivers"},
		{"baking", "keep bread warm on long journeys"}, {"signalling", "send messages between hilltops"},
		{"lifting", "lift stones onto high walls"}, {"timekeeping", "count the hours of the night by the stars"},
		{"printing", "press patterns into clay tiles"}, {"cooling", "keep milk cool in summer"},
		{"lighting", "light streets without oil"}, {"pumping", "draw water from deep wells"},
	}
	materials = []string{"brass", "oak", "iron", "bone", "birch bark", "bronze", "glass", "willow"}
	devices   = []string{"loom", "lathe", "bellows", "compass", "pulley", "lens", "siphon", "press", "lantern", "wheel", "kiln", "sextant"}
	roles     = []string{"mayor", "chief archivist", "harbour master", "head of the guild", "keeper of the town clock"}
)

func (w *world) syllable() string {
	return pick(w.rng, onsets) + pick(w.rng, nuclei) + pick(w.rng, codas)
}

// fresh returns a name from gen that has not been used before.
func (w *world) fresh(gen func() string) string {
	for {
		s := gen()
		if len(s) >= 4 && !w.used[strings.ToLower(s)] {
			w.used[strings.ToLower(s)] = true
			return s
		}
	}
}

// a is "a" or "an" before word.
func a(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

func generate(seed uint64) (corpus, qa []byte, err error) {
	w := &world{rng: rand.New(rand.NewPCG(seed, 0x5eed)), used: map[string]bool{}}
	rng := w.rng

	rivers := make([]string, 20)
	for i := range rivers {
		rivers[i] = w.fresh(func() string { return title(w.syllable() + pick(rng, []string{"el", "an", "is", "ow", "en"})) })
	}
	towns := make([]*town, numTowns)
	for i := range towns {
		towns[i] = &town{
			name:       w.fresh(func() string { return title(w.syllable() + pick(rng, endings)) }),
			river:      pick(rng, rivers),
			region:     pick(rng, regions),
			product:    pick(rng, products),
			festival:   pick(rng, festivals),
			month:      pick(rng, months),
			founded:    1100 + rng.IntN(600),
			population: 800 + rng.IntN(40000),
		}
	}
	// People 0..numTowns-1 founded town i and have no home town; the others
	// were born in a town after its founding and each invented one thing.
	people := make([]*person, numPeople)
	for i := range people {
		p := &person{
			first: w.fresh(func() string { return title(w.syllable() + w.syllable()) }),
			last: w.fresh(func() string {
				return title(w.syllable() + pick(rng, []string{"ek", "ard", "ine", "ow", "ay", "esk", "orn"}))
			}),
			occupation: pick(rng, occupations),
			pronoun:    pick(rng, []string{"She", "He"}),
		}
		if i < numTowns {
			t := towns[i]
			t.founder = p
			p.born = t.founded - 25 - rng.IntN(20)
			p.died = t.founded + 10 + rng.IntN(30)
		} else {
			p.home = pick(rng, towns)
			p.born = p.home.founded + 20 + rng.IntN(150)
			p.died = p.born + 35 + rng.IntN(50)
		}
		people[i] = p
	}
	inventions := make([]*invention, numInventions)
	for i := range inventions {
		p := people[numTowns+i]
		use := pick(rng, uses)
		inv := &invention{
			name:     w.fresh(func() string { return title(w.syllable()+w.syllable()) + " " + pick(rng, devices) }),
			kind:     use[0],
			purpose:  use[1],
			material: pick(rng, materials),
			year:     p.born + 20 + rng.IntN(15),
			inventor: p,
		}
		p.invention = inv
		inventions[i] = inv
	}

	var docs []doc
	add := func(titleText, body string) string {
		id := strconv.Itoa(len(docs))
		docs = append(docs, doc{ID: id, Contents: strconv.Quote(titleText) + "\n" + body})
		return id
	}
	for _, t := range towns {
		t.id = add(t.name, townBody(rng, t))
	}
	for _, p := range people {
		p.id = add(p.name(), personBody(rng, p, towns))
	}
	for _, inv := range inventions {
		inv.id = add(inv.name, inventionBody(rng, inv))
	}

	pairs := questions(rng, towns, people, inventions)

	corpus, err = jsonl(docs)
	if err != nil {
		return nil, nil, err
	}
	qa, err = jsonl(pairs)
	if err != nil {
		return nil, nil, err
	}
	return corpus, qa, nil
}

func townBody(rng *rand.Rand, t *town) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s town in the %s region, on the banks of the %s river. ", t.name, a(pick(rng, sizes)), t.region, t.river)
	fmt.Fprintf(&b, "It was founded in %d by %s, %s. ", t.founded, t.founder.name(), a(t.founder.occupation))
	switch rng.IntN(2) {
	case 0:
		fmt.Fprintf(&b, "The town is known for its %s, and its %s Festival is held every %s. ", t.product, t.festival, t.month)
	default:
		fmt.Fprintf(&b, "Travellers come for its %s; the %s Festival fills the streets each %s. ", t.product, t.festival, t.month)
	}
	fmt.Fprintf(&b, "About %d people live there.", t.population)
	return b.String()
}

func personBody(rng *rand.Rand, p *person, towns []*town) string {
	var b strings.Builder
	if p.home != nil {
		fmt.Fprintf(&b, "%s (%d–%d) was %s born in %s. ", p.name(), p.born, p.died, a(p.occupation), p.home.name)
	} else {
		fmt.Fprintf(&b, "%s (%d–%d) was %s. ", p.name(), p.born, p.died, a(p.occupation))
	}
	if p.invention != nil {
		fmt.Fprintf(&b, "%s is remembered for the %s, which %s built in %d. ", p.pronoun, p.invention.name, strings.ToLower(p.pronoun), p.invention.year)
	}
	for _, t := range towns {
		if t.founder == p {
			fmt.Fprintf(&b, "%s led the first settlers of %s. ", p.pronoun, t.name)
		}
	}
	fmt.Fprintf(&b, "Late in life %s served as %s of %s.", strings.ToLower(p.pronoun), pick(rng, roles), pick(rng, towns).name)
	return b.String()
}

func inventionBody(rng *rand.Rand, inv *invention) string {
	p := inv.inventor
	var b strings.Builder
	fmt.Fprintf(&b, "The %s is %s device invented by the %s %s in %s in %d. ", inv.name, a(inv.kind), p.occupation, p.name(), p.home.name, inv.year)
	fmt.Fprintf(&b, "It was made to %s. ", inv.purpose)
	switch rng.IntN(2) {
	case 0:
		fmt.Fprintf(&b, "Early models were carved from %s.", inv.material)
	default:
		fmt.Fprintf(&b, "The surviving examples are made of %s.", inv.material)
	}
	return b.String()
}

// questions draws numQA single-hop questions, each answered by one document.
func questions(rng *rand.Rand, towns []*town, people []*person, inventions []*invention) []qaPair {
	makers := []func() qaPair{
		func() qaPair {
			t := pick(rng, towns)
			return qaPair{fmt.Sprintf("Who founded the town of %s?", t.name), t.founder.name(), t.id}
		},
		func() qaPair {
			t := pick(rng, towns)
			return qaPair{fmt.Sprintf("In what year was %s founded?", t.name), strconv.Itoa(t.founded), t.id}
		},
		func() qaPair {
			t := pick(rng, towns)
			return qaPair{fmt.Sprintf("On the banks of which river does %s lie?", t.name), t.river, t.id}
		},
		func() qaPair {
			t := pick(rng, towns)
			return qaPair{fmt.Sprintf("In which month is the %s Festival of %s held?", t.festival, t.name), t.month, t.id}
		},
		func() qaPair {
			inv := pick(rng, inventions)
			return qaPair{fmt.Sprintf("Who invented the %s?", inv.name), inv.inventor.name(), inv.id}
		},
		func() qaPair {
			inv := pick(rng, inventions)
			return qaPair{fmt.Sprintf("What material was the %s made of?", inv.name), inv.material, inv.id}
		},
		func() qaPair {
			p := pick(rng, people[numTowns:])
			return qaPair{fmt.Sprintf("In which town was %s born?", p.name()), p.home.name, p.id}
		},
		func() qaPair {
			p := pick(rng, people)
			return qaPair{fmt.Sprintf("What was the occupation of %s?", p.name()), p.occupation, p.id}
		},
		func() qaPair {
			p := pick(rng, people)
			return qaPair{fmt.Sprintf("In what year was %s born?", p.name()), strconv.Itoa(p.born), p.id}
		},
	}
	seen := map[string]bool{}
	var pairs []qaPair
	for len(pairs) < numQA {
		q := makers[len(pairs)%len(makers)]()
		if seen[q.Question] {
			continue
		}
		seen[q.Question] = true
		pairs = append(pairs, q)
	}
	return pairs
}

func jsonl[T any](rows []T) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
