package inference

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Conditions callers branch on with errors.Is. Every error Generate and
// Preflight return for an endpoint's answer is an *Error whose Kind is one
// of these; only ErrUnavailable is worth retrying later.
var (
	// ErrContextLength: the prompt (plus max_tokens) exceeds the model's
	// context. Retrying the same request cannot succeed; an episode ends
	// truncated.
	ErrContextLength = errors.New("prompt exceeds the model's context length")
	// ErrAuth: the endpoint refused the API key (401/403), or the
	// environment variable that should hold it is unset.
	ErrAuth = errors.New("endpoint refused the API key")
	// ErrModelNotFound: the endpoint does not serve the model (404, or an
	// unknown model), or the base URL is wrong.
	ErrModelNotFound = errors.New("model not served")
	// ErrBadRequest: any other refusal of the request (4xx), or a request
	// Quarry itself refuses to send.
	ErrBadRequest = errors.New("request refused")
	// ErrUnavailable: the endpoint could not be reached or kept failing
	// (429, 5xx, timeouts, dropped connections) until the attempts or the
	// deadline ran out. Worth retrying later.
	ErrUnavailable = errors.New("endpoint unavailable")
	// ErrBadAnswer: the endpoint answered 200, but the answer failed
	// validation — not JSON, no choices, token ids asked for
	// (return_token_ids) and missing, logprobs that do not match the
	// response tokens — on every one of a bounded number of tries in a row
	// (WithBadAnswers).
	ErrBadAnswer = errors.New("endpoint gave a bad answer")
)

// Fault classes: what one failed attempt ran into, as recorded per turn
// (the last_fault column) and reported by Result.Faults and Progress.
const (
	FaultRateLimited   = "RateLimited"      // 429
	FaultServerError   = "ServerError"      // 5xx, 408, 425
	FaultTimeout       = "Timeout"          // no answer within the request timeout
	FaultUnreachable   = "Unreachable"      // the connection was refused
	FaultConnection    = "ConnectionFailed" // the connection dropped without an answer
	FaultBadAnswer     = "BadAnswer"        // a 200 that failed validation
	FaultModelNotFound = "ModelNotFound"
	FaultAuth          = "AuthRejected"
	FaultBadRequest    = "BadRequest"
	FaultContextLength = "ContextLength"
)

// Error is a failure of one endpoint, classified.
type Error struct {
	Kind     error  // one of the sentinels above
	Endpoint string // base URL
	Status   int    // HTTP status; 0 when no response arrived
	// Type, Code and Message come from the error body (vLLM's or OpenAI's
	// shape); Message never holds the API key.
	Type    string
	Code    string
	Message string
	// Attempts made before giving up (Generate only), and the class of
	// each one's failure, this one's last.
	Attempts int
	Faults   []string
	// RetryAfter is what the server asked for (429/503), zero if nothing.
	RetryAfter time.Duration
	// Err is the transport-level cause, if any.
	Err error

	fault string // the class, when Kind alone does not say it
}

// Fault is the failure's class, one of the Fault constants.
func (e *Error) Fault() string {
	if e.fault != "" {
		return e.fault
	}
	switch e.Kind {
	case ErrBadAnswer:
		return FaultBadAnswer
	case ErrModelNotFound:
		return FaultModelNotFound
	case ErrAuth:
		return FaultAuth
	case ErrContextLength:
		return FaultContextLength
	case ErrUnavailable:
		switch {
		case e.Status == http.StatusTooManyRequests:
			return FaultRateLimited
		case e.Status != 0:
			return FaultServerError
		}
		return FaultConnection
	}
	return FaultBadRequest
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "inference %s: %v", e.Endpoint, e.Kind)
	// A 200 is not news (a refusal read from a successful answer, say a
	// model missing from GET /models, must not look like an HTTP error).
	if e.Status != 0 && (e.Status < 200 || e.Status > 299) {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap exposes the kind (for errors.Is) and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// Retryable reports whether err is worth retrying later: the endpoint was
// unavailable. Context length, auth, model, request and bad-answer errors
// are not.
func Retryable(err error) bool { return errors.Is(err, ErrUnavailable) }

// errorBody is what an error response says, in either shape seen in the
// wild: {"error": {message, type, param, code}} (OpenAI; vLLM ≥ 0.10), or
// the same fields at the top level with "object": "error" (older vLLM).
// "error" can also be a bare string ({"error": "Unauthorized"}, vLLM's
// --api-key middleware); FastAPI's own 404 is {"detail": "Not Found"}.
type errorBody struct {
	Message string
	Type    string
	Param   string
	Code    string
}

func parseErrorBody(body []byte) errorBody {
	type fields struct {
		Message json.RawMessage `json:"message"`
		Type    string          `json:"type"`
		Param   *string         `json:"param"`
		Code    json.RawMessage `json:"code"`
	}
	var top struct {
		fields
		Error  json.RawMessage `json:"error"`
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &top) != nil {
		return errorBody{Message: clip(string(bytes.TrimSpace(body)))}
	}
	f := top.fields
	if len(top.Error) > 0 && top.Error[0] == '{' {
		var inner fields
		if json.Unmarshal(top.Error, &inner) == nil {
			f = inner
		}
	} else if len(top.Error) > 0 {
		f.Message = top.Error
	} else if len(f.Message) == 0 && len(top.Detail) > 0 {
		f.Message = top.Detail
	}
	e := errorBody{Type: f.Type, Message: clip(jsonText(f.Message)), Code: jsonText(f.Code)}
	if f.Param != nil {
		e.Param = *f.Param
	}
	return e
}

// jsonText renders a JSON string as its text and anything else (a number,
// a list of messages) as JSON.
func jsonText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func clip(s string) string {
	const limit = 600
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}

// contextPhrases identify a context-length refusal in an error message.
// vLLM has no structured code for it (its errors carry code = the HTTP
// status and type "BadRequestError"), so this is a heuristic over the
// messages of the servers Quarry targets, all lower-cased:
//   - vLLM: "This model's maximum context length is N tokens. However, your
//     request has M input tokens…", and "'max_tokens' or
//     'max_completion_tokens' is too large: K. This model's maximum context
//     length is N tokens and your request has M input tokens…", and older
//     "The decoder prompt (length M) is longer than the maximum model
//     length of N";
//   - SGLang: "The input (M tokens) is longer than the model's context
//     length (N tokens)";
//   - OpenAI: code "context_length_exceeded" (checked as a field first).
//
// Only 400, 413 and 422 answers are examined, so a phrase in a 5xx body
// never turns an outage into a permanent error.
var contextPhrases = []string{
	"maximum context length",
	"context length",
	"context_length_exceeded",
	"maximum model length",
	"max_model_len",
	"context window",
	"prompt is too long",
}

func isContextLength(status int, e errorBody) bool {
	if status != http.StatusBadRequest && status != http.StatusRequestEntityTooLarge && status != http.StatusUnprocessableEntity {
		return false
	}
	if e.Code == "context_length_exceeded" {
		return true
	}
	msg := strings.ToLower(e.Message)
	for _, p := range contextPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// classifyStatus turns a non-2xx answer into an *Error. key is redacted
// from the server's message wherever it appears.
func classifyStatus(endpoint string, status int, header http.Header, body []byte, key string, now time.Time) *Error {
	eb := parseErrorBody(body)
	e := &Error{Endpoint: endpoint, Status: status, Type: eb.Type, Code: eb.Code, Message: redact(eb.Message, key)}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = ErrAuth
		// OpenAI echoes a masked key in this message; say what to check
		// instead of repeating any of it.
		e.Message = "check the API key the worker reads from the environment variable named by api_key_env"
	case status == http.StatusTooManyRequests || status == http.StatusRequestTimeout ||
		status == http.StatusTooEarly || status >= 500:
		e.Kind = ErrUnavailable
		e.RetryAfter = parseRetryAfter(header.Get("Retry-After"), now)
	case status == http.StatusNotFound || eb.Type == "NotFoundError" || eb.Code == "model_not_found":
		e.Kind = ErrModelNotFound
		if e.Message == "" || e.Message == "Not Found" {
			e.Message = "not found: check the model name and that the base URL ends in /v1"
		}
	case isContextLength(status, eb):
		e.Kind = ErrContextLength
	default:
		e.Kind = ErrBadRequest
	}
	return e
}

// redact removes the API key from s.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "<redacted>")
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP-date
// (RFC 9110 §10.2.3); a fractional number of seconds, which some proxies
// send, is accepted too. Anything else, or a time in the past, is zero.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if !(secs > 0 && secs <= 24*3600) { // also refuses NaN
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}
