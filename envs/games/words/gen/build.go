//go:build ignore

// build.go writes words.tsv.gz, the word data embedded by package words, from
// Debian's wamerican word list and the WordNet 3.0 database (wordnet-base).
// Run it through build.sh; see ../PROVENANCE.md.
//
// Every accepted word is lowercase a–z, 3..10 letters long, and in wamerican.
// Each line of the output is one word, sorted:
//
//	word                  dictionary only (inflections, rarer words)
//	word<TAB>x            also a WordNet noun/verb/adjective lemma with a
//	                      common-noun sense (the "extended" pool)
//	word<TAB>c<TAB>clue   extended, frequent in WordNet's tagged corpus
//	                      (SemCor), with a short clue (the "common" pool)
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

const (
	minLen, maxLen = 3, 10
	// minTagCount is the SemCor sense-tag count (summed over a lemma's noun,
	// verb and adjective senses) from which a word counts as common.
	minTagCount = 2
	// maxClue bounds a clue's length; longer glosses are cut at a word.
	maxClue = 72
)

var (
	dictPath = flag.String("dict", "/usr/share/dict/american-english", "wamerican word list")
	wnDir    = flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database directory")
	outPath  = flag.String("out", "words.tsv.gz", "output file")
)

var (
	plainWord = regexp.MustCompile(`^[a-z]{3,10}$`)
	vowel     = regexp.MustCompile(`[aeiouy]`)
	token     = regexp.MustCompile(`[A-Za-z]+`)
)

var posNames = []string{"noun", "verb", "adj"} // preference order on ties

func main() {
	log.SetFlags(0)
	flag.Parse()
	dict := readDict(*dictPath)
	wn := readWordNet(*wnDir)

	var out bytes.Buffer
	var nDict, nExt, nCommon int
	for _, w := range dict {
		senses, isLemma := wn.lemmas[w]
		if !isLemma || !vowel.MatchString(w) || !wn.hasCommonSense(w, senses) {
			fmt.Fprintf(&out, "%s\n", w)
			nDict++
			continue
		}
		if wn.count[w] >= minTagCount {
			if clue, ok := wn.clue(w, senses); ok {
				fmt.Fprintf(&out, "%s\tc\t%s\n", w, clue)
				nCommon++
				continue
			}
		}
		fmt.Fprintf(&out, "%s\tx\n", w)
		nExt++
	}

	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	check(err)
	_, err = zw.Write(out.Bytes()) // no name or mtime in the header: reproducible
	check(err)
	check(zw.Close())
	check(os.WriteFile(*outPath, gz.Bytes(), 0o644))
	log.Printf("%s: %d words (%d common with clues, %d more lemmas, %d dictionary only); %d bytes raw, %d gzipped",
		*outPath, nCommon+nExt+nDict, nCommon, nExt, nDict, out.Len(), gz.Len())
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

// readDict keeps wamerican's lowercase a–z words of 3..10 letters: capitalised
// entries are proper nouns, and entries with apostrophes are possessives.
func readDict(path string) []string {
	var words []string
	readLines(path, func(l string) {
		if plainWord.MatchString(l) {
			words = append(words, l)
		}
	})
	slices.Sort(words)
	return slices.Compact(words)
}

type sense struct {
	pos    string
	offset int64
}

type wordNet struct {
	dir    string
	lemmas map[string][]sense         // senses in WordNet's order, by pos
	count  map[string]int             // SemCor tag count over noun/verb/adj senses
	posCnt map[string]map[string]int  // lemma → pos → tag count
	forms  map[string]map[string]bool // lemma → irregular inflections (*.exc)
	data   map[string][]byte          // pos → data file
}

func readWordNet(dir string) *wordNet {
	wn := &wordNet{dir: dir, lemmas: map[string][]sense{}, count: map[string]int{},
		posCnt: map[string]map[string]int{}, forms: map[string]map[string]bool{}, data: map[string][]byte{}}
	for _, pos := range posNames {
		readLines(filepath.Join(dir, "index."+pos), func(l string) {
			if strings.HasPrefix(l, " ") {
				return // licence header
			}
			f := strings.Fields(l)
			if !plainWord.MatchString(f[0]) {
				return
			}
			n, err := strconv.Atoi(f[2]) // synset_cnt; offsets end the line
			check(err)
			for _, off := range f[len(f)-n:] {
				o, err := strconv.ParseInt(off, 10, 64)
				check(err)
				wn.lemmas[f[0]] = append(wn.lemmas[f[0]], sense{pos, o})
			}
		})
		b, err := os.ReadFile(filepath.Join(dir, "data."+pos))
		check(err)
		wn.data[pos] = b
		readLines(filepath.Join(dir, pos+".exc"), func(l string) {
			f := strings.Fields(l)
			for _, base := range f[1:] {
				if wn.forms[base] == nil {
					wn.forms[base] = map[string]bool{}
				}
				wn.forms[base][f[0]] = true
			}
		})
	}
	readLines(filepath.Join(dir, "cntlist.rev"), func(l string) {
		f := strings.Fields(l) // sense_key sense_number tag_cnt
		lemma, key, _ := strings.Cut(f[0], "%")
		pos := map[byte]string{'1': "noun", '2': "verb", '3': "adj", '5': "adj"}[key[0]]
		if pos == "" || !plainWord.MatchString(lemma) {
			return
		}
		c, err := strconv.Atoi(f[2])
		check(err)
		wn.count[lemma] += c
		if wn.posCnt[lemma] == nil {
			wn.posCnt[lemma] = map[string]int{}
		}
		wn.posCnt[lemma][pos] += c
	})
	return wn
}

// synset returns the words and gloss of the synset at s.
func (wn *wordNet) synset(s sense) (words []string, gloss string) {
	b := wn.data[s.pos][s.offset:]
	line := string(b[:bytes.IndexByte(b, '\n')])
	head, gloss, _ := strings.Cut(line, " | ")
	f := strings.Fields(head) // offset lex_filenum ss_type w_cnt (word lex_id)...
	n, err := strconv.ParseInt(f[3], 16, 0)
	check(err)
	for i := range int(n) {
		w := f[4+2*i]
		if j := strings.IndexByte(w, '('); j >= 0 { // adjective markers: (a), (p), (ip)
			w = w[:j]
		}
		words = append(words, w)
	}
	return words, strings.TrimSpace(gloss)
}

// lowercaseIn reports whether the synset lists w uncapitalised, i.e. the
// sense is not a proper noun ("Mars") or an abbreviation written in capitals.
func lowercaseIn(w string, words []string) bool {
	return slices.Contains(words, w)
}

func (wn *wordNet) hasCommonSense(w string, senses []sense) bool {
	for _, s := range senses {
		if words, _ := wn.synset(s); lowercaseIn(w, words) {
			return true
		}
	}
	return false
}

// clue picks a sense's gloss, trimmed to a clue that does not contain the
// word: senses of the part of speech with the most tagged uses first, in
// WordNet's order (most frequent first). A gloss that needs none of the
// word's forms masked is preferred ("make a ___ sound" says little); a masked
// one must keep three words of its own.
func (wn *wordNet) clue(w string, senses []sense) (string, bool) {
	order := slices.Clone(posNames)
	slices.SortStableFunc(order, func(a, b string) int { return wn.posCnt[w][b] - wn.posCnt[w][a] })
	var masked string
	for _, pos := range order {
		for _, s := range senses {
			if s.pos != pos {
				continue
			}
			words, gloss := wn.synset(s)
			if !lowercaseIn(w, words) {
				continue
			}
			g := trimGloss(gloss)
			c := wn.mask(w, g)
			if strings.Contains(strings.ToLower(c), w) {
				continue // inside another word: "kilogram" for gram
			}
			own := 0
			for _, t := range token.FindAllString(c, -1) {
				if len(t) > 1 || t == "a" {
					own++
				}
			}
			switch {
			case c == g && own >= 2:
				return c, true
			case c != g && own >= 3 && masked == "":
				masked = c
			}
		}
	}
	return masked, masked != ""
}

var (
	example     = regexp.MustCompile(`;?\s*"`)
	parenthesis = regexp.MustCompile(`\s*\([^()]*\)`)
	spaces      = regexp.MustCompile(`\s+`)
)

// trimGloss keeps a gloss's first definition: no examples, no
// parenthetical remarks, nothing after a semicolon or colon.
func trimGloss(g string) string {
	if loc := example.FindStringIndex(g); loc != nil {
		g = g[:loc[0]]
	}
	for parenthesis.MatchString(g) {
		g = parenthesis.ReplaceAllString(g, "")
	}
	if i := strings.IndexAny(g, ";:"); i >= 0 {
		g = g[:i]
	}
	g = strings.ReplaceAll(g, "`", "'")
	g = strings.TrimSpace(spaces.ReplaceAllString(g, " "))
	g = strings.TrimRight(g, " ,.-")
	if len(g) > maxClue {
		cut := strings.LastIndexByte(g[:maxClue-3], ' ')
		g = strings.TrimRight(g[:cut], " ,;-") + "..."
	}
	return g
}

// Mask replaces the word's forms in a clue.
const Mask = "___"

// mask hides w and its inflections: any token starting with w (dogs,
// carefully), regular spelling changes (danced, happier, stopped) and
// WordNet's irregular forms (ran for run).
func (wn *wordNet) mask(w, clue string) string {
	forms := map[string]bool{}
	for f := range wn.forms[w] {
		forms[f] = true
	}
	var prefixes []string
	prefixes = append(prefixes, w, w+w[len(w)-1:]) // stop → stopped
	switch last := w[len(w)-1]; {
	case last == 'e' && len(w) >= 4:
		prefixes = append(prefixes, w[:len(w)-1]+"i", w[:len(w)-1]+"a") // dance → dancing; debate → debatable
		for _, s := range []string{"ing", "ed", "er", "ers", "est"} {
			forms[w[:len(w)-1]+s] = true
		}
	case last == 'y' && len(w) >= 4:
		prefixes = append(prefixes, w[:len(w)-1]+"i") // happy → happier, happiness
	}
	return token.ReplaceAllStringFunc(clue, func(t string) string {
		lt := strings.ToLower(t)
		if forms[lt] {
			return Mask
		}
		for _, p := range prefixes {
			if strings.HasPrefix(lt, p) {
				return Mask
			}
		}
		return t
	})
}
