package inference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
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
}

// Report is what Preflight learned about the pool.
type Report struct {
	Endpoints []EndpointInfo
	// MaxModelLen is the smallest context length an endpoint reported (0
	// when none did).
	MaxModelLen int
	// TokenIDs: every endpoint returns token ids.
	TokenIDs bool
}

// Preflight checks every endpoint before a job is submitted: GET /v1/models
// must answer and list the model, and one tiny chat completion (max_tokens
// 1, the spec's sampling and extra_body, return_token_ids and logprobs
// asked for) must succeed. Each endpoint is tried once — an unreachable
// one is an ErrUnavailable error saying so, a refused key ErrAuth, a model
// not served ErrModelNotFound listing the served ones; the problems of all
// endpoints are joined. A spec max_tokens that leaves no room for a prompt
// in the reported context is ErrContextLength.
func (p *Pool) Preflight(ctx context.Context) (Report, error) {
	infos := make([]EndpointInfo, len(p.router.eps))
	errs := make([]error, len(p.router.eps))
	var wg sync.WaitGroup
	for i, ep := range p.router.eps {
		wg.Go(func() { infos[i], errs[i] = p.preflight(ctx, ep) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return Report{}, err
	}
	r := Report{Endpoints: infos, TokenIDs: true}
	for _, in := range infos {
		if in.MaxModelLen > 0 && (r.MaxModelLen == 0 || in.MaxModelLen < r.MaxModelLen) {
			r.MaxModelLen = in.MaxModelLen
		}
		r.TokenIDs = r.TokenIDs && in.TokenIDs
	}
	return r, nil
}

func (p *Pool) preflight(ctx context.Context, ep *endpoint) (EndpointInfo, error) {
	info := EndpointInfo{Endpoint: ep.url}
	actx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
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
		return info, &Error{Kind: ErrUnavailable, Endpoint: ep.url, Status: ex.status, Message: "GET /models: malformed response", Err: err}
	}
	found := false
	for _, m := range list.Data {
		info.Models = append(info.Models, m.ID)
		if m.ID == p.model {
			found, info.MaxModelLen = true, m.MaxModelLen
		}
	}
	if !found {
		return info, &Error{Kind: ErrModelNotFound, Endpoint: ep.url, Status: ex.status,
			Message: fmt.Sprintf("model %q is not served here; served: %s", p.model, strings.Join(info.Models, ", "))}
	}
	if mt := p.sampling.MaxTokens; info.MaxModelLen > 0 && mt >= info.MaxModelLen {
		return info, &Error{Kind: ErrContextLength, Endpoint: ep.url,
			Message: fmt.Sprintf("sampling.max_tokens %d leaves no room for a prompt in the model's context of %d tokens", mt, info.MaxModelLen)}
	}

	cr, extra, err := p.prepare(Request{Messages: []Message{{Role: "user", Content: "Reply with OK."}}})
	if err != nil {
		return info, err
	}
	cr.MaxTokens, cr.MaxCompletionTokens, cr.LogProbs = 1, 0, true
	probe := fields(p.sampling, extra, map[string]json.RawMessage{
		"return_token_ids": json.RawMessage("true"),
		"max_tokens":       json.RawMessage("1"),
		"logprobs":         json.RawMessage("true"),
	})
	if _, ok := probe["max_completion_tokens"]; ok { // it wins over max_tokens on vLLM
		probe["max_completion_tokens"] = json.RawMessage("1")
	}
	ex = &exchange{extra: probe}
	t0 := time.Now()
	resp, err := ep.client.CreateChatCompletion(withExchange(actx, ex), cr)
	if err != nil {
		return info, p.preflightError(ctx, actx, ep, ex, err, "probe chat completion")
	}
	res, err := decodeResult(resp, ex.body)
	if err != nil {
		return info, &Error{Kind: ErrUnavailable, Endpoint: ep.url, Status: ex.status, Message: "probe chat completion: malformed response", Err: err}
	}
	p.log.Debug("inference: preflight probe", "endpoint", ep.url, "latency", time.Since(t0),
		"token_ids", res.ResponseTokenIDs != nil, "logprobs", res.Logprobs != nil)
	info.TokenIDs = res.PromptTokenIDs != nil && res.ResponseTokenIDs != nil
	info.Logprobs = res.Logprobs != nil
	return info, nil
}

func (p *Pool) preflightError(ctx, actx context.Context, ep *endpoint, ex *exchange, err error, what string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("inference preflight %s: %w", ep.url, ctx.Err())
	}
	e := p.failure(ep, ex, err, actx, p.timeout)
	e.Message = what + ": " + e.Message
	return e
}
