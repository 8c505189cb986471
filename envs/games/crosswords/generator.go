package crosswords

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/quarry-rl/quarry/envs/games/wordgrid"
	"github.com/quarry-rl/quarry/envs/games/words"
)

// Word lengths of the two pools.
const (
	easyMin, easyMax = 3, 6
	hardMin, hardMax = 7, 10
)

// pool is the common words (those with a clue) of minLen..maxLen letters,
// shortest first, so the words up to any length are a prefix.
type pool struct {
	words          []string
	upTo           [words.MaxLength + 1]int // upTo[n]: how many words have at most n letters
	minLen, maxLen int
}

func newPool(minLen, maxLen int) *pool {
	p := &pool{minLen: minLen, maxLen: maxLen}
	for n := minLen; n <= maxLen; n++ {
		p.words = append(p.words, words.Words(n)...)
		p.upTo[n] = len(p.words)
	}
	for n := maxLen + 1; n <= words.MaxLength; n++ {
		p.upTo[n] = len(p.words)
	}
	return p
}

var pools = sync.OnceValue(func() [2]*pool { return [2]*pool{newPool(easyMin, easyMax), newPool(hardMin, hardMax)} })

func poolFor(hardcore bool) *pool {
	if hardcore {
		return pools()[1]
	}
	return pools()[0]
}

// roundAttempts bounds the puzzle draws from one set of word lengths (see
// puzzle). The default variants need a few on average (random hardcore
// about a dozen), so they never leave the first round.
const roundAttempts = 1000

// Cell direction flags.
const (
	acrossBit = 1 << iota
	downBit
)

// generator lays out puzzles the way GEM's (TextArena's) generator does, on
// reused scratch space:
//
//   - sample the words, sort them longest first, give each a random
//     direction; the grid is round(1.5 × longest) a side (Python's round,
//     halves to even);
//   - the first word goes in the middle; each later word crosses an earlier
//     one at a shared letter if its direction allows, at a position drawn
//     uniformly, else takes the first free position in reading order.
//
// GEM only checks that shared cells hold the same letter. Quarry also keeps
// the crossword rules, so the grid's runs of letters are exactly the words
// (what the agent, given no word positions, must work out from the grid):
// a word only shares cells with words of the other direction, the cells
// just before and after it stay empty, and its own cells touch no other
// word side-on. GEM drops a word it cannot place; Quarry draws again, so
// every puzzle has all its words, and draws again when the puzzle has more
// letters than turns, so every puzzle can be finished in max_turns.
type generator struct {
	size   int
	cells  []byte  // 0 or a lowercase letter
	dirs   []uint8 // acrossBit/downBit: the words through each cell
	picked []int
	placed []placement
	cands  []spot
}

type spot struct {
	row, col int
	down     bool
}

// puzzle draws puzzles until one places all n words in at most maxLetters
// letters: GEM's puzzles, conditioned on fitting in the turns. Words too
// long to ever fit are left out of the draw, which changes nothing but the
// speed. Should a round of roundAttempts draws find nothing, the longest
// length allowed shrinks by one and it tries again: options that leave
// little room get shorter words rather than a failed Reset. The placements
// returned are reused by the next call.
func (g *generator) puzzle(rng *rand.Rand, p *pool, n, maxLetters int) (int, []placement, error) {
	longest := min(p.maxLen, maxLetters-(n-1)*p.minLen+maxCrossings(n))
	for ; longest >= p.minLen; longest-- {
		cands := p.words[:p.upTo[longest]]
		for range roundAttempts {
			if g.attempt(rng, cands, n) && g.letters() <= maxLetters {
				return g.size, g.placed, nil
			}
		}
	}
	return 0, nil, fmt.Errorf("crosswords: found no layout of %d words of %d to %d letters within %d letters", n, p.minLen, p.maxLen, maxLetters)
}

// attempt samples n distinct words and lays them out; false if one of them
// found no place.
func (g *generator) attempt(rng *rand.Rand, cands []string, n int) bool {
	g.picked = wordgrid.Pick(rng, g.picked, n, len(cands))
	g.placed = g.placed[:0]
	for _, i := range g.picked {
		g.placed = append(g.placed, placement{word: cands[i]})
	}
	slices.SortStableFunc(g.placed, func(a, b placement) int { return cmp.Compare(len(b.word), len(a.word)) })
	for i := range g.placed {
		g.placed[i].down = rng.IntN(2) == 1
	}
	g.reset(wordgrid.Size(len(g.placed[0].word)))
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
		if !g.fits(w.word, w.row, w.col, w.down) {
			return false // only the first word can get here, on a grid too small for it
		}
		g.put(w.word, w.row, w.col, w.down)
	}
	return true
}

func (g *generator) reset(size int) {
	g.size = size
	g.cells = append(g.cells[:0], make([]byte, size*size)...)
	g.dirs = append(g.dirs[:0], make([]uint8, size*size)...)
}

// crossing lists, as GEM does, every position where word crosses a placed
// word of the other direction at a shared letter and fits (once per shared
// letter pair, so a position crossing two words is listed twice), and draws
// one uniformly: what GEM's shuffle-then-first-fit amounts to.
func (g *generator) crossing(rng *rand.Rand, placed []placement, word string, down bool) (spot, bool) {
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
				s := spot{row: p.row + j, col: p.col - i, down: false}
				if down {
					s = spot{row: p.row - i, col: p.col + j, down: true}
				}
				if g.fits(word, s.row, s.col, down) {
					g.cands = append(g.cands, s)
				}
			}
		}
	}
	if len(g.cands) == 0 {
		return spot{}, false
	}
	return g.cands[rng.IntN(len(g.cands))], true
}

// free is GEM's fallback: the first position in reading order that fits.
func (g *generator) free(word string, down bool) (spot, bool) {
	for r := range g.size {
		for c := range g.size {
			if g.fits(word, r, c, down) {
				return spot{r, c, down}, true
			}
		}
	}
	return spot{}, false
}

func (g *generator) occupied(r, c int) bool {
	return r >= 0 && c >= 0 && r < g.size && c < g.size && g.cells[r*g.size+c] != 0
}

// fits reports whether word can start at (r, c) under the crossword rules.
func (g *generator) fits(word string, r, c int, down bool) bool {
	dr, dc := wordgrid.Delta(down)
	n := len(word)
	if r < 0 || c < 0 || r+dr*(n-1) >= g.size || c+dc*(n-1) >= g.size {
		return false
	}
	if g.occupied(r-dr, c-dc) || g.occupied(r+dr*n, c+dc*n) {
		return false // it would run into another word
	}
	bit := uint8(acrossBit)
	if down {
		bit = downBit
	}
	for i := range n {
		rr, cc := r+dr*i, c+dc*i
		k := rr*g.size + cc
		if g.cells[k] != 0 {
			if g.cells[k] != word[i] || g.dirs[k]&bit != 0 {
				return false // a different letter, or a word running the same way
			}
			continue
		}
		if g.occupied(rr+dc, cc+dr) || g.occupied(rr-dc, cc-dr) {
			return false // side by side with another word
		}
	}
	return true
}

func (g *generator) put(word string, r, c int, down bool) {
	dr, dc := wordgrid.Delta(down)
	bit := uint8(acrossBit)
	if down {
		bit = downBit
	}
	for i := range len(word) {
		k := (r+dr*i)*g.size + c + dc*i
		g.cells[k] = word[i]
		g.dirs[k] |= bit
	}
}

func (g *generator) letters() int {
	n := 0
	for _, c := range g.cells {
		if c != 0 {
			n++
		}
	}
	return n
}
