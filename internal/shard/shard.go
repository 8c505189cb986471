// Package shard commits one batch of episodes to the dataset exactly once:
// it reads the accepted turns from the turn log, builds the turn and
// episode rows with returns and advantages, and writes
//
//	<job>/shards/part-NNNNN.turns.parquet
//	<job>/shards/part-NNNNN.episodes.parquet
//	<job>/_failures/part-NNNNN.jsonl        (only when episodes failed)
//	<job>/_manifest/part-NNNNN.json         (the commit record, last)
//
// Write is meant to run in an activity that Temporal may retry at any
// point, even while an earlier attempt still runs. It is safe because every
// object it writes is a pure function of its Input and the accepted turn-log
// records: a retry rewrites the same bytes, and the manifest — written only
// after every file it lists — is what makes the shard exist. A retry that
// finds the manifest returns it without writing anything.
package shard

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// Input is one batch to commit: the ids and metadata of its episodes, and
// where the turn log holds each one's accepted turns.
type Input struct {
	Job        string
	Batch      int
	Gamma      float64 // discount of the return column, 0 ≤ gamma ≤ 1
	NormScheme string  // schema.NormReBN, NormGroup or NormNone
	Episodes   []Episode
	// Policy, for an online job, is the manifest's account of the policy
	// versions of the batch's turns.
	Policy *schema.ManifestPolicy
}

// Episode is one episode of the batch as the workflow knows it: ids, task
// and env metadata for the rows, and either the head ref of its accepted
// turns or, for an episode that failed for good, its Failure.
type Episode struct {
	Episode    int    // index within the batch
	Group      int    // group index within the batch
	Sample     int    // sample index within the group, 0 ≤ Sample < GroupSize
	GroupSize  int    // samples per task in the spec
	TaskID     string // shared by the samples of a group
	TaskIndex  int64
	TaskSeed   int64
	SampleSeed int64
	DataSource string
	EnvID      string
	EnvVersion string // the act records' env version; one per env id in a batch
	// GroundTruth is the task's reference answer, when it has one.
	GroundTruth *string
	// ExtraInfo is the episode row's extra_info: a JSON object of
	// task-level metadata, or nil.
	ExtraInfo *string
	// StopReason is why the episode ended (schema.StopTerminated, …). When
	// empty it is derived from the last turn's flags: terminated, else
	// truncated; an episode stopped by a cap (max_turns, context) must say so.
	StopReason string

	// Head is the ref of the episode's accepted turns: its last accepted act
	// record (records linked by Gen and Prev) or its accepted bundle.
	Head schema.TurnRef
	// Failure, when set, marks an episode that failed for good: it goes to
	// the failures file, never to a shard, and Head is not read.
	Failure *Failure
}

// Failure describes an episode that failed for good.
type Failure struct {
	ErrorClass string // as classified at the activity boundary, e.g. "EpisodeTimeout"
	Attempts   int    // attempts made before giving up
	Turns      int    // turns accepted before the failure
	Message    string
}

// Step names a point between the writes of a commit, where a hook installed
// with WithStepHook runs.
type Step string

const (
	AfterTurns     Step = "after-turns"     // the turns file is stored, the episodes file not yet
	AfterEpisodes  Step = "after-episodes"  // the episodes file is stored
	AfterFailures  Step = "after-failures"  // the failures file is stored (only when episodes failed)
	BeforeManifest Step = "before-manifest" // every data file is stored, the manifest not yet
)

// Reasons a batch cannot be committed that no retry can fix; anything else
// (a store outage, a cancelled context) may succeed on retry. An episode
// whose accepted turns cannot be read or do not make valid rows never
// stops a commit: it goes to the failures file with one of the classes
// below, and the rest of the batch is committed.
var (
	// ErrInvalidInput: the Input itself is inconsistent (duplicate ids, a
	// group with two tasks, an unknown norm scheme, …).
	ErrInvalidInput = errors.New("invalid shard input")
	// ErrInvalidTurns: the rows built do not make a valid shard. Episodes
	// are checked one by one first, so this means a bug in the writer.
	ErrInvalidTurns = errors.New("accepted turns do not make valid rows")
)

// Error classes of the episodes Write itself records as failed.
const (
	// ClassInvalidTurns: the episode's accepted turns do not make valid
	// rows (an act record of another env version, token columns that do
	// not match token_source, a prompt that does not extend its token
	// segment, a stop reason the last turn contradicts, …).
	ClassInvalidTurns = "InvalidTurns"
	// ClassUnreadableTurns: an accepted record is missing, stale, corrupt
	// or does not link into the episode (a turnlog.Error).
	ClassUnreadableTurns = "UnreadableTurns"
)

// An Option adjusts Write.
type Option func(*options)

type options struct {
	hook        func(Step) error
	concurrency int
}

// WithStepHook calls h at each Step; an error from h stops the commit there
// and is returned (wrapped). It exists so tests can stop the writer between
// its writes, as a crash would.
func WithStepHook(h func(Step) error) Option { return func(o *options) { o.hook = h } }

// WithConcurrency sets how many episodes are read from the turn log at once
// (8 by default). Each episode's records are read one after another.
func WithConcurrency(n int) Option {
	return func(o *options) {
		if n > 0 {
			o.concurrency = n
		}
	}
}

// Write commits in's batch and returns its manifest. If the batch's
// manifest exists already (a retried activity), Write reads and returns it
// and writes nothing. Otherwise it reads every non-failed episode's accepted
// turns, builds the rows (schema.AssembleEpisode, schema.ApplyReturns), and
// writes the turns file, the episodes file, the failures file when
// episodes failed, and the manifest last. Files are written whole, and the
// same Input over the same turn log always gives the same bytes, so a retry
// after a failure at any point commits exactly what the first attempt would
// have.
func Write(ctx context.Context, store blob.Store, in Input, opts ...Option) (schema.Manifest, error) {
	o := options{concurrency: 8}
	for _, opt := range opts {
		opt(&o)
	}
	if err := in.validate(); err != nil {
		return schema.Manifest{}, err
	}
	keys := schema.ShardKeys(in.Job, in.Batch)
	if m, ok, err := readManifest(ctx, store, keys.Manifest); err != nil {
		return schema.Manifest{}, err
	} else if ok {
		if m.Job != in.Job || m.Batch != in.Batch {
			return schema.Manifest{}, fmt.Errorf("shard %s: the manifest found describes job %q batch %d", keys.Manifest, m.Job, m.Batch)
		}
		return m, nil
	}

	in.Episodes = slices.Clone(in.Episodes) // failures found below are marked on the copy
	turns, err := readTurns(ctx, store, &in, o.concurrency)
	if err != nil {
		return schema.Manifest{}, err
	}
	turnRows, episodeRows, failures := buildRows(&in, turns)
	stats, err := schema.ApplyReturns(turnRows, episodeRows, in.Gamma, in.NormScheme)
	if err != nil {
		return schema.Manifest{}, fmt.Errorf("shard %s: %w: %w", keys.Manifest, ErrInvalidTurns, err)
	}
	tf, ef, err := encodeFiles(keys, turnRows, episodeRows)
	if err != nil {
		return schema.Manifest{}, err
	}
	m := schema.Manifest{
		SchemaVersion: schema.SchemaVersion,
		Job:           in.Job,
		Batch:         in.Batch,
		Files: []schema.ManifestFile{
			schema.FileEntry(in.Job, keys.Turns, tf.Bytes(), int64(len(turnRows))),
			schema.FileEntry(in.Job, keys.Episodes, ef.Bytes(), int64(len(episodeRows))),
		},
		TurnRows:       int64(len(turnRows)),
		EpisodeRows:    int64(len(episodeRows)),
		FailedEpisodes: int64(len(failures)),
		Returns:        stats,
		Gamma:          in.Gamma,
		NormScheme:     in.NormScheme,
		EnvVersions:    envVersions(&in),
		Policy:         in.Policy,
	}

	step := func(s Step) error {
		if o.hook == nil {
			return nil
		}
		if err := o.hook(s); err != nil {
			return fmt.Errorf("shard %s: stopped %s: %w", keys.Manifest, s, err)
		}
		return nil
	}
	put := func(key string, data []byte, s Step) error {
		if err := blob.PutBytes(ctx, store, key, data); err != nil {
			return fmt.Errorf("write shard: %w", err)
		}
		return step(s)
	}
	if err := put(keys.Turns, tf.Bytes(), AfterTurns); err != nil {
		return schema.Manifest{}, err
	}
	if err := put(keys.Episodes, ef.Bytes(), AfterEpisodes); err != nil {
		return schema.Manifest{}, err
	}
	if len(failures) > 0 {
		ff, err := schema.MarshalFailures(failures)
		if err != nil {
			return schema.Manifest{}, err
		}
		m.Files = append(m.Files, schema.FileEntry(in.Job, keys.Failures, ff, int64(len(failures))))
		if err := put(keys.Failures, ff, AfterFailures); err != nil {
			return schema.Manifest{}, err
		}
	}
	if err := step(BeforeManifest); err != nil {
		return schema.Manifest{}, err
	}
	mb, err := schema.MarshalManifest(&m)
	if err != nil {
		return schema.Manifest{}, err
	}
	if err := blob.PutBytes(ctx, store, keys.Manifest, mb); err != nil {
		return schema.Manifest{}, fmt.Errorf("commit shard: %w", err)
	}
	return m, nil
}

// encodeFiles encodes the turns and the episodes files at once, one
// goroutine each (they share nothing, and each is mostly zstd), and
// reports the turns file's error first when both fail, so the error does
// not depend on which finished first.
func encodeFiles(keys schema.Shard, turnRows []schema.TurnRow, episodeRows []schema.EpisodeRow) (tf, ef *bytes.Buffer, err error) {
	tf, ef = new(bytes.Buffer), new(bytes.Buffer)
	done := make(chan error, 1)
	go func() { done <- schema.WriteEpisodes(ef, episodeRows) }()
	terr := schema.WriteTurns(tf, turnRows)
	eerr := <-done
	if terr != nil {
		return nil, nil, fmt.Errorf("shard %s: %w: %w", keys.Turns, ErrInvalidTurns, terr)
	}
	if eerr != nil {
		return nil, nil, fmt.Errorf("shard %s: %w: %w", keys.Episodes, ErrInvalidTurns, eerr)
	}
	return tf, ef, nil
}

func readManifest(ctx context.Context, store blob.Store, key string) (schema.Manifest, bool, error) {
	data, err := blob.ReadAll(ctx, store, key)
	if errors.Is(err, blob.ErrNotExist) {
		return schema.Manifest{}, false, nil
	}
	if err != nil {
		return schema.Manifest{}, false, fmt.Errorf("read manifest: %w", err)
	}
	m, err := schema.UnmarshalManifest(data)
	if err != nil {
		return schema.Manifest{}, false, fmt.Errorf("%s: %w", key, err)
	}
	return m, true, nil
}

// readTurns reads every non-failed episode's accepted turns, several
// episodes at a time; result i belongs to in.Episodes[i].
func readTurns(ctx context.Context, store blob.Store, in *Input, concurrency int) ([][]turnlog.Turn, error) {
	out := make([][]turnlog.Turn, len(in.Episodes))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(concurrency)
	for i := range in.Episodes {
		e := &in.Episodes[i]
		if e.Failure != nil {
			continue
		}
		g.Go(func() error {
			turns, err := turnlog.ReadEpisode(ctx, store, e.Head)
			if te, ok := errors.AsType[*turnlog.Error](err); ok {
				// No retry can make this record readable: the episode
				// fails, the batch does not.
				e.Failure = &Failure{ErrorClass: ClassUnreadableTurns, Attempts: 1, Message: te.Error()}
				return nil
			}
			if err != nil {
				return fmt.Errorf("shard %s: episode %s: %w", schema.ShardKeys(in.Job, in.Batch).Manifest,
					schema.EpisodeID(in.Job, in.Batch, e.Episode), err)
			}
			out[i] = turns
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// buildRows turns the accepted records into rows (returns and advantages
// not yet applied) and the failed episodes into failure records. An episode
// whose turns do not make valid rows becomes a failure record of class
// ClassInvalidTurns.
func buildRows(in *Input, turns [][]turnlog.Turn) ([]schema.TurnRow, []schema.EpisodeRow, []schema.Failure) {
	var turnRows []schema.TurnRow
	var episodeRows []schema.EpisodeRow
	var failures []schema.Failure
	for i := range in.Episodes {
		e := &in.Episodes[i]
		id := schema.EpisodeID(in.Job, in.Batch, e.Episode)
		f := e.Failure
		if f == nil {
			rows, ep, err := episodeRows1(in, e, id, turns[i])
			if err == nil {
				turnRows = append(turnRows, rows...)
				episodeRows = append(episodeRows, ep)
				continue
			}
			f = &Failure{ErrorClass: ClassInvalidTurns, Attempts: 1, Turns: len(turns[i]), Message: err.Error()}
			e.Failure = f
		}
		failures = append(failures, schema.Failure{
			Job: in.Job, Batch: in.Batch, Episode: e.Episode, Group: e.Group, Sample: e.Sample, EpisodeID: id,
			TaskID: e.TaskID, TaskIndex: e.TaskIndex, EnvID: e.EnvID, EnvVersion: e.EnvVersion,
			ErrorClass: f.ErrorClass, Attempts: f.Attempts, Turns: f.Turns, Message: f.Message,
		})
	}
	return turnRows, episodeRows, failures
}

// episodeRows1 builds one episode's rows and checks them as the Parquet
// writer will, so a bad episode is caught alone.
func episodeRows1(in *Input, e *Episode, id string, ts []turnlog.Turn) ([]schema.TurnRow, schema.EpisodeRow, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("shard %s: episode %s: %w: %s", schema.ShardKeys(in.Job, in.Batch).Manifest, id, ErrInvalidTurns, fmt.Sprintf(format, args...))
	}
	if len(ts) == 0 {
		return nil, schema.EpisodeRow{}, bad("no turns")
	}
	if e.GroundTruth == nil {
		if gt := groundTruth(ts); gt != nil {
			withTruth := *e
			withTruth.GroundTruth = gt
			e = &withTruth
		}
	}
	rows := make([]schema.TurnRow, len(ts))
	retries := 0
	for k, t := range ts {
		if v := t.Act.EnvVersion; v != "" && v != e.EnvVersion {
			return nil, schema.EpisodeRow{}, bad("turn %d was played on %s version %q, the episode on %q", k, e.EnvID, v, e.EnvVersion)
		}
		rows[k] = turnRow(in, e, id, t)
		retries += t.Gen.Attempt - 1 + t.Act.Attempt - 1
	}
	if _, _, _, attempt, err := schema.ParseBundleKey(e.Head.Key); err == nil {
		retries = attempt - 1 // one attempt played every turn
	}
	first, last := &ts[0], &ts[len(ts)-1]
	stop := e.StopReason
	switch {
	case stop == "" && last.Act.Terminated:
		stop = schema.StopTerminated
	case stop == "" && last.Act.Truncated:
		stop = schema.StopTruncated
	case stop == "":
		return nil, schema.EpisodeRow{}, bad("the last turn neither terminated nor truncated: give the stop reason (max_turns, context)")
	case stop == schema.StopTerminated && !last.Act.Terminated, stop == schema.StopTruncated && !last.Act.Truncated:
		return nil, schema.EpisodeRow{}, bad("stop reason %s, but the last turn has terminated=%v truncated=%v", stop, last.Act.Terminated, last.Act.Truncated)
	}
	if stop == schema.StopContext && !last.Act.Terminated {
		// The next prompt did not fit: the episode was cut by a limit, so
		// its last turn is truncated (the act record was written before
		// anyone knew) and trainers bootstrap from it.
		rows[len(rows)-1].Truncated = true
	}
	ep := schema.EpisodeRow{
		JobID: in.Job, Batch: int32(in.Batch), Episode: int32(e.Episode), Group: int32(e.Group), Sample: int32(e.Sample),
		EpisodeID: id, GroupID: schema.GroupID(in.Job, in.Batch, e.Group), TaskID: e.TaskID, TaskIndex: e.TaskIndex,
		DataSource: e.DataSource, EnvID: e.EnvID, EnvVersion: e.EnvVersion, TaskSeed: e.TaskSeed, SampleSeed: e.SampleSeed,
		PolicyModel: first.Gen.PolicyModel, PolicyVersion: first.Gen.PolicyVersion,
		Success: last.Act.Success, StopReason: stop, GroupSize: int32(e.GroupSize), Retries: int32(retries),
		GroundTruth: e.GroundTruth, ExtraInfo: e.ExtraInfo,
	}
	ep.PolicyVersions = distinctVersions(ts)
	if err := schema.AssembleEpisode(&ep, rows); err != nil {
		return nil, schema.EpisodeRow{}, bad("%v", err)
	}
	// Check the rows as the writer will, returns applied to copies (the
	// batch's advantages come later, over the episodes that pass).
	trial, trialEp := slices.Clone(rows), []schema.EpisodeRow{ep}
	if _, err := schema.ApplyReturns(trial, trialEp, in.Gamma, in.NormScheme); err != nil {
		return nil, schema.EpisodeRow{}, bad("%v", err)
	}
	for k := range trial {
		if err := trial[k].Validate(); err != nil {
			return nil, schema.EpisodeRow{}, bad("turn %d: %v", k, err)
		}
	}
	if err := trialEp[0].Validate(); err != nil {
		return nil, schema.EpisodeRow{}, bad("%v", err)
	}
	return rows, ep, nil
}

// distinctVersions counts the distinct policy_version labels of turns.
func distinctVersions(ts []turnlog.Turn) int32 {
	var seen []string
	for _, t := range ts {
		if v := t.Gen.PolicyVersion; v != nil && !slices.Contains(seen, *v) {
			seen = append(seen, *v)
		}
	}
	return int32(len(seen))
}

// turnRow is one accepted turn as a row: the generate record's columns,
// the act record's, and the episode's ids and metadata.
func turnRow(in *Input, e *Episode, id string, t turnlog.Turn) schema.TurnRow {
	g, a := &t.Gen, &t.Act
	errorClass := a.ErrorClass
	if errorClass == nil {
		errorClass = g.ErrorClass
	}
	return schema.TurnRow{
		JobID: in.Job, Batch: int32(in.Batch), Episode: int32(e.Episode), Turn: int32(g.Turn),
		Group: int32(e.Group), Sample: int32(e.Sample), Attempt: int32(g.Attempt), Segment: int32(g.Segment),
		EpisodeID: id, GroupID: schema.GroupID(in.Job, in.Batch, e.Group), TaskID: e.TaskID, TaskIndex: e.TaskIndex,
		DataSource: e.DataSource, EnvID: e.EnvID, EnvVersion: e.EnvVersion, TaskSeed: e.TaskSeed, SampleSeed: e.SampleSeed,

		PromptDelta: cmp.Or(g.PromptDelta, "[]"), PromptLen: int32(g.PromptLen), Action: g.Action,
		Observation: a.Observation, ToolName: a.ToolName, ToolCall: a.ToolCall, ToolResult: a.ToolResult,
		Reward: a.Reward, Terminated: a.Terminated, Truncated: a.Truncated,

		PolicyModel: g.PolicyModel, PolicyVersion: g.PolicyVersion, SamplingParams: cmp.Or(g.SamplingParams, "{}"),
		TokenSource: g.TokenSource, PromptTokenIDs: g.PromptTokenIDs, ResponseTokenIDs: g.ResponseTokenIDs,
		ResponseLogprobs: g.ResponseLogprobs, ResponseLen: int32(g.ResponseLen), FinishReason: g.FinishReason,
		ResponseID: nonEmpty(g.ResponseID),

		AgentID: a.AgentID, AgentRole: a.AgentRole,
		GenerationMs: g.GenerationMs, EnvMs: a.EnvMs, ErrorClass: errorClass,
		GroundTruth: e.GroundTruth, ExtraInfo: a.Info,
		FailedAttempts: failedAttempts(g), LastFault: g.LastFault,
	}
}

func failedAttempts(g *schema.TurnRecord) *int32 {
	if g.FailedAttempts == nil {
		return nil
	}
	n := int32(*g.FailedAttempts)
	return &n
}

// envVersions maps each env id of the shard's rows to its version.
func envVersions(in *Input) map[string]string {
	m := map[string]string{}
	for _, e := range in.Episodes {
		if e.Failure == nil {
			m[e.EnvID] = e.EnvVersion
		}
	}
	return m
}

func (in *Input) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("shard %s batch %d: %w: %s", in.Job, in.Batch, ErrInvalidInput, fmt.Sprintf(format, args...))
	}
	switch {
	case in.Job == "":
		return bad("empty job")
	case in.Batch < 0:
		return bad("negative batch")
	case !(in.Gamma >= 0 && in.Gamma <= 1):
		return bad("gamma %v: want 0 ≤ gamma ≤ 1", in.Gamma)
	case in.NormScheme != schema.NormReBN && in.NormScheme != schema.NormGroup && in.NormScheme != schema.NormNone:
		return bad("norm scheme %q: want %s, %s or %s", in.NormScheme, schema.NormReBN, schema.NormGroup, schema.NormNone)
	case len(in.Episodes) == 0:
		return bad("no episodes")
	}
	type task struct {
		id           string
		index, seed  int64
		size         int
		firstEpisode int
		samplesSeen  map[int]bool
	}
	episodes := map[int]bool{}
	groups := map[int]*task{}
	versions := map[string]string{}
	for _, e := range in.Episodes {
		switch {
		case e.Episode < 0 || e.Group < 0 || e.Sample < 0:
			return bad("episode %d: negative episode, group or sample index", e.Episode)
		case episodes[e.Episode]:
			return bad("episode %d given twice", e.Episode)
		case e.GroupSize < 1 || e.Sample >= e.GroupSize:
			return bad("episode %d: sample %d of a group of %d", e.Episode, e.Sample, e.GroupSize)
		case e.EnvID == "":
			return bad("episode %d: empty env id", e.Episode)
		}
		episodes[e.Episode] = true
		g := groups[e.Group]
		if g == nil {
			g = &task{id: e.TaskID, index: e.TaskIndex, seed: e.TaskSeed, size: e.GroupSize, firstEpisode: e.Episode, samplesSeen: map[int]bool{}}
			groups[e.Group] = g
		}
		switch {
		case g.id != e.TaskID || g.index != e.TaskIndex || g.seed != e.TaskSeed || g.size != e.GroupSize:
			return bad("episodes %d and %d are in group %d but differ in task (id, index, seed) or group size", g.firstEpisode, e.Episode, e.Group)
		case g.samplesSeen[e.Sample]:
			return bad("episode %d: sample %d of group %d given twice", e.Episode, e.Sample, e.Group)
		}
		g.samplesSeen[e.Sample] = true
		if f := e.Failure; f != nil {
			if f.ErrorClass == "" || f.Attempts < 0 || f.Turns < 0 {
				return bad("episode %d: a failure needs an error class and non-negative attempts and turns", e.Episode)
			}
			continue
		}
		if e.EnvVersion == "" {
			return bad("episode %d: empty env version", e.Episode)
		}
		if v, ok := versions[e.EnvID]; ok && v != e.EnvVersion {
			return bad("env %s at versions %q and %q in one batch", e.EnvID, v, e.EnvVersion)
		}
		versions[e.EnvID] = e.EnvVersion
		if prefix := schema.TurnPrefix(in.Job, in.Batch, e.Episode); e.Head.Tag == "" || !strings.HasPrefix(e.Head.Key, prefix) {
			return bad("episode %d: head %q (tag %q) is not a turn-log ref under %s", e.Episode, e.Head.Key, e.Head.Tag, prefix)
		}
		switch e.StopReason {
		case "", schema.StopTerminated, schema.StopTruncated, schema.StopMaxTurns, schema.StopContext:
		default:
			return bad("episode %d: stop reason %q: want %s, %s, %s or %s", e.Episode, e.StopReason,
				schema.StopTerminated, schema.StopTruncated, schema.StopMaxTurns, schema.StopContext)
		}
		if e.ExtraInfo != nil && !json.Valid([]byte(*e.ExtraInfo)) {
			return bad("episode %d: extra info is not JSON", e.Episode)
		}
	}
	return nil
}

// Committed returns the job's committed shards' manifests, sorted by batch.
func Committed(ctx context.Context, store blob.Store, job string) ([]schema.Manifest, error) {
	infos, err := store.List(ctx, schema.ManifestPrefix(job))
	if err != nil {
		return nil, fmt.Errorf("list manifests: %w", err)
	}
	var out []schema.Manifest
	for _, info := range infos {
		batch, err := schema.ParseManifestKey(info.Key)
		if err != nil || info.Key != schema.ShardKeys(job, batch).Manifest {
			continue // not a manifest of ours (a stray file)
		}
		m, ok, err := readManifest(ctx, store, info.Key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // deleted since the listing
		}
		if m.Job != job || m.Batch != batch {
			return nil, fmt.Errorf("%s describes job %q batch %d", info.Key, m.Job, m.Batch)
		}
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b schema.Manifest) int { return cmp.Compare(a.Batch, b.Batch) })
	return out, nil
}

// ErrCorruptFile reports a data file whose size or checksum differs from
// what its manifest says.
var ErrCorruptFile = errors.New("shard file differs from its manifest")

// ReadFile reads one of a committed shard's files and checks it against
// the manifest's size and SHA-256.
func ReadFile(ctx context.Context, store blob.Store, job string, f schema.ManifestFile) ([]byte, error) {
	data, err := blob.ReadAll(ctx, store, job+"/"+f.Path)
	if err != nil {
		return nil, err
	}
	if err := f.Verify(data); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptFile, err)
	}
	return data, nil
}

// Failures reads the failure records of a committed shard (none when the
// manifest lists no failures file).
func Failures(ctx context.Context, store blob.Store, m schema.Manifest) ([]schema.Failure, error) {
	rel := schema.RelKey(m.Job, schema.ShardKeys(m.Job, m.Batch).Failures)
	for _, f := range m.Files {
		if f.Path != rel {
			continue
		}
		data, err := ReadFile(ctx, store, m.Job, f)
		if err != nil {
			return nil, err
		}
		return schema.UnmarshalFailures(data)
	}
	return nil, nil
}

// ErrIncomplete reports a job whose batches are not all committed.
var ErrIncomplete = errors.New("job is not complete")

// WriteSuccess writes the job's _SUCCESS from its manifests, once every one
// of its batches (0 to batches−1) is committed, and returns it. Totals are
// summed over the manifests in batch order, so rewriting it gives the same
// bytes.
func WriteSuccess(ctx context.Context, store blob.Store, job string, batches int) (schema.Success, error) {
	if batches < 1 {
		return schema.Success{}, fmt.Errorf("write _SUCCESS for %s: %d batches", job, batches)
	}
	ms, err := Committed(ctx, store, job)
	if err != nil {
		return schema.Success{}, fmt.Errorf("write _SUCCESS for %s: %w", job, err)
	}
	s := schema.Success{SchemaVersion: schema.SchemaVersion, Job: job, Batches: batches}
	missing := func(b int) error {
		return fmt.Errorf("write _SUCCESS for %s: %w: batch %d of %d is not committed", job, ErrIncomplete, b, batches)
	}
	for i, m := range ms {
		switch {
		case m.Batch >= batches:
			return schema.Success{}, fmt.Errorf("write _SUCCESS for %s: batch %d is committed, but the job has %d batches", job, m.Batch, batches)
		case m.Batch != i:
			return schema.Success{}, missing(i)
		}
		s.TurnRows += m.TurnRows
		s.EpisodeRows += m.EpisodeRows
		s.FailedEpisodes += m.FailedEpisodes
		s.Returns = s.Returns.Merge(m.Returns)
	}
	if len(ms) < batches {
		return schema.Success{}, missing(len(ms))
	}
	data, err := schema.MarshalSuccess(&s)
	if err != nil {
		return schema.Success{}, err
	}
	if err := blob.PutBytes(ctx, store, schema.SuccessKey(job), data); err != nil {
		return schema.Success{}, fmt.Errorf("write _SUCCESS: %w", err)
	}
	return s, nil
}

// nonEmpty is nil for "", so optional columns stay null when unset.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// groundTruth is the reference answer a dataset env reported in its step
// info (extra.ground_truth) on the episode's last turn, if any.
func groundTruth(ts []turnlog.Turn) *string {
	info := ts[len(ts)-1].Act.Info
	if info == nil {
		return nil
	}
	var v struct {
		Extra struct {
			GroundTruth *string `json:"ground_truth"`
		} `json:"extra"`
	}
	if json.Unmarshal([]byte(*info), &v) != nil {
		return nil
	}
	return v.Extra.GroundTruth
}
