package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// WordLadderOptions are reasoning-gym's WordLadderConfig: word lengths 3 to
// 5 (words.csv's columns); a chain length of -1 means any shortest path of
// at least 3 words. Quarry caps chain lengths at 11 words, the longest
// shortest path among 3-letter words (4-letter: 17, 5-letter: 32), so every
// value in range has a pair at every word length.
type WordLadderOptions struct {
	MinWordLength  int `json:"min_word_length" range:"3,5"`
	MaxWordLength  int `json:"max_word_length" range:"3,5"`
	MinChainLength int `json:"min_chain_length" range:"-1,11"`
	MaxChainLength int `json:"max_chain_length" range:"-1,11"`
}

// Validate is reasoning-gym's: lengths in order; a chain length is -1 or at
// least 3; max_chain_length may be -1 only with min_chain_length -1.
func (o WordLadderOptions) Validate() error {
	if err := minMaxError("max_word_length", o.MaxWordLength, "min_word_length", o.MinWordLength); err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"min_chain_length", o.MinChainLength}, {"max_chain_length", o.MaxChainLength}} {
		if c.v != -1 && c.v < 3 {
			return &envs.OptionError{Option: c.name, Reason: fmt.Sprintf("%d must be -1 (shortest path) or at least 3", c.v)}
		}
	}
	if o.MinChainLength != -1 {
		if o.MaxChainLength == -1 {
			return &envs.OptionError{Option: "max_chain_length", Reason: "cannot be -1 unless min_chain_length is -1 too"}
		}
		return minMaxError("max_chain_length", o.MaxChainLength, "min_chain_length", o.MinChainLength)
	}
	return nil
}

// chainBounds is reasoning-gym's is_valid_path_length as a range of words.
func (o WordLadderOptions) chainBounds() (lo, hi int) {
	lo, hi = o.MinChainLength, o.MaxChainLength
	if lo == -1 {
		lo = 3
	}
	if hi == -1 {
		hi = 1 << 30
	}
	return lo, hi
}

// ladderGraph holds one word length's words (sorted) and who is one letter
// from whom.
type ladderGraph struct {
	words []string
	index map[string]int
	adj   [][]int
}

var ladderGraphs = sync.OnceValue(func() [3]*ladderGraph {
	var out [3]*ladderGraph
	for li, words := range ladderWords() {
		g := &ladderGraph{words: words, index: make(map[string]int, len(words)), adj: make([][]int, len(words))}
		for i, w := range words {
			g.index[w] = i
		}
		for i, w := range words {
			b := []byte(w)
			for p, orig := range b {
				for c := byte('A'); c <= 'Z'; c++ {
					if c == orig {
						continue
					}
					b[p] = c
					if j, ok := g.index[string(b)]; ok {
						g.adj[i] = append(g.adj[i], j)
					}
				}
				b[p] = orig
			}
		}
		out[li] = g
	}
	return out
})

// bfs returns each word's parent on a shortest path from start (-1: not
// reached; start is its own parent) and its distance.
func (g *ladderGraph) bfs(start int) (parent, dist []int) {
	parent, dist = make([]int, len(g.words)), make([]int, len(g.words))
	for i := range parent {
		parent[i], dist[i] = -1, -1
	}
	parent[start], dist[start] = start, 0
	q := []int{start}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.adj[u] {
			if dist[v] < 0 {
				parent[v], dist[v] = u, dist[u]+1
				q = append(q, v)
			}
		}
	}
	return parent, dist
}

func (g *ladderGraph) path(parent []int, end int) []string {
	var p []string
	for v := end; ; v = parent[v] {
		p = append(p, g.words[v])
		if parent[v] == v {
			break
		}
	}
	slices.Reverse(p)
	return p
}

// ladderPair is reasoning-gym's _generate_word_pair: up to 100 random
// pairs, keeping the first whose shortest path has an allowed number of
// words. Where reasoning-gym then gives up, Quarry searches from every
// start in random order, so any option in range generates.
func ladderPair(rng *rand.Rand, g *ladderGraph, lo, hi int) ([]string, error) {
	n := len(g.words)
	for range 100 {
		s, e := rng.IntN(n), rng.IntN(n)
		if s == e {
			continue
		}
		parent, dist := g.bfs(s)
		if d := dist[e]; d >= 0 && lo <= d+1 && d+1 <= hi {
			return g.path(parent, e), nil
		}
	}
	for _, s := range rng.Perm(n) {
		parent, dist := g.bfs(s)
		var ends []int
		for v, d := range dist {
			if d > 0 && lo <= d+1 && d+1 <= hi {
				ends = append(ends, v)
			}
		}
		if len(ends) > 0 {
			return g.path(parent, ends[rng.IntN(len(ends))]), nil
		}
	}
	return nil, fmt.Errorf("no ladder of %d to %d words", lo, hi)
}

type ladderData struct {
	start, end string
	known      map[string]int
}

var wordLadderTask = rg.Task[WordLadderOptions]{
	Name:        "word_ladder",
	Description: "reasoning-gym word_ladder: change one letter at a time from one word to another; any valid ladder scores.",
	Revision:    1,
	DataDigest:  wordsCSVDigest,
	Defaults:    WordLadderOptions{MinWordLength: 4, MaxWordLength: 4, MinChainLength: -1, MaxChainLength: -1},
	Generate: func(rng *rand.Rand, o WordLadderOptions) (rg.Item, error) {
		length := drawBetween(rng, o.MinWordLength, o.MaxWordLength)
		g := ladderGraphs()[length-3]
		lo, hi := o.chainBounds()
		path, err := ladderPair(rng, g, lo, hi)
		if err != nil {
			return rg.Item{}, err
		}
		start, end := path[0], path[len(path)-1]
		return rg.Item{
			Question: "Transform the word ladder '" + start + "' to '" + end + "' by changing one letter at a time.\n" +
				"Provide your answer as a comma-separated sequence of uppercase letters without spaces.\n" +
				"Each step must be a valid English word.",
			Answer: strings.Join(path, ","),
			Data:   ladderData{start: start, end: end, known: g.index},
			Meta:   map[string]any{"start_word": start, "end_word": end, "word_length": length, "chain_length": len(path)},
		}, nil
	},
	Score: func(answer string, it *rg.Item) float64 {
		score, _ := checkLadder(answer, it.Data.(ladderData))
		return score
	},
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		d := it.Data.(ladderData)
		g := ladderGraphs()[len(d.start)-3]
		return d.start + "," + g.words[rng.IntN(len(g.words))] + "," + d.end
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		score, why := checkLadder(answer, it.Data.(ladderData))
		if score > 0 {
			return "Your ladder is valid but uses words " + why + "."
		}
		return "Your answer is incorrect: " + why + "."
	},
}

// ladderSteps splits a ladder at commas, white space or arrows.
func ladderSteps(answer string) []string {
	a := strings.NewReplacer("->", ",", "→", ",").Replace(strings.ToUpper(answer))
	return strings.FieldsFunc(a, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// checkLadder is reasoning-gym's score_answer: 0 unless the ladder runs from
// the start word to the end word through words of the same length, each one
// letter from the last; then halved for each word not in words.csv. why says
// what failed (never the answer).
func checkLadder(answer string, d ladderData) (score float64, why string) {
	steps := ladderSteps(answer)
	switch {
	case len(steps) < 2:
		return 0, "a ladder needs at least the start and the end word"
	case steps[0] != d.start || steps[len(steps)-1] != d.end:
		return 0, "the ladder must start at " + d.start + " and end at " + d.end
	}
	for i, w := range steps {
		if len(w) != len(d.end) {
			return 0, fmt.Sprintf("%s does not have %d letters", w, len(d.end))
		}
		if i > 0 {
			diff := 0
			for j := range len(w) {
				if w[j] != steps[i-1][j] {
					diff++
				}
			}
			if diff != 1 {
				return 0, fmt.Sprintf("%s to %s does not change exactly one letter", steps[i-1], w)
			}
		}
	}
	score = 1
	var unknown []string
	for _, w := range steps {
		if _, ok := d.known[w]; !ok {
			score /= 2
			unknown = append(unknown, w)
		}
	}
	return score, "not in the word list: " + strings.Join(unknown, ", ")
}
