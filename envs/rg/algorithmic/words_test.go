package algorithmic

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
	"github.com/quarry-rl/quarry/envs/rg"
	"github.com/quarry-rl/quarry/envs/rg/rgtest"
)

// wordsCeilings raise the random policy's allowed mean where reasoning-gym's
// partial credit rewards a well-formed guess, or the answer is True/False.
var wordsCeilings = map[string]float64{
	"rg:word_sorting":       0.4, // any permutation of the words earns 0.2
	"rg:isomorphic_strings": 0.6, // True or False
	"rg:ransom_note":        0.6,
}

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

func TestLetterCountingScore(t *testing.T) {
	checkWordsScores(t, wordsInteger, &rg.Item{Answer: "12"}, []wordsCase{
		{"12", 1}, {"+12", 1}, {"12.0", 1}, {"13", 0}, {"twelve", 0}, {"", 0},
		{"n=12", 0.5}, // reasoning-gym's containment credit
	})
	for seed := range uint64(50) {
		it := wordsItem(t, letterCountingTask, letterCountingTask.Defaults, seed)
		span := strings.ToLower(strings.Join(it.Meta["span"].([]string), ""))
		letter := it.Meta["target_letter"].(string)
		if got := strconv.Itoa(strings.Count(span, letter)); got != it.Answer || got == "0" {
			t.Fatalf("seed %d: %q occurs %s times, answer %s", seed, letter, got, it.Answer)
		}
	}
}

func TestWordSortingScore(t *testing.T) {
	it := &rg.Item{Answer: "Apple, apple, banana", Data: wordSortingData{sorted: []string{"Apple", "apple", "banana"}}}
	checkWordsScores(t, scoreWordSorting, it, []wordsCase{
		{"Apple, apple, banana", 1},
		{"Apple,apple,banana", 1},
		{"Apple ,  apple, banana", 1},
		{"apple, Apple, banana", 1.0 / 3}, // one in place: 1/3 beats the 0.2 floor
		{"banana, Apple, apple", 0.2},     // the right words, none in place
		{"Apple, apple", 2.0 / 3},
		{"", 0},
	})
	o := wordSortingTask.Defaults
	o.Transformation = "uppercase"
	for seed := range uint64(20) {
		it := wordsItem(t, wordSortingTask, o, seed)
		d := it.Data.(wordSortingData)
		asc := slices.IsSorted(d.sorted)
		desc := slices.IsSortedFunc(d.sorted, func(a, b string) int { return strings.Compare(b, a) })
		if it.Meta["direction"] == "ascending" && !asc || it.Meta["direction"] == "descending" && !desc {
			t.Fatalf("seed %d: %v is not %s", seed, d.sorted, it.Meta["direction"])
		}
		if strings.ToUpper(it.Answer) != it.Answer {
			t.Fatalf("seed %d: %q is not upper-case", seed, it.Answer)
		}
	}
	r := wordsRegistry(t)
	for _, o := range []map[string]any{{"transformation": "title"}, {"min_word_length": 40, "max_word_length": 64}} {
		if _, err := r.Make("rg:word_sorting", o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

func TestCaesarCipherScore(t *testing.T) {
	it := &rg.Item{Answer: "THE YEAR TWO THOUSAND"}
	checkWordsScores(t, scoreCaesar, it, []wordsCase{
		{"THE YEAR TWO THOUSAND", 1},
		{"the year two thousand.", 1},
		{"The  Year Two\nThousand", 1},
		{"THE YEAR TWO THOUSANDS", 21.0 / 22}, // reasoning-gym's containment credit
		{"THE YEAR TWO THOUSAN", 0},
		{"UIF ZFBS UXP UIPVTBOE", 0},
	})
	for seed := range uint64(50) {
		it := wordsItem(t, caesarCipherTask, caesarCipherTask.Defaults, seed)
		k := it.Meta["rotation"].(int)
		if caesarShift(it.Data.(string), 26-k) != it.Answer {
			t.Fatalf("seed %d: shifting %q back by %d does not give %q", seed, it.Data, k, it.Answer)
		}
		if n := len(strings.Fields(it.Answer)); n < 3 || n > 20 {
			t.Fatalf("seed %d: %d words", seed, n)
		}
	}
	o := caesarCipherTask.Defaults
	o.Delimiter = "\n\n"
	if it := wordsItem(t, caesarCipherTask, o, 1); it.Answer == "" {
		t.Error("paragraph delimiter gave no sentence")
	}
	if _, err := wordsRegistry(t).Make("rg:caesar_cipher", map[string]any{"min_words": 400, "max_words": 500}); err == nil {
		t.Error("a word range no sentence has was accepted")
	}
}

func TestIsomorphicStrings(t *testing.T) {
	for _, c := range []struct {
		s, t string
		want bool
	}{{"egg", "add", true}, {"foo", "bar", false}, {"paper", "title", true}, {"ab", "aa", false}, {"ab", "ab", true}, {"abc", "ab", false}} {
		if got := isIsomorphic(c.s, c.t); got != c.want {
			t.Errorf("isIsomorphic(%q, %q) = %v", c.s, c.t, got)
		}
	}
	checkWordsScores(t, wordsBool, &rg.Item{Answer: "True"}, []wordsCase{{"True", 1}, {"true", 1}, {"TRUE", 1}, {"False", 0}, {"yes", 0}})
	for _, p := range []float64{0, 1} {
		o := isomorphicStringsTask.Defaults
		o.PSolvable = p
		for seed := range uint64(50) {
			it := wordsItem(t, isomorphicStringsTask, o, seed)
			if (it.Answer == "True") != (p == 1) {
				t.Fatalf("p_solvable %v seed %d: answer %s for %v", p, seed, it.Answer, it.Meta["words"])
			}
		}
	}
}

func TestRansomNote(t *testing.T) {
	if !canConstruct("aab", "baac") || canConstruct("aab", "abc") || !canConstruct("", "x") {
		t.Error("canConstruct")
	}
	for _, p := range []float64{0, 1} {
		o := ransomNoteTask.Defaults
		o.PSolvable = p
		for seed := range uint64(50) {
			it := wordsItem(t, ransomNoteTask, o, seed)
			if (it.Answer == "True") != (p == 1) {
				t.Fatalf("p_solvable %v seed %d: answer %s", p, seed, it.Answer)
			}
		}
	}
	if _, err := wordsRegistry(t).Make("rg:ransom_note", map[string]any{"max_note_length": 30}); err == nil {
		t.Error("max_note_length = max_magazine_length accepted")
	}
}

func TestGroupAnagramsScore(t *testing.T) {
	it := &rg.Item{Data: groupAnagramsData{groups: canonicalGroups([][]string{{"tea", "eat"}, {"tan", "nat"}})}}
	checkWordsScores(t, scoreGroupAnagrams, it, []wordsCase{
		{`[["eat", "tea"], ["nat", "tan"]]`, 1},
		{`[["nat","tan"],["tea","eat"]]`, 1},
		{`[['tan', 'nat'], ['eat', 'tea']]`, 1}, // Python's quotes
		{`[["EAT", "Tea"], ["nat", "tan"]]`, 1},
		{`[["eat", "tea", "tan", "nat"]]`, 0.01},
		{`[["eat"], ["tea"], ["nat", "tan"]]`, 0.01},
		{`eat tea, nat tan`, 0},
		{``, 0},
	})
	for seed := range uint64(30) {
		it := wordsItem(t, groupAnagramsTask, groupAnagramsTask.Defaults, seed)
		d := it.Data.(groupAnagramsData)
		keys := map[string]bool{}
		for _, g := range d.groups {
			key := ""
			for _, w := range g {
				b := []byte(w)
				slices.Sort(b)
				if key != "" && string(b) != key {
					t.Fatalf("seed %d: %v is not one anagram group", seed, g)
				}
				key = string(b)
			}
			if keys[key] {
				t.Fatalf("seed %d: two groups of %q", seed, key)
			}
			keys[key] = true
		}
		if n := len(d.groups); n < 2 || n > 10 {
			t.Fatalf("seed %d: %d groups", seed, n)
		}
	}
}

func TestLetterJumbleScore(t *testing.T) {
	it := &rg.Item{Answer: "The year 2889"}
	checkWordsScores(t, scoreLetterJumble, it, []wordsCase{
		{"The year 2889", 1},
		{"the YEAR 2889", 1},
		{"The  year\n2889", 1},
		{"Teh year 2889", 2.0 / 3},
		{"year The", 0},
		{"", 0},
	})
	for seed := range uint64(30) {
		it := wordsItem(t, letterJumbleTask, letterJumbleTask.Defaults, seed)
		for i, w := range it.Data.([]string) {
			a, b := []rune(w), []rune(it.Meta["original_words"].([]string)[i])
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Fatalf("seed %d: %q is not a jumble of %q", seed, w, string(b))
			}
		}
	}
	if _, err := wordsRegistry(t).Make("rg:letter_jumble", map[string]any{"min_word_len": 30, "max_word_len": 64}); err == nil {
		t.Error("a length range without enough words was accepted")
	}
}

func TestSentenceReorderingScore(t *testing.T) {
	it := &rg.Item{Answer: "It was a fine day."}
	checkWordsScores(t, scoreSentenceReordering, it, []wordsCase{
		{"It was a fine day.", 1},
		{"it was a fine day.", 1},
		{"It  was a fine day.", 1},
		{"was It a fine day.", 0.6},
		{"It was a fine day", 0.8},
		{"It was fine", 0.05}, // reasoning-gym: any other number of words
	})
	for seed := range uint64(30) {
		it := wordsItem(t, sentenceReorderingTask, sentenceReorderingTask.Defaults, seed)
		a, b := slices.Clone(it.Data.([]string)), strings.Fields(it.Answer)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d: the question's words are not the answer's", seed)
		}
		if n := it.Meta["word_count"].(int); n < 3 || n > 20 {
			t.Fatalf("seed %d: %d words", seed, n)
		}
	}
}

func TestPalindromeGenerationScore(t *testing.T) {
	it := &rg.Item{Answer: "abcba", Data: "bacab"}
	checkWordsScores(t, scorePalindromeGeneration, it, []wordsCase{
		{"abcba", 1},
		{"bacab", 1}, // another palindrome of the same letters
		{"BACAB", 1},
		{"b a c a b", 1},
		{"a, b, c, b, a", 1},
		{"abba", 0.05},
		{"abcab", 0.02},
		{"", 0},
	})
}

func TestPalindromePartitioning(t *testing.T) {
	got := palindromePartitions("aab")
	if want := [][]string{{"a", "a", "b"}, {"aa", "b"}}; !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("partitions of aab: %v", got)
	}
	if n := len(palindromePartitions(strings.Repeat("a", 16))); n != 1<<15 {
		t.Errorf("%d partitions of a^16", n)
	}
	it := &rg.Item{Data: partitionData{s: "aab", parts: got}}
	checkWordsScores(t, scorePalindromePartitioning, it, []wordsCase{
		{`[["a","a","b"],["aa","b"]]`, 1},
		{`[["aa", "b"], ["a", "a", "b"]]`, 1},
		{`[['aa', 'b'], ['a', 'a', 'b']]`, 1},
		{`[["aa","b"],["a","a","b"],["aa","b"]]`, 1}, // a set, as reasoning-gym compares
		{`[["aa","b"]]`, 0},
		{`[["aa","b"],["a","a","b"],["aab"]]`, 0},
		{`aa b`, 0},
	})
	if _, err := wordsRegistry(t).Make("rg:palindrome_partitioning", map[string]any{"max_string_len": 4}); err == nil {
		t.Error("max_substring_palindrome_len above max_string_len accepted")
	}
}

func TestStringInsertion(t *testing.T) {
	for in, want := range map[string]string{
		"ABCDE":     "ABCDAE", // after ABCD the scan skips to E
		"BCDEA":     "BCDEBA",
		"EABCD":     "EABCED",
		"AAAAA":     "AAAAA",
		"ABCDABCD":  "ABCDAABCDA",
		"DEABCDEAB": "DEABDCDEACB", // DEAB+D, CDEA+C, B
	} {
		if got := insertLetters(in); got != want {
			t.Errorf("insertLetters(%q) = %q, want %q", in, got, want)
		}
	}
	checkWordsScores(t, scoreStringInsertion, &rg.Item{Answer: "ABCDAE"}, []wordsCase{
		{"ABCDAE", 1},
		{"abcdae", 1},
		{"ABCDA E", 1},
		{"['A', 'B', 'C', 'D', 'A', 'E']", 0.1}, // reasoning-gym's credit for a list
		{`["A","B","C","D","A","E"]`, 0.1},
		{"ABCDE", 0},
		{"ABCDAEA", 0},
	})
}

func TestStringManipulation(t *testing.T) {
	rule := func(i int) []manipulationRule { return []manipulationRule{manipulationRules[i-1]} }
	for _, c := range []struct {
		s     string
		rules []manipulationRule
		want  string
	}{
		{"abab", rule(1), "caab"},                          // once: 'ca' is no longer 'ab'
		{"cbac", rule(5), "aaa"},                           // cb → aa, last character deleted
		{"cb", rule(5), "aa"},                              // Python's s[2:-1] is empty
		{"bbbbbb", rule(4), ""},                            // bb off the end until nothing is left
		{"acacab", rule(17), "ab"},                         // the first 'ca' after the first character, twice
		{"bb", rule(18), "bbab"},                           // two b's, then three
		{"aaa", rule(16), "acc"},                           // aa at the end → cc
		{"abcabc", rule(9), "ccabab"},                      // abc → cab, repeatedly
		{"abbbbbbbbbbbbbbbc", rule(19), "abbbbbbbbbbbbbc"}, // 17 → 15 characters
	} {
		got, _, ok := manipulate(c.s, c.rules)
		if !ok || got != c.want {
			t.Errorf("manipulate(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	// The first applicable rule in the listed order, until none applies.
	chain := []manipulationRule{manipulationRules[0], manipulationRules[5]} // ab → ca, then ca → bb…c
	if got, _, _ := manipulate("abc", chain); got != "bbcc" {
		t.Errorf("chain: %q", got)
	}
	checkWordsScores(t, scoreStringManipulation, &rg.Item{Answer: "cab"}, []wordsCase{
		{"cab", 1}, {"CAB", 1}, {"cba", 0}, {"the string cab", 3.0 / 14},
	})
}

func TestStringSplittingAndSynthesis(t *testing.T) {
	// A=1: rule 1 gives 0 0 0 2 1 0, rule 5 then 0 0 0 1 0 1.
	if got, _ := runCounts([]int{1, 0, 0, 0, 0, 0}, 1000, splittingStep); joinCounts(got) != "0 0 0 1 0 1" {
		t.Errorf("splitting from A=1: %v", got)
	}
	if got, _ := runCounts([]int{1, 0, 0, 0, 0, 0}, 1, splittingStep); joinCounts(got) != "0 0 0 2 1 0" {
		t.Errorf("splitting with max_iterations 1: %v", got)
	}
	// [A][B][C] → {A}; then nothing applies.
	if got, _ := runCounts([]int{1, 1, 1, 0, 0, 0, 0, 0, 0}, 1000, synthesisStep); joinCounts(got) != "0 0 0 1 0 0 0 0 0" {
		t.Errorf("synthesis: %v", got)
	}
	// 2[A] 2[B] → {C} twice.
	if got, _ := runCounts([]int{2, 2, 0, 0, 0, 0, 0, 0, 0}, 1000, synthesisStep); joinCounts(got) != "0 0 0 0 0 2 0 0 0" {
		t.Errorf("synthesis: %v", got)
	}
	it := &rg.Item{Answer: "1 0 2 0 0 3", Data: []int{1, 0, 2, 0, 0, 3}}
	checkWordsScores(t, scoreCounts, it, []wordsCase{
		{"1 0 2 0 0 3", 1}, {"1, 0, 2, 0, 0, 3", 1}, {"[1,0,2,0,0,3]", 1}, {"1  0 2 0 0\n3", 1},
		{"1 0 2 0 0 4", 0}, {"1 0 2 0 0", 0}, {"A: 1 0 2 0 0 3", 11.0 / 14},
	})
}

func TestWordLadder(t *testing.T) {
	g := ladderGraphs()[1]
	d := ladderData{start: "COLD", end: "WARM", known: g.index}
	score := func(answer string, _ *rg.Item) float64 { s, _ := checkLadder(answer, d); return s }
	for _, w := range []string{"COLD", "CORD", "CARD", "WARD", "WARM"} {
		if _, ok := g.index[w]; !ok {
			t.Fatalf("%s is not in words.csv", w)
		}
	}
	checkWordsScores(t, score, &rg.Item{}, []wordsCase{
		{"COLD,CORD,CARD,WARD,WARM", 1},
		{"cold, cord, card, ward, warm", 1},
		{"COLD -> CORD -> CARD -> WARD -> WARM", 1},
		{"COLD,CORD,WORD,WARD,WARM", 1}, // another valid ladder
		{"COLD,CORD,CARD,WARD,WXRD,WARD,WARM", 0.5},
		{"COLD,CARD,WARM", 0},      // two letters at once
		{"COLD,CORD,CARD,WARD", 0}, // does not reach the end
		{"COLD,CORDS,WARM", 0},     // wrong length
		{"WARM", 0},
	})
	for _, o := range []WordLadderOptions{
		{MinWordLength: 3, MaxWordLength: 3, MinChainLength: 11, MaxChainLength: 11},
		{MinWordLength: 5, MaxWordLength: 5, MinChainLength: 3, MaxChainLength: 3},
		{MinWordLength: 3, MaxWordLength: 5, MinChainLength: -1, MaxChainLength: 4},
	} {
		lo, hi := o.chainBounds()
		for seed := range uint64(5) {
			it := wordsItem(t, wordLadderTask, o, seed)
			steps := strings.Split(it.Answer, ",")
			if n := len(steps); n < lo || n > hi {
				t.Fatalf("%+v seed %d: %d words", o, seed, n)
			}
			if s, why := checkLadder(it.Answer, it.Data.(ladderData)); s != 1 {
				t.Fatalf("%+v seed %d: the reference ladder scores %v: %s", o, seed, s, why)
			}
		}
	}
	r := wordsRegistry(t)
	for _, o := range []map[string]any{
		{"min_chain_length": 2, "max_chain_length": 5},
		{"min_chain_length": 4, "max_chain_length": -1},
		{"min_chain_length": 6, "max_chain_length": 5},
		{"min_word_length": 5, "max_word_length": 4},
	} {
		if _, err := r.Make("rg:word_ladder", o); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}

// TestWordsRegister: every words task is registered, with the retry variant
// except where the answer is True or False.
func TestWordsRegister(t *testing.T) {
	r := wordsRegistry(t)
	names := []string{"caesar_cipher", "group_anagrams", "isomorphic_strings", "letter_counting", "letter_jumble",
		"palindrome_generation", "palindrome_partitioning", "ransom_note", "sentence_reordering", "spell_backward",
		"string_insertion", "string_manipulation", "string_splitting", "string_synthesis", "word_ladder",
		"word_sequence_reversal", "word_sorting"}
	noRetry := map[string]bool{"isomorphic_strings": true, "ransom_note": true}
	for _, name := range names {
		if _, err := r.Lookup(rg.ID(name)); err != nil {
			t.Error(err)
		}
		if _, err := r.Lookup(rg.ID(name) + rg.RetrySuffix); (err == nil) == noRetry[name] {
			t.Errorf("%s: retry variant registered: %v", name, err == nil)
		}
	}
	if n, want := len(r.IDs()), 2*len(names)-len(noRetry); n != want {
		t.Errorf("%d ids, want %d", n, want)
	}
}

func TestWordsPoolCacheIsBounded(t *testing.T) {
	var c wordsPoolCache[int]
	builds := 0
	for k := range 3 * wordsPoolCacheSize {
		c.get(k, func() []string { builds++; return []string{strconv.Itoa(k)} })
		if got := c.get(k, func() []string { builds++; return nil }); len(got) != 1 || got[0] != strconv.Itoa(k) {
			t.Fatalf("key %d: %v", k, got)
		}
		if len(c.m) > wordsPoolCacheSize {
			t.Fatalf("%d entries", len(c.m))
		}
	}
	if builds != 3*wordsPoolCacheSize {
		t.Errorf("%d builds, want one per key", builds)
	}
}
