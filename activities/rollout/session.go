package rollout

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// Session is an endpoint-policy episode between turns: the env at its
// current state, the observation history, the conversation and the served
// token sequence. A worker keeps sessions in memory; any worker rebuilds one
// from the turn log (Replay), because envs are deterministic given their
// seed and the accepted actions.
type Session struct {
	Slot       schema.Slot
	EnvVersion string
	ep         *envs.Episode
	conv       Conversation
	prompt     envs.Prompt
	tokens     []int32 // the current segment's served tokens: prompts and responses so far
	segment    int
	// Turn is the number of turns played; Head the last accepted act record.
	Turn int
	Head *schema.TurnRef
	Done bool
	// Diverged counts the replayed turns whose observation differed from
	// the recorded one in an env whose replay is best effort (a terminal's
	// commands: `date`, `ls -l`); every later act record's info says so.
	Diverged int
	// frame shapes each prompt (UseFrame); frameErr is its last failure.
	frame    Frame
	frameErr error
}

// Frame shapes every prompt the policy is sent — a system message, a
// completions template — before it is recorded or requested.
type Frame func(p envs.Prompt, turn int) (envs.Prompt, error)

// UseFrame shapes the current prompt and every later one with f. Call it
// before the first Peek (and before Replay).
func (s *Session) UseFrame(f Frame) {
	s.frame = f
	s.setPrompt(s.prompt, s.Turn)
}

// setPrompt makes p, framed, the prompt of turn.
func (s *Session) setPrompt(p envs.Prompt, turn int) {
	s.prompt, s.frameErr = p, nil
	if s.frame != nil {
		s.prompt, s.frameErr = s.frame(p, turn)
	}
}

// NewSession resets env for the slot's task: dataset row row, or for a
// procedural env (row < 0) the slot's task seed.
func NewSession(env envs.Env, envVersion string, w envs.Wrapper, maxHistory int, slot schema.Slot, row int, opts ...envs.EpisodeOption) (*Session, error) {
	ep := envs.NewEpisode(env, w, maxHistory, opts...)
	p, _, err := ep.ResetTask(row, slot.TaskSeed)
	if err != nil {
		return nil, err
	}
	return &Session{Slot: slot, EnvVersion: envVersion, ep: ep, prompt: p}, nil
}

// Prompt is the next request's prompt.
func (s *Session) Prompt() envs.Prompt { return s.prompt }

// Peek returns the next request's prompt delta and message-level segment.
func (s *Session) Peek() (string, int, error) {
	if s.frameErr != nil {
		return "", 0, fmt.Errorf("prompt: %w", s.frameErr)
	}
	return s.conv.Peek(s.prompt)
}

// PromptTokens splits a served prompt into the tokens not yet in the
// segment and the segment they belong to: when the served prompt does not
// extend the segment's tokens (the chat template rewrote history), a new
// segment starts with the whole prompt.
func (s *Session) PromptTokens(served []int32) (fresh []int32, segment int) {
	if len(s.tokens) > 0 && len(served) >= len(s.tokens) && slices.Equal(served[:len(s.tokens)], s.tokens) {
		return served[len(s.tokens):], s.segment
	}
	if len(s.tokens) == 0 && s.Turn == 0 {
		return served, s.segment
	}
	return served, s.segment + 1
}

// ErrDiverged means replaying the accepted actions did not reproduce the
// recorded rewards: the env's rules differ from the ones that recorded them.
var ErrDiverged = fmt.Errorf("replayed episode diverges from its turn log")

// Step applies the accepted generate record's action and returns the act
// record (without Tag, Attempt, Gen and Prev, which the caller sets) and the
// stop reason ("" while the episode goes on). maxTurns is the job's cap.
func (s *Session) Step(gen schema.TurnRecord, maxTurns int, envMs func() float64) (schema.TurnRecord, string, error) {
	if s.Done {
		return schema.TurnRecord{}, "", envs.ErrEpisodeOver
	}
	if gen.Turn != s.Turn {
		return schema.TurnRecord{}, "", fmt.Errorf("generate record of turn %d applied at turn %d", gen.Turn, s.Turn)
	}
	next, res, err := s.ep.Step(gen.Action)
	if err != nil {
		return schema.TurnRecord{}, "", err
	}
	if s.Diverged > 0 {
		extra := maps.Clone(res.Info.Extra) // the env's own map stays as it was
		if extra == nil {
			extra = map[string]any{}
		}
		extra["replay_diverged_turns"] = s.Diverged
		res.Info.Extra = extra
	}
	act := ActRecord(gen, s.EnvVersion, res, envMs())
	stop := ""
	switch {
	case res.Terminated:
		stop = schema.StopTerminated
	case res.Truncated:
		stop = schema.StopTruncated
	case maxTurns > 0 && s.Turn+1 >= maxTurns:
		act.Truncated = true
		stop = schema.StopMaxTurns
	}
	s.commit(gen, next)
	s.Done = stop != ""
	return act, stop, nil
}

// commit moves the session past gen's turn: the conversation, the served
// tokens and the next prompt.
func (s *Session) commit(gen schema.TurnRecord, next envs.Prompt) {
	s.conv.Commit(s.prompt, gen.Action)
	if gen.TokenSource == schema.TokenSourceServed {
		if gen.Segment != s.segment {
			s.tokens, s.segment = nil, gen.Segment
		}
		s.tokens = append(append(s.tokens, gen.PromptTokenIDs...), gen.ResponseTokenIDs...)
	}
	s.setPrompt(next, s.Turn+1)
	s.Turn++
}

// Replay rebuilds a session's state from its accepted turns, checking that
// the env reproduces every recorded reward and flag.
//
// An env whose replay is best effort (envs.Replayer: it re-executes
// commands with outside effects) is told it replays, and a differing
// observation is counted in Diverged instead of failing; a differing
// reward or end still fails.
func (s *Session) Replay(turns []turnlog.Turn) error {
	if envs.MarkReplay(s.ep.Env(), true) {
		defer envs.MarkReplay(s.ep.Env(), false)
		return s.replay(turns, true)
	}
	return s.replay(turns, false)
}

func (s *Session) replay(turns []turnlog.Turn, bestEffort bool) error {
	for _, t := range turns {
		if t.Act.ToolName != nil {
			if err := s.ApplyTool(t.Gen, t.Act); err != nil {
				return fmt.Errorf("replay turn %d: %w", t.Gen.Turn, err)
			}
			continue
		}
		act, _, err := s.Step(t.Gen, 0, func() float64 { return 0 })
		if err != nil {
			return fmt.Errorf("replay turn %d: %w", t.Gen.Turn, err)
		}
		sameObs := act.Observation == t.Act.Observation
		if math.Abs(act.Reward-t.Act.Reward) > 1e-12 || act.Terminated != t.Act.Terminated || (!sameObs && !bestEffort) {
			return fmt.Errorf("%w at turn %d: reward %v vs recorded %v", ErrDiverged, t.Gen.Turn, act.Reward, t.Act.Reward)
		}
		if !sameObs {
			s.Diverged++
		}
		// The job's cap may have truncated the recorded turn.
		s.Done = t.Act.Terminated || t.Act.Truncated
		ref := t.Act.Ref()
		s.Head = &ref
	}
	return nil
}
