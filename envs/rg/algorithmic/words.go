package algorithmic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/rg"
)

// registerWords adds the family's words tasks: caesar_cipher, group_anagrams, isomorphic_strings,
// letter_counting, letter_jumble, palindrome_generation,
// palindrome_partitioning, ransom_note, sentence_reordering, spell_backward,
// string_insertion, string_manipulation, string_splitting, string_synthesis,
// word_ladder, word_sequence_reversal, word_sorting.
func registerWords(r *envs.Registry) error {
	for _, reg := range []func(*envs.Registry) error{
		func(r *envs.Registry) error { return rg.Register(r, spellBackwardTask) },
		func(r *envs.Registry) error { return rg.Register(r, wordSequenceReversalTask) },
		func(r *envs.Registry) error { return rg.Register(r, letterCountingTask) },
		func(r *envs.Registry) error { return rg.Register(r, wordSortingTask) },
		func(r *envs.Registry) error { return rg.Register(r, caesarCipherTask) },
		func(r *envs.Registry) error { return rg.Register(r, isomorphicStringsTask) },
		func(r *envs.Registry) error { return rg.Register(r, ransomNoteTask) },
		func(r *envs.Registry) error { return rg.Register(r, groupAnagramsTask) },
		func(r *envs.Registry) error { return rg.Register(r, letterJumbleTask) },
		func(r *envs.Registry) error { return rg.Register(r, sentenceReorderingTask) },
		func(r *envs.Registry) error { return rg.Register(r, palindromeGenerationTask) },
		func(r *envs.Registry) error { return rg.Register(r, palindromePartitioningTask) },
		func(r *envs.Registry) error { return rg.Register(r, stringInsertionTask) },
		func(r *envs.Registry) error { return rg.Register(r, stringManipulationTask) },
		func(r *envs.Registry) error { return rg.Register(r, stringSplittingTask) },
		func(r *envs.Registry) error { return rg.Register(r, stringSynthesisTask) },
		func(r *envs.Registry) error { return rg.Register(r, wordLadderTask) },
	} {
		if err := reg(r); err != nil {
			return err
		}
	}
	return nil
}

// The helpers below serve the words tasks; their names say "words" or the
// task so as not to meet numbers.go's.

// drawBetween is Python's random.randint(lo, hi): lo..hi inclusive.
func drawBetween(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// drawDistinct is Python's random.sample(range(n), k): k distinct indices
// below n in random order, without allocating n when k is small.
func drawDistinct(rng *rand.Rand, n, k int) []int {
	if 4*k >= n {
		return rng.Perm(n)[:k]
	}
	seen := make(map[int]bool, k)
	out := make([]int, 0, k)
	for len(out) < k {
		if i := rng.IntN(n); !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// minMaxError refuses max below min, naming max.
func minMaxError[T int | float64](maxName string, hi T, minName string, lo T) error {
	if hi < lo {
		return &envs.OptionError{Option: maxName, Reason: fmt.Sprintf("%v is below %s %v", hi, minName, lo)}
	}
	return nil
}

// wordsList splits a comma-separated answer into trimmed items, the way
// reasoning-gym's re.split(r",\s*") does but also trimming spaces before
// a comma.
func wordsList(answer string) []string {
	parts := strings.Split(answer, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// wordsPositions counts the positions where got matches want.
func wordsPositions(got, want []string, fold bool) int {
	n := 0
	for i := range min(len(got), len(want)) {
		if got[i] == want[i] || fold && strings.EqualFold(got[i], want[i]) {
			n++
		}
	}
	return n
}

// wordsPositionFeedback tells a wrong list answer how many items are right.
func wordsPositionFeedback(right, total int, unit string) string {
	return fmt.Sprintf("Your answer is incorrect: %d of the %d %s are in the right place.", right, total, unit)
}

// wordsInteger grades an integer answer: 1 for the same integer in any
// plain format ("7", "+7", "7.0"), else reasoning-gym's default credit.
func wordsInteger(answer string, it *rg.Item) float64 {
	if f, err := strconv.ParseFloat(strings.TrimSpace(answer), 64); err == nil {
		if want, err := strconv.Atoi(it.Answer); err == nil && f == float64(want) {
			return 1
		}
	}
	return rg.DefaultScore(answer, it.Answer)
}

// wordsIntFeedback says whether an integer answer is too high or too low.
func wordsIntFeedback(answer string, it *rg.Item, _ float64) string {
	f, err := strconv.ParseFloat(strings.TrimSpace(answer), 64)
	want, _ := strconv.Atoi(it.Answer)
	switch {
	case err != nil:
		return "Your answer is not a number."
	case f > float64(want):
		return "Your answer is too high."
	}
	return "Your answer is too low."
}

// wordsBool grades a True/False answer, case-insensitively.
func wordsBool(answer string, it *rg.Item) float64 {
	if strings.EqualFold(strings.TrimSpace(answer), it.Answer) {
		return 1
	}
	return rg.DefaultScore(answer, it.Answer)
}

func wordsGuessBool(rng *rand.Rand, _ *rg.Item) string {
	if rng.IntN(2) == 0 {
		return "True"
	}
	return "False"
}

// wordsShuffled returns a shuffled copy.
func wordsShuffled[T any](rng *rand.Rand, s []T) []T {
	out := append([]T(nil), s...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// wordsPoolCache keeps a few derived word pools (one per option set) so
// that items do not rebuild them; it holds at most wordsPoolCacheSize
// entries and starts over when full. Pools are shared read-only.
type wordsPoolCache[K comparable] struct {
	mu sync.Mutex
	m  map[K][]string
}

const wordsPoolCacheSize = 16

func (c *wordsPoolCache[K]) get(k K, build func() []string) []string {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= wordsPoolCacheSize {
		c.m = make(map[K][]string, wordsPoolCacheSize)
	}
	c.m[k] = v
	return v
}
