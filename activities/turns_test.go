package activities

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/quarry-rl/quarry/internal/blob"
	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/internal/turnlog"
	"github.com/quarry-rl/quarry/schema"
)

// generateEnv runs Generate for turn 0 of a one-episode job against srv.
type generateEnv struct {
	a   *Activities
	env *testsuite.TestActivityEnvironment
	ep  EpisodeRef
}

func newGenerateEnv(t *testing.T, srv *openaitest.Server, openai string) *generateEnv {
	t.Helper()
	a, ep := endpointEpisode(t, srv, "", openai)
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.Generate)
	return &generateEnv{a: a, env: env, ep: ep}
}

// endpointEpisode is the first episode of a one-task GuessTheNumber job
// against srv (job fields and openai fields added), and activities with a
// short retry backoff.
func endpointEpisode(t *testing.T, srv *openaitest.Server, job, openai string) (*Activities, EpisodeRef) {
	t.Helper()
	s := spec(t, `{job: g, envs: [{id: game:GuessTheNumber-v0-hard}], tasks: 1, `+job+`policy: {kind: openai, openai: {endpoints: ['`+
		srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`, `+openai+`}}}`)
	a := newActivities(t)
	a.turns().poolOptions = []inference.Option{inference.WithBackoff(time.Millisecond, 10*time.Millisecond)}
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	return a, EpisodeRef{Spec: s, Env: plans[0], Slot: s.BatchSlots(0)[0]}
}

func (g *generateEnv) run(t *testing.T, in GenerateInput) (schema.TurnRecord, error) {
	t.Helper()
	in.Episode = g.ep
	v, err := g.env.ExecuteActivity(g.a.Generate, in)
	if err != nil {
		return schema.TurnRecord{}, err
	}
	var res GenerateResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	store, err := blob.Open(context.Background(), g.ep.Spec.Output)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := turnlog.ReadRecord(context.Background(), store, res.Ref)
	if err != nil {
		t.Fatal(err)
	}
	return rec, nil
}

const tokensAsked = `sampling: {logprobs: true}, extra_body: {return_token_ids: true}`

// A bad answer is a retried attempt inside Generate; the accepted turn
// records how many attempts failed and the last one's class.
func TestGenerateRetriesBadAnswers(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.NoTokenIDs(), openaitest.ShortLogprobs()))
	g := newGenerateEnv(t, srv, tokensAsked)
	rec, err := g.run(t, GenerateInput{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.FailedAttempts == nil || *rec.FailedAttempts != 2 || rec.LastFault == nil || *rec.LastFault != inference.FaultBadAnswer {
		t.Fatalf("failed_attempts %v, last_fault %v; want 2, BadAnswer", rec.FailedAttempts, rec.LastFault)
	}
	if rec.TokenSource != schema.TokenSourceServed || len(rec.ResponseLogprobs) != len(rec.ResponseTokenIDs) || len(rec.ResponseTokenIDs) == 0 {
		t.Fatalf("accepted record: %q, %d ids, %d logprobs", rec.TokenSource, len(rec.ResponseTokenIDs), len(rec.ResponseLogprobs))
	}
	// A first try accepted records 0 and no class.
	rec, err = g.run(t, GenerateInput{AttemptBase: 10})
	if err != nil || *rec.FailedAttempts != 0 || rec.LastFault != nil {
		t.Fatalf("clean turn: %v %v %v", rec.FailedAttempts, rec.LastFault, err)
	}
}

// Faults of earlier runs (heartbeat details) and earlier schedules (the
// input) are counted into the accepted turn.
func TestGenerateCountsEarlierFaults(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.ServerError()))
	g := newGenerateEnv(t, srv, tokensAsked)
	g.env.SetHeartbeatDetails(generateProgress{PoolFaults: 2, LastFault: inference.FaultTimeout})
	rec, err := g.run(t, GenerateInput{PriorFaults: 4, PriorFault: inference.FaultUnreachable})
	if err != nil {
		t.Fatal(err)
	}
	if *rec.FailedAttempts != 7 || *rec.LastFault != inference.FaultServerError {
		t.Fatalf("failed_attempts %d, last_fault %s; want 4+2+1, ServerError", *rec.FailedAttempts, *rec.LastFault)
	}
}

func applicationError(t *testing.T, err error, typ string) GenerateFailure {
	t.Helper()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != typ || !ae.NonRetryable() {
		t.Fatalf("err = %v, want a non-retryable %s", err, typ)
	}
	var f GenerateFailure
	if err := ae.Details(&f); err != nil {
		t.Fatalf("details: %v", err)
	}
	return f
}

// A bad answer that stays bad fails the turn as BadAnswer after the bound.
func TestGenerateBadAnswerGivesUp(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaultFunc(func(int) openaitest.Fault { return openaitest.NoChoices() }))
	g := newGenerateEnv(t, srv, tokensAsked)
	_, err := g.run(t, GenerateInput{})
	f := applicationError(t, err, ErrTypeBadAnswer)
	if f.FailedAttempts != inference.DefaultBadAnswers || f.LastFault != inference.FaultBadAnswer || srv.ChatCount() != inference.DefaultBadAnswers {
		t.Fatalf("details %+v after %d requests", f, srv.ChatCount())
	}
}

// A model that is not served (404) or an endpoint that stays down is
// EndpointUnavailable, never the episode-burning InferenceRejected.
func TestGenerateEndpointDown(t *testing.T) {
	t.Run("404", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaults(openaitest.ModelGone()))
		_, err := newGenerateEnv(t, srv, tokensAsked).run(t, GenerateInput{})
		if f := applicationError(t, err, ErrTypeEndpointDown); f.FailedAttempts != 1 || f.LastFault != inference.FaultModelNotFound {
			t.Fatalf("details %+v", f)
		}
	})
	t.Run("failing", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaultFunc(func(int) openaitest.Fault { return openaitest.ServerError() }))
		_, err := newGenerateEnv(t, srv, tokensAsked).run(t, GenerateInput{})
		if f := applicationError(t, err, ErrTypeEndpointDown); f.FailedAttempts != inference.DefaultMaxAttempts || f.LastFault != inference.FaultServerError {
			t.Fatalf("details %+v", f)
		}
	})
}

// An endpoint without token ids gives null token columns: logprobs that
// match no token ids are not recorded (the shard would refuse them).
func TestGenerateWithoutTokenIDs(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithoutTokenIDs())
	rec, err := newGenerateEnv(t, srv, `sampling: {logprobs: true}`).run(t, GenerateInput{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.TokenSource != schema.TokenSourceNone || rec.ResponseLogprobs != nil || rec.ResponseTokenIDs != nil {
		t.Fatalf("record: %q, %v ids, %v logprobs", rec.TokenSource, rec.ResponseTokenIDs, rec.ResponseLogprobs)
	}
}

// beatCounter counts every RecordHeartbeat call of the activities it sees
// (the test environment's listener sees only the throttled ones).
type beatCounter struct {
	interceptor.WorkerInterceptorBase
	n atomic.Int64
}

func (b *beatCounter) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	i := &beatInbound{root: b}
	i.Next = next
	return i
}

type beatInbound struct {
	interceptor.ActivityInboundInterceptorBase
	root *beatCounter
}

func (i *beatInbound) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	o := &beatOutbound{root: i.root}
	o.Next = outbound
	return i.Next.Init(o)
}

type beatOutbound struct {
	interceptor.ActivityOutboundInterceptorBase
	root *beatCounter
}

func (o *beatOutbound) RecordHeartbeat(ctx context.Context, details ...any) {
	o.root.n.Add(1)
	o.Next.RecordHeartbeat(ctx, details...)
}

// Generate heartbeats while its request is in flight (every
// inference.DefaultHeartbeatInterval), so a ~10 s heartbeat timeout finds
// a lost worker without cutting a long generation.
func TestGenerateHeartbeatsDuringLongRequest(t *testing.T) {
	hold := make(chan struct{})
	srv := openaitest.Start(t, openaitest.WithHold(hold))
	g := newGenerateEnv(t, srv, `request_timeout: 1m`)
	beats := &beatCounter{}
	g.env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{beats}})
	done := make(chan error, 1)
	go func() {
		_, err := g.env.ExecuteActivity(g.a.Generate, GenerateInput{Episode: g.ep})
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for beats.n.Load() < 3 { // the request's, every interval
		if time.Now().After(deadline) {
			t.Fatalf("%d heartbeats in 20 s of a held request", beats.n.Load())
		}
		time.Sleep(20 * time.Millisecond) // polling a condition, with a deadline
	}
	if srv.InFlight() != 1 {
		t.Fatalf("%d requests in flight while heartbeating, want 1", srv.InFlight())
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A generation shorter than the heartbeat interval records no heartbeat:
// Generate beats only while a request lasts, not at its start (each
// recorded heartbeat is a Temporal action; issue 15).
func TestShortGenerationRecordsNoHeartbeat(t *testing.T) {
	srv := openaitest.Start(t)
	g := newGenerateEnv(t, srv, `request_timeout: 1m`)
	beats := &beatCounter{}
	g.env.SetWorkerOptions(worker.Options{Interceptors: []interceptor.WorkerInterceptor{beats}})
	if _, err := g.env.ExecuteActivity(g.a.Generate, GenerateInput{Episode: g.ep}); err != nil {
		t.Fatal(err)
	}
	if n := beats.n.Load(); n != 0 {
		t.Fatalf("a prompt answer recorded %d heartbeats, want 0", n)
	}
}

// WriteShard commits a batch whose episode has turns that make no valid
// rows (logprobs that do not match the tokens, as a bad answer accepted on
// main left them): that episode is counted failed, the other is committed.
func TestWriteShardFailsABadEpisodeAlone(t *testing.T) {
	srv := openaitest.Start(t)
	s := spec(t, `{job: w, envs: [{id: game:GuessTheNumber-v0-hard}], tasks: 2, max_turns: 1, policy: {kind: openai, openai: {endpoints: ['`+
		srv.BaseURL()+`'], model: `+openaitest.DefaultModel+`, `+tokensAsked+`}}}`)
	a := newActivities(t)
	plans, err := ResolveEnvs(a.Envs, s)
	if err != nil {
		t.Fatal(err)
	}
	env := (&testsuite.WorkflowTestSuite{}).NewTestActivityEnvironment()
	env.RegisterActivity(a.Generate)
	env.RegisterActivity(a.Act)
	env.RegisterActivity(a.WriteShard)
	store, err := blob.Open(context.Background(), s.Output)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []EpisodeOutcome
	for i, slot := range s.BatchSlots(0) {
		ep := EpisodeRef{Spec: s, Env: plans[0], Slot: slot}
		v, err := env.ExecuteActivity(a.Generate, GenerateInput{Episode: ep})
		if err != nil {
			t.Fatal(err)
		}
		var g GenerateResult
		v.Get(&g)
		if i == 1 {
			rec, err := turnlog.ReadRecord(context.Background(), store, g.Ref)
			if err != nil {
				t.Fatal(err)
			}
			rec.ResponseLogprobs = rec.ResponseLogprobs[1:]
			if _, err := turnlog.PutRecord(context.Background(), store, &rec); err != nil {
				t.Fatal(err)
			}
		}
		v, err = env.ExecuteLocalActivity(a.Act, ActInput{Episode: ep, Gen: g.Ref})
		if err != nil {
			t.Fatal(err)
		}
		var act ActResult
		v.Get(&act)
		outcomes = append(outcomes, EpisodeOutcome{Slot: slot, Source: act.Ref, Turns: 1, TotalReward: act.Reward,
			StopReason: schema.StopMaxTurns, ResponseTokens: int64(g.ResponseTokens)})
	}
	v, err := env.ExecuteActivity(a.WriteShard, WriteShardInput{Spec: s, Envs: plans, Batch: 0, Episodes: outcomes})
	if err != nil {
		t.Fatalf("WriteShard: %v", err)
	}
	var sum ShardSummary
	v.Get(&sum)
	if sum.Episodes != 2 || sum.Failed != 1 || sum.TurnRows != 1 || sum.Turns != 1 || sum.ResponseTokens != outcomes[0].ResponseTokens {
		t.Fatalf("summary %+v", sum)
	}
}
