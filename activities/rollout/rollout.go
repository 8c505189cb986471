// Package rollout plays episodes and turns what happens into turn-log
// records (schema.TurnRecord): the logic behind Quarry's activities, kept in
// a plain package so it is tested without Temporal.
//
// A turn is two records, as in the durable pipeline: a generate record (the
// policy's action and the prompt it saw) and an act record (what the env
// made of it). Local policies (random, oracle) play a whole episode in one
// call; endpoint policies use the same record builders one turn at a time.
package rollout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/multiagent"
	"github.com/quarry-rl/quarry/schema"
)

// Error classes recorded on turns (column error_class): non-fatal problems
// the env penalised. Infrastructure faults never become rows.
const (
	ErrorFormat  = "format_error"
	ErrorInvalid = "invalid_action"
)

// Params describe one episode to play with a local policy.
type Params struct {
	Job        string
	Slot       schema.Slot
	Env        envs.Env
	EnvVersion string
	Wrapper    envs.Wrapper
	MaxHistory int
	// MaxTurns caps the episode below the env's own limit (0: the env's).
	MaxTurns int
	// Policy is schema.PolicyRandom or schema.PolicyOracle.
	Policy string
	// Tag identifies the attempt that writes the records (unique per attempt).
	Tag     string
	Attempt int
	// Row is the dataset row of a dataset-backed env's task (EnvPlan.Row);
	// a procedural env resets from Slot.TaskSeed whatever it is.
	Row int
}

// Episode is a played episode: its records in turn order (generate, act,
// generate, act, …) and a summary.
type Episode struct {
	Records     []schema.TurnRecord
	Turns       int
	TotalReward float64
	Success     bool
	StopReason  string
}

// Play runs one episode with a local policy. It checks ctx between turns.
func Play(ctx context.Context, p Params) (Episode, error) {
	var pick func() (string, error)
	switch p.Policy {
	case schema.PolicyRandom:
		rng := envs.NewRand(p.Slot.SampleSeed)
		pick = func() (string, error) { return p.Env.SampleRandomAction(rng), nil }
	case schema.PolicyOracle:
		o, ok := envs.AsOracle(p.Env)
		if !ok {
			return Episode{}, fmt.Errorf("policy oracle: env has no oracle")
		}
		pick = o.OracleAction
	default:
		return Episode{}, fmt.Errorf("policy %q is not a local policy", p.Policy)
	}
	ep := envs.NewEpisode(p.Env, p.Wrapper, p.MaxHistory)
	prompt, _, err := ep.ResetTask(p.Row, p.Slot.TaskSeed)
	if err != nil {
		return Episode{}, err
	}
	var out Episode
	var conv Conversation
	for turn := 0; ; turn++ {
		if err := ctx.Err(); err != nil {
			return Episode{}, err
		}
		start := time.Now()
		action, err := pick()
		if err != nil {
			return Episode{}, fmt.Errorf("turn %d: %s policy: %w", turn, p.Policy, err)
		}
		genMs := ms(time.Since(start))
		delta, segment, err := conv.Next(prompt)
		if err != nil {
			return Episode{}, err
		}
		gen := schema.TurnRecord{
			Phase: schema.PhaseGenerate, Tag: p.Tag, Job: p.Job,
			Batch: p.Slot.Batch, Episode: p.Slot.Episode, Turn: turn, Attempt: p.Attempt,
			Segment: segment, PromptDelta: delta, Action: action,
			PolicyModel: p.Policy, SamplingParams: "{}", TokenSource: schema.TokenSourceNone,
			GenerationMs: genMs,
		}
		start = time.Now()
		next, res, err := ep.Step(action)
		if err != nil {
			return Episode{}, fmt.Errorf("turn %d: step: %w", turn, err)
		}
		conv.Acted(action)
		act := ActRecord(gen, p.EnvVersion, res, ms(time.Since(start)))
		stop := ""
		switch {
		case res.Terminated:
			stop = schema.StopTerminated
		case res.Truncated:
			stop = schema.StopTruncated
		case p.MaxTurns > 0 && turn+1 >= p.MaxTurns:
			// The job's cap cuts the episode: the last turn is truncated,
			// not terminal, so trainers bootstrap correctly.
			act.Truncated = true
			stop = schema.StopMaxTurns
		}
		out.Records = append(out.Records, gen, act)
		out.Turns++
		out.TotalReward += res.Reward
		if stop != "" {
			out.Success = res.Info.Success
			out.StopReason = stop
			return out, nil
		}
		prompt = next
	}
}

// ActRecord builds the act record of a step on gen's action.
func ActRecord(gen schema.TurnRecord, envVersion string, res envs.StepResult, envMs float64) schema.TurnRecord {
	act := schema.TurnRecord{
		Phase: schema.PhaseAct, Tag: gen.Tag, Job: gen.Job,
		Batch: gen.Batch, Episode: gen.Episode, Turn: gen.Turn, Attempt: gen.Attempt,
		ActionTag: gen.Tag, EnvVersion: envVersion,
		Observation: res.Observation, Reward: res.Reward,
		Terminated: res.Terminated, Truncated: res.Truncated, Success: res.Info.Success,
		EnvMs: envMs,
	}
	if b, err := json.Marshal(res.Info); err == nil && string(b) != "{}" {
		s := string(b)
		act.Info = &s
	}
	if a, ok := multiagent.AgentOf(res.Info); ok {
		act.AgentID, act.AgentRole = &a.ID, &a.Role
	}
	switch {
	case res.Info.FormatError:
		c := ErrorFormat
		act.ErrorClass = &c
	case res.Info.InvalidAction:
		c := ErrorInvalid
		act.ErrorClass = &c
	}
	return act
}

// Conversation tracks the chat messages of an episode's requests so each
// turn stores only what its request adds (prompt_delta), keeping storage
// linear in turns. When a request does not extend the previous request and
// its response — a text wrapper re-rendering the whole history, or a
// template dropping earlier content — a new segment starts and the delta is
// the whole request.
type Conversation struct {
	prev    []envs.Message // the previous request plus its response
	segment int
	started bool
}

// Peek returns the JSON delta of prompt's messages and its segment without
// changing the conversation (a retried generation sees the same delta).
func (c *Conversation) Peek(p envs.Prompt) (delta string, segment int, err error) {
	add, segment := c.diff(messages(p))
	b, err := json.Marshal(add)
	if err != nil {
		return "", 0, fmt.Errorf("prompt delta: %w", err)
	}
	return string(b), segment, nil
}

// Commit records that prompt was answered with action.
func (c *Conversation) Commit(p envs.Prompt, action string) {
	msgs := messages(p)
	_, c.segment = c.diff(msgs)
	c.started = true
	c.prev = append(slices.Clone(msgs), envs.Message{Role: "assistant", Content: action})
}

// Next is Peek followed by remembering the prompt; Acted then records the
// answer. Local policies use the pair.
func (c *Conversation) Next(p envs.Prompt) (delta string, segment int, err error) {
	delta, segment, err = c.Peek(p)
	if err == nil {
		c.Commit(p, "")
	}
	return delta, segment, err
}

// Acted records the response to the last request.
func (c *Conversation) Acted(action string) {
	if n := len(c.prev); n > 0 {
		c.prev[n-1].Content = action
	}
}

func (c *Conversation) diff(msgs []envs.Message) ([]envs.Message, int) {
	switch {
	case !c.started:
		return msgs, 0
	case len(msgs) >= len(c.prev) && slices.EqualFunc(msgs[:len(c.prev)], c.prev, envs.Message.Equal):
		return msgs[len(c.prev):], c.segment
	default:
		return msgs, c.segment + 1
	}
}

func messages(p envs.Prompt) []envs.Message { return p.Chat() }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
