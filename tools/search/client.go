package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"syscall"

	"github.com/vmihailenco/msgpack/v5"
)

// timeoutError is a call stopped by the tool's timeout.
type timeoutError struct{ msg string }

func (e timeoutError) Error() string { return e.msg }

// gemRequest is the body GEM's client sends (msgspec QueryRequest).
type gemRequest struct {
	Query        string `msgpack:"query" json:"query"`
	TopK         int    `msgpack:"topk" json:"topk"`
	ReturnScores bool   `msgpack:"return_scores" json:"return_scores"`
}

// searchR1Request is the body Search-R1's client sends (FastAPI QueryRequest).
type searchR1Request struct {
	Queries      []string `msgpack:"queries" json:"queries"`
	TopK         int      `msgpack:"topk" json:"topk"`
	ReturnScores bool     `msgpack:"return_scores" json:"return_scores"`
}

// hit is one entry of a reply's result. Only the contents are used.
type hit struct {
	Document *struct {
		Contents *string `msgpack:"contents" json:"contents"`
	} `msgpack:"document" json:"document"`
}

// retrieve asks the server for the top passages of query and returns their
// contents, best first.
func (t *Tool) retrieve(ctx context.Context, query string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()

	body, contentType, err := t.encodeRequest(query)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", contentType)

	resp, err := t.client.Do(req)
	if err != nil {
		return nil, t.describe(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, t.cfg.MaxResponseBytes+1))
	if err != nil {
		return nil, t.describe(ctx, err)
	}
	if int64(len(data)) > t.cfg.MaxResponseBytes {
		return nil, fmt.Errorf("retrieval server reply exceeds %d bytes", t.cfg.MaxResponseBytes)
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("retrieval server returned %s: %s", resp.Status, snippet(data))
	}
	return decodeReply(resp.Header.Get("Content-Type"), data)
}

func (t *Tool) encodeRequest(query string) (body []byte, contentType string, err error) {
	switch t.cfg.Encoding {
	case JSON:
		body, err = json.Marshal(searchR1Request{Queries: []string{query}, TopK: t.cfg.TopK, ReturnScores: true})
		contentType = "application/json"
	default:
		body, err = msgpack.Marshal(gemRequest{Query: query, TopK: t.cfg.TopK, ReturnScores: true})
		contentType = "application/msgpack"
	}
	if err != nil {
		return nil, "", fmt.Errorf("encode %s request: %w", t.cfg.Encoding, err)
	}
	return body, contentType, nil
}

// describe turns a transport error into the message the agent sees.
func (t *Tool) describe(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timeoutError{fmt.Sprintf("retrieval server did not answer within %v", t.cfg.Timeout)}
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return fmt.Errorf("cannot connect to retrieval server at %s: connection refused", t.cfg.URL)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return timeoutError{fmt.Sprintf("retrieval server did not answer within %v", t.cfg.Timeout)}
	}
	return fmt.Errorf("retrieval request failed: %w", err)
}

// decodeReply decodes {"result": …} by the reply's content type (sniffing
// the first byte when it names neither encoding). The result is either one
// list of hits (GEM's server: one query per request) or one list per query
// (Search-R1's server); either way the first query's hits are returned.
func decodeReply(contentType string, data []byte) ([]string, error) {
	enc := EncodingOf(contentType, data)
	var (
		hits []hit
		err  error
	)
	if enc == JSON {
		hits, err = decodeJSONResult(data)
	} else {
		hits, err = decodeMsgpackResult(data)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s reply: %w", enc, err)
	}
	contents := make([]string, 0, len(hits))
	for i, h := range hits {
		if h.Document == nil || h.Document.Contents == nil {
			return nil, fmt.Errorf("decode %s reply: result %d has no document.contents", enc, i)
		}
		contents = append(contents, *h.Document.Contents)
	}
	return contents, nil
}

func decodeJSONResult(data []byte) ([]hit, error) {
	var reply struct {
		Result *[]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return nil, err
	}
	if reply.Result == nil {
		return nil, errors.New(`no "result"`)
	}
	items := *reply.Result
	if len(items) > 0 && firstByte(items[0]) == '[' {
		// Search-R1: one list per query; we sent one query.
		var hits []hit
		if err := json.Unmarshal(items[0], &hits); err != nil {
			return nil, err
		}
		return hits, nil
	}
	hits := make([]hit, len(items))
	for i, raw := range items {
		if err := json.Unmarshal(raw, &hits[i]); err != nil {
			return nil, fmt.Errorf("result %d: %w", i, err)
		}
	}
	return hits, nil
}

func decodeMsgpackResult(data []byte) ([]hit, error) {
	var reply struct {
		Result *[]msgpack.RawMessage `msgpack:"result"`
	}
	if err := msgpack.Unmarshal(data, &reply); err != nil {
		return nil, err
	}
	if reply.Result == nil {
		return nil, errors.New(`no "result"`)
	}
	items := *reply.Result
	if len(items) > 0 && isMsgpackArray(items[0]) {
		var hits []hit
		if err := msgpack.Unmarshal(items[0], &hits); err != nil {
			return nil, err
		}
		return hits, nil
	}
	hits := make([]hit, len(items))
	for i, raw := range items {
		if err := msgpack.Unmarshal(raw, &hits[i]); err != nil {
			return nil, fmt.Errorf("result %d: %w", i, err)
		}
	}
	return hits, nil
}

// isMsgpackArray reports whether raw starts with a msgpack array header
// (fixarray, array 16, array 32).
func isMsgpackArray(raw []byte) bool {
	return len(raw) > 0 && (raw[0]&0xf0 == 0x90 || raw[0] == 0xdc || raw[0] == 0xdd)
}

// EncodingOf decides a body's encoding from its content type; when that names
// neither JSON nor msgpack (GEM's client sends none), a body whose first
// non-space byte is '{' is JSON and anything else msgpack.
func EncodingOf(contentType string, body []byte) Encoding {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		switch {
		case mt == "application/json" || strings.HasSuffix(mt, "+json"):
			return JSON
		case strings.HasSuffix(mt, "msgpack"): // application/msgpack, x-msgpack, vnd.msgpack
			return Msgpack
		}
	}
	if firstByte(body) == '{' {
		return JSON
	}
	return Msgpack
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// snippet is the start of an error reply, for the observation.
func snippet(b []byte) string {
	const limit = 200
	s := []rune(strings.TrimSpace(strings.ToValidUTF8(string(b), "?")))
	if len(s) > limit {
		return string(s[:limit]) + "…"
	}
	return string(s)
}
