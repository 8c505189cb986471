package wikigame

import (
	"errors"
	"fmt"
)

// search is a breadth-first search over a Backend's links. It keeps its
// buffers between runs, so an env searching every Reset does not allocate
// afresh each time.
type search struct {
	parent map[string]string // page → the page it was first reached from ("" for the root)
	level  []Page
	next   []Page
}

// run explores the pages reachable from root, nearest first, at most
// maxDepth links away, calling visit with each page (root excluded) and its
// distance. visit returns false to stop. Links to pages the backend does not
// have are not followed.
func (s *search) run(b Backend, root Page, maxDepth int, visit func(p Page, depth int) bool) error {
	if s.parent == nil {
		s.parent = map[string]string{}
	}
	clear(s.parent)
	s.parent[root.Title] = ""
	s.level = append(s.level[:0], root)
	for depth := 1; depth <= maxDepth && len(s.level) > 0; depth++ {
		s.next = s.next[:0]
		for _, from := range s.level {
			for _, title := range from.Links {
				if _, seen := s.parent[title]; seen {
					continue
				}
				s.parent[title] = from.Title
				p, err := b.Page(title)
				if errors.Is(err, ErrNoPage) {
					continue
				}
				if err != nil {
					return fmt.Errorf("search from %q: %w", root.Title, err)
				}
				if !visit(p, depth) {
					return nil
				}
				s.next = append(s.next, p)
			}
		}
		s.level, s.next = s.next, s.level
	}
	return nil
}

// path returns the titles from the last run's root to title, both included,
// or nil when the run did not reach title.
func (s *search) path(title string) []string {
	if _, ok := s.parent[title]; !ok {
		return nil
	}
	var rev []string
	for t := title; t != ""; t = s.parent[t] {
		rev = append(rev, t)
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
