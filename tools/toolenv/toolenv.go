// Package toolenv is GEM's ToolEnvWrapper: it lets an agent call tools
// between environment steps. An action holding a tool call is a tool turn —
// the tool runs, its output is the observation, the env is not stepped and
// its turn budget is not spent; any other action steps the env.
//
// The wrapper splits a tool turn in two so the pipeline can run tools on
// their own workers: Call decides (purely) whether an action is a tool call,
// and Apply folds a tool's Result into the episode. Replaying recorded
// results through Apply rebuilds the same episode on any worker without
// running a tool again. Step does both in-process, with the sessions given
// to New, for local use (quarry play, tests).
package toolenv

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
)

// Config is a ToolEnvWrapper's reward rule and budget.
type Config struct {
	// ToolReward is given for every tool turn; ToolSuccessReward on top when
	// the call ran without error.
	ToolReward        float64 `json:"tool_reward"`
	ToolSuccessReward float64 `json:"tool_success_reward"`
	// ToolErrorReward, when non-zero (negative), replaces the reward of a
	// failed call; GEM forbids combining it with the two above.
	ToolErrorReward float64 `json:"tool_error_reward,omitempty"`
	// MaxToolUses caps tool turns per episode; past it, tool calls step the
	// env like any action. 0 means no tool turn at all (GEM: the counter is
	// never below the cap; the instructions are still shown); NoCap is GEM's
	// None, no cap.
	MaxToolUses int `json:"max_tool_uses"`
}

// NoCap as MaxToolUses lets an episode call tools without limit (GEM's
// max_tool_uses=None); the job's max_turns still bounds its turns.
const NoCap = -1

// Validate applies GEM's constraints.
func (c Config) Validate() error {
	switch {
	case c.MaxToolUses < NoCap:
		return fmt.Errorf("max_tool_uses %d: want a cap ≥ 1, 0 (no tool turns) or %d (no cap)", c.MaxToolUses, NoCap)
	case c.ToolErrorReward > 0:
		return fmt.Errorf("tool_error_reward %v: must be negative", c.ToolErrorReward)
	case c.ToolErrorReward != 0 && (c.ToolReward != 0 || c.ToolSuccessReward != 0):
		return errors.New("tool_error_reward cannot be combined with tool_reward or tool_success_reward")
	}
	return nil
}

// Preset returns a GEM preset's tool name and config (schema.ToolPresets,
// the one table of them).
func Preset(name string) (tool string, cfg Config, ok bool) {
	p, ok := schema.ToolPresets[name]
	return p.Tool, Config{ToolReward: p.ToolReward, ToolSuccessReward: p.ToolSuccessReward, MaxToolUses: p.MaxToolUses}, ok
}

// MaxUsesNotice is appended to the observation of the last allowed tool turn.
const MaxUsesNotice = "\n\nReached the maximum number of tool use. Please output final answer directly."

// Env wraps an env with tools. It implements envs.Env.
type Env struct {
	inner        envs.Env
	tools        []tools.Tool
	sessions     map[string]tools.Session // by tool name; nil when calls run elsewhere
	instructions string
	cfg          Config
	timeout      time.Duration

	uses, successes int
}

// Option configures an Env.
type Option func(*Env)

// WithSessions lets Step execute calls in-process with these sessions (one
// per tool name); without it Step refuses tool calls (ErrNoSession).
func WithSessions(s map[string]tools.Session) Option { return func(e *Env) { e.sessions = s } }

// WithCallTimeout bounds an in-process call beyond the tool's own timeout.
func WithCallTimeout(d time.Duration) Option { return func(e *Env) { e.timeout = d } }

// ErrNoSession means Step met a tool call but the wrapper has no session to
// run it: in the pipeline, calls go through Call and Apply.
var ErrNoSession = errors.New("toolenv: tool call with no session to run it")

// New wraps inner with ts. instructions is what the tools' Instructions
// returned, in order (gathered once per job: MCP lists its server's tools).
func New(inner envs.Env, cfg Config, ts []tools.Tool, instructions []string, opts ...Option) (*Env, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, errors.New("toolenv: no tools")
	}
	if len(instructions) != len(ts) {
		return nil, fmt.Errorf("toolenv: %d instructions for %d tools", len(instructions), len(ts))
	}
	text := strings.Join(instructions, "\n")
	if len(ts) > 1 {
		text = "Available tools:\n" + text
	}
	e := &Env{inner: inner, tools: ts, instructions: text, cfg: cfg, timeout: 5 * time.Minute}
	for _, o := range opts {
		o(e)
	}
	return e, nil
}

// Instructions gathers each tool's instructions, for New.
func Instructions(ctx context.Context, ts []tools.Tool) ([]string, error) {
	out := make([]string, len(ts))
	for i, t := range ts {
		s, err := t.Instructions(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s instructions: %w", t.Name(), err)
		}
		out[i] = s
	}
	return out, nil
}

// Inner returns the wrapped env.
func (e *Env) Inner() envs.Env { return e.inner }

// Reset resets the env and the counters, and appends the tools' instructions
// to the first observation, as GEM does.
func (e *Env) Reset(seed uint64) (string, envs.Info, error) {
	obs, info, err := e.inner.Reset(seed)
	if err != nil {
		return "", info, err
	}
	e.uses, e.successes = 0, 0
	info.UseTool = false
	info.Extra = e.counters(info.Extra)
	return obs + "\n" + e.instructions, info, nil
}

// Rows implements envs.Tasks for the wrapped env.
func (e *Env) Rows() (int, error) { return envs.Rows(e.inner) }

// ResetTask implements envs.Tasks: the wrapped env's row, with the tools'
// instructions appended as Reset does.
func (e *Env) ResetTask(row int) (string, envs.Info, error) {
	obs, info, err := envs.ResetTask(e.inner, row, 0)
	if err != nil {
		return "", info, err
	}
	e.uses, e.successes = 0, 0
	info.UseTool = false
	info.Extra = e.counters(info.Extra)
	return obs + "\n" + e.instructions, info, nil
}

// Call reports whether action is a tool turn: the budget is not spent and a
// tool parses a call from it (the first tool that does, in order).
func (e *Env) Call(action string) (tools.Call, bool) {
	if e.cfg.MaxToolUses != NoCap && e.uses >= e.cfg.MaxToolUses {
		return tools.Call{}, false
	}
	return ParseCall(e.tools, action)
}

// ParseCall is the first call any of ts parses from action, in order.
func ParseCall(ts []tools.Tool, action string) (tools.Call, bool) {
	for _, t := range ts {
		if c, ok := t.Parse(action); ok {
			if c.Tool == "" {
				c.Tool = t.Name()
			}
			return c, true
		}
	}
	return tools.Call{}, false
}

// Apply folds a tool turn's result into the episode and returns the step:
// the tool's observation, GEM's tool rewards, never terminal.
func (e *Env) Apply(call tools.Call, res tools.Result) envs.StepResult {
	out := Outcome(e.cfg, e.uses, e.successes, call, res)
	e.uses++
	if !res.Error {
		e.successes++
	}
	return out
}

// Uses returns the tool turns and successful ones so far this episode.
func (e *Env) Uses() (uses, successes int) { return e.uses, e.successes }

// Outcome is the step a tool turn produces after uses tool turns (successes
// of them clean): the tool's observation (with the notice on the last
// allowed use), GEM's tool rewards, never terminal. Apply uses it; so does a
// tool worker that records the turn without holding the env.
func Outcome(cfg Config, uses, successes int, call tools.Call, res tools.Result) envs.StepResult {
	uses++
	obs := res.Observation
	if uses == cfg.MaxToolUses {
		obs += MaxUsesNotice
	}
	reward := cfg.ToolReward
	if !res.Error {
		successes++
		reward += cfg.ToolSuccessReward
	} else if cfg.ToolErrorReward != 0 {
		reward = cfg.ToolErrorReward
	}
	parsed := call.Shown
	if parsed == "" {
		parsed = call.Raw
	}
	info := envs.Info{ParsedAction: parsed, UseTool: true, Extra: map[string]any{
		"tool_type": call.Tool, "tool_use_counter": uses, "tool_success_counter": successes,
	}}
	return envs.StepResult{Observation: obs, Reward: reward, Info: info}
}

// Step plays an action: a tool call runs in this process's session and is
// applied; anything else steps the env.
func (e *Env) Step(action string) (envs.StepResult, error) {
	call, ok := e.Call(action)
	if !ok {
		res, err := e.inner.Step(action)
		if err != nil {
			return res, err
		}
		res.Info.UseTool = false
		res.Info.Extra = e.counters(res.Info.Extra)
		return res, nil
	}
	s := e.sessions[call.Tool]
	if s == nil {
		return envs.StepResult{}, fmt.Errorf("%w (%s)", ErrNoSession, call.Tool)
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.timeout)
	defer cancel()
	res, err := Execute(ctx, s, call)
	if err != nil {
		return envs.StepResult{}, fmt.Errorf("tool %s: %w", call.Tool, err)
	}
	return e.Apply(call, res), nil
}

// Execute runs a call in a session; a malformed call (Call.Err) is answered
// with an error observation without running anything.
func Execute(ctx context.Context, s tools.Session, call tools.Call) (tools.Result, error) {
	if call.Err != "" {
		return tools.Result{Observation: call.Err, Error: true}, nil
	}
	return s.Execute(ctx, call)
}

// SampleRandomAction delegates to the env: the random policy plays the task.
func (e *Env) SampleRandomAction(rng *rand.Rand) string { return e.inner.SampleRandomAction(rng) }

func (e *Env) counters(m map[string]any) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	m["tool_use_counter"] = e.uses
	m["tool_success_counter"] = e.successes
	return m
}
