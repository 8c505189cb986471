package retriever

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/quarry-rl/quarry/tools/search"
)

// Server defaults.
const (
	DefaultTopK            = 3
	DefaultMaxTopK         = 100
	DefaultMaxQueries      = 256
	DefaultMaxRequestBytes = 1 << 20
	DefaultShutdownTimeout = 10 * time.Second
)

// ServerConfig configures a Server. Zero fields take the defaults.
type ServerConfig struct {
	// TopK is used when a request has no topk (or 0), as GEM's server does
	// (default 3).
	TopK int
	// MaxTopK is the largest topk accepted (default 100).
	MaxTopK int
	// MaxQueries is the most queries one request may hold (default 256).
	MaxQueries int
	// MaxRequestBytes bounds a request body (default 1 MiB).
	MaxRequestBytes int64
	// ShutdownTimeout bounds how long Serve waits for requests in flight
	// after its context ends (default 10 s).
	ShutdownTimeout time.Duration
	// Logger receives one line per failed search and the server's start and
	// stop; nil discards them.
	Logger *slog.Logger
}

// Server answers POST /retrieve and GET /health over an Index.
//
// A /retrieve body is JSON or msgpack: the Content-Type decides, and when it
// names neither (GEM's client sends none) a body starting with '{' is JSON.
// The reply uses the request's encoding. The body holds either GEM's single
// query, {"query": q, "topk": k, "return_scores": b}, answered with
// {"result": [hit, …]}, or Search-R1's batch, {"queries": [q, …], …},
// answered with {"result": [[hit, …], …]}. A hit is
// {"document": {"id", "contents"}, "score"}; score is null unless
// return_scores is true.
type Server struct {
	index *Index
	cfg   ServerConfig
	log   *slog.Logger
	mux   *http.ServeMux
}

// NewServer returns a server over idx; idx stays owned by the caller.
func NewServer(idx *Index, cfg ServerConfig) (*Server, error) {
	if cfg.TopK == 0 {
		cfg.TopK = DefaultTopK
	}
	if cfg.MaxTopK == 0 {
		cfg.MaxTopK = DefaultMaxTopK
	}
	if cfg.MaxQueries == 0 {
		cfg.MaxQueries = DefaultMaxQueries
	}
	if cfg.MaxRequestBytes == 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	switch {
	case cfg.TopK < 1 || cfg.MaxTopK < 1 || cfg.TopK > cfg.MaxTopK:
		return nil, fmt.Errorf("retrieval server: topk %d, max topk %d: want 1 <= topk <= max", cfg.TopK, cfg.MaxTopK)
	case cfg.MaxQueries < 1:
		return nil, fmt.Errorf("retrieval server: max queries %d: want at least 1", cfg.MaxQueries)
	case cfg.MaxRequestBytes < 1:
		return nil, fmt.Errorf("retrieval server: max request bytes %d: want at least 1", cfg.MaxRequestBytes)
	case cfg.ShutdownTimeout < 0:
		return nil, fmt.Errorf("retrieval server: shutdown timeout %v: want a positive duration", cfg.ShutdownTimeout)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{index: idx, cfg: cfg, log: log, mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /retrieve", s.handleRetrieve)
	s.mux.HandleFunc("GET /health", s.handleHealth)
	return s, nil
}

// ServeHTTP routes to /retrieve and /health.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mux.ServeHTTP(w, r)
}

// Serve answers requests on ln until ctx ends, then shuts down gracefully:
// it stops accepting, lets requests in flight finish (within the shutdown
// timeout) and returns nil. ln is closed on return.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	s.log.Info("retrieval server listening", "addr", ln.Addr().String())

	select {
	case err := <-served:
		return fmt.Errorf("serve retrieval: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-served // http.ErrServerClosed once Shutdown began
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("shut down retrieval server: %w", err)
	}
	s.log.Info("retrieval server stopped")
	return nil
}

// request is a /retrieve body in either protocol.
type request struct {
	Query        *string  `json:"query" msgpack:"query"`
	Queries      []string `json:"queries" msgpack:"queries"`
	TopK         *int     `json:"topk" msgpack:"topk"`
	ReturnScores bool     `json:"return_scores" msgpack:"return_scores"`
}

type wireHit struct {
	Document Document `json:"document" msgpack:"document"`
	Score    *float64 `json:"score" msgpack:"score"`
}

type reply struct {
	Result any `json:"result" msgpack:"result"`
}

func (s *Server) handleRetrieve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxRequestBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", tooBig.Limit))
			return
		}
		httpError(w, http.StatusBadRequest, "read request body: "+err.Error())
		return
	}
	enc := search.EncodingOf(r.Header.Get("Content-Type"), body)
	req, err := decodeRequest(enc, body)
	if err != nil {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("bad %s request body: %v", enc, err))
		return
	}
	queries, single, k, err := s.validate(req)
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}

	results := make([][]wireHit, len(queries))
	for i, q := range queries {
		hits, err := s.index.Search(r.Context(), q, k)
		if err != nil {
			if r.Context().Err() != nil {
				return // the client is gone
			}
			s.log.Error("retrieve", "query", q, "err", err)
			httpError(w, http.StatusInternalServerError, "search failed")
			return
		}
		results[i] = make([]wireHit, len(hits))
		for j, h := range hits {
			results[i][j].Document = h.Document
			if req.ReturnScores {
				score := h.Score
				results[i][j].Score = &score
			}
		}
	}
	var out reply
	if single {
		out.Result = results[0]
	} else {
		out.Result = results
	}
	writeReply(w, enc, out)
}

func decodeRequest(enc search.Encoding, body []byte) (request, error) {
	var req request
	if len(bytes.TrimSpace(body)) == 0 {
		return req, errors.New("empty body")
	}
	if enc == search.JSON {
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&req); err != nil {
			return req, err
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return req, errors.New("data after the JSON object")
		}
		return req, nil
	}
	rd := bytes.NewReader(body)
	dec := msgpack.NewDecoder(rd)
	if err := dec.Decode(&req); err != nil {
		return req, err
	}
	if rd.Len() > 0 {
		return req, errors.New("data after the msgpack map")
	}
	return req, nil
}

// validate returns the queries to run, whether the request was GEM's single
// query, and the topk to use.
func (s *Server) validate(req request) (queries []string, single bool, k int, err error) {
	switch {
	case req.Query != nil && req.Queries != nil:
		return nil, false, 0, errors.New(`give "query" or "queries", not both`)
	case req.Query != nil:
		queries, single = []string{*req.Query}, true
	case req.Queries != nil:
		queries = req.Queries
		if len(queries) > s.cfg.MaxQueries {
			return nil, false, 0, fmt.Errorf(`"queries" holds %d queries; at most %d per request`, len(queries), s.cfg.MaxQueries)
		}
	default:
		return nil, false, 0, errors.New(`missing "query" (a string) or "queries" (a list of strings)`)
	}
	k = s.cfg.TopK
	if req.TopK != nil && *req.TopK != 0 {
		k = *req.TopK
	}
	if k < 1 || k > s.cfg.MaxTopK {
		return nil, false, 0, fmt.Errorf(`"topk" %d: want 1..%d`, k, s.cfg.MaxTopK)
	}
	return queries, single, k, nil
}

func writeReply(w http.ResponseWriter, enc search.Encoding, v any) {
	var (
		data []byte
		err  error
		ct   string
	)
	if enc == search.JSON {
		var buf bytes.Buffer
		je := json.NewEncoder(&buf)
		je.SetEscapeHTML(false) // passages keep their < > & as written
		err = je.Encode(v)
		data, ct = buf.Bytes(), "application/json"
	} else {
		data, err = msgpack.Marshal(v)
		ct = "application/msgpack"
	}
	if err != nil {
		httpError(w, http.StatusInternalServerError, "encode reply: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", ct)
	_, _ = w.Write(data)
}

func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	n, err := s.index.DocCount()
	if err != nil {
		s.log.Error("health", "err", err)
		httpError(w, http.StatusServiceUnavailable, "index unavailable")
		return
	}
	writeReply(w, search.JSON, map[string]any{"status": "ok", "documents": n})
}

// httpError replies with a plain-text message, readable by curl and quoted
// as is in the search tool's error observation.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}
