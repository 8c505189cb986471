package activities

import (
	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/schema"
)

// frameFor is how an endpoint policy shapes the wrapper's prompts before
// they are recorded and sent: with api: chat, a system_prompt goes first
// (before any system message the env has); nil when prompts go as they are.
func frameFor(o *schema.OpenAIPolicy) rollout.Frame {
	if o == nil || o.SystemPrompt == "" {
		return nil
	}
	system := envs.Message{Role: "system", Content: o.SystemPrompt}
	return func(p envs.Prompt) (envs.Prompt, error) {
		msgs := p.Messages
		if msgs == nil {
			msgs = []envs.Message{{Role: "user", Content: p.Text}}
		}
		return envs.Prompt{Messages: append([]envs.Message{system}, msgs...)}, nil
	}
}
