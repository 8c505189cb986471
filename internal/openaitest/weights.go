package openaitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// WeightsHeader is the response header naming the weights version that
// produced a reply (chat completions and GET /v1/models).
const WeightsHeader = "X-Quarry-Weights"

// Weights is what the server serves: a weights version under a model name.
type Weights struct {
	Version string `json:"version"`
	Model   string `json:"model"`
}

// SwapOptions says how a weights swap looks from outside.
type SwapOptions struct {
	// Unavailable is a window, from the start of the swap, during which
	// chat completions and GET /v1/models are refused (none when 0). It
	// ends on a timer inside the server, as a real reload ends on its own:
	// a client sees its end by polling.
	Unavailable time.Duration
	// Status of the refusals: 404, vLLM's model-not-found error for the
	// model served before the swap (as FaultModelGone answers), or 503, a
	// service-unavailable error (the default when 0). Their records say
	// FaultModelGone or FaultServerError, ChatSeq -1 and no Version.
	Status int
	// Model, when set, is the model name served from the end of the swap
	// on: the old name then answers 404 model-not-found, and GET
	// /v1/models lists the new one.
	Model string
}

// Weights returns what the server serves now. During a swap's window it is
// still the old version (which serves nothing: requests are refused).
func (s *Server) Weights() Weights {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live
}

// SwapWeights loads weights version (under opts.Model, when set) and
// returns once the swap is complete: after opts.Unavailable, during which
// the API refuses requests. Requests admitted before the swap began finish
// with the version they were admitted with. Swaps apply one at a time: one
// called during another waits for it to complete. It fails on invalid
// options, or when the server closes during the window.
func (s *Server) SwapWeights(version string, opts SwapOptions) error {
	_, err := s.swap(version, opts)
	return err
}

// swap is SwapWeights, returning the Weights it put live.
func (s *Server) swap(version string, opts SwapOptions) (Weights, error) {
	if version == "" {
		return Weights{}, errors.New("swap weights: version is empty")
	}
	if opts.Unavailable < 0 {
		return Weights{}, fmt.Errorf("swap weights: unavailable %v: must not be negative", opts.Unavailable)
	}
	status := opts.Status
	if status == 0 {
		status = http.StatusServiceUnavailable
	}
	if status != http.StatusNotFound && status != http.StatusServiceUnavailable {
		return Weights{}, fmt.Errorf("swap weights: status %d: want 404 or 503 (0 means 503)", opts.Status)
	}
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if opts.Unavailable > 0 {
		s.mu.Lock()
		s.window = status
		s.mu.Unlock()
		t := time.NewTimer(opts.Unavailable)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.stop:
			return Weights{}, fmt.Errorf("swap weights to %s: the server closed during the unavailable window", version)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.window = 0
	s.live.Version = version
	if opts.Model != "" {
		s.live.Model = opts.Model
	}
	return s.live, nil
}

// refuse answers a request that arrived during a swap's window.
func (s *Server) refuse(w http.ResponseWriter, rec *Record, status int, model string) {
	if status == http.StatusNotFound {
		rec.Fault = FaultModelGone
		s.fail(w, rec, status, "NotFoundError", "model", "The model `%s` does not exist.", model)
		return
	}
	rec.Fault = FaultServerError
	s.fail(w, rec, status, "ServiceUnavailableError", "", "The server is loading new weights; retry later.")
}

// served writes a 200 the weights version produced.
func (s *Server) served(w http.ResponseWriter, rec *Record, version string, body []byte) {
	rec.Version = version
	w.Header().Set(WeightsHeader, version)
	s.reply(w, rec, http.StatusOK, body)
}

// swapRequest is POST /admin/weights's body.
type swapRequest struct {
	Version       string `json:"version"`
	UnavailableMS int64  `json:"unavailable_ms"`
	Status        int    `json:"status"`
	Model         string `json:"model"`
}

// getWeights answers GET /admin/weights with the live Weights.
func (s *Server) getWeights(w http.ResponseWriter, _ *http.Request) {
	writeAdmin(w, http.StatusOK, s.Weights())
}

// postWeights does SwapWeights for a trainer in another process and
// answers with the Weights served once it is complete.
func (s *Server) postWeights(w http.ResponseWriter, r *http.Request) {
	var req swapRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeAdminError(w, fmt.Errorf("POST /admin/weights body (want {\"version\", \"unavailable_ms\", \"status\", \"model\"}): %w", err))
		return
	}
	if req.UnavailableMS < 0 {
		writeAdminError(w, fmt.Errorf("unavailable_ms %d: must not be negative", req.UnavailableMS))
		return
	}
	opts := SwapOptions{Unavailable: time.Duration(req.UnavailableMS) * time.Millisecond, Status: req.Status, Model: req.Model}
	live, err := s.swap(req.Version, opts)
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdmin(w, http.StatusOK, live)
}

func writeAdmin(w http.ResponseWriter, status int, v any) {
	body, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

// writeAdminError answers a bad swap request (or one the server's Close
// cut short, which no client sees: Close drops the connections) with a 400
// in vLLM's error shape.
func writeAdminError(w http.ResponseWriter, err error) {
	e := errorInfo{Message: err.Error(), Type: "BadRequestError", Code: http.StatusBadRequest}
	writeAdmin(w, http.StatusBadRequest, map[string]errorInfo{"error": e})
}
