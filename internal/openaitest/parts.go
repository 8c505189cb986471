package openaitest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig checks the image data URLs
	_ "image/jpeg"
	_ "image/png"
	"strings"
)

// ContentPart is one part of a message's content in OpenAI's multimodal
// shape: {"type":"text","text":…} or {"type":"image_url","image_url":
// {"url":"data:image/png;base64,…"}}.
type ContentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
}

// ImageURL is an image part's image. The server takes data URLs only (it
// fetches nothing); Detail is accepted and ignored.
type ImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []ToolCall      `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// UnmarshalJSON reads content as a string, null, or a list of parts.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w wireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID}
	raw := bytes.TrimSpace(w.Content)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		return json.Unmarshal(raw, &m.Content)
	}
	if err := json.Unmarshal(raw, &m.Parts); err != nil {
		return fmt.Errorf("content: want a string or a list of content parts: %w", err)
	}
	if m.Parts == nil {
		m.Parts = []ContentPart{}
	}
	var text strings.Builder
	for _, p := range m.Parts {
		if p.Type == "text" {
			text.WriteString(p.Text)
		}
	}
	m.Content = text.String()
	return nil
}

// MarshalJSON writes the parts when the message has them, else the string.
func (m Message) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	if m.Parts != nil {
		content = m.Parts
	}
	return json.Marshal(struct {
		Role       string     `json:"role"`
		Content    any        `json:"content"`
		ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}{m.Role, content, m.ToolCalls, m.ToolCallID})
}

// Images counts the message's image parts.
func (m Message) Images() int {
	n := 0
	for _, p := range m.Parts {
		if p.Type == "image_url" {
			n++
		}
	}
	return n
}

// checkParts accepts text parts and image parts whose URL is a base64 data
// URL of a PNG, JPEG or GIF that decodes (its header, by image.DecodeConfig)
// as the type it names.
func checkParts(msgs []Message) error {
	for i, m := range msgs {
		for j, p := range m.Parts {
			switch p.Type {
			case "text":
			case "image_url":
				if p.ImageURL == nil {
					return fmt.Errorf("messages[%d].content[%d]: image_url part without image_url", i, j)
				}
				if err := checkDataURL(p.ImageURL.URL); err != nil {
					return fmt.Errorf("messages[%d].content[%d].image_url.url: %w", i, j, err)
				}
			default:
				return fmt.Errorf("messages[%d].content[%d]: unknown part type %q (want text or image_url)", i, j, p.Type)
			}
		}
	}
	return nil
}

func checkDataURL(url string) error {
	rest, ok := strings.CutPrefix(url, "data:")
	if !ok {
		return fmt.Errorf("openaitest takes data URLs only (data:image/png;base64,…), got %.40q", url)
	}
	mime, data, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return fmt.Errorf("want a base64 data URL (data:<mime>;base64,<data>)")
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return fmt.Errorf("invalid base64 image data: %w", err)
	}
	_, format, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("cannot identify image file: %w", err)
	}
	if mime != "image/"+format {
		return fmt.Errorf("data URL says %s but the image is %s", mime, format)
	}
	return nil
}
