package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Limits on a spec's numbers and size. Each keeps one input from exhausting
// a worker, Temporal or the job's own bookkeeping; docs/limits.md gives the
// reason for each.
const (
	// MaxTasks and MaxEpisodes bound the job's size; tasks × samples is
	// checked without overflow (it once wrapped to a negative batch count
	// and a job that retried forever).
	MaxTasks    = 1_000_000_000
	MaxEpisodes = 1_000_000_000
	MaxEnvs     = 256
	// MaxJobTurns bounds the job-wide max_turns (every turn, tool turns too).
	MaxJobTurns  = 10_000
	MaxHistory   = 10_000
	MaxEndpoints = 64
	MaxStops     = 16
	// MaxTokensLimit is the largest max_tokens (a 1M-token context).
	MaxTokensLimit      = 1 << 20
	MaxConcurrency      = 4096
	MaxBatchesInFlight  = 256
	MaxEpisodesInFlight = 4096 // = MaxBatchSize: more than a batch never run at once
	MaxToolUsesLimit    = 1000
	// MaxToolRewardMagnitude bounds tool_reward, tool_success_reward and
	// tool_error_reward: a NaN or infinite reward (YAML's .nan, .inf) would
	// fail the shard's row validation only after the batch was played.
	MaxToolRewardMagnitude = 1e6
	MaxEpisodeTimeout      = Duration(7 * 24 * time.Hour)
	MaxRequestTimeout      = Duration(2 * time.Hour)
	MaxPythonTimeout       = Duration(5 * time.Minute) // the ToolCall activity's own cap is 10m
	MaxSearchTimeout       = Duration(5 * time.Minute)
	MaxNameLen             = 512      // model, policy_version, template
	MaxPromptText          = 16 << 10 // template_text, system_prompt: copied into every turn's input
	MaxSpecDocumentBytes   = 1 << 20
)

// Temporal's limits (server defaults, v1.32 dynamic config) and the share of
// them a spec may use. The spec is copied into every workflow and activity
// input of the job (docs/limits.md has the arithmetic):
//   - a batch starts min(in_flight.episodes, batch_size) episode workflows
//     in one workflow task, each input holding the spec and one env plan:
//     those events are one persistence transaction, and a transaction over
//     system.transactionSizeLimit (4 MiB) terminates the batch workflow;
//   - a batch's history holds one such copy per episode (plus its result)
//     and is terminated past limit.historySize.error (50 MiB);
//   - a job starts min(in_flight.batches, batches) batch workflows in one
//     workflow task, each holding the spec and every env plan;
//   - an episode's history holds a copy per Generate and per tool call for
//     up to 100 turns before it continues as new (≤ 200 copies).
const (
	temporalTransactionLimit = 4 << 20
	temporalHistoryLimit     = 50 << 20
	transactionBudget        = 3 << 20  // of the 4 MiB: room for the task's other events
	historyBudget            = 40 << 20 // of the 50 MiB: room for results and retries
	// MaxSpecBytes bounds the spec's JSON form outright: 200 copies in an
	// episode's history stay under 13 MiB.
	MaxSpecBytes = 64 << 10
	// copyOverhead is what an event adds to each copy: ids, the slot, the
	// env plan's version and data source, event attributes.
	copyOverhead = 1 << 10
	// outcomeBytes is an episode's result kept in the batch's history.
	outcomeBytes = 1 << 10
	// localChunk is how many local-policy episodes one activity plays
	// (workflows.episodesPerActivity); slotBytes is one slot's JSON at most.
	localChunk = 32
	slotBytes  = 192
)

// checkBounds adds an error for every number outside its limit.
func (s JobSpec) checkBounds(add func(path, format string, args ...any)) {
	// Lower bounds are Validate's own checks.
	atMost := func(path string, v, hi int) {
		if v > hi {
			add(path, "%d: want at most %d", v, hi)
		}
	}
	at := func(path string, d, hi Duration) {
		if d > hi {
			add(path, "%s: want at most %s", time.Duration(d), time.Duration(hi))
		}
	}
	if s.Tasks > MaxTasks {
		add("tasks", "%d: want at most %d", s.Tasks, MaxTasks)
	}
	if s.SamplesPerTask > MaxBatchSize {
		add("samples_per_task", "%d: want at most %d (a group fits in one batch)", s.SamplesPerTask, MaxBatchSize)
	}
	if s.Tasks > 0 && s.SamplesPerTask > 0 && s.Tasks <= MaxTasks && s.SamplesPerTask <= MaxBatchSize &&
		int64(s.Tasks)*int64(s.SamplesPerTask) > MaxEpisodes {
		add("tasks", "%d tasks × %d samples_per_task = %d episodes: want at most %d episodes in one job (split it into several jobs)",
			s.Tasks, s.SamplesPerTask, int64(s.Tasks)*int64(s.SamplesPerTask), MaxEpisodes)
	}
	if len(s.Envs) > MaxEnvs {
		add("envs", "%d envs: want at most %d", len(s.Envs), MaxEnvs)
	}
	atMost("max_turns", s.MaxTurns, MaxJobTurns)
	atMost("max_history", s.MaxHistory, MaxHistory)
	at("episode.timeout", s.Episode.Timeout, MaxEpisodeTimeout)
	atMost("in_flight.batches", s.InFlight.Batches, MaxBatchesInFlight)
	atMost("in_flight.episodes", s.InFlight.Episodes, MaxEpisodesInFlight)
	if o := s.Policy.OpenAI; o != nil {
		if len(o.Endpoints) > MaxEndpoints {
			add("policy.openai.endpoints", "%d endpoints: want at most %d", len(o.Endpoints), MaxEndpoints)
		}
		atMost("policy.openai.sampling.max_tokens", o.Sampling.MaxTokens, MaxTokensLimit)
		if len(o.Sampling.Stop) > MaxStops {
			add("policy.openai.sampling.stop", "%d stop strings: want at most %d", len(o.Sampling.Stop), MaxStops)
		}
		at("policy.openai.request_timeout", o.RequestTimeout, MaxRequestTimeout)
		for _, f := range []struct{ path, v string }{{"policy.openai.template_file", o.TemplateText}, {"policy.openai.system_prompt", o.SystemPrompt}} {
			if len(f.v) > MaxPromptText {
				add(f.path, "%d bytes: want at most %d (it is copied into every turn's workflow input)", len(f.v), MaxPromptText)
			}
		}
		atMost("policy.openai.concurrency", o.Concurrency, MaxConcurrency)
		for _, f := range []struct{ path, v string }{{"policy.openai.model", o.Model}, {"policy.openai.policy_version", o.PolicyVersion}, {"policy.openai.template", o.Template}} {
			if len(f.v) > MaxNameLen {
				add(f.path, "%d bytes: want at most %d", len(f.v), MaxNameLen)
			}
		}
	}
	if t := s.Tools; t != nil {
		if t.MaxToolUses != nil {
			atMost("tools.max_tool_uses", *t.MaxToolUses, MaxToolUsesLimit)
		}
		if t.Python != nil {
			at("tools.python.timeout", t.Python.Timeout, MaxPythonTimeout)
		}
		if t.Search != nil {
			at("tools.search.timeout", t.Search.Timeout, MaxSearchTimeout)
		}
		for _, r := range []struct {
			path string
			v    *float64
		}{{"tools.tool_reward", t.ToolReward}, {"tools.tool_success_reward", t.ToolSuccessReward}, {"tools.tool_error_reward", t.ToolErrorReward}} {
			if r.v != nil && !(*r.v >= -MaxToolRewardMagnitude && *r.v <= MaxToolRewardMagnitude) {
				add(r.path, "%v: want a finite reward from %g to %g", *r.v, -MaxToolRewardMagnitude, MaxToolRewardMagnitude)
			}
		}
	}
}

// checkSize refuses a spec whose copies would exceed Temporal's limits (see
// the constants above), naming the field to change.
func (s JobSpec) checkSize(add func(path, format string, args ...any)) {
	total := jsonSize(s)
	big := s.largestPart()
	if total > MaxSpecBytes {
		add(big.path, "the spec is %s as JSON (%s of it here): want at most %s; it is copied into every workflow and activity input of the job (docs/limits.md)",
			kib(total), kib(big.size), kib(MaxSpecBytes))
		return
	}
	var one, all int // env plan bytes: the largest, and every env's
	for _, e := range s.Envs {
		n := jsonSize(e.Options) + len(e.ID)
		one, all = max(one, n), all+n
	}
	episodeCopy := total + one + copyOverhead
	batchCopy := total + all + copyOverhead*max(1, len(s.Envs))
	hint := ""
	if big.size > 1<<10 {
		hint = fmt.Sprintf(", or shrink %s (%s)", big.path, kib(big.size))
	}
	perTask, copyBytes, perHistory := s.copiesPerBatch(episodeCopy, batchCopy)
	what := "episode(s)"
	if s.Policy.Kind != PolicyOpenAI {
		what = "activities of 32 episodes"
	}
	if n := perTask * copyBytes; n > transactionBudget {
		add("in_flight.episodes", "%d: a batch starts %d %s in one Temporal workflow task, each carrying a %s copy of the spec: %s, over the %s budget of Temporal's %s transaction limit (past it the batch is terminated); want in_flight.episodes at most %d%s",
			s.InFlight.Episodes, perTask, what, kib(copyBytes), kib(n), kib(transactionBudget), kib(temporalTransactionLimit), s.maxInFlight(copyBytes), hint)
	}
	if n := perHistory * (copyBytes + outcomeBytes); n > historyBudget {
		add("batch_size", "%d: a batch's history keeps %d copies of the spec (%s each) and their results: %s, over the %s budget of Temporal's %s history limit; want batch_size at most %d%s",
			s.BatchSize, perHistory, kib(copyBytes), kib(n), kib(historyBudget), kib(temporalHistoryLimit), s.maxBatch(copyBytes), hint)
	}
	if k := min(s.InFlight.Batches, max(1, s.Batches())); k*batchCopy > transactionBudget {
		add("in_flight.batches", "%d: the job starts %d batch(es) in one Temporal workflow task, each carrying a %s copy of the spec: %s, over the %s budget; want in_flight.batches at most %d%s",
			s.InFlight.Batches, k, kib(batchCopy), kib(k*batchCopy), kib(transactionBudget), max(1, transactionBudget/batchCopy), hint)
	}
}

// copiesPerBatch is how a batch copies the spec: how many copies it writes
// in its first workflow task, how large each is, and how many its history
// keeps. An openai batch starts a child workflow per episode; a local
// policy's batch an activity per chunk of episodes.
func (s JobSpec) copiesPerBatch(episodeCopy, batchCopy int) (perTask, size, perHistory int) {
	b := max(1, s.BatchSize)
	if s.Policy.Kind == PolicyOpenAI {
		return min(s.InFlight.Episodes, b), episodeCopy, b
	}
	chunks := (b + localChunk - 1) / localChunk
	return min(max(1, s.InFlight.Episodes/localChunk), chunks), batchCopy + localChunk*slotBytes, chunks
}

// maxInFlight is the largest in_flight.episodes whose first workflow task
// fits the budget.
func (s JobSpec) maxInFlight(copyBytes int) int {
	n := max(1, transactionBudget/copyBytes)
	if s.Policy.Kind != PolicyOpenAI {
		n *= localChunk
	}
	return n
}

// maxBatch is the largest batch_size whose history fits the budget, a
// multiple of samples_per_task.
func (s JobSpec) maxBatch(copyBytes int) int {
	n := historyBudget / (copyBytes + outcomeBytes)
	if s.Policy.Kind != PolicyOpenAI {
		n *= localChunk
	}
	g := max(1, s.SamplesPerTask)
	return max(g, n-n%g)
}

type part struct {
	path string
	size int
}

// largestPart names the free-form part of the spec that weighs most, the
// one to shrink.
func (s JobSpec) largestPart() part {
	parts := []part{{"envs", jsonSize(s.Envs)}}
	if o := s.Policy.OpenAI; o != nil {
		parts = append(parts, part{"policy.openai.extra_body", jsonSize(o.ExtraBody)}, part{"policy.openai.sampling.stop", jsonSize(o.Sampling.Stop)})
	}
	if s.Tools != nil {
		parts = append(parts, part{"tools.mcp", jsonSize(s.Tools.MCP)})
	}
	for i, e := range s.Envs {
		parts = append(parts, part{fmt.Sprintf("envs[%d].options", i), jsonSize(e.Options)})
	}
	return slices.MaxFunc(parts, func(a, b part) int { return a.size - b.size })
}

func jsonSize(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(b)
}

func kib(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
