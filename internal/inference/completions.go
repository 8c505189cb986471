package inference

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Completions and tokenize speak vLLM's wire format directly over the
// pool's HTTP client (go-openai's CreateCompletion refuses a prompt of
// token ids): POST {base}/completions, and POST {root}/tokenize where root
// is the base URL without its /v1 suffix, as vLLM serves it. Both go
// through the same transport, so extra_body merging, the raw answer, the
// fault classes and the retries are those of chat.

// planCompletion builds the call of a completion request: model, prompt,
// max_tokens (when set: vLLM's completions default is 16 tokens), stop,
// logprobs 1 when sampling.logprobs is set; then the sampling fields and
// extra_body merged over them, as for chat.
func (p *Pool) planCompletion(req Request) (call, error) {
	s, extra := p.sampling, p.base
	if req.Sampling != nil || len(req.ExtraBody) > 0 {
		if req.Sampling != nil {
			s = *req.Sampling
		}
		reqExtra, err := encodeExtra(req.ExtraBody)
		if err != nil {
			return call{}, fmt.Errorf("inference: %w: extra_body: %v", ErrBadRequest, err)
		}
		extra = fields(s, p.extraBody, reqExtra)
	}
	body := map[string]any{"model": cmp.Or(req.Model, p.model)}
	var want wanted
	if req.PromptIDs != nil {
		if len(req.PromptIDs) == 0 {
			return call{}, fmt.Errorf("inference: %w: an empty token prompt", ErrBadRequest)
		}
		body["prompt"], body["return_token_ids"] = req.PromptIDs, true
		want.prompt = req.PromptIDs
	} else {
		body["prompt"] = req.Prompt
	}
	if s.MaxTokens > 0 {
		body["max_tokens"] = s.MaxTokens
	}
	if len(s.Stop) > 0 {
		body["stop"] = s.Stop
	}
	if s.Logprobs {
		body["logprobs"] = 1
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return call{}, fmt.Errorf("inference: encode completion: %w", err)
	}
	var sent map[string]json.RawMessage
	_ = json.Unmarshal(raw, &sent)
	for k, v := range extra {
		sent[k] = v
	}
	want.tokenIDs = isJSON(sent["return_token_ids"], "true")
	want.logprobs = sent["logprobs"] != nil && !isJSON(sent["logprobs"], "null") && !isJSON(sent["logprobs"], "false")
	send := func(ctx context.Context, ep *endpoint, ex *exchange) (func() (Result, error), error) {
		if err := p.post(ctx, ep.url+"/completions", raw); err != nil {
			return nil, err
		}
		return func() (Result, error) { return decodeCompletion(ex.body) }, nil
	}
	return call{send: send, extra: extra, want: want, what: "completion", route: "POST /v1/completions"}, nil
}

func isJSON(v json.RawMessage, want string) bool { return string(bytes.TrimSpace(v)) == want }

// post sends body to url through the pool's client (its transport merges
// the exchange's extra fields and keeps the answer). A non-2xx answer is an
// error; failure classifies it from the exchange.
func (p *Pool) post(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close() // the transport has read it
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}

// completionAnswer is vLLM's CompletionResponse, the fields Quarry reads.
type completionAnswer struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Text         string `json:"text"`
		FinishReason string `json:"finish_reason"`
		Logprobs     *struct {
			Tokens        []string   `json:"tokens"`
			TokenLogprobs []*float64 `json:"token_logprobs"`
		} `json:"logprobs"`
		TokenIDs       []int32 `json:"token_ids"`
		PromptTokenIDs []int32 `json:"prompt_token_ids"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

func decodeCompletion(raw []byte) (Result, error) {
	var a completionAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return Result{}, fmt.Errorf("not a completion: %w", err)
	}
	if len(a.Choices) == 0 {
		return Result{}, errors.New("no choices")
	}
	ch := a.Choices[0]
	r := Result{
		Text: ch.Text, FinishReason: ch.FinishReason,
		PromptTokenIDs: ch.PromptTokenIDs, ResponseTokenIDs: ch.TokenIDs,
		PromptTokens: a.Usage.PromptTokens, CompletionTokens: a.Usage.CompletionTokens,
		ResponseID: a.ID, Model: a.Model,
	}
	if lp := ch.Logprobs; lp != nil {
		if len(lp.Tokens) != len(lp.TokenLogprobs) {
			return Result{}, fmt.Errorf("logprobs: %d tokens, %d token_logprobs", len(lp.Tokens), len(lp.TokenLogprobs))
		}
		r.Logprobs = make([]float32, len(lp.TokenLogprobs))
		for i, l := range lp.TokenLogprobs {
			if l == nil {
				return Result{}, fmt.Errorf("logprobs: token_logprobs[%d] is null", i)
			}
			r.Logprobs[i] = float32(*l)
		}
	}
	return r, nil
}

// TokenizeRequest is one tokenisation: Text, or Messages rendered by the
// server's chat template (the one its chat completions use).
type TokenizeRequest struct {
	Text     string
	Messages []Message
	// AddGenerationPrompt ends rendered Messages with the assistant's
	// header; ContinueFinalMessage leaves the last message open instead.
	AddGenerationPrompt  bool
	ContinueFinalMessage bool
	// AddSpecialTokens adds the tokenizer's special tokens (a BOS) to Text,
	// or on top of the chat template's to Messages.
	AddSpecialTokens bool
	// Affinity routes the request as Request.Affinity does: give the
	// episode's generations' key, so the server that generates tokenises.
	Affinity string
	// Heartbeat is called as Request.Heartbeat is.
	Heartbeat func(Progress)
}

// Tokenize asks the endpoint's /tokenize (vLLM's, at the base URL without
// /v1) for the token ids of req, with the retries, routing and fault
// classes of Generate. For Messages, extra_body's chat_template_kwargs and
// chat_template are sent too, so the rendering is the one the pool's chat
// completions get. An answer whose count disagrees with its tokens is a
// bad answer.
func (p *Pool) Tokenize(ctx context.Context, req TokenizeRequest) ([]int32, error) {
	c, err := p.planTokenize(req)
	if err != nil {
		return nil, err
	}
	res, err := p.run(ctx, c, req.Affinity, beats{f: req.Heartbeat})
	if err != nil {
		return nil, err
	}
	return res.PromptTokenIDs, nil
}

func (p *Pool) planTokenize(req TokenizeRequest) (call, error) {
	body := map[string]any{"model": p.model, "add_special_tokens": req.AddSpecialTokens}
	if req.Messages != nil {
		if req.Text != "" {
			return call{}, fmt.Errorf("inference: %w: tokenize text or messages, not both", ErrBadRequest)
		}
		if req.AddGenerationPrompt && req.ContinueFinalMessage {
			return call{}, fmt.Errorf("inference: %w: tokenize with add_generation_prompt or continue_final_message, not both", ErrBadRequest)
		}
		for i, m := range req.Messages {
			if err := checkParts(i, m.Parts); err != nil {
				return call{}, err
			}
		}
		body["messages"] = wireMessages(req.Messages)
		body["add_generation_prompt"] = req.AddGenerationPrompt
		body["continue_final_message"] = req.ContinueFinalMessage
		for _, k := range []string{"chat_template_kwargs", "chat_template"} {
			if v, ok := p.extraBody[k]; ok {
				body[k] = v
			}
		}
	} else {
		body["prompt"] = req.Text
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return call{}, fmt.Errorf("inference: encode tokenize: %w", err)
	}
	send := func(ctx context.Context, ep *endpoint, ex *exchange) (func() (Result, error), error) {
		if err := p.post(ctx, rootURL(ep.url)+"/tokenize", raw); err != nil {
			return nil, err
		}
		return func() (Result, error) { return decodeTokenize(ex.body) }, nil
	}
	return call{send: send, what: "tokenize", route: "POST /tokenize"}, nil
}

// Detokenize asks the endpoint's /detokenize for the text of ids, with the
// retries, routing and fault classes of Tokenize.
func (p *Pool) Detokenize(ctx context.Context, ids []int32, affinity string) (string, error) {
	raw, err := json.Marshal(map[string]any{"model": p.model, "tokens": ids})
	if err != nil {
		return "", fmt.Errorf("inference: encode detokenize: %w", err)
	}
	send := func(ctx context.Context, ep *endpoint, ex *exchange) (func() (Result, error), error) {
		if err := p.post(ctx, rootURL(ep.url)+"/detokenize", raw); err != nil {
			return nil, err
		}
		return func() (Result, error) {
			var a struct {
				Prompt *string `json:"prompt"`
			}
			if err := json.Unmarshal(ex.body, &a); err != nil || a.Prompt == nil {
				return Result{}, fmt.Errorf("not a detokenize answer: %s", ex.body)
			}
			return Result{Text: *a.Prompt}, nil
		}, nil
	}
	res, err := p.run(ctx, call{send: send, what: "detokenize", route: "POST /detokenize"}, affinity, beats{})
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

// rootURL is a base URL without its /v1 suffix: where vLLM serves
// /tokenize and /detokenize.
func rootURL(base string) string { return strings.TrimSuffix(base, "/v1") }

func decodeTokenize(raw []byte) (Result, error) {
	var a struct {
		Tokens []int32 `json:"tokens"`
		Count  *int    `json:"count"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return Result{}, fmt.Errorf("not a tokenize answer: %w", err)
	}
	switch {
	case a.Tokens == nil:
		return Result{}, errors.New("tokenize answer without tokens")
	case a.Count != nil && *a.Count != len(a.Tokens):
		return Result{}, fmt.Errorf("tokenize answer: count %d for %d tokens", *a.Count, len(a.Tokens))
	}
	return Result{PromptTokenIDs: a.Tokens, PromptTokens: len(a.Tokens)}, nil
}
