package envs

import "fmt"

// Episode drives one env through one episode while recording its history,
// the way the pipeline does: it renders each prompt with a Wrapper and keeps
// GEM's episode tracking (step counter and cumulative reward).
type Episode struct {
	env        Env
	wrapper    Wrapper
	maxHistory int
	template   ChatTemplate

	history History
	steps   int
	total   float64
	done    bool
}

// EpisodeOption configures an Episode.
type EpisodeOption func(*Episode)

// WithChatTemplate gives the episode the model's chat template, which
// concat_chat_on_reset applies to the reset observation.
func WithChatTemplate(t ChatTemplate) EpisodeOption { return func(e *Episode) { e.template = t } }

// NewEpisode returns a driver for env rendering prompts with w.
func NewEpisode(env Env, w Wrapper, maxHistory int, opts ...EpisodeOption) *Episode {
	e := &Episode{env: env, wrapper: w, maxHistory: maxHistory}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Reset starts a new episode and returns its first prompt.
func (e *Episode) Reset(seed uint64) (Prompt, Info, error) {
	obs, info, err := e.env.Reset(seed)
	if err != nil {
		return Prompt{}, Info{}, fmt.Errorf("reset: %w", err)
	}
	return e.start(obs, info)
}

func (e *Episode) start(obs string, info Info) (Prompt, Info, error) {
	e.history = History{Observations: []Observation{framed(obs, info)}, Info: info, ChatTemplate: e.template}
	e.steps, e.total, e.done = 0, 0, false
	p, err := e.wrapper.Render(e.history, e.maxHistory)
	return p, info, err
}

// Step applies action and returns the next prompt with the step's result.
func (e *Episode) Step(action string) (Prompt, StepResult, error) {
	res, err := e.env.Step(action)
	if err != nil {
		return Prompt{}, StepResult{}, err
	}
	return e.Record(action, res)
}

// Record adds a step whose result was produced elsewhere — a tool turn run
// on a tool worker — to the history, exactly as Step would have, and
// returns the next prompt. The env itself is not stepped.
func (e *Episode) Record(action string, res StepResult) (Prompt, StepResult, error) {
	e.history.Actions = append(e.history.Actions, action)
	e.history.ShownActions = append(e.history.ShownActions, ShownAction(action, res.Info))
	e.history.Observations = append(e.history.Observations, framed(res.Observation, res.Info))
	e.history.Info = res.Info
	e.steps++
	e.total += res.Reward
	e.done = res.Done()
	p, err := e.wrapper.Render(e.history, e.maxHistory)
	return p, res, err
}

// Env returns the driven env.
func (e *Episode) Env() Env { return e.env }

// History returns the recorded history (shared; do not modify).
func (e *Episode) History() History { return e.history }

// Steps is the number of Steps taken this episode (GEM's step_counter).
func (e *Episode) Steps() int { return e.steps }

// CumulativeReward is the undiscounted sum of rewards (GEM's cumulative_rewards).
func (e *Episode) CumulativeReward() float64 { return e.total }

// Done reports whether the episode has ended.
func (e *Episode) Done() bool { return e.done }

func framed(text string, info Info) Observation {
	return Observation{Text: text, FromTool: info.UseTool, Prefix: info.Prefix, Suffix: info.Suffix, Images: info.Images}
}
