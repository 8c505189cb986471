package schema

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// YAML lets a small document expand into a huge one through anchors and
// aliases ("billion laughs": ten aliases of ten aliases of … a string), and
// goccy/go-yaml has no option to cap the expansion, so ParseJobSpec measures
// it on the parsed tree, before decoding expands anything.
const (
	// MaxYAMLAliases bounds alias uses in one spec; MaxYAMLNodes bounds the
	// document's node count once every alias is expanded.
	MaxYAMLAliases = 1000
	MaxYAMLNodes   = 50_000
)

// checkYAML refuses a document past MaxSpecDocumentBytes or one whose
// aliases expand past MaxYAMLNodes.
func checkYAML(data []byte) error {
	if len(data) > MaxSpecDocumentBytes {
		return fmt.Errorf("the document is %s: want at most %s (a spec is a few KiB; large data belongs in a dataset file)", kib(len(data)), kib(MaxSpecDocumentBytes))
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil // the decoder reports syntax errors with their line
	}
	z := sizer{anchors: map[string]int64{}}
	var nodes int64
	for _, d := range f.Docs {
		nodes = sat(nodes + z.size(d))
	}
	switch {
	case z.aliases > MaxYAMLAliases:
		return fmt.Errorf("%d alias uses (*name): want at most %d", z.aliases, MaxYAMLAliases)
	case nodes > MaxYAMLNodes:
		return fmt.Errorf("its anchors and aliases expand to more than %d nodes (want at most %d): write the values out, or use fewer nested aliases", min(nodes, 1<<40), MaxYAMLNodes)
	}
	return nil
}

// sizer counts a tree's nodes with every alias expanded, remembering each
// anchor's expanded size (anchors come before their aliases).
type sizer struct {
	anchors map[string]int64
	aliases int
}

// sat saturates a count far above any limit, so sums cannot overflow.
func sat(n int64) int64 { return min(n, 1<<40) }

func (z *sizer) size(n ast.Node) int64 {
	switch t := n.(type) {
	case nil:
		return 0
	case *ast.DocumentNode:
		return z.size(t.Body)
	case *ast.MappingNode:
		s := int64(1)
		for _, v := range t.Values {
			s = sat(s + z.size(v))
		}
		return s
	case *ast.MappingValueNode:
		return sat(z.size(t.Key) + z.size(t.Value))
	case *ast.MappingKeyNode:
		return z.size(t.Value)
	case *ast.SequenceNode:
		s := int64(1)
		for _, v := range t.Values {
			s = sat(s + z.size(v))
		}
		return s
	case *ast.AnchorNode:
		s := z.size(t.Value)
		if t.Name != nil {
			z.anchors[t.Name.String()] = s
		}
		return s
	case *ast.AliasNode:
		z.aliases++
		if t.Value == nil {
			return 1
		}
		return max(1, z.anchors[t.Value.String()])
	case *ast.TagNode:
		return sat(1 + z.size(t.Value))
	case *ast.CommentGroupNode:
		return 0
	}
	return 1
}
