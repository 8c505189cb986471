package wordsearch

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs/games/wordgrid"
	"github.com/quarry-rl/quarry/envs/games/words"
)

// pools are the hidden words' sources, every length of the words package:
// the common words, and for hardcore the extended list.
var pools = sync.OnceValue(func() [2][]string {
	var common, extended []string
	for n := words.MinLength; n <= words.MaxLength; n++ {
		common = append(common, words.Words(n)...)
		extended = append(extended, words.Extended(n)...)
	}
	return [2][]string{common, extended}
})

func poolFor(hardcore bool) []string {
	if hardcore {
		return pools()[1]
	}
	return pools()[0]
}

// maxAttempts bounds the grid draws of one Reset; the default variants need
// one or two.
const maxAttempts = 1000

// generator lays out grids the way GEM's (TextArena's) generator does, on
// reused scratch space:
//
//   - sample the words, sort them longest first, give each a random
//     direction (across or down, read forward); the grid is
//     round(1.5 × longest) a side (Python's round, halves to even);
//   - the first word goes in the middle; each later word crosses an earlier
//     one at a shared letter if its direction allows, at a position drawn
//     uniformly, else takes the first free position in reading order; words
//     may share cells that hold the same letter;
//   - random letters fill the rest.
//
// GEM drops a word it cannot place and never checks the filled grid; Quarry
// draws again until every word is placed and each appears exactly once,
// across or down, read either way, so a word has one answer.
type generator struct {
	size   int
	cells  []byte // 0 or an uppercase letter
	picked []int
	placed []placement
	cands  []placement
}

// puzzle draws grids until one hides all n words once each. The grid and
// placements returned are reused by the next call.
func (g *generator) puzzle(rng *rand.Rand, pool []string, n int) (int, []byte, []placement, error) {
	for range maxAttempts {
		if g.attempt(rng, pool, n) {
			return g.size, g.cells, g.placed, nil
		}
	}
	return 0, nil, nil, fmt.Errorf("wordsearch: no grid hiding %d words once each in %d attempts", n, maxAttempts)
}

// attempt samples n distinct words, lays them out and fills the grid; false
// if a word found no place or the grid shows a word twice.
func (g *generator) attempt(rng *rand.Rand, pool []string, n int) bool {
	g.picked = wordgrid.Pick(rng, g.picked, n, len(pool))
	g.placed = g.placed[:0]
	for _, i := range g.picked {
		g.placed = append(g.placed, placement{word: strings.ToUpper(pool[i])})
	}
	slices.SortStableFunc(g.placed, func(a, b placement) int { return cmp.Compare(len(b.word), len(a.word)) })
	for i := range g.placed {
		g.placed[i].down = rng.IntN(2) == 1
	}
	g.size = wordgrid.Size(len(g.placed[0].word))
	g.cells = append(g.cells[:0], make([]byte, g.size*g.size)...)
	for i := range g.placed {
		w := &g.placed[i]
		if i == 0 {
			w.row, w.col = g.size/2, (g.size-len(w.word))/2
			if w.down {
				w.row, w.col = w.col, w.row
			}
		} else if s, ok := g.crossing(rng, g.placed[:i], w.word, w.down); ok {
			w.row, w.col = s.row, s.col
		} else if s, ok := g.free(w.word, w.down); ok {
			w.row, w.col = s.row, s.col
		} else {
			return false
		}
		g.put(*w)
	}
	for i, c := range g.cells {
		if c == 0 {
			g.cells[i] = byte('A' + rng.IntN(26))
		}
	}
	for _, w := range g.placed {
		if g.occurrences(w.word) != 1 {
			return false
		}
	}
	return true
}

// crossing lists, as GEM does, every position where word crosses a placed
// word of the other direction at a shared letter and fits (once per shared
// letter pair), and draws one uniformly: what GEM's shuffle-then-first-fit
// amounts to.
func (g *generator) crossing(rng *rand.Rand, placed []placement, word string, down bool) (placement, bool) {
	g.cands = g.cands[:0]
	for _, p := range placed {
		if p.down == down {
			continue
		}
		for i := range len(word) {
			for j := range len(p.word) {
				if word[i] != p.word[j] {
					continue
				}
				// The shared letter sits at word[i] and p.word[j].
				s := placement{word: word, row: p.row + j, col: p.col - i}
				if down {
					s = placement{word: word, row: p.row - i, col: p.col + j, down: true}
				}
				if g.fits(s) {
					g.cands = append(g.cands, s)
				}
			}
		}
	}
	if len(g.cands) == 0 {
		return placement{}, false
	}
	return g.cands[rng.IntN(len(g.cands))], true
}

// free is GEM's fallback: the first position in reading order that fits.
func (g *generator) free(word string, down bool) (placement, bool) {
	for r := range g.size {
		for c := range g.size {
			if s := (placement{word, r, c, down}); g.fits(s) {
				return s, true
			}
		}
	}
	return placement{}, false
}

// fits is GEM's test: on the grid, and every cell empty or the same letter.
func (g *generator) fits(p placement) bool {
	dr, dc := wordgrid.Delta(p.down)
	n := len(p.word)
	if p.row < 0 || p.col < 0 || p.row+dr*(n-1) >= g.size || p.col+dc*(n-1) >= g.size {
		return false
	}
	for i := range n {
		if c := g.cells[(p.row+dr*i)*g.size+p.col+dc*i]; c != 0 && c != p.word[i] {
			return false
		}
	}
	return true
}

func (g *generator) put(p placement) {
	dr, dc := wordgrid.Delta(p.down)
	for i := range len(p.word) {
		g.cells[(p.row+dr*i)*g.size+p.col+dc*i] = p.word[i]
	}
}

// occurrences counts the places word can be read in the grid, across or
// down, forwards or backwards; a palindrome read both ways in one place
// counts once.
func (g *generator) occurrences(word string) int {
	n, size := len(word), g.size
	reads := 0
	for r := range size {
		for c := range size {
			if g.cells[r*size+c] != word[0] {
				continue
			}
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				er, ec := r+d[0]*(n-1), c+d[1]*(n-1)
				if er < 0 || ec < 0 || er >= size || ec >= size {
					continue
				}
				k := 1
				for k < n && g.cells[(r+d[0]*k)*size+c+d[1]*k] == word[k] {
					k++
				}
				if k == n {
					reads++
				}
			}
		}
	}
	if palindrome(word) {
		return reads / 2
	}
	return reads
}

func palindrome(w string) bool {
	for i := range len(w) / 2 {
		if w[i] != w[len(w)-1-i] {
			return false
		}
	}
	return true
}
