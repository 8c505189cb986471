package multiagent

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/tools"
)

// Single plays a multi-agent env as a plain envs.Env for one agent (the
// trained one); every other role is played in-process by a fixed local
// policy (the scripted customer). Each Step applies the agent's action, then
// lets the others act until it is the agent's turn again or the episode
// ends; the observation is everything the agent was shown meanwhile and the
// reward everything it earned. So `multiagent:` ids run in single-agent jobs
// unchanged; Info.Extra carries agent_id and agent_role for the row's columns.
type Single struct {
	env    Env
	agent  Agent
	others map[string]string // role → policy kind
	pols   map[string]Policy
	// shown holds what each other agent was shown since its last action,
	// handed to its policy as Play does.
	shown map[string]string
}

// NewSingle adapts env for agentID; others names the local policy kind
// (scripted, oracle, random) of every other role.
func NewSingle(env Env, agentID string, others map[string]string) (envs.Env, error) {
	role, ok := RoleOf(env, agentID)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownAgent, agentID)
	}
	for _, a := range env.Agents() {
		if a.ID == agentID {
			continue
		}
		if a.Role == role {
			return nil, fmt.Errorf("multiagent: agent %q shares the trained role %q; Single trains one agent", a.ID, role)
		}
		kind, ok := others[a.Role]
		if !ok {
			return nil, fmt.Errorf("multiagent: no policy for role %q", a.Role)
		}
		if _, err := Local(kind, 0); err != nil {
			return nil, fmt.Errorf("role %q: %w", a.Role, err)
		}
	}
	s := &Single{env: env, agent: Agent{ID: agentID, Role: role}, others: maps.Clone(others)}
	if _, ok := env.(Oracle); ok {
		return &oracleSingle{s}, nil
	}
	return s, nil
}

// Multi returns the multi-agent env and the agent Single plays.
func (s *Single) Multi() (Env, Agent) { return s.env, s.agent }

// Reset starts an episode and plays the other agents until the trained
// agent's first turn.
func (s *Single) Reset(seed uint64) (string, envs.Info, error) {
	start, err := s.env.Reset(seed)
	if err != nil {
		return "", envs.Info{}, err
	}
	return s.begin(start, seed)
}

// Rows implements envs.Tasks when the env has tasks (0 otherwise).
func (s *Single) Rows() (int, error) {
	if t, ok := s.env.(Tasks); ok {
		return t.Rows(), nil
	}
	return 0, nil
}

// ResetTask implements envs.Tasks.
func (s *Single) ResetTask(row int) (string, envs.Info, error) {
	t, ok := s.env.(Tasks)
	if !ok {
		return "", envs.Info{}, envs.ErrNoTasks
	}
	start, err := t.ResetTask(row)
	if err != nil {
		return "", envs.Info{}, err
	}
	return s.begin(start, uint64(row))
}

func (s *Single) begin(start Start, seed uint64) (string, envs.Info, error) {
	s.shown = map[string]string{}
	for id, o := range start.Observations {
		if id != s.agent.ID {
			s.shown[id] = o
		}
	}
	s.pols = map[string]Policy{}
	for _, role := range slices.Sorted(maps.Keys(s.others)) {
		p, err := Local(s.others[role], seedFor(seed, role))
		if err != nil {
			return "", envs.Info{}, err
		}
		s.pols[role] = p
	}
	obs := start.Observations[s.agent.ID]
	info := start.Info
	res, err := s.advance(envs.StepResult{Observation: obs, Info: info})
	if err != nil {
		return "", envs.Info{}, err
	}
	if res.Done() {
		return "", envs.Info{}, errors.New("multiagent: the episode ended before the trained agent's first turn")
	}
	return res.Observation, s.tag(res.Info), nil
}

// Step applies the trained agent's action and plays the others until its
// next turn.
func (s *Single) Step(action string) (envs.StepResult, error) {
	r, err := s.env.Step(s.agent.ID, action)
	if err != nil {
		return envs.StepResult{}, err
	}
	s.note(r)
	out := envs.StepResult{Observation: r.Observations[s.agent.ID], Reward: r.Rewards[s.agent.ID],
		Terminated: r.Terminated, Truncated: r.Truncated, Info: r.Info}
	if v, ok := r.Success[s.agent.ID]; ok {
		out.Info.Success = v
	}
	if !r.Done() {
		if out, err = s.advance(out); err != nil {
			return envs.StepResult{}, err
		}
	}
	out.Info = s.tag(out.Info)
	return out, nil
}

// advance lets the other agents act until the trained agent's turn or the
// end, folding what it is shown and earns into acc. The agent's own step
// keeps its flags (format error, invalid action); later steps add their
// extra info and the outcome.
func (s *Single) advance(acc envs.StepResult) (envs.StepResult, error) {
	for {
		id, ok := s.env.Next()
		if !ok || id == s.agent.ID {
			return acc, nil
		}
		role, known := RoleOf(s.env, id)
		if !known {
			return acc, fmt.Errorf("%w: Next returned %q", ErrUnknownAgent, id)
		}
		action, err := s.pols[role].Act(s.env, Agent{ID: id, Role: role}, s.shown[id])
		if err != nil {
			return acc, fmt.Errorf("%s policy: %w", role, err)
		}
		s.shown[id] = ""
		r, err := s.env.Step(id, action)
		if err != nil {
			return acc, fmt.Errorf("%s step: %w", role, err)
		}
		s.note(r)
		acc.Observation += r.Observations[s.agent.ID]
		acc.Reward += r.Rewards[s.agent.ID]
		acc.Terminated, acc.Truncated = r.Terminated, r.Truncated
		acc.Info.Success = acc.Info.Success || r.Info.Success
		if v, ok := r.Success[s.agent.ID]; ok {
			acc.Info.Success = v
		}
		if len(r.Info.Extra) > 0 {
			if acc.Info.Extra == nil {
				acc.Info.Extra = map[string]any{}
			}
			maps.Copy(acc.Info.Extra, r.Info.Extra)
		}
		if r.Done() {
			return acc, nil
		}
	}
}

// note keeps what a step showed the other agents for their policies.
func (s *Single) note(r Result) {
	for id, o := range r.Observations {
		if id != s.agent.ID {
			s.shown[id] += o
		}
	}
}

func (s *Single) tag(info envs.Info) envs.Info {
	extra := make(map[string]any, len(info.Extra)+2)
	maps.Copy(extra, info.Extra)
	extra["agent_id"], extra["agent_role"] = s.agent.ID, s.agent.Role
	info.Extra = extra
	return info
}

// SampleRandomAction is the env's random action for the trained agent.
func (s *Single) SampleRandomAction(rng *rand.Rand) string {
	return s.env.SampleRandomAction(s.agent.ID, rng)
}

// FreeText implements envs.FreeText for envs whose actions are free text.
func (s *Single) FreeText() bool {
	f, ok := s.env.(envs.FreeText)
	return ok && f.FreeText()
}

// Functions returns the env's tools as function tools (native calling), if
// it has any.
func (s *Single) Functions() []tools.Function {
	if f, ok := s.env.(FunctionTools); ok {
		return f.Functions()
	}
	return nil
}

type oracleSingle struct{ *Single }

// OracleAction implements envs.Oracle: the env's expert for the agent.
func (s *oracleSingle) OracleAction() (string, error) {
	return s.env.(Oracle).OracleAction(s.agent.ID)
}

// FunctionTools is implemented by envs whose agents call tools the env
// itself runs: for native tool calling the request offers these functions,
// and the model's call, recorded in the action as a Hermes block
// (toolset.FunctionCall), is parsed by the env.
type FunctionTools interface {
	Functions() []tools.Function
}

// AsSingle finds the Single adapter inside e (through wrappers such as the
// registry's protocol check): a job's rows take agent_id and agent_role
// from it, and a multi-agent job drives its Multi env directly.
func AsSingle(e envs.Env) (*Single, bool) {
	for e != nil {
		switch s := e.(type) {
		case *Single:
			return s, true
		case *oracleSingle:
			return s.Single, true
		}
		u, ok := e.(envs.Unwrapper)
		if !ok {
			return nil, false
		}
		e = u.Unwrap()
	}
	return nil, false
}

// FunctionsOf returns the function tools of the env inside e, if any.
func FunctionsOf(e envs.Env) []tools.Function {
	if s, ok := AsSingle(e); ok {
		return s.Functions()
	}
	return nil
}

// AgentOf reads the acting agent from a step's info, as the Single adapter
// tags it: what a turn row's agent_id and agent_role columns take. ok is
// false for single-agent envs (the columns stay null).
func AgentOf(info envs.Info) (Agent, bool) {
	id, _ := info.Extra["agent_id"].(string)
	role, _ := info.Extra["agent_role"].(string)
	return Agent{ID: id, Role: role}, id != "" && role != ""
}
