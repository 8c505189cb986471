package cognition

import (
	_ "embed"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

//go:embed data/needle.txt
var needleText []byte

type needleLists struct{ names, verbs, subjects []string }

// needleData parses data/needle.txt once; the lists are read-only after.
var needleData = sync.OnceValue(func() needleLists {
	var l needleLists
	var cur *[]string
	for _, line := range strings.Split(string(needleText), "\n") {
		switch line = strings.TrimSpace(line); {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == "[names]":
			cur = &l.names
		case line == "[verbs]":
			cur = &l.verbs
		case line == "[subjects]":
			cur = &l.subjects
		case cur != nil:
			*cur = append(*cur, line)
		}
	}
	return l
})

// maxStatements is the number of distinct (verb, subject) pairs the lists
// give (40 × 158 = 6320) rounded down: every statement of a haystack has
// its own pair, so the question has one answer.
const maxStatements = 5000

// NeedleOptions are reasoning-gym's NeedleHaystackConfig fields. Its
// curriculum reaches 1000 statements; Quarry's vocabulary allows 5000.
type NeedleOptions struct {
	MinNumStatements int `json:"min_num_statements" range:"1,5000"`
	MaxNumStatements int `json:"max_num_statements" range:"1,5000"`
}

// Validate checks min_num_statements ≤ max_num_statements.
func (o NeedleOptions) Validate() error {
	return rg.MinMax("min_num_statements", "max_num_statements", o.MinNumStatements, o.MaxNumStatements)
}

// NeedleHaystack is rg:needle_haystack: among many "Name verb subject."
// statements, who verbs the asked subject?
var NeedleHaystack = rg.Task[NeedleOptions]{
	Name:        "needle_haystack",
	Description: "reasoning-gym needle_haystack: find who does one thing among many statements; answer a name.",
	Revision:    1,
	DataDigest:  envs.Digest(needleText),
	Defaults:    NeedleOptions{MinNumStatements: 10, MaxNumStatements: 100},
	Generate:    generateNeedle,
	Score:       scoreNeedle,
	Guess: func(rng *rand.Rand, _ *rg.Item) string {
		names := needleData().names
		return names[rng.IntN(len(names))]
	},
	Retry: true,
}

func generateNeedle(rng *rand.Rand, o NeedleOptions) (rg.Item, error) {
	d := needleData()
	pairs := len(d.verbs) * len(d.subjects)
	if pairs < maxStatements {
		return rg.Item{}, fmt.Errorf("needle_haystack: %d verb-subject pairs, need %d", pairs, maxStatements)
	}
	n := rg.Between(rng, o.MinNumStatements, o.MaxNumStatements)
	// reasoning-gym samples distinct (name, verb, subject) triples, so two
	// statements can share the asked verb and subject under different names
	// (rarely, with its long lists); Quarry samples distinct (verb,
	// subject) pairs and gives each a name, so the answer is unique.
	chosen := sampleDistinct(rng, pairs, n)
	var b strings.Builder
	type statement struct{ name, verb, subject string }
	stmts := make([]statement, n)
	for i, k := range chosen {
		stmts[i] = statement{d.names[rng.IntN(len(d.names))], d.verbs[k/len(d.subjects)], d.subjects[k%len(d.subjects)]}
		b.WriteString(stmts[i].name + " " + stmts[i].verb + " " + stmts[i].subject + ". ")
	}
	needle := stmts[rng.IntN(n)]
	question := "Who " + needle.verb + " " + needle.subject + "? Reply only with a name."
	return rg.Item{
		Question: b.String() + "\n" + question,
		Answer:   needle.name,
		Meta:     map[string]any{"question": question, "num_statements": n},
	}, nil
}

// sampleDistinct draws k distinct integers from [0, n) in random order
// (Floyd's algorithm, then a shuffle): O(k) work whatever n is.
func sampleDistinct(rng *rand.Rand, n, k int) []int {
	seen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for j := n - k; j < n; j++ {
		t := rng.IntN(j + 1)
		if seen[t] {
			t = j
		}
		seen[t] = true
		out = append(out, t)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// scoreNeedle is reasoning-gym's: the name, case and spaces ignored, scores
// 1, anything else 0. Quarry also ignores a final full stop.
func scoreNeedle(answer string, it *rg.Item) float64 {
	a := strings.ToLower(strings.ReplaceAll(answer, " ", ""))
	if strings.TrimSuffix(a, ".") == strings.ToLower(it.Answer) {
		return 1
	}
	return 0
}
