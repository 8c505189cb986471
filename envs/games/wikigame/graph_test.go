package wikigame

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
)

// goldenDigest pins the embedded graph. Rebuilding graph.tsv.gz changes it:
// update it here and bump Revision in Register.
const goldenDigest = "138e57831a15d134"

func TestDigest(t *testing.T) {
	if got := Digest(); got != goldenDigest {
		t.Fatalf("Digest() = %s, want %s: the embedded graph changed", got, goldenDigest)
	}
	if Digest() != envs.Digest(raw) {
		t.Fatal("Digest is not envs.Digest of the embedded bytes")
	}
	r := registry(t)
	for _, id := range r.IDs() {
		if spec, _ := r.Lookup(id); spec.DataDigest != goldenDigest {
			t.Errorf("%s: DataDigest %q, want %q", id, spec.DataDigest, goldenDigest)
		}
	}
}

var titlePattern = regexp.MustCompile(`^[A-Z][a-z]*([ -][a-z]+)*( \([a-z]+([ -][a-z]+)*\))?$`)

func TestBundledGraph(t *testing.T) {
	g := Bundled()
	if g.Len() < 3000 {
		t.Fatalf("%d pages, want at least 3000", g.Len())
	}
	titles := g.Titles()
	if !slices.IsSorted(titles) || len(slices.Compact(slices.Clone(titles))) != len(titles) {
		t.Fatal("titles are not sorted and unique")
	}
	edges := 0
	for _, title := range titles {
		p, err := g.Page(title)
		if err != nil || p.Title != title {
			t.Fatalf("Page(%q) = %q, %v", title, p.Title, err)
		}
		if !titlePattern.MatchString(title) {
			t.Errorf("title %q is not a capitalised common noun", title)
		}
		if len(p.Text) < 10 || strings.ContainsAny(p.Text, "\t\n") {
			t.Errorf("%q: text %q", title, p.Text)
		}
		if len(p.Links) == 0 {
			t.Errorf("%q is a dead end", title)
		}
		if !slices.IsSorted(p.Links) || len(slices.Compact(slices.Clone(p.Links))) != len(p.Links) {
			t.Errorf("%q: links %q not sorted and unique", title, p.Links)
		}
		for _, l := range p.Links {
			if l == title {
				t.Errorf("%q links to itself", title)
			}
			if _, err := g.Page(l); err != nil {
				t.Errorf("%q links to %q: %v", title, l, err)
			}
		}
		edges += len(p.Links)
	}
	if avg := float64(edges) / float64(g.Len()); avg < 3 || avg > 40 {
		t.Errorf("%.1f links a page, want 3..40", avg)
	}

	// Strongly connected: page 0 reaches every page and every page reaches it.
	fwd := map[string][]string{}
	rev := map[string][]string{}
	for _, title := range titles {
		p, _ := g.Page(title)
		fwd[title] = p.Links
		for _, l := range p.Links {
			rev[l] = append(rev[l], title)
		}
	}
	for name, adj := range map[string]map[string][]string{"forward": fwd, "backward": rev} {
		if n := reach(adj, titles[0]); n != len(titles) {
			t.Errorf("%s from %q reaches %d of %d pages", name, titles[0], n, len(titles))
		}
	}
}

func reach(adj map[string][]string, from string) int {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	return len(seen)
}

var slurs = regexp.MustCompile(`(?i)fuck|shit|cunt|nigg|bitch|whore|ethnic slur|offensive (term|name|word)`)

func TestBundledGraphIsClean(t *testing.T) {
	g := Bundled()
	for _, title := range g.Titles() {
		p, _ := g.Page(title)
		if slurs.MatchString(title) || slurs.MatchString(p.Text) {
			t.Errorf("%q: offensive text %q", title, p.Text)
		}
	}
}

func TestNewGraphRejects(t *testing.T) {
	for name, pages := range map[string][]Page{
		"duplicate": {{Title: "A"}, {Title: "A"}},
		"empty":     {{Title: ""}},
		"brace":     {{Title: "A}"}},
		"dangling":  {{Title: "A", Links: []string{"B"}}},
	} {
		if _, err := NewGraph(pages); err == nil {
			t.Errorf("%s: NewGraph accepted %v", name, pages)
		}
	}
	_, err := NewGraph([]Page{{Title: "A", Links: []string{"B"}}})
	if !errors.Is(err, ErrNoPage) {
		t.Errorf("dangling link: err %v, want ErrNoPage", err)
	}
	g, err := NewGraph([]Page{{Title: "A", Links: []string{"B"}}, {Title: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Page("C"); !errors.Is(err, ErrNoPage) {
		t.Errorf("Page of an unknown title: err %v, want ErrNoPage", err)
	}
}
