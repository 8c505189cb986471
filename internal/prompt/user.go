package prompt

import (
	"errors"
	"fmt"
	"strings"
	"text/template"
	"text/template/parse"
)

// UserTemplateName is the name of a template from Parse; errors cite it.
const UserTemplateName = "template_file"

// maxUserOutput bounds what a user template may add beyond its inputs, so a
// mistaken template cannot build a prompt of unbounded size.
const maxUserOutput = 1 << 20

// Parse reads a user template in Go text/template. It may use the Input
// fields {{.Observation}} (required), {{.SystemPrompt}} and {{.Turn}},
// if/else/with, and text/template's built-in functions (printf, eq, len, …).
// Unknown fields, range loops and template definitions or calls are refused
// here, not at render time.
func Parse(text string) (Template, error) {
	if strings.TrimSpace(text) == "" {
		return Template{}, errors.New("parse template_file: empty; write the prompt with {{.Observation}} where the observation goes")
	}
	tm, err := template.New(UserTemplateName).Option("missingkey=error").Parse(text)
	if err != nil {
		return Template{}, fmt.Errorf("parse template_file: %w", err)
	}
	if len(tm.Templates()) > 1 {
		return Template{}, errors.New("parse template_file: {{define}} and {{block}} are not supported; write one template")
	}
	tree := tm.Tree
	c := checker{tree: tree}
	c.walk(tree.Root)
	if c.err != nil {
		return Template{}, fmt.Errorf("parse template_file: %w", c.err)
	}
	if !c.usesObservation {
		return Template{}, errors.New("parse template_file: the template never uses {{.Observation}}, so the model would not see the environment")
	}
	return Template{name: "user", user: tm, appendable: endsWithObservation(tree.Root)}, nil
}

// checker walks a template's parse tree, refusing what Parse refuses.
type checker struct {
	tree            *parse.Tree
	err             error
	usesObservation bool
}

func (c *checker) fail(n parse.Node, format string, args ...any) {
	if c.err == nil {
		loc, _ := c.tree.ErrorContext(n)
		c.err = fmt.Errorf("%s: %s", loc, fmt.Sprintf(format, args...))
	}
}

func (c *checker) walk(n parse.Node) {
	if n == nil || c.err != nil {
		return
	}
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, m := range n.Nodes {
			c.walk(m)
		}
	case *parse.ActionNode:
		c.walk(n.Pipe)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, cmd := range n.Cmds {
			c.walk(cmd)
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			c.walk(a)
		}
	case *parse.IfNode:
		c.branch(&n.BranchNode)
	case *parse.WithNode:
		c.branch(&n.BranchNode)
	case *parse.RangeNode:
		c.fail(n, "range is not supported (the fields are plain values: .Observation, .SystemPrompt, .Turn)")
	case *parse.TemplateNode:
		c.fail(n, "{{template}} is not supported; write one template")
	case *parse.FieldNode:
		c.field(n, n.Ident[0])
	case *parse.VariableNode:
		if len(n.Ident) > 1 && n.Ident[0] == "$" {
			c.field(n, n.Ident[1])
		}
	case *parse.ChainNode:
		c.walk(n.Node)
	}
}

func (c *checker) branch(b *parse.BranchNode) {
	c.walk(b.Pipe)
	c.walk(b.List)
	c.walk(b.ElseList)
}

func (c *checker) field(n parse.Node, name string) {
	for _, f := range inputFields {
		if f == name {
			c.usesObservation = c.usesObservation || f == "Observation"
			return
		}
	}
	msg := fmt.Sprintf("unknown field .%s; the fields are .%s", name, strings.Join(inputFields, ", ."))
	if s := suggest(name, inputFields); len(s) > 0 {
		msg += " (did you mean ." + s[0] + "?)"
	}
	c.fail(n, "%s", msg)
}

// endsWithObservation reports whether the template is fixed text (and
// {{.SystemPrompt}}) followed by a bare {{.Observation}} at the very end:
// then the prompt grows exactly as the observation grows.
func endsWithObservation(root *parse.ListNode) bool {
	nodes := root.Nodes
	if len(nodes) == 0 || !isBareField(nodes[len(nodes)-1], "Observation") {
		return false
	}
	for _, n := range nodes[:len(nodes)-1] {
		switch n.(type) {
		case *parse.TextNode, *parse.CommentNode:
		default:
			if !isBareField(n, "SystemPrompt") {
				return false
			}
		}
	}
	return true
}

// isBareField reports whether n is {{.name}} with no pipeline around it.
func isBareField(n parse.Node, name string) bool {
	a, ok := n.(*parse.ActionNode)
	if !ok || len(a.Pipe.Decl) > 0 || len(a.Pipe.Cmds) != 1 || len(a.Pipe.Cmds[0].Args) != 1 {
		return false
	}
	f, ok := a.Pipe.Cmds[0].Args[0].(*parse.FieldNode)
	return ok && len(f.Ident) == 1 && f.Ident[0] == name
}

func (t Template) renderUser(in Input) (string, error) {
	w := &limitedBuilder{limit: maxUserOutput + 4*(len(in.Observation)+len(in.SystemPrompt))}
	if err := t.user.Execute(w, in); err != nil {
		return "", fmt.Errorf("render template_file: %w", err)
	}
	return w.b.String(), nil
}

// limitedBuilder is a strings.Builder that refuses to grow past limit.
type limitedBuilder struct {
	b     strings.Builder
	limit int
}

func (w *limitedBuilder) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > w.limit {
		return 0, fmt.Errorf("prompt longer than %d bytes (4× the inputs plus 1 MiB)", w.limit)
	}
	return w.b.Write(p)
}
