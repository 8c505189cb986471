package dataenv

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/quarry-rl/quarry/envs"
)

// MaxImageBytes bounds one image of a row (Geometry3K's diagrams are a few
// KiB; a chat request carries every image base64-encoded).
const MaxImageBytes = 16 << 20

// Images reads an image column as Hugging Face stores its Image feature: a
// list of images or one image, each a {bytes, path} struct (Parquet), raw
// bytes, or — in JSON Lines, which has no bytes — a {"bytes": base64} object
// or a data URL string (data:image/png;base64,…). Only the bytes are read: an
// image that has a path and no bytes is refused (the file it names is not
// the dataset's). Each must be an image file (its media type is sniffed from
// its first bytes) of at most MaxImageBytes.
func Images(v any) ([]envs.Image, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	out := make([]envs.Image, 0, len(list))
	for i, x := range list {
		data, err := imageBytes(x)
		if err != nil {
			return nil, fmt.Errorf("image %d: %w", i, err)
		}
		if len(data) > MaxImageBytes {
			return nil, fmt.Errorf("image %d: %d bytes, over the limit of %d", i, len(data), MaxImageBytes)
		}
		mime := http.DetectContentType(data)
		if !strings.HasPrefix(mime, "image/") {
			return nil, fmt.Errorf("image %d: its bytes are not an image file (they look like %s)", i, mime)
		}
		out = append(out, envs.Image{MIME: mime, Data: data})
	}
	return out, nil
}

// imageBytes is one image's file bytes.
func imageBytes(x any) ([]byte, error) {
	switch v := x.(type) {
	case []byte:
		return v, nil
	case string:
		rest, ok := strings.CutPrefix(v, "data:")
		if !ok {
			return nil, errors.New("a string that is not a data URL (want data:image/…;base64,…)")
		}
		_, data, ok := strings.Cut(rest, ";base64,")
		if !ok {
			return nil, errors.New("a data URL that is not base64 (want data:image/…;base64,…)")
		}
		return decodeBase64(data)
	case map[string]any:
		switch b := v["bytes"].(type) {
		case []byte:
			return b, nil
		case string:
			return decodeBase64(b)
		case nil:
			if p, ok := v["path"].(string); ok && p != "" {
				return nil, fmt.Errorf("only a path (%q) and no bytes; Quarry reads images from the dataset's bytes only", p)
			}
			return nil, errors.New("no bytes")
		}
		return nil, fmt.Errorf("bytes holds a %T, want binary (or base64 text in JSON Lines)", v["bytes"])
	case nil:
		return nil, errors.New("null")
	}
	return nil, fmt.Errorf("a %T, want a {bytes, path} struct, bytes or a data URL", x)
}

func decodeBase64(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("bytes are not base64: %w", err)
	}
	return b, nil
}
