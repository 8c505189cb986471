// Package prompt builds the text prompt a completions-API policy sends: GEM's
// named prompt templates (qwen3_game, qwen3_general, code, no, general), byte
// for byte, and user templates in Go text/template.
//
// A template wraps the observation wrapper's output (GEM applies
// TEMPLATE_FACTORY[prompt_template] to the wrapped observation, so with
// concat the whole history sits inside one user turn). Continuation tells a
// token-in/token-out caller whether the next prompt can be built by
// appending to the last one. See docs/prompts.md.
package prompt

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/template"

	"github.com/agnivade/levenshtein"
)

// Input is what a template renders.
type Input struct {
	// Observation is the observation wrapper's text for this turn (concat's
	// whole history, framed by the env's prefix and suffix).
	Observation string
	// SystemPrompt is the spec's system prompt, if any (GEM's templates do
	// not use it).
	SystemPrompt string
	// Turn is the 0-based turn number (GEM's templates do not use it).
	Turn int
}

// Fields are the names a user template may use, as {{.Name}}.
var inputFields = []string{"Observation", "SystemPrompt", "Turn"}

// Template renders an Input to a prompt. The zero value is not usable; get
// one from Lookup or Parse.
type Template struct {
	name string
	// gem is set for GEM's templates: prompt = head + observation + tail.
	gem *gemTemplate
	// user is set for a parsed user template.
	user *template.Template
	// appendable: the prompt is a fixed text followed by the observation,
	// so a growing observation gives a growing prompt.
	appendable bool
}

// Name is the template's name ("user" for a parsed template).
func (t Template) Name() string { return t.name }

// Source says where the template comes from: GEM's file and function, or
// template_file.
func (t Template) Source() string {
	if t.gem != nil {
		return "axon-rl/gem@" + GEMCommit[:7] + " " + t.gem.source
	}
	return UserTemplateName
}

// Resolve returns the template a spec asks for: GEM's template called name
// (policy.openai.template) or the user template text
// (policy.openai.template_text, from template_file). Errors name the field.
func Resolve(name, text string) (Template, error) {
	switch {
	case name != "" && text != "":
		return Template{}, errors.New("policy.openai.template: give template or template_file, not both")
	case name != "":
		t, err := Lookup(name)
		if err != nil {
			return Template{}, fmt.Errorf("policy.openai.template: %w", err)
		}
		return t, nil
	case text != "":
		t, err := Parse(text)
		if err != nil {
			return Template{}, fmt.Errorf("policy.openai.template_file: %w", err)
		}
		return t, nil
	}
	return Template{}, errors.New("policy.openai.template: required with api: completions: a template name (" +
		strings.Join(Names(), ", ") + ") or template_file")
}

// Render builds the prompt for in.
func (t Template) Render(in Input) (string, error) {
	switch {
	case t.gem != nil:
		return t.gem.head + in.Observation + t.gem.tail, nil
	case t.user != nil:
		return t.renderUser(in)
	}
	return "", errors.New("render prompt: zero Template (use prompt.Lookup or prompt.Parse)")
}

// Names lists GEM's template names, sorted.
func Names() []string {
	names := make([]string, 0, len(gemTemplates))
	for _, g := range gemTemplates {
		names = append(names, g.name)
	}
	slices.Sort(names)
	return names
}

// UnknownTemplateError reports a template name that is not one of GEM's.
type UnknownTemplateError struct {
	Name        string
	Suggestions []string
}

func (e *UnknownTemplateError) Error() string {
	msg := fmt.Sprintf("unknown prompt template %q", e.Name)
	if len(e.Suggestions) > 0 {
		return msg + "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return msg + "; the templates are " + strings.Join(Names(), ", ") + " (or give template_file)"
}

// Lookup returns GEM's template called name.
func Lookup(name string) (Template, error) {
	for i := range gemTemplates {
		g := &gemTemplates[i]
		if g.name == name {
			return Template{name: g.name, gem: g, appendable: g.tail == ""}, nil
		}
	}
	return Template{}, &UnknownTemplateError{Name: name, Suggestions: suggest(name, Names())}
}

// suggest returns the known names within a small edit distance of name,
// closest first.
func suggest(name string, known []string) []string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	lower := strings.ToLower(name)
	for _, k := range known {
		kl := strings.ToLower(k)
		d := levenshtein.ComputeDistance(lower, kl)
		if len(lower) >= 3 && strings.HasPrefix(kl, lower) {
			d = 1 // "qwen3" → qwen3_game, qwen3_general
		}
		if d <= max(2, len(name)/3) {
			cands = append(cands, cand{k, d})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.dist - b.dist })
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.name)
	}
	return out
}
