package envs

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestImageParts(t *testing.T) {
	a, b := Image{MIME: "image/png", Data: []byte("a")}, Image{MIME: "image/gif", Data: []byte("b")}
	img := func(im Image) Part { return Part{Type: PartImage, Image: &im} }
	txt := func(s string) Part { return Part{Type: PartText, Text: s} }
	for _, tt := range []struct {
		text   string
		images []Image
		want   []Part
	}{
		{"<image>Find x.", []Image{a}, []Part{img(a), txt("Find x.")}},
		{"Compare <image> with <image>.", []Image{a, b}, []Part{txt("Compare "), img(a), txt(" with "), img(b), txt(".")}},
		// Markers that do not match the images: images first, text as it is.
		{"Find x.", []Image{a, b}, []Part{img(a), img(b), txt("Find x.")}},
		{"<image>Find x.", []Image{a, b}, []Part{img(a), img(b), txt("<image>Find x.")}},
	} {
		if got := ImageParts(tt.text, tt.images); !slices.EqualFunc(got, tt.want, Part.Equal) {
			t.Errorf("ImageParts(%q, %d images) = %+v, want %+v", tt.text, len(tt.images), got, tt.want)
		}
	}
}

// A message's JSON is the chat shape: content a string, or parts with
// images by reference; text messages encode as they always have.
func TestMessageJSON(t *testing.T) {
	text, err := json.Marshal(Message{Role: "user", Content: "hi"})
	if err != nil || string(text) != `{"role":"user","content":"hi"}` {
		t.Fatalf("text message %s, %v", text, err)
	}
	im := Image{MIME: "image/png", Data: []byte("png bytes")}
	m := Message{Role: "user", Parts: ImageParts("<image>Find x.", []Image{im})}
	b, err := json.Marshal(m)
	want := `{"role":"user","content":[{"type":"image","image":{"mime":"image/png","bytes":9,"sha256":"` + im.Ref().SHA256 + `"}},{"type":"text","text":"Find x."}]}`
	if err != nil || string(b) != want {
		t.Fatalf("image message\n got %s\nwant %s (%v)", b, want, err)
	}
	var back []Message
	if err := json.Unmarshal([]byte(`[`+string(text)+`,`+string(b)+`]`), &back); err != nil {
		t.Fatal(err)
	}
	if back[0].Content != "hi" || back[1].Text() != "Find x." || back[1].Images() != 1 || back[1].Parts[0].Image.MIME != "image/png" {
		t.Fatalf("decoded %+v", back)
	}
	if !m.Equal(m) || m.Equal(Message{Role: "user", Parts: ImageParts("<image>Find x.", []Image{{MIME: "image/png", Data: []byte("other")}})}) {
		t.Error("Equal must compare image bytes")
	}
}
