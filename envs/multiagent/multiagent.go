// Package multiagent is Quarry's contract for environments played by several
// agents — an assistant and a simulated customer, two players — each with a
// role, its own observations and its own rewards, taking turns the env
// decides, with messages routed between them.
//
// A multi-agent env is driven one turn at a time: Next names the agent to
// act, Step applies that agent's action and says what every agent is shown
// and earns as a consequence. Which policy plays each role (an endpoint, the
// env's scripted behaviour, random, the env's oracle) is the job's choice,
// never the env's: Play runs an episode in-process with local policies (for
// tests and expert data), Rows turns it into per-agent rows with returns
// computed over each agent's own turns, and Single fixes the policies of all
// roles but one so the env runs as a plain envs.Env in single-agent jobs.
package multiagent

import (
	"errors"
	"math/rand/v2"

	"github.com/quarry-rl/quarry/envs"
)

// Agent is one participant of an episode.
type Agent struct {
	// ID names the agent in rows (agent_id) and in Step; stable across
	// episodes of an env ("assistant", "customer", "player_1").
	ID string `json:"id"`
	// Role is what the agent does (agent_role); the job spec names a policy
	// per role. Several agents may share a role (two players).
	Role string `json:"role"`
}

// Env is one multi-agent environment instance. Like envs.Env it owns its
// randomness, must finish Reset and Step in bounded time, and answers
// malformed output with an observation and a penalty (Info.FormatError),
// keeping Go errors for misuse and infrastructure faults.
type Env interface {
	// Agents lists the participants, in a fixed order.
	Agents() []Agent
	// Reset starts an episode; the same seed yields the same episode.
	Reset(seed uint64) (Start, error)
	// Next returns the agent whose turn it is; ok is false once the
	// episode is over. The env alone decides the turn order (an assistant
	// may call several tools before the customer speaks again).
	Next() (agentID string, ok bool)
	// Step applies the action of agentID, which must be Next's agent
	// (ErrNotYourTurn otherwise).
	Step(agentID, action string) (Result, error)
	// SampleRandomAction returns a well-formed action for agentID now,
	// drawn from the caller's rng.
	SampleRandomAction(agentID string, rng *rand.Rand) string
}

// Start is what Reset shows each agent before anyone acts.
type Start struct {
	// Observations maps agent id to its first observation (its
	// instructions); an agent may have none yet.
	Observations map[string]string
	Info         envs.Info
}

// Result is the consequence of one agent's action.
type Result struct {
	// Observations maps agent id to what it is newly shown: the acting
	// agent's tool output, another agent's message. Agents absent from the
	// map are shown nothing this step.
	Observations map[string]string
	// Rewards maps agent id to the reward it earns at this step; an agent's
	// reward is credited to its latest turn (see Rows).
	Rewards map[string]float64
	// Success maps agent id to whether it achieved its own goal, set when
	// the episode ends (the assistant solved the task; the customer kept to
	// its instruction). The Single adapter reports its agent's as
	// Info.Success.
	Success map[string]bool
	// Messages are what agents said to each other at this step, as routed.
	Messages []Message
	// Terminated and Truncated follow envs.StepResult; they end the
	// episode for every agent.
	Terminated, Truncated bool
	Info                  envs.Info
}

// Done reports whether the episode is over.
func (r Result) Done() bool { return r.Terminated || r.Truncated }

// Message is one utterance from an agent to another.
type Message struct {
	From string `json:"from"`
	To   string `json:"to"`
	Text string `json:"text"`
}

// Oracle is implemented by envs that can play a role themselves. For the
// role a job trains (the assistant) it is an expert, usable as SFT data; for
// a simulated role (the customer) it is the env's scripted behaviour, which
// follows its instructions exactly.
type Oracle interface {
	OracleAction(agentID string) (string, error)
}

// Tasks is implemented by envs whose episodes are a finite list of tasks
// (envs.Tasks for multi-agent envs): Reset(seed) draws one, ResetTask plays
// a given row.
type Tasks interface {
	Rows() int
	ResetTask(row int) (Start, error)
}

// Errors for misuse of the protocol; callers branch with errors.Is.
var (
	ErrNotYourTurn  = errors.New("multiagent: Step by an agent whose turn it is not")
	ErrUnknownAgent = errors.New("multiagent: unknown agent")
	ErrNotReset     = errors.New("multiagent: Step called before Reset")
	ErrEpisodeOver  = errors.New("multiagent: Step called after the episode ended; call Reset")
)

// RoleOf returns the role of agentID in env.
func RoleOf(env Env, agentID string) (string, bool) {
	for _, a := range env.Agents() {
		if a.ID == agentID {
			return a.Role, true
		}
	}
	return "", false
}
