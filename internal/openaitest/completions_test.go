package openaitest_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/quarry-rl/quarry/internal/openaitest"
)

type wireCompletion struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index    int    `json:"index"`
		Text     string `json:"text"`
		Logprobs *struct {
			TextOffset    []int                `json:"text_offset"`
			TokenLogprobs []float64            `json:"token_logprobs"`
			Tokens        []string             `json:"tokens"`
			TopLogprobs   []map[string]float64 `json:"top_logprobs"`
		} `json:"logprobs"`
		FinishReason   string  `json:"finish_reason"`
		StopReason     *string `json:"stop_reason"`
		TokenIDs       []int32 `json:"token_ids"`
		PromptTokenIDs []int32 `json:"prompt_token_ids"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

type wireTokenize struct {
	Tokens      []int32 `json:"tokens"`
	Count       int     `json:"count"`
	MaxModelLen int     `json:"max_model_len"`
}

// The server's BPE is cl100k_base as OpenAI's tiktoken computes it: a
// golden pair, and the library's own codec, agree with EncodeBPE.
func TestBPEIsCl100k(t *testing.T) {
	if got := openaitest.EncodeBPE("hello world"); !slices.Equal(got, []int32{15339, 1917}) {
		t.Errorf("EncodeBPE(hello world) = %v, want tiktoken's [15339 1917]", got)
	}
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	text := "Guess the word: _ _ a _ e. Try \\boxed{crane} — ünïcode 42."
	ids, _, _ := codec.Encode(text)
	want := make([]int32, len(ids))
	for i, id := range ids {
		want[i] = int32(id)
	}
	if got := openaitest.EncodeBPE(text); !slices.Equal(got, want) {
		t.Errorf("EncodeBPE = %v, want %v", got, want)
	}
	// Special-token strings are their ids, above every BPE id.
	got := openaitest.EncodeBPE("<|im_start|>user\nhi<|im_end|>")
	if got[0] != openaitest.BPEIMStart || got[len(got)-1] != openaitest.BPEIMEnd || slices.Contains(got[1:len(got)-1], openaitest.BPEIMStart) {
		t.Errorf("specials: %v", got)
	}
	if back, err := openaitest.DecodeBPE(got); err != nil || back != "<|im_start|>user\nhi<|im_end|>" {
		t.Errorf("DecodeBPE = %q, %v", back, err)
	}
	if _, err := openaitest.DecodeBPE([]int32{100256}); err == nil {
		t.Error("DecodeBPE of an id outside the vocabulary: no error")
	}
}

func TestCompletionsTextPrompt(t *testing.T) {
	var seen string
	srv := openaitest.Start(t, openaitest.WithCompletionPolicy(func(prompt string) string {
		seen = prompt
		return "I guess \\boxed{crane}. Done</s> trailing"
	}))
	prompt := "<|im_start|>user\nGuess a word.<|im_end|>\n<|im_start|>assistant\n"
	body := map[string]any{"model": openaitest.DefaultModel, "prompt": prompt, "max_tokens": 64, "stop": []string{"</s>"},
		"logprobs": 2, "temperature": 1.0, "seed": 7, "return_token_ids": true}
	resp, out, err := post(t, &http.Client{}, srv.BaseURL()+"/completions", "", body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %v err %v: %s", resp, err, out)
	}
	if seen != prompt {
		t.Errorf("policy saw %q, want the prompt", seen)
	}
	r := decode[wireCompletion](t, out)
	if !strings.HasPrefix(r.ID, "cmpl-0-") || r.Object != "text_completion" || r.Model != openaitest.DefaultModel {
		t.Errorf("id %q object %q model %q", r.ID, r.Object, r.Model)
	}
	c := r.Choices[0]
	if c.Text != "I guess \\boxed{crane}. Done" || c.FinishReason != "stop" || c.StopReason == nil || *c.StopReason != "</s>" {
		t.Errorf("choice = %+v", c)
	}
	if want := openaitest.EncodeBPE(prompt); !slices.Equal(c.PromptTokenIDs, want) || want[0] != openaitest.BPEIMStart {
		t.Errorf("prompt_token_ids = %v, want %v", c.PromptTokenIDs, want)
	}
	if want := openaitest.EncodeBPE(c.Text); !slices.Equal(c.TokenIDs, want) {
		t.Errorf("token_ids = %v, want %v", c.TokenIDs, want)
	}
	if r.Usage.PromptTokens != len(c.PromptTokenIDs) || r.Usage.CompletionTokens != len(c.TokenIDs) || r.Usage.TotalTokens != r.Usage.PromptTokens+r.Usage.CompletionTokens {
		t.Errorf("usage = %+v", r.Usage)
	}
	lp := c.Logprobs
	if lp == nil || len(lp.Tokens) != len(c.TokenIDs) || len(lp.TokenLogprobs) != len(c.TokenIDs) || len(lp.TextOffset) != len(c.TokenIDs) || len(lp.TopLogprobs) != len(c.TokenIDs) {
		t.Fatalf("logprobs = %+v", lp)
	}
	if strings.Join(lp.Tokens, "") != c.Text {
		t.Errorf("tokens %q do not make the text", lp.Tokens)
	}
	for i, id := range c.TokenIDs {
		if lp.TokenLogprobs[i] != openaitest.Logprob(id, i) || len(lp.TopLogprobs[i]) != 2 || lp.TopLogprobs[i][lp.Tokens[i]] != lp.TokenLogprobs[i] {
			t.Errorf("logprob %d: %v %v", i, lp.TokenLogprobs[i], lp.TopLogprobs[i])
		}
		if i > 0 && lp.TextOffset[i] != lp.TextOffset[i-1]+len([]rune(lp.Tokens[i-1])) {
			t.Errorf("text_offset %v", lp.TextOffset)
		}
	}

	// max_tokens cuts in BPE tokens; without return_token_ids no ids.
	body = map[string]any{"model": openaitest.DefaultModel, "prompt": prompt, "max_tokens": 3}
	_, out, _ = post(t, &http.Client{}, srv.BaseURL()+"/completions", "", body)
	r = decode[wireCompletion](t, out)
	want, _ := openaitest.DecodeBPE(openaitest.EncodeBPE("I guess \\boxed{crane}")[:3])
	if c := r.Choices[0]; c.Text != want || c.FinishReason != "length" || c.TokenIDs != nil || c.PromptTokenIDs != nil || c.Logprobs != nil || r.Usage.CompletionTokens != 3 {
		t.Errorf("cut choice = %+v (want text %q)", c, want)
	}
}

// A prompt of token ids comes back as prompt_token_ids exactly, and the
// policy sees its decoded text.
func TestCompletionsTokenPrompt(t *testing.T) {
	var seen string
	srv := openaitest.Start(t, openaitest.WithCompletionPolicy(func(p string) string { seen = p; return "fine" }))
	ids := append([]int32{openaitest.BPEIMStart}, openaitest.EncodeBPE("user\nhow are you")...)
	body := map[string]any{"model": openaitest.DefaultModel, "prompt": ids, "max_tokens": 4, "return_token_ids": true}
	resp, out, err := post(t, &http.Client{}, srv.BaseURL()+"/completions", "", body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %v err %v: %s", resp, err, out)
	}
	c := decode[wireCompletion](t, out).Choices[0]
	if !slices.Equal(c.PromptTokenIDs, ids) || seen != "<|im_start|>user\nhow are you" || !slices.Equal(c.TokenIDs, openaitest.EncodeBPE("fine")) {
		t.Errorf("prompt ids %v (want %v), policy saw %q, token ids %v", c.PromptTokenIDs, ids, seen, c.TokenIDs)
	}

	// The default completion policy is the chat Policy on one user message.
	srv = openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string { return "echo: " + m[0].Role + " " + m[0].Content }))
	_, out, _ = post(t, &http.Client{}, srv.BaseURL()+"/completions", "", map[string]any{"model": openaitest.DefaultModel, "prompt": "abc"})
	if c := decode[wireCompletion](t, out).Choices[0]; c.Text != "echo: user abc" {
		t.Errorf("default policy text %q", c.Text)
	}
}

func TestCompletionsRefusals(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithMaxModelLen(10))
	cases := []struct {
		name  string
		body  map[string]any
		param string
		msg   string
	}{
		{"no prompt", map[string]any{"model": openaitest.DefaultModel}, "prompt", "non-empty"},
		{"empty prompt", map[string]any{"model": openaitest.DefaultModel, "prompt": ""}, "prompt", "non-empty"},
		{"bad token id", map[string]any{"model": openaitest.DefaultModel, "prompt": []int{100256}}, "prompt", "invalid token: 100256"},
		{"several prompts", map[string]any{"model": openaitest.DefaultModel, "prompt": []string{"a", "b"}}, "prompt", "one prompt per request"},
		{"too long", map[string]any{"model": openaitest.DefaultModel, "prompt": strings.Repeat("a b ", 10)}, "", "maximum context length is 10 tokens"},
		{"max_tokens", map[string]any{"model": openaitest.DefaultModel, "prompt": "a", "max_tokens": 0}, "max_tokens", "at least 1"},
		{"logprobs", map[string]any{"model": openaitest.DefaultModel, "prompt": "a", "logprobs": -3}, "logprobs", "positive"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, out, err := post(t, &http.Client{}, srv.BaseURL()+"/completions", "", tc.body)
			if err != nil {
				t.Fatal(err)
			}
			e := decode[wireError](t, out)
			param := ""
			if e.Error.Param != nil {
				param = *e.Error.Param
			}
			if resp.StatusCode != 400 || e.Error.Type != "BadRequestError" || param != tc.param || !strings.Contains(e.Error.Message, tc.msg) {
				t.Errorf("got %d %s, want 400 param %q containing %q", resp.StatusCode, out, tc.param, tc.msg)
			}
		})
	}
}

func TestTokenizeAndDetokenize(t *testing.T) {
	srv := openaitest.Start(t, openaitest.WithMaxModelLen(321))
	c := &http.Client{}
	text := "Hello, tokenizer! 123"
	resp, out, err := post(t, c, srv.URL+"/tokenize", "", map[string]any{"model": openaitest.DefaultModel, "prompt": text, "add_special_tokens": true})
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %v err %v: %s", resp, err, out)
	}
	tok := decode[wireTokenize](t, out)
	if !slices.Equal(tok.Tokens, openaitest.EncodeBPE(text)) || tok.Count != len(tok.Tokens) || tok.MaxModelLen != 321 {
		t.Errorf("tokenize = %+v", tok)
	}

	// Messages: the chat template's text, tokenised.
	msgs := []openaitest.Message{{Role: "system", Content: "You are a player."}, {Role: "user", Content: "Your move."}}
	_, out, _ = post(t, c, srv.URL+"/tokenize", "", map[string]any{"model": openaitest.DefaultModel, "messages": msgs, "add_generation_prompt": true})
	template := "<|im_start|>system\nYou are a player.<|im_end|>\n<|im_start|>user\nYour move.<|im_end|>\n<|im_start|>assistant\n"
	if got := decode[wireTokenize](t, out).Tokens; openaitest.ChatTemplate(msgs, true, false) != template || !slices.Equal(got, openaitest.EncodeBPE(template)) {
		t.Errorf("tokenize messages = %v, want the BPE of %q", got, template)
	}
	// Without the generation prompt; continuing the final message.
	_, out, _ = post(t, c, srv.URL+"/tokenize", "", map[string]any{"messages": msgs, "add_generation_prompt": false, "continue_final_message": true})
	open := "<|im_start|>system\nYou are a player.<|im_end|>\n<|im_start|>user\nYour move."
	if got := decode[wireTokenize](t, out).Tokens; !slices.Equal(got, openaitest.EncodeBPE(open)) {
		t.Errorf("continue_final_message tokens decode to %q", must(openaitest.DecodeBPE(got)))
	}

	// Detokenize round trip.
	ids := openaitest.EncodeBPE(template)
	_, out, _ = post(t, c, srv.URL+"/detokenize", "", map[string]any{"model": openaitest.DefaultModel, "tokens": ids})
	if got := decode[struct {
		Prompt string `json:"prompt"`
	}](t, out).Prompt; got != template {
		t.Errorf("detokenize = %q, want %q", got, template)
	}
	resp, out, _ = post(t, c, srv.URL+"/detokenize", "", map[string]any{"tokens": []int{100256}})
	if e := decode[wireError](t, out); resp.StatusCode != 400 || !strings.Contains(e.Error.Message, "100256") {
		t.Errorf("bad id: %d %s", resp.StatusCode, out)
	}
	// Both or neither of prompt and messages; both generation flags.
	for _, body := range []map[string]any{{"prompt": "a", "messages": msgs}, {}, {"messages": msgs, "continue_final_message": true}} {
		if resp, out, _ := post(t, c, srv.URL+"/tokenize", "", body); resp.StatusCode != 400 {
			t.Errorf("%v: %d %s", body, resp.StatusCode, out)
		}
	}
	if n := len(srv.RecordsAt("/tokenize")); n != 6 {
		t.Errorf("%d tokenize records, want 6", n)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Faults, the key and a swap's window apply to the new endpoints as to
// chat, from the same plan; the older-server options take them away.
func TestCompletionsFaultsKeyAndAbsence(t *testing.T) {
	const key = "sk-openaitest-key-0123456789"
	srv := openaitest.Start(t, openaitest.WithAPIKey(key), openaitest.WithFaults(openaitest.ServerError(), openaitest.RateLimit(0), openaitest.NoTokenIDs()))
	c := &http.Client{}
	comp := map[string]any{"model": openaitest.DefaultModel, "prompt": "a", "return_token_ids": true}
	if resp, _, _ := post(t, c, srv.BaseURL()+"/completions", "", comp); resp.StatusCode != 401 {
		t.Errorf("no key: %d", resp.StatusCode)
	}
	if resp, _, _ := post(t, c, srv.BaseURL()+"/completions", key, comp); resp.StatusCode != 500 {
		t.Errorf("planned 500: %d", resp.StatusCode)
	}
	if resp, _, _ := post(t, c, srv.URL+"/tokenize", key, map[string]any{"prompt": "a"}); resp.StatusCode != 429 {
		t.Errorf("planned 429 on tokenize: %d", resp.StatusCode)
	}
	resp, out, _ := post(t, c, srv.BaseURL()+"/completions", key, comp)
	if ch := decode[wireCompletion](t, out).Choices[0]; resp.StatusCode != 200 || ch.TokenIDs != nil || ch.PromptTokenIDs != nil {
		t.Errorf("planned no_token_ids: %d %s", resp.StatusCode, out)
	}
	recs := srv.RecordsAt("/v1/completions")
	if len(recs) != 3 || recs[1].ChatSeq != 0 || recs[2].ChatSeq != 2 || recs[2].Version != openaitest.DefaultVersion || strings.Contains(recs[2].Header.Get("Authorization"), key) {
		t.Errorf("records = %+v", recs)
	}

	old := openaitest.Start(t, openaitest.WithoutCompletions(), openaitest.WithoutTokenize())
	for _, path := range []string{"/v1/completions", "/tokenize", "/detokenize"} {
		if resp, out, _ := post(t, c, old.URL+path, "", comp); resp.StatusCode != 404 || string(out) != `{"detail":"Not Found"}` {
			t.Errorf("%s on an older server: %d %s", path, resp.StatusCode, out)
		}
	}
	textOnly := openaitest.Start(t, openaitest.WithoutTokenPrompts())
	comp["prompt"] = []int{64}
	if resp, out, _ := post(t, c, textOnly.BaseURL()+"/completions", "", comp); resp.StatusCode != 400 || !strings.Contains(string(out), "text prompts only") {
		t.Errorf("token prompt on a text-only server: %d %s", resp.StatusCode, out)
	}
}

func pngDataURL(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestImageParts(t *testing.T) {
	var got []openaitest.Message
	srv := openaitest.Start(t, openaitest.WithPolicy(func(m []openaitest.Message) string { got = m; return "a square" }))
	c := &http.Client{}
	url := pngDataURL(t)
	msgs := []map[string]any{{"role": "user", "content": []map[string]any{
		{"type": "text", "text": "What is this? "},
		{"type": "image_url", "image_url": map[string]any{"url": url}},
		{"type": "text", "text": "Answer briefly."},
	}}}
	body := map[string]any{"model": openaitest.DefaultModel, "messages": msgs, "return_token_ids": true}
	resp, out, err := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %v err %v: %s", resp, err, out)
	}
	if len(got) != 1 || got[0].Content != "What is this? Answer briefly." || got[0].Images() != 1 || got[0].Parts[1].ImageURL.URL != url {
		t.Errorf("policy saw %+v", got)
	}
	r := decode[wireResponse](t, out)
	if want := openaitest.PromptTokenIDs(got); !slices.Equal(r.PromptTokenIDs, want) || len(want) != 3+5+openaitest.ImagePads+2+2 {
		t.Errorf("prompt ids %v, want %v", r.PromptTokenIDs, want)
	}
	// The BPE template renders the image as a fixed run of vision tokens.
	_, out, _ = post(t, c, srv.URL+"/tokenize", "", map[string]any{"messages": msgs, "add_generation_prompt": false})
	ids := decode[wireTokenize](t, out).Tokens
	pads := 0
	for _, id := range ids {
		if id == openaitest.BPEImagePad {
			pads++
		}
	}
	if pads != openaitest.ImagePads || !slices.Contains(ids, openaitest.BPEVisionStart) || !slices.Contains(ids, openaitest.BPEVisionEnd) {
		t.Errorf("tokenize of an image message: %v", ids)
	}

	bad := []struct{ url, msg string }{
		{"data:image/png;base64,!!!", "invalid base64"},
		{"data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("not a png")), "cannot identify image"},
		{strings.Replace(url, "image/png", "image/jpeg", 1), "says image/jpeg but the image is png"},
		{"https://example.com/cat.png", "data URLs only"},
	}
	for _, b := range bad {
		msgs[0]["content"].([]map[string]any)[1]["image_url"] = map[string]any{"url": b.url}
		resp, out, _ := post(t, c, srv.BaseURL()+"/chat/completions", "", body)
		e := decode[wireError](t, out)
		if resp.StatusCode != 400 || e.Error.Type != "BadRequestError" || e.Error.Param == nil || *e.Error.Param != "messages" ||
			!strings.Contains(e.Error.Message, "messages[0].content[1].image_url.url") || !strings.Contains(e.Error.Message, b.msg) {
			t.Errorf("%.40s: %d %s", b.url, resp.StatusCode, out)
		}
	}
}
