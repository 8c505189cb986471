package inference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/quarry-rl/quarry/schema"
)

// EndpointInfo is what Preflight learned about one endpoint.
type EndpointInfo struct {
	Endpoint string
	// Models lists every model the endpoint serves.
	Models []string
	// MaxModelLen is the model's context length (vLLM's max_model_len in
	// GET /v1/models); 0 when the server does not say.
	MaxModelLen int
	// TokenIDs: a probe with return_token_ids got prompt and response
	// token ids back (vLLM ≥ 0.10.2). Logprobs: it got logprobs back.
	TokenIDs bool
	Logprobs bool
	// Capabilities: completions, token prompts, tokenize (probed when the
	// spec needs them).
	Capabilities Capabilities
}

// Report is what Preflight learned about the pool.
type Report struct {
	Endpoints []EndpointInfo
	// MaxModelLen is the smallest context length an endpoint reported (0
	// when none did).
	MaxModelLen int
	// TokenIDs: every endpoint returns token ids.
	TokenIDs bool
	// Capabilities are what every endpoint serves.
	Capabilities Capabilities
}

// Adjust returns the policy a job should run with, given what the
// preflight learned, and the warnings to show the user. An endpoint that
// returns no token ids although extra_body asks for them (return_token_ids)
// would make every answer a bad answer (token ids asked for, none served):
// the field is dropped, so the job runs with null token columns instead.
// Logprobs asked for without token ids cannot be aligned with tokens; they
// are not recorded (the token columns are null).
func (r Report) Adjust(spec schema.OpenAIPolicy) (schema.OpenAIPolicy, []string) {
	if r.TokenIDs {
		return spec, nil
	}
	var none []string
	for _, in := range r.Endpoints {
		if !in.TokenIDs {
			none = append(none, in.Endpoint)
		}
	}
	where := strings.Join(none, ", ")
	var warnings []string
	if v, ok := spec.ExtraBody["return_token_ids"]; ok && v == true {
		spec.ExtraBody = maps.Clone(spec.ExtraBody)
		delete(spec.ExtraBody, "return_token_ids")
		warnings = append(warnings, fmt.Sprintf("%s returns no token ids although extra_body asks for them (return_token_ids): "+
			"return_token_ids is dropped for this job, whose token columns will be null (vLLM ≥ 0.10.2 returns them)", where))
	}
	if spec.Sampling.Logprobs {
		warnings = append(warnings, fmt.Sprintf("%s returns no token ids: sampling.logprobs is set, but logprobs that match no "+
			"token ids are not recorded (response_logprobs will be null)", where))
	}
	return spec, warnings
}

// Preflight checks every endpoint before a job is submitted: GET /v1/models
// must answer and list the model, and one tiny chat completion (max_tokens
// 1, the spec's sampling and extra_body, return_token_ids and logprobs
// asked for) must succeed. Transient faults (429, 5xx, timeouts, dropped
// connections, a malformed answer; not a refused connection) are retried with backoff, honouring
// Retry-After, within WithPreflightTimeout per endpoint (30 s by default),
// so a hung endpoint fails the preflight that soon. What stays wrong is an
// error: an unreachable endpoint ErrUnavailable saying so, a refused key
// ErrAuth, a model not served ErrModelNotFound listing the served ones;
// the problems of all endpoints are joined. A spec max_tokens that leaves
// no room for a prompt in the reported context is ErrContextLength.
//
// When the spec needs them (api: completions, tokens: exact) or with
// WithCapabilityProbes, Preflight also probes /tokenize, /v1/completions
// and token-id prompts (see Capabilities) and refuses, as ErrUnsupported
// naming the spec field, a spec that needs what an endpoint lacks. With
// api: completions the generation probe is a completion, not a chat (a
// base model may have no chat template).
func (p *Pool) Preflight(ctx context.Context) (Report, error) {
	infos := make([]EndpointInfo, len(p.router.eps))
	errs := make([]error, len(p.router.eps))
	var wg sync.WaitGroup
	for i, ep := range p.router.eps {
		wg.Go(func() { infos[i], errs[i] = p.preflightRetrying(ctx, ep) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Report{}, err
	}
	r := Report{Endpoints: infos, TokenIDs: true, Capabilities: infos[0].Capabilities}
	for _, in := range infos {
		r.Capabilities = r.Capabilities.and(in.Capabilities)
		if in.MaxModelLen > 0 && (r.MaxModelLen == 0 || in.MaxModelLen < r.MaxModelLen) {
			r.MaxModelLen = in.MaxModelLen
		}
		r.TokenIDs = r.TokenIDs && in.TokenIDs
	}
	return r, nil
}

// preflightRetrying runs preflight on ep until it succeeds, fails for good,
// or the preflight budget is spent.
func (p *Pool) preflightRetrying(ctx context.Context, ep *endpoint) (EndpointInfo, error) {
	deadline := time.Now().Add(p.o.preflight)
	bctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	bo := backoff.ExponentialBackOff{InitialInterval: p.o.initialBackoff, RandomizationFactor: 0.5, Multiplier: 2, MaxInterval: p.o.maxBackoff}
	bo.Reset()
	for attempt := 1; ; attempt++ {
		info, err := p.preflight(ctx, bctx, ep)
		e, ok := errors.AsType[*Error](err)
		if err == nil || !ok || (e.Kind != ErrUnavailable && e.Kind != ErrBadAnswer) || e.Fault() == FaultUnreachable {
			// A refused connection is reported at once: at submit time it
			// is a wrong address far more often than a server starting.
			return info, err
		}
		e.Attempts = attempt
		delay := bo.NextBackOff()
		if e.RetryAfter > 0 {
			delay = e.RetryAfter
		}
		if time.Now().Add(delay).After(deadline) {
			return info, e
		}
		p.log.Debug("inference: preflight retrying", "endpoint", ep.url, "attempt", attempt, "delay", delay, "err", e)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return info, fmt.Errorf("inference preflight %s: %w (last attempt: %v)", ep.url, ctx.Err(), e)
		case <-t.C:
		}
	}
}

// preflight makes one try at ep; actx bounds it (the rest of the budget).
func (p *Pool) preflight(ctx, actx context.Context, ep *endpoint) (EndpointInfo, error) {
	info := EndpointInfo{Endpoint: ep.url}
	ex := &exchange{}
	if _, err := ep.client.ListModels(withExchange(actx, ex)); err != nil {
		return info, p.preflightError(ctx, actx, ep, ex, err, "GET /models")
	}
	var list struct {
		Data []struct {
			ID          string `json:"id"`
			MaxModelLen int    `json:"max_model_len"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ex.body, &list); err != nil {
		return info, &Error{Kind: ErrBadAnswer, Endpoint: ep.url, Status: ex.status, Message: "GET /models: not a model list", Err: err}
	}
	found := false
	for _, m := range list.Data {
		info.Models = append(info.Models, m.ID)
		if m.ID == p.model {
			found, info.MaxModelLen = true, m.MaxModelLen
		}
	}
	if !found {
		return info, &Error{Kind: ErrModelNotFound, Endpoint: ep.url,
			Message: fmt.Sprintf("model %q is not served here; served: %s", p.model, strings.Join(info.Models, ", "))}
	}
	if mt := p.sampling.MaxTokens; info.MaxModelLen > 0 && mt >= info.MaxModelLen {
		return info, &Error{Kind: ErrContextLength, Endpoint: ep.url,
			Message: fmt.Sprintf("sampling.max_tokens %d leaves no room for a prompt in the model's context of %d tokens", mt, info.MaxModelLen)}
	}

	if p.needsCapabilities() {
		caps, err := p.probeCapabilities(actx, ep)
		if err != nil {
			return info, p.preflightCause(ctx, ep, err)
		}
		info.Capabilities = caps
		if err := caps.Require(p.spec, ep.url); err != nil {
			return info, err
		}
	}
	res, err := p.probeGeneration(ctx, actx, ep)
	if err != nil {
		return info, err
	}
	info.TokenIDs = res.PromptTokenIDs != nil && res.ResponseTokenIDs != nil
	info.Logprobs = res.Logprobs != nil
	return info, nil
}

// preflightCause reports the end of the caller's context as such.
func (p *Pool) preflightCause(ctx context.Context, ep *endpoint, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("inference preflight %s: %w", ep.url, ctx.Err())
	}
	return err
}

// probeGeneration makes one tiny generation the way the job will (a chat
// completion, or a completion for api: completions, whose base models may
// have no chat template): max_tokens 1, the spec's sampling and
// extra_body, return_token_ids and logprobs asked for.
func (p *Pool) probeGeneration(ctx, actx context.Context, ep *endpoint) (Result, error) {
	what := "probe chat completion"
	req := Request{Messages: []Message{{Role: "user", Content: "Reply with OK."}}}
	force := map[string]json.RawMessage{
		"return_token_ids": json.RawMessage("true"),
		"max_tokens":       json.RawMessage("1"),
		"logprobs":         json.RawMessage("true"),
	}
	if p.spec.API == schema.APICompletions {
		what, req = "probe completion", Request{Prompt: "Reply with OK."}
		force["logprobs"] = json.RawMessage("1")
	}
	c, err := p.plan(req)
	if err != nil {
		return Result{}, err
	}
	c.extra = fields(p.sampling, c.extra, force)
	if _, ok := c.extra["max_completion_tokens"]; ok { // it wins over max_tokens on vLLM
		c.extra["max_completion_tokens"] = json.RawMessage("1")
	}
	ex := &exchange{extra: c.extra}
	t0 := time.Now()
	decode, err := c.send(withExchange(actx, ex), ep, ex)
	if err != nil {
		return Result{}, p.preflightError(ctx, actx, ep, ex, err, what)
	}
	res, err := decode()
	if err != nil {
		return Result{}, &Error{Kind: ErrBadAnswer, Endpoint: ep.url, Status: ex.status, Message: what + ": bad answer", Err: err}
	}
	p.log.Debug("inference: preflight probe", "endpoint", ep.url, "latency", time.Since(t0),
		"token_ids", res.ResponseTokenIDs != nil, "logprobs", res.Logprobs != nil)
	return res, nil
}

func (p *Pool) preflightError(ctx, actx context.Context, ep *endpoint, ex *exchange, err error, what string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("inference preflight %s: %w", ep.url, ctx.Err())
	}
	e := p.failure(ep, ex, err, actx, p.o.preflight)
	e.Message = what + ": " + e.Message
	return e
}
