package inference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/quarry-rl/quarry/schema"
)

// ErrUnsupported: the endpoint lacks what the spec needs (the completions
// API, token-id prompts, /tokenize). Preflight returns it; it is never
// retried.
var ErrUnsupported = errors.New("endpoint lacks what the spec needs")

// Capabilities is what an endpoint serves beyond chat completions, as
// Preflight's probes found it.
type Capabilities struct {
	// Probed: the probes ran (they run when the spec needs one of these —
	// api: completions, tokens: exact — or with WithCapabilityProbes);
	// the fields below are all false otherwise.
	Probed bool
	// Completions: POST /v1/completions answered a one-token completion of
	// a text prompt.
	Completions bool
	// TokenPrompts: it answered a prompt of token ids, with the response's
	// token ids and, when it returned them, prompt_token_ids equal to the
	// ids sent (token-in/token-out).
	TokenPrompts bool
	// Tokenize: POST /tokenize (at the base URL without /v1) tokenised "a".
	Tokenize bool
}

// and is what every endpoint of a pool serves.
func (c Capabilities) and(o Capabilities) Capabilities {
	return Capabilities{Probed: c.Probed && o.Probed, Completions: c.Completions && o.Completions,
		TokenPrompts: c.TokenPrompts && o.TokenPrompts, Tokenize: c.Tokenize && o.Tokenize}
}

// Require refuses a spec that needs what the endpoint lacks: api:
// completions needs Completions; tokens: exact needs TokenPrompts and
// Tokenize. The error (kind ErrUnsupported) names the spec field, the
// endpoint and what it lacks. Capabilities not probed refuse nothing.
func (c Capabilities) Require(spec schema.OpenAIPolicy, endpoint string) error {
	if !c.Probed {
		return nil
	}
	var lacks []string
	if spec.API == schema.APICompletions && !c.Completions {
		lacks = append(lacks, "policy.openai.api: completions needs POST /v1/completions, which this endpoint does not serve (use api: chat, or a vLLM or SGLang server)")
	}
	if spec.Tokens == schema.TokensExact {
		if !c.TokenPrompts {
			lacks = append(lacks, "policy.openai.tokens: exact needs /v1/completions to take a prompt of token ids and return the response's token ids (vLLM ≥ 0.10.2 does), which this endpoint does not")
		}
		if !c.Tokenize {
			lacks = append(lacks, "policy.openai.tokens: exact needs POST /tokenize at the server's root (vLLM's and SGLang's), which this endpoint does not serve; leave tokens unset for token ids as served")
		}
	}
	if lacks == nil {
		return nil
	}
	return &Error{Kind: ErrUnsupported, Endpoint: endpoint, Message: strings.Join(lacks, "; ")}
}

// WithCapabilityProbes makes Preflight probe the capabilities even when
// the spec needs none of them.
func WithCapabilityProbes() Option { return func(o *options) { o.probeCaps = true } }

// needsCapabilities: the spec uses completions or exact tokens.
func (p *Pool) needsCapabilities() bool {
	return p.o.probeCaps || p.spec.API == schema.APICompletions || p.spec.Tokens == schema.TokensExact
}

// probeCapabilities asks ep for a tokenize of "a", a one-token completion
// of "a", and one of those tokens as a token prompt ([1] when /tokenize is
// missing). An absent route or a refusal (404, 405, 400, 422) is a missing
// capability; an outage, a bad answer or a refused key is an error
// (Preflight retries the transient ones).
func (p *Pool) probeCapabilities(actx context.Context, ep *endpoint) (Capabilities, error) {
	caps := Capabilities{Probed: true}
	tok, err := p.probe(actx, ep, "tokenize", map[string]any{"model": p.model, "prompt": "a"}, decodeTokenize)
	if err != nil {
		return caps, err
	}
	ids := []int32{1}
	if tok != nil && len(tok.PromptTokenIDs) > 0 {
		caps.Tokenize, ids = true, tok.PromptTokenIDs
	}
	comp, err := p.probe(actx, ep, "completions", map[string]any{"model": p.model, "prompt": "a", "max_tokens": 1}, decodeCompletion)
	if err != nil || comp == nil {
		return caps, err
	}
	caps.Completions = true
	body := map[string]any{"model": p.model, "prompt": ids, "max_tokens": 1, "return_token_ids": true}
	res, err := p.probe(actx, ep, "completions", body, decodeCompletion)
	if err != nil || res == nil {
		return caps, err
	}
	caps.TokenPrompts = res.ResponseTokenIDs != nil && (res.PromptTokenIDs == nil || slices.Equal(res.PromptTokenIDs, ids))
	return caps, nil
}

// probe posts body to the route ("tokenize" at the root, "completions"
// under the base URL): a nil result and nil error mean the route is absent
// or refused the probe.
func (p *Pool) probe(actx context.Context, ep *endpoint, route string, body map[string]any, decode func([]byte) (Result, error)) (*Result, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("inference: encode %s probe: %w", route, err)
	}
	url := ep.url + "/" + route
	if route == "tokenize" {
		url = rootURL(ep.url) + "/tokenize"
	}
	ex := &exchange{}
	if err := p.post(withExchange(actx, ex), url, raw); err != nil {
		e := p.failure(ep, ex, err, actx, p.o.preflight)
		if e.Kind == ErrBadRequest || e.Kind == ErrModelNotFound || e.Kind == ErrContextLength {
			p.log.Debug("inference: capability absent", "endpoint", ep.url, "route", route, "status", e.Status, "err", e)
			return nil, nil
		}
		e.Message = "probe " + route + ": " + e.Message
		return nil, e
	}
	res, err := decode(ex.body)
	if err != nil {
		return nil, &Error{Kind: ErrBadAnswer, Endpoint: ep.url, Status: ex.status, Message: "probe " + route + ": bad answer", Err: err}
	}
	return &res, nil
}
