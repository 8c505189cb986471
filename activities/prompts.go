package activities

import (
	"errors"
	"fmt"

	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/prompt"
	"github.com/quarry-rl/quarry/schema"
)

// CheckPrompt checks an endpoint policy's prompt settings against the
// templates this build knows (internal/prompt): the template name or the
// user template's fields. The submit CLI calls it before submission,
// ValidateJob again on a worker.
func CheckPrompt(spec schema.JobSpec) error {
	if spec.Wrapper == string(envs.WrapConcatChatOnReset) && spec.Policy.Kind != schema.PolicyOpenAI {
		// The wrapper renders the reset observation with the served
		// model's chat template (learnt from its /tokenize, /detokenize).
		return schema.SpecError{{Path: "wrapper", Problem: "concat_chat_on_reset renders with the served model's chat template: it needs policy.kind: openai"}}
	}
	o := spec.Policy.OpenAI
	if o == nil || o.API != schema.APICompletions {
		return nil
	}
	if _, err := prompt.Resolve(o.Template, o.TemplateText); err != nil {
		return schema.SpecError{{Path: "policy.openai.template", Problem: err.Error()}}
	}
	return nil
}

// frameFor is how an endpoint policy shapes the wrapper's prompts before
// they are recorded and sent: with api: chat, a system_prompt goes first
// (before any system message the env has); with api: completions, the
// template renders the wrapper's text. Nil when prompts go as they are.
func frameFor(o *schema.OpenAIPolicy) (rollout.Frame, error) {
	switch {
	case o == nil:
		return nil, nil
	case o.API == schema.APICompletions:
		t, err := prompt.Resolve(o.Template, o.TemplateText)
		if err != nil {
			return nil, err
		}
		return func(p envs.Prompt, turn int) (envs.Prompt, error) {
			if p.HasImages() {
				// Refused before submission (CheckImages): a template renders text.
				return envs.Prompt{}, errImagesInText
			}
			text, err := t.Render(prompt.Input{Observation: textOf(p), SystemPrompt: o.SystemPrompt, Turn: turn})
			return envs.Prompt{Text: text}, err
		}, nil
	case o.SystemPrompt != "":
		system := envs.Message{Role: "system", Content: o.SystemPrompt}
		return func(p envs.Prompt, _ int) (envs.Prompt, error) {
			return envs.Prompt{Messages: append([]envs.Message{system}, p.Chat()...)}, nil
		}, nil
	}
	return nil, nil
}

// textOf is a prompt's text; a message list (a chat wrapper, refused with
// api: completions before submission) is joined by blank lines.
func textOf(p envs.Prompt) string {
	if p.Messages == nil {
		return p.Text
	}
	var s string
	for i, m := range p.Messages {
		if i > 0 {
			s += "\n\n"
		}
		s += m.Content
	}
	return s
}

// errImagesInText: a completions prompt is text; an observation's images
// cannot go there.
var errImagesInText = errors.New("the env's observations show images, which only api: chat sends (as image parts); api: completions renders text")

// CheckImages refuses what cannot send an image env's pictures: the
// completions API and its templates (text), token-in/token-out (text is
// tokenised), concat_chat_on_reset (the reset observation becomes template
// text). env names the env for the message. ResolveEnvs calls it for every
// env whose spec shows images.
func CheckImages(spec schema.JobSpec, env string) schema.SpecError {
	var errs schema.SpecError
	if o := spec.Policy.OpenAI; o != nil && spec.Policy.Kind == schema.PolicyOpenAI {
		if o.API == schema.APICompletions {
			errs = append(errs, schema.FieldError{Path: "policy.openai.api", Problem: fmt.Sprintf(
				"%s shows images, which only api: chat sends (as image parts); completions prompts are text: use api: chat", env)})
		}
		if o.Tokens == schema.TokensExact {
			errs = append(errs, schema.FieldError{Path: "policy.openai.tokens", Problem: fmt.Sprintf(
				"%s shows images; token-in/token-out tokenises text and sends no images (docs/tokens.md): leave tokens unset", env)})
		}
	}
	if spec.Wrapper == string(envs.WrapConcatChatOnReset) {
		errs = append(errs, schema.FieldError{Path: "wrapper", Problem: fmt.Sprintf(
			"%s shows images; concat_chat_on_reset renders the reset observation as chat-template text, which holds no images: use chat, concat or last", env)})
	}
	return errs
}
