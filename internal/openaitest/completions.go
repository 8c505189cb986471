package openaitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"
)

// The completions and tokenizer endpoints, in vLLM's wire format
// (vllm/entrypoints/openai/completion/protocol.py: CompletionRequest,
// CompletionResponse, CompletionResponseChoice with its vLLM fields
// token_ids and prompt_token_ids, CompletionLogProbs; vllm/entrypoints/
// serve/tokenize/protocol.py: TokenizeCompletionRequest, TokenizeChatRequest,
// TokenizeResponse, DetokenizeRequest, DetokenizeResponse). They speak the
// real BPE (EncodeBPE), not the chat endpoint's whitespace fake.
//
// The server's "sampling" is tokenising its scripted reply: the reply's
// text is cut at the first stop string, then to max_tokens BPE tokens, and
// the choice's token_ids are the BPE of the text it returns, so
// DecodeBPE(token_ids) == text always. (vLLM would also count a stop
// string's tokens and an EOS token in token_ids; this server never ends on
// EOS.) temperature and seed are accepted and change nothing: replies are
// deterministic.

// CompletionPolicy answers a completion from its prompt's text (a token
// prompt is decoded first, special tokens as their strings).
type CompletionPolicy func(prompt string) string

// WithCompletionPolicy scripts the completions endpoint (default: the chat
// Policy, given the prompt as one user message).
func WithCompletionPolicy(p CompletionPolicy) Option {
	return func(c *config) { c.completion = func(_ string, prompt string) string { return p(prompt) } }
}

// WithVersionedCompletionPolicy scripts completions that depend on the
// weights version serving the request.
func WithVersionedCompletionPolicy(p func(version, prompt string) string) Option {
	return func(c *config) { c.completion = p }
}

// WithoutCompletions serves no /v1/completions (FastAPI's 404, as a server
// that does not mount the route).
func WithoutCompletions() Option { return func(c *config) { c.noCompletions = true } }

// WithoutTokenPrompts refuses a completions prompt given as token ids with
// a 400, as a server that takes text prompts only.
func WithoutTokenPrompts() Option { return func(c *config) { c.noTokenPrompts = true } }

// WithoutTokenize serves no /tokenize and /detokenize (404), as an older
// or non-vLLM server.
func WithoutTokenize() Option { return func(c *config) { c.noTokenize = true } }

// WithEOSInTokenIDs makes a completion that ended by itself (not at a stop
// string or max_tokens) return the end-of-turn token <|im_end|> as its last
// token id, as vLLM does with the EOS it stopped on; the text leaves it out.
func WithEOSInTokenIDs() Option { return func(c *config) { c.eosInIDs = true } }

type completionRequest struct {
	Model            string          `json:"model"`
	Prompt           json.RawMessage `json:"prompt"`
	MaxTokens        *int            `json:"max_tokens"`
	Stop             json.RawMessage `json:"stop"`
	Logprobs         *int            `json:"logprobs"`
	Temperature      *float64        `json:"temperature"`
	Seed             *int64          `json:"seed"`
	N                *int            `json:"n"`
	Echo             bool            `json:"echo"`
	Stream           bool            `json:"stream"`
	ReturnTokenIDs   bool            `json:"return_token_ids"`
	IncludeStopStr   bool            `json:"include_stop_str_in_output"`
	AddSpecialTokens *bool           `json:"add_special_tokens"`
}

type completionLogprobs struct {
	TextOffset    []int                `json:"text_offset"`
	TokenLogprobs []float64            `json:"token_logprobs"`
	Tokens        []string             `json:"tokens"`
	TopLogprobs   []map[string]float64 `json:"top_logprobs"`
}

type completionChoice struct {
	Index          int                 `json:"index"`
	Text           string              `json:"text"`
	Logprobs       *completionLogprobs `json:"logprobs"`
	FinishReason   string              `json:"finish_reason"`
	StopReason     *string             `json:"stop_reason"`
	TokenIDs       []int32             `json:"token_ids"`
	PromptLogprobs *any                `json:"prompt_logprobs"`
	PromptTokenIDs []int32             `json:"prompt_token_ids"`
}

type completionResponse struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	Created           int64              `json:"created"`
	Model             string             `json:"model"`
	Choices           []completionChoice `json:"choices"`
	ServiceTier       *string            `json:"service_tier"`
	SystemFingerprint *string            `json:"system_fingerprint"`
	Usage             usage              `json:"usage"`
	KVTransferParams  *any               `json:"kv_transfer_params"`
}

// completionPrompt reads prompt: a string (tokenised with the BPE) or a
// list of token ids (decoded for the policy). ok is false once it has
// answered 400.
func (s *Server) completionPrompt(w http.ResponseWriter, rec *Record, raw json.RawMessage) (ids []int32, text string, ok bool) {
	raw = bytes.TrimSpace(raw)
	bad := func(format string, args ...any) ([]int32, string, bool) {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "prompt", format, args...)
		return nil, "", false
	}
	if len(raw) == 0 || string(raw) == "null" {
		return bad("Either prompt or prompt_embeds must be provided and non-empty.")
	}
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &text); err != nil || text == "" {
			return bad("Either prompt or prompt_embeds must be provided and non-empty.")
		}
		return EncodeBPE(text), text, true
	}
	if err := json.Unmarshal(raw, &ids); err != nil || len(ids) == 0 {
		return bad("openaitest serves one prompt per request: a non-empty string or a list of token ids")
	}
	if s.cfg.noTokenPrompts {
		return bad("this server takes text prompts only")
	}
	text, err := DecodeBPE(ids)
	if err != nil {
		return bad("prompt: %v", err)
	}
	return ids, text, true
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request, rec *Record) {
	defer s.busy()()
	live, f, body, ok := s.admit(w, r, rec)
	if !ok {
		return
	}
	var req completionRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "invalid request body: %v", err)
		return
	}
	if !s.checkCompletion(w, rec, &req, live) {
		return
	}
	prompt, text, ok := s.completionPrompt(w, rec, req.Prompt)
	if !ok {
		return
	}
	stops, err := parseStop(req.Stop)
	if err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "stop", "%v", err)
		return
	}
	budget, ok := s.budget(w, rec, len(prompt), req.MaxTokens)
	if !ok || !s.sleep(r, s.cfg.latency) || !s.wait(r, s.cfg.hold) {
		return
	}
	resp := completionResponse{
		ID:      fmt.Sprintf("cmpl-%d-%s", rec.ChatSeq, randHex()),
		Object:  "text_completion",
		Created: time.Now().Unix(),
		Model:   live.Model,
		Usage:   usage{PromptTokens: len(prompt)},
	}
	reply := s.cfg.completion(live.Version, text)
	withIDs := req.ReturnTokenIDs && !s.cfg.noTokenIDs
	n := 1
	if req.N != nil {
		n = *req.N
	}
	for i := range n {
		c := sample(reply, stops, req.IncludeStopStr, budget)
		c.Index = i
		if s.cfg.eosInIDs && c.FinishReason == "stop" && c.StopReason == nil && len(c.TokenIDs) < budget {
			c.TokenIDs = append(c.TokenIDs, BPEIMEnd)
		}
		if req.Logprobs != nil {
			c.Logprobs = completionLogprobsOf(c.TokenIDs, *req.Logprobs)
		}
		resp.Usage.CompletionTokens += len(c.TokenIDs)
		if !withIDs {
			c.TokenIDs = nil
		} else {
			c.PromptTokenIDs = prompt
		}
		resp.Choices = append(resp.Choices, c)
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens + resp.Usage.CompletionTokens
	spoilCompletion(&resp, f.Kind)
	out, err := json.Marshal(resp)
	if err != nil {
		s.fail(w, rec, http.StatusInternalServerError, "InternalServerError", "", "encode response: %v", err)
		return
	}
	rec.ResponseID = resp.ID
	s.served(w, rec, live.Version, out)
}

// checkCompletion refuses what the server does not serve, with vLLM's 400
// (404 for another model). ok is false once it has answered.
func (s *Server) checkCompletion(w http.ResponseWriter, rec *Record, req *completionRequest, live Weights) bool {
	bad := func(param, format string, args ...any) bool {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", param, format, args...)
		return false
	}
	switch {
	case req.Model != live.Model:
		s.fail(w, rec, http.StatusNotFound, "NotFoundError", "model", "The model `%s` does not exist.", req.Model)
		return false
	case req.Stream:
		return bad("stream", "openaitest serves non-streaming completions only")
	case req.Echo:
		return bad("echo", "openaitest does not serve echo")
	case req.N != nil && *req.N < 1:
		return bad("n", "n must be at least 1, got %d", *req.N)
	case req.Logprobs != nil && *req.Logprobs < 0:
		return bad("logprobs", "`logprobs` must be a positive value or -1.")
	case req.Temperature != nil && *req.Temperature < 0:
		return bad("temperature", "temperature must be non-negative, got %v.", *req.Temperature)
	}
	return true
}

// budget applies max_tokens (vLLM's completions default: 16) and the
// context length to a prompt of n tokens.
func (s *Server) budget(w http.ResponseWriter, rec *Record, n int, maxTokens *int) (int, bool) {
	maxLen := s.cfg.maxModelLen
	want := 16
	if maxTokens != nil {
		want = *maxTokens
	}
	if n >= maxLen {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "This model's maximum context length is %d tokens. However, your request has %d input tokens. Please reduce the length of the input messages.", maxLen, n)
		return 0, false
	}
	if want < 1 {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "max_tokens", "max_tokens must be at least 1, got %d.", want)
		return 0, false
	}
	if want > maxLen-n {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "'max_tokens' is too large: %d. This model's maximum context length is %d tokens and your request has %d input tokens (%d > %d - %d).", want, maxLen, n, want, maxLen, n)
		return 0, false
	}
	return want, true
}

// sample cuts the reply at its first stop string, then to budget BPE
// tokens; the ids are the BPE of the text returned.
func sample(reply string, stops []string, includeStop bool, budget int) completionChoice {
	g := generate(reply, stops, includeStop, len(reply)+1) // stop strings only: the budget is in BPE tokens here
	c := completionChoice{Text: g.Message.Content, FinishReason: "stop", StopReason: g.StopReason}
	c.TokenIDs = EncodeBPE(c.Text)
	if len(c.TokenIDs) > budget {
		c.TokenIDs = c.TokenIDs[:budget]
		c.Text, _ = DecodeBPE(c.TokenIDs) // the ids came from EncodeBPE
		c.FinishReason, c.StopReason = "length", nil
		// A cut inside a multi-byte character leaves bytes that are not
		// UTF-8; vLLM holds them back, so does this server.
		for !utf8.ValidString(c.Text) && len(c.TokenIDs) > 0 {
			c.TokenIDs = c.TokenIDs[:len(c.TokenIDs)-1]
			c.Text, _ = DecodeBPE(c.TokenIDs)
		}
	}
	return c
}

// completionLogprobsOf is vLLM's completions logprobs for the sampled ids:
// each token's text, its Logprob, its offset in the text (in characters),
// and top-k alternatives: the sampled token first, then altN tokens.
func completionLogprobsOf(ids []int32, top int) *completionLogprobs {
	lp := &completionLogprobs{TextOffset: []int{}, TokenLogprobs: []float64{}, Tokens: []string{}, TopLogprobs: []map[string]float64{}}
	offset := 0
	for i, id := range ids {
		tok, _ := DecodeBPE([]int32{id})
		l := Logprob(id, i)
		lp.Tokens = append(lp.Tokens, tok)
		lp.TokenLogprobs = append(lp.TokenLogprobs, l)
		lp.TextOffset = append(lp.TextOffset, offset)
		offset += utf8.RuneCountInString(tok)
		alts := map[string]float64{tok: l}
		for k := 1; k < top; k++ {
			alts[fmt.Sprintf("alt%d", k)] = l - float64(k)
		}
		lp.TopLogprobs = append(lp.TopLogprobs, alts)
	}
	return lp
}

// spoilCompletion applies an answer fault to a built completion.
func spoilCompletion(resp *completionResponse, f FaultKind) {
	switch f {
	case FaultNoChoices:
		resp.Choices = []completionChoice{}
	case FaultNoTokenIDs:
		for i := range resp.Choices {
			resp.Choices[i].TokenIDs, resp.Choices[i].PromptTokenIDs = nil, nil
		}
	case FaultShortLogprobs:
		for i := range resp.Choices {
			lp := resp.Choices[i].Logprobs
			if lp == nil || len(lp.Tokens) == 0 {
				resp.Choices[i].Logprobs = &completionLogprobs{TextOffset: []int{0}, TokenLogprobs: []float64{-1}, Tokens: []string{"x"}, TopLogprobs: []map[string]float64{{"x": -1}}}
				continue
			}
			n := len(lp.Tokens) - 1
			lp.Tokens, lp.TokenLogprobs, lp.TextOffset, lp.TopLogprobs = lp.Tokens[:n], lp.TokenLogprobs[:n], lp.TextOffset[:n], lp.TopLogprobs[:n]
		}
	}
}

type tokenizeRequest struct {
	Model                string    `json:"model"`
	Prompt               *string   `json:"prompt"`
	Messages             []Message `json:"messages"`
	AddGenerationPrompt  *bool     `json:"add_generation_prompt"`
	ContinueFinalMessage bool      `json:"continue_final_message"`
	AddSpecialTokens     *bool     `json:"add_special_tokens"`
	ReturnTokenStrs      bool      `json:"return_token_strs"`
}

// tokenize is vLLM's POST /tokenize: a prompt (tokenised as is: the BPE
// adds no BOS, so add_special_tokens changes nothing), or messages rendered
// by ChatTemplate (add_generation_prompt defaults to true) and tokenised.
func (s *Server) tokenize(w http.ResponseWriter, r *http.Request, rec *Record) {
	live, _, body, ok := s.admit(w, r, rec)
	if !ok {
		return
	}
	var req tokenizeRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "", "invalid request body: %v", err)
		return
	}
	if !s.checkTokenize(w, rec, &req, live) {
		return
	}
	var ids []int32
	if req.Prompt != nil {
		ids = EncodeBPE(*req.Prompt)
	} else {
		gen := req.AddGenerationPrompt == nil || *req.AddGenerationPrompt
		ids = EncodeBPE(ChatTemplate(req.Messages, gen, req.ContinueFinalMessage))
	}
	if ids == nil {
		ids = []int32{}
	}
	resp := map[string]any{"count": len(ids), "max_model_len": s.cfg.maxModelLen, "tokens": ids, "token_strs": nil}
	if req.ReturnTokenStrs {
		strs := make([]string, len(ids))
		for i, id := range ids {
			strs[i], _ = DecodeBPE([]int32{id})
		}
		resp["token_strs"] = strs
	}
	out, _ := json.Marshal(resp)
	s.served(w, rec, live.Version, out)
}

func (s *Server) checkTokenize(w http.ResponseWriter, rec *Record, req *tokenizeRequest, live Weights) bool {
	bad := func(param, format string, args ...any) bool {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", param, format, args...)
		return false
	}
	switch {
	case req.Model != "" && req.Model != live.Model:
		s.fail(w, rec, http.StatusNotFound, "NotFoundError", "model", "The model `%s` does not exist.", req.Model)
		return false
	case (req.Prompt == nil) == (req.Messages == nil):
		return bad("prompt", "give exactly one of prompt and messages")
	case req.Prompt != nil:
		return true
	case req.ContinueFinalMessage && (req.AddGenerationPrompt == nil || *req.AddGenerationPrompt):
		return bad("continue_final_message", "Cannot set both `continue_final_message` and `add_generation_prompt` to True.")
	}
	if err := checkParts(req.Messages); err != nil {
		return bad("messages", "%v", err)
	}
	return true
}

// detokenize is vLLM's POST /detokenize: {"model","tokens"} → {"prompt"}.
func (s *Server) detokenize(w http.ResponseWriter, r *http.Request, rec *Record) {
	live, _, body, ok := s.admit(w, r, rec)
	if !ok {
		return
	}
	var req struct {
		Model  string  `json:"model"`
		Tokens []int32 `json:"tokens"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "tokens", "invalid request body: %v", err)
		return
	}
	if req.Model != "" && req.Model != live.Model {
		s.fail(w, rec, http.StatusNotFound, "NotFoundError", "model", "The model `%s` does not exist.", req.Model)
		return
	}
	text, err := DecodeBPE(req.Tokens)
	if err != nil {
		s.fail(w, rec, http.StatusBadRequest, "BadRequestError", "tokens", "%v", err)
		return
	}
	out, _ := json.Marshal(map[string]string{"prompt": text})
	s.served(w, rec, live.Version, out)
}
