package mathenv

import (
	"bytes"
	"encoding/base64"
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
	want, err := visualSample()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("samples", Geometry3K.Sample)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skip("sample rewritten; rebuild to embed it")
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the generator's output (%v); run `go test ./envs/mathenv -run TestVisualSample -update` (and bump Revision)", path, err)
	}
	e := envtest.Make(t, registry(t), Geometry3K.ID, nil)
	items := visualItems()
	if n, err := envs.Rows(e); err != nil || n != len(items) {
		t.Fatalf("rows %d, %v; want %d", n, err, len(items))
	}
	for i, it := range items {
		obs, info, err := envs.ResetTask(e, i, 0)
		if err != nil {
			t.Fatal(err)
		}
		if obs != it.Problem {
			t.Fatalf("row %d: observation %q, want %q", i, obs, it.Problem)
		}
		if len(info.Images) != 1 || !info.Images[0].Equal(visualImage(i)) {
			t.Fatalf("row %d: images %v, want the row's PNG", i, info.Images)
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
	im := visualImage(1)
	text := strings.TrimPrefix(visualItems()[1].Problem, envs.ImageMarker)
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
