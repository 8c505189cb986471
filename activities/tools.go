package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/quarry-rl/quarry/activities/rollout"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
	"github.com/quarry-rl/quarry/tools"
	"github.com/quarry-rl/quarry/tools/toolenv"
	"github.com/quarry-rl/quarry/tools/toolset"
)

// Tool activity names (persisted).
const (
	ToolCallName   = "quarry.ToolCall"
	CloseToolsName = "quarry.CloseTools"
)

// ErrTypeToolUnavailable: a worker could not run a job's tool (no
// bubblewrap, an MCP server that does not start).
const ErrTypeToolUnavailable = "ToolUnavailable"

// toolHost returns the worker's tool host: Activities.Tools, or a default
// one (python's sandbox with its defaults, made on first use).
func (a *Activities) toolHost() *toolset.Host {
	if a.Tools != nil {
		return a.Tools
	}
	ts := a.turns()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.tools == nil {
		ts.tools = &toolset.Host{Log: a.logger()}
	}
	return ts.tools
}

// ToolCallInput runs the tool call of an accepted generation.
type ToolCallInput struct {
	Episode     EpisodeRef      `json:"episode"`
	Turn        int             `json:"turn"`
	Head        *schema.TurnRef `json:"head,omitempty"`
	Gen         schema.TurnRef  `json:"gen"`
	AttemptBase int             `json:"attempt_base"`
	// Uses and Successes are the episode's tool turns before this one (Act
	// reports them), for GEM's rewards and the max-uses notice.
	Uses      int `json:"uses"`
	Successes int `json:"successes"`
}

// ToolCall runs an episode's tool call in the episode's session on this
// worker (opened on first use) and writes the turn's act record: the tool's
// output as the observation, GEM's tool rewards. It returns this worker's
// host queue, where the episode's next call should come to find its session.
func (a *Activities) ToolCall(ctx context.Context, in ToolCallInput) (_ ActResult, err error) {
	spec := in.Episode.Spec
	job, env := spec.Job, in.Episode.Env.ID
	defer func() { a.activityFault(ctx, job, env, err) }()
	if spec.Tools == nil {
		return ActResult{}, temporal.NewNonRetryableApplicationError("the job has no tools", ErrTypeInvalidSpec, nil)
	}
	host := a.toolHost()
	set, err := host.Set(ctx, spec.Tools)
	if err != nil {
		return ActResult{}, fmt.Errorf("tools of %s: %w", in.Episode.ID(), err)
	}
	st, err := a.Stores.Open(ctx, spec.Output)
	if err != nil {
		return ActResult{}, err
	}
	gen, err := turnlog.ReadRecord(ctx, st, in.Gen)
	if err != nil {
		return ActResult{}, err
	}
	call, ok := set.Parse(gen.Action)
	if !ok {
		return ActResult{}, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("%s turn %d: the action holds no tool call on this worker", in.Episode.ID(), in.Turn), "ToolMismatch", nil)
	}
	tool, _ := set.Tool(call.Tool)
	stop := heartbeatEvery(ctx, 2*time.Second) // turn-sized heartbeat timeouts (workflows) allow ~10 s
	defer stop()
	start := time.Now()
	sess, release, err := host.Session(ctx, in.Episode.ID(), tool)
	if err != nil {
		if errors.Is(err, toolset.ErrUnavailable) {
			return ActResult{}, temporal.NewApplicationErrorWithCause(err.Error(), ErrTypeToolUnavailable, err)
		}
		return ActResult{}, fmt.Errorf("open %s session: %w", call.Tool, err)
	}
	res, err := toolenv.Execute(ctx, sess, call)
	release()
	if err != nil {
		return ActResult{}, fmt.Errorf("%s turn %d: %s: %w", in.Episode.ID(), in.Turn, call.Tool, err)
	}
	a.metrics().ToolCalled(job, env, call.Tool, time.Since(start))
	act, stopReason := rollout.ToolActRecord(gen, in.Episode.Env.Version, set.Config, in.Uses, in.Successes, call, res,
		spec.MaxTurns, float64(time.Since(start).Microseconds())/1000)
	a.crash("tool:after-call")
	t, attempt := tag(ctx)
	act.Tag, act.Attempt = t, in.AttemptBase+attempt
	gref := in.Gen
	act.Gen, act.Prev = &gref, in.Head
	ref, err := turnlog.PutRecord(ctx, st, &act)
	if err != nil {
		return ActResult{}, err
	}
	a.metrics().Turns(job, env, 1)
	a.crash("tool:after-record")
	return ActResult{Ref: ref, Reward: act.Reward, Done: stopReason != "", StopReason: stopReason, HostQueue: a.HostQueue}, nil
}

// CloseTools closes an episode's tool sessions on this worker.
func (a *Activities) CloseTools(ctx context.Context, episodeID string) error {
	return a.toolHost().Close(episodeID)
}

// CheckTools is ValidateJob's check of a job's tools: the MCP document
// parses (tools are not started here; workers do that).
func CheckTools(spec schema.JobSpec) error {
	if spec.Tools == nil || spec.Tools.MCP == nil {
		return nil
	}
	if _, err := toolset.MCPConfig(spec.Tools); err != nil {
		return schema.SpecError{{Path: "tools.mcp", Problem: err.Error()}}
	}
	return nil
}

// toolTurn is what Act answers for a tool call: nothing is written; the
// workflow runs ToolCall.
func toolTurn(call tools.Call, s *rollout.Session) ActResult {
	uses, succ := s.ToolUses()
	return ActResult{Tool: call.Tool, ToolUses: uses, ToolSuccesses: succ}
}

// SweepTools closes tool sessions idle for longer than idle.
func (a *Activities) SweepTools(idle time.Duration) { a.toolHost().Sweep(idle) }

// CloseAllTools closes every tool session of this worker (shutdown).
func (a *Activities) CloseAllTools(context.Context) { a.toolHost().CloseAll() }
