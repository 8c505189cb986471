package openaitest

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// FaultKind names what goes wrong with one request.
type FaultKind string

const (
	FaultNone FaultKind = ""
	// FaultRateLimit answers 429, with Retry-After when set.
	FaultRateLimit FaultKind = "rate_limit"
	// FaultServerError answers a 5xx (500 unless Status says otherwise),
	// with Retry-After when set.
	FaultServerError FaultKind = "server_error"
	// FaultSlow waits Delay before serving the request normally: set it
	// beyond the client's timeout.
	FaultSlow FaultKind = "slow"
	// FaultDrop reads the request, then closes the connection without a
	// response.
	FaultDrop FaultKind = "drop"
	// FaultGarbage answers 200 with a body that is not JSON.
	FaultGarbage FaultKind = "garbage"
)

// Fault is what happens to one chat completion request.
type Fault struct {
	Kind FaultKind
	// Status of a FaultServerError (default 500).
	Status int
	// RetryAfter, when positive, is sent as Retry-After: in whole seconds
	// (rounded up), or as an HTTP-date when RetryAfterDate is set (an
	// HTTP-date has one-second resolution, so the wait it asks for is
	// between RetryAfter-1s and RetryAfter).
	RetryAfter     time.Duration
	RetryAfterDate bool
	// Delay of a FaultSlow.
	Delay time.Duration
}

// RateLimit is a 429 asking the client to wait retryAfter (none when 0).
func RateLimit(retryAfter time.Duration) Fault {
	return Fault{Kind: FaultRateLimit, RetryAfter: retryAfter}
}

// ServerError is a 500.
func ServerError() Fault { return Fault{Kind: FaultServerError} }

// Slow serves the request normally after delay.
func Slow(delay time.Duration) Fault { return Fault{Kind: FaultSlow, Delay: delay} }

// Drop closes the connection without answering.
func Drop() Fault { return Fault{Kind: FaultDrop} }

// Garbage answers 200 with a body that is not JSON.
func Garbage() Fault { return Fault{Kind: FaultGarbage} }

// inject applies f; done reports that the request has been answered (or
// dropped) and must not be served.
func (s *Server) inject(w http.ResponseWriter, r *http.Request, rec *Record, f Fault) (done bool) {
	if f.RetryAfter > 0 && (f.Kind == FaultRateLimit || f.Kind == FaultServerError) {
		if f.RetryAfterDate {
			w.Header().Set("Retry-After", time.Now().Add(f.RetryAfter).UTC().Format(http.TimeFormat))
		} else {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(f.RetryAfter.Seconds()))))
		}
	}
	switch f.Kind {
	case FaultRateLimit:
		s.fail(w, rec, http.StatusTooManyRequests, "RateLimitError", "", "Too many requests: the server is at capacity, retry later.")
		return true
	case FaultServerError:
		status := f.Status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		s.fail(w, rec, status, "InternalServerError", "", "Internal server error (injected fault).")
		return true
	case FaultDrop:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic("openaitest: the response writer cannot hijack the connection")
		}
		conn, _, err := hj.Hijack()
		rec.Done = time.Now()
		s.commit(rec)
		if err == nil {
			conn.Close()
		}
		return true
	case FaultGarbage:
		s.reply(w, rec, http.StatusOK, []byte("<html><body>502 Bad Gateway</body></html>{\"id\": \"chatcmpl-"))
		return true
	case FaultSlow:
		return !s.sleep(r, f.Delay)
	}
	return false
}
