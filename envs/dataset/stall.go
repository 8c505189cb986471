package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// ErrStalled: a download made no progress (no connection, no response
// headers, no body bytes) for the stall timeout. The server may answer
// later: the failure is not remembered, and the next Open tries again.
var ErrStalled = errors.New("dataset download stalled")

// DefaultStallTimeout is how long a download may make no progress before
// it fails with ErrStalled (see WithStallTimeout).
const DefaultStallTimeout = time.Minute

// newHTTPClient is the client downloads use unless WithHTTPClient names
// one: connect, TLS handshake and response headers are each bounded by the
// stall timeout (connect and TLS by at most 30 s and 10 s), and idle
// connections are dropped after 90 s. A fresh client per load keeps no
// process-wide state; the caller closes its idle connections when done.
func newHTTPClient(stall time.Duration) *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: min(stall, 30*time.Second), KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   min(stall, 10*time.Second),
		ResponseHeaderTimeout: stall,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          4,
	}}
}

// watchdog cancels a download's context when it makes no progress for its
// timeout. Every call that makes progress (a response, a read of some
// bytes) kicks it; whatever client the download uses (a caller's
// *http.Client without timeouts, the S3 SDK's), a stall ends it.
type watchdog struct {
	ctx     context.Context
	timeout time.Duration
	timer   *time.Timer
	cancel  context.CancelCauseFunc
}

// startWatchdog returns a watchdog whose context (a child of ctx) ends
// after timeout without a kick. stop releases it.
func startWatchdog(ctx context.Context, timeout time.Duration) *watchdog {
	wctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{ctx: wctx, timeout: timeout, cancel: cancel}
	w.timer = time.AfterFunc(timeout, func() {
		cancel(fmt.Errorf("no progress for %s: %w", timeout, ErrStalled))
	})
	return w
}

func (w *watchdog) kick() { w.timer.Reset(w.timeout) }

func (w *watchdog) stop() {
	w.timer.Stop()
	w.cancel(nil)
}

// explain returns the error a download step failed with, as the reason
// the download stalled when it did: the watchdog fired, or a client
// timeout (connect, headers) ran out.
func (w *watchdog) explain(err error) error {
	if err == nil {
		return nil
	}
	// The URL a *url.Error carries may hold secrets; the caller names the
	// dataset without them.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if cause := context.Cause(w.ctx); errors.Is(cause, ErrStalled) {
		return cause
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && w.ctx.Err() == nil {
		return fmt.Errorf("%w (stall timeout %s): %w", err, w.timeout, ErrStalled)
	}
	return err
}

// reader wraps r so that every read returning bytes kicks the watchdog.
func (w *watchdog) reader(r io.Reader) io.Reader { return progressReader{w, r} }

type progressReader struct {
	w *watchdog
	r io.Reader
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.w.kick()
	}
	return n, err
}
