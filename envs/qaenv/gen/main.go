// Command gen writes the qaenv samples (run by go generate in envs/qaenv):
//
//   - samples/qa.jsonl: the search tool's generated QA pairs
//     (tools/search/testdata/qa.jsonl, about the invented towns, people and
//     inventions of its corpus) under GEM's column names: "problem" (the
//     qa: ids' question_key) and "question" (the eval: ids'), "answer" —
//     for some rows a list of acceptable answers — and "doc_id", the corpus
//     document holding the answer.
//   - samples/ruletaker-d<N>.jsonl for N in 0 1 2 3 5: RuleTaker-style rule
//     bases about invented people, each with a statement to judge True or
//     False under the closed-world assumption, of depths 0 to N evenly
//     ("question", "answer", "depth").
//
// Everything is a pure function of the seed and the QA file; no text comes
// from a dataset.
//
//	go run ./gen -seed 1 -qa ../../tools/search/testdata/qa.jsonl -out samples
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed of the rule bases")
	qaPath := flag.String("qa", filepath.Join("..", "..", "tools", "search", "testdata", "qa.jsonl"), "the search tool's QA pairs")
	out := flag.String("out", "samples", "output directory")
	flag.Parse()
	if err := run(*seed, *qaPath, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(seed uint64, qaPath, out string) error {
	files, err := generate(seed, qaPath)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(out, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Depths are the RuleTaker ids GEM registers (logic:RuleTaker-d<N>).
var Depths = []int{0, 1, 2, 3, 5}

// rowsPerFile is the size of each RuleTaker sample.
const rowsPerFile = 36

type file struct {
	name string
	data []byte
}

// generate returns every sample file, in a fixed order.
func generate(seed uint64, qaPath string) ([]file, error) {
	in, err := os.ReadFile(qaPath)
	if err != nil {
		return nil, fmt.Errorf("read QA pairs: %w", err)
	}
	qa, err := convertQA(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", qaPath, err)
	}
	files := []file{{"qa.jsonl", qa}}
	for _, d := range Depths {
		rng := rand.New(rand.NewPCG(seed, uint64(d)))
		var rows []any
		for i := range rowsPerFile {
			depth := i % (d + 1)
			p, err := newProblem(rng, depth)
			if err != nil {
				return nil, fmt.Errorf("RuleTaker-d%d row %d: %w", d, i, err)
			}
			rows = append(rows, p)
		}
		b, err := jsonl(rows)
		if err != nil {
			return nil, err
		}
		files = append(files, file{fmt.Sprintf("ruletaker-d%d.jsonl", d), b})
	}
	return files, nil
}

// jsonl writes rows one per line, without HTML escaping (the questions
// hold <, > and & only as text).
func jsonl(rows []any) ([]byte, error) {
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

// qaIn is a row of the search tool's QA file.
type qaIn struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	DocID    string `json:"doc_id"`
}

// qaOut is a row of the QA sample: GEM's columns.
type qaOut struct {
	Problem  string `json:"problem"`
	Question string `json:"question"`
	Answer   any    `json:"answer"` // a string, or a list of acceptable answers
	DocID    string `json:"doc_id"`
}

// convertQA renames the columns and gives two kinds of question a list of
// acceptable answers, as open-domain QA data does: a river may be named
// with or without the word "river", a year with "in".
func convertQA(in []byte) ([]byte, error) {
	var rows []any
	sc := bufio.NewScanner(bytes.NewReader(in))
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var r qaIn
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if r.Question == "" || r.Answer == "" {
			return nil, fmt.Errorf("line %d: empty question or answer", n)
		}
		var answer any = r.Answer
		switch {
		case strings.HasPrefix(r.Question, "On the banks of which river"):
			answer = []string{r.Answer, r.Answer + " river", "River " + r.Answer}
		case strings.HasPrefix(r.Question, "In what year"):
			answer = []string{r.Answer, "in " + r.Answer}
		}
		rows = append(rows, qaOut{Problem: r.Question, Question: r.Question, Answer: answer, DocID: r.DocID})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no QA pairs")
	}
	return jsonl(rows)
}

// Vocabulary of the rule bases: invented names built from syllables, and
// plain adjectives.
var (
	onsets     = []string{"B", "D", "F", "G", "K", "L", "M", "N", "P", "R", "S", "T", "V", "Z", "Br", "Dr", "Kl", "Th"}
	vowels     = []string{"a", "e", "i", "o", "u", "ae", "ou"}
	codas      = []string{"n", "r", "l", "k", "th", "m", "s", "x", "nd", "rk"}
	adjectives = []string{"big", "blue", "cold", "furry", "green", "kind", "nice", "quiet", "red", "rough", "round", "smart", "white", "young", "tall", "calm"}
)

func inventName(rng *rand.Rand) string {
	s := onsets[rng.IntN(len(onsets))] + vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))]
	if rng.IntN(2) == 0 {
		s += strings.ToLower(onsets[rng.IntN(len(onsets))]) + vowels[rng.IntN(len(vowels))] + codas[rng.IntN(len(codas))]
	}
	return s
}

// fact is "<entity> is <attr>".
type fact struct{ who, attr string }

// rule concludes then of anyone (who == "") or of who alone, once every
// premise holds of them.
type rule struct {
	who   string
	if_   []string
	then_ string
}

func (r rule) String() string {
	if r.who != "" {
		parts := make([]string, len(r.if_))
		for i, a := range r.if_ {
			parts[i] = r.who + " is " + a
		}
		return fmt.Sprintf("If %s then %s is %s.", strings.Join(parts, " and "), r.who, r.then_)
	}
	if len(r.if_) == 1 && len(r.then_)%2 == 0 { // two phrasings, fixed per rule
		return fmt.Sprintf("All %s people are %s.", r.if_[0], r.then_)
	}
	return fmt.Sprintf("If someone is %s then they are %s.", strings.Join(r.if_, " and "), r.then_)
}

// problem is one row of a RuleTaker sample.
type problem struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Depth    int    `json:"depth"`
}

// closure forward-chains the rules over the facts and returns every derived
// fact with its depth: the fewest rounds of rule application that derive it
// (0 for a stated fact).
func closure(people []string, facts []fact, rules []rule) map[fact]int {
	depth := map[fact]int{}
	for _, f := range facts {
		depth[f] = 0
	}
	for round := 1; ; round++ {
		var fresh []fact
		for _, r := range rules {
			for _, p := range people {
				if r.who != "" && r.who != p {
					continue
				}
				c := fact{p, r.then_}
				if _, ok := depth[c]; ok || slices.Contains(fresh, c) {
					continue
				}
				all := true
				for _, a := range r.if_ {
					if _, ok := depth[fact{p, a}]; !ok {
						all = false
						break
					}
				}
				if all {
					fresh = append(fresh, c)
				}
			}
		}
		if len(fresh) == 0 {
			return depth
		}
		for _, f := range fresh {
			depth[f] = round
		}
	}
}

// newProblem draws rule bases until one has a statement of exactly depth
// d, then asks about it or about a statement that cannot be derived, either
// plainly or negated, each a quarter of the time.
func newProblem(rng *rand.Rand, d int) (problem, error) {
	for range 1000 {
		if p, ok := tryProblem(rng, d); ok {
			return p, nil
		}
	}
	return problem{}, fmt.Errorf("no rule base of depth %d in 1000 draws", d)
}

func tryProblem(rng *rand.Rand, d int) (problem, bool) {
	// Three or four people, and a chain of d+1 distinct adjectives leading
	// from a fact about the first person to the target.
	var people []string
	for len(people) < 3+rng.IntN(2) {
		if n := inventName(rng); !slices.Contains(people, n) {
			people = append(people, n)
		}
	}
	adj := slices.Clone(adjectives)
	rng.Shuffle(len(adj), func(i, j int) { adj[i], adj[j] = adj[j], adj[i] })
	chain := adj[:d+1]
	pool := adj[:min(len(adj), d+6)] // the adjectives this rule base talks about
	who := people[0]

	facts := []fact{{who, chain[0]}}
	var rules []rule
	for i := 1; i <= d; i++ {
		r := rule{if_: []string{chain[i-1]}, then_: chain[i]}
		switch rng.IntN(3) {
		case 1: // a conjunction whose other premise is a stated fact
			extra := pool[d+1+rng.IntN(len(pool)-d-1)]
			facts = append(facts, fact{who, extra})
			r.if_ = append(r.if_, extra)
		case 2: // a rule about this person only
			r.who = who
		}
		rules = append(rules, r)
	}
	// Distractors: facts about everyone, rules among the pool's adjectives.
	for range 2 + rng.IntN(4) {
		facts = append(facts, fact{people[rng.IntN(len(people))], pool[rng.IntN(len(pool))]})
	}
	for range 2 + rng.IntN(3) {
		r := rule{if_: []string{pool[rng.IntN(len(pool))]}, then_: pool[rng.IntN(len(pool))]}
		if rng.IntN(3) == 0 {
			r.if_ = append(r.if_, pool[rng.IntN(len(pool))])
		}
		if slices.Contains(r.if_, r.then_) {
			continue
		}
		rules = append(rules, r)
	}
	facts = dedupe(facts)
	rules = dedupeRules(rules)
	depth := closure(people, facts, rules)
	target := fact{who, chain[d]}
	if got, ok := depth[target]; !ok || got != d {
		return problem{}, false // a distractor made a shortcut
	}
	if d > 0 && slices.Contains(facts, target) {
		return problem{}, false
	}
	// A statement that cannot be derived, about a person and an adjective
	// the rule base mentions.
	var named, used []string
	for _, f := range facts {
		named = append(named, f.who)
		used = append(used, f.attr)
	}
	for _, r := range rules {
		used = append(used, r.then_)
		used = append(used, r.if_...)
	}
	var unknown []fact
	for _, p := range people {
		if !slices.Contains(named, p) {
			continue
		}
		for _, a := range pool {
			if _, ok := depth[fact{p, a}]; !ok && slices.Contains(used, a) {
				unknown = append(unknown, fact{p, a})
			}
		}
	}
	if len(unknown) == 0 {
		return problem{}, false
	}

	var stmt string
	var truth bool
	switch rng.IntN(4) {
	case 0:
		stmt, truth = target.who+" is "+target.attr+".", true
	case 1:
		stmt, truth = target.who+" is not "+target.attr+".", false
	case 2:
		u := unknown[rng.IntN(len(unknown))]
		stmt, truth = u.who+" is "+u.attr+".", false
	default:
		u := unknown[rng.IntN(len(unknown))]
		stmt, truth = u.who+" is not "+u.attr+".", true
	}

	rng.Shuffle(len(facts), func(i, j int) { facts[i], facts[j] = facts[j], facts[i] })
	rng.Shuffle(len(rules), func(i, j int) { rules[i], rules[j] = rules[j], rules[i] })
	var q strings.Builder
	q.WriteString("Facts:\n")
	for _, f := range facts {
		fmt.Fprintf(&q, "%s is %s.\n", f.who, f.attr)
	}
	q.WriteString("Rules:\n")
	for _, r := range rules {
		q.WriteString(r.String() + "\n")
	}
	q.WriteString("Anything that cannot be derived from the facts and rules is false.\n\n")
	fmt.Fprintf(&q, "Statement: %s\n", stmt)
	q.WriteString("Is the statement True or False? Put your final answer, True or False, within \\boxed{}.")
	answer := "False"
	if truth {
		answer = "True"
	}
	return problem{Question: q.String(), Answer: answer, Depth: d}, true
}

func dedupe(fs []fact) []fact {
	var out []fact
	for _, f := range fs {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func dedupeRules(rs []rule) []rule {
	var out []rule
	for _, r := range rs {
		if !slices.ContainsFunc(out, func(o rule) bool { return o.String() == r.String() }) {
			out = append(out, r)
		}
	}
	return out
}
