package mcp

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// spyRoundTripper captures raw tools/list responses over streamable HTTP
// (wrapping the SDK's HTTP connection itself would hide its session
// bookkeeping). It looks only at POSTs whose body is a tools/list request,
// and reads their response as it passes to the SDK, JSON or event stream.
type spyRoundTripper struct {
	base http.RoundTripper
	raw  *rawSchemas
}

func (s *spyRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	listing := false
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, 1<<20))
			body.Close()
			if msg, err := jsonrpc.DecodeMessage(data); err == nil {
				if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() && r.Method == "tools/list" {
					s.raw.inspect(r)
					listing = true
				}
			}
		}
	}
	resp, err := s.base.RoundTrip(req)
	if err != nil || !listing {
		return resp, err
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		resp.Body = &spyBody{ReadCloser: resp.Body, raw: s.raw}
	case "text/event-stream":
		resp.Body = &spyBody{ReadCloser: resp.Body, raw: s.raw, sse: true}
	}
	return resp, nil
}

// spyBody sees each message before the SDK can decode it: a JSON body at
// EOF, an event as soon as its terminating blank line has been read.
type spyBody struct {
	io.ReadCloser
	raw  *rawSchemas
	sse  bool
	buf  []byte
	data []string // data lines of the current event
}

func (b *spyBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if len(b.buf) < 16<<20 {
		b.buf = append(b.buf, p[:n]...)
	}
	if b.sse {
		b.events()
	} else if err == io.EOF {
		b.decode(b.buf)
	}
	return n, err
}

func (b *spyBody) events() {
	for {
		i := bytes.IndexByte(b.buf, '\n')
		if i < 0 {
			return
		}
		line := strings.TrimSuffix(string(b.buf[:i]), "\r")
		b.buf = b.buf[i+1:]
		switch {
		case line == "":
			if len(b.data) > 0 {
				b.decode([]byte(strings.Join(b.data, "\n")))
				b.data = nil
			}
		case strings.HasPrefix(line, "data:"):
			b.data = append(b.data, strings.TrimPrefix(line[len("data:"):], " "))
		}
	}
}

func (b *spyBody) decode(data []byte) {
	if msg, err := jsonrpc.DecodeMessage(data); err == nil {
		b.raw.inspect(msg)
	}
}
