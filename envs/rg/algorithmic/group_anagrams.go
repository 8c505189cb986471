package algorithmic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs/rg"
)

// GroupAnagramsOptions are reasoning-gym's GroupAnagramsConfig. Quarry caps
// the groups at 100 and their words at 20 (reasoning-gym: open).
type GroupAnagramsOptions struct {
	MinAnagramGroups int `json:"min_anagram_groups" range:"2,100"`
	MaxAnagramGroups int `json:"max_anagram_groups" range:"2,100"`
	MinWordsPerGroup int `json:"min_words_per_group" range:"2,20"`
	MaxWordsPerGroup int `json:"max_words_per_group" range:"2,20"`
}

// Validate is reasoning-gym's: 2 ≤ min ≤ max for groups and words per group.
func (o GroupAnagramsOptions) Validate() error {
	if err := minMaxError("max_anagram_groups", o.MaxAnagramGroups, "min_anagram_groups", o.MinAnagramGroups); err != nil {
		return err
	}
	return minMaxError("max_words_per_group", o.MaxWordsPerGroup, "min_words_per_group", o.MinWordsPerGroup)
}

// anagramGroups stands in for reasoning-gym's anagrams.jsonl (PROVENANCE.md):
// the a–z words of words3to10.txt that share their letters with another,
// one group per multiset of letters, groups in order of their sorted
// letters.
var anagramGroups = sync.OnceValue(func() [][]string {
	byKey := map[string][]string{}
	for _, w := range dictionary() {
		if strings.ContainsFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) {
			continue
		}
		b := []byte(w)
		slices.Sort(b)
		byKey[string(b)] = append(byKey[string(b)], w)
	}
	var keys []string
	for k, ws := range byKey {
		if len(slices.Compact(ws)) >= 2 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([][]string, len(keys))
	for i, k := range keys {
		out[i] = slices.Compact(byKey[k])
	}
	return out
})

type groupAnagramsData struct {
	words  []string
	groups [][]string // canonical: each sorted, then by first word
}

var groupAnagramsTask = rg.Task[GroupAnagramsOptions]{
	Name:        "group_anagrams",
	Description: "reasoning-gym group_anagrams: group a list of words into anagrams; a JSON list of lists.",
	Revision:    1,
	DataDigest:  words3to10Digest,
	Defaults:    GroupAnagramsOptions{MinAnagramGroups: 2, MaxAnagramGroups: 10, MinWordsPerGroup: 2, MaxWordsPerGroup: 5},
	Generate: func(rng *rand.Rand, o GroupAnagramsOptions) (rg.Item, error) {
		all := anagramGroups()
		n := min(len(all), drawBetween(rng, o.MinAnagramGroups, o.MaxAnagramGroups))
		var words []string
		var groups [][]string
		for _, g := range drawDistinct(rng, len(all), n) {
			group := all[g]
			k := min(len(group), drawBetween(rng, o.MinWordsPerGroup, o.MaxWordsPerGroup))
			var picked []string
			for _, j := range drawDistinct(rng, len(group), k) {
				picked = append(picked, group[j])
			}
			words = append(words, picked...)
			groups = append(groups, picked)
		}
		groups = canonicalGroups(groups)
		return rg.Item{
			Question: "An anagram is a word formed by rearranging the letters of a different word, using all the original letters exactly once.\n\n" +
				"Your job is to group the anagrams together. You can return the answer in any order.\n\n" +
				`The output is a list of lists of strings, where each outer list contains a group of anagrams, e.g. [["eat", "tea"], ["tan", "nat"]].` + "\n\n" +
				"Group the following list of words into anagrams:\n" + pyJSONList(words) + "\n",
			Answer: pyJSONLists(groups),
			Data:   groupAnagramsData{words: words, groups: groups},
			Meta:   map[string]any{"words": words, "anagram_groups": n},
		}, nil
	},
	Score: scoreGroupAnagrams,
	Guess: func(rng *rand.Rand, it *rg.Item) string {
		words := wordsShuffled(rng, it.Data.(groupAnagramsData).words)
		var groups [][]string
		for len(words) > 0 {
			k := 1 + rng.IntN(min(len(words), 5))
			groups, words = append(groups, words[:k]), words[k:]
		}
		return pyJSONLists(groups)
	},
	Retry: true,
	Feedback: func(answer string, it *rg.Item, _ float64) string {
		got, ok := parseJSONLists(answer)
		if !ok {
			return `Your answer is not a list of lists of strings, e.g. [["eat", "tea"], ["tan", "nat"]].`
		}
		want := it.Data.(groupAnagramsData).groups
		right := 0
		for _, g := range canonicalGroups(got) {
			if slices.ContainsFunc(want, func(w []string) bool { return slices.Equal(w, g) }) {
				right++
			}
		}
		return fmt.Sprintf("Your answer is incorrect: %d of your %d groups are right.", right, len(got))
	},
}

// canonicalGroups sorts each group, then the groups by their first word
// (reasoning-gym's _sort_nested_list), breaking ties by the rest.
func canonicalGroups(groups [][]string) [][]string {
	out := make([][]string, len(groups))
	for i, g := range groups {
		out[i] = slices.Sorted(slices.Values(g))
	}
	slices.SortFunc(out, func(a, b []string) int { return slices.Compare(a, b) })
	return out
}

// scoreGroupAnagrams is reasoning-gym's: 1 for the groups in any order,
// 0.01 for any other list of lists of strings, else 0. Quarry also accepts
// Python's single-quoted lists and ignores case and spacing inside words.
func scoreGroupAnagrams(answer string, it *rg.Item) float64 {
	got, ok := parseJSONLists(answer)
	if !ok {
		return 0
	}
	for _, g := range got {
		for i, w := range g {
			g[i] = strings.ToLower(strings.TrimSpace(w))
		}
	}
	want := it.Data.(groupAnagramsData).groups
	if slices.EqualFunc(canonicalGroups(got), want, slices.Equal[[]string]) {
		return 1
	}
	return 0.01
}

// parseJSONLists reads a JSON list of lists of strings, or the same in
// Python's single quotes.
func parseJSONLists(s string) ([][]string, bool) {
	var out [][]string
	if json.Unmarshal([]byte(s), &out) == nil {
		return out, true
	}
	if strings.Contains(s, `"`) {
		return nil, false
	}
	if json.Unmarshal([]byte(strings.ReplaceAll(s, "'", `"`)), &out) == nil {
		return out, true
	}
	return nil, false
}

// pyJSONList is Python's json.dumps of a list of strings: ", " between
// items.
func pyJSONList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		b, _ := json.Marshal(s)
		q[i] = string(b)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// pyJSONLists is Python's json.dumps of a list of lists of strings.
func pyJSONLists(lists [][]string) string {
	q := make([]string, len(lists))
	for i, l := range lists {
		q[i] = pyJSONList(l)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
