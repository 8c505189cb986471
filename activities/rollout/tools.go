package rollout

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/toolenv"
)

// Error classes of tool turns: the call ran and failed, or hit its timeout.
// Both are observations the agent sees, not infrastructure faults.
const (
	ErrorTool        = "tool_error"
	ErrorToolTimeout = "tool_timeout"
)

// ToolCall reports whether action is a tool turn for the session's tools
// (the env is wrapped with toolenv and the budget is not spent).
func (s *Session) ToolCall(action string) (tools.Call, bool) {
	te, ok := s.ep.Env().(*toolenv.Env)
	if !ok || s.Done {
		return tools.Call{}, false
	}
	return te.Call(action)
}

// ToolUses returns the tool turns and clean ones so far.
func (s *Session) ToolUses() (uses, successes int) {
	if te, ok := s.ep.Env().(*toolenv.Env); ok {
		return te.Uses()
	}
	return 0, 0
}

// ToolActRecord is the act record of a tool turn, built where the tool ran
// (a tool worker, which does not hold the env) from the turn's generate
// record, the session's tool counters before the turn and the tool's result;
// with the stop reason when the job's max_turns cap ends the episode here.
// Caller sets Tag, Attempt, Gen and Prev.
func ToolActRecord(gen schema.TurnRecord, envVersion string, cfg toolenv.Config, uses, successes int,
	call tools.Call, res tools.Result, maxTurns int, ms float64) (schema.TurnRecord, string) {
	step := toolenv.Outcome(cfg, uses, successes, call, res)
	act := ActRecord(gen, envVersion, step, ms)
	name, result := call.Called(), res.Observation
	act.ToolName, act.ToolResult = &name, &result
	if b, err := json.Marshal(toolCallColumn{Name: call.Name, Input: call.Input}); err == nil {
		s := string(b)
		act.ToolCall = &s
	}
	switch {
	case res.TimedOut:
		c := ErrorToolTimeout
		act.ErrorClass = &c
	case res.Error:
		c := ErrorTool
		act.ErrorClass = &c
	}
	stop := ""
	if maxTurns > 0 && gen.Turn+1 >= maxTurns {
		act.Truncated = true
		stop = schema.StopMaxTurns
	}
	return act, stop
}

// toolCallColumn is the tool_call column: the called function (MCP) and the
// call's input (code, query, or JSON arguments).
type toolCallColumn struct {
	Name  string `json:"name,omitempty"`
	Input string `json:"input"`
}

// toolResult recovers what the tool returned from a tool turn's act record.
func toolResult(act schema.TurnRecord) tools.Result {
	r := tools.Result{}
	if act.ToolResult != nil {
		r.Observation = *act.ToolResult
	}
	if c := act.ErrorClass; c != nil {
		r.Error = *c == ErrorTool || *c == ErrorToolTimeout
		r.TimedOut = *c == ErrorToolTimeout
	}
	return r
}

// ApplyTool folds a recorded tool turn into the session: the generate
// record's call with the act record's result, exactly as the tool worker
// computed it (checked), so the next prompt shows the tool's output.
func (s *Session) ApplyTool(gen, act schema.TurnRecord) error {
	if s.Done {
		return fmt.Errorf("tool turn %d after the episode ended", gen.Turn)
	}
	if gen.Turn != s.Turn || act.Turn != s.Turn {
		return fmt.Errorf("tool turn %d applied at turn %d", gen.Turn, s.Turn)
	}
	te, ok := s.ep.Env().(*toolenv.Env)
	if !ok {
		return fmt.Errorf("%w: turn %d called tool %v, but the job has no tools", ErrDiverged, gen.Turn, act.ToolName)
	}
	call, ok := te.Call(gen.Action)
	// Records written before tool_name named the called function hold the tool.
	if !ok || act.ToolName == nil || (call.Called() != *act.ToolName && call.Tool != *act.ToolName) {
		return fmt.Errorf("%w: turn %d: the action does not parse as a call of tool %v", ErrDiverged, gen.Turn, act.ToolName)
	}
	res := te.Apply(call, toolResult(act))
	if math.Abs(res.Reward-act.Reward) > 1e-12 || res.Observation != act.Observation {
		return fmt.Errorf("%w at tool turn %d: reward %v vs recorded %v", ErrDiverged, gen.Turn, res.Reward, act.Reward)
	}
	next, _, err := s.ep.Record(gen.Action, res)
	if err != nil {
		return err
	}
	s.commit(gen, next)
	s.Done = act.Terminated || act.Truncated
	ref := act.Ref()
	s.Head = &ref
	return nil
}
