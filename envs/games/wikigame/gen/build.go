//go:build ignore

// build.go writes graph.tsv.gz, the link graph embedded by package wikigame,
// from the WordNet 3.0 noun database (Debian's wordnet-base). Run it through
// build.sh; see ../PROVENANCE.md.
//
// Articles are common nouns. A noun synset is eligible when its head lemma
// (the synset's first word) is lowercase letters, the synset is not an
// instance (a named person, place, …) and neither its usage domain nor its
// gloss marks it as a slur, obscenity or slang. Eligible synsets become
// articles when they are their head lemma's first (most frequent) sense and
// SemCor tagged that sense at least -min-count times, or when at least
// -min-descendants of those frequent nouns descend from them (the
// structural ancestors: "Time unit" above "Minute", "Hour", …). An article
// is titled by its head lemma (first letter capitalised, underscores as
// spaces); a structural ancestor that is not its lemma's first sense is
// disambiguated by its hypernym, as Wikipedia does: "Part (object)". Its
// text is built from the synset's gloss and synonyms.
//
// Links join related articles:
//
//   - hypernyms: the nearest article ancestors, looking through up to
//     -skip non-article synsets, and their inverse, hyponyms;
//   - holonyms and meronyms (member, part, substance), both ways;
//   - "see also": topic domains and their members, noun-to-noun
//     derivations and antonyms, both ways;
//   - mentions: the articles a definition names ("a member of the genus
//     Canis ... occurs in many breeds" links "Dog" to "Member", "Genus" and
//     "Breed"), one way, as a Wikipedia article links the terms in its text.
//     Only lemmas used mostly as nouns count, singular or plural.
//
// Each page then keeps at most -max-links links — by relation (hypernym,
// holonym, meronym, see also, mention, hyponym) and, within one, the most
// frequent article first — so hub pages list only their commonest hyponyms
// while the hyponyms still link back: like Wikipedia's, the graph is
// directed. Finally only the largest strongly connected component is kept
// (every page reachable from every other, so no dead ends), repeating the
// cap and the component until both are stable.
//
// Output: one page a line, sorted by title, as
//
//	Title<TAB>Text<TAB>i j k
//
// where i j k are the 0-based line numbers of the linked pages, ascending.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	wnDir    = flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database directory")
	outPath  = flag.String("out", "graph.tsv.gz", "output file")
	minCount = flag.Int("min-count", 2, "SemCor tag count an article's sense needs")
	maxLinks = flag.Int("max-links", 40, "links kept per page")
	skip     = flag.Int("skip", 30, "non-article synsets a hypernym link may look through")

	minDescendants = flag.Int("min-descendants", 10, "frequent nouns an ancestor needs to become an article")
)

// commonLemma: lowercase words, joined by underscores or hyphens.
var commonLemma = regexp.MustCompile(`^[a-z]+([_-][a-z]+)*$`)

// Relation classes, in the order a capped page keeps its links.
const (
	relHypernym = iota
	relHolonym
	relMeronym
	relSeeAlso
	relMention
	relHyponym
)

type synset struct {
	words []string
	ptrs  []pointer
	gloss string
}

type pointer struct {
	sym    string
	target string // offset of a noun synset
}

type wordNet struct {
	synsets map[string]*synset // by offset
	senses  map[string][]string
	count   map[string]int    // "lemma#sense" → SemCor tag count of a noun sense
	posCnt  map[string][2]int // lemma → SemCor tag counts as a noun, as anything else
	exc     map[string]string // irregular plural → singular
}

func main() {
	log.SetFlags(0)
	flag.Parse()
	wn := readWordNet(*wnDir)

	// Lemmas of offensive synsets never show up, not even as synonyms.
	banned := map[string]bool{}
	for _, s := range wn.synsets {
		if wn.offensive(s) {
			for _, w := range s.words {
				banned[strings.ToLower(w)] = true
			}
		}
	}

	// Articles: common nouns frequent enough, then the ancestors that
	// structure them (a common noun that is the hypernym of at least
	// -min-descendants of them, however rare itself), so that hypernym links
	// seldom need to skip far.
	eligible := func(lemma string, off string) bool {
		s := wn.synsets[off]
		return commonLemma.MatchString(s.words[0]) && strings.ToLower(s.words[0]) == lemma &&
			!slices.ContainsFunc(s.ptrs, func(p pointer) bool { return p.sym == "@i" }) &&
			!wn.offensive(s) && !obscene.MatchString(s.words[0])
	}
	var offs []string
	primary := map[string]bool{} // offsets of first senses
	for lemma, offsets := range wn.senses {
		primary[offsets[0]] = true
		if eligible(lemma, offsets[0]) && wn.count[lemma+"#1"] >= *minCount {
			offs = append(offs, offsets[0])
		}
	}
	descendants := map[string]int{}
	for _, off := range offs {
		for anc := range wn.ancestors(off) {
			descendants[anc]++
		}
	}
	isArticle := map[string]bool{}
	for _, off := range offs {
		isArticle[off] = true
	}
	nFrequent := len(offs)
	for off, d := range descendants {
		if d >= *minDescendants && !isArticle[off] && eligible(strings.ToLower(wn.synsets[off].words[0]), off) {
			offs = append(offs, off)
		}
	}
	// Titles: the lemma, or for an ancestor that is not its lemma's first
	// sense, the lemma disambiguated by its hypernym as Wikipedia does:
	// "Measure (abstraction)". Clashing disambiguations are dropped.
	titles := map[string]string{}
	owner := map[string][]string{}
	for _, off := range offs {
		s := wn.synsets[off]
		t := title(s.words[0])
		if !primary[off] {
			t += " (" + strings.ReplaceAll(wn.synsets[wn.hypernym(off)].words[0], "_", " ") + ")"
		}
		titles[off] = t
		owner[t] = append(owner[t], off)
	}
	offs = slices.DeleteFunc(offs, func(off string) bool { return len(owner[titles[off]]) > 1 })
	log.Printf("%d frequent nouns, %d structural ancestors", nFrequent, len(offs)-nFrequent)
	slices.Sort(offs)
	article := map[string]int{} // offset → article index
	for i, off := range offs {
		article[off] = i
	}
	n := len(offs)
	freq := make([]int, n)
	for i, off := range offs {
		freq[i] = wn.count[strings.ToLower(wn.synsets[off].words[0])+"#1"]
	}

	// Symmetric relations between articles, each with its class as seen
	// from its source.
	rel := make([]map[int]int, n)
	for i := range rel {
		rel[i] = map[int]int{}
	}
	add := func(a, b, ab, ba int) {
		if a == b {
			return
		}
		if c, ok := rel[a][b]; !ok || ab < c {
			rel[a][b] = ab
		}
		if c, ok := rel[b][a]; !ok || ba < c {
			rel[b][a] = ba
		}
	}
	for i, off := range offs {
		for _, anc := range wn.nearestArticles(off, article, *skip) {
			add(i, anc, relHypernym, relHyponym)
		}
		for _, p := range wn.synsets[off].ptrs {
			j, ok := article[p.target]
			if !ok {
				continue
			}
			switch p.sym {
			case "#m", "#p", "#s":
				add(i, j, relHolonym, relMeronym)
			case "%m", "%p", "%s":
				add(i, j, relMeronym, relHolonym)
			case ";c", "-c", "+", "!":
				add(i, j, relSeeAlso, relSeeAlso)
			}
		}
	}

	// Mentions: article titles named in a definition.
	// Only lemmas used mostly as nouns: "single" or "light" in a definition
	// is rarely the noun.
	byLemma := map[string]int{}
	for i, off := range offs {
		lemma := strings.ToLower(wn.synsets[off].words[0])
		if pc := wn.posCnt[lemma]; primary[off] && pc[0] >= pc[1] {
			byLemma[lemma] = i
		}
	}
	nMention := 0
	for i, off := range offs {
		for _, j := range mentions(wn.synsets[off].gloss, byLemma, wn.exc) {
			if j != i {
				if _, ok := rel[i][j]; !ok {
					rel[i][j] = relMention
					nMention++
				}
			}
		}
	}
	log.Printf("%d mention links", nMention)

	// Cap, keep the largest strongly connected component, repeat.
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	var links [][]int
	for round := 1; ; round++ {
		links = make([][]int, n)
		for i := range n {
			if !alive[i] {
				continue
			}
			var cand []int
			for j := range rel[i] {
				if alive[j] {
					cand = append(cand, j)
				}
			}
			slices.SortFunc(cand, func(a, b int) int {
				if rel[i][a] != rel[i][b] {
					return rel[i][a] - rel[i][b]
				}
				if freq[a] != freq[b] {
					return freq[b] - freq[a]
				}
				return strings.Compare(offs[a], offs[b])
			})
			links[i] = cand[:min(len(cand), *maxLinks)]
		}
		comp := largestSCC(links, alive)
		changed := false
		for i := range n {
			if alive[i] && !comp[i] {
				alive[i], changed = false, true
			}
		}
		if !changed {
			log.Printf("stable after %d rounds", round)
			break
		}
	}

	// Pages, sorted by title.
	type page struct {
		title, text string
		old         int
	}
	var pages []page
	for i, off := range offs {
		if alive[i] {
			s := wn.synsets[off]
			pages = append(pages, page{title: titles[off], text: text(s, banned), old: i})
		}
	}
	slices.SortFunc(pages, func(a, b page) int { return strings.Compare(a.title, b.title) })
	newIndex := make([]int, n)
	for k, p := range pages {
		newIndex[p.old] = k
	}
	var out bytes.Buffer
	nLinks := 0
	for _, p := range pages {
		var idx []int
		for _, j := range links[p.old] {
			if alive[j] {
				idx = append(idx, newIndex[j])
			}
		}
		slices.Sort(idx)
		nLinks += len(idx)
		strs := make([]string, len(idx))
		for k, j := range idx {
			strs[k] = strconv.Itoa(j)
		}
		fmt.Fprintf(&out, "%s\t%s\t%s\n", p.title, p.text, strings.Join(strs, " "))
	}

	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	check(err)
	_, err = zw.Write(out.Bytes()) // no name or mtime in the header: reproducible
	check(err)
	check(zw.Close())
	check(os.WriteFile(*outPath, gz.Bytes(), 0o644))
	log.Printf("%s: %d pages of %d candidates, %d links (%.1f a page); %d bytes raw, %d gzipped",
		*outPath, len(pages), n, nLinks, float64(nLinks)/float64(len(pages)), out.Len(), gz.Len())
	report(pages, links, alive, newIndex)
}

// report logs the shortest-path length distribution over sampled pairs.
func report[P any](pages []P, links [][]int, alive []bool, newIndex []int) {
	adj := make([][]int, len(pages))
	for old, ls := range links {
		if !alive[old] {
			continue
		}
		for _, j := range ls {
			adj[newIndex[old]] = append(adj[newIndex[old]], newIndex[j])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	hist := map[int]int{}
	for range 300 {
		dist := bfs(adj, rng.IntN(len(adj)))
		for _, d := range dist {
			hist[d]++
		}
	}
	var ds []int
	for d := range hist {
		ds = append(ds, d)
	}
	slices.Sort(ds)
	for _, d := range ds {
		log.Printf("distance %2d: %d", d, hist[d])
	}
}

func bfs(adj [][]int, src int) []int {
	dist := make([]int, len(adj))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	q := []int{src}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range adj[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				q = append(q, v)
			}
		}
	}
	return dist
}

// largestSCC marks the largest strongly connected component of the alive
// pages (Kosaraju, iterative).
func largestSCC(links [][]int, alive []bool) []bool {
	n := len(links)
	rev := make([][]int, n)
	for u, ls := range links {
		for _, v := range ls {
			if alive[v] {
				rev[v] = append(rev[v], u)
			}
		}
	}
	seen := make([]bool, n)
	var order []int
	type frame struct{ u, next int }
	for s := range n {
		if !alive[s] || seen[s] {
			continue
		}
		seen[s] = true
		stack := []frame{{s, 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(links[f.u]) {
				v := links[f.u][f.next]
				f.next++
				if alive[v] && !seen[v] {
					seen[v] = true
					stack = append(stack, frame{v, 0})
				}
				continue
			}
			order = append(order, f.u)
			stack = stack[:len(stack)-1]
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	sizes := []int{}
	for k := len(order) - 1; k >= 0; k-- {
		s := order[k]
		if comp[s] >= 0 {
			continue
		}
		c := len(sizes)
		sizes = append(sizes, 0)
		comp[s] = c
		q := []int{s}
		for len(q) > 0 {
			u := q[len(q)-1]
			q = q[:len(q)-1]
			sizes[c]++
			for _, v := range rev[u] {
				if alive[v] && comp[v] < 0 {
					comp[v] = c
					q = append(q, v)
				}
			}
		}
	}
	best := 0
	for c := range sizes {
		if sizes[c] > sizes[best] {
			best = c
		}
	}
	in := make([]bool, n)
	for i := range n {
		in[i] = alive[i] && comp[i] == best
	}
	return in
}

// nearestArticles walks up the hypernyms of off through non-article
// synsets, at most depth of them, and returns the article ancestors found.
func (wn *wordNet) nearestArticles(off string, article map[string]int, depth int) []int {
	var found []int
	frontier := []string{off}
	seen := map[string]bool{off: true}
	for level := 0; level <= depth && len(frontier) > 0; level++ {
		var next []string
		for _, o := range frontier {
			for _, p := range wn.synsets[o].ptrs {
				if p.sym != "@" || seen[p.target] {
					continue
				}
				seen[p.target] = true
				if j, ok := article[p.target]; ok {
					found = append(found, j)
				} else {
					next = append(next, p.target)
				}
			}
		}
		frontier = next
	}
	return found
}

// offensiveUsage names the usage domains whose members are left out.
var offensiveUsage = []string{"ethnic_slur", "disparagement", "obscenity", "slang"}

var offensiveGloss = regexp.MustCompile(`(?i)\b(offensive (term|name|word)s?|ethnic slur|obscene|obscenity|vulgar|derogatory|disparaging|slur)\b`)

// obscene catches what WordNet leaves unmarked ("fuckup" as a synonym of
// "blunder").
var obscene = regexp.MustCompile(`(?i)fuck|shit|cunt|nigg|bitch|whore`)

// offensive reports a synset marked as a slur, obscenity or slang, by its
// usage domain or its gloss.
func (wn *wordNet) offensive(s *synset) bool {
	for _, p := range s.ptrs {
		if p.sym == ";u" && slices.ContainsFunc(wn.synsets[p.target].words, func(w string) bool { return slices.Contains(offensiveUsage, w) }) {
			return true
		}
	}
	return offensiveGloss.MatchString(s.gloss) || obscene.MatchString(s.gloss)
}

// hypernym returns the first hypernym of off.
func (wn *wordNet) hypernym(off string) string {
	for _, p := range wn.synsets[off].ptrs {
		if p.sym == "@" {
			return p.target
		}
	}
	log.Fatalf("synset %s has no hypernym", off)
	return ""
}

// ancestors returns every hypernym of off, transitively.
func (wn *wordNet) ancestors(off string) map[string]bool {
	seen := map[string]bool{}
	stack := []string{off}
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range wn.synsets[o].ptrs {
			if p.sym == "@" && !seen[p.target] {
				seen[p.target] = true
				stack = append(stack, p.target)
			}
		}
	}
	return seen
}

// title turns a lemma into a Wikipedia-style title: "ice_cream" → "Ice cream".
func title(lemma string) string {
	t := strings.ReplaceAll(lemma, "_", " ")
	return strings.ToUpper(t[:1]) + t[1:]
}

// text builds an article's text from its synset: the definition as a
// sentence, the other lemmas as "Also called", and the gloss's examples.
func text(s *synset, banned map[string]bool) string {
	def, examples, _ := strings.Cut(s.gloss, `"`)
	def = strings.TrimRight(strings.TrimSpace(def), ";: ")
	def = strings.ToUpper(def[:1]) + def[1:]
	if !strings.HasSuffix(def, ".") && !strings.HasSuffix(def, "!") && !strings.HasSuffix(def, "?") {
		def += "."
	}
	parts := []string{def}
	var syn []string
	for _, w := range s.words[1:] {
		if banned[strings.ToLower(w)] || obscene.MatchString(w) {
			continue
		}
		syn = append(syn, strings.ReplaceAll(w, "_", " "))
	}
	if len(syn) > 0 {
		parts = append(parts, "Also called: "+strings.Join(syn, ", ")+".")
	}
	if examples != "" {
		var ex []string
		for _, e := range strings.Split(`"`+examples, ";") {
			if e = strings.TrimSpace(e); strings.HasPrefix(e, `"`) && strings.HasSuffix(e, `"`) && len(e) > 2 {
				ex = append(ex, e)
			}
		}
		if len(ex) > 0 {
			parts = append(parts, "For example: "+strings.Join(ex, "; ")+".")
		}
	}
	t := strings.Join(parts, " ")
	if strings.ContainsAny(t, "\t\n") {
		log.Fatalf("text of %q has a tab or newline", s.words[0])
	}
	return t
}

func readWordNet(dir string) *wordNet {
	wn := &wordNet{synsets: map[string]*synset{}, senses: map[string][]string{}, count: map[string]int{}, posCnt: map[string][2]int{}, exc: map[string]string{}}
	readLines(filepath.Join(dir, "data.noun"), func(l string) {
		if strings.HasPrefix(l, " ") {
			return // licence header
		}
		head, gloss, _ := strings.Cut(l, " | ")
		f := strings.Fields(head) // offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt (sym offset pos src/tgt)...
		nw, err := strconv.ParseInt(f[3], 16, 0)
		check(err)
		s := &synset{gloss: strings.TrimSpace(gloss)}
		k := 4
		for range int(nw) {
			s.words = append(s.words, f[k])
			k += 2
		}
		np, err := strconv.Atoi(f[k])
		check(err)
		k++
		for range np {
			if f[k+2] == "n" {
				s.ptrs = append(s.ptrs, pointer{sym: f[k], target: f[k+1]})
			}
			k += 4
		}
		wn.synsets[f[0]] = s
	})
	readLines(filepath.Join(dir, "index.noun"), func(l string) {
		if strings.HasPrefix(l, " ") {
			return
		}
		f := strings.Fields(l) // lemma pos synset_cnt p_cnt sym... sense_cnt tagsense_cnt offset...
		n, err := strconv.Atoi(f[2])
		check(err)
		wn.senses[f[0]] = f[len(f)-n:]
	})
	readLines(filepath.Join(dir, "noun.exc"), func(l string) {
		f := strings.Fields(l)
		wn.exc[f[0]] = f[1]
	})
	readLines(filepath.Join(dir, "cntlist.rev"), func(l string) {
		f := strings.Fields(l) // sense_key sense_number tag_cnt
		lemma, key, _ := strings.Cut(f[0], "%")
		c, err := strconv.Atoi(f[2])
		check(err)
		pc := wn.posCnt[lemma]
		if key[0] != '1' { // not a noun
			pc[1] += c
			wn.posCnt[lemma] = pc
			return
		}
		pc[0] += c
		wn.posCnt[lemma] = pc
		wn.count[lemma+"#"+f[1]] += c
	})
	return wn
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func readLines(path string, fn func(line string)) {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fn(sc.Text())
	}
	check(sc.Err())
}

var wordRE = regexp.MustCompile(`[A-Za-z]+(?:-[A-Za-z]+)*`)

// mentions returns the articles whose lemma a definition names, longest
// match first (three words, two, one), singular or plural.
func mentions(gloss string, byLemma map[string]int, exc map[string]string) []int {
	def, _, _ := strings.Cut(gloss, `"`)
	toks := wordRE.FindAllString(strings.ToLower(def), -1)
	var out []int
	for k := 0; k < len(toks); {
		matched := 0
		for n := min(3, len(toks)-k); n >= 1 && matched == 0; n-- {
			phrase := strings.Join(toks[k:k+n], "_")
			if n == 1 && len(phrase) < 3 {
				continue
			}
			for _, form := range singulars(phrase, exc) {
				if j, ok := byLemma[form]; ok {
					out = append(out, j)
					matched = n
					break
				}
			}
		}
		k += max(matched, 1)
	}
	return out
}

// singulars returns w and the singular forms it may be a plural of.
func singulars(w string, exc map[string]string) []string {
	forms := []string{w}
	if s, ok := exc[w]; ok {
		forms = append(forms, s)
	}
	for _, r := range [][2]string{{"ies", "y"}, {"ches", "ch"}, {"shes", "sh"}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"men", "man"}, {"s", ""}} {
		if strings.HasSuffix(w, r[0]) && len(w) > len(r[0])+1 {
			forms = append(forms, strings.TrimSuffix(w, r[0])+r[1])
		}
	}
	return forms
}
