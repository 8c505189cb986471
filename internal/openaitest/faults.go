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
	// FaultNoChoices answers 200 with a well-formed completion whose
	// choices list is empty.
	FaultNoChoices FaultKind = "no_choices"
	// FaultNoTokenIDs serves the request but leaves prompt_token_ids and
	// token_ids null although return_token_ids asked for them.
	FaultNoTokenIDs FaultKind = "no_token_ids"
	// FaultShortLogprobs serves the request with one logprob fewer than
	// response tokens (logprobs that do not match the tokens).
	FaultShortLogprobs FaultKind = "short_logprobs"
	// FaultModelGone answers vLLM's 404 for a model it does not serve, as
	// an endpoint does while a trainer reloads weights under a new name.
	FaultModelGone FaultKind = "model_gone"
	// FaultHang never answers: the request waits until the client goes
	// away or the server closes.
	FaultHang FaultKind = "hang"
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

// NoChoices answers 200 with an empty choices list.
func NoChoices() Fault { return Fault{Kind: FaultNoChoices} }

// NoTokenIDs serves the answer without the token ids it was asked for.
func NoTokenIDs() Fault { return Fault{Kind: FaultNoTokenIDs} }

// ShortLogprobs serves the answer with one logprob missing.
func ShortLogprobs() Fault { return Fault{Kind: FaultShortLogprobs} }

// ModelGone answers 404: the model is not served.
func ModelGone() Fault { return Fault{Kind: FaultModelGone} }

// Hang never answers.
func Hang() Fault { return Fault{Kind: FaultHang} }

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
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return true
	case FaultModelGone:
		s.fail(w, rec, http.StatusNotFound, "NotFoundError", "model", "The model `%s` does not exist.", s.Weights().Model)
		return true
	}
	return false // the answer faults (no choices, no token ids, short logprobs) apply once it is built
}

// spoil applies an answer fault to a built response.
func spoil(resp *chatResponse, f FaultKind) {
	switch f {
	case FaultNoChoices:
		resp.Choices = []choice{}
	case FaultNoTokenIDs:
		resp.PromptTokenIDs = nil
		for i := range resp.Choices {
			resp.Choices[i].TokenIDs = nil
		}
	case FaultShortLogprobs:
		for i := range resp.Choices {
			if lp := resp.Choices[i].Logprobs; lp != nil && len(lp.Content) > 0 {
				lp.Content = lp.Content[:len(lp.Content)-1]
			} else {
				// Nothing to shorten: the logprobs list is empty, so make one
				// up that matches no token.
				resp.Choices[i].Logprobs = &choiceLogprobs{Content: []logprobContent{{TopLogprobs: []logprob{}}}}
			}
		}
	}
}
