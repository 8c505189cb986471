package mathenv

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quarry-rl/quarry/envs"
	"github.com/quarry-rl/quarry/envs/envtest"
)

// TestVisualSample: the committed Geometry3K sample is what the generator
// writes, and each row plays as GEM's MathVisualEnv: the question as the
// observation with the row's image beside it, graded as MathEnv.
func TestVisualSample(t *testing.T) {
	path := filepath.Join("samples", Geometry3K.Sample)
	if *update {
		want, err := visualSample()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("sample rewritten; rebuild to embed it")
	}
	// The committed file is compared by content: the PNG bytes depend on
	// the Go release's deflate, the pixels do not.
	stale := "differs from the generator's output; run `go test ./envs/mathenv -run TestVisualSample -update` (and bump Revision)"
	e := envtest.Make(t, registry(t), Geometry3K.ID, nil)
	items := visualItems()
	if n, err := envs.Rows(e); err != nil || n != len(items) {
		t.Fatalf("%s: rows %d, %v; want %d: %s", path, n, err, len(items), stale)
	}
	for i, it := range items {
		obs, info, err := envs.ResetTask(e, i, 0)
		if err != nil {
			t.Fatal(err)
		}
		if obs != it.Problem {
			t.Fatalf("row %d: observation %q, want %q: %s", i, obs, it.Problem, stale)
		}
		if len(info.Images) != 1 || info.Images[0].MIME != "image/png" || !samePixels(t, info.Images[0].Data, visualImage(i).Data) {
			t.Fatalf("row %d: images %v, want the row's figure: %s", i, info.Images, stale)
		}
		for answer, reward := range map[string]float64{it.Answer: 1, it.Answer + "+1": 0} {
			if _, _, err := envs.ResetTask(e, i, 0); err != nil {
				t.Fatal(err)
			}
			res, err := e.Step(`\boxed{` + answer + `}`)
			if err != nil || res.Reward != reward || !res.Terminated {
				t.Errorf("row %d: answer %q scored %v (terminated %v), want %v: %v", i, answer, res.Reward, res.Terminated, reward, err)
			}
		}
	}
}

// TestVisualPrompt: the chat wrapper sends the question with its image in
// the place of the <image> marker; a text wrapper's prompt carries the
// image beside its text, and both record the image by reference only.
func TestVisualPrompt(t *testing.T) {
	e := envtest.Make(t, registry(t), Geometry3K.ID, nil)
	question, info, err := envs.ResetTask(e, 1, 0)
	if err != nil || len(info.Images) != 1 {
		t.Fatalf("row 1: %d images, %v", len(info.Images), err)
	}
	im := info.Images[0]
	text := strings.TrimPrefix(question, envs.ImageMarker)
	chat, _, err := envs.NewEpisode(e, envs.WrapChat, 0).ResetTask(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []envs.Part{{Type: envs.PartImage, Image: &im}, {Type: envs.PartText, Text: text}}
	if len(chat.Messages) != 1 || chat.Messages[0].Content != "" || len(chat.Messages[0].Parts) != 2 ||
		!chat.Messages[0].Parts[0].Equal(want[0]) || !chat.Messages[0].Parts[1].Equal(want[1]) {
		t.Fatalf("chat prompt %#v", chat.Messages)
	}
	last, _, err := envs.NewEpisode(e, envs.WrapLast, 0).ResetTask(1, 0)
	if err != nil {
		t.Fatal(err)
	}
	want[1].Text += "\n" // a text wrapper ends each observation with a newline
	if got := last.Chat(); len(got) != 1 || len(got[0].Parts) != 2 || !got[0].Parts[0].Equal(want[0]) || !got[0].Parts[1].Equal(want[1]) {
		t.Fatalf("last wrapper as chat %#v, want the image then the text", got)
	}
	b, err := chat.Messages[0].MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	ref := im.Ref()
	if bytes.Contains(b, []byte(base64.StdEncoding.EncodeToString(im.Data[:32]))) || !bytes.Contains(b, []byte(ref.SHA256)) ||
		!bytes.Contains(b, []byte(`{"type":"image","image":{"mime":"image/png"`)) {
		t.Fatalf("recorded message %s: want the image by reference (sha256 %s), no bytes", b, ref.SHA256)
	}
}

// TestVisualImageColumn: the image column's JSON Lines forms (a data URL,
// a base64 {bytes} object, a list) are read; a row whose image is only a
// path, not an image, or null fails its reset naming the column.
func TestVisualImageColumn(t *testing.T) {
	png := visualImage(0).Data
	b64 := base64.StdEncoding.EncodeToString(png)
	lines := []string{
		`{"problem":"<image>Find x.","answer":"3","images":"data:image/png;base64,` + b64 + `"}`,
		`{"problem":"<image><image>Find x.","answer":"3","images":[{"bytes":"` + b64 + `","path":null},"data:image/png;base64,` + b64 + `"]}`,
		`{"problem":"Find x.","answer":"3","images":[{"bytes":null,"path":"fig.png"}]}`,
		`{"problem":"Find x.","answer":"3","images":"data:image/png;base64,` + base64.StdEncoding.EncodeToString([]byte("hello, not an image")) + `"}`,
		`{"problem":"Find x.","answer":"3","images":null}`,
	}
	path := filepath.Join(t.TempDir(), "geo.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := envtest.Make(t, registry(t), Geometry3K.ID, map[string]any{"dataset": path})
	for row, n := range []int{1, 2} {
		_, info, err := envs.ResetTask(e, row, 0)
		if err != nil || len(info.Images) != n {
			t.Fatalf("row %d: %d images, %v; want %d", row, len(info.Images), err, n)
		}
		for _, im := range info.Images {
			if im.MIME != "image/png" || !bytes.Equal(im.Data, png) {
				t.Fatalf("row %d: image %s of %d bytes, want the PNG", row, im.MIME, len(im.Data))
			}
		}
	}
	for row, want := range map[int]string{2: `only a path ("fig.png")`, 3: "not an image file", 4: "image 0: null"} {
		_, _, err := envs.ResetTask(e, row, 0)
		if err == nil || !strings.Contains(err.Error(), `image column "images"`) || !strings.Contains(err.Error(), want) {
			t.Errorf("row %d: %v, want an error naming the column and %q", row, err, want)
		}
	}
}

// samePixels reports whether two PNG files hold the same picture.
func samePixels(t *testing.T, a, b []byte) bool {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				return false
			}
		}
	}
	return true
}
