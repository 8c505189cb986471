package workflows

import (
	"errors"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/quarry-rl/quarry/activities"
	"github.com/quarry-rl/quarry/schema"
)

// EpisodeWorkflowName is the per-episode workflow of endpoint policies.
const EpisodeWorkflowName = "quarry.Episode"

// turnsPerRun bounds an episode run's history; longer episodes continue as
// new carrying only their counters and head ref.
const turnsPerRun = 100

// EpisodeInput starts (or continues) one episode.
type EpisodeInput struct {
	Episode activities.EpisodeRef `json:"episode"`
	State   EpisodeState          `json:"state"`
}

// EpisodeState is what one run of an episode hands to the next.
type EpisodeState struct {
	Turn        int             `json:"turn"`
	Head        *schema.TurnRef `json:"head,omitempty"`
	TotalReward float64         `json:"total_reward"`
	Runs        int             `json:"runs"`
	// Tokens the endpoint processed over every accepted and failed-over
	// generation of the episode (for progress and cost, not for training).
	PromptTokens   int64 `json:"prompt_tokens,omitempty"`
	ResponseTokens int64 `json:"response_tokens,omitempty"`
	// ToolQueue is the host queue of the worker holding the episode's tool
	// sessions (empty until the first tool call).
	ToolQueue string `json:"tool_queue,omitempty"`
}

// hostQueueWait is how long a tool call waits on the host queue of the
// worker holding the episode's tool session before going to any tool worker
// (a fresh session): the time to notice that worker is gone.
const hostQueueWait = 10 * time.Second

// EpisodeWorkflow plays one episode against an inference endpoint, a turn at
// a time: Generate (an activity, one inference call) then Act (a local
// activity stepping the env). Its history holds refs and counters only;
// transcripts and token arrays live in the turn log.
func EpisodeWorkflow(ctx workflow.Context, in EpisodeInput) (activities.EpisodeOutcome, error) {
	_ = workflow.GetVersion(ctx, "episode", workflow.DefaultVersion, 1)
	spec := in.Episode.Spec
	timeout := time.Duration(spec.Policy.OpenAI.RequestTimeout)
	gctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 4 * timeout,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			MaximumAttempts:        20,
			NonRetryableErrorTypes: []string{activities.ErrTypeInference, activities.ErrTypeInvalidSpec, activities.ErrTypeEnvVersion},
		},
	})
	actx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 10},
	})
	st := in.State
	// Record keys must never repeat: a retried run (or a continued one)
	// numbers its attempts above every earlier run's.
	base := (int(workflow.GetInfo(ctx).Attempt)-1)*100000 + st.Runs*1000
	out := activities.EpisodeOutcome{Slot: in.Episode.Slot}
	for n := 0; ; n++ {
		if n == turnsPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			st.Runs++
			return out, workflow.NewContinueAsNewError(ctx, EpisodeWorkflowName, EpisodeInput{Episode: in.Episode, State: st})
		}
		// Scheduled by the workflow task that ran the last Act, the Generate
		// is dispatched eagerly to that same worker, whose session is warm;
		// when it has no free slot any worker rebuilds the session.
		var gen activities.GenerateResult
		if err := workflow.ExecuteActivity(gctx, activities.GenerateName, activities.GenerateInput{
			Episode: in.Episode, Turn: st.Turn, Head: st.Head, AttemptBase: base,
		}).Get(ctx, &gen); err != nil {
			return out, err
		}
		st.PromptTokens += int64(gen.PromptTokens)
		st.ResponseTokens += int64(gen.ResponseTokens)
		if gen.ContextExceeded {
			out.StopReason = schema.StopContext
			break
		}
		var act activities.ActResult
		if err := workflow.ExecuteLocalActivity(actx, activities.ActName, activities.ActInput{
			Episode: in.Episode, Turn: st.Turn, Head: st.Head, Gen: gen.Ref, AttemptBase: base,
		}).Get(ctx, &act); err != nil {
			return out, err
		}
		if act.Tool != "" {
			tin := activities.ToolCallInput{Episode: in.Episode, Turn: st.Turn, Head: st.Head, Gen: gen.Ref,
				AttemptBase: base, Uses: act.ToolUses, Successes: act.ToolSuccesses}
			var err error
			if act, err = callTool(ctx, &st, tin); err != nil {
				return out, err
			}
			st.ToolQueue = act.HostQueue
		}
		ref := act.Ref
		st.Head = &ref
		st.Turn++
		st.TotalReward += act.Reward
		if act.Done {
			out.Success, out.StopReason = act.Success, act.StopReason
			break
		}
	}
	if st.ToolQueue != "" {
		closeTools(ctx, st.ToolQueue, in.Episode.ID())
	}
	if st.Head == nil {
		// The very first prompt did not fit: nothing to write, the episode fails.
		return out, temporal.NewNonRetryableApplicationError("the first prompt exceeds the model's context", "ContextLength", nil)
	}
	out.Source, out.Turns, out.TotalReward = *st.Head, st.Turn, st.TotalReward
	out.PromptTokens, out.ResponseTokens = st.PromptTokens, st.ResponseTokens
	return out, nil
}

// callTool runs a tool call on the worker holding the episode's tool session
// (its host queue) or, for the first call or when that worker is gone, on
// the tool queue, where any tool worker opens a fresh session.
func callTool(ctx workflow.Context, st *EpisodeState, in activities.ToolCallInput) (activities.ActResult, error) {
	tctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		HeartbeatTimeout:    30 * time.Second, // ToolCall heartbeats every 10 s
		RetryPolicy: &temporal.RetryPolicy{
			MaximumAttempts:        5,
			NonRetryableErrorTypes: []string{activities.ErrTypeInvalidSpec, "ToolMismatch"},
		},
	})
	var res activities.ActResult
	if st.ToolQueue != "" {
		hctx := workflow.WithScheduleToStartTimeout(workflow.WithTaskQueue(tctx, st.ToolQueue), hostQueueWait)
		err := workflow.ExecuteActivity(hctx, activities.ToolCallName, in).Get(ctx, &res)
		var te *temporal.TimeoutError
		if err == nil || !errors.As(err, &te) || te.TimeoutType() != enums.TIMEOUT_TYPE_SCHEDULE_TO_START {
			return res, err
		}
		// The worker holding the session is gone; its attempts are numbered
		// apart from this schedule's.
		in.AttemptBase += 500
	}
	queue := ToolQueue(workflow.GetInfo(ctx).TaskQueueName)
	err := workflow.ExecuteActivity(workflow.WithTaskQueue(tctx, queue), activities.ToolCallName, in).Get(ctx, &res)
	return res, err
}

// closeTools asks the worker holding the episode's tool sessions to close
// them; if it is gone, its sessions died with it (or its sweeper closes them).
func closeTools(ctx workflow.Context, queue, episodeID string) {
	cctx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              queue,
		ScheduleToStartTimeout: hostQueueWait,
		StartToCloseTimeout:    time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	_ = workflow.ExecuteActivity(cctx, activities.CloseToolsName, episodeID).Get(ctx, nil)
}
