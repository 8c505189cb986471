package wikigame

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/quarry-rl/quarry/envs"
)

// Page is one article: its title, its text (GEM's page content, whose first
// characters the game shows as a summary) and the titles it links to.
type Page struct {
	Title string
	Text  string
	Links []string
}

// Backend serves the articles the game navigates: the bundled WordNet graph
// (Bundled), or any other wiki — a MediaWiki or Kiwix client, say — plugged
// in through New.
type Backend interface {
	// Page returns the article with exactly this title. An unknown title
	// gives an error wrapping ErrNoPage; any other error is a backend fault.
	// The returned page is read-only.
	Page(title string) (Page, error)
	// Titles lists every article in a fixed order (read-only). Episodes draw
	// their start page from it, and find targets by breadth-first search
	// over Page.
	Titles() []string
}

// ErrNoPage reports a title the backend does not have.
var ErrNoPage = errors.New("wikigame: no such page")

// Graph is a Backend held in memory. It is read-only once built, so one
// Graph may serve any number of envs on any goroutines.
type Graph struct {
	pages  []Page
	titles []string
	index  map[string]int
}

// NewGraph checks pages and indexes them: titles must be non-empty, unique
// and free of braces (an action is \boxed{title}), and every link must name
// a page of the graph.
func NewGraph(pages []Page) (*Graph, error) {
	g := &Graph{pages: slices.Clone(pages), titles: make([]string, len(pages)), index: make(map[string]int, len(pages))}
	for i, p := range g.pages {
		// Clipped, so a caller's append never writes into shared data.
		g.pages[i].Links = slices.Clip(p.Links)
		switch {
		case p.Title == "" || strings.ContainsAny(p.Title, "{}\n"):
			return nil, fmt.Errorf("page %d: bad title %q", i, p.Title)
		case g.has(p.Title):
			return nil, fmt.Errorf("page %d: duplicate title %q", i, p.Title)
		}
		g.index[p.Title] = i
		g.titles[i] = p.Title
	}
	for _, p := range pages {
		for _, l := range p.Links {
			if !g.has(l) {
				return nil, fmt.Errorf("page %q links to %q: %w", p.Title, l, ErrNoPage)
			}
		}
	}
	return g, nil
}

func (g *Graph) has(title string) bool {
	_, ok := g.index[title]
	return ok
}

// Page returns the page titled title.
func (g *Graph) Page(title string) (Page, error) {
	i, ok := g.index[title]
	if !ok {
		return Page{}, fmt.Errorf("%q: %w", title, ErrNoPage)
	}
	return g.pages[i], nil
}

// Titles returns every title, in the order the graph was built from.
func (g *Graph) Titles() []string { return g.titles }

// Len is the number of pages.
func (g *Graph) Len() int { return len(g.pages) }

//go:embed graph.tsv.gz
var raw []byte

// Bundled returns the graph embedded with the package: common English nouns
// from WordNet 3.0, linked by their lexical relations (see PROVENANCE.md).
// It is parsed once, on first use, and shared.
func Bundled() *Graph { return bundled() }

var bundled = sync.OnceValue(func() *Graph {
	g, err := parseGraph(raw)
	if err != nil {
		panic(fmt.Sprintf("wikigame: embedded graph.tsv.gz: %v", err)) // a broken build, not a runtime condition
	}
	return g
})

// Digest identifies the embedded graph, for envs.Spec.DataDigest.
func Digest() string { return digest() }

var digest = sync.OnceValue(func() string { return envs.Digest(raw) })

// parseGraph reads the format gen/build.go writes: one page a line, sorted
// by title, as "Title<TAB>Text<TAB>i j k" where i j k are the line numbers
// (from 0) of the linked pages.
func parseGraph(gz []byte) (*Graph, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(string(b), "\n") // every title and text shares this one allocation
	lines := strings.Split(text, "\n")
	pages := make([]Page, len(lines))
	targets := make([][]int, len(lines))
	for n, line := range lines {
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("line %d: %d fields, want 3", n+1, len(fields))
		}
		if n > 0 && fields[0] <= pages[n-1].Title {
			return nil, fmt.Errorf("line %d: %q is not after %q", n+1, fields[0], pages[n-1].Title)
		}
		pages[n] = Page{Title: fields[0], Text: fields[1]}
		for _, f := range strings.Fields(fields[2]) {
			j, err := strconv.Atoi(f)
			if err != nil || j < 0 || j >= len(lines) || j == n {
				return nil, fmt.Errorf("line %d: bad link %q", n+1, f)
			}
			targets[n] = append(targets[n], j)
		}
	}
	for n, ts := range targets {
		links := make([]string, len(ts))
		for k, j := range ts {
			links[k] = pages[j].Title
		}
		pages[n].Links = links
	}
	return NewGraph(pages)
}
