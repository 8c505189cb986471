package schema

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
)

// SchemaVersion is the version of the turn and episode tables. It is written
// into every Parquet file's key/value metadata under MetaSchemaVersion and into
// every manifest entry. Adding a nullable column keeps the version; renaming,
// removing or retyping a column bumps it.
const SchemaVersion = 1

// Parquet key/value metadata keys.
const (
	MetaSchemaVersion = "quarry.schema_version" // "1"
	MetaTable         = "quarry.table"          // TableTurns or TableEpisodes
)

// Table names, as written under MetaTable.
const (
	TableTurns    = "turns"
	TableEpisodes = "episodes"
)

// Token sources (column token_source).
const (
	// TokenSourceServed: the token ids (and logprobs, when requested) are the
	// ones the inference engine returned, never re-tokenised.
	TokenSourceServed = "served"
	// TokenSourceNone: no token ids (random or oracle policy, or an endpoint
	// that does not return them); the token columns are null.
	TokenSourceNone = "none"
)

// Normalisation schemes (column norm_scheme): how the advantage column was
// computed. advantage_group is always the group-normalised episode return.
const (
	// NormReBN is Return Batch Normalisation (GEM/Oat): every turn's return
	// G normalised over every turn of the batch's non-failed episodes,
	// A = (G − mean) / (population std + 1e-9).
	NormReBN = "rebn"
	// NormGroup copies advantage_group: the episode return normalised within
	// its group (GRPO-style), broadcast to the episode's turns.
	NormGroup = "group"
	// NormNone copies the return unnormalised.
	NormNone = "none"
)

// Stop reasons (episode column stop_reason).
const (
	StopTerminated = "terminated" // the env ended the episode (solved, failed, or an invalid action)
	StopTruncated  = "truncated"  // the env's own step limit
	StopMaxTurns   = "max_turns"  // the job's max_turns cap, below the env's limit
	StopContext    = "context"    // the next prompt would not fit the model's context
)

// TurnRow is one row of the turns table: one policy action and its
// consequence (an env step or a tool call). Rows are built by the shard
// writer from the accepted turn-log records (see TurnRecord) and are the unit
// of ReBN. The struct tags are the single definition of the table: the
// parquet tag drives the Parquet files, ArrowSchema derives the Arrow schema
// from it, and the doc tag is the column's documentation in docs/schema.md.
type TurnRow struct {
	JobID      string  `parquet:"job_id,dict" doc:"Job id: the spec's id and the dataset's top folder."`
	Batch      int32   `parquet:"batch" doc:"Batch index: the shard (part-NNNNN) and the unit of ReBN normalisation."`
	Episode    int32   `parquet:"episode" doc:"Episode index within the batch."`
	Turn       int32   `parquet:"turn" doc:"Turn index within the episode, from 0: one per policy action, tool turns included."`
	Group      int32   `parquet:"group" doc:"Group index within the batch: the samples of one task (GRPO/RLOO); a group never straddles batches."`
	Sample     int32   `parquet:"sample" doc:"Sample index within the group, from 0."`
	Attempt    int32   `parquet:"attempt" doc:"Attempt number of the accepted generate record this row was built from; records of other attempts are never rows."`
	Segment    int32   `parquet:"segment" doc:"Token segment of the episode this turn belongs to: 0 unless the chat template rewrote history (see segments)."`
	EpisodeID  string  `parquet:"episode_id" doc:"Unique episode key <job>/b00042/e0007 (the episode workflow id); SkyRL trajectory id."`
	GroupID    string  `parquet:"group_id" doc:"Unique group key <job>/b00042/g0003; verl's uid for GRPO grouping."`
	TaskID     string  `parquet:"task_id" doc:"Task id (dataset row id or env task id); the samples of a group share it."`
	TaskIndex  int64   `parquet:"task_index" doc:"Index of the task in the job's task stream; task_seed derives from it."`
	DataSource string  `parquet:"data_source,dict" doc:"Dataset or env family the task came from (verl's data_source)."`
	EnvID      string  `parquet:"env_id,dict" doc:"Env id, e.g. game:GuessTheNumber-v0-easy."`
	EnvVersion string  `parquet:"env_version,dict" doc:"Version of the env's rules and embedded data; rows of different versions are never mixed silently."`
	TaskSeed   int64   `parquet:"task_seed" doc:"Seed of the task, f(job seed, task index): the env's Reset seed, shared by the samples of a group (uint64 stored bit for bit; numpy: .view('uint64'))."`
	SampleSeed int64   `parquet:"sample_seed" doc:"Seed of this sample, f(task_seed, sample index): seeds the policy (the random policy, per-sample request seeds), never the task."`
	AgentID    *string `parquet:"agent_id,dict" doc:"Acting agent in a multi-agent env; null in single-agent envs."`
	AgentRole  *string `parquet:"agent_role,dict" doc:"Role of the acting agent in a multi-agent env; null in single-agent envs."`

	PromptDelta string  `parquet:"prompt_delta" doc:"JSON array of chat messages ({role, content}) this turn's request adds after the previous turn's request and action; the whole request on the first turn of a segment; [] when the policy reads no prompt. Storage stays linear in turns."`
	PromptLen   int32   `parquet:"prompt_len" doc:"Tokens in the full prompt this turn was generated from (as served or reported by the endpoint); 0 for non-model policies."`
	Action      string  `parquet:"action" doc:"The action text: the model's response as served, or the random/oracle policy's action."`
	Observation string  `parquet:"observation" doc:"Raw observation returned for the action (env step or tool output), before observation wrappers."`
	ToolName    *string `parquet:"tool_name,dict" doc:"Tool called by this turn; null when the action stepped the env."`
	ToolCall    *string `parquet:"tool_call" doc:"The parsed tool call (JSON arguments); null when no tool was called."`
	ToolResult  *string `parquet:"tool_result" doc:"The tool's raw result; null when no tool was called."`

	Reward         float64 `parquet:"reward" doc:"Reward of this turn as given by the env or tool wrapper. Authoritative: returns and advantages derive from it."`
	Terminated     bool    `parquet:"terminated" doc:"The env ended the episode at this turn (Gym terminated)."`
	Truncated      bool    `parquet:"truncated" doc:"The episode was cut at this turn by a step limit (Gym truncated); both may be true."`
	Gamma          float64 `parquet:"gamma" doc:"Discount used for return, from the job spec."`
	Return         float64 `parquet:"return" doc:"Discounted return G_t = reward_t + gamma * G_{t+1} over the episode's turns."`
	Advantage      float64 `parquet:"advantage" doc:"Advantage by norm_scheme; by default ReBN: (G - batch mean) / (batch population std + 1e-9) over every turn of the batch's non-failed episodes."`
	AdvantageGroup float64 `parquet:"advantage_group" doc:"The episode's return (G at turn 0) normalised within its group, (G0 - group mean) / (group population std + 1e-9), broadcast to every turn; 0 for a group of one."`
	NormScheme     string  `parquet:"norm_scheme,dict" doc:"How advantage was computed: rebn, group or none."`

	PolicyModel    string  `parquet:"policy_model,dict" doc:"Model name as served, or random/oracle."`
	PolicyVersion  *string `parquet:"policy_version,dict" doc:"Label of the weights that produced the action (staleness in async RL); null when not given."`
	SamplingParams string  `parquet:"sampling_params,dict" doc:"Sampling parameters of the request as a JSON object (temperature, top_p, max_tokens, seed, extra_body fields, ...); {} for non-model policies."`
	TokenSource    string  `parquet:"token_source,dict" doc:"served: token ids are exactly those the engine returned; none: no token ids (the token columns are null)."`

	PromptTokenIDs   []int32   `parquet:"prompt_token_ids,optional,list" doc:"Served prompt token ids not already in the segment (the suffix after the previous turn's prompt and response; all of them on the first turn of a segment). Null when token_source is none."`
	ResponseTokenIDs []int32   `parquet:"response_token_ids,optional,list" doc:"Response token ids exactly as served. Null when token_source is none."`
	ResponseLogprobs []float32 `parquet:"response_logprobs,optional,list" doc:"Sampled-token logprobs exactly as served, one per response token (rollout logprobs). Null when not returned."`
	ResponseLen      int32     `parquet:"response_len" doc:"Tokens in the response (as served or reported by the endpoint); 0 for non-model policies."`
	FinishReason     string    `parquet:"finish_reason,dict" doc:"Why generation stopped, as served (stop, length, ...); empty for non-model policies."`
	ResponseID       *string   `parquet:"response_id" doc:"The id the endpoint gave the accepted response (chat completion id), to match a row with server logs; null for non-model policies."`

	GenerationMs float64 `parquet:"generation_ms" doc:"Latency of the accepted generation in milliseconds (the inference call, or the local policy)."`
	EnvMs        float64 `parquet:"env_ms" doc:"Latency of the accepted env step or tool call in milliseconds."`
	ErrorClass   *string `parquet:"error_class,dict" doc:"Class of a non-fatal problem the turn recorded (e.g. an unparseable action penalised by the env, a tool timeout shown as an observation); null when none. Infrastructure faults never reach a row."`
	GroundTruth  *string `parquet:"ground_truth" doc:"Reference answer of the task, when the env has one (datasets); null otherwise."`
	ExtraInfo    *string `parquet:"extra_info" doc:"JSON object with the env's step info and any other per-turn data; null when empty."`

	FailedAttempts *int32  `parquet:"failed_attempts,optional" doc:"Attempts at this turn's generation that failed before the accepted one: requests the inference client retried (429, 5xx, timeouts, dropped connections, bad answers) and earlier runs of the generate activity that ended without a result; 0 when the first try was accepted; null for non-model policies and turn logs older than this column."`
	LastFault      *string `parquet:"last_fault,optional,dict" doc:"Class of the last failed attempt counted by failed_attempts (RateLimited, ServerError, Timeout, Unreachable, ConnectionFailed, BadAnswer, ActivityRetry, ...); null when failed_attempts is 0 or null."`
}

// TurnSpan locates one turn's response tokens in a token sequence.
type TurnSpan struct {
	Turn  int32 `parquet:"turn" doc:"Turn index."`
	Start int32 `parquet:"start" doc:"Offset of the turn's first response token."`
	End   int32 `parquet:"end" doc:"Offset just past its last response token (exclusive)."`
}

// Segment is one contiguous token sequence of an episode. An episode has
// several only when the chat template rewrites history (Qwen3 drops earlier
// <think> blocks): each segment is then a context of its own, never stitched.
type Segment struct {
	Segment   int32      `parquet:"segment" doc:"Segment index, from 0."`
	TokenIDs  []int32    `parquet:"token_ids,list" doc:"The segment's token ids: prompts and responses as served."`
	LossMask  []int8     `parquet:"loss_mask,list" doc:"1 on response tokens the policy generated, 0 elsewhere; same length as token_ids."`
	Logprobs  []float32  `parquet:"logprobs,optional,list" doc:"Served logprob of each response token, 0 elsewhere; null when not returned."`
	TurnSpans []TurnSpan `parquet:"turn_spans,list" doc:"Response span of each turn in this segment."`
}

// EpisodeRow is one row of the episodes table: one played episode, with its
// totals and the full token sequence stored once.
type EpisodeRow struct {
	JobID         string  `parquet:"job_id,dict" doc:"Job id."`
	Batch         int32   `parquet:"batch" doc:"Batch index (the shard)."`
	Episode       int32   `parquet:"episode" doc:"Episode index within the batch."`
	Group         int32   `parquet:"group" doc:"Group index within the batch."`
	Sample        int32   `parquet:"sample" doc:"Sample index within the group."`
	EpisodeID     string  `parquet:"episode_id" doc:"Unique episode key <job>/b00042/e0007; joins with the turns table."`
	GroupID       string  `parquet:"group_id" doc:"Unique group key <job>/b00042/g0003."`
	TaskID        string  `parquet:"task_id" doc:"Task id; the samples of a group share it."`
	TaskIndex     int64   `parquet:"task_index" doc:"Index of the task in the job's task stream."`
	DataSource    string  `parquet:"data_source,dict" doc:"Dataset or env family the task came from."`
	EnvID         string  `parquet:"env_id,dict" doc:"Env id."`
	EnvVersion    string  `parquet:"env_version,dict" doc:"Version of the env's rules and embedded data."`
	TaskSeed      int64   `parquet:"task_seed" doc:"Seed of the task: the env's Reset seed."`
	SampleSeed    int64   `parquet:"sample_seed" doc:"Seed of this sample: seeds the policy, never the task."`
	PolicyModel   string  `parquet:"policy_model,dict" doc:"Model name as served, or random/oracle."`
	PolicyVersion *string `parquet:"policy_version,dict" doc:"Weights label of the episode's first turn (turn rows carry each turn's); null when not given."`
	// PolicyVersions counts the distinct labels of the episode's turns.
	PolicyVersions int32 `parquet:"policy_versions" doc:"Distinct policy versions among the episode's turns: more than 1 is a partial rollout that spans a weight update (online jobs); 0 when no turn carries a label."`

	NumTurns           int32   `parquet:"num_turns" doc:"Turns played (policy actions, tool turns included)."`
	NumToolTurns       int32   `parquet:"num_tool_turns" doc:"Turns that called a tool instead of stepping the env."`
	TotalReward        float64 `parquet:"total_reward" doc:"Sum of the turns' rewards, undiscounted."`
	Gamma              float64 `parquet:"gamma" doc:"Discount used for return."`
	Return             float64 `parquet:"return" doc:"Discounted return of the episode: G at turn 0."`
	AdvantageGroup     float64 `parquet:"advantage_group" doc:"return normalised within the group over its effective members (same value as the turns' advantage_group); 0 for a group of one."`
	Success            bool    `parquet:"success" doc:"The env reported the task solved."`
	Terminated         bool    `parquet:"terminated" doc:"The last turn's terminated flag."`
	Truncated          bool    `parquet:"truncated" doc:"The last turn's truncated flag."`
	StopReason         string  `parquet:"stop_reason,dict" doc:"Why the episode ended: terminated, truncated, max_turns or context."`
	GroupSize          int32   `parquet:"group_size" doc:"Samples per task in the spec."`
	GroupSizeEffective int32   `parquet:"group_size_effective" doc:"Members of this group present in the shard (failed members are in _failures/, not counted)."`
	Retries            int32   `parquet:"retries" doc:"Attempts beyond the first over the episode's turns (retried generations and steps)."`
	PromptTokens       int64   `parquet:"prompt_tokens" doc:"Sum of the turns' prompt_len: prompt tokens the endpoint processed."`
	ResponseTokens     int64   `parquet:"response_tokens" doc:"Sum of the turns' response_len."`
	GenerationMs       float64 `parquet:"generation_ms" doc:"Sum of the turns' generation_ms."`
	EnvMs              float64 `parquet:"env_ms" doc:"Sum of the turns' env_ms."`

	TokenSource string     `parquet:"token_source,dict" doc:"served or none, as in the turns table."`
	NumSegments int32      `parquet:"num_segments" doc:"Token segments: 1 normally, more when the chat template rewrote history, 0 when token_source is none."`
	TokenIDs    []int32    `parquet:"token_ids,optional,list" doc:"The episode's full token sequence (prompts, responses, observations) as served, when it has exactly one segment; null when num_segments is not 1 (see segments)."`
	LossMask    []int8     `parquet:"loss_mask,optional,list" doc:"1 on response tokens the policy generated, 0 on prompt and observation tokens; aligned with token_ids (verl response_mask, TRL env_mask). Null with token_ids."`
	Logprobs    []float32  `parquet:"logprobs,optional,list" doc:"Served logprob of each response token, 0 elsewhere; aligned with token_ids. Null with token_ids or when logprobs were not returned."`
	TurnSpans   []TurnSpan `parquet:"turn_spans,optional,list" doc:"Response span [start, end) of each turn in token_ids (OpenRLHF action_ranges). Null with token_ids."`
	Segments    []Segment  `parquet:"segments,optional,list" doc:"The sequence split into segments when the chat template rewrote history (num_segments > 1); null otherwise. Train each segment as its own sequence."`

	GroundTruth *string `parquet:"ground_truth" doc:"Reference answer of the task, when the env has one; null otherwise."`
	ExtraInfo   *string `parquet:"extra_info" doc:"JSON object with task-level metadata (dataset fields, env info at the end); null when empty."`
}

// EpisodeID is the unique key of an episode, equal to its workflow id.
func EpisodeID(job string, batch, episode int) string {
	return fmt.Sprintf("%s/b%05d/e%04d", job, batch, episode)
}

// GroupID is the unique key of a group.
func GroupID(job string, batch, group int) string {
	return fmt.Sprintf("%s/b%05d/g%04d", job, batch, group)
}

func cmpTurns(a, b *TurnRow) int {
	return cmp.Or(cmp.Compare(a.JobID, b.JobID), cmp.Compare(a.Batch, b.Batch),
		cmp.Compare(a.Episode, b.Episode), cmp.Compare(a.Turn, b.Turn))
}

func cmpEpisodes(a, b *EpisodeRow) int {
	return cmp.Or(cmp.Compare(a.JobID, b.JobID), cmp.Compare(a.Batch, b.Batch),
		cmp.Compare(a.Episode, b.Episode))
}

// SortTurns orders rows by (job_id, batch, episode, turn), the order of every
// turns file, so the same rows always give the same bytes.
func SortTurns(rows []TurnRow) {
	slices.SortStableFunc(rows, func(a, b TurnRow) int { return cmpTurns(&a, &b) })
}

// SortEpisodes orders rows by (job_id, batch, episode).
func SortEpisodes(rows []EpisodeRow) {
	slices.SortStableFunc(rows, func(a, b EpisodeRow) int { return cmpEpisodes(&a, &b) })
}

// ErrInvalidRow is wrapped by every row validation error.
var ErrInvalidRow = errors.New("invalid row")

func rowErr(table string, i int, format string, args ...any) error {
	return fmt.Errorf("%w: %s row %d: %s", ErrInvalidRow, table, i, fmt.Sprintf(format, args...))
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func validJSON(s *string) bool { return s == nil || json.Valid([]byte(*s)) }

func validNorm(s string) bool { return s == NormReBN || s == NormGroup || s == NormNone }

// Validate checks what a reader relies on: non-negative ids, finite numbers,
// known enum values, valid JSON columns, token columns consistent with
// token_source.
func (r *TurnRow) Validate() error { return r.validate(0) }

func (r *TurnRow) validate(i int) error {
	bad := func(format string, args ...any) error { return rowErr(TableTurns, i, format, args...) }
	switch {
	case r.JobID == "":
		return bad("job_id is empty")
	case r.Batch < 0 || r.Episode < 0 || r.Turn < 0 || r.Group < 0 || r.Sample < 0 || r.Attempt < 0 || r.Segment < 0:
		return bad("negative id in (batch %d, episode %d, turn %d, group %d, sample %d, attempt %d, segment %d)",
			r.Batch, r.Episode, r.Turn, r.Group, r.Sample, r.Attempt, r.Segment)
	case r.PromptLen < 0 || r.ResponseLen < 0:
		return bad("negative token count")
	case !finite(r.Reward, r.Gamma, r.Return, r.Advantage, r.AdvantageGroup, r.GenerationMs, r.EnvMs):
		return bad("non-finite reward, gamma, return, advantage or latency")
	case !validNorm(r.NormScheme):
		return bad("norm_scheme %q: want %s, %s or %s", r.NormScheme, NormReBN, NormGroup, NormNone)
	case !json.Valid([]byte(r.PromptDelta)):
		return bad("prompt_delta is not JSON")
	case !json.Valid([]byte(r.SamplingParams)):
		return bad("sampling_params is not JSON")
	case !validJSON(r.ToolCall) || !validJSON(r.ExtraInfo):
		return bad("tool_call or extra_info is not JSON")
	case r.FailedAttempts != nil && *r.FailedAttempts < 0:
		return bad("negative failed_attempts")
	case r.LastFault != nil && (r.FailedAttempts == nil || *r.FailedAttempts == 0):
		return bad("last_fault %q without failed attempts", *r.LastFault)
	}
	switch r.TokenSource {
	case TokenSourceNone:
		if r.PromptTokenIDs != nil || r.ResponseTokenIDs != nil || r.ResponseLogprobs != nil {
			return bad("token_source none with token columns set")
		}
	case TokenSourceServed:
		if r.ResponseTokenIDs == nil {
			return bad("token_source served without response_token_ids")
		}
		if r.ResponseLogprobs != nil && len(r.ResponseLogprobs) != len(r.ResponseTokenIDs) {
			return bad("%d logprobs for %d response tokens", len(r.ResponseLogprobs), len(r.ResponseTokenIDs))
		}
	default:
		return bad("token_source %q: want %s or %s", r.TokenSource, TokenSourceServed, TokenSourceNone)
	}
	return nil
}

// Validate checks ids, numbers, enum values, JSON columns and the token
// sequence: aligned lengths, a 0/1 loss mask, spans inside the sequence, and
// either one sequence or segments, never both.
func (r *EpisodeRow) Validate() error { return r.validate(0) }

func (r *EpisodeRow) validate(i int) error {
	bad := func(format string, args ...any) error { return rowErr(TableEpisodes, i, format, args...) }
	switch {
	case r.JobID == "":
		return bad("job_id is empty")
	case r.Batch < 0 || r.Episode < 0 || r.Group < 0 || r.Sample < 0:
		return bad("negative id")
	case r.NumTurns < 1 || r.NumToolTurns < 0 || r.NumToolTurns > r.NumTurns:
		return bad("num_turns %d, num_tool_turns %d", r.NumTurns, r.NumToolTurns)
	case r.GroupSizeEffective < 1 || r.GroupSizeEffective > r.GroupSize:
		return bad("group_size_effective %d of group_size %d", r.GroupSizeEffective, r.GroupSize)
	case r.Retries < 0 || r.PromptTokens < 0 || r.ResponseTokens < 0:
		return bad("negative count")
	case !finite(r.TotalReward, r.Gamma, r.Return, r.AdvantageGroup, r.GenerationMs, r.EnvMs):
		return bad("non-finite reward, gamma, return, advantage or latency")
	case !validJSON(r.ExtraInfo):
		return bad("extra_info is not JSON")
	}
	switch r.StopReason {
	case StopTerminated, StopTruncated, StopMaxTurns, StopContext:
	default:
		return bad("stop_reason %q: want %s, %s, %s or %s", r.StopReason, StopTerminated, StopTruncated, StopMaxTurns, StopContext)
	}
	switch r.TokenSource {
	case TokenSourceNone:
		if r.NumSegments != 0 || r.TokenIDs != nil || r.LossMask != nil || r.Logprobs != nil || r.TurnSpans != nil || r.Segments != nil {
			return bad("token_source none with a token sequence")
		}
		return nil
	case TokenSourceServed:
	default:
		return bad("token_source %q: want %s or %s", r.TokenSource, TokenSourceServed, TokenSourceNone)
	}
	if r.NumSegments == 1 {
		if r.Segments != nil {
			return bad("one segment but segments is set: the sequence goes in token_ids")
		}
		if err := checkSequence(r.TokenIDs, r.LossMask, r.Logprobs, r.TurnSpans); err != nil {
			return bad("%v", err)
		}
		return nil
	}
	if r.TokenIDs != nil || r.LossMask != nil || r.Logprobs != nil || r.TurnSpans != nil {
		return bad("%d segments with token_ids set: a rewritten history is never stitched into one sequence", r.NumSegments)
	}
	if r.NumSegments < 2 || int(r.NumSegments) != len(r.Segments) {
		return bad("num_segments %d with %d segments", r.NumSegments, len(r.Segments))
	}
	for j, s := range r.Segments {
		if s.Segment != int32(j) {
			return bad("segment %d has index %d", j, s.Segment)
		}
		if err := checkSequence(s.TokenIDs, s.LossMask, s.Logprobs, s.TurnSpans); err != nil {
			return bad("segment %d: %v", j, err)
		}
	}
	return nil
}

func checkSequence(ids []int32, mask []int8, logprobs []float32, spans []TurnSpan) error {
	if ids == nil || mask == nil || spans == nil {
		return errors.New("token_ids, loss_mask and turn_spans are required with served tokens")
	}
	if len(mask) != len(ids) || (logprobs != nil && len(logprobs) != len(ids)) {
		return fmt.Errorf("%d token ids, %d mask values, %d logprobs", len(ids), len(mask), len(logprobs))
	}
	for k, m := range mask {
		if m != 0 && m != 1 {
			return fmt.Errorf("loss_mask[%d] = %d, want 0 or 1", k, m)
		}
	}
	prevEnd := int32(0)
	for k, s := range spans {
		if s.Start < prevEnd || s.End < s.Start || int(s.End) > len(ids) {
			return fmt.Errorf("turn span %d [%d, %d) is out of order or outside %d tokens", k, s.Start, s.End, len(ids))
		}
		prevEnd = s.End
	}
	return nil
}

// AssembleEpisode fills the columns of ep that follow from its turns (one
// episode's rows, in turn order): the token sequence (token_source,
// num_segments, token_ids, loss_mask, logprobs, turn_spans or segments),
// num_turns, num_tool_turns, the token and latency totals, and the last
// turn's terminated and truncated flags. Per segment, the sequence is each
// turn's prompt_token_ids then response_token_ids; a turn's prompt_len must
// equal the sequence length up to its response, so a prompt that does not
// extend the segment (re-tokenisation drift, a rewritten history) is an error
// unless the turn starts a new segment. Logprobs are kept for a segment only
// when every turn in it has them.
func AssembleEpisode(ep *EpisodeRow, turns []TurnRow) error {
	if len(turns) == 0 {
		return fmt.Errorf("assemble episode %s: no turns", ep.EpisodeID)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("assemble episode %s: %s", ep.EpisodeID, fmt.Sprintf(format, args...))
	}
	ep.NumTurns, ep.NumToolTurns, ep.NumSegments = 0, 0, 0
	ep.PromptTokens, ep.ResponseTokens, ep.GenerationMs, ep.EnvMs = 0, 0, 0, 0
	ep.TokenIDs, ep.LossMask, ep.Logprobs, ep.TurnSpans, ep.Segments = nil, nil, nil, nil, nil
	source := turns[0].TokenSource
	var segs []Segment
	cur := Segment{Segment: -1}
	hasLogprobs := true
	flush := func() {
		if cur.Segment >= 0 {
			if !hasLogprobs {
				cur.Logprobs = nil
			}
			segs = append(segs, cur)
		}
	}
	for i := range turns {
		t := &turns[i]
		if t.Turn != int32(i) {
			return bad("turn %d at position %d", t.Turn, i)
		}
		if t.TokenSource != source {
			return bad("turn %d has token_source %q, turn 0 %q", i, t.TokenSource, source)
		}
		ep.NumTurns++
		if t.ToolName != nil {
			ep.NumToolTurns++
		}
		ep.PromptTokens += int64(t.PromptLen)
		ep.ResponseTokens += int64(t.ResponseLen)
		ep.GenerationMs += t.GenerationMs
		ep.EnvMs += t.EnvMs
		if source != TokenSourceServed {
			continue
		}
		if t.Segment != cur.Segment {
			if t.Segment != cur.Segment+1 {
				return bad("turn %d is in segment %d after segment %d", i, t.Segment, cur.Segment)
			}
			flush()
			cur, hasLogprobs = Segment{Segment: t.Segment, TokenIDs: []int32{}, LossMask: []int8{}, Logprobs: []float32{}, TurnSpans: []TurnSpan{}}, true
		}
		cur.TokenIDs = append(cur.TokenIDs, t.PromptTokenIDs...)
		if int(t.PromptLen) != len(cur.TokenIDs) {
			return bad("turn %d: prompt_len %d, but the segment holds %d tokens up to its response: start a new segment when the prompt does not extend the previous one", i, t.PromptLen, len(cur.TokenIDs))
		}
		start := len(cur.TokenIDs)
		cur.TokenIDs = append(cur.TokenIDs, t.ResponseTokenIDs...)
		cur.LossMask = append(cur.LossMask, make([]int8, len(t.PromptTokenIDs))...)
		for range t.ResponseTokenIDs {
			cur.LossMask = append(cur.LossMask, 1)
		}
		if t.ResponseLogprobs == nil || len(t.ResponseLogprobs) != len(t.ResponseTokenIDs) {
			hasLogprobs = false
		} else {
			cur.Logprobs = append(cur.Logprobs, make([]float32, len(t.PromptTokenIDs))...)
			cur.Logprobs = append(cur.Logprobs, t.ResponseLogprobs...)
		}
		cur.TurnSpans = append(cur.TurnSpans, TurnSpan{Turn: t.Turn, Start: int32(start), End: int32(len(cur.TokenIDs))})
	}
	last := &turns[len(turns)-1]
	ep.Terminated, ep.Truncated = last.Terminated, last.Truncated
	ep.TokenSource = source
	if source != TokenSourceServed {
		return nil
	}
	flush()
	ep.NumSegments = int32(len(segs))
	if len(segs) == 1 {
		s := segs[0]
		ep.TokenIDs, ep.LossMask, ep.Logprobs, ep.TurnSpans = s.TokenIDs, s.LossMask, s.Logprobs, s.TurnSpans
	} else {
		ep.Segments = segs
	}
	return nil
}
