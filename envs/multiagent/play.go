package multiagent

import (
	"errors"
	"fmt"
	"slices"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/schema"
)

// Policy chooses one agent's actions.
type Policy interface {
	// Act returns the agent's next action. obs is what the agent has been
	// shown since its previous action (its Reset observation included on
	// its first turn); a policy that needs the whole conversation keeps it.
	Act(env Env, agent Agent, obs string) (string, error)
}

// PolicyFunc adapts a function to Policy.
type PolicyFunc func(env Env, agent Agent, obs string) (string, error)

// Act calls f.
func (f PolicyFunc) Act(env Env, agent Agent, obs string) (string, error) { return f(env, agent, obs) }

// Policy kinds a job spec names per role.
const (
	// KindEndpoint: an OpenAI-compatible endpoint; runs in the workflow
	// (each turn a Generate activity over that agent's own prompt), never
	// in-process.
	KindEndpoint = "endpoint"
	// KindScripted: the env's own behaviour for a simulated role (the
	// scripted customer), through Oracle.
	KindScripted = "scripted"
	// KindOracle: the env's expert for the role, through Oracle.
	KindOracle = "oracle"
	// KindRandom: the env's random actions, from the policy's own seed.
	KindRandom = "random"
)

// Kinds lists the policy kinds, for validation messages.
var Kinds = []string{KindEndpoint, KindScripted, KindOracle, KindRandom}

// ErrNotLocal means a policy kind cannot run in-process (an endpoint).
var ErrNotLocal = errors.New("multiagent: policy kind runs in the workflow, not in-process")

// Local returns the in-process policy of a kind; seed seeds the random
// policy (never the env). An endpoint is ErrNotLocal.
func Local(kind string, seed uint64) (Policy, error) {
	switch kind {
	case KindScripted, KindOracle:
		return OraclePolicy(), nil
	case KindRandom:
		return RandomPolicy(seed), nil
	case KindEndpoint:
		return nil, fmt.Errorf("%q: %w", kind, ErrNotLocal)
	}
	return nil, fmt.Errorf("multiagent: policy kind %q: want one of %v", kind, Kinds)
}

// OraclePolicy asks the env's Oracle for the agent's action: the expert, or
// the scripted behaviour of a simulated role.
func OraclePolicy() Policy {
	return PolicyFunc(func(env Env, agent Agent, _ string) (string, error) {
		o, ok := env.(Oracle)
		if !ok {
			return "", errors.New("multiagent: env has no oracle")
		}
		return o.OracleAction(agent.ID)
	})
}

// RandomPolicy samples the env's random actions from a generator of its own.
func RandomPolicy(seed uint64) Policy {
	rng := envs.NewRand(seed)
	return PolicyFunc(func(env Env, agent Agent, _ string) (string, error) {
		return env.SampleRandomAction(agent.ID, rng), nil
	})
}

// Turn is one action of an episode and its consequence for the acting agent.
type Turn struct {
	// Index is the turn's position in the episode (every agent's turns).
	Index int   `json:"index"`
	Agent Agent `json:"agent"`
	// AgentTurn is the turn's position among its agent's own turns.
	AgentTurn int    `json:"agent_turn"`
	Action    string `json:"action"`
	// Observation is everything the agent was shown after this action and
	// before its next one (tool output, other agents' messages).
	Observation string `json:"observation"`
	// Reward is everything the agent earned after this action and before
	// its next one: a reward is credited to the agent's latest turn.
	Reward     float64   `json:"reward"`
	Terminated bool      `json:"terminated,omitempty"`
	Truncated  bool      `json:"truncated,omitempty"`
	Info       envs.Info `json:"info"`
}

// Episode is a played multi-agent episode.
type Episode struct {
	Seed     uint64    `json:"seed"`
	Agents   []Agent   `json:"agents"`
	Start    Start     `json:"start"`
	Turns    []Turn    `json:"turns"`
	Messages []Message `json:"messages,omitempty"`
	// Done: the env ended the episode (not the caller's step limit).
	Done bool `json:"done"`
	// Info is the last step's info (the episode's outcome).
	Info envs.Info `json:"info"`
	// Unclaimed holds rewards of agents that never acted.
	Unclaimed map[string]float64 `json:"unclaimed,omitempty"`
	// First is what each agent was shown before its first action: its
	// Start observation and anything others' steps showed it meanwhile.
	First map[string]string `json:"first"`
}

// Play resets env with seed and plays it with one policy per role until the
// episode ends or limit turns have been taken. A missing role is an error.
func Play(env Env, seed uint64, policies map[string]Policy, limit int) (Episode, error) {
	start, err := env.Reset(seed)
	if err != nil {
		return Episode{}, fmt.Errorf("reset %d: %w", seed, err)
	}
	return Continue(env, start, seed, policies, limit)
}

// Continue plays an env already reset (with Reset or ResetTask) from start.
func Continue(env Env, start Start, seed uint64, policies map[string]Policy, limit int) (Episode, error) {
	ep := Episode{Seed: seed, Agents: env.Agents(), Start: start, First: map[string]string{}}
	byID := map[string]Agent{}
	for _, a := range ep.Agents {
		if policies[a.Role] == nil {
			return ep, fmt.Errorf("multiagent: no policy for role %q", a.Role)
		}
		byID[a.ID] = a
	}
	pending := map[string]string{}
	for id, o := range start.Observations {
		pending[id] = o
	}
	last := map[string]int{}      // agent → index of its latest turn
	counts := map[string]int{}    // agent → turns taken
	early := map[string]float64{} // rewards before an agent's first turn
	for len(ep.Turns) < limit {
		id, ok := env.Next()
		if !ok {
			ep.Done = true
			break
		}
		agent, known := byID[id]
		if !known {
			return ep, fmt.Errorf("%w: Next returned %q", ErrUnknownAgent, id)
		}
		if counts[id] == 0 {
			ep.First[id] = pending[id]
		}
		action, err := policies[agent.Role].Act(env, agent, pending[id])
		if err != nil {
			return ep, fmt.Errorf("seed %d turn %d (%s): policy: %w", seed, len(ep.Turns), id, err)
		}
		pending[id] = ""
		res, err := env.Step(id, action)
		if err != nil {
			return ep, fmt.Errorf("seed %d turn %d (%s): %w", seed, len(ep.Turns), id, err)
		}
		t := Turn{Index: len(ep.Turns), Agent: agent, AgentTurn: counts[id], Action: action,
			Reward: early[id], Terminated: res.Terminated, Truncated: res.Truncated, Info: res.Info}
		delete(early, id)
		counts[id]++
		last[id] = t.Index
		ep.Turns = append(ep.Turns, t)
		for _, a := range ep.Agents {
			if o, ok := res.Observations[a.ID]; ok {
				pending[a.ID] += o
				if i, acted := last[a.ID]; acted {
					ep.Turns[i].Observation += o
				}
			}
			if r, ok := res.Rewards[a.ID]; ok {
				if i, acted := last[a.ID]; acted {
					ep.Turns[i].Reward += r
				} else {
					early[a.ID] += r
				}
			}
		}
		ep.Messages = append(ep.Messages, res.Messages...)
		ep.Info = res.Info
		if res.Done() {
			ep.Done = true
			break
		}
	}
	for id, r := range early {
		if ep.Unclaimed == nil {
			ep.Unclaimed = map[string]float64{}
		}
		ep.Unclaimed[id] = r
	}
	return ep, nil
}

// History is agentID's side of the episode as observation wrappers read
// it: what it was shown before its first action, then after each of its
// actions what it was shown until its next one. Rendered with a wrapper
// (envs.Wrapper.Render), it is that agent's prompt: in a multi-agent job each
// agent's requests are built from its own history.
func (ep Episode) History(agentID string) envs.History {
	h := envs.History{Observations: []envs.Observation{{Text: ep.First[agentID]}}}
	if _, acted := ep.First[agentID]; !acted {
		h.Observations[0].Text = ep.Start.Observations[agentID]
	}
	for _, t := range ep.AgentTurns(agentID) {
		h.Actions = append(h.Actions, t.Action)
		h.ShownActions = append(h.ShownActions, envs.ShownAction(t.Action, t.Info))
		h.Observations = append(h.Observations, envs.Observation{Text: t.Observation, FromTool: t.Info.UseTool,
			Prefix: t.Info.Prefix, Suffix: t.Info.Suffix})
		h.Info = t.Info
	}
	return h
}

// Recorded is one action of a recorded episode.
type Recorded struct {
	AgentID string `json:"agent_id"`
	Action  string `json:"action"`
}

// Replay rebuilds an episode from its recorded actions on an env already
// reset the same way (the same seed or task row): envs are deterministic,
// so any worker gets the same state. It fails when the env's turn order
// disagrees with the record.
func Replay(env Env, start Start, seed uint64, actions []Recorded) (Episode, error) {
	i := 0
	replay := PolicyFunc(func(_ Env, a Agent, _ string) (string, error) {
		if i >= len(actions) {
			return "", errors.New("multiagent: replay ran past the record")
		}
		r := actions[i]
		i++
		if r.AgentID != a.ID {
			return "", fmt.Errorf("multiagent: replay turn %d: the env gives the turn to %s, the record to %s", i-1, a.ID, r.AgentID)
		}
		return r.Action, nil
	})
	policies := map[string]Policy{}
	for _, a := range env.Agents() {
		policies[a.Role] = replay
	}
	return Continue(env, start, seed, policies, len(actions))
}

// AgentTurns returns the turns of agentID, in order.
func (ep Episode) AgentTurns(agentID string) []Turn {
	var out []Turn
	for _, t := range ep.Turns {
		if t.Agent.ID == agentID {
			out = append(out, t)
		}
	}
	return out
}

// Total is agentID's undiscounted return.
func (ep Episode) Total(agentID string) float64 {
	var g float64
	for _, t := range ep.AgentTurns(agentID) {
		g += t.Reward
	}
	return g
}

// Returns computes each agent's discounted returns over its own turns
// (G_k = r_k + γ·G_{k+1}, k counting that agent's turns only): what one agent
// does between another's turns neither discounts nor credits the other.
func (ep Episode) Returns(gamma float64) map[string][]float64 {
	out := map[string][]float64{}
	for _, a := range ep.Agents {
		turns := ep.AgentTurns(a.ID)
		if len(turns) == 0 {
			continue
		}
		rewards := make([]float64, len(turns))
		for i, t := range turns {
			rewards[i] = t.Reward
		}
		out[a.ID] = schema.DiscountedReturns(rewards, gamma)
	}
	return out
}

// Row is one turn as a row of the turns table sees it: the ids the
// agent_id and agent_role columns take, the agent's own return and, after
// Advantages, its advantage.
type Row struct {
	Turn      int     `json:"turn"`
	AgentID   string  `json:"agent_id"`
	AgentRole string  `json:"agent_role"`
	AgentTurn int     `json:"agent_turn"`
	Action    string  `json:"action"`
	Obs       string  `json:"observation"`
	Reward    float64 `json:"reward"`
	Return    float64 `json:"return"`
	Advantage float64 `json:"advantage"`
	Done      bool    `json:"done,omitempty"`
}

// Rows returns the episode's turns in order with each agent's discounted
// return over its own turns.
func (ep Episode) Rows(gamma float64) []Row {
	returns := ep.Returns(gamma)
	rows := make([]Row, len(ep.Turns))
	for i, t := range ep.Turns {
		rows[i] = Row{Turn: t.Index, AgentID: t.Agent.ID, AgentRole: t.Agent.Role, AgentTurn: t.AgentTurn,
			Action: t.Action, Obs: t.Observation, Reward: t.Reward,
			Return: returns[t.Agent.ID][t.AgentTurn], Done: t.Terminated || t.Truncated}
	}
	return rows
}

// Advantages computes per-agent advantages over a batch of episodes: for
// each role, ReBN (schema.Normalize) over the turns of that role's agents
// only, so a customer's rewards never shift an assistant's baseline. groups
// gives each episode's group (GRPO), nil for one group per episode. It
// returns the rows of every episode with Return and Advantage filled, and
// the return statistics per role (for the manifest).
func Advantages(batch []Episode, groups []int, gamma float64) ([][]Row, map[string]schema.Stats) {
	rows := make([][]Row, len(batch))
	for i, ep := range batch {
		rows[i] = ep.Rows(gamma)
	}
	type ref struct{ ep, agent int }
	byRole := map[string][]ref{}
	var roles []string
	for i, ep := range batch {
		for j, a := range ep.Agents {
			if _, seen := byRole[a.Role]; !seen {
				roles = append(roles, a.Role)
			}
			byRole[a.Role] = append(byRole[a.Role], ref{i, j})
		}
	}
	slices.Sort(roles)
	stats := map[string]schema.Stats{}
	for _, role := range roles {
		refs := byRole[role]
		in := make([]schema.EpisodeRewards, len(refs))
		for k, r := range refs {
			g := r.ep
			if groups != nil {
				g = groups[r.ep]
			}
			in[k].Group = g
			for _, t := range batch[r.ep].AgentTurns(batch[r.ep].Agents[r.agent].ID) {
				in[k].Rewards = append(in[k].Rewards, t.Reward)
			}
		}
		out, st := schema.Normalize(in, gamma)
		stats[role] = st
		for k, r := range refs {
			id := batch[r.ep].Agents[r.agent].ID
			n := 0
			for i := range rows[r.ep] {
				if rows[r.ep][i].AgentID != id {
					continue
				}
				rows[r.ep][i].Return = out[k].Returns[n]
				rows[r.ep][i].Advantage = out[k].Advantages[n]
				n++
			}
		}
	}
	return rows, stats
}

// seedFor derives a policy seed for a role from an episode seed, so the
// fixed policies of Single are reproducible and independent of the env's
// own randomness.
func seedFor(seed uint64, role string) uint64 {
	h := seed ^ 0x51ed270b27bd8d6f
	for _, c := range []byte(role) {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	return h
}
