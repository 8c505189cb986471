package openaitest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// The real tokenizer of the completions, tokenize and detokenize
// endpoints: OpenAI's cl100k_base byte-level BPE (github.com/tiktoken-go/
// tokenizer embeds its vocabulary, so it works offline and gives the same
// ids in every process). cl100k_base rather than o200k_base because Qwen's
// vocabulary — the models GEM trains — grew out of cl100k_base, so token
// counts and splits resemble the real thing, and its table is half the size.
//
// The chat template is ChatML as Qwen uses it (see ChatTemplate). Its
// special tokens get Qwen2's ids, all above cl100k_base's largest id
// (100276), so a special token never collides with a BPE id, and the text
// "<|im_start|>" in a prompt is the special token, as an HF tokenizer parses
// added tokens in text.
const (
	BPEEndOfText   int32 = 151643 // <|endoftext|>
	BPEIMStart     int32 = 151644 // <|im_start|>
	BPEIMEnd       int32 = 151645 // <|im_end|>
	BPEVisionStart int32 = 151652 // <|vision_start|>
	BPEVisionEnd   int32 = 151653 // <|vision_end|>
	BPEImagePad    int32 = 151655 // <|image_pad|>
	// ImagePads is how many <|image_pad|> tokens stand for one image part:
	// whatever its size, an image counts ImagePads+2 tokens (with
	// <|vision_start|> and <|vision_end|>), in the chat endpoint's fake
	// tokenizer as in the BPE.
	ImagePads = 16
)

var specials = []struct {
	text string
	id   int32
}{
	{"<|endoftext|>", BPEEndOfText},
	{"<|im_start|>", BPEIMStart},
	{"<|im_end|>", BPEIMEnd},
	{"<|vision_start|>", BPEVisionStart},
	{"<|vision_end|>", BPEVisionEnd},
	{"<|image_pad|>", BPEImagePad},
}

// cl100k is built once per process: the vocabulary (100k entries) is the
// library's own package-level table, so a second copy would save nothing.
// The codec is immutable after construction and safe for concurrent use.
var cl100k = sync.OnceValue(func() tokenizer.Codec {
	c, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		panic(fmt.Sprintf("openaitest: cl100k_base: %v", err)) // the vocabulary is compiled in
	}
	return c
})

// EncodeBPE tokenises text as the completions and tokenize endpoints do:
// special-token strings (the ChatML and vision markers) become their ids,
// the rest cl100k_base's BPE.
func EncodeBPE(text string) []int32 {
	var ids []int32
	for text != "" {
		at, sp := nextSpecial(text)
		ids = appendBPE(ids, text[:at])
		if sp < 0 {
			break
		}
		ids = append(ids, specials[sp].id)
		text = text[at+len(specials[sp].text):]
	}
	return ids
}

// nextSpecial finds the first special-token string in text: its offset and
// index in specials, or (len(text), -1).
func nextSpecial(text string) (int, int) {
	at, which := len(text), -1
	for i, sp := range specials {
		if j := strings.Index(text, sp.text); j >= 0 && j < at {
			at, which = j, i
		}
	}
	return at, which
}

func appendBPE(ids []int32, text string) []int32 {
	if text == "" {
		return ids
	}
	got, _, err := cl100k().Encode(text)
	if err != nil {
		panic(fmt.Sprintf("openaitest: cl100k_base encode: %v", err)) // only the strict UTF-8 mode errs
	}
	for _, id := range got {
		ids = append(ids, int32(id))
	}
	return ids
}

// DecodeBPE is EncodeBPE's inverse: DecodeBPE(EncodeBPE(s)) == s for valid
// UTF-8 s. An id that is neither a cl100k_base token nor a special token is
// an error naming it.
func DecodeBPE(ids []int32) (string, error) {
	var b strings.Builder
	run := make([]uint, 0, len(ids))
	flush := func() error {
		if len(run) == 0 {
			return nil
		}
		s, err := cl100k().Decode(run)
		if err != nil {
			return err
		}
		b.WriteString(s)
		run = run[:0]
		return nil
	}
	for _, id := range ids {
		if sp, ok := specialText(id); ok {
			if err := flush(); err != nil {
				return "", err
			}
			b.WriteString(sp)
			continue
		}
		if id < 0 {
			return "", fmt.Errorf("invalid token: %d", id)
		}
		run = append(run, uint(id))
	}
	if err := flush(); err != nil {
		return "", err
	}
	return b.String(), nil
}

func specialText(id int32) (string, bool) {
	for _, sp := range specials {
		if sp.id == id {
			return sp.text, true
		}
	}
	return "", false
}

// ChatTemplate renders messages as the server's chat template does — ChatML
// as Qwen uses it, with no default system message:
//
//	<|im_start|>{role}\n{content}<|im_end|>\n   per message, then
//	<|im_start|>assistant\n                     with addGenerationPrompt.
//
// With continueFinal the last message is left open (no <|im_end|>\n), as
// vLLM's continue_final_message. An image part renders as <|vision_start|>,
// ImagePads <|image_pad|>, <|vision_end|>, where it stands among the text
// parts.
func ChatTemplate(messages []Message, addGenerationPrompt, continueFinal bool) string {
	var b strings.Builder
	for i, m := range messages {
		b.WriteString("<|im_start|>" + m.Role + "\n")
		b.WriteString(templateContent(m))
		if continueFinal && i == len(messages)-1 {
			return b.String()
		}
		b.WriteString("<|im_end|>\n")
	}
	if addGenerationPrompt {
		b.WriteString("<|im_start|>assistant\n")
	}
	return b.String()
}

func templateContent(m Message) string {
	if m.Parts == nil {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.Parts {
		switch p.Type {
		case "text":
			b.WriteString(p.Text)
		case "image_url":
			b.WriteString("<|vision_start|>" + strings.Repeat("<|image_pad|>", ImagePads) + "<|vision_end|>")
		}
	}
	return b.String()
}
