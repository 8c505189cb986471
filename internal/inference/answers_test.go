package inference_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarry-rl/quarry/internal/inference"
	"github.com/quarry-rl/quarry/internal/openaitest"
	"github.com/quarry-rl/quarry/schema"
)

// withTokens asks for token ids and logprobs, as an RL job does.
func withTokens(s *schema.OpenAIPolicy) {
	s.Sampling.Logprobs = true
	s.ExtraBody = map[string]any{"return_token_ids": true}
}

// A bad answer (not JSON, no choices, token ids asked for and missing,
// logprobs that do not match the tokens) is a failed attempt, retried; the
// answer handed on is a good one, and the faults are reported.
func TestBadAnswersAreRetried(t *testing.T) {
	for _, f := range []openaitest.Fault{openaitest.Garbage(), openaitest.NoChoices(), openaitest.NoTokenIDs(), openaitest.ShortLogprobs()} {
		t.Run(string(f.Kind), func(t *testing.T) {
			t.Parallel()
			srv := openaitest.Start(t, openaitest.WithFaults(f, f), openaitest.WithPolicy(func([]openaitest.Message) string { return "three little words" }))
			p := newPool(t, []string{srv.BaseURL()}, withTokens)
			res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			want := []string{inference.FaultBadAnswer, inference.FaultBadAnswer}
			if res.Attempts != 3 || srv.ChatCount() != 3 || !slices.Equal(res.Faults, want) {
				t.Errorf("attempts %d, server saw %d, faults %v; want 3, 3, %v", res.Attempts, srv.ChatCount(), res.Faults, want)
			}
			if len(res.ResponseTokenIDs) != 3 || len(res.Logprobs) != 3 || res.PromptTokenIDs == nil {
				t.Errorf("accepted answer: %d ids, %d logprobs, prompt ids %v", len(res.ResponseTokenIDs), len(res.Logprobs), res.PromptTokenIDs)
			}
		})
	}
}

// Bad answers in a row end the call with ErrBadAnswer after the bound, not
// after the (larger) retry budget of an outage; an outage in between
// restarts the count.
func TestBadAnswersAreBounded(t *testing.T) {
	t.Run("in a row", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaultFunc(func(int) openaitest.Fault { return openaitest.NoTokenIDs() }))
		p := newPool(t, []string{srv.BaseURL()}, withTokens, inference.WithRetry(10, time.Minute))
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		e, ok := errors.AsType[*inference.Error](err)
		if !ok || !errors.Is(err, inference.ErrBadAnswer) || inference.Retryable(err) || e.Attempts != inference.DefaultBadAnswers {
			t.Fatalf("err = %v (%+v)", err, e)
		}
		if srv.ChatCount() != inference.DefaultBadAnswers || len(e.Faults) != inference.DefaultBadAnswers || !strings.Contains(err.Error(), "token ids") {
			t.Errorf("server saw %d, faults %v, err %q", srv.ChatCount(), e.Faults, err)
		}
	})
	t.Run("an outage restarts the count", func(t *testing.T) {
		bad := openaitest.ShortLogprobs()
		srv := openaitest.Start(t, openaitest.WithFaults(bad, bad, openaitest.ServerError(), bad, bad))
		p := newPool(t, []string{srv.BaseURL()}, withTokens, inference.WithRetry(10, time.Minute))
		res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"BadAnswer", "BadAnswer", "ServerError", "BadAnswer", "BadAnswer"}
		if res.Attempts != 6 || !slices.Equal(res.Faults, want) {
			t.Errorf("attempts %d, faults %v; want 6, %v", res.Attempts, res.Faults, want)
		}
	})
	t.Run("a permanent error carries the faults before it", func(t *testing.T) {
		srv := openaitest.Start(t, openaitest.WithFaults(openaitest.RateLimit(0), openaitest.ModelGone()))
		p := newPool(t, []string{srv.BaseURL()}, nil)
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go")})
		e, ok := errors.AsType[*inference.Error](err)
		if !ok || !errors.Is(err, inference.ErrModelNotFound) || !slices.Equal(e.Faults, []string{"RateLimited", "ModelNotFound"}) {
			t.Fatalf("err = %v (%+v)", err, e)
		}
	})
}

// Every failed attempt is classified, and a heartbeat reports it at once.
func TestFaultClassesAndHeartbeats(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithFaults(openaitest.RateLimit(0), openaitest.ServerError(), openaitest.Drop(),
		openaitest.Hang(), openaitest.NoChoices()))
	p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
		s.RequestTimeout = schema.Duration(300 * time.Millisecond)
	}, inference.WithRetry(10, time.Minute), inference.WithHeartbeatInterval(time.Hour))
	var mu sync.Mutex
	var beats [][]string
	res, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Heartbeat: func(pr inference.Progress) {
		mu.Lock()
		beats = append(beats, pr.Faults)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"RateLimited", "ServerError", "ConnectionFailed", "Timeout", "BadAnswer"}
	if !slices.Equal(res.Faults, want) {
		t.Errorf("faults %v, want %v", res.Faults, want)
	}
	mu.Lock()
	if len(beats) != len(want) || !slices.Equal(beats[len(beats)-1], want) || len(beats[0]) != 1 {
		t.Errorf("heartbeats %v: want one after each failed attempt", beats)
	}
	mu.Unlock()

	_, err = newPool(t, []string{closedURL(t)}, nil, inference.WithRetry(2, time.Minute)).Generate(context.Background(), inference.Request{Messages: chat("go")})
	if e, ok := errors.AsType[*inference.Error](err); !ok || !slices.Equal(e.Faults, []string{"Unreachable", "Unreachable"}) {
		t.Errorf("closed port: %v", err)
	}
}

// The default heartbeat interval fits a 10 s heartbeat timeout with room.
func TestDefaultHeartbeatInterval(t *testing.T) {
	if inference.DefaultHeartbeatInterval > 2*time.Second {
		t.Fatalf("DefaultHeartbeatInterval %v: a 10 s heartbeat timeout needs beats every 2 s at most", inference.DefaultHeartbeatInterval)
	}
	hold := make(chan struct{})
	srv := openaitest.Start(t, openaitest.WithHold(hold))
	p := newPool(t, []string{srv.BaseURL()}, nil, inference.WithHeartbeatInterval(10*time.Millisecond))
	beats := make(chan inference.Progress, 100)
	done := make(chan error, 1)
	go func() {
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), Heartbeat: func(pr inference.Progress) {
			select {
			case beats <- pr:
			default:
			}
		}})
		done <- err
	}()
	for range 3 { // beats keep coming while the request is held
		if pr := <-beats; pr.Attempt != 1 || pr.Endpoint != srv.BaseURL() {
			t.Errorf("progress %+v", pr)
		}
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A request's own heartbeat interval wins over the pool's: with the pool
// beating hourly, a request asking for 10 ms beats while it is held.
func TestRequestHeartbeatEvery(t *testing.T) {
	hold := make(chan struct{})
	srv := openaitest.Start(t, openaitest.WithHold(hold))
	p := newPool(t, []string{srv.BaseURL()}, nil, inference.WithHeartbeatInterval(time.Hour))
	beats := make(chan inference.Progress, 100)
	done := make(chan error, 1)
	go func() {
		_, err := p.Generate(context.Background(), inference.Request{Messages: chat("go"), HeartbeatEvery: 10 * time.Millisecond,
			Heartbeat: func(pr inference.Progress) {
				select {
				case beats <- pr:
				default:
				}
			}})
		done <- err
	}()
	for range 3 {
		<-beats
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// The preflight retries 429s, 5xx and dropped connections, on GET /models
// and on the probe, and still learns what the endpoint does.
func TestPreflightRetriesTransientFaults(t *testing.T) {
	srv := openaitest.Start(t,
		openaitest.WithModelsFaults(openaitest.RateLimit(0), openaitest.ServerError(), openaitest.Drop()),
		openaitest.WithFaults(openaitest.Fault{Kind: openaitest.FaultServerError, Status: 503}, openaitest.Garbage()))
	rep, err := newPool(t, []string{srv.BaseURL()}, nil).Preflight(context.Background())
	if err != nil {
		t.Fatalf("Preflight: %v", err)
	}
	if !rep.TokenIDs || rep.MaxModelLen != openaitest.DefaultMaxModelLen {
		t.Errorf("report %+v", rep)
	}
	models := 0
	for _, r := range srv.Records() {
		if r.Path == "/v1/models" {
			models++
		}
	}
	if models != 6 || srv.ChatCount() != 3 { // every try lists the models again
		t.Errorf("%d model lists, %d probes; want 6 and 3", models, srv.ChatCount())
	}
}

// A hung endpoint fails the preflight within its budget (30 s by default),
// not after the request timeout of a generation.
func TestPreflightHungEndpoint(t *testing.T) {
	if inference.DefaultPreflightTimeout != 30*time.Second {
		t.Fatalf("DefaultPreflightTimeout %v, documented as 30 s", inference.DefaultPreflightTimeout)
	}
	for _, tc := range []struct {
		name string
		opt  openaitest.Option
	}{
		{"models", openaitest.WithModelsFaults(openaitest.Hang())},
		{"probe", openaitest.WithFaults(openaitest.Hang())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := openaitest.Start(t, tc.opt)
			p := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) {
				s.RequestTimeout = schema.Duration(time.Hour)
			}, inference.WithPreflightTimeout(200*time.Millisecond))
			_, err := p.Preflight(context.Background())
			if !errors.Is(err, inference.ErrUnavailable) || !strings.Contains(err.Error(), "no answer within 200ms") {
				t.Fatalf("err = %v, want ErrUnavailable saying no answer came", err)
			}
		})
	}
}

// A refusal read from a successful answer never looks like an HTTP error.
func TestRefusalsDoNotSayHTTP200(t *testing.T) {
	srv := openaitest.Start(t)
	_, err := newPool(t, []string{srv.BaseURL()}, func(s *schema.OpenAIPolicy) { s.Model = "other-model" }).Preflight(context.Background())
	if !errors.Is(err, inference.ErrModelNotFound) || strings.Contains(err.Error(), "HTTP 200") {
		t.Fatalf("err = %v: want ErrModelNotFound without (HTTP 200)", err)
	}
	e := &inference.Error{Kind: inference.ErrBadAnswer, Endpoint: "http://x/v1", Status: 200, Message: "bad answer"}
	if strings.Contains(e.Error(), "HTTP 200") {
		t.Errorf("%q", e)
	}
}

// An endpoint that never returns token ids does not make every answer bad:
// the preflight's Adjust drops return_token_ids from the policy (with a
// warning), and a pool of the adjusted policy generates.
func TestAdjustForAnEndpointWithoutTokenIDs(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithoutTokenIDs())
	policy := schema.OpenAIPolicy{Endpoints: []string{srv.BaseURL()}, Model: openaitest.DefaultModel}
	withTokens(&policy)
	policy.ExtraBody["top_k"] = 20
	rep, err := newPool(t, policy.Endpoints, withTokens).Preflight(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	adjusted, warnings := rep.Adjust(policy)
	if _, ok := adjusted.ExtraBody["return_token_ids"]; ok || adjusted.ExtraBody["top_k"] != 20 || policy.ExtraBody["return_token_ids"] != true {
		t.Fatalf("adjusted extra_body %v (the spec's %v must stay as it was)", adjusted.ExtraBody, policy.ExtraBody)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], "return_token_ids") || !strings.Contains(warnings[1], "logprobs") {
		t.Errorf("warnings %q", warnings)
	}
	_, err = newPool(t, policy.Endpoints, func(s *schema.OpenAIPolicy) { *s = policy }).Generate(context.Background(), inference.Request{Messages: chat("go")})
	if !errors.Is(err, inference.ErrBadAnswer) {
		t.Errorf("unadjusted: err %v, want ErrBadAnswer (token ids asked for, none served)", err)
	}
	res, err := newPool(t, policy.Endpoints, func(s *schema.OpenAIPolicy) { *s = adjusted }).Generate(context.Background(), inference.Request{Messages: chat("go")})
	if err != nil || res.TokenSource() != schema.TokenSourceNone {
		t.Errorf("adjusted: %+v, %v", res, err)
	}
	if again, w := (inference.Report{TokenIDs: true}).Adjust(policy); len(w) != 0 || again.ExtraBody["return_token_ids"] != true {
		t.Errorf("an endpoint with token ids: %v %q", again.ExtraBody, w)
	}
}
