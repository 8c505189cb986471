package envs

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
)

// Image is one picture an observation shows (a math problem's diagram),
// the bytes of an image file as the dataset stores them.
type Image struct {
	// MIME is the file's media type (image/png, image/jpeg, …).
	MIME string
	Data []byte
}

// DataURL is the image as a base64 data URL (data:image/png;base64,…),
// the form OpenAI's image parts take.
func (im Image) DataURL() string {
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// ImageRef is how an image is recorded (turn log, prompt_delta): by
// reference, never its bytes, so a turns table stays text-sized. The
// bytes are the dataset row's (task_id names it); SHA256 checks them.
type ImageRef struct {
	MIME   string `json:"mime"`
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Ref is the image's record.
func (im Image) Ref() ImageRef {
	sum := sha256.Sum256(im.Data)
	return ImageRef{MIME: im.MIME, Bytes: len(im.Data), SHA256: hex.EncodeToString(sum[:])}
}

// MarshalJSON records the image by reference (Ref).
func (im Image) MarshalJSON() ([]byte, error) { return json.Marshal(im.Ref()) }

// Equal reports whether two images are the same file.
func (im Image) Equal(o Image) bool { return im.MIME == o.MIME && bytes.Equal(im.Data, o.Data) }

// Part types of a multimodal message (Message.Parts).
const (
	PartText  = "text"
	PartImage = "image"
)

// Part is one piece of a multimodal message's content: text, or an image.
// Its JSON is Hugging Face's chat content part ({"type":"text","text":…},
// {"type":"image","image":…}) with the image by reference (ImageRef).
type Part struct {
	Type  string `json:"type"`
	Text  string `json:"text,omitempty"`
	Image *Image `json:"image,omitempty"`
}

// Equal reports whether two parts are the same content.
func (p Part) Equal(o Part) bool {
	if p.Type != o.Type || p.Text != o.Text || (p.Image == nil) != (o.Image == nil) {
		return false
	}
	return p.Image == nil || p.Image.Equal(*o.Image)
}

// ImageMarker is where a question's text places its image (Geometry3K's
// problems start with it, as LLaVA-style datasets do).
const ImageMarker = "<image>"

// ImageParts is the content of an observation showing text and images:
// when the text holds one ImageMarker per image, each image takes its
// marker's place; otherwise the images come first, then the text as it is.
func ImageParts(text string, images []Image) []Part {
	parts := make([]Part, 0, 2*len(images)+1)
	if segs := strings.Split(text, ImageMarker); len(segs) == len(images)+1 {
		for i, s := range segs {
			if s != "" {
				parts = append(parts, Part{Type: PartText, Text: s})
			}
			if i < len(images) {
				parts = append(parts, Part{Type: PartImage, Image: &images[i]})
			}
		}
		return parts
	}
	for i := range images {
		parts = append(parts, Part{Type: PartImage, Image: &images[i]})
	}
	if text != "" {
		parts = append(parts, Part{Type: PartText, Text: text})
	}
	return parts
}

// Text is the message's text: Content, or its text parts joined.
func (m Message) Text() string {
	if m.Parts == nil {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Images counts the message's image parts.
func (m Message) Images() int {
	n := 0
	for _, p := range m.Parts {
		if p.Type == PartImage {
			n++
		}
	}
	return n
}

// Equal reports whether two messages are the same, parts and images
// included.
func (m Message) Equal(o Message) bool {
	return m.Role == o.Role && m.Content == o.Content && (m.Parts == nil) == (o.Parts == nil) &&
		slices.EqualFunc(m.Parts, o.Parts, Part.Equal)
}

// MarshalJSON writes content as a string, or as the list of parts when the
// message has them (images by reference).
func (m Message) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	if m.Parts != nil {
		content = m.Parts
	}
	return json.Marshal(struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}{m.Role, content})
}

// Chat is the prompt as chat messages: Messages, or the text as one user
// message (its images as parts, see ImageParts).
func (p Prompt) Chat() []Message {
	if p.Messages != nil {
		return p.Messages
	}
	m := Message{Role: "user", Content: p.Text}
	if len(p.Images) > 0 {
		m = Message{Role: "user", Parts: ImageParts(p.Text, p.Images)}
	}
	return []Message{m}
}

// HasImages reports whether the prompt shows any image.
func (p Prompt) HasImages() bool {
	if len(p.Images) > 0 {
		return true
	}
	return slices.ContainsFunc(p.Messages, func(m Message) bool { return m.Images() > 0 })
}

// UnmarshalJSON reads content as a string or a list of parts (images come
// back as their media type only: records hold no image bytes).
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role}
	raw := bytes.TrimSpace(w.Content)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil
	case raw[0] == '[':
		var parts []struct {
			Type  string    `json:"type"`
			Text  string    `json:"text"`
			Image *ImageRef `json:"image"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return err
		}
		m.Parts = make([]Part, len(parts))
		for i, p := range parts {
			m.Parts[i] = Part{Type: p.Type, Text: p.Text}
			if p.Image != nil {
				m.Parts[i].Image = &Image{MIME: p.Image.MIME}
			}
		}
		return nil
	}
	return json.Unmarshal(raw, &m.Content)
}
