package algorithmic

import (
	"math"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// wordsCeilings raise the random policy's allowed mean where reasoning-gym's
// partial credit rewards a well-formed guess, or the answer is True/False.
var wordsCeilings = map[string]float64{}

func wordsRegistry(tb testing.TB) *envs.Registry { return envtest.Registry(tb, registerWords) }

func TestWordsSuite(t *testing.T) {
	rgtest.Run(t, wordsRegistry(t), rgtest.Config{Ceilings: wordsCeilings})
}

func BenchmarkWordsItems(b *testing.B) { rgtest.BenchmarkItems(b, wordsRegistry(b)) }

type wordsCase struct {
	answer string
	want   float64
}

// checkWordsScores grades each answer against it with score.
func checkWordsScores(t *testing.T, score func(string, *rg.Item) float64, it *rg.Item, cases []wordsCase) {
	t.Helper()
	for _, c := range cases {
		if got := score(c.answer, it); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("score(%q) against %q = %v, want %v", c.answer, it.Answer, got, c.want)
		}
	}
}

// wordsItem generates the task's item for seed with options o.
func wordsItem[O any](t *testing.T, task rg.Task[O], o O, seed uint64) rg.Item {
	t.Helper()
	it, err := task.Generate(envs.NewRand(seed), o)
	if err != nil {
		t.Fatal(err)
	}
	return it
}

func TestSpellBackwardScore(t *testing.T) {
	checkWordsScores(t, scoreSpellBackward, &rg.Item{Answer: "nohtyp"}, []wordsCase{
		{"nohtyp", 1},
		{"NOHTYP", 1},
		{"nohtyq", 5.0 / 6},
		{"nohtypx", 0.8}, // reasoning-gym: the whole word and more
		{"python", 0},
		{"noh", 0.5},
		{"", 0},
	})
	it := wordsItem(t, spellBackwardTask, SpellBackwardOptions{MinWordLen: 5, MaxWordLen: 5}, 3)
	if w := it.Meta["word"].(string); runeLen(w) != 5 || reverseString(w) != it.Answer {
		t.Errorf("word %q, answer %q", w, it.Answer)
	}
}

func reverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func TestSpellBackwardOptions(t *testing.T) {
	r := wordsRegistry(t)
	for _, o := range []map[string]any{{"max_word_len": 2, "min_word_len": 1}, {"min_word_len": 6, "max_word_len": 5}} {
		if _, err := r.Make("rg:spell_backward", o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

func TestWordSequenceReversalScore(t *testing.T) {
	it := &rg.Item{Answer: "c, b, a", Data: []string{"c", "b", "a"}}
	checkWordsScores(t, scoreWordList, it, []wordsCase{
		{"c, b, a", 1},
		{"c,b,a", 1},
		{"C , B , A", 1},
		{"a, b, c", 0},
		{"c, b", 0},
		{"list: c, b, a", 7.0 / 13}, // reasoning-gym's containment credit
	})
	got := wordsItem(t, wordSequenceReversalTask, WordSequenceReversalOptions{MinWords: 4, MaxWords: 4}, 1)
	words := got.Meta["words"].([]string)
	want := got.Data.([]string)
	for i := range words {
		if words[i] != want[len(want)-1-i] {
			t.Fatalf("%v is not the reverse of %v", want, words)
		}
	}
}
